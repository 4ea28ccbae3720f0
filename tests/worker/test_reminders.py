"""Deadline reminders (service/reminders.py, worker/loop.py): once per seat per entry,
N hours before the deadline, only to people whose orders are not final, even with two
workers racing."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.clock import FakeClock
from spyhouse.mail.outbox import LogMailer
from spyhouse.service import play, reminders
from spyhouse.settings import Settings
from spyhouse.store.db import make_engine, session_factory
from spyhouse.store.tables import Game, OutboxMail, SeatRow, User
from spyhouse.worker import run_once
from tests.service.helpers import mails, started_game, work_sheet

SETTINGS = Settings(base_url="http://spy.test")
DAILY: dict[str, Any] = {"interval_hours": 24}


def _game(db: Session, game_id: int) -> Game:
    db.expire_all()
    game = db.get(Game, game_id)
    assert game is not None
    return game


def _reminded(db: Session) -> list[str]:
    return [mail.to_addr for mail in mails(db, "reminder")]


def test_a_reminder_goes_once_n_hours_before_to_seats_without_final_orders(
        db: Session, clock: FakeClock, factory: sessionmaker[Session]) -> None:
    game, users = started_game(db, clock.now(), humans=3, bots=["economist"], schedule=DAILY)
    deadline = game.deadline
    assert deadline is not None
    users[1].reminder_hours = 5
    users[2].reminder_hours = 5
    final = play.seat_of_user(db, users[2], game.id)
    play.submit_orders(db, final, work_sheet(play.current_view(db, final)), now=clock.now(),
                       ready=True)
    draft = play.seat_of_user(db, users[1], game.id)
    play.submit_orders(db, draft, work_sheet(play.current_view(db, draft)), now=clock.now())
    db.commit()
    clock.set(deadline - timedelta(hours=13))  # outside everyone's window (12 h, 5 h)
    run_once(factory, clock, SETTINGS, LogMailer())
    assert _reminded(db) == []
    clock.set(deadline - timedelta(hours=11, minutes=59))  # player1's 12 h window
    run_once(factory, clock, SETTINGS, LogMailer())
    assert _reminded(db) == [users[0].email]
    subject = mails(db, "reminder")[0].subject
    assert subject == "[Lantern Street] Turn 1 closes in 11 h 59 min: orders not final"
    clock.set(deadline - timedelta(hours=4, minutes=48))  # player2's 5 h window
    run_once(factory, clock, SETTINGS, LogMailer())
    run_once(factory, clock, SETTINGS, LogMailer())  # and again: nothing more
    # player2's orders are saved but not final: reminded; player3's are final: not
    assert _reminded(db) == [users[0].email, users[1].email]
    body = mails(db, "reminder")[1].body
    assert body.startswith('Turn 1 of "Lantern Street" closes in 4 h 48 min: your orders '
                           "are not final.")
    assert f"http://spy.test/games/{game.id}" in body
    seats = {seat.user_id: seat for seat in db.scalars(select(SeatRow))}
    assert seats[users[0].id].reminded_entry == 1  # the open entry, as orders number it
    assert seats[users[2].id].reminded_entry is None
    assert all(seat.reminded_entry is None for seat in seats.values() if seat.bot)
    # the next entry is a new reminder
    clock.set(deadline)
    run_once(factory, clock, SETTINGS, LogMailer())
    nxt = _game(db, game.id).deadline
    assert nxt is not None and _game(db, game.id).entry == 1
    clock.set(nxt - timedelta(hours=6))
    run_once(factory, clock, SETTINGS, LogMailer())
    assert _reminded(db).count(users[0].email) == 2
    assert mails(db, "reminder")[-1].subject.startswith("[Lantern Street] Turn 2 closes in 6 h")


def test_no_reminder_when_off_when_not_awaited_paused_or_past(
        db: Session, clock: FakeClock, factory: sessionmaker[Session]) -> None:
    game, users = started_game(db, clock.now(), humans=3, schedule=DAILY)
    deadline = game.deadline
    assert deadline is not None
    fresh = _game(db, game.id)
    fresh.awaiting = [seat for seat in fresh.awaiting if seat != "s2"]  # s2 not awaited
    users[0].mail_reminder = False
    db.commit()
    clock.set(deadline - timedelta(hours=1))
    assert [due.seat_id for due in reminders.due_reminders(db, clock.now())] == ["s3"]
    fresh = _game(db, game.id)
    fresh.status = "paused"
    db.commit()
    assert reminders.due_reminders(db, clock.now()) == []
    fresh = _game(db, game.id)
    fresh.status = "running"
    db.commit()
    clock.set(deadline + timedelta(seconds=1))  # past: the turn is due, not reminded
    assert reminders.due_reminders(db, clock.now()) == []


def test_an_entry_shorter_than_the_window_gets_no_reminder(
        db: Session, clock: FakeClock, factory: sessionmaker[Session]) -> None:
    """An hourly game's second turn with the default 12 h: the turn mail that opened it
    said when it closes, an hour ago."""
    game, _users = started_game(db, clock.now())
    first = game.deadline
    assert first is not None
    clock.set(first)
    run_once(factory, clock, SETTINGS, LogMailer())
    before = _reminded(db)
    nxt = _game(db, game.id).deadline
    assert nxt is not None and nxt - first == timedelta(hours=1)
    clock.set(nxt - timedelta(minutes=30))
    run_once(factory, clock, SETTINGS, LogMailer())
    assert _reminded(db) == before
    assert mails(db, "turn")  # the turn mail went


def test_a_reminder_names_only_public_facts(db: Session, clock: FakeClock,
                                            factory: sessionmaker[Session]) -> None:
    game, users = started_game(db, clock.now(), schedule=DAILY)
    assert game.deadline is not None
    clock.set(game.deadline - timedelta(hours=2))
    run_once(factory, clock, SETTINGS, LogMailer())
    body = mails(db, "reminder")[0].body
    for user in users:
        assert user.email not in body
    assert "leader" not in body.lower()


def _race(url: str, when: Any, workers: int = 2) -> list[int]:
    barrier = threading.Barrier(workers)
    results: list[int] = []
    errors: list[BaseException] = []

    def work() -> None:
        engine = make_engine(url)
        try:
            factory = session_factory(engine)
            barrier.wait()
            results.append(reminders.send_reminders(factory, when, SETTINGS))
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            engine.dispose()

    threads = [threading.Thread(target=work) for _ in range(workers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    return results


def test_two_workers_on_sqlite_remind_once(db: Session, clock: FakeClock,
                                           database_url: str) -> None:
    game, users = started_game(db, clock.now(), humans=3, schedule=DAILY)
    assert game.deadline is not None
    db.close()
    assert sum(_race(database_url, game.deadline - timedelta(hours=3))) == 3
    assert sorted(_reminded(db)) == sorted(user.email for user in users)


@pytest.mark.postgres
def test_four_workers_on_postgresql_remind_once(db: Session, clock: FakeClock,
                                                database_url: str) -> None:
    game, users = started_game(db, clock.now(), humans=3, schedule=DAILY)
    assert game.deadline is not None
    db.close()
    assert sum(_race(database_url, game.deadline - timedelta(hours=3), workers=4)) == 3
    assert sorted(_reminded(db)) == sorted(user.email for user in users)
    assert db.scalar(select(User).where(User.id == users[0].id)) is not None
    assert len(list(db.scalars(select(OutboxMail).where(OutboxMail.kind == "reminder")))) == 3
