"""One READY for games whose orders carry their own (``Ruleset.ready_field``): the
platform's mark and Infiltration's ``ready`` key never disagree, and the rules' check on
READY (B3: vote first) holds however READY is given (form, API order, mark endpoint)."""

from __future__ import annotations

import pytest
from sqlalchemy.orm import Session

from spyhouse.clock import FakeClock
from spyhouse.service import play
from spyhouse.service.errors import Conflict, OrdersRefused
from spyhouse.store.tables import Game, SeatRow
from tests.service.test_phase_deadlines import fresh, infiltration, phase, process, to_movement


def _decision(db: Session, clock: FakeClock) -> tuple[Game, list[SeatRow]]:
    game, _users, seats = infiltration(db, clock, "fast")
    to_movement(db, fresh(db, game.id), clock)
    game = fresh(db, game.id)
    assert game.deadline is not None
    clock.set(game.deadline)
    process(db, game.id, clock)
    assert phase(db, seats[0]) == "decision"
    return fresh(db, game.id), seats


def test_orders_that_say_ready_are_marked_ready(db: Session, clock: FakeClock) -> None:
    _game, seats = _decision(db, clock)
    state = play.submit_orders(db, seats[0], {"vote": "s2", "ready": True}, now=clock.now())
    assert state.ready and state.data == {"vote": "s2", "ready": True}


def test_the_mark_sets_the_orders_ready_key_and_clears_it(db: Session,
                                                          clock: FakeClock) -> None:
    _game, seats = _decision(db, clock)
    play.submit_orders(db, seats[0], {"vote": "s2"}, now=clock.now())
    marked = play.set_ready(db, seats[0], True, now=clock.now())
    assert marked.ready and marked.data == {"vote": "s2", "ready": True}
    cleared = play.set_ready(db, seats[0], False, now=clock.now())
    assert not cleared.ready and cleared.data == {"vote": "s2"}


def test_ready_without_a_vote_is_refused_however_it_is_given(db: Session,
                                                             clock: FakeClock) -> None:
    _game, seats = _decision(db, clock)
    play.submit_orders(db, seats[0], {}, now=clock.now())
    with pytest.raises(OrdersRefused) as by_mark:
        play.set_ready(db, seats[0], True, now=clock.now())
    with pytest.raises(OrdersRefused) as by_flag:
        play.submit_orders(db, seats[0], {}, now=clock.now(), ready=True)
    assert by_mark.value.messages == by_flag.value.messages
    assert "vote" in by_mark.value.messages[0].lower()
    saved = play.get_orders(db, seats[0])
    assert not saved.ready and saved.data == {}  # nothing half-applied


def test_the_class_phase_has_no_ready_key(db: Session, clock: FakeClock) -> None:
    _game, _users, seats = infiltration(db, clock, "fast")
    state = play.submit_orders(db, seats[0], {}, now=clock.now(), ready=True)
    assert state.ready and state.data == {}


def test_marking_needs_saved_orders(db: Session, clock: FakeClock) -> None:
    _game, seats = _decision(db, clock)
    with pytest.raises(Conflict, match="save your orders first"):
        play.set_ready(db, seats[0], True, now=clock.now())
