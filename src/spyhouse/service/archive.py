"""Watching and keeping games: who may read a game, the archive of finished public games,
a game's record for download, and games imported from a record file.

- **Who reads**: a public game (``games.public``, the default) may be watched by anyone,
  logged in or not; a private one only by its members (its host and the users holding
  its seats) once it has started (while it is open anyone may find it, to join it).
  Everything else answers ``NotFound``, so a private game's existence is not told
  (``check_watch``).
- **The record** (``record_for``): after the end, whoever may watch the game; before the
  end only the host holding no seat (the host page's rule: a playing host must not see
  every secret, and the record holds every order and the seed).
- **The archive** (``archive_ids``, ``archive_rows``): finished public games, newest
  first. Each row's result comes from the stored public view of the last entry and its
  head from the stored record (no replay), memoised per process (a finished game's record
  never changes).
- **Import** (``import_record``): a record file checked as ``spyhouse verify`` checks it
  (the chain, then a replay of every entry) becomes a finished, public game marked
  ``imported``, stored exactly as a game played here (seats without users, turns with
  their stored chain, every entry's views), so every page reads it as any other game.
  Importing the same record twice makes two games (a record is not an identity: two
  archives may each want it).
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import func, or_, select
from sqlalchemy.orm import Session

from spyhouse.core import record as records
from spyhouse.core import registry
from spyhouse.core.errors import RecordError
from spyhouse.core.record import Record
from spyhouse.service import accounts
from spyhouse.service import records as store
from spyhouse.service.errors import Invalid, NotFound
from spyhouse.service.gamelocks import database_token
from spyhouse.service.notify import add_news
from spyhouse.service.text import check_line
from spyhouse.store.tables import Game, Report, SeatRow, TurnRow, User

#: Rows of the archive page (``web.render.Pager``'s page size there).
ARCHIVE_ROWS = 50
#: The site's column limits a record's seats must fit (``store.tables.SeatRow``).
SEAT_LIMITS = {"id": 16, "name": 40, "player": 80, "email": 254}
MAX_TITLE = 80
NO_GAME = "there is no such game"


# ---------------------------------------------------------------- who may read


def is_member(db: Session, game: Game, user: User | None) -> bool:
    """Whether ``user`` hosts ``game`` or holds one of its seats."""
    if user is None:
        return False
    if game.host_id == user.id:
        return True
    return db.scalar(select(SeatRow.id).where(SeatRow.game_id == game.id,
                                              SeatRow.user_id == user.id)) is not None


def may_watch(db: Session, game: Game, user: User | None) -> bool:
    """A public game: anyone; a private one: its members, and anyone while it is open
    (there is nothing to watch before the start, and players must find it to join)."""
    return game.public or game.status == "open" or is_member(db, game, user)


def check_watch(db: Session, game_id: int, user: User | None) -> Game:
    """The game ``user`` may watch (``NotFound`` otherwise, as for no game at all)."""
    game = db.get(Game, game_id)
    if game is None or not may_watch(db, game, user):
        raise NotFound(NO_GAME)
    return game


def may_download(db: Session, game: Game, user: User | None) -> bool:
    """The record's rule: after the end whoever may watch; before, the host holding no
    seat (as the host page: the record holds every order and the seed)."""
    if game.status == "over":
        return may_watch(db, game, user)
    if user is None or game.host_id != user.id:
        return False
    return db.scalar(select(SeatRow.id).where(SeatRow.game_id == game.id,
                                              SeatRow.user_id == user.id)) is None


def record_for(db: Session, game_id: int, user: User | None, *,
               seat_game: bool = False) -> Record:
    """The game's record for ``user`` to download (``NotFound`` when they may not).
    ``seat_game``: the caller holds a seat of this game (an API token), which makes them
    a member of a private game once it is over."""
    game = db.get(Game, game_id)
    if game is None:
        raise NotFound(NO_GAME)
    allowed = may_download(db, game, user) or (seat_game and game.status == "over")
    if not allowed:
        raise NotFound(NO_GAME)
    return store.load_record(db, game)


# ---------------------------------------------------------------- the archive


def archive_ids(db: Session, *, game: str = "", player: str = "") -> list[int]:
    """The ids of the finished public games, newest first (``finished_at``, then id);
    ``game``: only that game; ``player``: only games with a seat whose player or name
    holds that text (case-insensitive)."""
    query = select(Game.id).where(Game.status == "over", Game.public.is_(True))
    if game:
        query = query.where(Game.game == game)
    text = player.strip().lower()
    if text:
        matching = select(SeatRow.game_id).where(or_(
            func.lower(SeatRow.player).contains(text, autoescape=True),
            func.lower(SeatRow.name).contains(text, autoescape=True)))
        query = query.where(Game.id.in_(matching))
    query = query.order_by(Game.finished_at.desc(), Game.id.desc())
    return list(db.scalars(query))


@dataclass(frozen=True, slots=True)
class ArchiveRow:
    """One finished game as the archive lists it."""

    game: Game
    kind: str  # the game's title, as its spec gives it
    players: list[tuple[str, str]]  # (seat name, player), in seat order
    result: str | None  # the game's result line, from the public view
    head: str | None  # the record's head (None: its stored chain does not hold)


def archive_rows(db: Session, ids: Sequence[int]) -> list[ArchiveRow]:
    """The rows of the games ``ids``, in that order: three queries for the page (games,
    seats, the last entries' public views) and the turns of any game whose head is not
    memoised yet."""
    if not ids:
        return []
    found = {game.id: game for game in db.scalars(select(Game).where(Game.id.in_(ids)))}
    games = [found[game_id] for game_id in ids if game_id in found]
    seats: dict[int, list[SeatRow]] = {}
    for seat in db.scalars(select(SeatRow).where(SeatRow.game_id.in_(ids))
                           .order_by(SeatRow.game_id, SeatRow.position)):
        seats.setdefault(seat.game_id, []).append(seat)
    publics: dict[int, dict[str, Any]] = {}
    wanted = {(game.id, game.entry) for game in games}
    for game_id, entry, view in db.execute(
            select(Report.game_id, Report.entry, Report.view).where(
                Report.game_id.in_(ids), Report.seat_id == store.PUBLIC_KEY)):
        if (game_id, entry) in wanted:
            publics[game_id] = view
    heads = record_heads(db, games, seats)
    rows = []
    for game in games:
        plugin = registry.plugin(game.game)
        own = seats.get(game.id, [])
        names = {seat.seat_id: seat.name for seat in own}
        public = publics.get(game.id)
        found_result = plugin.pages.result(public, names) if public is not None else None
        rows.append(ArchiveRow(
            game=game, kind=plugin.ruleset().spec.title,
            players=[(seat.name, seat.player) for seat in own],
            result=found_result.line if found_result is not None else None,
            head=heads.get(game.id)))
    return rows


_HEADS_SIZE = 4096
#: (database, game id, entry, the seats' header) -> the record's head: a stored entry
#: never changes, and the header is in the key, so a hit is the record's head now.
_heads: OrderedDict[tuple[int, int, int, str], str] = OrderedDict()
_heads_lock = threading.Lock()


def _header_key(seats: Iterable[SeatRow]) -> str:
    return json.dumps([[s.seat_id, s.name, s.player, s.public_email] for s in seats],
                      ensure_ascii=False)


def record_heads(db: Session, games: Sequence[Game],
                 seats: dict[int, list[SeatRow]]) -> dict[int, str]:
    """The head of each game's record (``core.record.head`` of ``load_record``): from the
    memo, else from the stored turns of the games missing, loaded in one query and their
    stored chain checked. A game whose stored chain does not hold has none."""
    token = database_token(db)
    keys = {game.id: (token, game.id, game.entry, _header_key(seats.get(game.id, [])))
            for game in games}
    heads: dict[int, str] = {}
    with _heads_lock:
        for game_id, key in keys.items():
            if key in _heads:
                _heads.move_to_end(key)
                heads[game_id] = _heads[key]
    missing = [game for game in games if game.id not in heads]
    if not missing:
        return heads
    turns: dict[int, list[TurnRow]] = {}
    for turn in db.scalars(select(TurnRow).where(TurnRow.game_id.in_([g.id for g in missing]))
                           .order_by(TurnRow.game_id, TurnRow.entry)):
        turns.setdefault(turn.game_id, []).append(turn)
    for game in missing:
        own = turns.get(game.id, [])
        record = store.build_record(game, seats.get(game.id, []), own)
        try:
            store.check_chain(game.id, record, [turn.chain for turn in own])
        except store.RecordChanged:
            continue
        heads[game.id] = records.head(record)
        with _heads_lock:
            _heads[keys[game.id]] = heads[game.id]
            while len(_heads) > _HEADS_SIZE:
                _heads.popitem(last=False)
    return heads


# ---------------------------------------------------------------- import


class BadRecord(Invalid):
    """A record file refused: ``message`` is the one line ``spyhouse verify`` prints."""

    def __init__(self, message: str) -> None:
        super().__init__(message, {"record": [message]})


def checked_record(text: str) -> Record:
    """The record of ``text`` with its chain checked (``core.record``'s limits: size,
    depth, shape); ``BadRecord`` with ``spyhouse verify``'s line otherwise. The orders
    are replayed by ``import_record``."""
    try:
        verdict = records.verify(records.parse_json(text))
    except RecordError as exc:
        raise BadRecord(str(exc)) from None
    if verdict.problem is not None:
        raise BadRecord(verdict.problem)
    return verdict.record


def _check_seats(record: Record) -> None:
    for seat in record.seats:
        values = {"id": seat.id, "name": seat.name, "player": seat.player,
                  "email": seat.email or ""}
        for key, limit in SEAT_LIMITS.items():
            if len(values[key]) > limit:
                raise BadRecord(f"seat {seat.id[:SEAT_LIMITS['id']]}: its {key} is longer "
                                f"than this site's {limit} characters")


def default_title(record: Record) -> str:
    return f"{registry.get(record.game).spec.title}, seed {record.seed}"[:MAX_TITLE]


def import_record(db: Session, text: str, host: User, now: datetime, *,
                  title: str = "") -> Game:
    """Make a finished, public game marked ``imported`` from the record file ``text``,
    hosted by ``host``: the chain checked, every entry replayed and its views stored (as
    ``process_turn`` stores them), a news line saying where it came from. A bad record
    raises ``BadRecord`` with ``spyhouse verify``'s line, a record whose game is not over
    ``BadRecord`` too; either way nothing is left in ``db`` (a savepoint)."""
    record = checked_record(text)
    _check_seats(record)
    title = (title.strip() or default_title(record))
    if len(title) > MAX_TITLE:
        raise Invalid(f"the title needs 1 to {MAX_TITLE} characters",
                      {"title": [f"1 to {MAX_TITLE} characters"]})
    check_line(title, "title", "the title")
    ruleset = registry.get(record.game)
    seat_ids = [seat.id for seat in record.seats]
    entries = len(record.turns)
    with db.begin_nested():
        game = Game(game=record.game, title=title, status="over", host_id=host.id,
                    seed=record.seed, options=json.loads(json.dumps(record.options)),
                    schedule="all_submitted", min_seats=len(seat_ids),
                    max_seats=len(seat_ids), entry=entries, extended_hours=0, paused_s=0,
                    awaiting=[], created_at=now, started_at=now, finished_at=now,
                    public=True, imported=True)
        db.add(game)
        db.flush()
        for position, seat in enumerate(record.seats, start=1):
            db.add(SeatRow(game_id=game.id, seat_id=seat.id, position=position,
                           user_id=None, bot=None, name=seat.name, player=seat.player,
                           public_email=seat.email, setup={}, created_at=now))
        for entry, (orders, chained) in enumerate(
                zip(record.turns, store.stored_chain(record), strict=True), start=1):
            db.add(TurnRow(game_id=game.id, entry=entry, orders=dict(orders),
                           processed_at=now, chain=chained))
        state: Any = None
        public: dict[str, Any] = {}
        try:
            for entry, state in enumerate(records.replay(record)):
                public = store.write_views(db, ruleset, game.id, entry, state, seat_ids)
        except RecordError as exc:
            raise BadRecord(str(exc)) from None
        if ruleset.outcome(state) is None and ruleset.awaiting(state):
            raise BadRecord(f"the game is not over after entry {entries}: only finished "
                            "games are imported")
        db.flush()
        stored = store.load_record(db, game)
        if stored.to_json() != record.to_json():  # e.g. options the store would reorder
            raise BadRecord("this record cannot be stored as it is written")
        store.remember(stored, state)
        plugin = registry.plugin(record.game)
        found = plugin.pages.result(public, {seat.id: seat.name for seat in record.seats})
        step = plugin.words.turn
        line = f"Imported from a record file: {entries} {step}{'' if entries == 1 else 's'}"
        line += f" on record, head {records.head(record)[:12]}…."
        if found is not None:
            line += f" {found.line}"
        add_news(db, game, "imported", line, now)
    return game


# ---------------------------------------------------------------- the importing account

#: The account that hosts games ``spyhouse import`` makes without ``--as``: made on first
#: use, without a password (no one can log in as it).
ARCHIVE_USER = "archive"
ARCHIVE_EMAIL = "archive@invalid"
#: A password hash no password matches (argon2 refuses to read it: ``accounts._verify``
#: answers no).
NO_PASSWORD = "!no password: the archive's own account"


def import_host(db: Session, username: str | None, now: datetime) -> User:
    """Who hosts an imported game: the account ``username``, or the archive's own account
    (``ARCHIVE_USER``, made when missing; refused if a person has taken that name)."""
    key = accounts.username_key(username if username is not None else ARCHIVE_USER)
    user = db.scalar(select(User).where(User.username_key == key))
    if username is not None:
        if user is None:
            raise NotFound(f"there is no account {username!r}")
        return user
    if user is None:
        user = User(username=ARCHIVE_USER, username_key=key, email=ARCHIVE_EMAIL,
                    password_hash=NO_PASSWORD, email_public=False, created_at=now)
        db.add(user)
        db.flush()
    elif user.password_hash != NO_PASSWORD:
        raise Invalid(f"the account {ARCHIVE_USER!r} is a person's: name the host with "
                      "--as USERNAME", {"as": ["name the host"]})
    return user
