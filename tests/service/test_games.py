"""Games (service/games.py): create, join, bots, start (spec §2, §3.3, §4), lists."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from spyhouse.clock import FakeClock
from spyhouse.core import record as records
from spyhouse.core.ruleset import without_seat_views
from spyhouse.service import games, play
from spyhouse.service import records as store
from spyhouse.service.errors import Conflict, Forbidden, Invalid, NotFound
from spyhouse.store.tables import Game, OrderDraft, Report, SeatRow
from tests.service.helpers import (
    HOURLY,
    NAMES,
    count,
    mails,
    make_user,
    new_game,
    seat_players,
    started_game,
)

AUCKLAND = {"weekly": {"weekday": "Wednesday", "time": "20:00", "zone": "Pacific/Auckland"}}


def test_create_game_takes_the_rules_default_schedule_and_a_secret_seed(
        db: Session, clock: FakeClock) -> None:
    host = make_user(db, "host", clock.now())
    game = games.create_game(db, host, game="spyvsspy", title="  Lantern Street ",
                             options={"variant": "spy2"}, schedule=None, max_seats=None,
                             now=clock.now())
    other = games.create_game(db, host, game="spyvsspy", title="Second", options={},
                              schedule="all_submitted", max_seats=6, now=clock.now())
    assert game.title == "Lantern Street"
    assert game.schedule == AUCKLAND
    assert game.status == "open" and game.min_seats == 2 and game.max_seats is None
    assert 0 <= game.seed < 2**63 and game.seed != other.seed
    assert other.schedule == "all_submitted" and other.max_seats == 6


@pytest.mark.parametrize("changes, field, message", [
    ({"game": "chess"}, "game", "unknown game chess"),
    ({"title": " "}, "title", "the title needs"),
    ({"options": {"colour": "red"}}, "options", "options: unknown option colour"),
    ({"options": {"setup": {"bases": {"s1": "Z"}}}}, "options",
     "options: setup.bases.s1: unknown region Z"),
    ({"schedule": {"interval_hours": 0}}, "schedule", "schedule: interval_hours"),
    ({"max_seats": 1}, "max_seats", "room for at least 2"),
    ({"options": {"min_players": 4}, "max_seats": 3}, "max_seats", "room for at least 4"),
])
def test_create_game_refuses_bad_input_naming_the_field(
        db: Session, clock: FakeClock, changes: dict[str, object], field: str,
        message: str) -> None:
    host = make_user(db, "host", clock.now())
    kwargs: dict[str, object] = {"game": "spyvsspy", "title": "T", "options": {},
                                 "schedule": HOURLY, "max_seats": None}
    kwargs.update(changes)
    with pytest.raises(Invalid, match=message) as caught:
        games.create_game(db, host, now=clock.now(), **kwargs)  # type: ignore[arg-type]
    assert field in caught.value.fields


def test_join_checks_names_by_the_rules_and_one_seat_per_player(
        db: Session, clock: FakeClock) -> None:
    now = clock.now()
    host, second, third = (make_user(db, name, now) for name in ("host", "bob", "cy"))
    game = new_game(db, host, now, max_seats=2)
    seat = games.join_game(db, host, game.id, name=" Mad Bobs ", player="", show_email=False,
                           choice="b", now=now)
    assert (seat.seat_id, seat.name, seat.player, seat.public_email, seat.setup) == \
        ("s1", "Mad Bobs", "host", None, {"base": "B"})
    for name, message in [("WORK", "word of the turn report"),
                          ("mr pink", "is a leader name"),
                          ("mad bobs", "the name mad bobs is taken"),
                          ("Disguised as you", "word of the turn report")]:
        with pytest.raises(Invalid, match=message) as caught:
            games.join_game(db, second, game.id, name=name, player="Bob", show_email=True,
                            now=now)
        assert "name" in caught.value.fields
    with pytest.raises(Conflict, match="you already hold a seat"):
        games.join_game(db, host, game.id, name="Other", player="", show_email=True, now=now)
    with pytest.raises(Invalid, match="unknown region Z") as bad_base:
        games.join_game(db, second, game.id, name="Greedy Gimps", player="", show_email=True,
                        choice="Z", now=now)
    assert "setup" in bad_base.value.fields
    seat2 = games.join_game(db, second, game.id, name="Greedy Gimps", player="Bob",
                            show_email=True, now=now)
    assert seat2.seat_id == "s2" and seat2.public_email == "bob@example.org"
    with pytest.raises(Conflict, match="the game is full"):
        games.join_game(db, third, game.id, name="Toady's Mob", player="", show_email=True,
                        now=now)
    with pytest.raises(NotFound):
        games.join_game(db, third, 999, name="X", player="", show_email=True, now=now)


def test_base_choice_changes_until_the_start_and_random_games_take_none(
        db: Session, clock: FakeClock) -> None:
    now = clock.now()
    host, bob = make_user(db, "host", now), make_user(db, "bob", now)
    game = new_game(db, host, now)
    games.join_game(db, host, game.id, name="Mad Bobs", player="", show_email=True, choice="A",
                    now=now)
    assert games.change_setup(db, host, game.id, "h", now).setup == {"base": "H"}
    assert games.change_setup(db, host, game.id, None, now).setup == {}
    with pytest.raises(NotFound):
        games.change_setup(db, bob, game.id, "A", now)
    random_game = new_game(db, host, now, options={"base_choice": "random"})
    with pytest.raises(Invalid, match="drawn at random"):
        games.join_game(db, host, random_game.id, name="Mad Bobs", player="", show_email=True,
                        choice="A", now=now)


def test_add_bot_is_for_the_host_with_a_known_strategy(db: Session, clock: FakeClock) -> None:
    now = clock.now()
    host, bob = make_user(db, "host", now), make_user(db, "bob", now)
    game = new_game(db, host, now)
    games.join_game(db, host, game.id, name="Buttmans Brigade", player="", show_email=True,
                    now=now)
    with pytest.raises(Forbidden, match="only the host"):
        games.add_bot(db, bob, game.id, strategy="hunter", now=now)
    with pytest.raises(Invalid, match="unknown computer player") as caught:
        games.add_bot(db, host, game.id, strategy="genius", now=now)
    assert "economist" in caught.value.fields["strategy"][0]
    first = games.add_bot(db, host, game.id, strategy="hunter", now=now)
    second = games.add_bot(db, host, game.id, strategy="shadow", now=now)
    assert (first.seat_id, first.bot, first.user_id) == ("s2", "hunter", None)
    assert first.name != "Buttmans Brigade" and second.name not in (first.name,
                                                                    "Buttmans Brigade")


def test_start_snapshots_turn_zero_mails_secrets_and_sets_the_first_deadline(
        db: Session, clock: FakeClock) -> None:
    game, users = started_game(db, clock.now(), humans=2, bots=["hunter"], bases=["B", None],
                               schedule=AUCKLAND)
    assert game.status == "running" and game.entry == 0
    assert game.started_at == clock.now()
    # Monday 30 November 12:00 UTC + 24 h -> Wednesday 2 December 20:00 NZDT
    assert game.deadline == datetime(2026, 12, 2, 7, 0, tzinfo=UTC)
    assert game.awaiting == ["s1", "s2", "s3"]
    keys = db.scalars(select(Report.seat_id).where(Report.entry == 0)).all()
    assert sorted(keys) == ["*host", "*public", "s1", "s2", "s3"]
    host_view = db.scalar(select(Report.view).where(Report.seat_id == "*host"))
    assert host_view is not None
    secrets_mails = mails(db, "secrets")
    assert [m.to_addr for m in secrets_mails] == [u.email for u in users]  # no bot mail
    for mail, seat in zip(secrets_mails, ("s1", "s2"), strict=True):
        secret = host_view["seats"][seat]
        assert secret["leader"] in mail.body
        assert f"Your base: {secret['base']} " in mail.body
        other = host_view["seats"]["s2" if seat == "s1" else "s1"]["leader"]
        assert other not in mail.body
    assert host_view["seats"]["s1"]["base"] == "B"  # the player's choice
    bot_draft = db.scalar(select(OrderDraft).where(OrderDraft.seat_id == "s3"))
    assert bot_draft is not None and bot_draft.entry == 1 and bot_draft.ready
    assert game.options == {}  # players' bases stay on their seats


def test_start_is_for_the_host_of_an_open_game_with_enough_players(
        db: Session, clock: FakeClock) -> None:
    now = clock.now()
    host, bob = make_user(db, "host", now), make_user(db, "bob", now)
    game = new_game(db, host, now, options={"min_players": 3})
    seat_players(db, game, [host, bob], now)
    with pytest.raises(Forbidden, match="only the host can start"):
        games.start_game(db, bob, game.id, now)
    with pytest.raises(Conflict, match="needs at least 3 players"):
        games.start_game(db, host, game.id, now)
    games.add_bot(db, host, game.id, strategy="economist", now=now)
    games.start_game(db, host, game.id, now)
    with pytest.raises(Conflict, match="already started"):
        games.start_game(db, host, game.id, now)
    with pytest.raises(Conflict, match="already started"):
        games.add_bot(db, host, game.id, strategy="economist", now=now)


def test_host_setup_override_that_names_no_seat_refuses_the_start(
        db: Session, clock: FakeClock) -> None:
    now = clock.now()
    host, bob = make_user(db, "host", now), make_user(db, "bob", now)
    game = new_game(db, host, now, options={"setup": {"leaders": {"s9": "Mr Pink"}}})
    seat_players(db, game, [host, bob], now)
    with pytest.raises(Conflict, match=r"setup\.leaders\.s9: no such seat"):
        games.start_game(db, host, game.id, now)


def test_record_of_replays_to_every_stored_snapshot_byte_for_byte(
        db: Session, factory: object, clock: FakeClock) -> None:
    """The store's record (games + seats + turns) is the game: replaying it gives every
    snapshot that pages read, compared as JSON with sorted keys."""
    check_replay(db, factory, clock)


@pytest.mark.postgres
def test_record_of_replays_to_every_snapshot_on_postgresql(
        db: Session, factory: object, clock: FakeClock) -> None:
    check_replay(db, factory, clock)


def check_replay(db: Session, factory: object, clock: FakeClock) -> None:
    from spyhouse.mail.outbox import LogMailer
    from spyhouse.settings import Settings
    from spyhouse.worker import run_once

    game, users = started_game(db, clock.now(), humans=2, bots=["economist", "hunter"],
                               bases=["C", "D"])
    seat = play.seat_of_user(db, users[0], game.id)
    play.submit_orders(db, seat, {"spies": {"2": {"task": "TRAIN", "region": "A"}}},
                       now=clock.now())
    db.commit()
    for _ in range(3):
        clock.advance(hours=25)
        run_once(factory, clock, Settings(), LogMailer())  # type: ignore[arg-type]
    db.expire_all()
    record = games.record_of(db, game.id)
    assert record.options == {"setup": {"bases": {"s1": "C", "s2": "D"}}}
    assert record.seats[0].email == "player1@example.org"
    assert len(record.turns) == db.get(Game, game.id).entry >= 2  # type: ignore[union-attr]
    assert records.loads(record.dumps()) == record
    from spyhouse.core import registry

    ruleset = registry.get("spyvsspy")
    seat_ids = [s.id for s in record.seats]
    for entry, state in enumerate(records.replay(record)):
        replayed = {seat_id: ruleset.view(state, seat_id) for seat_id in seat_ids}
        replayed["*host"] = without_seat_views(ruleset.view(state, None),
                                               ruleset.host_seat_view_key)
        replayed["*public"] = ruleset.public_view(state)
        for key, view in replayed.items():
            stored = store.snapshot(db, game.id, entry, key)
            assert json.dumps(stored, ensure_ascii=False) == \
                json.dumps(view, ensure_ascii=False), (entry, key)
    rows = db.scalar(select(func.count()).select_from(Report).where(Report.game_id == game.id))
    assert rows == (len(record.turns) + 1) * (len(seat_ids) + 2)


def test_lists_and_get_game(db: Session, clock: FakeClock) -> None:
    now = clock.now()
    host, bob, cy = (make_user(db, name, now) for name in ("host", "bob", "cy"))
    first = new_game(db, host, now)
    clock.advance(minutes=1)
    second = new_game(db, host, clock.now())
    games.join_game(db, bob, second.id, name=NAMES[0], player="", show_email=True,
                    now=clock.now())
    assert [g.id for g in games.open_games(db)] == [second.id, first.id]
    assert [g.id for g in games.games_of(db, host)] == [second.id, first.id]
    assert [g.id for g in games.games_of(db, bob)] == [second.id]
    assert games.games_of(db, cy) == []
    assert games.get_game(db, first.id) is first
    with pytest.raises(NotFound, match="no such game"):
        games.get_game(db, 12345)
    assert [s.seat_id for s in games.seats_of(db, second.id)] == ["s1"]


def test_resend_secrets_goes_to_the_players_own_address_only(
        db: Session, clock: FakeClock) -> None:
    game, users = started_game(db, clock.now())
    stranger = make_user(db, "stranger", clock.now())
    with pytest.raises(NotFound):
        games.resend_secrets(db, stranger, game.id, clock.now())
    with pytest.raises(Conflict, match="a few minutes ago"):
        games.resend_secrets(db, users[1], game.id, clock.now())
    clock.advance(minutes=11)
    mail = games.resend_secrets(db, users[1], game.id, clock.now())
    assert mail.to_addr == users[1].email and mail.user_id == users[1].id
    first = mails(db, "secrets")[1]
    assert mail.body == first.body  # the same secrets, from the seat's own view
    assert count(db, SeatRow) == 2


def test_resend_before_the_start_is_refused(db: Session, clock: FakeClock) -> None:
    now = clock.now()
    host = make_user(db, "host", now)
    game = new_game(db, host, now)
    seat_players(db, game, [host], now)
    with pytest.raises(Conflict, match="not started"):
        games.resend_secrets(db, host, game.id, now + timedelta(hours=1))
