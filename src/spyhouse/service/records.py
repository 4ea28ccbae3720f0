"""A stored game as a record, its states and views, row locks, bots: shared by the use cases.

The store keeps each game's record in rows (``games`` seed and options, ``seats``,
``turns``) and snapshots of every view: each entry's shared part once (``view_shares``)
and each reader's own part (``reports``), joined by the rules' ``joined_view`` when
read. Everything a page shows comes from the snapshots; everything the rules decide
comes from replaying the record through ``core.record`` (so the server resolves exactly
as ``spyhouse replay`` does). Replays are memoised per process by the digest of the
record, so submitting orders does not replay the whole game every time; and by
(database, game, entry, the seats' version) in ``state_at``, so an order does not even
reload and hash the game's turns: a stored entry never changes.
"""

from __future__ import annotations

import gc
import hashlib
import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from typing import Any, Literal

from sqlalchemy import Table, bindparam, insert, select, update
from sqlalchemy.orm import Session, lazyload

from spyhouse.core import bots as bot_registry
from spyhouse.core import record as records
from spyhouse.core import registry
from spyhouse.core.bots import Bot
from spyhouse.core.errors import OrderError
from spyhouse.core.record import Record
from spyhouse.core.rng import Rng
from spyhouse.core.ruleset import Ruleset, Seat, SeatId
from spyhouse.service.errors import Conflict, NotFound
from spyhouse.service.gamelocks import database_token
from spyhouse.settings import Settings
from spyhouse.store.tables import Game, Report, SeatRow, TurnRow, ViewShare

log = logging.getLogger("spyhouse.service")

HOST_KEY = "*host"
PUBLIC_KEY = "*public"
TURN_CLOSED = "the turn is closed"



def settings_of(db: Session, settings: Settings | None) -> Settings:
    """The settings a use case runs under: given, else put on the session by the app
    (``db.info["settings"]``), else the defaults."""
    if settings is not None:
        return settings
    found = db.info.get("settings")
    return found if isinstance(found, Settings) else Settings()


def ruleset_of(game: Game) -> Ruleset[Any, Any]:
    return registry.get(game.game)


# ---------------------------------------------------------------- the record


def record_options(game: Game, seats: Sequence[SeatRow]) -> dict[str, Any]:
    """The game's options with the players' setup choices merged in.

    ``games.options`` keeps only what the host chose; the players' choices stay on
    their seats until the record is built, so the options a page might show never
    hold a player's secret choice. A host override in the options wins.
    """
    options = json.loads(json.dumps(game.options))
    mapping = ruleset_of(game).seat_setup_keys
    if not mapping:
        return dict(options)
    setup = dict(options.get("setup") or {})
    for key, target in sorted(mapping.items()):
        chosen = {seat.seat_id: seat.setup[key] for seat in seats
                  if seat.setup.get(key) is not None}
        given = dict(setup.get(target) or {})
        merged = {**chosen, **given}
        if merged:
            setup[target] = dict(sorted(merged.items()))
    if setup:
        options["setup"] = setup
    return dict(options)


def seat_of_row(seat: SeatRow) -> Seat:
    return Seat(id=seat.seat_id, name=seat.name, player=seat.player, email=seat.public_email)


def build_record(game: Game, seats: Sequence[SeatRow], turns: Iterable[TurnRow]) -> Record:
    ordered = sorted(seats, key=lambda s: s.position)
    return Record(
        game=game.game,
        seed=game.seed,
        options=record_options(game, ordered),
        seats=tuple(seat_of_row(seat) for seat in ordered),
        turns=tuple(dict(turn.orders) for turn in sorted(turns, key=lambda t: t.entry)),
    )


def load_record(db: Session, game: Game) -> Record:
    """The game's record, its stored chain checked (``RecordChanged``)."""
    seats = db.scalars(select(SeatRow).where(SeatRow.game_id == game.id)).all()
    turns = db.scalars(select(TurnRow).where(TurnRow.game_id == game.id)).all()
    record = build_record(game, seats, turns)
    check_chain(game.id, record, [turn.chain for turn in sorted(turns, key=lambda t: t.entry)])
    return record


# ---------------------------------------------------------------- the stored chain


class RecordChanged(RuntimeError):
    """A stored record entry is not the one its stored hash was made from."""


def chain_start(record: Record) -> str:
    """Where a stored game's chain starts: the genesis (``core.record.genesis``) of the
    record's header without the seats' players and e-mails, which change in a running
    game (a computer seat's player names its strategy); game, seed, options, seat ids,
    names and order do not. A downloaded record's chain is ``core.record.chain``."""
    return records.genesis(replace(record, seats=tuple(Seat(seat.id, seat.name)
                                                      for seat in record.seats)))


def stored_chain(record: Record) -> list[str]:
    """The hashes ``turns.chain`` keeps: ``core.record.chain`` from ``chain_start``."""
    return records.chain(record, start=chain_start(record))


def next_chain(db: Session, game: Game, record: Record, orders: Mapping[SeatId, Any]) -> str:
    """The stored hash of the entry ``orders`` makes after ``record`` (the game's record,
    as ``load_record`` read and checked it)."""
    previous = chain_start(record)
    if record.turns:
        kept = db.scalar(select(TurnRow.chain).where(TurnRow.game_id == game.id,
                                                     TurnRow.entry == len(record.turns)))
        previous = kept if kept is not None else stored_chain(record)[-1]
    return records.link(previous, orders)


def check_chain(game_id: int, record: Record, stored: Sequence[str | None]) -> None:
    """``RecordChanged`` naming the first entry whose stored hash is not the chain's;
    a game with an entry stored before the chain (``NULL``) is not checked."""
    if not stored or any(value is None for value in stored):
        return
    computed = stored_chain(record)
    for entry, (kept, expected) in enumerate(zip(stored, computed, strict=True), start=1):
        if kept != expected:
            raise RecordChanged(f"game {game_id}: record entry {entry} does not match its "
                                "stored hash")


# ---------------------------------------------------------------- states, memoised

_CACHE_SIZE = 32
_cache: OrderedDict[str, Any] = OrderedDict()
_cache_lock = threading.Lock()


def record_digest(record: Record) -> str:
    text = json.dumps(record.to_json(chained=False), sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def remember(record: Record, state: Any) -> None:
    """Keep ``state`` as the replay of ``record`` (states are never mutated: ``resolve``
    returns a new one), evicting the least recently used."""
    key = record_digest(record)
    with _cache_lock:
        _cache[key] = state
        _cache.move_to_end(key)
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)


def state_of(record: Record) -> Any:
    """The state after the whole record: from the memo, else by replaying it."""
    key = record_digest(record)
    with _cache_lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
    state = records.final_state(record)
    remember(record, state)
    return state


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off for a bounded piece of work: resolving a big
    game allocates many objects that live on, and each full collection would scan the
    whole heap again (a 1,000-seat turn grows as n^1.1 with it, as n without)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def step(record: Record, state: Any, orders: Mapping[SeatId, Any]) -> tuple[Record, Any]:
    """Resolve one more entry exactly as a replay would (``core.record.step``)."""
    ruleset = registry.get(record.game)
    entry = len(record.turns) + 1
    with collector_paused():
        new_state = records.step(ruleset, Rng(record.seed), state, orders, entry)
    new_record = record.with_turn(dict(orders))
    remember(new_record, new_state)
    return new_record, new_state


# ---------------------------------------------------------------- states by (game, entry)

_ENTRY_MEMO_SIZE = 2 * _CACHE_SIZE
#: (database, game id, entry, seats_version) -> the state after that entry
_by_entry: OrderedDict[tuple[int, int, int, int], Any] = OrderedDict()


_SEATS_VERSION = select(Game.seats_version).where(Game.id == bindparam("game_id"))


def seats_changed(db: Session, game_id: int) -> None:
    """Say that a seat's header row (name, player, e-mail, set-up) of ``game_id`` has
    changed: a new ``seats_version``, so ``state_at`` keys a new state (in every process).
    Call it in the transaction that changes the row."""
    db.execute(update(Game).where(Game.id == game_id)
               .values(seats_version=Game.seats_version + 1))


def state_at(db: Session, game: Game) -> Any:
    """The state after record entry ``game.entry`` of ``game`` as read (locked or not).

    Memoised per process by (database, game, entry, ``seats_version``): entries only ever
    grow and a stored entry never changes, and every change of a seat's header row bumps
    the game's ``seats_version`` (``seats_changed``), so that key names one record
    without reading anything but the game row the caller has already. A key not in
    memory (e.g. the turn was processed by another process) loads the record once: the
    turns up to ``game.entry`` only, so a turn committed since the game row was read is
    not mixed in. Bounded (least recently used out); the states are the digest memo's
    own (never mutated)."""
    key = (database_token(db), game.id, game.entry, game.seats_version)
    with _cache_lock:
        if key in _by_entry:
            _by_entry.move_to_end(key)
            return _by_entry[key]
    seat_rows = db.scalars(select(SeatRow).where(SeatRow.game_id == game.id)).all()
    turns = db.scalars(select(TurnRow).where(TurnRow.game_id == game.id,
                                             TurnRow.entry <= game.entry)).all()
    state = state_of(build_record(game, seat_rows, turns))
    # memoised under the key only when the record was built from what the key names:
    # every turn up to the entry, and seats of the key's version (read after them: a
    # change committed meanwhile shows as a newer version)
    version = db.scalar(_SEATS_VERSION, {"game_id": game.id})
    if len(turns) == game.entry and version == game.seats_version:
        with _cache_lock:
            _by_entry[key] = state
            _by_entry.move_to_end(key)
            while len(_by_entry) > _ENTRY_MEMO_SIZE:
                _by_entry.popitem(last=False)
    return state


# ---------------------------------------------------------------- views and snapshots


def write_views(db: Session, ruleset: Ruleset[Any, Any], game_id: int, entry: int,
                state: Any, seat_ids: Sequence[SeatId]) -> dict[str, Any]:
    """Store every view of record entry ``entry`` as ``Ruleset.stored_views`` splits them:
    what they share once (a ``ViewShare`` row, when there is any), each seat's own part
    and the host's (``reports``), and the public view whole. Returns the public view.

    A game whose views share nothing stores each seat's view whole, as before; a big
    game whose views share a table stores it once instead of once per seat."""
    stored = ruleset.stored_views(state, seat_ids)
    public = ruleset.public_view(state)
    if stored.shared:
        db.execute(insert(ViewShare), [{"game_id": game_id, "entry": entry,
                                        "data": stored.shared}])
    parts = {HOST_KEY if key is None else key: part for key, part in stored.parts.items()}
    parts[PUBLIC_KEY] = public
    db.execute(insert(Report), [{"game_id": game_id, "entry": entry, "seat_id": key,
                                 "view": part} for key, part in sorted(parts.items())])
    return public


_SHARES_SIZE = 8
#: (database, game id, entry) -> the entry's shared part, or ``None`` (none stored)
_shares: OrderedDict[tuple[int, int, int], dict[str, Any] | None] = OrderedDict()


def _shared(db: Session, game_id: int, entry: int) -> dict[str, Any] | None:
    """The ``ViewShare`` of an entry, memoised per process: it is written with the
    entry's reports in one transaction and never changes, so once a report row is read
    its share is settled. Bounded (least recently used out); joins never alias it."""
    key = (database_token(db), game_id, entry)
    with _cache_lock:
        if key in _shares:
            _shares.move_to_end(key)
            return _shares[key]
    data: dict[str, Any] | None = db.scalar(select(ViewShare.data).where(
        ViewShare.game_id == game_id, ViewShare.entry == entry))
    with _cache_lock:
        _shares[key] = data
        while len(_shares) > _SHARES_SIZE:
            _shares.popitem(last=False)
    return data


def _joined(db: Session, game_id: int, entry: int, key: str, part: dict[str, Any],
            ruleset: Ruleset[Any, Any] | None) -> dict[str, Any]:
    if key == PUBLIC_KEY:
        return dict(part)
    shared = _shared(db, game_id, entry)
    if shared is None:  # stored whole (a game that shares nothing, or an older row)
        return dict(part)
    if ruleset is None:
        ruleset = registry.get(db.scalar(select(Game.game).where(Game.id == game_id)) or "")
    return ruleset.joined_view(shared, part)


def snapshot(db: Session, game_id: int, entry: int, key: str, *,
             ruleset: Ruleset[Any, Any] | None = None) -> dict[str, Any]:
    """The stored view of ``key`` (a seat id, ``HOST_KEY`` or ``PUBLIC_KEY``) after
    record entry ``entry``: its part joined with the entry's share. The host's is the
    host view without the seats' own views (``Ruleset.host_seat_view_key``)."""
    part = db.scalar(select(Report.view).where(Report.game_id == game_id,
                                               Report.entry == entry, Report.seat_id == key))
    if part is None:
        raise NotFound(f"there is no report for record entry {entry}")
    return _joined(db, game_id, entry, key, part, ruleset)


# ---------------------------------------------------------------- row locks


def _is_postgres(db: Session) -> bool:
    return db.get_bind().dialect.name == "postgresql"


def _fresh(game_id: int) -> Any:
    return select(Game).where(Game.id == game_id).execution_options(populate_existing=True)


#: The game row by ``game_id``, fresh, without its host's row (loaded when asked for):
#: ``read_game`` and ``lock_game``, on every order, so built once (building a statement
#: costs about as much as running a small one).
_GAME_BY_ID = (select(Game).where(Game.id == bindparam("game_id"))
               .options(lazyload(Game.host)).execution_options(populate_existing=True))
_GAME_SHARE_SKIP_LOCKED = _GAME_BY_ID.with_for_update(read=True, skip_locked=True, of=Game)
_GAME_EXISTS = select(Game.id).where(Game.id == bindparam("game_id"))
_GAME_FOR_UPDATE = _GAME_BY_ID.with_for_update(of=Game)
_GAME_TABLE = Game.__table__
assert isinstance(_GAME_TABLE, Table)
#: SQLite's lock: the write-lock-first UPDATE, its row loaded as the ORM loads a SELECT
#: (``from_statement``: cheaper than an ORM-enabled UPDATE … RETURNING).
_GAME_WRITE_LOCKED = (select(Game).from_statement(
    update(_GAME_TABLE).where(_GAME_TABLE.c.id == bindparam("game_id"))
    .values(entry=_GAME_TABLE.c.entry).returning(*_GAME_TABLE.c))
    .execution_options(populate_existing=True))


def read_game(db: Session, game_id: int) -> Game:
    """The game row as committed now, without any lock (``NotFound`` when there is none):
    what a change is prepared against before it takes ``lock_game`` and checks again."""
    game: Game | None = db.scalar(_GAME_BY_ID, {"game_id": game_id})
    if game is None:
        raise NotFound("there is no such game")
    return game


def claim_game(db: Session, game_id: int) -> Game | None:
    """The worker's claim: lock the game row for the rest of the transaction, or
    ``None`` when another worker holds it (or there is no such game).

    PostgreSQL: ``SELECT … FOR UPDATE SKIP LOCKED``, so several workers on one
    database never wait for, nor process, the same game at once. SQLite has one
    writer: the transaction starts with an UPDATE of the row, which takes the
    database write lock (waiting up to the busy timeout) before anything is read,
    so the row read next is the latest committed one.
    """
    game: Game | None
    if _is_postgres(db):
        game = db.scalar(_fresh(game_id).with_for_update(skip_locked=True, of=Game))
    else:
        db.execute(update(Game).where(Game.id == game_id).values(entry=Game.entry))
        game = db.scalar(_fresh(game_id))
    return game


def lock_game(db: Session, game_id: int, mode: Literal["write", "share"]) -> Game:
    """Lock the game row for a player's or host's change and read it fresh.

    PostgreSQL: ``share`` (orders) is ``FOR SHARE SKIP LOCKED``: while a worker holds
    the row to process the turn, the row is not returned and this raises
    ``Conflict("the turn is closed: …")`` at once, so orders are refused rather than
    queued behind the turn they belong to (spec V15, "during processing"), and orders
    for one game never wait on each other. (Not ``NOWAIT``: its error aborts the
    transaction, so it needed a savepoint, two more round trips on every order.)
    ``write`` (joining, starting, the host's powers) is ``FOR UPDATE``: it waits for
    a turn being processed (a second or so) and then sees the game as it left it.
    SQLite: the same write-lock-first UPDATE as ``claim_game``; a change waits for
    the turn being processed to commit, then sees the new entry (``submit_orders``
    with ``entry=`` then refuses a sheet meant for the processed turn).
    ``NotFound`` when there is no such game.
    """
    game: Game | None
    params = {"game_id": game_id}
    if _is_postgres(db) and mode == "share":
        game = db.scalar(_GAME_SHARE_SKIP_LOCKED, params)
        if game is None and db.scalar(_GAME_EXISTS, params) is not None:
            raise Conflict(f"{TURN_CLOSED}: it is being processed, try again in a moment")
    elif _is_postgres(db):
        game = db.scalar(_GAME_FOR_UPDATE, params)
    else:  # one statement: the row as the write lock found it (UPDATE … RETURNING)
        game = db.scalars(_GAME_WRITE_LOCKED, params).first()
    if game is None:
        raise NotFound("there is no such game")
    return game


# ---------------------------------------------------------------- bots

#: Bots that have acted, by (digest of the record they acted after, seat, strategy): the
#: next entry's bot continues from its notes instead of re-reading the whole game (a seat
#: whose strategy was changed since gets a fresh bot of the new strategy). Sized for the
#: computer players of a 1,000-seat game and then some (a bot's notes there may be a few
#: hundred kB), so a big game's bots stay warm from turn to turn.
_bots: OrderedDict[tuple[str, SeatId, str], Bot] = OrderedDict()
_BOTS_KEPT = 2048


def _take_bot(key: tuple[str, SeatId, str]) -> Bot | None:
    with _cache_lock:
        return _bots.pop(key, None)


def _keep_bot(key: tuple[str, SeatId, str], bot: Bot) -> None:
    with _cache_lock:
        _bots[key] = bot
        while len(_bots) > _BOTS_KEPT:
            _bots.popitem(last=False)


def bot_sheet(db: Session, game_id: int, ruleset: Ruleset[Any, Any], record: Record,
              state: Any, seat: SeatRow, view: Mapping[str, Any], *,
              digests: dict[int, str] | None = None) -> Any:
    """The bot's sheet for the open entry as record JSON, or ``None`` (a no-show).

    Bots keep notes between turns, so a bot is fed the seat's earlier views (the
    snapshots of the entries it was awaited at, in order) before this one, exactly
    as ``spyhouse simulate`` feeds it: the same bot, seed and views give the same
    sheet in any process. A bot that acted on the seat's last entry in this process
    is reused (it has read all that already; in an alternating game that entry is not
    the latest one). A bot whose ``keeps_notes`` is false (a class attribute; a bot
    that decides from each view alone) is not fed the earlier views. A sheet the
    rules refuse, or a bot that fails, counts as a no-show, as in ``simulate``.
    ``digests`` keeps the digests of the record's first k entries by k for a caller
    moving many bots at once (each digest encodes the whole record).
    """
    digests = {} if digests is None else digests

    def digest(entries: int) -> str:
        if entries not in digests:
            digests[entries] = record_digest(Record(record.game, record.seed, record.options,
                                                    record.seats, record.turns[:entries]))
        return digests[entries]

    strategy = seat.bot or ""
    acted = [index for index, turn in enumerate(record.turns) if seat.seat_id in turn]
    bot = None
    if acted:  # the record as it was when the bot gave its last orders
        bot = _take_bot((digest(acted[-1]), seat.seat_id, strategy))
    try:
        if bot is None:
            bot = bot_registry.make_bot(record.game, strategy, seat.seat_id,
                                        bot_registry.seat_bot_seed(record.seed, seat.seat_id))
            if getattr(bot, "keeps_notes", True):
                for old in past_views(db, game_id, record, seat.seat_id):
                    bot.act(bot_registry.fresh_view(old))
        data = bot.act(bot_registry.fresh_view(view))
        _keep_bot((digest(len(record.turns)), seat.seat_id, strategy), bot)
        if data is None:
            return None
        return ruleset.dump_orders(ruleset.parse_orders(state, seat.seat_id, data))
    except OrderError:
        log.info("bot sheet refused: game %s seat %s", game_id, seat.seat_id)
        return None
    except Exception:  # a bot's bug must not stall the game
        log.exception("bot failed: game %s seat %s", game_id, seat.seat_id)
        return None


def seat_views(db: Session, game_id: int, seat_id: SeatId, upto: int,
               ruleset: Ruleset[Any, Any] | None = None, *, after: int = -1
               ) -> list[dict[str, Any]]:
    """The stored views of ``seat_id`` after record entries ``after`` + 1..``upto``, oldest
    first, in one query (a player's notebook reads them): only that seat's own rows."""
    rows = db.execute(select(Report.entry, Report.view).where(
        Report.game_id == game_id, Report.seat_id == seat_id,
        Report.entry > after, Report.entry <= upto).order_by(Report.entry)).all()
    return [_joined(db, game_id, entry, seat_id, view, ruleset) for entry, view in rows]


def past_views(db: Session, game_id: int, record: Record,
               seat_id: SeatId) -> list[dict[str, Any]]:
    """The views ``seat_id`` acted on before the open entry: the snapshot after entry
    k for every recorded entry k + 1 whose orders include the seat."""
    entries = [index for index, turn in enumerate(record.turns) if seat_id in turn]
    if not entries:
        return []
    rows = db.execute(select(Report.entry, Report.view).where(
        Report.game_id == game_id, Report.seat_id == seat_id,
        Report.entry.in_(entries)).order_by(Report.entry)).all()
    ruleset = registry.get(record.game)
    return [_joined(db, game_id, entry, seat_id, view, ruleset) for entry, view in rows]
