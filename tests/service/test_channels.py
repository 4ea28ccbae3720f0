"""Players' platform channels (service/channels.py): who may post and read what, from the
seat's current view's ``channels`` (Infiltration §12.5, §13.2, §13.3, §15.1, §15.4).

An eight-seat Infiltration game of people (handles Ann … Hal, seats s1 … s8; s1 and s2 are
Red by ``setup.reds``). A death is made by editing the seat's current snapshot the way
the rules' view would show it (``me.alive`` false, ``channels`` read-only, no ``red``,
every roster marks it dead): the service reads nothing else.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import delete, select
from sqlalchemy.orm import Session

from spyhouse.clock import FakeClock
from spyhouse.service import channels, games, turns
from spyhouse.service import records as store
from spyhouse.service.channels import ChannelPost
from spyhouse.service.errors import Conflict, Forbidden, Invalid, NotFound
from spyhouse.store.tables import Game, Post, Report, SeatRow, User
from tests.service.helpers import count, make_user
from tests.service.helpers import started_game as spyvsspy_game


def may_read(granted: dict[str, str], seat_id: str, channel: str, author: str,
             to_seat: str | None) -> bool:
    """The reading rule ``channels.readable`` applies in SQL, as a plain function: the
    property test's oracle."""
    if channel not in granted:
        return False
    return channel != "private" or seat_id in (author, to_seat)

HANDLES = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal")
REDS = ("s1", "s2")


def infiltration(db: Session, now: datetime, *, options: dict[str, Any] | None = None,
                 players: int = 8) -> tuple[Game, list[User]]:
    """A started Infiltration game of ``players`` people, s1 and s2 Red."""
    known = count(db, User)
    users = [make_user(db, f"agent{known + n}", now) for n in range(1, players + 1)]
    game = games.create_game(db, users[0], game="infiltration", title="Night shift",
                             options={"reds": 2, "setup": {"reds": list(REDS)},
                                      **(options or {})},
                             schedule={"interval_hours": 48}, max_seats=None, now=now,
                             seed=20261130)
    for user, handle in zip(users, HANDLES, strict=False):
        games.join_game(db, user, game.id, name=handle, player=user.username,
                        show_email=False, now=now)
    games.start_game(db, users[0], game.id, now)
    db.commit()
    return game, users


def seat(db: Session, game: Game, seat_id: str) -> SeatRow:
    row = db.scalar(select(SeatRow).where(SeatRow.game_id == game.id,
                                          SeatRow.seat_id == seat_id))
    assert row is not None
    return row


def kill(db: Session, game: Game, seat_id: str) -> None:
    """Make ``seat_id`` dead in every current snapshot, as the rules' views would."""
    for report in db.scalars(select(Report).where(Report.game_id == game.id,
                                                  Report.entry == game.entry)):
        view = dict(report.view)
        if isinstance(view.get("players"), list):
            view["players"] = [dict(p, alive=False) if p.get("seat") == seat_id else p
                               for p in view["players"]]
        if report.seat_id == seat_id:
            view["me"] = dict(view["me"], alive=False)
            rights = {"public": "read"}
            if "private" in view["channels"]:
                rights["private"] = "read"
            view["channels"] = rights
        report.view = view
    db.flush()


def bodies(posts: list[ChannelPost]) -> list[str]:
    return [post.body for post in posts]


@pytest.fixture
def game(db: Session, clock: FakeClock) -> Iterator[Game]:
    made, _users = infiltration(db, clock.now())
    yield made


# ---------------------------------------------------------------- rights


def test_rights_come_from_the_view(db: Session, clock: FakeClock, game: Game) -> None:
    assert channels.rights(db, game, "s1") == {"public": "post", "red": "post",
                                               "private": "post"}
    assert channels.rights(db, game, "s3") == {"public": "post", "private": "post"}
    assert channels.rights(db, game, "s9") == {}, "a non-seat has no channels"
    assert channels.rights(db, game, store.PUBLIC_KEY) == {}
    assert channels.rights(db, game, store.HOST_KEY) == {}
    off, _ = infiltration(db, clock.now(), options={"private_messages": False})
    assert channels.rights(db, off, "s3") == {"public": "post"}


def test_no_channels_in_a_game_whose_views_have_none(db: Session, clock: FakeClock) -> None:
    # Spy vs Spy's views declare no channels: its press is off in a gunboat game
    other, _users = spyvsspy_game(db, clock.now(), options={"press": False})
    row = seat(db, other, "s1")
    assert channels.rights(db, other, "s1") == {}
    with pytest.raises(Forbidden, match=r"No press in this game \(gunboat\)"):
        channels.post(db, other, row, "public", "hello", now=clock.now())
    assert channels.readable(db, other, "s1") == []


# ---------------------------------------------------------------- the public thread


def test_living_players_post_and_everyone_reads(db: Session, clock: FakeClock,
                                                game: Game) -> None:
    made = channels.post(db, game, seat(db, game, "s3"), "public", "  I go to B-2.\r\n ",
                         now=clock.now())
    assert (made.author, made.author_seat, made.channel, made.body, made.entry, made.to) == (
        "Cat", "s3", "public", "I go to B-2.", game.entry, None)
    for n in range(1, 9):
        assert bodies(channels.readable(db, game, f"s{n}")) == ["I go to B-2."]
    assert channels.readable(db, game, "s9") == [], "a non-seat reads nothing"
    assert made.to_json()["author"] == "Cat"


def test_dead_players_read_the_thread_but_do_not_post(db: Session, clock: FakeClock,
                                                      game: Game) -> None:
    channels.post(db, game, seat(db, game, "s4"), "public", "before", now=clock.now())
    kill(db, game, "s4")
    with pytest.raises(Forbidden, match=r"^Dead players may read the thread but not post "
                                        r"in it\.$"):
        channels.post(db, game, seat(db, game, "s4"), "public", "after", now=clock.now())
    assert bodies(channels.readable(db, game, "s4")) == ["before"]
    assert count(db, Post) == 1


# ---------------------------------------------------------------- the Red channel


def test_the_red_channel_is_for_living_reds_only(db: Session, clock: FakeClock,
                                                 game: Game) -> None:
    channels.post(db, game, seat(db, game, "s1"), "red", "Kill Cat tonight.", now=clock.now())
    channels.post(db, game, seat(db, game, "s3"), "public", "Hello all.", now=clock.now())
    assert bodies(channels.readable(db, game, "s2")) == ["Kill Cat tonight.", "Hello all."]
    for green in ("s3", "s4", "s5", "s6", "s7", "s8"):
        assert bodies(channels.readable(db, game, green)) == ["Hello all."]
        with pytest.raises(Forbidden, match=re.escape("Only living Reds may use the Red channel.")):
            channels.post(db, game, seat(db, game, green), "red", "let me in",
                          now=clock.now())
    kill(db, game, "s2")  # a dead Red loses the channel, old posts included
    assert bodies(channels.readable(db, game, "s2")) == ["Hello all."]
    with pytest.raises(Forbidden, match="Only living Reds"):
        channels.post(db, game, seat(db, game, "s2"), "red", "help", now=clock.now())
    assert bodies(channels.readable(db, game, "s1")) == ["Kill Cat tonight.", "Hello all."]


# ---------------------------------------------------------------- private messages


def test_private_messages_reach_only_sender_and_addressee(db: Session, clock: FakeClock,
                                                         game: Game) -> None:
    made = channels.post(db, game, seat(db, game, "s3"), "private", "The code is 4071.",
                         to_seat="s4", now=clock.now())
    assert (made.to, made.to_seat) == ("Dan", "s4")
    assert bodies(channels.readable(db, game, "s3")) == ["The code is 4071."]
    assert bodies(channels.readable(db, game, "s4")) == ["The code is 4071."]
    for other in ("s1", "s2", "s5", "s6", "s7", "s8"):
        assert channels.readable(db, game, other) == [], other
    kill(db, game, "s4")  # the dead still read what they were sent, and send nothing
    assert bodies(channels.readable(db, game, "s4")) == ["The code is 4071."]
    with pytest.raises(Forbidden, match="Dead players may read their private messages"):
        channels.post(db, game, seat(db, game, "s4"), "private", "thanks", to_seat="s3",
                      now=clock.now())


@pytest.mark.parametrize(("to", "message"), [
    (None, "Choose who the private message is for."),
    ("", "Choose who the private message is for."),
    ("s3", "You cannot send a private message to yourself."),
    ("s99", "There is no player s99 in this game."),
])
def test_private_addressee_checks(db: Session, clock: FakeClock, game: Game,
                                  to: str | None, message: str) -> None:
    with pytest.raises(Invalid, match=message) as refused:
        channels.post(db, game, seat(db, game, "s3"), "private", "psst", to_seat=to,
                      now=clock.now())
    assert "to" in refused.value.fields
    assert count(db, Post) == 0


def test_no_private_message_to_the_dead_or_outside_private(db: Session, clock: FakeClock,
                                                           game: Game) -> None:
    kill(db, game, "s5")
    with pytest.raises(Invalid, match=re.escape("Eve is dead: the dead get no private messages.")):
        channels.post(db, game, seat(db, game, "s3"), "private", "psst", to_seat="s5",
                      now=clock.now())
    assert [s for s, _ in channels.recipients(db, game, "s3")] == [
        "s1", "s2", "s4", "s6", "s7", "s8"]
    assert channels.recipients(db, game, "s5") == [], "the dead send nothing"
    with pytest.raises(Invalid, match=re.escape("Only private messages have an addressee.")):
        channels.post(db, game, seat(db, game, "s3"), "public", "hi", to_seat="s4",
                      now=clock.now())


def test_private_messages_off(db: Session, clock: FakeClock) -> None:
    game, _ = infiltration(db, clock.now(), options={"private_messages": False})
    with pytest.raises(Forbidden, match=re.escape("Private messages are off in this game.")):
        channels.post(db, game, seat(db, game, "s3"), "private", "psst", to_seat="s4",
                      now=clock.now())
    db.add(Post(game_id=game.id, entry=0, channel="private", seat_id="s3", to_seat="s4",
                body="stored anyway", at=clock.now()))
    db.flush()
    assert channels.readable(db, game, "s3") == []
    assert channels.readable(db, game, "s4") == []


# ---------------------------------------------------------------- texts, channels, states


def test_length_limits_and_cleaning(db: Session, clock: FakeClock, game: Game) -> None:
    ann = seat(db, game, "s3")
    for empty in ("", "   ", "\n\t\r\n", "\x00\x07"):
        with pytest.raises(Invalid, match="the message is empty"):
            channels.post(db, game, ann, "public", empty, now=clock.now())
    longest = "x" * channels.MAX_CHARS
    assert channels.post(db, game, ann, "public", f"  {longest}\n", now=clock.now()).body \
        == longest
    with pytest.raises(Invalid, match="too long: 2001 characters, at most 2000"):
        channels.post(db, game, ann, "public", longest + "y", now=clock.now())
    made = channels.post(db, game, ann, "public", "a\r\nb\rc\x00d\te", now=clock.now())
    assert made.body == "a\nb\ncd\te"
    assert count(db, Post) == 2


@pytest.mark.parametrize("channel", ["", "Public", "host", "red "])
def test_unknown_channel(db: Session, clock: FakeClock, game: Game, channel: str) -> None:
    with pytest.raises(Invalid, match="There is no channel"):
        channels.post(db, game, seat(db, game, "s1"), channel, "hi", now=clock.now())


def test_game_states(db: Session, clock: FakeClock, game: Game) -> None:
    cat = seat(db, game, "s3")
    game.status = "paused"  # talk changes no state: the thread stays open
    channels.post(db, game, cat, "public", "while paused", now=clock.now())
    game.status = "over"
    with pytest.raises(Conflict, match="The game is over"):
        channels.post(db, game, cat, "public", "gg", now=clock.now())
    assert bodies(channels.readable(db, game, "s3")) == ["while paused"]
    host = db.get(User, game.host_id)
    assert host is not None
    waiting = games.create_game(db, host, game="infiltration", title="Later", options={},
                                schedule={"interval_hours": 48}, max_seats=None,
                                now=clock.now())
    mine = games.join_game(db, host, waiting.id, name="Ann", player="agent1",
                           show_email=False, now=clock.now())
    with pytest.raises(Conflict, match="has not started yet"):
        channels.post(db, waiting, mine, "public", "hi", now=clock.now())
    assert channels.readable(db, waiting, "s1") == []


def test_a_seat_of_another_game_or_a_computer_player(db: Session, clock: FakeClock,
                                                     game: Game) -> None:
    other, _ = infiltration(db, clock.now())
    with pytest.raises(NotFound):
        channels.post(db, game, seat(db, other, "s3"), "public", "hi", now=clock.now())
    row = seat(db, game, "s3")
    row.user_id = None
    row.bot = "operative"
    with pytest.raises(Forbidden, match="computer player"):
        channels.post(db, game, row, "public", "beep", now=clock.now())


# ---------------------------------------------------------------- the thread by entry


def _post(entry: int, ident: int, body: str = "hi") -> ChannelPost:
    return ChannelPost(id=ident, entry=entry, channel="public", author="Ann",
                       author_seat="s1", to=None, to_seat=None, body=body,
                       at=datetime(2026, 11, 30, tzinfo=UTC))


def test_interleave_places_posts_after_their_entrys_events() -> None:
    events = [{"turn": 0, "text": "begins"}, {"turn": 1, "text": "turn 1"},
              {"turn": 1, "text": "alert"}, {"turn": 1, "text": "votes"}]
    marks = {0: 2, 1: 3, 2: 4}
    thread = channels.interleave(events, [_post(1, 3, "c"), _post(0, 1, "a"),
                                          _post(0, 2, "b"), _post(2, 4, "d")], marks)
    assert [item["text"] for item in thread] == [
        "begins", "turn 1", "Ann: a", "Ann: b", "alert", "Ann: c", "votes", "Ann: d"]
    assert [item["turn"] for item in thread if item.get("kind") == "post"] == [1, 1, 1, 1]
    assert channels.interleave(events, [], marks) == events
    unknown = channels.interleave(events, [_post(7, 1)], {})
    assert unknown[-1]["kind"] == "post", "an entry without a snapshot goes last"


def _process(db: Session, game: Game, host: User, clock: FakeClock) -> None:
    games.request_processing(db, host, game.id, clock.now())
    db.commit()
    assert turns.process_turn(db, game.id, clock.now())
    turns.move_bots(db, game.id, clock.now())
    db.commit()
    db.refresh(game)


def _marks_and_thread(db: Session, clock: FakeClock) -> None:
    game, users = infiltration(db, clock.now())
    first = len(store.snapshot(db, game.id, 0, store.PUBLIC_KEY)["public_log"])
    channels.post(db, game, seat(db, game, "s3"), "public", "at zero", now=clock.now())
    _process(db, game, users[0], clock)
    assert game.entry == 1
    channels.post(db, game, seat(db, game, "s4"), "public", "at one", now=clock.now())
    events = store.snapshot(db, game.id, 1, "s5")["public_log"]
    marks = channels.log_marks(db, game.id, [0, 1, 5], "public_log")
    assert marks == {0: first, 1: len(events)}
    posts = channels.readable(db, game, "s5")
    thread = channels.thread(db, game, events, posts, "public_log")
    texts = [item["text"] for item in thread]
    assert texts.index("Cat: at zero") == first
    assert texts[-1] == "Dan: at one"
    assert bodies(channels.readable(db, game, "s5", upto=0)) == ["at zero"]
    assert bodies(channels.readable(db, game, "s5", after=posts[0].id)) == ["at one"]
    with pytest.raises(ValueError, match="not a view key"):
        channels.log_marks(db, game.id, [0], "x'); drop table posts; --")


def test_marks_and_thread_sqlite(db: Session, clock: FakeClock) -> None:
    _marks_and_thread(db, clock)


@pytest.mark.postgres
def test_marks_and_thread_postgres(db: Session, clock: FakeClock) -> None:
    _marks_and_thread(db, clock)


# ---------------------------------------------------------------- property


ACTIONS = st.lists(st.tuples(st.sampled_from([f"s{n}" for n in range(1, 9)]),
                             st.sampled_from(channels.CHANNELS),
                             st.sampled_from([None, *(f"s{n}" for n in range(1, 10))]),
                             st.booleans()),
                   max_size=12)


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(actions=ACTIONS)
def test_nobody_reads_a_post_they_may_not(db: Session, clock: FakeClock, game: Game,
                                          actions: list[tuple[str, str, str | None, bool]]
                                          ) -> None:
    """Whatever is attempted, by whoever, with deaths along the way: each seat's readable
    set is exactly the stored posts the reading rule lets it read, and no Red-channel post
    or private message reaches anybody else."""
    db.rollback()  # each example starts from the started game: no posts, nobody dead
    db.execute(delete(Post).where(Post.game_id == game.id))
    for author, channel, to, dies in actions:
        with contextlib.suppress(Forbidden, Invalid):
            channels.post(db, game, seat(db, game, author), channel, f"{author}>{to}",
                          to_seat=to, now=clock.now())
        if dies and author not in ("s1", "s3"):
            kill(db, game, author)
    stored = list(db.scalars(select(Post).where(Post.game_id == game.id)))
    for n in range(1, 10):
        reader = f"s{n}"
        granted = channels.rights(db, game, reader)
        posts = channels.readable(db, game, reader)
        assert channels.seat_channels(db, game, reader).posts == posts
        seen = {post.id for post in posts}
        assert seen == {row.id for row in stored if may_read(
            granted, reader, row.channel, row.seat_id, row.to_seat)}
        for row in stored:
            if row.id in seen and row.channel == "red":
                assert reader in REDS and granted.get("red") == "post"
            if row.id in seen and row.channel == "private":
                assert reader in (row.seat_id, row.to_seat)
    for row in stored:  # what was stored was allowed when posted
        assert row.channel != "red" or row.seat_id in REDS
        assert row.channel != "private" or row.to_seat not in (None, row.seat_id)
    db.rollback()
