"""Games for the live-page tests (tests/web/test_events.py, tests/browser/test_live.py):
one running game of each kind with two human seats (and computer players up to its
minimum), made through the services, and log-in cookies without the password round."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.core import registry
from spyhouse.service import accounts, games
from spyhouse.settings import Settings
from spyhouse.store.tables import Game, SeatRow, User

#: Two seat names each game's rules accept.
NAMES = {"spyvsspy": ("Buttmans Brigade", "Greedy Gimps"), "kingdoms": ("Ardenia", "Borovia"),
         "infiltration": ("Ann", "Bob"), "spyorlie": ("Ann", "Bob")}
GAMES = tuple(NAMES)


@dataclass(frozen=True, slots=True)
class LiveGame:
    """A started game: its id, the two players' user names and cookie tokens (seats
    ``s1`` and ``s2``; the first is the host), and an outsider's token."""

    id: int
    users: tuple[str, str]
    tokens: tuple[str, str]
    outsider: str


def user(db: Session, name: str, now: datetime) -> User:
    """A user without the cost of argon2 (it logs in by a session token)."""
    row = User(username=name, username_key=name.casefold(), email=f"{name}@example.org",
               password_hash="not-a-hash", email_public=False, created_at=now)
    db.add(row)
    db.flush()
    return row


def start_game(factory: sessionmaker[Session], settings: Settings, game: str, now: datetime,
               *, public: bool = True, prefix: str = "") -> LiveGame:
    """A running ``game``: two human seats, computer players up to its minimum."""
    with factory() as db:
        names = (f"{prefix}{game[:4]}one", f"{prefix}{game[:4]}two")
        players = [user(db, name, now) for name in names]
        outsider = user(db, f"{prefix}{game[:4]}out", now)
        row = games.create_game(db, players[0], game=game, title="Live test",
                                options={}, schedule={"interval_hours": 48}, max_seats=None,
                                now=now, public=public)
        for who, name in zip(players, NAMES[game], strict=True):
            games.join_game(db, who, row.id, name=name, player=who.username,
                            show_email=False, now=now)
        bots = registry.plugin(game).bots
        assert bots is not None
        for _ in range(max(0, row.min_seats - 2)):
            games.add_bot(db, players[0], row.id, strategy=bots.strategies[0], now=now)
        games.start_game(db, players[0], row.id, now, settings=settings)
        tokens = tuple(accounts.open_session(db, who, now, settings)[0]
                       for who in (*players, outsider))
        db.commit()
        return LiveGame(row.id, (names[0], names[1]), (tokens[0], tokens[1]), tokens[2])


def close_turn(factory: sessionmaker[Session], settings: Settings, game_id: int,
               now: datetime) -> None:
    """The host closes the open entry: the worker resolves it on its next round."""
    with factory() as db:
        game = db.get(Game, game_id)
        assert game is not None
        games.request_processing(db, game.host, game_id, now, settings=settings)
        db.commit()


def seat(db: Session, game_id: int, seat_id: str) -> SeatRow:
    found = db.scalar(select(SeatRow).where(SeatRow.game_id == game_id,
                                            SeatRow.seat_id == seat_id))
    assert found is not None
    return found
