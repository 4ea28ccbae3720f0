"""Playing a seat: who holds it, what it may read, the orders it gives.

All authorization for seats lives here: a page or an API call first turns its
user (``seat_of_user``) or API token (``seat_of_token``) into a ``SeatRow``, and
every read and write below takes that seat, never a seat id from the request.
Reads come from the snapshots (``reports``), so a page never replays the game;
orders are checked by the rules' own ``parse_orders`` against the state after
the last entry before anything is saved.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, inspect, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.orm import Session, contains_eager, lazyload

from spyhouse.core.errors import OrderError
from spyhouse.core.ruleset import Ruleset
from spyhouse.service import gamelocks
from spyhouse.service import records as store
from spyhouse.service.errors import Conflict, Forbidden, Invalid, NotFound, OrdersRefused
from spyhouse.store.tables import ApiToken, Game, OrderDraft, SeatRow, User

TOKEN_PREFIX = "shs_"
MAX_LABEL = 80

@dataclass(frozen=True, slots=True)
class OrdersState:
    """A seat's accepted orders for record entry ``entry`` (the one being played):
    ``data`` is the sheet as the record will hold it (``None``: nothing accepted
    yet), ``ready`` marks it final (early close), ``warnings`` are the rules'."""

    entry: int
    data: Any
    ready: bool
    warnings: list[str] = field(default_factory=list)


# ---------------------------------------------------------------- who holds the seat


def seat_of_user(db: Session, user: User, game_id: int) -> SeatRow:
    seat = db.scalar(select(SeatRow).where(SeatRow.game_id == game_id,
                                           SeatRow.user_id == user.id))
    if seat is None:
        raise NotFound("you hold no seat in this game")
    return seat


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


#: A live token's seat and the seat's game row, fresh, in one query (the game is what
#: every API call reads next; the seat's user and the game's host are loaded when asked
#: for). Built once: it runs for every API request.
_SEAT_OF_TOKEN = (select(SeatRow)
                  .join(ApiToken, ApiToken.seat_row_id == SeatRow.id)
                  .join(Game, Game.id == SeatRow.game_id)
                  .where(ApiToken.token_hash == bindparam("token_hash"),
                         ApiToken.revoked_at.is_(None))
                  .options(lazyload(SeatRow.user),
                           contains_eager(SeatRow.game_row).lazyload(Game.host))
                  .execution_options(populate_existing=True))


def seat_of_token(db: Session, token: str, now: datetime) -> SeatRow:
    """The seat an API token plays (``Forbidden`` for an unknown or revoked token), with
    its game row read in the same query."""
    seat = db.scalar(_SEAT_OF_TOKEN, {"token_hash": _token_hash(token)})
    if seat is None:
        raise Forbidden("unknown or revoked API token")
    return seat


def create_token(db: Session, seat: SeatRow, label: str, now: datetime) -> str:
    """A new API token for ``seat``; the raw token is returned once, only its hash kept."""
    if seat.user_id is None:
        raise Forbidden("a computer player's seat has no API tokens")
    label = label.strip()
    if len(label) > MAX_LABEL:
        raise Invalid("the label is too long", {"label": [f"at most {MAX_LABEL} characters"]})
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    db.add(ApiToken(seat_row_id=seat.id, token_hash=_token_hash(token), label=label,
                    created_at=now))
    db.flush()
    return token


def tokens_of(db: Session, seat: SeatRow) -> list[ApiToken]:
    """The seat's tokens (hashes only), newest first, revoked ones included."""
    return list(db.scalars(select(ApiToken).where(ApiToken.seat_row_id == seat.id)
                           .order_by(ApiToken.created_at.desc(), ApiToken.id.desc())))


def revoke_token(db: Session, seat: SeatRow, token_id: int, now: datetime) -> None:
    row = db.get(ApiToken, token_id)
    if row is None or row.seat_row_id != seat.id:
        raise NotFound("there is no such token")
    if row.revoked_at is None:
        row.revoked_at = now


# ---------------------------------------------------------------- what the seat reads


def _started(db: Session, game_id: int) -> Game:
    game = db.get(Game, game_id)
    if game is None:
        raise NotFound("there is no such game")
    if game.status == "open":
        raise NotFound("the game has not started yet")
    return game


def _shown(game: Game, view: dict[str, Any]) -> dict[str, Any]:
    """A view as pages and the API show it: without the keys the rules only mail
    (``Ruleset.mailed_only_keys``: never on a page or report)."""
    hidden = store.ruleset_of(game).mailed_only_keys
    return {key: value for key, value in view.items() if key not in hidden}


def current_view(db: Session, seat: SeatRow) -> dict[str, Any]:
    """The seat's view after the last processed entry, as pages and the API show it."""
    game = _started(db, seat.game_id)
    return _shown(game, store.snapshot(db, game.id, game.entry, seat.seat_id))


def report(db: Session, seat: SeatRow, entry: int) -> dict[str, Any]:
    """The seat's view after record entry ``entry`` (0 = setup)."""
    game = _started(db, seat.game_id)
    if not 0 <= entry <= game.entry:
        raise NotFound(f"there is no report for turn {entry} yet")
    return _shown(game, store.snapshot(db, game.id, entry, seat.seat_id))


def own_views(db: Session, seat: SeatRow, *, after: int = -1) -> list[dict[str, Any]]:
    """The seat's views after record entries ``after`` + 1 .. now, oldest first, as pages
    show them: what its notebook (``GamePages.notebook_read``) deduces from, and nothing
    else."""
    game = _started(db, seat.game_id)
    return [_shown(game, view) for view in store.seat_views(
        db, game.id, seat.seat_id, game.entry, store.ruleset_of(game), after=after)]


def host_view(db: Session, game: Game, entry: int) -> dict[str, Any]:
    """The host view after record entry ``entry``: every seat's secrets. Only the host
    page reads it, behind ``web.deps.host_access``."""
    if not 0 <= entry <= game.entry:
        raise NotFound(f"there is no report for record entry {entry} yet")
    return store.snapshot(db, game.id, entry, store.HOST_KEY)


def public_view(db: Session, game_id: int) -> dict[str, Any]:
    """What a spectator sees: the public keys of the last entry."""
    game = _started(db, game_id)
    return store.snapshot(db, game.id, game.entry, store.PUBLIC_KEY)


# ---------------------------------------------------------------- orders


#: A seat's draft for one entry (built once: it runs for every order).
_DRAFT = select(OrderDraft).where(OrderDraft.game_id == bindparam("game_id"),
                                  OrderDraft.seat_id == bindparam("seat_id"),
                                  OrderDraft.entry == bindparam("entry"))


def _draft(db: Session, seat: SeatRow, entry: int) -> OrderDraft | None:
    return db.scalar(_DRAFT, {"game_id": seat.game_id, "seat_id": seat.seat_id,
                              "entry": entry})


def _warnings(db: Session, game: Game, seat: SeatRow, data: Any) -> list[str]:
    if data is None:
        return []
    ruleset = store.ruleset_of(game)
    state = store.state_at(db, game)
    try:
        return list(ruleset.warnings(state, seat.seat_id,
                                     ruleset.parse_orders(state, seat.seat_id, data)))
    except OrderError:  # accepted against this very state; cannot happen
        return []


def get_orders(db: Session, seat: SeatRow) -> OrdersState:
    """The seat's accepted orders for the entry being played."""
    game = db.get(Game, seat.game_id)
    if game is None:
        raise NotFound("there is no such game")
    entry = game.entry + 1
    draft = _draft(db, seat, entry)
    if draft is None:
        return OrdersState(entry, None, False, [])
    return OrdersState(entry, draft.data, draft.ready, _warnings(db, game, seat, draft.data))


def _check_open(db: Session, game: Game, seat: SeatRow, now: datetime,
                entry: int | None) -> None:
    """Spec V15 and the game's state: may this seat give orders now?"""
    if game.status == "open":
        raise Conflict("the game has not started yet")
    if game.status == "over":
        raise Conflict("the game is over")
    if game.status == "paused":
        raise Conflict("the game is paused: orders wait until the host resumes it")
    if entry is not None and entry != game.entry + 1:
        raise Conflict(store.TURN_CLOSED)
    if seat.seat_id not in game.awaiting:
        state = store.state_at(db, game)
        raise Conflict(store.ruleset_of(game).idle_message(state, seat.seat_id))
    if game.deadline is not None and game.deadline <= now:
        raise Conflict(store.TURN_CLOSED)


def check_open(db: Session, seat: SeatRow, now: datetime) -> None:
    """Refuse (``Conflict``) as ``submit_orders`` would when ``seat`` may not give orders
    now (game not running, turn closed, seat not awaited); locks and saves nothing, so a
    page can say so before the player saves."""
    game = db.get(Game, seat.game_id)
    if game is None:
        raise NotFound("there is no such game")
    _check_open(db, game, seat, now, None)


def submit_orders(db: Session, seat: SeatRow, data: Any, *, now: datetime, ready: bool = False,
                  request_key: str | None = None, entry: int | None = None,
                  mark_only: bool = False) -> OrdersState:
    """Accept ``data`` as the seat's orders for the entry being played, replacing any
    earlier sheet; ``ready`` marks them final (the turn closes early once every
    awaited seat is ready).

    Refused with ``Conflict`` when the turn is closed (deadline passed, being
    processed, or ``entry`` is given and is not the open entry: a form for a turn
    that has been processed since), while the game is not running, or for a seat
    that is not awaited (V15); with ``OrdersRefused`` (the rules' messages) when
    ``parse_orders`` refuses the sheet. A refused sheet saves nothing and the
    previously accepted one stays. A repeated ``request_key`` (a retried request)
    returns the saved state and changes nothing.

    A game whose orders carry their own READY field (``Ruleset.ready_field``) has one
    READY: orders that say READY are marked ready, and ``ready`` sets the field, so the
    rules check it; ``mark_only`` (setting or clearing the mark on saved orders) makes
    ``ready`` decide the field either way.

    The sheet is judged before any lock, against the game as committed (its state from
    ``records.state_at``'s memo, without reloading the record); then the writers of the
    game in this process queue (``gamelocks.hold``), the row is locked (``lock_game``)
    and checked again, and the draft written: the lock covers only the write. A sheet
    judged against an entry that has been processed since is judged again, against the
    open entry (or refused with ``entry=``, as before).
    """
    if seat.user_id is None:
        raise Forbidden("a computer player's seat takes no orders")
    if request_key is not None and len(request_key) > 80:
        raise Invalid("the request key is too long", {"request_key": ["at most 80 characters"]})
    # Judged outside any lock, against the game as committed now; a retried request
    # (its key already saved) is not judged again.
    game = _game_before_the_lock(db, seat, now, entry)
    judged: _Judged | None = None
    if request_key is None or _saved_key(db, seat, game.entry + 1) != request_key:
        judged = _judge(game, seat, data, store.state_at(db, game), ready=ready,
                        mark_only=mark_only)
    # Then the write: this process's earlier writers of the game first, the game row's
    # lock, the same checks again on the row as it is now, and the draft.
    gamelocks.hold(db, seat.game_id)
    game = store.lock_game(db, seat.game_id, "share")
    _check_open(db, game, seat, now, entry)
    open_entry = game.entry + 1
    if request_key is not None:  # a retried request: its saved sheet, unchanged
        draft = _draft(db, seat, open_entry)
        if draft is not None and draft.request_key == request_key:
            return OrdersState(open_entry, draft.data, draft.ready,
                               _warnings(db, game, seat, draft.data))
    if judged is None or judged.entry != open_entry:
        # a turn was processed since (the sheet was judged against the entry before; a
        # sheet given with ``entry=`` was refused above), or the retried request's saved
        # sheet was replaced since: judged again, against the open entry
        judged = _judge(game, seat, data, store.state_at(db, game), ready=ready,
                        mark_only=mark_only)
    _save_draft(db, seat, open_entry, judged, request_key, now)
    return OrdersState(open_entry, judged.sheet, judged.ready, judged.warnings)


def _upsert(insert: Any) -> Any:
    """The draft's one-statement write for a dialect's ``insert``: a new row, or the
    seat's row for the entry replaced (its unique key), returning its id."""
    columns = OrderDraft.__table__.c
    statement = insert(OrderDraft.__table__).values(
        game_id=bindparam("game_id"), seat_id=bindparam("seat_id"), entry=bindparam("entry"),
        data=bindparam("data", type_=columns.data.type),
        ready=bindparam("ready"), request_key=bindparam("request_key"),
        updated_at=bindparam("updated_at", type_=columns.updated_at.type))
    replaced = ("data", "ready", "request_key", "updated_at")
    return statement.on_conflict_do_update(
        index_elements=[columns.game_id, columns.seat_id, columns.entry],
        set_={name: statement.excluded[name] for name in replaced},
    ).returning(columns.id)


#: The draft write by dialect (built once: it runs for every order).
_UPSERT = {"sqlite": _upsert(sqlite.insert), "postgresql": _upsert(postgresql.insert)}


def _save_draft(db: Session, seat: SeatRow, entry: int, judged: _Judged,
                request_key: str | None, now: datetime) -> None:
    """Write the seat's draft for ``entry`` in one statement (no read first; a draft the
    session holds is expired, so it is read again as written)."""
    connection = db.connection()
    draft_id = connection.execute(_UPSERT[connection.dialect.name], {
        "game_id": seat.game_id, "seat_id": seat.seat_id, "entry": entry,
        "data": judged.sheet, "ready": judged.ready, "request_key": request_key,
        "updated_at": now}).scalar_one()
    held = db.identity_map.get(inspect(OrderDraft).identity_key_from_primary_key((draft_id,)))
    if held is not None:
        db.expire(held)


def _game_before_the_lock(db: Session, seat: SeatRow, now: datetime,
                          entry: int | None) -> Game:
    """The game a sheet is judged against before the lock, having passed ``_check_open``:
    the seat's game row when it came with the seat (``seat_of_token`` reads both in one
    query), else the row as committed now. A refusal is only ever given on the row as
    committed now (a row that came with the seat is read again first); a row that has
    changed since is caught under the lock, where everything is checked again."""
    if "game_row" not in inspect(seat).unloaded:
        try:
            _check_open(db, seat.game_row, seat, now, entry)
            return seat.game_row
        except (Conflict, NotFound):
            pass
    game = store.read_game(db, seat.game_id)
    _check_open(db, game, seat, now, entry)
    return game


@dataclass(frozen=True, slots=True)
class _Judged:
    """A sheet the rules accepted for ``entry``: as the record will hold it, its READY
    mark and the rules' warnings."""

    entry: int
    sheet: Any
    ready: bool
    warnings: list[str]


def _saved_key(db: Session, seat: SeatRow, entry: int) -> str | None:
    return db.scalar(select(OrderDraft.request_key).where(
        OrderDraft.game_id == seat.game_id, OrderDraft.seat_id == seat.seat_id,
        OrderDraft.entry == entry))


def _judge(game: Game, seat: SeatRow, data: Any, state: Any, *, ready: bool,
           mark_only: bool) -> _Judged:
    """``data`` as the rules judge it against ``state``, the state after ``game.entry``
    (``OrdersRefused`` with their messages). Reads and locks nothing."""
    ruleset = store.ruleset_of(game)
    data, ready = _as_given(ruleset, state, data, ready=ready, mark_only=mark_only)
    try:
        orders = ruleset.parse_orders(state, seat.seat_id, data)
    except OrderError as exc:
        raise OrdersRefused(list(exc.messages)) from None
    return _Judged(game.entry + 1, ruleset.dump_orders(orders), ready,
                   list(ruleset.warnings(state, seat.seat_id, orders)))


def _as_given(ruleset: Ruleset[Any, Any], state: Any, data: Any, *, ready: bool,
              mark_only: bool = False) -> tuple[Any, bool]:
    """A person's sheet as the rules will judge it, and its READY mark: the keys only the
    platform writes are dropped (e.g. a computer move's notes), and a game whose orders carry their
    own READY field (``Ruleset.ready_field``) has that field and the mark agree."""
    if ruleset.platform_order_keys and isinstance(data, dict):
        data = {key: value for key, value in data.items()
                if key not in ruleset.platform_order_keys}
    field = ruleset.ready_field(state)
    if field is not None and isinstance(data, dict):
        ready = ready if mark_only else ready or data.get(field) is True
        data = {**data, field: ready}
    return data, ready


def may_order(game: Game, seat: SeatRow) -> bool:
    """Whether the page offers ``seat`` an order form now: a person's seat that the
    running game awaits."""
    return (game.status == "running" and seat.user_id is not None
            and seat.seat_id in (game.awaiting or ()))


def check_orders(db: Session, seat: SeatRow, data: Any, *, now: datetime,
                 ready: bool = False) -> list[str]:
    """The messages ``submit_orders`` would refuse ``data`` with, or ``[]``; nothing is
    locked or saved, so a page checks a sheet as it is typed. The platform's refusals
    first (game not running, turn closed, seat not awaited), then every message of the
    rules' ``check_messages``, whose checks read only what the seat may know."""
    game = db.get(Game, seat.game_id)
    if game is None:
        raise NotFound("there is no such game")
    try:
        _check_open(db, game, seat, now, None)
    except Conflict as exc:
        return [exc.message]
    ruleset = store.ruleset_of(game)
    state = store.state_at(db, game)
    data, _ready = _as_given(ruleset, state, data, ready=ready)
    return list(ruleset.check_messages(state, seat.seat_id, data))


def public_tally(db: Session, game: Game) -> dict[str, dict[str, Any]]:
    """For each public order field of the game's rules (e.g. a public ``vote``), seat id
    -> its value in that seat's accepted orders for the open entry. Only those fields are
    read; a seat whose orders lack one is left out."""
    fields = sorted(store.ruleset_of(game).public_order_fields)
    if not fields or game.status != "running":
        return {name: {} for name in fields}
    tally: dict[str, dict[str, Any]] = {name: {} for name in fields}
    for draft in _open_drafts(db, game):
        data = draft.data if isinstance(draft.data, dict) else {}
        for name in fields:
            if data.get(name) is not None:
                tally[name][draft.seat_id] = data[name]
    return tally


def orders_in(db: Session, game: Game) -> dict[str, str]:
    """Seat id -> ``"ready"`` or ``"saved"`` for the open entry: whose orders are in (what
    a host page shows; the orders themselves stay the seats')."""
    if game.status not in ("running", "paused"):
        return {}
    rows = db.execute(select(OrderDraft.seat_id, OrderDraft.ready).where(
        OrderDraft.game_id == game.id, OrderDraft.entry == game.entry + 1))
    return {seat_id: "ready" if ready else "saved" for seat_id, ready in rows}


def _open_drafts(db: Session, game: Game) -> list[OrderDraft]:
    return list(db.scalars(select(OrderDraft).where(OrderDraft.game_id == game.id,
                                                    OrderDraft.entry == game.entry + 1)
                           .order_by(OrderDraft.seat_id)))


def set_ready(db: Session, seat: SeatRow, want: bool, *, now: datetime) -> OrdersState:
    """Mark the seat's saved orders final (or not again); ``Conflict`` before any are
    saved. The orders go through the rules again, with their READY field if they have
    one, so READY is refused whenever the rules refuse it."""
    state = get_orders(db, seat)
    if state.data is None:
        raise Conflict("save your orders first; then you can mark them final")
    return submit_orders(db, seat, state.data, now=now, ready=want, mark_only=True)
