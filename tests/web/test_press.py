"""Press on the pages of Spy vs Spy and Kingdoms (issue 14 item 3): the platform's
``_channels.html`` partial on the seat page and the host page, ``POST /games/{id}/posts``
and the API's ``/posts``, all from ``service.channels`` (the press of the plugin).

Spy vs Spy games are made through the create form (the ``press`` option: on by default,
"no" for a gunboat game); Kingdoms games through the service. Carol hosts the Spy vs Spy
game without a seat (its moderator); Alice, Bob and Dan hold s1, s2, s3.
"""

from __future__ import annotations

import html
import re

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.clock import FakeClock
from spyhouse.service import games
from spyhouse.store.tables import User
from tests.web.helpers import Browser, visitor
from tests.web.test_channels import box_of, stored, token_for

GUNBOAT = "No press in this game (gunboat)."
PUBLIC = "Let us all hunt Buttmans Brigade."
SECRET = "Alice to Bob: my base is not in A."


def create(host: Browser, press: str = "yes", title: str = "Press game") -> int:
    """A Spy vs Spy game through the create form, ``option-press`` as given."""
    response = host.post("/games", {
        "game": "spyvsspy", "title": title, "max_seats": "",
        "option-base_choice": "random", "option-variant": "classic", "option-press": press,
        "schedule": "interval", "interval_hours": "48",
        "weekday": "Wednesday", "time": "20:00", "zone": "Pacific/Auckland"})
    assert response.status_code == 303, response.text
    match = re.match(r"/games/(\d+)", response.headers["location"])
    assert match
    return int(match.group(1))


def play(host: Browser, players: list[tuple[Browser, str]], press: str = "yes") -> int:
    game_id = create(host, press)
    for who, name in players:
        assert who.join(game_id, name).status_code == 303
    assert host.start(game_id).status_code == 303
    return game_id


def gunboat_game(alice: Browser, bob: Browser, host: Browser | None = None) -> int:
    """A running gunboat Spy vs Spy game: Alice (s1, the host unless ``host``) and Bob."""
    return play(host or alice, [(alice, "Alpha Brotherhood"), (bob, "Bravo Brotherhood")],
                "no")


def text_of(page: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", page))


def send(who: Browser, game_id: int, **fields: str) -> int:
    return who.post(f"/games/{game_id}/posts",
                    {"next": f"/games/{game_id}/seat", **fields}).status_code


def test_spyvsspy_press_public_and_private(alice: Browser, bob: Browser, carol: Browser,
                                          anon: Browser, app: FastAPI,
                                          sessions: sessionmaker[Session]) -> None:
    dan = visitor(app, "dan")
    game_id = play(carol, [(alice, "Alpha Brotherhood"), (bob, "Bravo Brotherhood"),
                           (dan, "Delta Brotherhood")])
    page = alice.get(f"/games/{game_id}/seat").text
    assert 'id="chat-public"' in page and 'id="chat-private"' in page
    assert 'id="chat-red"' not in page and GUNBOAT not in page
    assert ">Delta Brotherhood</option>" in box_of(page, "private")
    assert "— choose a brotherhood —" in box_of(page, "private"), "in the game's words"
    assert send(alice, game_id, channel="public", body=PUBLIC) == 303
    assert send(alice, game_id, channel="private", body=SECRET, to="s2") == 303
    assert stored(sessions, game_id) == [("public", "s1", None, PUBLIC),
                                         ("private", "s1", "s2", SECRET)]
    for reader in (alice, bob, dan):
        assert PUBLIC in text_of(reader.get(f"/games/{game_id}/seat").text)
    bobs = text_of(box_of(bob.get(f"/games/{game_id}/seat").text, "private"))
    assert "Alpha Brotherhood → Bravo Brotherhood" in bobs and SECRET in bobs
    assert SECRET not in dan.get(f"/games/{game_id}/seat").text, "a third seat never sees it"
    for outsider in (anon, visitor(app, "eve")):
        for path in (f"/games/{game_id}", f"/games/{game_id}/seat"):
            seen = outsider.get(path).text
            assert SECRET not in seen and PUBLIC not in seen, path
    moderator = carol.get(f"/games/{game_id}/host").text
    assert SECRET in text_of(box_of(moderator, "private"))
    assert PUBLIC in text_of(box_of(moderator, "public"))


def test_spyvsspy_gunboat_has_no_channels(alice: Browser, bob: Browser,
                                          carol: Browser) -> None:
    game_id = gunboat_game(alice, bob, carol)
    page = alice.get(f"/games/{game_id}/seat").text
    assert GUNBOAT in page and 'class="chat-form"' not in page
    assert 'id="chat-public"' not in page and 'id="chat-private"' not in page
    refused = alice.post(f"/games/{game_id}/posts", {"channel": "private", "body": "hi",
                                                     "to": "s2"})
    assert refused.status_code == 403
    assert GUNBOAT in refused.text and "Nothing was posted." in refused.text
    moderator = carol.get(f"/games/{game_id}/host").text
    assert GUNBOAT in moderator and 'id="chat-private"' not in moderator


def test_press_option_on_the_create_form(alice: Browser) -> None:
    """Each game's own radio group (one name would make the two games' radios one group),
    "yes" checked in both."""
    form = alice.get("/games/new").text
    for name in ("option-press", "option-kingdoms-press"):
        assert form.count(f'name="{name}" value="yes" checked') == 1
        assert form.count(f'name="{name}" value="no"') == 1


def test_api_matches_the_pages(alice: Browser, bob: Browser, app: FastAPI, clock: FakeClock,
                               sessions: sessionmaker[Session]) -> None:
    game_id = play(alice, [(alice, "Alpha Brotherhood"), (bob, "Bravo Brotherhood")])
    client = TestClient(app)
    url = f"/api/v1/games/{game_id}/posts"
    mine = {"Authorization": f"Bearer {token_for(sessions, clock, game_id, 's1')}"}
    theirs = {"Authorization": f"Bearer {token_for(sessions, clock, game_id, 's2')}"}
    made = client.post(url, headers=mine, json={"channel": "private", "body": SECRET,
                                                "to": "s2"})
    assert made.status_code == 201 and made.json()["author"] == "Alpha Brotherhood"
    assert made.json()["to"] == "Bravo Brotherhood"
    assert client.post(url, headers=theirs, json={"channel": "public",
                                                  "body": PUBLIC}).status_code == 201
    seen = client.get(url, headers=theirs).json()
    assert seen["channels"] == {"public": "post", "private": "post"}
    assert [p["body"] for p in seen["posts"]] == [SECRET, PUBLIC]
    assert seen["recipients"] == {"s1": "Alpha Brotherhood"} and seen["note"] is None
    page = bob.get(f"/games/{game_id}/seat").text
    for body in (SECRET, PUBLIC):
        assert html.escape(body) in page or body in page
    red = client.post(url, headers=mine, json={"channel": "red", "body": "x"})
    assert red.status_code == 403 and "no red channel" in red.json()["detail"]

    other = gunboat_game(alice, bob)
    token = {"Authorization": f"Bearer {token_for(sessions, clock, other, 's1')}"}
    quiet = client.get(f"/api/v1/games/{other}/posts", headers=token).json()
    assert quiet == {"channels": {}, "posts": [], "recipients": {}, "note": GUNBOAT}
    refused = client.post(f"/api/v1/games/{other}/posts", headers=token,
                          json={"channel": "public", "body": "hi"})
    assert refused.status_code == 403 and refused.json() == {"detail": GUNBOAT}


def kingdoms_game(sessions: sessionmaker[Session], clock: FakeClock,
                  options: dict[str, object] | None = None) -> int:
    """Alice (s1), Bob (s2) and Carol (s3) in a started Kingdoms game Dan hosts."""
    now = clock.now()
    with sessions() as db:
        found = [db.scalar(select(User).where(User.username == name))
                 for name in ("dan", "alice", "bob", "carol")]
        users = [user for user in found if user is not None]
        assert len(users) == 4
        game = games.create_game(db, users[0], game="kingdoms", title="Three crowns",
                                 options=options or {}, schedule={"interval_hours": 48},
                                 max_seats=None, now=now, seed=7)
        for user, name in zip(users[1:], ("Arden Court", "Brill Court", "Corve Court"),
                              strict=True):
            games.join_game(db, user, game.id, name=name, player=user.username,
                            show_email=False, now=now)
        games.start_game(db, users[0], game.id, now)
        db.commit()
        return game.id


def test_kingdoms_press(alice: Browser, bob: Browser, carol: Browser, app: FastAPI,
                        sessions: sessionmaker[Session], clock: FakeClock) -> None:
    dan = visitor(app, "dan")
    game_id = kingdoms_game(sessions, clock)
    page = alice.get(f"/games/{game_id}/seat").text
    assert 'id="chat-public"' in page and 'id="chat-private"' in page
    assert send(alice, game_id, channel="public", body="Arden wants peace.") == 303
    assert send(alice, game_id, channel="private", body="Brill: ally?", to="s2") == 303
    assert "Brill: ally?" in bob.get(f"/games/{game_id}/seat").text
    carols = carol.get(f"/games/{game_id}/seat").text
    assert "Arden wants peace." in carols and "Brill: ally?" not in carols
    host = dan.get(f"/games/{game_id}/host").text  # the moderator reads everything
    assert "Arden wants peace." in host and "Brill: ally?" in host
    bob_answers = send(bob, game_id, channel="private", body="Agreed.", to="s1")
    assert bob_answers == 303 and "Agreed." in alice.get(f"/games/{game_id}/seat").text

    quiet = kingdoms_game(sessions, clock, {"press": False})
    page = alice.get(f"/games/{quiet}/seat").text
    assert GUNBOAT in page and 'class="chat-form"' not in page
    assert send(alice, quiet, channel="public", body="hi") == 403


def test_a_game_against_the_computer_has_no_press(alice: Browser) -> None:
    response = alice.post("/games/quick", {"game": "spyvsspy"})
    assert response.status_code == 303, response.text
    page = alice.get(response.headers["location"].split("?")[0]).text
    assert "No press in a game against the computer" in page
    assert 'id="chat-public"' not in page and 'class="chat-form"' not in page
