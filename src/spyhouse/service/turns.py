"""Due turns and their processing: exactly once, whole or not at all.

A running game's open record entry is due when its deadline has passed, or
closes early by ``games.close_when``, which ``Ruleset.early_close`` sets as each
entry opens: ``"ready"`` (every awaited seat marked its orders ready),
``"submitted"`` (every awaited seat has orders) or ``"never"``. ``None`` is the
platform's rule: every awaited seat has marked its orders final (ready), on
every schedule. A saved draft never closes an entry: on the ``all_submitted``
schedule (no deadline) the entry waits for every awaited seat's final orders.
Bots get their orders, final, when the entry opens, so only humans are waited
for. ``Ruleset.deadline_seconds`` likewise gives an entry its own length from
the moment it opens, in place of the schedule's next time.

``process_turn`` claims the game row (``SELECT … FOR UPDATE SKIP LOCKED`` on
PostgreSQL, the write lock on SQLite), checks again that the entry is due,
resolves it through ``core.record`` from the stored record, and writes the turn,
every snapshot, the news, the mail and the next deadline in the caller's one
transaction: a failure anywhere rolls all of it back and the
next run processes the entry whole. Processing moves the game on by one entry; a
worker that was down catches up on missed deadlines one entry per run.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import and_, exists, insert, select
from sqlalchemy.orm import Session

from spyhouse.core import registry
from spyhouse.core.ruleset import CLOSE_RULES, CloseWhen, Ruleset, SeatId
from spyhouse.mail import messages
from spyhouse.mail.outbox import queue_mail
from spyhouse.mail.unsubscribe import wants
from spyhouse.service import records as store
from spyhouse.service import schedule as schedules
from spyhouse.service.notify import add_news, players
from spyhouse.settings import Settings
from spyhouse.store.tables import Game, OrderDraft, SeatRow, TurnRow

log = logging.getLogger("spyhouse.service")


def phase_seconds(ruleset: Ruleset[Any, Any], state: Any) -> int | None:
    """``Ruleset.deadline_seconds``: the length of the entry opening at ``state`` in
    seconds, or ``None`` (the game's schedule applies)."""
    seconds = ruleset.deadline_seconds(state)
    if seconds is None:
        return None
    if not isinstance(seconds, int) or isinstance(seconds, bool) or seconds < 1:
        raise ValueError(f"{ruleset.name}: deadline_seconds gave {seconds!r}, not a whole "
                         f"number of seconds ≥ 1")
    return seconds


def close_rule(ruleset: Ruleset[Any, Any], state: Any) -> CloseWhen | None:
    """``Ruleset.early_close`` for the entry opening at ``state``: ``None`` (the
    platform's rule) is stored as such in ``games.close_when``."""
    rule = ruleset.early_close(state)
    if rule is None:
        return None
    if rule in CLOSE_RULES:
        return rule
    raise ValueError(f"{ruleset.name}: early_close gave {rule!r}, not one of "
                     f"{', '.join(CLOSE_RULES)}")


def is_due(game: Game, drafts: Sequence[tuple[SeatId, bool]], now: datetime) -> bool:
    """Whether the open entry of ``game`` is due now; ``drafts`` are the (seat, ready)
    pairs of the orders saved for that entry. ``game.close_when`` says when it closes
    before its deadline; a ``"never"`` entry without a deadline closes once every awaited
    seat has orders, so that no game can wait forever."""
    if game.status != "running":
        return False
    if game.deadline is not None and game.deadline <= now:
        return True
    awaited = set(game.awaiting)
    if not awaited:
        return False
    ready = awaited <= {seat for seat, is_ready in drafts if is_ready}
    submitted = awaited <= {seat for seat, _ in drafts}
    rule = game.close_when
    if rule == "ready":
        return ready
    if rule == "submitted":
        return submitted
    if rule == "never":
        return game.deadline is None and submitted
    return ready  # drafts are drafts: only orders marked final close an entry early


def due_games(db: Session, now: datetime) -> list[int]:
    """The ids of the games whose open entry is due now, in id order."""
    games = db.scalars(select(Game).where(Game.status == "running").order_by(Game.id)).all()
    rows = db.execute(
        select(OrderDraft.game_id, OrderDraft.seat_id, OrderDraft.ready)
        .join(Game, and_(Game.id == OrderDraft.game_id, OrderDraft.entry == Game.entry + 1))
        .where(Game.status == "running")).all()
    drafts: dict[int, list[tuple[SeatId, bool]]] = {}
    for game_id, seat_id, ready in rows:
        drafts.setdefault(game_id, []).append((seat_id, ready))
    return [game.id for game in games if is_due(game, drafts.get(game.id, []), now)]


def open_turn(game: Game, ruleset: Ruleset[Any, Any], state: Any, now: datetime, *,
              scheduled: datetime | None) -> None:
    """Open entry ``game.entry + 1``: its deadline (the ruleset's own length from now,
    else ``scheduled``, the schedule's time), its early-close rule and who is awaited.
    The computer players' orders come after, in ``move_bots``."""
    seconds = phase_seconds(ruleset, state)
    game.deadline = scheduled if seconds is None else now + timedelta(seconds=seconds)
    game.close_when = close_rule(ruleset, state)
    game.awaiting = sorted(ruleset.awaiting(state))


def _bots_to_move(db: Session, game: Game) -> list[SeatRow]:
    """The computer seats the open entry of ``game`` awaits that have no orders for it."""
    awaited = set(game.awaiting)
    bots = [seat for seat in sorted(game.seats, key=lambda s: s.position)
            if seat.bot is not None and seat.seat_id in awaited]
    if not bots:
        return []
    given = set(db.scalars(select(OrderDraft.seat_id).where(
        OrderDraft.game_id == game.id, OrderDraft.entry == game.entry + 1)))
    return [seat for seat in bots if seat.seat_id not in given]


#: Computer seats of running games with no orders for the open entry, with what that
#: entry awaits: one query for the worker's every round, however many games run.
_IDLE_BOTS = (
    select(SeatRow.game_id, SeatRow.seat_id, Game.awaiting)
    .join(Game, Game.id == SeatRow.game_id)
    .where(Game.status == "running", SeatRow.bot.is_not(None),
           ~exists().where(OrderDraft.game_id == SeatRow.game_id,
                           OrderDraft.seat_id == SeatRow.seat_id,
                           OrderDraft.entry == Game.entry + 1)))


def games_awaiting_bots(db: Session) -> list[int]:
    """The running games whose open entry awaits a computer player without orders."""
    return sorted({game_id for game_id, seat_id, awaiting in db.execute(_IDLE_BOTS)
                   if seat_id in (awaiting or ())})


def move_bots(db: Session, game_id: int, now: datetime) -> int:
    """Give every computer seat the open entry awaits its orders (ready), once: the
    sheets are worked out against the game as committed, without any lock, then the
    game row is locked and each sheet written only if the entry is still open and the
    seat still has none. Returns how many sheets were written.

    Separate from ``process_turn``, so a turn's transaction (on SQLite, the one writer)
    holds the database for the rules and the reports, not for a thousand computer
    players thinking; the worker moves them right after each turn, and games against
    the computer (``quick.settle``) in the request. Each bot reads its seat's view,
    built for it alone and let go after."""
    game = store.read_game(db, game_id)
    if game.status != "running":
        return 0
    todo = _bots_to_move(db, game)
    if not todo:
        return 0
    record = store.load_record(db, game)
    if len(record.turns) != game.entry:  # a turn was processed meanwhile: next round
        return 0
    ruleset = store.ruleset_of(game)
    state = store.state_of(record)
    entry = game.entry + 1
    digests: dict[int, str] = {}
    with store.collector_paused():
        sheets = {seat.seat_id: store.bot_sheet(db, game.id, ruleset, record, state, seat,
                                                ruleset.view(state, seat.seat_id),
                                                digests=digests)
                  for seat in todo}
    game = store.lock_game(db, game_id, "write")
    if game.status != "running" or game.entry + 1 != entry:
        return 0
    still = {seat.seat_id for seat in _bots_to_move(db, game)}
    rows = [{"game_id": game.id, "seat_id": seat_id, "entry": entry, "data": sheet,
             "ready": True, "request_key": None, "updated_at": now}
            for seat_id, sheet in sheets.items() if seat_id in still]
    if rows:
        db.execute(insert(OrderDraft), rows)
    return len(rows)


def process_turn(db: Session, game_id: int, now: datetime, *,
                 settings: Settings | None = None) -> bool:
    """Process the open entry of ``game_id`` if it is due; ``False`` when it is not
    due, or another worker holds the game. Never commits: the caller's transaction
    holds the turn, the snapshots, the news, the mail and the new deadline."""
    settings = store.settings_of(db, settings)
    game = store.claim_game(db, game_id)
    if game is None:
        return False
    drafts = {d.seat_id: d for d in db.scalars(select(OrderDraft).where(
        OrderDraft.game_id == game.id, OrderDraft.entry == game.entry + 1))}
    if not is_due(game, [(d.seat_id, d.ready) for d in drafts.values()], now):
        return False
    seats = sorted(game.seats, key=lambda s: s.position)
    record = store.load_record(db, game)
    if len(record.turns) != game.entry:
        raise RuntimeError(f"game {game.id}: {len(record.turns)} turns stored for entry "
                           f"{game.entry}")
    ruleset = store.ruleset_of(game)
    state = store.state_of(record)
    orders: dict[SeatId, Any] = {}
    for seat_id in sorted(ruleset.awaiting(state)):
        draft = drafts.get(seat_id)
        orders[seat_id] = draft.data if draft is not None else None  # null: a no-show
    _, new_state = store.step(record, state, orders)
    entry = game.entry + 1
    db.add(TurnRow(game_id=game.id, entry=entry, orders=orders, processed_at=now,
                   chain=store.next_chain(db, game, record, orders)))
    public = store.write_views(db, ruleset, game.id, entry, new_state,
                               [seat.seat_id for seat in seats])
    closed_early = game.deadline is None or now < game.deadline  # orders, not the clock
    _move_on(game, ruleset, new_state, now)
    _tell_players(db, game, ruleset, new_state, public, seats, played=set(orders),
                  submitted={seat for seat in orders if seat in drafts} if closed_early
                  else set(), now=now, settings=settings)
    return True


def _move_on(game: Game, ruleset: Ruleset[Any, Any], state: Any, now: datetime) -> None:
    """The game's row after an entry: the next deadline, or game over. Host allowances
    (extension, pause) start again for the new turn."""
    previous = game.deadline
    game.entry += 1
    game.extended_hours = 0
    game.paused_s = 0
    if ruleset.outcome(state) is not None or not ruleset.awaiting(state):
        game.status = "over"
        game.finished_at = now
        game.deadline = None
        game.close_when = None
        game.awaiting = []
        return
    plan = schedules.parse_schedule(game.schedule)
    open_turn(game, ruleset, state, now,
              scheduled=schedules.next_deadline(plan, game.started_at or now,
                                                previous or now))


def _tell_players(db: Session, game: Game, ruleset: Ruleset[Any, Any], state: Any,
                  public: Mapping[str, Any], seats: Sequence[SeatRow], *,
                  played: set[SeatId], submitted: set[SeatId], now: datetime,
                  settings: Settings) -> None:
    """News for everyone; a turn notice to each player who played the entry, or the
    game-over mail to every player. No mail holds anything from a seat's view.

    A player alone against computer players on the ``all_submitted`` schedule gets no
    turn notice for an entry their own orders closed before any deadline (``submitted``
    is empty for an entry its deadline closed): they are at the board and the reply
    comes at once, so a notice per move would only fill their inbox."""
    turn = ruleset.turn_number(state)
    plugin = registry.plugin(game.game)
    step = plugin.words.turn
    if game.status == "over":
        found = plugin.pages.result(public, {seat.seat_id: seat.name for seat in seats})
        message = messages.game_over_message(
            title=game.title, game_id=game.id, turn=turn, step=step,
            result=found.line if found is not None else "", base_url=settings.base_url)
        add_news(db, game, "over", message.body.split("\n")[0], now)
        recipients = players(db, game.id)
        kind = "game_over"
    else:
        message = messages.turn_message(title=game.title, game_id=game.id, turn=turn,
                                        step=step, base_url=settings.base_url,
                                        deadline=game.deadline)
        add_news(db, game, "turn", f"{step.capitalize()} {turn} has been processed. Orders "
                 f"for the next {step} are due {messages.format_time(game.deadline)}.", now)
        recipients = [(seat, user) for seat, user in players(db, game.id)
                      if seat.seat_id in played
                      and not _alone_at_the_board(game, seats, seat.seat_id, submitted)]
        kind = "turn"
    for _seat, user in recipients:
        if wants(user, kind):  # the account's mail settings (turn; game start and end)
            queue_mail(db, kind=kind, to_addr=user.email, message=message, now=now,
                       user_id=user.id, game_id=game.id)


def _alone_at_the_board(game: Game, seats: Sequence[SeatRow], seat_id: SeatId,
                        submitted: set[SeatId]) -> bool:
    """Whether ``seat_id`` closed the entry with its own orders on the ``all_submitted``
    schedule while every other seat is a computer player (a game against the computer)."""
    return (game.schedule == "all_submitted" and seat_id in submitted
            and all(seat.bot is not None for seat in seats if seat.seat_id != seat_id))
