"""The archive service (issue 13): importing a record, the archive's rows and heads, and
who may read a game and its record."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from spyhouse.clock import FakeClock
from spyhouse.core import record as records
from spyhouse.core import registry
from spyhouse.core.record import Record
from spyhouse.service import archive, games, play
from spyhouse.service import records as store
from spyhouse.service.errors import Invalid, NotFound
from spyhouse.sim import simulate
from spyhouse.store.tables import Game, News, Report, SeatRow, TurnRow
from tests.service.helpers import make_user, started_game

GAMES = registry.names()
#: small games that end: (players, seed) per game
SMALL = {"spyvsspy": (4, 3), "kingdoms": (3, 2), "infiltration": (8, 1), "spyorlie": (2, 1)}


@cache
def finished(game: str) -> Record:
    """A finished bot game of ``game`` (simulated once per test process)."""
    players, seed = SMALL.get(game, (4, 1))
    result = simulate(game, players=players, turns=300, seed=seed)
    assert result.outcome is not None, f"{game}: the bot game must end"
    return result.record


def changed_order(record: Record) -> tuple[str, int]:
    """The record's file with one order of one entry changed (its hash left as written),
    and that entry's number."""
    data = record.to_json()
    for entry, turn in enumerate(data["turns"], start=1):
        for seat, orders in turn["orders"].items():
            if orders is not None:
                turn["orders"][seat] = {"changed": True} if not isinstance(orders, dict) \
                    else {**orders, "changed": True}
                return json.dumps(data), entry
    raise AssertionError("a record without a single order")


def count(db: Session, table: Any) -> int:
    return int(db.scalar(select(func.count()).select_from(table)) or 0)


@pytest.mark.parametrize("game", GAMES)
def test_an_imported_game_is_stored_as_a_game_played_here(
        game: str, db: Session, clock: FakeClock) -> None:
    record = finished(game)
    host = make_user(db, "importer", clock.now())
    row = archive.import_record(db, record.dumps(), host, clock.now())
    db.commit()
    assert (row.status, row.imported, row.public, row.entry) == (
        "over", True, True, len(record.turns))
    assert row.finished_at == clock.now() and row.host_id == host.id
    stored = store.load_record(db, row)  # the stored chain holds
    assert stored.to_json() == record.to_json()
    assert records.head(stored) == records.head(record)
    seats = games.seats_of(db, row.id)
    assert [(s.seat_id, s.name, s.player, s.public_email, s.user_id) for s in seats] == [
        (s.id, s.name, s.player, s.email, None) for s in record.seats]
    ruleset = registry.get(game)
    for entry, state in enumerate(records.replay(record)):  # every view of every entry
        assert store.snapshot(db, row.id, entry, store.PUBLIC_KEY) == json.loads(
            json.dumps(ruleset.public_view(state)))
        for seat in record.seats:
            assert store.snapshot(db, row.id, entry, seat.id) == json.loads(
                json.dumps(ruleset.view(state, seat.id)))
    news = db.scalars(select(News.text).where(News.game_id == row.id)).all()
    assert len(news) == 1 and news[0].startswith("Imported from a record file")
    [listed] = archive.archive_rows(db, archive.archive_ids(db))
    assert listed.head == records.head(record)
    assert listed.result and listed.result in news[0]
    assert listed.players == [(s.name, s.player) for s in record.seats]


@pytest.mark.parametrize("game", GAMES)
def test_a_changed_order_is_refused_naming_its_entry_and_nothing_is_made(
        game: str, db: Session, clock: FakeClock) -> None:
    text, entry = changed_order(finished(game))
    host = make_user(db, "importer", clock.now())
    db.commit()
    with pytest.raises(archive.BadRecord) as refused:
        archive.import_record(db, text, host, clock.now())
    assert refused.value.message.startswith(f"entry {entry}: hash does not match")
    db.commit()
    assert [count(db, t) for t in (Game, SeatRow, TurnRow, Report, News)] == [0] * 5


def test_a_chained_record_whose_order_the_rules_refuse_is_the_replays_line(
        db: Session, clock: FakeClock) -> None:
    record = finished("spyvsspy")
    turns = list(record.turns)
    turns[1] = {**turns[1], "s2": {"spies": {"4": {"task": "WORK", "region": "Z"}},
                                   "declarations": []}}
    bad = Record(record.game, record.seed, record.options, record.seats, tuple(turns))
    host = make_user(db, "importer", clock.now())
    db.commit()
    with pytest.raises(archive.BadRecord) as refused:
        archive.import_record(db, bad.dumps(), host, clock.now())
    assert refused.value.message.startswith("turn 2, seat s2: ")
    assert "Z" in refused.value.message
    db.commit()
    assert count(db, Game) == count(db, Report) == 0


@pytest.mark.parametrize("text, line", [
    ("{", "not JSON: "),
    ("[]", "a record must be a JSON object"),
    ('{"format": "spyhouse-record/2"}', "a spyhouse-record/2 record needs its head"),
    ("x" * (records.MAX_BYTES + 1), records.TOO_BIG),
    ('{"seats": ' + "[" * 100 + "]" * 100 + "}", "nested too deeply"),
])
def test_malformed_files_are_the_records_own_lines(
        text: str, line: str, db: Session, clock: FakeClock) -> None:
    host = make_user(db, "importer", clock.now())
    with pytest.raises(archive.BadRecord) as refused:
        archive.import_record(db, text, host, clock.now())
    assert refused.value.message.startswith(line)
    assert refused.value.fields == {"record": [refused.value.message]}


def test_a_game_that_is_not_over_is_refused(db: Session, clock: FakeClock) -> None:
    record = finished("spyvsspy")
    cut = Record(record.game, record.seed, record.options, record.seats, record.turns[:2])
    host = make_user(db, "importer", clock.now())
    db.commit()
    with pytest.raises(archive.BadRecord, match="not over after entry 2"):
        archive.import_record(db, cut.dumps(), host, clock.now())
    db.commit()
    assert count(db, Game) == 0


def test_a_seat_longer_than_the_site_keeps_is_refused(db: Session, clock: FakeClock) -> None:
    record = finished("spyorlie")
    seats = (record.seats[0].__class__(record.seats[0].id, "N" * 41), *record.seats[1:])
    long = Record(record.game, record.seed, record.options, seats, record.turns)
    host = make_user(db, "importer", clock.now())
    with pytest.raises(archive.BadRecord, match="name is longer than this site's 40"):
        archive.import_record(db, long.dumps(), host, clock.now())


def test_the_same_record_twice_makes_two_games_and_a_title_may_be_given(
        db: Session, clock: FakeClock) -> None:
    record = finished("spyorlie")
    host = make_user(db, "importer", clock.now())
    first = archive.import_record(db, record.dumps(), host, clock.now())
    clock.advance(minutes=1)
    second = archive.import_record(db, record.dumps(), host, clock.now(), title="Final")
    db.commit()
    assert first.id != second.id
    assert first.title == archive.default_title(record) and second.title == "Final"
    assert archive.archive_ids(db) == [second.id, first.id]  # newest first
    with pytest.raises(Invalid):
        archive.import_record(db, record.dumps(), host, clock.now(), title="a\nb")


def test_the_archive_filters_by_game_and_player(db: Session, clock: FakeClock) -> None:
    host = make_user(db, "importer", clock.now())
    duel = archive.import_record(db, finished("spyorlie").dumps(), host, clock.now())
    clock.advance(minutes=1)
    spies = archive.import_record(db, finished("spyvsspy").dumps(), host, clock.now())
    db.commit()
    assert archive.archive_ids(db, game="spyorlie") == [duel.id]
    assert archive.archive_ids(db, game="kingdoms") == []
    player = finished("spyvsspy").seats[2].player
    assert spies.id in archive.archive_ids(db, player=player.upper())
    name = finished("spyvsspy").seats[0].name
    assert archive.archive_ids(db, player=name.lower()[2:8]) == [spies.id]
    assert archive.archive_ids(db, player="%") == []  # LIKE's wildcards are text


def test_running_and_private_games_are_not_in_the_archive(
        db: Session, clock: FakeClock) -> None:
    game, _users = started_game(db, clock.now())
    assert archive.archive_ids(db) == []
    game.status = "over"
    game.public = False
    db.commit()
    assert archive.archive_ids(db) == []
    game.public = True
    db.commit()
    assert archive.archive_ids(db) == [game.id]


def test_who_may_read_a_game_and_its_record(db: Session, clock: FakeClock) -> None:
    game, (host, guest) = started_game(db, clock.now())  # the host holds seat s1
    stranger = make_user(db, "stranger", clock.now())
    moderator = make_user(db, "moderator", clock.now())
    db.commit()
    for user in (None, stranger, host, guest):
        assert archive.check_watch(db, game.id, user) is game
        with pytest.raises(NotFound):  # before the end: no one who plays, nor watches
            archive.record_for(db, game.id, user)
    game.host_id = moderator.id  # a host who holds no seat may read it at any time
    db.commit()
    assert archive.record_for(db, game.id, moderator).to_json() == \
        games.record_of(db, game.id).to_json()
    game.public = False
    db.commit()
    for user in (None, stranger):
        with pytest.raises(NotFound):
            archive.check_watch(db, game.id, user)
    for user in (moderator, guest):
        assert archive.check_watch(db, game.id, user) is game
    game.status = "over"
    db.commit()
    assert archive.record_for(db, game.id, guest).seed == game.seed
    for user in (None, stranger):
        with pytest.raises(NotFound):
            archive.record_for(db, game.id, user)
    assert archive.record_for(db, game.id, None, seat_game=True).seed == game.seed
    game.public = True
    db.commit()
    assert archive.record_for(db, game.id, None).seed == game.seed
    with pytest.raises(NotFound):
        archive.record_for(db, game.id + 1, host)


def test_a_private_open_game_can_be_found_to_join(db: Session, clock: FakeClock) -> None:
    host = make_user(db, "host", clock.now())
    other = make_user(db, "other", clock.now())
    game = games.create_game(db, host, game="spyorlie", title="Quiet", options={},
                             schedule=None, max_seats=None, now=clock.now(), public=False)
    db.commit()
    assert not game.public
    assert archive.check_watch(db, game.id, other) is game
    assert archive.check_watch(db, game.id, None) is game


def test_the_import_host(db: Session, clock: FakeClock) -> None:
    made = archive.import_host(db, None, clock.now())
    assert made.username == archive.ARCHIVE_USER
    assert archive.import_host(db, None, clock.now()).id == made.id  # made once
    named = make_user(db, "Someone", clock.now())
    assert archive.import_host(db, "someone", clock.now()).id == named.id
    with pytest.raises(NotFound):
        archive.import_host(db, "nobody", clock.now())
    made.password_hash = "a person's hash"
    with pytest.raises(Invalid, match="--as USERNAME"):
        archive.import_host(db, None, clock.now())


def test_heads_are_memoised_and_follow_the_stored_chain(db: Session, clock: FakeClock) -> None:
    host = make_user(db, "importer", clock.now())
    row = archive.import_record(db, finished("spyorlie").dumps(), host, clock.now())
    db.commit()
    seats = {row.id: games.seats_of(db, row.id)}
    head = archive.record_heads(db, [row], seats)[row.id]
    turn = db.scalar(select(TurnRow).where(TurnRow.game_id == row.id, TurnRow.entry == 1))
    assert turn is not None
    turn.chain = "0" * 64  # a memoised head is not read again
    db.commit()
    assert archive.record_heads(db, [row], seats) == {row.id: head}
    seats[row.id][0].player = "Someone else"  # another header: read again, and refused
    db.commit()
    assert archive.record_heads(db, [row], seats) == {}
    [listed] = archive.archive_rows(db, [row.id])
    assert listed.head is None


def test_a_player_of_an_imported_game_sees_nothing_of_it_as_a_seat(
        db: Session, clock: FakeClock) -> None:
    """Imported seats have no users: nobody plays them here, so no seat page opens."""
    host = make_user(db, "importer", clock.now())
    row = archive.import_record(db, finished("spyorlie").dumps(), host, clock.now())
    db.commit()
    with pytest.raises(NotFound):
        play.seat_of_user(db, host, row.id)
