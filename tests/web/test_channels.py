"""Players' channels on the web (web/pages_channels.py, the API's ``/posts``, the
``_channels.html`` partial on Infiltration's page).

A six-seat Infiltration game of people: Alice (s1, a Green Sneaker in A-1, an Anonymous
messaging terminal), Bob (s2, the Red), Carol (s3) and three more. ``setup`` fixes teams,
classes, map and starting rooms, so the game opens on the Movement phase of turn 1. Only a
seat's holder posts or reads, as that seat; every form needs the session's CSRF token; a
refused post keeps the typed text.
"""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.clock import FakeClock
from spyhouse.games.infiltration.model import ROOMS, SPECIALS, npc_ids, parse_feature
from spyhouse.service import games, play
from spyhouse.store.tables import Game, Post, SeatRow, User
from tests.games.infiltration.scenario import build_map
from tests.service.helpers import make_user
from tests.service.test_channels import kill
from tests.web.helpers import Browser, run_worker, visitor

PAGE = "/games/{}/seat"
SECRET_RED = "Red plan: take Carol at the lab."
SECRET_PRIVATE = "Bob, the code is 4071."
ANONYMOUS = "Rex was in B-2."


def setup_options() -> dict[str, Any]:
    """Teams, classes, a map with Anonymous messaging in A-1 and the starting rooms."""
    game_map = build_map(6, {"A-1": "Anonymous messaging"})
    free = [r for r in ROOMS if parse_feature(game_map[r]) not in SPECIALS and r != "A-1"]
    positions = {"s1": "A-1", **{f"s{n}": free[(n - 2) * 3] for n in range(2, 7)}}
    for i, npc in enumerate(npc_ids(1, 0)):
        positions[npc] = free[-1 - i * 2]
    classes = {"s1": "Sneaker", **{f"s{n}": "Warrior" for n in range(3, 7)}}
    return {"setup": {"reds": ["s2"], "classes": classes, "map": game_map,
                      "positions": positions}}


def infiltration_game(sessions: sessionmaker[Session], clock: FakeClock,
                      options: dict[str, Any] | None = None) -> int:
    """Alice (host, s1), Bob (s2), Carol (s3) and three more people; started."""
    now = clock.now()
    with sessions() as db:
        people = [db.scalar(select(User).where(User.username == name))
                  for name in ("alice", "bob", "carol")]
        users = [user for user in people if user is not None]
        assert len(users) == 3
        users += [make_user(db, f"agent{n}", now) for n in (4, 5, 6)]
        game = games.create_game(db, users[0], game="infiltration", title="Night shift",
                                 options={**setup_options(), **(options or {})},
                                 schedule={"interval_hours": 48}, max_seats=None, now=now,
                                 seed=5)
        for user, handle in zip(users, ("Alice", "Bob", "Carol", "Dan", "Eve", "Fay"),
                                strict=True):
            games.join_game(db, user, game.id, name=handle, player=user.username,
                            show_email=False, now=now)
        games.start_game(db, users[0], game.id, now)
        db.commit()
        return game.id


@pytest.fixture
def game_id(alice: Browser, bob: Browser, carol: Browser, sessions: sessionmaker[Session],
            clock: FakeClock) -> int:
    return infiltration_game(sessions, clock)


def text_of(page: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", page))


def thread_of(page: str) -> str:
    """The text of the page's public thread: its turns, without the post form on top."""
    start = page.index('id="public-thread-turns"')
    return text_of(page[start:page.index("</div>", start)])


def box_of(page: str, channel: str) -> str:
    """The HTML of the page's box for ``channel``."""
    start = page.index(f'id="chat-{channel}"')
    return page[start:page.index("</section>", start)]


def post(who: Browser, game_id: int, **fields: str) -> Any:
    return who.post(f"/games/{game_id}/posts",
                    {"next": PAGE.format(game_id), **fields})


def refused_post(who: Browser, game_id: int, **fields: str) -> str:
    """A refused post from the seat page: 303 back to its box (post/redirect/get), which
    shows the message and the typed text once: that page's HTML."""
    response = post(who, game_id, **fields)
    assert response.status_code == 303
    assert response.headers["location"] == f"{PAGE.format(game_id)}#chat-{fields['channel']}"
    page = who.get(PAGE.format(game_id))
    assert page.status_code == 200
    return str(page.text)


def stored(sessions: sessionmaker[Session], game_id: int) -> list[tuple[str, str, str | None,
                                                                        str]]:
    with sessions() as db:
        return [(p.channel, p.seat_id, p.to_seat, p.body) for p in db.scalars(
            select(Post).where(Post.game_id == game_id).order_by(Post.id))]


def process(host: Browser, app: FastAPI, clock: FakeClock, game_id: int) -> None:
    assert host.post(f"/games/{game_id}/process").status_code == 303
    run_worker(app, clock)


# ---------------------------------------------------------------- the form route


def test_public_post_shows_in_every_players_thread(alice: Browser, bob: Browser,
                                                  carol: Browser, game_id: int,
                                                  sessions: sessionmaker[Session]) -> None:
    page = alice.get(PAGE.format(game_id)).text
    assert f'action="/games/{game_id}/posts"' in page
    assert 'name="channel" value="public"' in page
    response = post(alice, game_id, channel="public", body="I go to <B-2> & wait.")
    assert response.status_code == 303
    assert response.headers["location"] == PAGE.format(game_id) + "#chat-public"
    assert stored(sessions, game_id) == [("public", "s1", None, "I go to <B-2> & wait.")]
    for who in (alice, bob, carol):
        raw = who.get(PAGE.format(game_id)).text
        assert "I go to &lt;B-2&gt; &amp; wait." in raw, "posts are escaped"
        assert "Alice: I go to <B-2> & wait." in thread_of(raw)


def test_only_seat_holders_post_and_every_form_needs_csrf(
        alice: Browser, game_id: int, app: FastAPI, sessions: sessionmaker[Session]) -> None:
    dave = visitor(app, "dave")
    assert post(dave, game_id, channel="public", body="hi").status_code == 404
    assert post(alice, game_id + 99, channel="public", body="hi").status_code == 404
    assert alice.post(f"/games/{game_id}/posts", {"channel": "public", "body": "hi"},
                      token=False).status_code == 403
    assert alice.post(f"/games/{game_id}/posts", {"channel": "public", "body": "hi",
                                                  "csrf_token": "forged"},
                      token=False).status_code == 403
    anonymous = Browser(TestClient(app, follow_redirects=False))
    response = anonymous.post(f"/games/{game_id}/posts", {"channel": "public", "body": "x"})
    assert response.status_code in (303, 403)
    assert stored(sessions, game_id) == []


def test_unsafe_next_goes_to_the_seat_page(alice: Browser, game_id: int) -> None:
    for target in ("//evil.example/x", "https://evil.example/", "", "\\\\evil"):
        response = post(alice, game_id, channel="public", body="hi", next=target)
        assert response.status_code == 303
        assert response.headers["location"] == f"/games/{game_id}/seat#chat-public"


def test_refused_post_keeps_the_typed_text(alice: Browser, game_id: int,
                                          sessions: sessionmaker[Session]) -> None:
    long = "x" * 2000 + "yz"
    refused = refused_post(alice, game_id, channel="public", body=long)
    assert "The message is too long: 2002 characters, at most 2000." in text_of(refused)
    assert "Nothing was posted." in refused
    assert f">{long}</textarea>" in refused
    assert f'name="next" value="{PAGE.format(game_id)}#chat-public"' in refused
    again = alice.get(PAGE.format(game_id)).text  # shown once: a reload posts nothing
    assert "Nothing was posted." not in again and f">{long}</textarea>" not in again
    empty = refused_post(alice, game_id, channel="public", body="   ")
    assert "the message is empty" in empty
    private = refused_post(alice, game_id, channel="private", body="just me", to="s1")
    assert "You cannot send a private message to yourself." in private
    assert ">just me</textarea>" in private
    assert '<option value="s1" selected>' not in private  # not a choice at all
    assert '<option value="s2">Bob</option>' in private
    # from elsewhere (no box there to show it), the refusal's own page, as before
    elsewhere = alice.post(f"/games/{game_id}/posts",
                           {"next": "/lobby", "channel": "public", "body": "   "})
    assert elsewhere.status_code == 422 and "Nothing was posted." in elsewhere.text
    assert stored(sessions, game_id) == []


def test_red_channel_only_for_the_red(alice: Browser, bob: Browser, carol: Browser,
                                     game_id: int, sessions: sessionmaker[Session]) -> None:
    assert 'id="chat-red"' in bob.get(PAGE.format(game_id)).text
    assert 'id="chat-red"' not in alice.get(PAGE.format(game_id)).text
    assert post(bob, game_id, channel="red", body=SECRET_RED).status_code == 303
    refused = post(alice, game_id, channel="red", body="let me in")
    assert refused.status_code == 403
    assert "Only living Reds may use the Red channel." in refused.text
    assert "Nothing was posted." in refused.text
    assert ">let me in</textarea>" in refused.text and "readonly" in refused.text
    assert SECRET_RED in text_of(bob.get(PAGE.format(game_id)).text)
    for green in (alice, carol):
        assert "Red plan" not in green.get(PAGE.format(game_id)).text
        assert "Red plan" not in green.get(f"/games/{game_id}/report/0").text
    assert stored(sessions, game_id) == [("red", "s2", None, SECRET_RED)]


def test_private_messages_reach_only_the_two(alice: Browser, bob: Browser, carol: Browser,
                                            game_id: int) -> None:
    page = box_of(alice.get(PAGE.format(game_id)).text, "private")
    assert '<option value="s2">Bob</option>' in page and '<option value="s1">' not in page
    assert post(alice, game_id, channel="private", body=SECRET_PRIVATE,
                to="s2").status_code == 303
    for who in (alice, bob):
        text = text_of(who.get(PAGE.format(game_id)).text)
        assert "Alice → Bob" in text and SECRET_PRIVATE in text
        assert SECRET_PRIVATE not in thread_of(who.get(PAGE.format(game_id)).text)
    assert "4071" not in carol.get(PAGE.format(game_id)).text


def test_dead_players_read_but_have_no_forms(alice: Browser, bob: Browser, game_id: int,
                                            sessions: sessionmaker[Session]) -> None:
    assert post(alice, game_id, channel="public", body="last words").status_code == 303
    with sessions() as db:
        game = db.get(Game, game_id)
        assert game is not None
        kill(db, game, "s1")
        db.commit()
    page = alice.get(PAGE.format(game_id)).text
    assert "Alice: last words" in thread_of(page)
    assert "Dead players may read the thread but not post in it." in page
    assert 'name="channel" value="public"' not in page
    assert "Dead players may read their private messages but not send any." in page
    refused = post(alice, game_id, channel="public", body="from beyond")
    assert refused.status_code == 403
    assert "Dead players may read the thread but not post in it." in refused.text
    assert ">from beyond</textarea>" in refused.text


def test_a_game_without_channels_takes_no_posts(alice: Browser, bob: Browser) -> None:
    from tests.web.test_press import gunboat_game

    other = gunboat_game(alice, bob)  # Spy vs Spy without press: no channels
    refused = post(alice, other, channel="public", body="hi")
    assert refused.status_code == 403 and "No press in this game (gunboat)." in refused.text


# ---------------------------------------------------------------- the thread over a game


def test_posts_interleave_with_events_and_anonymous_messages_show(
        alice: Browser, bob: Browser, carol: Browser, game_id: int, app: FastAPI,
        clock: FakeClock, sessions: sessionmaker[Session]) -> None:
    base = PAGE.format(game_id)
    assert post(carol, game_id, channel="public", body="first words").status_code == 303
    process(alice, app, clock, game_id)  # Movement 1: everybody stays
    assert post(bob, game_id, channel="public", body="after the move").status_code == 303
    page = alice.get(base).text
    assert 'name="terminal-text"' in page, "Alice stands at the Anonymous messaging terminal"
    assert alice.post(f"/games/{game_id}/orders", {
        "terminal-action": "USE", "terminal-text": ANONYMOUS}).status_code == 303
    process(alice, app, clock, game_id)  # Decision 1: the transmission is posted at R5
    for who in (alice, bob, carol):
        thread = thread_of(who.get(base).text)
        assert f"ANONYMOUS TRANSMISSION: {ANONYMOUS}" in thread
        begins = thread.index("Turn 1 begins.")
        alert = max(thread.find("All quiet"), thread.find("ALERT MODE"))
        first = thread.index("Carol: first words")
        second = thread.index("Bob: after the move")
        anonymous = thread.index("ANONYMOUS TRANSMISSION")
        assert begins < first < alert < second < anonymous, thread
    past = thread_of(alice.get(f"/games/{game_id}/report/0").text)
    assert "Carol: first words" in past and "after the move" not in past
    assert "ANONYMOUS" not in past
    past_page = alice.get(f"/games/{game_id}/report/0").text
    assert 'name="channel"' not in past_page, "no forms on the past"


# ---------------------------------------------------------------- the JSON API


def token_for(sessions: sessionmaker[Session], clock: FakeClock, game_id: int,
              seat_id: str) -> str:
    with sessions() as db:
        seat = db.scalar(select(SeatRow).where(SeatRow.game_id == game_id,
                                               SeatRow.seat_id == seat_id))
        assert seat is not None
        token = play.create_token(db, seat, "test", clock.now())
        db.commit()
        return token


def test_api_posts(game_id: int, app: FastAPI, clock: FakeClock,
                   sessions: sessionmaker[Session]) -> None:
    client = TestClient(app)
    url = f"/api/v1/games/{game_id}/posts"
    alice = {"Authorization": f"Bearer {token_for(sessions, clock, game_id, 's1')}"}
    bob = {"Authorization": f"Bearer {token_for(sessions, clock, game_id, 's2')}"}
    assert client.get(url).status_code == 401
    assert client.get(url, headers={"Authorization": "Bearer shs_nope"}).status_code == 403
    assert client.get(f"/api/v1/games/{game_id + 99}/posts", headers=alice).status_code == 404
    made = client.post(url, headers=alice, json={"channel": "public", "body": " Hello. "})
    assert made.status_code == 201, made.text
    assert made.json()["body"] == "Hello." and made.json()["author"] == "Alice"
    assert client.post(url, headers=bob, json={"channel": "red",
                                               "body": SECRET_RED}).status_code == 201
    dm = client.post(url, headers=alice, json={"channel": "private", "body": "psst",
                                               "to": "s2"})
    assert dm.status_code == 201 and dm.json()["to"] == "Bob"
    mine = client.get(url, headers=alice).json()
    assert mine["channels"] == {"public": "post", "private": "post"}
    assert [p["body"] for p in mine["posts"]] == ["Hello.", "psst"]
    theirs = client.get(url, headers=bob).json()
    assert theirs["channels"] == {"public": "post", "red": "post", "private": "post"}
    assert [p["body"] for p in theirs["posts"]] == ["Hello.", SECRET_RED, "psst"]
    later = client.get(url, headers=bob, params={"after": theirs["posts"][0]["id"]}).json()
    assert [p["body"] for p in later["posts"]] == [SECRET_RED, "psst"]
    refused = client.post(url, headers=alice, json={"channel": "red", "body": "x"})
    assert refused.status_code == 403
    assert refused.json() == {"detail": "Only living Reds may use the Red channel."}
    too_long = client.post(url, headers=alice, json={"channel": "public", "body": "x" * 2001})
    assert too_long.status_code == 422 and "too long" in too_long.json()["detail"]
    assert too_long.json()["fields"] == {"body": ["at most 2000 characters"]}
    assert client.post(url, headers=alice, json={"body": "x"}).status_code == 422
    unknown = client.post(url, headers=alice, json={"channel": "host", "body": "x"})
    assert unknown.status_code == 422 and "There is no channel" in unknown.json()["detail"]
    assert len(stored(sessions, game_id)) == 3


# ---------------------------------------------------------------- the moderator's page


def test_moderator_posts_hold_every_channel_only_when_secret(
        alice: Browser, bob: Browser, carol: Browser, game_id: int, app: FastAPI,
        clock: FakeClock, sessions: sessionmaker[Session]) -> None:
    """``channels.moderator_posts``: every channel for the moderator, the public posts
    alone for the players who read that page after the end; ``upto`` as for a report."""
    from spyhouse.service import channels

    assert post(alice, game_id, channel="public", body="hello").status_code == 303
    assert post(bob, game_id, channel="red", body=SECRET_RED).status_code == 303
    assert post(alice, game_id, channel="private", body=SECRET_PRIVATE,
                to="s3").status_code == 303
    process(alice, app, clock, game_id)
    assert post(carol, game_id, channel="public", body="later").status_code == 303
    with sessions() as db:
        game = db.get(Game, game_id)
        assert game is not None
        every = channels.moderator_posts(db, game, secret=True)
        assert [(p.channel, p.author, p.to, p.body) for p in every] == [
            ("public", "Alice", None, "hello"), ("red", "Bob", None, SECRET_RED),
            ("private", "Alice", "Carol", SECRET_PRIVATE), ("public", "Carol", None, "later")]
        public = channels.moderator_posts(db, game, secret=False)
        assert [p.body for p in public] == ["hello", "later"]
        assert [p.body for p in channels.moderator_posts(db, game, secret=True, upto=0)] == [
            "hello", SECRET_RED, SECRET_PRIVATE]
        # a seat reads only its own share, as before
        assert [p.body for p in channels.readable(db, game, "s2")] == [
            "hello", SECRET_RED, "later"]
