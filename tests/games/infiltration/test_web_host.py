"""Infiltration's moderator page and live form checks, on the platform's routes.

The moderator's page (``/games/{id}/host``, the plugin's ``moderator.html`` on the
platform's host page) shows the whole facility from the host view: it opens to the game's
host while the game runs only when the host holds no seat, and to the host and every
player once the game is over (``deps.host_access``); anybody else gets the seat routes'
404; its thread holds the players' public posts, and only the moderator (the host holding
no seat) also reads the Red channel and private messages there. ``POST /games/{id}/check``
judges the order form with the engine's own checks, saves nothing and says where on the
form each message belongs. The secrecy properties render the seat page from the
platform's context (``web.pages_seat.seat_context``) plus the plugin's ``pages.seat``.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jinja2 import Environment
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker
from starlette.requests import Request

from spyhouse.clock import FakeClock
from spyhouse.core.plugin import SeatFacts
from spyhouse.games.infiltration.model import ROOMS, Team
from spyhouse.games.infiltration.plugin import PLUGIN
from spyhouse.service import records
from spyhouse.store.tables import Game, SeatRow
from spyhouse.web import deps, pages_seat
from spyhouse.web.render import make_templates
from tests.games.infiltration.botplay import RULES, play
from tests.games.infiltration.test_properties import swap_secrets
from tests.games.infiltration.test_web import (
    BASE,
    ORDERS,
    PAGE,
    class_form,
    infiltration_game,
    process,
    text_of,
    view_of,
)
from tests.web.helpers import Browser, refused_page, visitor
from tests.web.helpers import saved_orders as saved

HOST = BASE + "/host"
CHECK = BASE + "/check"
BOTS = ("operative", "vigilante", "operative", "vigilante")


def new_game(host: Browser, players: list[Browser], *, bots: int = 0,
             setup: dict[str, Any] | None = None,
             sessions: sessionmaker[Session] | None = None) -> int:
    """A running game hosted by ``host`` (seated only if among ``players``): the players
    take seats s1, s2, … in order, then ``bots`` computer players; ``setup`` (§15.3) is
    written into the options before the start."""
    response = host.post("/games", {
        "game": "infiltration", "title": "Night shift", "max_seats": "",
        "option-pace": "forum", "schedule": "interval", "interval_hours": "48",
        "weekday": "Wednesday", "time": "20:00", "zone": "Pacific/Auckland"})
    assert response.status_code == 303, response.text
    match = re.match(r"/games/(\d+)", response.headers["location"])
    assert match
    game_id = int(match.group(1))
    for number, player in enumerate(players, start=1):
        assert player.join(game_id, f"Agent{number}").status_code == 303
    for n in range(bots):
        assert host.add_bot(game_id, BOTS[n % len(BOTS)]).status_code == 303
    if setup is not None:
        assert sessions is not None
        with sessions() as db:
            game = db.get(Game, game_id)
            assert game is not None
            game.options = {**game.options, "setup": setup}
            db.commit()
    assert host.start(game_id).status_code == 303
    return game_id


def host_view(sessions: sessionmaker[Session], game_id: int) -> dict[str, Any]:
    with sessions() as db:
        game = db.get(Game, game_id)
        assert game is not None
        return records.snapshot(db, game_id, game.entry, records.HOST_KEY)


def status_of(sessions: sessionmaker[Session], game_id: int) -> str:
    with sessions() as db:
        game = db.get(Game, game_id)
        assert game is not None
        return game.status


def assert_whole_facility(page: str, view: dict[str, Any]) -> None:
    """Every room with its feature, every player with team and class."""
    cells = re.findall(r'<td id="host-room-([A-H]-[1-8])" data-room="[^"]+" '
                       r'data-feature="([^"]*)"', page)
    assert [room for room, _ in cells] == list(ROOMS)
    features = {row["room"]: row["feature"] for row in view["rooms"]}
    assert {room: text_of(feature) for room, feature in cells} == features
    for seat in view["seats"]:
        row = re.search(rf'<tr id="host-seat-{seat["seat"]}">(.*?)</tr>', page, re.S)
        assert row, seat
        text = text_of(row.group(1))
        assert seat["handle"] in text and seat["team"].capitalize() in text
        assert (seat["class"] or "—") in text and seat["room"] in text
        assert re.search(rf'inf-team-{seat["team"]}[^"]*" title="{re.escape(seat["handle"])}:',
                         page), seat  # the player on the map, coloured by team
    assert f"General's code <strong>{view['code']}</strong>" in page


# ---------------------------------------------------------------- who sees the host page


def test_unseated_host_sees_the_whole_facility(alice: Browser, bob: Browser, carol: Browser,
                                               app: FastAPI,
                                               sessions: sessionmaker[Session]) -> None:
    game_id = new_game(carol, [alice, bob], bots=4)
    response = carol.get(HOST.format(game_id))
    assert response.status_code == 200, response.text
    view = host_view(sessions, game_id)
    assert_whole_facility(response.text, view)
    assert "Class selection" in response.text and "awaiting" in text_of(response.text)
    assert 'id="host-public-log"' in response.text and "The game begins." in response.text
    for seat in view["seats"]:  # every private log, in full
        assert f'id="host-log-{seat["seat"]}"' in response.text
    assert carol.get(HOST.format(game_id) + "/0").status_code == 200
    assert carol.get(HOST.format(game_id) + "/7").status_code in (404, 422)
    # the platform's host page around the facility: the deadline and whose orders are in
    assert 'class="countdown"' in response.text and "Whose orders are in" in response.text
    # the host's game page links to it; a player's does not
    assert f'href="/games/{game_id}/host"' in carol.get(f"/games/{game_id}").text
    assert f'href="/games/{game_id}/host"' not in alice.get(f"/games/{game_id}").text
    # players and strangers: 404, a stranger's the same as for a game that does not exist
    for who in (alice, bob):
        refused = who.get(HOST.format(game_id))
        assert refused.status_code == 404
        assert deps.PLAYERS_WAIT in text_of(refused.text)
        assert who.get(HOST.format(game_id) + "/0").status_code == 404
    dave = visitor(app, "dave")
    stranger = dave.get(HOST.format(game_id))
    missing = dave.get(HOST.format(game_id + 99))
    assert stranger.status_code == missing.status_code == 404
    assert text_of(stranger.text).replace(str(game_id), "") == text_of(missing.text).replace(
        str(game_id + 99), "")
    response = visitor(app).get(HOST.format(game_id))
    assert response.status_code == 303 and response.headers["location"].startswith("/login")


def test_seated_host_cannot_see_it_during_the_game(alice: Browser, bob: Browser) -> None:
    game_id = infiltration_game(alice, bob)
    refused = alice.get(HOST.format(game_id))
    assert refused.status_code == 404
    assert deps.HOST_CLOSED in text_of(refused.text)
    assert bob.get(HOST.format(game_id)).status_code == 404
    assert 'id="inf-host-link"' not in alice.get(PAGE.format(game_id)).text
    assert f'href="/games/{game_id}/host"' not in alice.get(f"/games/{game_id}").text


def test_no_host_page_before_the_start(alice: Browser, carol: Browser) -> None:
    """Before the start there is nothing to show, and a stranger still gets 404."""
    response = alice.post("/games", {
        "game": "infiltration", "title": "Night shift", "max_seats": "",
        "option-pace": "forum", "schedule": "interval", "interval_hours": "48",
        "weekday": "Wednesday", "time": "20:00", "zone": "Pacific/Auckland"})
    match = re.match(r"/games/(\d+)", response.headers["location"])
    assert match
    game_id = int(match.group(1))
    assert alice.get(HOST.format(game_id)).status_code == 409
    assert carol.get(HOST.format(game_id)).status_code == 404


def test_everyone_in_the_game_sees_it_once_it_is_over(alice: Browser, bob: Browser,
                                                      carol: Browser, app: FastAPI,
                                                      clock: FakeClock,
                                                      sessions: sessionmaker[Session]) -> None:
    """Six people play (Alice hosts and plays); all vote NO REDS LEFT: the game ends (L2)."""
    others = [visitor(app, name) for name in ("dave", "erin", "fay")]
    players = [alice, bob, carol, *others]
    game_id = new_game(alice, players)
    process(alice, app, clock, game_id)  # class selection: defaults
    process(alice, app, clock, game_id)  # movement: everybody stays
    assert view_of(sessions, game_id, "s1")["phase"] == "decision"
    for who in players:
        response = who.post(ORDERS.format(game_id),
                            {"vote": "NO REDS LEFT", "ready": "1"})
        assert response.status_code == 303, response.text
    process(alice, app, clock, game_id)
    assert status_of(sessions, game_id) == "over"
    view = host_view(sessions, game_id)
    assert view["result"] is not None
    for who in players:
        page = who.get(HOST.format(game_id))
        assert page.status_code == 200
        assert_whole_facility(page.text, view)
        assert 'id="inf-result"' in page.text
    seat_page = bob.get(PAGE.format(game_id)).text
    assert 'id="inf-host-link"' in seat_page
    assert f'href="/games/{game_id}/host"' in seat_page
    assert f'href="/games/{game_id}/host"' in bob.get(f"/games/{game_id}").text
    assert visitor(app, "gus").get(HOST.format(game_id)).status_code == 404


# ---------------------------------------------------------------- live checks


def check(who: Browser, game_id: int, fields: dict[str, str]) -> dict[str, Any]:
    response = who.post(CHECK.format(game_id), fields)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/json")
    verdict: dict[str, Any] = response.json()
    return verdict


def refusal(verdict: dict[str, Any]) -> tuple[str, str]:
    """The one message of a refused check and the form place it is shown at."""
    assert verdict["ok"] is False and len(verdict["messages"]) == 1, verdict
    message = verdict["messages"][0]
    places = [key for key, messages in verdict["places"].items() if message in messages]
    assert len(places) == 1, verdict
    return message, places[0]


def test_check_gives_the_engines_messages_and_saves_nothing(
        alice: Browser, bob: Browser, app: FastAPI, clock: FakeClock,
        sessions: sessionmaker[Session]) -> None:
    # Alice (s1) is Green: the one Red is a bot
    game_id = new_game(alice, [alice, bob], bots=4, setup={"reds": ["s3"]},
                       sessions=sessions)
    wizard = "Wizard is not available in this game. Choose one of: Warrior, Hacker, Sneaker."
    assert check(alice, game_id, {"class": "Wizard"}) == {
        "ok": False, "messages": [wizard], "places": {"class": [wizard]}}
    assert saved(sessions, game_id, "s1") is None
    assert check(alice, game_id, {"class": "Sneaker"}) == {
        "ok": True, "messages": [], "places": {}}
    assert saved(sessions, game_id, "s1") is None  # a good sheet is not saved either
    assert alice.post(ORDERS.format(game_id), {"class": "Hacker"}).status_code == 303
    assert bob.post(ORDERS.format(game_id),
                    class_form(view_of(sessions, game_id, "s2"))).status_code == 303
    assert check(alice, game_id, {"class": "Sneaker"})["ok"] is True
    assert saved(sessions, game_id, "s1") == {"class": "Hacker"}
    process(alice, app, clock, game_id)

    # movement
    message, place = refusal(check(alice, game_id, {"move": "Z-9"}))
    assert (message, place) == ("'Z-9' is not a room. Rooms are A-1 to H-8.", "move")
    # /orders: the same words, on the seat page it redirects to
    refused = refused_page(alice, alice.post(ORDERS.format(game_id), {"move": "Z-9"}))
    assert message in text_of(refused.text)
    assert refusal(check(alice, game_id, {"move": "D-4", "code": "12"})) == (
        "A door code is exactly four digits (0000–9999).", "code")
    assert alice.post(ORDERS.format(game_id), {"move": "D-4"}).status_code == 303
    assert check(alice, game_id, {"move": "E-5", "ready": "1"})["ok"] is True
    assert saved(sessions, game_id, "s1") == {"move": "D-4"}
    process(alice, app, clock, game_id)

    # decision
    assert view_of(sessions, game_id, "s1")["phase"] == "decision"
    assert refusal(check(alice, game_id, {"vote": "s1"})) == (
        "You cannot vote for yourself.", "vote")
    assert refusal(check(alice, game_id, {"ready": "1"})) == (
        "Cast a vote before declaring READY.", "ready")
    assert refusal(check(alice, game_id, {"vote": "Nobody"})) == (
        "There is no player or NPC called 'Nobody'.", "vote")
    # no box of her own on the form: the top of the form
    assert refusal(check(alice, game_id, {"kill-s1": "1"})) == (
        "You cannot target yourself.", "")
    assert refusal(check(alice, game_id, {"terminal-action": "HACK"})) == (
        "Only Reds can hack or destroy terminals.", "terminal")
    assert alice.post(ORDERS.format(game_id), {"vote": "NO LYNCH"}).status_code == 303
    assert check(alice, game_id, {"vote": "s2", "ready": "1"})["ok"] is True
    assert saved(sessions, game_id, "s1") == {"vote": "NO LYNCH"}


def test_check_needs_the_seat_and_the_csrf_token(alice: Browser, bob: Browser,
                                                 carol: Browser,
                                                 sessions: sessionmaker[Session]) -> None:
    game_id = infiltration_game(alice, bob)
    url = CHECK.format(game_id)
    assert carol.post(url, {"class": "Hacker"}).status_code == 404
    assert alice.post(url, {"class": "Hacker"}, token=False).status_code == 403
    assert alice.post(url, {"class": "Hacker", "csrf_token": "forged"},
                      token=False).status_code == 403
    assert saved(sessions, game_id, "s1") is None


def test_check_says_when_the_platform_would_refuse(alice: Browser, bob: Browser,
                                                  clock: FakeClock,
                                                  sessions: sessionmaker[Session]) -> None:
    """``/check`` gives the platform's refusal too: a phase past its deadline is closed,
    whatever the engine would say of the sheet."""
    game_id = infiltration_game(alice, bob)
    with sessions() as db:
        game = db.get(Game, game_id)
        assert game is not None and game.deadline is not None
        deadline = game.deadline
    clock.set(deadline)
    message, place = refusal(check(alice, game_id, {"class": "Hacker"}))
    assert "closed" in message and place == ""
    assert saved(sessions, game_id, "s1") is None


def test_room_fields_are_marked_for_map_picking(alice: Browser, bob: Browser, app: FastAPI,
                                               clock: FakeClock,
                                               sessions: sessionmaker[Session]) -> None:
    """The Decision form marks its room fields (``data-pick``) for the map script; the
    Movement form keeps its move select; both carry the check URL."""
    game_id = infiltration_game(alice, bob)
    for who, seat in ((alice, "s1"), (bob, "s2")):
        assert who.post(ORDERS.format(game_id),
                        class_form(view_of(sessions, game_id, seat))).status_code == 303
    process(alice, app, clock, game_id)
    page = alice.get(PAGE.format(game_id)).text
    assert 'id="inf-move"' in page and f'data-check="/games/{game_id}/check"' in page
    assert 'id="inf-check"' in page
    process(alice, app, clock, game_id)
    view = view_of(sessions, game_id, "s1")
    page = alice.get(PAGE.format(game_id)).text
    keys = view["choices"]["terminal"]["keys"] if view["choices"]["terminal"]["actions"] else []
    for key in ("room", "rooms", "guards"):
        assert (f'data-pick="{key}"' in page) == (key in keys)


# ---------------------------------------------------------------- secrets stay on the host page

PLATFORM_TEMPLATES = Path(pages_seat.__file__).resolve().parent / "templates"
assert PLUGIN.templates is not None
ENV: Environment = make_templates(PLATFORM_TEMPLATES, PLUGIN.templates).env
DEADLINE = datetime(2030, 1, 1, 20, 0, tzinfo=UTC)
#: What ``web.render.render`` adds to every page's context.
RENDER_KEYS = {"user": None, "csrf_token": "t", "now": DEADLINE, "settings": None,
               "mail_page": False}


def seat_context(view: dict[str, Any]) -> dict[str, Any]:
    """The seat page's context for a view no database holds, as
    ``web.pages_seat.seat_context`` builds it: the platform's keys (no channels, no
    saved orders, an empty tally), then the plugin's ``pages.seat`` (the test below keeps
    the two key sets equal)."""
    me = view.get("me") or {}
    seat_id = str(me.get("seat") or "s1")
    awaited = bool(view.get("awaited"))
    game = Game(id=1, game="infiltration", title="Night shift", status="running", entry=3,
                deadline=DEADLINE, awaiting=[seat_id] if awaited else [])
    seat = SeatRow(seat_id=seat_id, name="x")
    facts = SeatFacts(game_id=1, seat_id=seat_id, entry=3, status="running",
                      can_order=awaited, tally={"vote": {}})
    return {"game": game, "seat": seat, "view": view, "facts": facts, "orders": None,
            "can_order": awaited, "refused": None, "entry": 3, "entries": [3, 2, 1, 0],
            "title": "Infiltration", "words": PLUGIN.words, "schedule_text": "",
            "notice": None, "request_key": "k", "nothing_saved": None,
            "against_computer": False, "computer": {}, "tally": facts.tally, "chat": None,
            "order_help": PLUGIN.rules.order_help if PLUGIN.rules is not None else {},
            **PLUGIN.pages.seat(view, facts)}


def seat_html(view: dict[str, Any]) -> str:
    """The seat page's HTML for ``view``: the plugin's seat template, rendered with the
    platform's context."""
    template = ENV.get_template(PLUGIN.template(PLUGIN.pages.seat_template))
    return template.render({**seat_context(view), **RENDER_KEYS})


def test_the_secrecy_context_is_the_platforms(alice: Browser, bob: Browser,
                                              sessions: sessionmaker[Session]) -> None:
    """``seat_context`` above has the very keys of the platform's seat context, and the
    page it renders for a live game's view is the route's page (up to the request's own
    values: CSRF token, request key, the channels' forms)."""
    game_id = infiltration_game(alice, bob)
    request = Request({"type": "http", "method": "GET", "path": f"/games/{game_id}/seat",
                       "query_string": b"", "headers": []})
    with sessions() as db:
        seat = db.scalar(select(SeatRow).where(SeatRow.game_id == game_id,
                                               SeatRow.seat_id == "s1"))
        assert seat is not None
        platform = pages_seat.seat_context(request, db, seat)
    mine = seat_context(platform["view"])
    assert set(mine) == set(platform)
    assert 'id="inf-map"' in seat_html(platform["view"])


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), players=st.integers(6, 12))
def test_seat_page_never_shows_another_seats_team_or_class(seed: int, players: int) -> None:
    """A seat page carries none of the host page's team marks, never ties another
    player's handle to a team or class, and is byte-identical when two other seats swap
    team and class (a Red's when two others swap class), until the game's reveal."""
    game = play(seed, players)
    last = len(game.states) - 1
    for index in sorted({*range(0, last, 5), last}):
        state = game.states[index]
        if state.result is not None:
            continue
        order = [p.seat for p in state.players]
        for viewer in state.players:
            html = seat_html(RULES.view(state, viewer.seat))
            assert "inf-team-" not in html and "inf-host" not in html
            for other in state.players:
                if other is viewer or (viewer.team is Team.RED and other.team is Team.RED):
                    continue
                handle = re.escape(other.handle)
                assert not re.search(rf"{handle}[:(\s]+\(?(green|red|Green|Red)\b", html)
                if other.klass is not None:
                    assert not re.search(rf"{handle}[:(\s]+\(?\w*\s?{other.klass.value}",
                                         html)
            others = [s for s in order if s != viewer.seat]
            a, b = others[index % len(others)], others[(index + 1) % len(others)]
            teams = viewer.team is Team.GREEN
            if not teams and state.player(a).team is not state.player(b).team:
                continue
            twin = swap_secrets(state, a, b, teams=teams)
            assert seat_html(RULES.view(twin, viewer.seat)) == html


# ---------------------------------------------------------------- the players' talk

PUBLIC = "I saw a guard on floor B."
RED = "Reds: meet in the Weapons Lab."
PRIVATE = "Bob, I trust you."
LATER = "Turn 1 words."


def say(who: Browser, game_id: int, channel: str, body: str, **fields: str) -> None:
    response = who.post(f"/games/{game_id}/posts",
                        {"channel": channel, "body": body, "next": PAGE.format(game_id),
                         **fields})
    assert response.status_code == 303, response.text


def host_thread(page: str) -> str:
    """The text of the moderator's public thread (its turns)."""
    start = page.index('id="public-thread-turns"')
    return text_of(page[start:page.index("</div>", start)])


def test_the_moderator_reads_every_channel_and_the_players_only_the_thread(
        alice: Browser, bob: Browser, carol: Browser, app: FastAPI, clock: FakeClock,
        sessions: sessionmaker[Session]) -> None:
    """Carol hosts without a seat; six people play (Agent1 to Agent6), Bob (Agent2) the
    one Red. While the game runs Carol's page has the posts in its thread, the Red
    channel and every private message; once it is over the players read that page too,
    with the thread's posts but neither the Red channel nor anybody's private messages
    (they stay private), while Carol still reads them."""
    others = [visitor(app, name) for name in ("dave", "erin", "fay")]
    players = [alice, bob, *others, visitor(app, "gus")]
    game_id = new_game(carol, players, setup={"reds": ["s2"]}, sessions=sessions)
    say(alice, game_id, "public", PUBLIC)
    say(bob, game_id, "red", RED)
    say(alice, game_id, "private", PRIVATE, to="s2")
    process(carol, app, clock, game_id)  # class selection
    say(bob, game_id, "public", LATER)

    page = carol.get(HOST.format(game_id)).text
    thread = host_thread(page)
    assert f"Agent1: {PUBLIC}" in thread and f"Agent2: {LATER}" in thread
    assert thread.index(f"Agent2: {LATER}") < thread.index("Turn 0"), "newest turn first"
    assert thread.index(f"Agent1: {PUBLIC}") > thread.index("The game begins."), "in turn 0"
    assert RED not in thread and PRIVATE not in thread
    red = page[page.index('id="chat-red"'):]
    assert RED in text_of(red[:red.index("</section>")])
    private = text_of(page[page.index('id="chat-private"'):])
    assert "Agent1 → Agent2" in private and PRIVATE in private
    assert 'name="body"' not in page, "the moderator reads; the page has no post forms"
    past = carol.get(HOST.format(game_id) + "/0").text  # posts made until entry 1 resolved
    assert f"Agent1: {PUBLIC}" in host_thread(past) and LATER not in past
    assert RED in past and PRIVATE in past

    for who in players:  # the end: everybody votes NO REDS LEFT (L2)
        assert who.post(ORDERS.format(game_id), {"move": ""}).status_code == 303
    process(carol, app, clock, game_id)  # movement
    for who in players:
        assert who.post(ORDERS.format(game_id),
                        {"vote": "NO REDS LEFT", "ready": "1"}).status_code == 303
    process(carol, app, clock, game_id)
    assert status_of(sessions, game_id) == "over"
    for who in players:
        for url in (HOST.format(game_id), HOST.format(game_id) + "/0"):
            page = who.get(url).text
            assert f"Agent1: {PUBLIC}" in host_thread(page)
            assert RED not in page and PRIVATE not in page
            assert 'id="chat-red"' not in page and 'id="chat-private"' not in page
    page = carol.get(HOST.format(game_id)).text
    assert RED in page and PRIVATE in page and f"Agent1: {PUBLIC}" in host_thread(page)
    # the seat pages are as before: the Red channel for Bob alone, a private message for
    # its two ends
    assert RED in bob.get(PAGE.format(game_id)).text
    assert RED not in alice.get(PAGE.format(game_id)).text
    assert PRIVATE not in others[0].get(PAGE.format(game_id)).text
