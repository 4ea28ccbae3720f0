"""Playing a seat (service/play.py): authorization, views from snapshots, orders
(spec §5.1, §5.3 V15, §8.5)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.clock import FakeClock
from spyhouse.mail.outbox import LogMailer
from spyhouse.service import games, play
from spyhouse.service import records as store
from spyhouse.service.errors import Conflict, Forbidden, Invalid, NotFound, OrdersRefused
from spyhouse.settings import Settings
from spyhouse.store.tables import OrderDraft, SeatRow
from spyhouse.worker import run_once
from tests.service.helpers import count, make_user, new_game, started_game, work_sheet


def test_a_user_reaches_only_the_seat_they_hold(db: Session, clock: FakeClock) -> None:
    game, (_host, bob) = started_game(db, clock.now())
    stranger = make_user(db, "stranger", clock.now())
    assert play.seat_of_user(db, bob, game.id).seat_id == "s2"
    with pytest.raises(NotFound, match="you hold no seat"):
        play.seat_of_user(db, stranger, game.id)
    with pytest.raises(NotFound):
        play.seat_of_user(db, bob, game.id + 1)


def test_api_tokens_play_one_seat_until_revoked(db: Session, clock: FakeClock) -> None:
    game, (host, bob) = started_game(db, clock.now())
    seat1, seat2 = (play.seat_of_user(db, user, game.id) for user in (host, bob))
    token = play.create_token(db, seat2, " my bot ", clock.now())
    assert token.startswith("shs_") and len(token) > 40
    assert play.seat_of_token(db, token, clock.now()).id == seat2.id
    [row] = play.tokens_of(db, seat2)
    assert row.label == "my bot" and token not in row.token_hash
    with pytest.raises(Forbidden, match="unknown or revoked"):
        play.seat_of_token(db, token + "x", clock.now())
    with pytest.raises(NotFound):
        play.revoke_token(db, seat1, row.id, clock.now())  # another seat's token
    with pytest.raises(Invalid):
        play.create_token(db, seat2, "x" * 81, clock.now())
    play.revoke_token(db, seat2, row.id, clock.now())
    with pytest.raises(Forbidden, match="unknown or revoked"):
        play.seat_of_token(db, token, clock.now())


def test_views_come_from_the_snapshots_and_spectators_see_public_keys_only(
        db: Session, clock: FakeClock) -> None:
    game, (_host, bob) = started_game(db, clock.now())
    seat = play.seat_of_user(db, bob, game.id)
    view = play.current_view(db, seat)
    assert view["seat"] == "s2" and view["turn"] == 0
    assert "secrets" not in view, "secrets are mailed only, never shown (spec §4)"
    assert play.report(db, seat, 0) == view
    with pytest.raises(NotFound, match="no report for turn 1"):
        play.report(db, seat, 1)
    with pytest.raises(NotFound):
        play.report(db, seat, -1)
    public = play.public_view(db, game.id)
    assert set(public) == {"game", "variant", "options", "turn", "regions", "directory",
                           "news", "game_over"}
    assert public == {key: view[key] for key in public}


def test_nothing_to_read_before_the_start(db: Session, clock: FakeClock) -> None:
    host = make_user(db, "host", clock.now())
    game = new_game(db, host, clock.now())
    seat = games.join_game(db, host, game.id, name="Mad Bobs", player="", show_email=True,
                           now=clock.now())
    with pytest.raises(NotFound, match="not started"):
        play.current_view(db, seat)
    with pytest.raises(NotFound, match="not started"):
        play.public_view(db, game.id)
    with pytest.raises(Conflict, match="not started"):
        play.submit_orders(db, seat, {}, now=clock.now())
    assert play.get_orders(db, seat) == play.OrdersState(1, None, False, [])


def test_orders_are_accepted_with_the_rules_warnings_and_can_be_changed(
        db: Session, clock: FakeClock) -> None:
    game, (_host, bob) = started_game(db, clock.now())
    seat = play.seat_of_user(db, bob, game.id)
    state = play.submit_orders(db, seat, {"spies": {"1": {"task": "hide", "region": "h"}}},
                               now=clock.now())
    assert state.entry == 1 and not state.ready
    assert state.data == {"spies": {"1": {"task": "HIDE", "region": "H"}}, "declarations": []}
    assert state.warnings[0] == "spy 1: Leaders cannot HIDE, he will WORK in H Industrial"
    assert "spy 2 has no orders: it will WORK in a random region" in state.warnings
    assert play.get_orders(db, seat) == state
    sheet = work_sheet(play.current_view(db, seat))
    changed = play.submit_orders(db, seat, sheet, now=clock.now(), ready=True)
    assert changed.ready and changed.warnings == []
    assert play.get_orders(db, seat).data["spies"]["9"] == {"task": "WORK", "region": "H"}
    assert count(db, OrderDraft, seat_id="s2") == 1


def test_a_refused_sheet_saves_nothing_and_the_previous_one_stands(
        db: Session, clock: FakeClock) -> None:
    game, (_host, bob) = started_game(db, clock.now())
    seat = play.seat_of_user(db, bob, game.id)
    first = play.submit_orders(db, seat, {"spies": {"2": {"task": "WORK", "region": "D"}}},
                               now=clock.now())
    with pytest.raises(OrdersRefused) as caught:
        play.submit_orders(db, seat, {"spies": {"4": {"task": "WORK", "region": "Z"},
                                                "1": {"task": "FOLLOW", "leader": "Mr X"}}},
                           now=clock.now(), ready=True)
    assert caught.value.messages == ["spy 1: no such leader to follow",
                                     "spy 4: unknown region Z"]
    assert play.get_orders(db, seat) == first
    with pytest.raises(OrdersRefused, match="malformed"):
        play.submit_orders(db, seat, ["not", "a", "sheet"], now=clock.now())
    assert play.get_orders(db, seat) == first


def test_a_repeated_request_key_changes_nothing_twice(db: Session, clock: FakeClock) -> None:
    game, (_host, bob) = started_game(db, clock.now())
    seat = play.seat_of_user(db, bob, game.id)
    first = play.submit_orders(db, seat, {"spies": {"2": {"task": "WORK", "region": "D"}}},
                               now=clock.now(), request_key="k1")
    again = play.submit_orders(db, seat, {"spies": {"2": {"task": "WORK", "region": "A"}}},
                               now=clock.now() + timedelta(minutes=1), ready=True,
                               request_key="k1")
    assert again == first
    draft = db.scalar(select(OrderDraft).where(OrderDraft.seat_id == "s2"))
    assert draft is not None and draft.updated_at == clock.now()
    other = play.submit_orders(db, seat, {}, now=clock.now(), request_key="k2")
    assert other.data == {"spies": {}, "declarations": []}


def test_orders_after_the_deadline_are_refused_with_the_spec_text(
        db: Session, clock: FakeClock) -> None:
    game, (_host, bob) = started_game(db, clock.now())
    seat = play.seat_of_user(db, bob, game.id)
    assert game.deadline is not None
    play.submit_orders(db, seat, {}, now=game.deadline - timedelta(seconds=1))
    with pytest.raises(Conflict, match=r"^the turn is closed$"):
        play.submit_orders(db, seat, {}, now=game.deadline)
    with pytest.raises(Conflict, match=r"^the turn is closed$"):
        play.submit_orders(db, seat, {}, now=clock.now(), entry=2)  # a stale form


def test_a_bot_seat_takes_no_orders_and_has_no_tokens(db: Session, clock: FakeClock) -> None:
    started_game(db, clock.now(), bots=["hunter"])
    bot = db.scalar(select(SeatRow).where(SeatRow.bot.is_not(None)))
    assert bot is not None
    with pytest.raises(Forbidden):
        play.submit_orders(db, bot, {}, now=clock.now())
    with pytest.raises(Forbidden):
        play.create_token(db, bot, "x", clock.now())


def test_an_eliminated_brotherhood_gives_no_more_orders(
        db: Session, clock: FakeClock, factory: sessionmaker[Session]) -> None:
    """Bob declares the host's brotherhood correctly (leader and base from the host
    view, which the test may read): it is eliminated, and V15 refuses its orders."""
    game, (host, bob, _cy) = started_game(db, clock.now(), humans=3)
    secrets = store.snapshot(db, game.id, 0, store.HOST_KEY)["seats"]["s1"]
    bob_seat, host_seat = (play.seat_of_user(db, u, game.id) for u in (bob, host))
    play.submit_orders(db, bob_seat, {"declarations": [
        {"brotherhood": "s1", "leader": secrets["leader"], "region": secrets["base"]}]},
        now=clock.now())
    db.commit()
    clock.advance(hours=24)
    run_once(factory, clock, Settings(), LogMailer())
    db.expire_all()
    view = play.current_view(db, host_seat)
    assert view["directory"][0]["status"] == "eliminated" and "secrets" not in view
    with pytest.raises(Conflict, match=r"^your brotherhood has been eliminated$"):
        play.submit_orders(db, host_seat, {}, now=clock.now())
    with pytest.raises(Conflict, match="no secrets left"):
        games.resend_secrets(db, host, game.id, clock.now())
