"""Deadline reminders: one mail per seat per open entry, some hours before it closes.

Each worker round asks one query for every seat that might need a reminder now: a
person's seat (not a computer's) in a running game whose deadline is ahead and at
most ``MAX_HOURS`` away, whose player wants reminders, that has no final (ready)
orders for the open entry and was not yet reminded of it (``seats.reminded_entry``).
The player's own ``reminder_hours`` and the game's awaited seats are then checked on
those few rows. An entry that opened inside the player's window (an hourly game, a
12-hour reminder) gets no reminder: the turn or start mail that opened it said when it
closes, a moment ago. A reminder is queued in the same transaction as the conditional
``UPDATE`` that marks the seat reminded of that entry, so two workers racing on one
seat queue it once: the second's ``UPDATE`` finds the mark already set and changes no
row. A seat that makes its orders final after the reminder is not reminded again; a
new entry (a new number) is a new reminder.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import and_, exists, func, or_, select, update
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.core import registry
from spyhouse.mail import messages
from spyhouse.mail.outbox import queue_mail
from spyhouse.service import records as store
from spyhouse.settings import Settings
from spyhouse.store.db import transaction
from spyhouse.store.tables import Game, OrderDraft, SeatRow, TurnRow, User

#: The most hours before a deadline a player may ask to be reminded (the settings
#: page's bound, and the query's window).
MAX_HOURS = 72
MIN_HOURS = 1


@dataclass(frozen=True, slots=True)
class Due:
    """A seat to remind of the open entry ``entry`` of its game (``games.entry + 1``, as
    its orders are numbered), closing at ``deadline``."""

    seat_row_id: int
    seat_id: str
    game_id: int
    entry: int
    deadline: datetime
    user_id: int
    email: str


def due_reminders(db: Session, now: datetime) -> list[Due]:
    """Every seat to remind now, in one query (the hours and awaited seats checked on
    its rows)."""
    final = exists().where(OrderDraft.game_id == SeatRow.game_id,
                           OrderDraft.seat_id == SeatRow.seat_id,
                           OrderDraft.entry == Game.entry + 1, OrderDraft.ready.is_(True))
    rows = db.execute(
        select(SeatRow.id, SeatRow.seat_id, Game.id, Game.entry, Game.deadline,
               Game.awaiting, User.id, User.email, User.reminder_hours,
               func.coalesce(TurnRow.processed_at, Game.started_at))
        .join(Game, Game.id == SeatRow.game_id)
        .join(User, User.id == SeatRow.user_id)
        .outerjoin(TurnRow, and_(TurnRow.game_id == Game.id, TurnRow.entry == Game.entry))
        .where(Game.status == "running", Game.deadline.is_not(None), Game.deadline > now,
               Game.deadline <= now + timedelta(hours=MAX_HOURS),
               SeatRow.bot.is_(None), User.mail_reminder.is_(True),
               or_(SeatRow.reminded_entry.is_(None),
                   SeatRow.reminded_entry != Game.entry + 1),
               ~final)
        .order_by(Game.id, SeatRow.position)).all()
    due = []
    for seat_row_id, seat_id, game_id, entry, deadline, awaiting, user_id, email, hours, \
            opened in rows:
        window = timedelta(hours=min(max(int(hours or 0), MIN_HOURS), MAX_HOURS))
        if deadline is None or deadline - now > window:
            continue
        if opened is not None and _aware(opened) >= deadline - window:
            continue  # the whole entry is shorter than the window: its mail said when
        if seat_id not in (awaiting or []):
            continue
        due.append(Due(seat_row_id, seat_id, game_id, entry + 1, deadline, user_id, email))
    return due


def _aware(when: datetime) -> datetime:
    """A time read through ``coalesce`` (which loses the column's type) as UTC."""
    if isinstance(when, str):
        when = datetime.fromisoformat(when)
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)


def _mark(db: Session, due: Due) -> bool:
    """Mark the seat reminded of ``due.entry`` if no one has and the entry is still
    open; ``True`` when this call did (and so sends the reminder)."""
    still_open = exists().where(Game.id == due.game_id, Game.entry + 1 == due.entry,
                                Game.status == "running")
    done = db.execute(
        update(SeatRow)
        .where(SeatRow.id == due.seat_row_id,
               or_(SeatRow.reminded_entry.is_(None), SeatRow.reminded_entry != due.entry),
               still_open)
        .values(reminded_entry=due.entry))
    return getattr(done, "rowcount", 0) == 1


def remind(db: Session, due: Due, now: datetime, settings: Settings, *,
           turn: int, step: str, title: str) -> bool:
    """Queue the reminder of one seat with its mark, in the caller's transaction."""
    if not _mark(db, due):
        return False
    message = messages.reminder_message(title=title, game_id=due.game_id, turn=turn,
                                        step=step, base_url=settings.base_url,
                                        deadline=due.deadline, now=now)
    queue_mail(db, kind="reminder", to_addr=due.email, message=message, now=now,
               user_id=due.user_id, game_id=due.game_id)
    return True


def send_reminders(factory: sessionmaker[Session], now: datetime, settings: Settings) -> int:
    """The worker's part: find the due reminders (one query), then per game, in one
    transaction, mark and queue each; returns how many were queued."""
    with transaction(factory) as db:
        found = due_reminders(db, now)
    by_game: dict[int, list[Due]] = defaultdict(list)
    for due in found:
        by_game[due.game_id].append(due)
    sent = 0
    for game_id, dues in by_game.items():
        with transaction(factory) as db:
            game = db.get(Game, game_id)
            if game is None or game.status != "running":
                continue
            step = registry.plugin(game.game).words.turn
            # the game's count of resolved steps; the open one is the next
            turn = store.ruleset_of(game).turn_number(store.state_at(db, game)) + 1
            for due in dues:
                if remind(db, due, now, settings, turn=turn, step=step, title=game.title):
                    sent += 1
    return sent


__all__ = ["MAX_HOURS", "MIN_HOURS", "Due", "due_reminders", "remind", "send_reminders"]
