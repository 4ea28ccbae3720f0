"""Per-entry deadlines and early close from the ruleset's optional hooks
(``deadline_seconds``, ``early_close``): Infiltration's phases last their own length from
the moment they open (spec §2, §15.2), and close early only with ``early_close`` on; games
without the hooks keep their schedule and the platform's rule. Also the turn mail a player
alone against the computer does not get."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.clock import FakeClock
from spyhouse.core import registry
from spyhouse.mail.outbox import LogMailer
from spyhouse.service import demo, games, play, quick, turns
from spyhouse.settings import Settings
from spyhouse.store.tables import Game, SeatRow, User
from spyhouse.web.pages_games import schedule_text
from spyhouse.worker import run_once
from tests.service.helpers import mails, make_user, started_game, work_sheet

SETTINGS = Settings(base_url="http://spy.test", max_extension_hours=12, max_pause_hours=4)
FAST = (300, 180, 480)
FORUM = (48 * 3600, 24 * 3600, 48 * 3600)


def infiltration(db: Session, clock: FakeClock, pace: str,
                 schedule: Any = None) -> tuple[Game, list[User], list[SeatRow]]:
    """A started six-seat Infiltration game: two people (Alice hosts) and four bots, in
    the class phase (``choose`` mode)."""
    users = [make_user(db, name, clock.now()) for name in ("alice", "bob")]
    game = games.create_game(db, users[0], game="infiltration", title="Night shift",
                             options={"pace": pace},
                             schedule={"interval_hours": 48} if schedule is None else schedule,
                             max_seats=None, now=clock.now(), seed=7)
    seats = [games.join_game(db, user, game.id, name=user.username.title(),
                             player=user.username, show_email=True, now=clock.now())
             for user in users]
    for strategy in ("operative", "vigilante", "operative", "vigilante"):
        games.add_bot(db, users[0], game.id, strategy=strategy, now=clock.now())
    games.start_game(db, users[0], game.id, clock.now(), settings=SETTINGS)
    db.commit()
    return game, users, seats


def fresh(db: Session, game_id: int) -> Game:
    db.expire_all()
    game = db.get(Game, game_id)
    assert game is not None
    return game


def process(db: Session, game_id: int, clock: FakeClock) -> None:
    assert turns.process_turn(db, game_id, clock.now(), settings=SETTINGS)
    turns.move_bots(db, game_id, clock.now())
    db.commit()


def phase(db: Session, seat: SeatRow) -> str:
    value: str = play.current_view(db, seat)["phase"]
    return value


def to_movement(db: Session, game: Game, clock: FakeClock) -> None:
    """Close the class phase at its deadline."""
    assert game.deadline is not None
    clock.set(game.deadline)
    process(db, game.id, clock)


def test_fast_phases_last_their_own_length_from_the_moment_they_open(
        db: Session, clock: FakeClock) -> None:
    start = clock.now()
    game, _users, seats = infiltration(db, clock, "fast")
    assert phase(db, seats[0]) == "class"
    assert game.deadline == start + timedelta(seconds=FAST[0])  # no 24 h gap
    assert game.close_when == "submitted"
    assert turns.due_games(db, start + timedelta(seconds=FAST[0] - 1)) == []
    clock.advance(seconds=FAST[0])
    assert turns.due_games(db, clock.now()) == [game.id]
    process(db, game.id, clock)
    game = fresh(db, game.id)
    assert phase(db, seats[0]) == "movement"
    assert game.deadline == clock.now() + timedelta(seconds=FAST[1])
    assert game.close_when == "ready"
    clock.advance(seconds=FAST[1])
    process(db, game.id, clock)
    game = fresh(db, game.id)
    assert phase(db, seats[0]) == "decision"
    assert game.deadline == clock.now() + timedelta(seconds=FAST[2])
    assert game.close_when == "ready"


def test_an_early_close_counts_the_new_phase_from_the_close(
        db: Session, clock: FakeClock) -> None:
    game, _users, seats = infiltration(db, clock, "fast")
    clock.advance(seconds=42)
    for seat in seats:
        play.submit_orders(db, seat, {}, now=clock.now())
    db.commit()
    process(db, game.id, clock)
    assert fresh(db, game.id).deadline == clock.now() + timedelta(seconds=FAST[1])


def test_fast_class_phase_closes_once_every_seat_has_an_accepted_order(
        db: Session, clock: FakeClock) -> None:
    game, _users, seats = infiltration(db, clock, "fast")
    play.submit_orders(db, seats[0], {}, now=clock.now())
    db.commit()
    assert turns.due_games(db, clock.now()) == []  # Bob has given nothing yet
    play.submit_orders(db, seats[1], {}, now=clock.now())  # accepted, not marked ready
    db.commit()
    assert turns.due_games(db, clock.now()) == [game.id]


def test_fast_movement_closes_when_every_person_is_ready_not_before(
        db: Session, clock: FakeClock) -> None:
    game, _users, seats = infiltration(db, clock, "fast")
    to_movement(db, fresh(db, game.id), clock)
    assert phase(db, seats[0]) == "movement"
    for seat in seats:
        play.submit_orders(db, seat, {}, now=clock.now())  # orders, not ready
    db.commit()
    assert turns.due_games(db, clock.now()) == []
    play.submit_orders(db, seats[0], {"ready": True}, now=clock.now(), ready=True)
    db.commit()
    assert turns.due_games(db, clock.now()) == []
    play.submit_orders(db, seats[1], {"ready": True}, now=clock.now(), ready=True)
    db.commit()
    assert turns.due_games(db, clock.now()) == [game.id]
    process(db, game.id, clock)
    assert phase(db, seats[0]) == "decision"


def test_forum_pace_closes_only_at_the_deadline(db: Session, clock: FakeClock) -> None:
    start = clock.now()
    game, _users, seats = infiltration(db, clock, "forum")
    assert game.deadline == start + timedelta(seconds=FORUM[0])
    assert game.close_when == "never"
    for seat in seats:
        play.submit_orders(db, seat, {}, now=clock.now(), ready=True)
    db.commit()
    assert turns.due_games(db, clock.now()) == []
    to_movement(db, fresh(db, game.id), clock)
    game = fresh(db, game.id)
    assert game.deadline == clock.now() + timedelta(seconds=FORUM[1])
    for seat in seats:
        play.submit_orders(db, seat, {"ready": True}, now=clock.now(), ready=True)
    db.commit()
    assert turns.due_games(db, clock.now()) == []  # READY is no early close here
    assert turns.process_turn(db, game.id, clock.now()) is False
    db.rollback()
    clock.set(game.deadline)
    assert turns.due_games(db, clock.now()) == [game.id]
    process(db, game.id, clock)
    game = fresh(db, game.id)
    assert phase(db, seats[0]) == "decision"
    assert game.deadline == clock.now() + timedelta(seconds=FORUM[2])


def test_the_phase_deadline_ignores_the_schedule(db: Session, clock: FakeClock) -> None:
    start = clock.now()
    game, _users, _seats = infiltration(db, clock, "fast", schedule="all_submitted")
    assert game.deadline == start + timedelta(seconds=FAST[0])
    assert game.close_when == "submitted"


def test_custom_pace_uses_the_hosts_lengths(db: Session, clock: FakeClock) -> None:
    start = clock.now()
    user = make_user(db, "carol", start)
    game = games.create_game(db, user, game="infiltration", title="Custom",
                             options={"pace": "custom", "class_deadline": 600,
                                      "movement_deadline": 120, "decision_deadline": 900},
                             schedule=None, max_seats=None, now=start, seed=3)
    games.join_game(db, user, game.id, name="Carol", player="carol", show_email=False,
                    now=start)
    for strategy in ("operative", "vigilante") * 3:
        if len(game.seats) < 6:
            games.add_bot(db, user, game.id, strategy=strategy, now=start)
    db.expire_all()
    games.start_game(db, user, game.id, start, settings=SETTINGS)
    game = fresh(db, game.id)
    assert game.deadline == start + timedelta(seconds=600)
    assert game.close_when == "never"  # early_close defaults to off with custom


def test_host_controls_work_on_phase_deadlines(
        db: Session, clock: FakeClock, factory: sessionmaker[Session]) -> None:
    game, (host, _bob), _seats = infiltration(db, clock, "fast")
    clock.advance(seconds=100)
    games.pause_game(db, host, game.id, clock.now(), settings=SETTINGS)
    assert game.paused_remaining_s == FAST[0] - 100
    clock.advance(hours=1)
    games.resume_game(db, host, game.id, clock.now(), settings=SETTINGS)
    assert game.deadline == clock.now() + timedelta(seconds=FAST[0] - 100)
    games.extend_deadline(db, host, game.id, 1, clock.now(), settings=SETTINGS)
    assert game.deadline == clock.now() + timedelta(seconds=FAST[0] - 100, hours=1)
    games.request_processing(db, host, game.id, clock.now(), settings=SETTINGS)
    db.commit()
    assert run_once(factory, clock, SETTINGS, LogMailer()) >= 1
    game = fresh(db, game.id)
    assert game.entry == 1 and game.extended_hours == 0 and game.paused_s == 0
    assert game.deadline == clock.now() + timedelta(seconds=FAST[1])


def test_pages_say_each_phase_has_its_own_deadline(db: Session, clock: FakeClock) -> None:
    game, _users, _seats = infiltration(db, clock, "fast")
    assert schedule_text(game) == \
        "each phase has its own deadline, counted from when it opens (pace: fast)"
    other, _ = started_game(db, clock.now())
    assert schedule_text(other) == "every hour"


# ---------------------------------------------------------------- games without the hooks


def test_spy_vs_spy_keeps_its_schedule_and_the_platform_rule(
        db: Session, clock: FakeClock) -> None:
    assert not registry.get("spyvsspy").spec.phase_deadlines
    start = clock.now()
    game, users = started_game(db, start, bots=["economist"])
    assert game.close_when is None
    assert game.deadline == start + timedelta(hours=24)  # hourly, first ≥ 24 h on
    seats = [play.seat_of_user(db, user, game.id) for user in users]
    for seat in seats:
        play.submit_orders(db, seat, work_sheet(play.current_view(db, seat)), now=start)
    db.commit()
    assert turns.due_games(db, start) == []  # orders, not ready: the deadline decides
    for seat in seats:
        play.submit_orders(db, seat, work_sheet(play.current_view(db, seat)), now=start,
                           ready=True)
    db.commit()
    assert turns.due_games(db, start) == [game.id]  # every awaited seat ready
    process(db, game.id, clock)
    game = fresh(db, game.id)
    assert game.close_when is None and game.deadline == start + timedelta(hours=25)


def test_a_never_rule_without_deadline_cannot_hang(db: Session, clock: FakeClock) -> None:
    game, users = started_game(db, clock.now(), schedule="all_submitted")
    game.close_when = "never"
    seats = [play.seat_of_user(db, user, game.id) for user in users]
    assert not turns.is_due(game, [(seats[0].seat_id, True)], clock.now())
    assert turns.is_due(game, [(s.seat_id, False) for s in seats], clock.now())


# ---------------------------------------------------------------- mail against the computer


def test_no_turn_mail_for_each_own_move_against_the_computer(
        db: Session, clock: FakeClock) -> None:
    user = make_user(db, "solo", clock.now())
    game = quick.start_against_computer(
        db, user, game="spyorlie", strategy="random", now=clock.now(), seed=11,
        options={"radius": 2, "blue": "s1", "computer": {"s2": "random"}})
    seat = play.seat_of_user(db, user, game.id)
    moves = 0
    while game.status == "running":
        view = play.current_view(db, seat)
        assert quick.play_move(db, seat, view["legal_moves"][0], now=clock.now()) >= 1
        moves += 1
        assert moves <= 40
    db.commit()
    assert moves > 1
    assert mails(db, "turn") == []
    assert [m.to_addr for m in mails(db, "game_over")] == [user.email]


@pytest.mark.parametrize("humans", [1, 2])
def test_turn_mail_still_goes_where_a_person_is_not_alone(
        db: Session, clock: FakeClock, humans: int) -> None:
    """One person and bots on an hourly schedule, or two people on ``all_submitted``:
    every player who played gets the turn notice, as before."""
    schedule: Any = {"interval_hours": 1} if humans == 1 else "all_submitted"
    game, users = started_game(db, clock.now(), humans=humans, bots=["economist"],
                               schedule=schedule)
    for user in users:
        seat = play.seat_of_user(db, user, game.id)
        play.submit_orders(db, seat, work_sheet(play.current_view(db, seat)),
                           now=clock.now(), ready=True)
    db.commit()
    process(db, game.id, clock)
    assert sorted(m.to_addr for m in mails(db, "turn")) == sorted(u.email for u in users)


def test_a_phase_its_deadline_closed_is_noticed_even_against_the_computer(
        db: Session, clock: FakeClock) -> None:
    """The lobby's Infiltration against the computer is stored ``all_submitted``; at
    forum pace a saved class order does not close the phase, its deadline does, and the
    player, who may be away, gets the turn notice."""
    user = make_user(db, "solo", clock.now())
    game = demo.quick_game(db, user, now=clock.now(), offer=demo.offer_for("infiltration"),
                           options={"pace": "forum"}, seed=5)
    seat = play.seat_of_user(db, user, game.id)
    play.submit_orders(db, seat, {}, now=clock.now())
    db.commit()
    assert turns.due_games(db, clock.now()) == []  # early close is off at forum pace
    to_movement(db, fresh(db, game.id), clock)
    assert [m.to_addr for m in mails(db, "turn")] == [user.email]
