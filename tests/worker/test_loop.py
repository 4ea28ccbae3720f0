"""Processing due turns (service/turns.py, worker/loop.py): when a turn is due, exactly
once, whole or not at all, catching up, bots and no-shows (DESIGN "Store, worker, mail")."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from spyhouse import cli
from spyhouse.clock import FakeClock
from spyhouse.mail.outbox import LogMailer
from spyhouse.service import games, play, turns
from spyhouse.service import records as store
from spyhouse.settings import Settings
from spyhouse.store.db import make_engine, session_factory, transaction
from spyhouse.store.tables import Game, OrderDraft, OutboxMail, Report, TurnRow
from spyhouse.worker import loop, run_forever, run_once
from tests.service.helpers import (
    count,
    mails,
    make_user,
    new_game,
    seat_players,
    started_game,
    work_sheet,
)

SETTINGS = Settings(base_url="http://spy.test")
AUCKLAND = {"weekly": {"weekday": "Wednesday", "time": "20:00", "zone": "Pacific/Auckland"}}


def _game(db: Session, game_id: int) -> Game:
    db.expire_all()
    game = db.get(Game, game_id)
    assert game is not None
    return game


def test_a_turn_is_due_at_its_deadline_not_before(
        db: Session, clock: FakeClock, factory: sessionmaker[Session]) -> None:
    game, _users = started_game(db, clock.now())
    deadline = game.deadline
    assert deadline is not None
    assert turns.due_games(db, deadline - timedelta(seconds=1)) == []
    assert turns.process_turn(db, game.id, deadline - timedelta(seconds=1)) is False
    db.rollback()  # the claim holds SQLite's write lock until the transaction ends
    assert turns.due_games(db, deadline) == [game.id]
    clock.set(deadline)
    assert run_once(factory, clock, SETTINGS, LogMailer()) >= 1
    turn = db.scalar(select(TurnRow))
    assert turn is not None and turn.entry == 1
    assert turn.orders == {"s1": None, "s2": None}  # no-shows: the rules' default (null)
    fresh = _game(db, game.id)
    assert fresh.entry == 1 and fresh.deadline == deadline + timedelta(hours=1)
    assert play.current_view(db, play.seat_of_user(db, _users[0], game.id))["me"]["notices"] \
        == ["no orders received: all spies worked in random regions"]


def test_early_close_when_every_awaited_seat_is_ready(
        db: Session, clock: FakeClock, factory: sessionmaker[Session]) -> None:
    game, users = started_game(db, clock.now(), bots=["economist"], schedule=AUCKLAND)
    deadline = game.deadline
    assert deadline is not None
    seats = [play.seat_of_user(db, user, game.id) for user in users]
    play.submit_orders(db, seats[0], {}, now=clock.now(), ready=True)
    play.submit_orders(db, seats[1], {}, now=clock.now())
    db.commit()
    assert turns.due_games(db, clock.now()) == []  # s2 is not ready; the bot is
    play.submit_orders(db, seats[1], {}, now=clock.now(), ready=True)
    db.commit()
    assert turns.due_games(db, clock.now()) == [game.id]
    run_once(factory, clock, SETTINGS, LogMailer())
    fresh = _game(db, game.id)
    assert fresh.entry == 1
    # the next deadline is the next Wednesday 20:00 after the one this turn had
    assert fresh.deadline == deadline + timedelta(days=7)


def test_all_submitted_waits_only_for_humans(
        db: Session, clock: FakeClock, factory: sessionmaker[Session]) -> None:
    game, users = started_game(db, clock.now(), bots=["hunter", "shadow"],
                               schedule="all_submitted")
    assert game.deadline is None
    seats = [play.seat_of_user(db, user, game.id) for user in users]
    play.submit_orders(db, seats[0], work_sheet(play.current_view(db, seats[0])),
                       now=clock.now(), ready=True)
    db.commit()
    assert turns.due_games(db, clock.now() + timedelta(days=30)) == []
    play.submit_orders(db, seats[1], {}, now=clock.now())
    db.commit()  # a saved draft is no final order: the turn still waits (issue 10)
    assert turns.due_games(db, clock.now() + timedelta(days=30)) == []
    play.set_ready(db, seats[1], True, now=clock.now())
    db.commit()
    assert run_once(factory, clock, SETTINGS, LogMailer()) >= 1
    turn = db.scalar(select(TurnRow))
    assert turn is not None
    assert turn.orders["s1"]["spies"]["1"] == {"task": "WORK", "region": "H"}
    assert turn.orders["s3"] is not None and turn.orders["s4"] is not None  # the bots'
    assert _game(db, game.id).deadline is None


def test_a_full_game_of_humans_and_bots_runs_to_game_over(
        db: Session, clock: FakeClock, factory: sessionmaker[Session]) -> None:
    play_to_the_end(db, clock, factory)


@pytest.mark.postgres
def test_a_full_game_runs_to_game_over_on_postgresql(
        db: Session, clock: FakeClock, factory: sessionmaker[Session]) -> None:
    play_to_the_end(db, clock, factory)


def play_to_the_end(db: Session, clock: FakeClock, factory: sessionmaker[Session]) -> None:
    """Two humans (one plays, one never shows up) and three bots, turn after turn at
    each deadline, until the game is over."""
    game, users = started_game(db, clock.now(), humans=2,
                               bots=["economist", "hunter", "shadow"])
    seat = play.seat_of_user(db, users[0], game.id)
    for _ in range(60):
        fresh = _game(db, game.id)
        if fresh.status == "over":
            break
        if "s1" in fresh.awaiting:  # one human plays, the other never shows up
            play.submit_orders(db, seat, work_sheet(play.current_view(db, seat)),
                               now=clock.now())
            db.commit()
        clock.set(fresh.deadline)  # type: ignore[arg-type]
        run_once(factory, clock, SETTINGS, LogMailer())
    fresh = _game(db, game.id)
    assert fresh.status == "over" and fresh.deadline is None and fresh.awaiting == []
    assert fresh.finished_at is not None
    public = play.public_view(db, game.id)
    assert public["game_over"]["winners"]
    assert str(fresh.seed) in str(public["game_over"]["seed"])  # revealed at the end only
    assert count(db, TurnRow) == fresh.entry
    assert count(db, Report) == (fresh.entry + 1) * (5 + 2)
    kinds = [m.kind for m in mails(db)]
    assert kinds.count("secrets") == 2 and kinds.count("game_over") == 2
    assert all(m.sent_at is not None for m in mails(db))
    assert run_once(factory, clock, SETTINGS, LogMailer()) == 0


def test_a_worker_that_was_down_catches_up_one_entry_per_round(
        db: Session, clock: FakeClock, factory: sessionmaker[Session]) -> None:
    game, _users = started_game(db, clock.now(), schedule=AUCKLAND)
    first = game.deadline
    assert first == datetime(2026, 12, 2, 7, 0, tzinfo=UTC)
    clock.set(first + timedelta(days=15))  # three deadlines missed: Dec 2, 9 and 16
    processed = []
    while turns.due_games(db, clock.now()):
        assert run_once(factory, clock, SETTINGS, LogMailer()) >= 1
        fresh = _game(db, game.id)
        processed.append((fresh.entry, fresh.deadline))
    assert processed == [(1, first + timedelta(days=7)), (2, first + timedelta(days=14)),
                         (3, first + timedelta(days=21))]
    assert [t.entry for t in db.scalars(select(TurnRow).order_by(TurnRow.entry))] == [1, 2, 3]


def test_a_failure_mid_processing_leaves_the_previous_turn_and_the_next_run_does_it_whole(
        db: Session, clock: FakeClock, factory: sessionmaker[Session],
        monkeypatch: pytest.MonkeyPatch) -> None:
    game, _users = started_game(db, clock.now(), bots=["hunter"])
    deadline = game.deadline
    assert deadline is not None
    mails_before = count(db, OutboxMail)
    clock.set(deadline)

    def crash(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("the machine lost power between two writes")

    monkeypatch.setattr(store, "write_views", crash)  # after the TurnRow is added
    assert run_once(factory, clock, SETTINGS, LogMailer()) == mails_before  # mails only
    fresh = _game(db, game.id)
    assert (fresh.entry, fresh.deadline, count(db, TurnRow)) == (0, deadline, 0)
    assert count(db, Report) == 5 and count(db, OutboxMail) == mails_before
    monkeypatch.undo()
    assert run_once(factory, clock, SETTINGS, LogMailer()) >= 1
    fresh = _game(db, game.id)
    assert fresh.entry == 1 and count(db, TurnRow) == 1
    assert count(db, Report, entry=1) == 5 and count(db, OutboxMail, kind="turn") == 2


def _bot_drafts(db: Session, game_id: int, entry: int) -> list[str]:
    db.expire_all()
    return sorted(db.scalars(select(OrderDraft.seat_id).where(
        OrderDraft.game_id == game_id, OrderDraft.entry == entry, OrderDraft.ready)))


def test_the_bots_move_after_the_turn_in_their_own_transaction_once(
        db: Session, clock: FakeClock, factory: sessionmaker[Session],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The turn commits without the computer players' next orders; the worker then gives
    them, each bot once. A failure there leaves the turn processed and the next round
    gives them; moving again writes nothing twice."""
    game, _users = started_game(db, clock.now(), bots=["hunter", "economist"])
    assert _bot_drafts(db, game.id, 1) == ["s3", "s4"]  # the start gives the first ones
    deadline = game.deadline
    assert deadline is not None
    clock.set(deadline)

    def crash(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("a bot's process died")

    monkeypatch.setattr(store, "bot_sheet", crash)
    run_once(factory, clock, SETTINGS, LogMailer())
    fresh = _game(db, game.id)
    assert fresh.entry == 1 and count(db, TurnRow) == 1  # the turn stands
    assert _bot_drafts(db, game.id, 2) == []
    with transaction(factory) as other:
        assert turns.games_awaiting_bots(other) == [game.id]
    monkeypatch.undo()
    run_once(factory, clock, SETTINGS, LogMailer())
    assert _bot_drafts(db, game.id, 2) == ["s3", "s4"]
    with transaction(factory) as other:
        assert turns.games_awaiting_bots(other) == []
        assert turns.move_bots(other, game.id, clock.now()) == 0


def test_only_awaited_computer_seats_without_orders_make_a_game_wait_for_its_bots(
        db: Session, clock: FakeClock) -> None:
    game, _users = started_game(db, clock.now(), bots=["hunter", "economist"])
    assert turns.games_awaiting_bots(db) == []  # the start gave every bot its orders
    db.execute(OrderDraft.__table__.delete().where(OrderDraft.game_id == game.id,
                                                   OrderDraft.seat_id == "s3"))
    assert turns.games_awaiting_bots(db) == [game.id]
    fresh = _game(db, game.id)
    fresh.awaiting = [seat for seat in fresh.awaiting if seat != "s3"]  # not awaited now
    db.flush()
    assert turns.games_awaiting_bots(db) == []


def _race(url: str, game_id: int, when: datetime, workers: int = 2) -> list[bool]:
    """``workers`` threads, each with its own engine, process one game at once."""
    barrier = threading.Barrier(workers)
    results: list[bool] = []
    errors: list[BaseException] = []

    def work() -> None:
        engine = make_engine(url)
        try:
            factory = session_factory(engine)
            barrier.wait()
            with transaction(factory) as db:
                results.append(turns.process_turn(db, game_id, when, settings=SETTINGS))
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


def test_two_workers_on_sqlite_process_a_due_turn_once(
        db: Session, clock: FakeClock, database_url: str) -> None:
    game, _users = started_game(db, clock.now(), bots=["economist"])
    assert game.deadline is not None
    db.close()
    assert sorted(_race(database_url, game.id, game.deadline)) == [False, True]
    assert count(db, TurnRow) == 1 and _game(db, game.id).entry == 1


@pytest.mark.postgres
def test_two_workers_on_postgresql_process_a_due_turn_once(
        db: Session, clock: FakeClock, database_url: str) -> None:
    game, _users = started_game(db, clock.now(), bots=["economist", "hunter"])
    assert game.deadline is not None
    db.close()
    for _ in range(3):  # three due turns, each raced by four workers
        deadline = _game(db, game.id).deadline
        assert deadline is not None
        db.close()
        assert sorted(_race(database_url, game.id, deadline, workers=4)) == \
            [False, False, False, True]
    assert [t.entry for t in db.scalars(select(TurnRow).order_by(TurnRow.entry))] == [1, 2, 3]


@pytest.mark.postgres
def test_orders_are_refused_while_the_turn_is_being_processed(
        db: Session, clock: FakeClock, factory: sessionmaker[Session]) -> None:
    game, users = started_game(db, clock.now())
    seat = play.seat_of_user(db, users[1], game.id)
    db.commit()
    with transaction(factory) as worker:
        assert store.claim_game(worker, game.id) is not None  # a worker holds the row
        with pytest.raises(Exception, match="the turn is closed: it is being processed"):
            play.submit_orders(db, seat, {}, now=clock.now())
        db.rollback()
        with transaction(factory) as other_worker:
            assert store.claim_game(other_worker, game.id) is None  # SKIP LOCKED
    state = play.submit_orders(db, seat, {}, now=clock.now())  # released: accepted
    assert state.entry == 1


def test_one_failing_game_does_not_stop_the_others(
        db: Session, clock: FakeClock, factory: sessionmaker[Session],
        monkeypatch: pytest.MonkeyPatch) -> None:
    first, _ = started_game(db, clock.now())
    users = [make_user(db, f"other{n}", clock.now()) for n in (1, 2)]
    other = new_game(db, users[0], clock.now())
    seat_players(db, other, users, clock.now())
    games.start_game(db, users[0], other.id, clock.now())
    db.commit()
    real = turns.process_turn

    def flaky(session: Session, game_id: int, now: datetime, **kwargs: Any) -> bool:
        if game_id == first.id:
            raise RuntimeError("boom")
        return real(session, game_id, now, **kwargs)

    monkeypatch.setattr(turns, "process_turn", flaky)
    clock.set(first.deadline)  # type: ignore[arg-type]
    run_once(factory, clock, SETTINGS, LogMailer())
    assert (_game(db, first.id).entry, _game(db, other.id).entry) == (0, 1)


def test_run_forever_repeats_rounds_until_stopped(
        factory: sessionmaker[Session], clock: FakeClock,
        monkeypatch: pytest.MonkeyPatch) -> None:
    stop = threading.Event()
    rounds: list[int] = []

    def one_round(*args: Any) -> int:
        rounds.append(1)
        if len(rounds) == 2:
            raise RuntimeError("database unreachable")  # logged; the loop goes on
        if len(rounds) >= 4:
            stop.set()
        return 0

    monkeypatch.setattr(loop, "run_once", one_round)
    run_forever(factory, clock, Settings(worker_interval_s=0.001), LogMailer(), stop=stop)
    assert len(rounds) == 4


def test_the_worker_command_migrates_and_runs(tmp_path: Any,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    seen: dict[str, Any] = {}

    def fake_run_forever(factory: sessionmaker[Session], clock: Any, settings: Settings,
                         mailer: Any, *, stop: threading.Event) -> None:
        seen["url"] = settings.database_url
        seen["mailer"] = type(mailer).__name__
        with transaction(factory) as session:
            seen["games"] = count(session, Game)

    monkeypatch.setattr("spyhouse.worker.run_forever", fake_run_forever)
    monkeypatch.delenv("SPYHOUSE_SMTP_HOST", raising=False)
    url = f"sqlite:///{tmp_path / 'w.db'}"
    assert cli.main(["worker", "--db", url]) == 0
    assert seen == {"url": url, "mailer": "LogMailer", "games": 0}
