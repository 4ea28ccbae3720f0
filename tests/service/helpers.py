"""Helpers for the service, worker and mail tests: users, games, sheets."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from spyhouse.service import games
from spyhouse.store.tables import Game, OutboxMail, Report, SeatRow, TurnRow, User

NAMES = ("Buttmans Brigade", "Greedy Gimps", "Hoodless Wonders", "Mad Bobs", "Toady's Mob")
HOURLY: dict[str, Any] = {"interval_hours": 1}


def make_user(db: Session, name: str, now: datetime) -> User:
    """A user without the cost of argon2 (these tests never log in)."""
    user = User(username=name, username_key=name.casefold(), email=f"{name}@example.org",
                password_hash="not-a-hash", email_public=True, created_at=now)
    db.add(user)
    db.flush()
    return user


def new_game(db: Session, host: User, now: datetime, *, schedule: Any = HOURLY,
             options: dict[str, Any] | None = None, seed: int = 20261130,
             max_seats: int | None = None) -> Game:
    return games.create_game(db, host, game="spyvsspy", title="Lantern Street",
                             options=options or {}, schedule=schedule, max_seats=max_seats,
                             now=now, seed=seed)


def seat_players(db: Session, game: Game, users: Sequence[User], now: datetime, *,
                 bots: Sequence[str] = (), bases: Sequence[str | None] = ()) -> list[SeatRow]:
    """Seat ``users`` (with ``bases``, if given) and then ``bots``."""
    seats = []
    for index, user in enumerate(users):
        base = bases[index] if index < len(bases) else None
        seats.append(games.join_game(db, user, game.id, name=NAMES[index], player=user.username,
                                     show_email=True, choice=base, now=now))
    for strategy in bots:
        seats.append(games.add_bot(db, game.host, game.id, strategy=strategy, now=now))
    return seats


def started_game(db: Session, now: datetime, *, humans: int = 2, bots: Sequence[str] = (),
                 schedule: Any = HOURLY, bases: Sequence[str | None] = (),
                 options: dict[str, Any] | None = None) -> tuple[Game, list[User]]:
    """A started Spy vs Spy game hosted by the first of ``humans`` players."""
    users = [make_user(db, f"player{n}", now) for n in range(1, humans + 1)]
    game = new_game(db, users[0], now, schedule=schedule, options=options)
    seat_players(db, game, users, now, bots=bots, bases=bases)
    games.start_game(db, users[0], game.id, now)
    db.commit()
    return game, users


def work_sheet(view: dict[str, Any], region: str = "H") -> dict[str, Any]:
    """Every surviving spy WORKs in ``region``: always valid, no warnings."""
    return {"spies": {str(spy["number"]): {"task": "WORK", "region": region}
                      for spy in view["spies"] if not spy["killed"]}}


def count(db: Session, table: Any, **where: Any) -> int:
    query = select(func.count()).select_from(table)
    for key, value in where.items():
        query = query.where(getattr(table, key) == value)
    return int(db.scalar(query) or 0)


def mails(db: Session, kind: str | None = None) -> list[OutboxMail]:
    query = select(OutboxMail).order_by(OutboxMail.id)
    if kind is not None:
        query = query.where(OutboxMail.kind == kind)
    return list(db.scalars(query))


__all__ = ["HOURLY", "NAMES", "Report", "TurnRow", "count", "mails", "make_user", "new_game",
           "seat_players", "started_game", "work_sheet"]
