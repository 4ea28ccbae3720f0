"""The stored chain (issue 13 item 5): each processed entry keeps its hash in the game's
chain (``turns.chain``), and a game whose stored turns were changed is refused on load.

docs/record-format.md "The chain"; service/records.py "the stored chain".
"""

from __future__ import annotations

import pytest
from sqlalchemy import select, update
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.clock import FakeClock
from spyhouse.core import record as records
from spyhouse.core.ruleset import Seat
from spyhouse.mail.outbox import LogMailer
from spyhouse.service import games, play, quick, turns
from spyhouse.service import records as store
from spyhouse.settings import Settings
from spyhouse.store.tables import Game, TurnRow
from spyhouse.worker import run_once
from tests.service.helpers import started_game


def _played(db: Session, factory: sessionmaker[Session], clock: FakeClock,
            entries: int = 3) -> Game:
    game, _users = started_game(db, clock.now(), humans=2, bots=["economist", "hunter"],
                                bases=["C", "D"])
    for _ in range(entries):
        clock.advance(hours=25)
        run_once(factory, clock, Settings(), LogMailer())
    db.expire_all()
    return game


def _stored(db: Session, game_id: int) -> list[str | None]:
    return list(db.scalars(select(TurnRow.chain).where(TurnRow.game_id == game_id)
                           .order_by(TurnRow.entry)))


def test_each_processed_entry_keeps_its_hash_in_the_game_s_chain(
        db: Session, factory: sessionmaker[Session], clock: FakeClock) -> None:
    game = _played(db, factory, clock)
    record = games.record_of(db, game.id)
    assert len(record.turns) >= 3
    stored = _stored(db, game.id)
    assert stored == store.stored_chain(record)
    # the chain of the record without the seats' players and e-mails (which change
    # while a game runs), so the record's own chain whenever those are empty
    bare = records.Record(record.game, record.seed, record.options,
                          tuple(Seat(s.id, s.name) for s in record.seats), record.turns)
    assert stored == records.chain(bare)
    assert stored != records.chain(record)  # the players are named in the file's chain
    assert records.loads(record.dumps()) == record


def test_a_changed_turns_row_is_refused_when_the_game_is_loaded(
        db: Session, factory: sessionmaker[Session], clock: FakeClock) -> None:
    game = _played(db, factory, clock)
    before = games.record_of(db, game.id)
    db.execute(update(TurnRow).where(TurnRow.game_id == game.id, TurnRow.entry == 2)
               .values(orders={seat.id: None for seat in before.seats}))
    db.commit()
    db.expire_all()
    with pytest.raises(store.RecordChanged) as caught:
        games.record_of(db, game.id)
    assert str(caught.value) == f"game {game.id}: record entry 2 does not match its stored hash"
    # nor will the worker process the next turn of it
    clock.advance(hours=25)
    with pytest.raises(store.RecordChanged):
        turns.process_turn(db, game.id, clock.now())
    db.rollback()


def test_a_changed_stored_hash_is_refused_too(
        db: Session, factory: sessionmaker[Session], clock: FakeClock) -> None:
    game = _played(db, factory, clock)
    db.execute(update(TurnRow).where(TurnRow.game_id == game.id, TurnRow.entry == 1)
               .values(chain="0" * 64))
    db.commit()
    db.expire_all()
    with pytest.raises(store.RecordChanged, match="record entry 1 does not match"):
        games.record_of(db, game.id)


def test_entries_stored_before_the_chain_are_not_checked_and_play_goes_on(
        db: Session, factory: sessionmaker[Session], clock: FakeClock) -> None:
    game = _played(db, factory, clock, entries=2)
    db.execute(update(TurnRow).where(TurnRow.game_id == game.id).values(chain=None))
    db.commit()
    games.record_of(db, game.id)  # not checked: a game from before 0007
    clock.advance(hours=25)
    run_once(factory, clock, Settings(), LogMailer())
    db.expire_all()
    record = games.record_of(db, game.id)
    stored = _stored(db, game.id)
    assert stored[:-1] == [None] * (len(stored) - 1)
    assert stored[-1] == store.stored_chain(record)[-1]


def test_a_computer_seat_s_new_strategy_does_not_break_the_stored_chain(
        db: Session, factory: sessionmaker[Session], clock: FakeClock) -> None:
    game, (_host, bob) = started_game(db, clock.now(), bots=["hunter"])
    clock.advance(hours=25)
    run_once(factory, clock, Settings(), LogMailer())
    db.expire_all()
    quick.set_strategy(db, play.seat_of_user(db, bob, game.id), "economist")
    db.commit()
    record = games.record_of(db, game.id)  # the header changed, the entries did not
    assert _stored(db, game.id) == store.stored_chain(record)
    clock.advance(hours=25)
    run_once(factory, clock, Settings(), LogMailer())
    db.expire_all()
    record = games.record_of(db, game.id)
    assert len(record.turns) == 2
    assert _stored(db, game.id) == store.stored_chain(record)
