"""The order write path (issue 12): judged outside the write lock, states by (game,
entry) without reloading the record, one game's writers first come, first served."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.clock import FakeClock
from spyhouse.service import gamelocks, play, turns
from spyhouse.service import records as store
from spyhouse.service.errors import Conflict, OrdersRefused
from spyhouse.store.db import transaction
from spyhouse.store.tables import Game, OrderDraft
from tests.service.helpers import started_game, work_sheet

BAD_SHEET = {"spies": {"4": {"task": "WORK", "region": "Z"}}}

#: Run on SQLite and, where ``SPYHOUSE_TEST_DATABASE_URL`` is set, on PostgreSQL too (where
#: another process's worker may process the turn between the judging and the write).
ON_BOTH = pytest.mark.parametrize(
    "database", ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])


def _counting(monkeypatch: pytest.MonkeyPatch, name: str,
              before: Callable[[], None] | None = None) -> list[int]:
    """Count the calls of ``records.<name>`` (running ``before`` ahead of the first)."""
    calls: list[int] = []
    real = getattr(store, name)

    def counted(*args: Any, **kwargs: Any) -> Any:
        if before is not None and not calls:
            before()
        calls.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(store, name, counted)
    return calls


def test_a_refused_sheet_never_takes_the_write_lock(
        db: Session, clock: FakeClock, monkeypatch: pytest.MonkeyPatch) -> None:
    game, (_host, bob) = started_game(db, clock.now())
    seat = play.seat_of_user(db, bob, game.id)
    db.commit()
    locks = _counting(monkeypatch, "lock_game")
    with pytest.raises(OrdersRefused, match="unknown region Z"):
        play.submit_orders(db, seat, BAD_SHEET, now=clock.now())
    with pytest.raises(Conflict, match=r"^the turn is closed$"):
        play.submit_orders(db, seat, {}, now=clock.now(), entry=2)  # a stale form
    assert game.deadline is not None
    with pytest.raises(Conflict, match=r"^the turn is closed$"):
        play.submit_orders(db, seat, {}, now=game.deadline)
    assert locks == [], "refusals are decided before the lock"
    assert gamelocks.waiting(db, game.id) == 0
    play.submit_orders(db, seat, {}, now=clock.now())
    assert locks == [1], "an accepted sheet locks once, to write"


def _process_the_turn(factory: sessionmaker[Session], game_id: int) -> Callable[[], None]:
    def process() -> None:  # another request's worker, committed before our write
        with transaction(factory) as other:
            due = store.read_game(other, game_id).deadline
            assert due is not None
            assert turns.process_turn(other, game_id, due)
    return process


@ON_BOTH
def test_a_sheet_for_an_entry_processed_before_the_write_is_refused_and_nothing_saved(
        db: Session, clock: FakeClock, factory: sessionmaker[Session],
        monkeypatch: pytest.MonkeyPatch, database: str) -> None:
    game, (_host, bob) = started_game(db, clock.now())
    seat = play.seat_of_user(db, bob, game.id)
    sheet = work_sheet(play.current_view(db, seat))
    db.commit()
    _counting(monkeypatch, "lock_game", before=_process_the_turn(factory, game.id))
    with pytest.raises(Conflict, match=r"^the turn is closed$"):
        play.submit_orders(db, seat, sheet, now=clock.now(), entry=1)
    db.rollback()
    assert store.read_game(db, game.id).entry == 1
    assert db.scalars(select(OrderDraft).where(OrderDraft.seat_id == seat.seat_id)).all() \
        == [], "nothing saved: not for entry 1 (closed), not for entry 2 (not judged)"


@ON_BOTH
def test_a_sheet_without_entry_is_judged_again_against_the_entry_it_is_saved_for(
        db: Session, clock: FakeClock, factory: sessionmaker[Session],
        monkeypatch: pytest.MonkeyPatch, database: str) -> None:
    game, (_host, bob) = started_game(db, clock.now())
    seat = play.seat_of_user(db, bob, game.id)
    sheet = work_sheet(play.current_view(db, seat))
    db.commit()
    judged: list[int] = []
    real_judge = play._judge

    def judge(game: Game, *args: Any, **kwargs: Any) -> Any:
        judged.append(game.entry)
        return real_judge(game, *args, **kwargs)

    monkeypatch.setattr(play, "_judge", judge)
    _counting(monkeypatch, "lock_game", before=_process_the_turn(factory, game.id))
    state = play.submit_orders(db, seat, sheet, now=clock.now())
    assert judged == [0, 1], "judged against entry 0, then again against entry 1"
    assert state.entry == 2
    db.commit()
    [draft] = db.scalars(select(OrderDraft).where(OrderDraft.seat_id == seat.seat_id))
    assert draft.entry == 2


@ON_BOTH
def test_the_memo_serves_a_game_entry_without_reloading_the_record(
        db: Session, clock: FakeClock, factory: sessionmaker[Session],
        monkeypatch: pytest.MonkeyPatch, database: str) -> None:
    game, (_host, bob) = started_game(db, clock.now())
    seat = play.seat_of_user(db, bob, game.id)
    db.commit()
    play.submit_orders(db, seat, {}, now=clock.now())  # fills the memo for entry 0
    db.commit()
    loads = _counting(monkeypatch, "load_record")
    builds = _counting(monkeypatch, "build_record")
    replays = _counting(monkeypatch, "state_of")
    for region in "ABCD":
        play.submit_orders(db, seat, {"spies": {"2": {"task": "WORK", "region": region}}},
                           now=clock.now())
        db.commit()
        play.get_orders(db, seat)
        assert play.check_orders(db, seat, BAD_SHEET, now=clock.now()) != []
    assert (loads, builds, replays) == ([], [], []), "no reload, no digest, no replay"
    _process_the_turn(factory, game.id)()  # the next entry: one miss, then served
    builds.clear()
    play.submit_orders(db, seat, {}, now=clock.now())
    db.commit()
    play.submit_orders(db, seat, {}, now=clock.now())
    db.commit()
    assert len(builds) == 1


def test_the_memo_gives_the_state_a_replay_gives_and_a_changed_seat_is_a_new_key(
        db: Session, clock: FakeClock, factory: sessionmaker[Session]) -> None:
    game, (_host, bob) = started_game(db, clock.now(), bots=["hunter"])
    db.commit()
    _process_the_turn(factory, game.id)()
    game = store.read_game(db, game.id)
    assert store.state_at(db, game) == store.state_of(store.load_record(db, game))
    first = store.state_at(db, game)
    assert store.state_at(db, game) is first
    from spyhouse.service import quick
    quick.set_strategy(db, play.seat_of_user(db, bob, game.id), "economist")
    assert store.state_at(db, game) == store.state_of(store.load_record(db, game))


def _hold_in_thread(factory: sessionmaker[Session], game_id: int, order: list[int],
                    index: int, release: threading.Event) -> threading.Thread:
    def run() -> None:
        with transaction(factory) as session:
            gamelocks.hold(session, game_id)
            order.append(index)
            release.wait(5)
    thread = threading.Thread(target=run)
    thread.start()
    return thread


def _wait_for(check: Callable[[], bool]) -> None:
    deadline = time.monotonic() + 5
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.002)


def test_writers_of_one_game_are_served_in_arrival_order_until_each_commits(
        db: Session, clock: FakeClock, factory: sessionmaker[Session]) -> None:
    game, (_host, bob) = started_game(db, clock.now())
    seat = play.seat_of_user(db, bob, game.id)
    db.commit()
    play.submit_orders(db, seat, {}, now=clock.now())  # holds the game until committed
    order: list[int] = []
    go = threading.Event()
    go.set()
    threads = []
    for index in range(6):
        threads.append(_hold_in_thread(factory, game.id, order, index, go))
        _wait_for(lambda n=index + 1: gamelocks.waiting(db, game.id) == n)  # queued in turn
    time.sleep(0.02)
    assert order == [], "all wait for the uncommitted writer"
    db.commit()
    for thread in threads:
        thread.join(5)
    assert order == [0, 1, 2, 3, 4, 5]
    assert gamelocks.waiting(db, game.id) == 0


def test_different_games_do_not_wait_for_each_other(
        db: Session, clock: FakeClock, factory: sessionmaker[Session]) -> None:
    game, _users = started_game(db, clock.now())
    db.commit()
    gamelocks.hold(db, game.id)
    gamelocks.hold(db, game.id)  # a session holding its game goes on
    order: list[int] = []
    done = threading.Event()
    thread = _hold_in_thread(factory, game.id + 1000, order, 1, done)
    _wait_for(lambda: order == [1])
    done.set()
    thread.join(5)
    db.rollback()  # a rollback releases too
    thread = _hold_in_thread(factory, game.id, order, 2, done)
    thread.join(5)
    assert order == [1, 2]


def test_the_fair_lock_hands_over_in_arrival_order_and_times_out() -> None:
    lock = gamelocks.FairLock()
    assert lock.acquire(1)
    assert not lock.acquire(0.01), "a waiter gives up after its timeout"
    assert lock.waiting() == 0
    order: list[int] = []

    def waiter(index: int) -> None:
        assert lock.acquire(5)
        order.append(index)
        lock.release()

    threads = []
    for index in range(5):
        threads.append(threading.Thread(target=waiter, args=(index,)))
        threads[-1].start()
        _wait_for(lambda n=index + 1: lock.waiting() == n)
    lock.release()
    for thread in threads:
        thread.join(5)
    assert order == [0, 1, 2, 3, 4]
    assert lock.acquire(0.01), "free again"
