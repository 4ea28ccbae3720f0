"""The host's bounded powers (DESIGN "Web": extensions and pauses are capped and shown
to every player): extend, pause, resume, the pause that ends itself, close now."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.clock import FakeClock
from spyhouse.mail.outbox import LogMailer
from spyhouse.service import games, play
from spyhouse.service.errors import Conflict, Forbidden, Invalid
from spyhouse.service.notify import news_of
from spyhouse.settings import Settings
from spyhouse.store.tables import Game, TurnRow
from spyhouse.worker import run_once
from tests.service.helpers import count, mails, started_game

CAPS = Settings(max_extension_hours=12, max_pause_hours=4, base_url="http://spy.test")


def test_extensions_are_capped_per_turn_and_announced_to_every_player(
        db: Session, clock: FakeClock, factory: sessionmaker[Session]) -> None:
    game, (host, bob) = started_game(db, clock.now())
    deadline = game.deadline
    assert deadline is not None
    with pytest.raises(Forbidden, match="only the host"):
        games.extend_deadline(db, bob, game.id, 2, clock.now(), settings=CAPS)
    with pytest.raises(Invalid):
        games.extend_deadline(db, host, game.id, 0, clock.now(), settings=CAPS)
    games.extend_deadline(db, host, game.id, 10, clock.now(), settings=CAPS)
    assert game.deadline == deadline + timedelta(hours=10) and game.extended_hours == 10
    with pytest.raises(Conflict, match="capped at 12 hours per turn; 2 hours are left"):
        games.extend_deadline(db, host, game.id, 3, clock.now(), settings=CAPS)
    games.extend_deadline(db, host, game.id, 2, clock.now(), settings=CAPS)
    announcements = mails(db, "announcement")
    assert sorted({m.to_addr for m in announcements}) == [host.email, bob.email]
    assert len(announcements) == 4
    assert "extended this turn's deadline by 2 hours (12 hours this turn)" in \
        announcements[-1].body
    assert "http://spy.test/games/" in announcements[-1].body
    assert [n.kind for n in news_of(db, game.id)][:2] == ["extend", "extend"]
    db.commit()
    clock.set(deadline + timedelta(hours=12))
    assert run_once(factory, clock, CAPS, LogMailer()) >= 1
    db.expire_all()
    fresh = db.get(Game, game.id)
    assert fresh is not None and fresh.entry == 1 and fresh.extended_hours == 0
    # the next deadline is the next scheduled (hourly) time after the extended one
    assert fresh.deadline == deadline + timedelta(hours=13)
    with pytest.raises(Conflict, match="the turn is closed"):
        games.extend_deadline(db, host, game.id, 1, fresh.deadline, settings=CAPS)


def test_pause_stops_the_clock_and_resume_moves_the_deadline(
        db: Session, clock: FakeClock) -> None:
    game, (host, bob) = started_game(db, clock.now())
    deadline = game.deadline
    assert deadline is not None
    seat = play.seat_of_user(db, bob, game.id)
    with pytest.raises(Forbidden):
        games.pause_game(db, bob, game.id, clock.now(), settings=CAPS)
    with pytest.raises(Conflict, match="not paused"):
        games.resume_game(db, host, game.id, clock.now(), settings=CAPS)
    games.pause_game(db, host, game.id, clock.now(), settings=CAPS)
    assert game.status == "paused" and game.deadline is None
    assert game.paused_until == clock.now() + timedelta(hours=4)
    with pytest.raises(Conflict, match="the game is paused"):
        play.submit_orders(db, seat, {}, now=clock.now())
    with pytest.raises(Conflict, match="only a running game"):
        games.pause_game(db, host, game.id, clock.now(), settings=CAPS)
    games.extend_deadline(db, host, game.id, 1, clock.now(), settings=CAPS)
    clock.advance(hours=3)
    games.resume_game(db, host, game.id, clock.now(), settings=CAPS)
    assert game.status == "running" and game.paused_s == 3 * 3600
    assert game.deadline == deadline + timedelta(hours=3 + 1)
    with pytest.raises(Conflict, match=r"not paused"):
        games.resume_game(db, host, game.id, clock.now(), settings=CAPS)
    kinds = [m.kind for m in mails(db)]
    assert kinds.count("announcement") == 6  # pause, extend, resume, to two players
    texts = [n.text for n in news_of(db, game.id)]
    assert texts[0].startswith("The host has resumed the game. Orders are due")
    assert texts[2].startswith("The host has paused the game. It resumes by")


def test_a_pause_ends_by_itself_when_the_turns_allowance_is_spent(
        db: Session, clock: FakeClock, factory: sessionmaker[Session]) -> None:
    game, (host, _bob) = started_game(db, clock.now())
    deadline = game.deadline
    assert deadline is not None
    games.pause_game(db, host, game.id, clock.now(), settings=CAPS)
    clock.advance(hours=3)
    games.resume_game(db, host, game.id, clock.now(), settings=CAPS)
    games.pause_game(db, host, game.id, clock.now(), settings=CAPS)
    assert game.paused_until == clock.now() + timedelta(hours=1)  # 4 h per turn in all
    db.commit()
    clock.advance(hours=5)  # the worker was late: the pause ended an hour in
    run_once(factory, clock, CAPS, LogMailer())
    db.expire_all()
    fresh = db.get(Game, game.id)
    assert fresh is not None and fresh.status == "running" and fresh.paused_s == 4 * 3600
    assert fresh.deadline == deadline + timedelta(hours=4)
    assert "reached its limit" in news_of(db, game.id)[0].text
    with pytest.raises(Conflict, match="used its 4 hours of pause"):
        games.pause_game(db, host, fresh.id, clock.now(), settings=CAPS)


def test_close_now_makes_the_turn_due_at_once(
        db: Session, clock: FakeClock, factory: sessionmaker[Session]) -> None:
    game, (host, bob) = started_game(db, clock.now())
    with pytest.raises(Forbidden):
        games.request_processing(db, bob, game.id, clock.now())
    games.request_processing(db, host, game.id, clock.now(), settings=CAPS)
    assert game.deadline == clock.now()
    assert news_of(db, game.id)[0].kind == "close"
    db.commit()
    assert run_once(factory, clock, CAPS, LogMailer()) >= 1
    assert count(db, TurnRow) == 1
    db.expire_all()
    fresh = db.get(Game, game.id)
    assert fresh is not None and fresh.deadline == clock.now() + timedelta(hours=1)
    seat = play.seat_of_user(db, bob, game.id)
    with pytest.raises(Conflict, match="the turn is closed"):
        play.submit_orders(db, seat, {}, now=clock.now(), entry=1)
