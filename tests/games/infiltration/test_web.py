"""Infiltration's pages on the platform's seat routes (``web/pages_seat.py`` with the
plugin's ``games/infiltration/pages.py``), through the real application.

A six-seat game (Alice s1, Bob s2, four bots): the facility map, the phase's order form, a
refused sheet that saves nothing and shows the engine's words beside its row, a whole
round, the public vote tally (the service's count of the declared-public ``vote`` field
only), the phase's live countdown. Only the seat's holder reads or acts; every write needs
the session's CSRF token.
"""

from __future__ import annotations

import html
import re
from typing import Any

from fastapi import FastAPI
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.clock import FakeClock
from spyhouse.core.plugin import Refusal, SeatFacts
from spyhouse.games.infiltration import pages
from spyhouse.service import play, records
from spyhouse.store.tables import Game, OrderDraft, SeatRow
from tests.web.helpers import Browser, refused_page, run_worker, visitor
from tests.web.helpers import saved_orders as saved
from tests.web.test_api import api, make_token

BASE = "/games/{}"
PAGE = BASE + "/seat"
ORDERS = BASE + "/orders"
REPORT = BASE + "/report"


def infiltration_game(host: Browser, guest: Browser, pace: str = "forum") -> int:
    """A running game: host Alice (s1), guest Bob (s2), four bots (s3–s6)."""
    response = host.post("/games", {
        "game": "infiltration", "title": "Night shift", "max_seats": "",
        "option-pace": pace, "schedule": "interval", "interval_hours": "48",
        "weekday": "Wednesday", "time": "20:00", "zone": "Pacific/Auckland"})
    assert response.status_code == 303, response.text
    match = re.match(r"/games/(\d+)", response.headers["location"])
    assert match
    game_id = int(match.group(1))
    assert host.join(game_id, "Alice").status_code == 303
    assert guest.join(game_id, "Bob").status_code == 303
    for strategy in ("operative", "vigilante", "operative", "vigilante"):
        assert host.add_bot(game_id, strategy).status_code == 303
    assert host.start(game_id).status_code == 303
    return game_id


def seat_of(sessions: sessionmaker[Session], game_id: int, seat_id: str) -> SeatRow:
    with sessions() as db:
        seat = db.scalar(select(SeatRow).where(SeatRow.game_id == game_id,
                                               SeatRow.seat_id == seat_id))
        assert seat is not None
        db.expunge(seat)
        return seat


def view_of(sessions: sessionmaker[Session], game_id: int, seat_id: str) -> dict[str, Any]:
    with sessions() as db:
        seat = db.scalar(select(SeatRow).where(SeatRow.game_id == game_id,
                                               SeatRow.seat_id == seat_id))
        assert seat is not None
        return play.current_view(db, seat)


def text_of(page: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", page))


def place_html(page: str, key: str) -> str:
    """The HTML of the form's element ``data-place=key`` (up to its messages' end)."""
    start = page.index(f'data-place="{key}"')
    return page[start:page.index("</span></", start) + 7]


def process(host: Browser, app: FastAPI, clock: FakeClock, game_id: int) -> None:
    assert host.post(f"/games/{game_id}/process").status_code == 303
    run_worker(app, clock)


def class_form(view: dict[str, Any]) -> dict[str, str]:
    classes = view["choices"]["classes"]
    return {"class": classes[-1]} if classes else {}


def test_page_shows_map_phase_and_class_form(alice: Browser, bob: Browser,
                                            sessions: sessionmaker[Session]) -> None:
    game_id = infiltration_game(alice, bob)
    page = alice.get(PAGE.format(game_id))
    assert page.status_code == 200
    text = page.text
    view = view_of(sessions, game_id, "s1")
    assert 'id="inf-map"' in text and 'data-room="A-1"' in text and 'data-room="H-8"' in text
    here = view["me"]["room"]
    assert f'id="room-{here}" data-room="{here}" class="inf-room inf-seen inf-here' in text
    assert "Class selection" in text and "/static/infiltration/infiltration.js" in text
    if view["choices"]["classes"]:
        assert 'name="class" value="Hacker"' in text
    else:
        assert "Reds are always Warriors" in text
    assert "You are " in text_of(text)  # the private log's first line
    assert "The game begins." in text_of(text)
    assert f'action="/games/{game_id}/orders"' in text
    assert f'data-check="/games/{game_id}/check"' in text
    assert "closes at its deadline only" in text_of(text), "forum pace: no early close"


def test_the_header_says_each_fact_as_its_own_sentence(alice: Browser, bob: Browser,
                                                      sessions: sessionmaker[Session]) -> None:
    """The seat's facts once ran together ("The Reds: newbie.Reds at the start: 1.")."""
    game_id = infiltration_game(alice, bob)
    for seat, who in (("s1", alice), ("s2", bob)):
        status = re.search(r'<p class="inf-sub" id="inf-status">(.*?)</p>',
                           who.get(PAGE.format(game_id)).text, re.S)
        assert status
        words = " ".join(text_of(status.group(1)).split())
        assert re.search(r"\.\S", words) is None, words
        view = view_of(sessions, game_id, seat)
        if view["red_count"] is not None:
            assert f"Reds at the start: {view['red_count']}." in words
        if view["me"]["reds"]:
            assert re.search(r"The Reds: [^.]+\. Reds at the start", words), words


def test_seat_and_report_pages_are_the_facility(alice: Browser, bob: Browser) -> None:
    game_id = infiltration_game(alice, bob)
    seat = alice.get(PAGE.format(game_id))
    assert seat.status_code == 200 and 'id="inf-form"' in seat.text
    report = alice.get(REPORT.format(game_id))
    assert report.status_code == 200 and 'id="inf-map"' in report.text
    past = alice.get(REPORT.format(game_id) + "/0")
    assert past.status_code == 200 and 'id="inf-map"' in past.text
    assert 'id="inf-form"' not in past.text
    assert f'href="/games/{game_id}/seat"' in past.text


def test_only_the_seat_holder_reads_or_acts(alice: Browser, bob: Browser, carol: Browser,
                                           app: FastAPI) -> None:
    game_id = infiltration_game(alice, bob)
    assert carol.get(PAGE.format(game_id)).status_code == 404
    assert carol.get(REPORT.format(game_id) + "/0").status_code == 404
    assert carol.post(ORDERS.format(game_id), {"class": "Hacker"}).status_code == 404
    response = visitor(app).get(PAGE.format(game_id))
    assert response.status_code == 303 and response.headers["location"].startswith("/login")
    assert alice.get(PAGE.format(game_id + 99)).status_code == 404


def test_another_games_seat_page_is_its_own(alice: Browser, bob: Browser) -> None:
    """The seat route is the platform's for every game: another game's seat page is
    that game's, never the facility."""
    game_id = alice.create_game()  # Spy vs Spy
    assert alice.join(game_id, "Alpha Brotherhood").status_code == 303
    assert bob.join(game_id, "Bravo Brotherhood").status_code == 303
    assert alice.start(game_id).status_code == 303
    page = alice.get(PAGE.format(game_id))
    assert page.status_code == 200 and 'id="inf-map"' not in page.text


def test_csrf_refused_and_nothing_saved(alice: Browser, bob: Browser,
                                        sessions: sessionmaker[Session]) -> None:
    game_id = infiltration_game(alice, bob)
    url = ORDERS.format(game_id)
    assert alice.post(url, {"class": "Hacker"}, token=False).status_code == 403
    assert alice.post(url, {"class": "Hacker", "csrf_token": "forged"},
                      token=False).status_code == 403
    assert saved(sessions, game_id, "s1") is None


def test_class_saved_then_refusal_saves_nothing(alice: Browser, bob: Browser,
                                                sessions: sessionmaker[Session]) -> None:
    game_id = infiltration_game(alice, bob)
    view = view_of(sessions, game_id, "s1")
    response = alice.post(ORDERS.format(game_id), class_form(view))
    assert response.status_code == 303
    assert "notice=saved" in response.headers["location"]
    first = saved(sessions, game_id, "s1")
    assert first == class_form(view)
    refused = refused_page(alice, alice.post(ORDERS.format(game_id), {"class": "Wizard"}))
    message = ("Reds are always Warriors; there is nothing to choose."
               if not view["choices"]["classes"] else "Wizard is not available in this game.")
    assert message in text_of(refused.text)
    assert message in text_of(place_html(refused.text, "class")), "beside its row"
    assert "Nothing was saved: your previous orders stay in force." in refused.text
    assert saved(sessions, game_id, "s1") == first


def _open_room(sessions: sessionmaker[Session], game_id: int) -> str:
    """D-4, or D-5 where the facility (random per game) put the GHOST room at D-4: a move
    into it fails while its outer door is locked (spec §5.1 step 6)."""
    with sessions() as db:
        rooms = records.snapshot(db, game_id, 0, records.HOST_KEY)["rooms"]
    ghost = {row["room"] for row in rooms if row["feature"] == "GHOST room"}
    return "D-5" if "D-4" in ghost else "D-4"


def _to_decision(alice: Browser, bob: Browser, app: FastAPI, clock: FakeClock,
                 sessions: sessionmaker[Session], game_id: int) -> str:
    """The game through its class and movement phases, Alice moving to an open room
    (returned)."""
    for who, seat in ((alice, "s1"), (bob, "s2")):
        assert who.post(ORDERS.format(game_id),
                        class_form(view_of(sessions, game_id, seat))).status_code == 303
    process(alice, app, clock, game_id)
    assert view_of(sessions, game_id, "s1")["phase"] == "movement"
    page = alice.get(PAGE.format(game_id)).text
    assert 'id="inf-move"' in page and "Movement phase" in page
    refused = refused_page(alice, alice.post(ORDERS.format(game_id), {"move": "Z-9"}))
    assert "'Z-9' is not a room." in text_of(place_html(refused.text, "move"))
    assert 'value="Z-9" selected' not in refused.text  # not a choice, but nothing breaks
    assert saved(sessions, game_id, "s1") is None
    room = _open_room(sessions, game_id)
    saved_move = alice.post(ORDERS.format(game_id), {"move": room, "ready": "1"})
    assert saved_move.status_code == 303 and "notice=ready" in saved_move.headers["location"]
    assert saved(sessions, game_id, "s1") == {"move": room, "ready": True}
    process(alice, app, clock, game_id)
    assert view_of(sessions, game_id, "s1")["phase"] == "decision"
    return room


def test_a_round_and_the_public_vote_tally(alice: Browser, bob: Browser, app: FastAPI,
                                           clock: FakeClock,
                                           sessions: sessionmaker[Session]) -> None:
    game_id = infiltration_game(alice, bob)
    room = _to_decision(alice, bob, app, clock, sessions, game_id)
    view = view_of(sessions, game_id, "s1")
    assert view["me"]["room"] == room
    page = alice.get(PAGE.format(game_id)).text
    assert 'name="vote"' in page and "Decision phase" in page
    assert f'id="room-{room}" data-room="{room}" class="inf-room inf-seen inf-here' in page
    # a refused decision: voting for oneself saves nothing
    refused = refused_page(alice, alice.post(ORDERS.format(game_id), {"vote": "s1"}))
    assert "You cannot vote for yourself." in text_of(place_html(refused.text, "vote"))
    assert saved(sessions, game_id, "s1") is None
    # Bob votes: only his vote is public
    assert bob.post(ORDERS.format(game_id), {"vote": "s1"}).status_code == 303
    assert alice.post(ORDERS.format(game_id),
                      {"vote": "NO LYNCH", "ready": "1"}).status_code == 303
    assert saved(sessions, game_id, "s1") == {"vote": "NO LYNCH", "ready": True}
    page = text_of(alice.get(PAGE.format(game_id)).text)
    assert "Bob → Alice" in page and "Alice → NO LYNCH" in page
    # the API gives the same tally, counted by the service (issue 10)
    token = make_token(alice, game_id)
    answer = api(app, token).get(f"/api/v1/games/{game_id}").json()
    votes = answer["tally"]["vote"]  # the computer players' votes are in it too
    assert votes["s1"] == "NO LYNCH" and votes["s2"] == "s1" and set(answer["tally"]) == {"vote"}
    process(alice, app, clock, game_id)
    after = view_of(sessions, game_id, "s1")
    assert after["phase"] == "movement" and after["turn"] == 2
    page = text_of(alice.get(PAGE.format(game_id)).text)
    assert "Totals:" in page  # the votes of turn 1 in the public thread
    assert "Votes so far" not in page


def test_tally_reads_only_the_vote_field(alice: Browser, bob: Browser,
                                        sessions: sessionmaker[Session]) -> None:
    """The service counts only the declared-public ``vote`` field of each accepted sheet;
    the page names its rows from the view."""
    game_id = infiltration_game(alice, bob)
    with sessions() as db:
        game = db.get(Game, game_id)
        assert game is not None
        db.add(OrderDraft(game_id=game_id, seat_id="s2", entry=game.entry + 1,
                          data={"vote": "s1", "kill": ["s1"], "terminal": {"action": "HACK"}},
                          ready=False, updated_at=game.created_at))
        db.flush()
        counted = play.public_tally(db, game)
        db.rollback()
    assert counted == {"vote": {"s2": "s1"}}
    view = {"players": [{"seat": "s1", "handle": "Alice"}, {"seat": "s2", "handle": "Bob"}]}
    assert pages.vote_tally(view, counted["vote"]) == {
        "rows": [{"voter": "Bob", "target": "Alice"}], "totals": [("Alice", 1)]}


def test_sheet_from_fields_builds_the_phase_json() -> None:
    view = {"phase": "decision", "choices": {"terminal": {"keys": ["rooms"]}}}
    sheet = pages.sheet_from_fields(view, {
        "vote": "s2", "kill-s3": "1", "kill-Guard-A": "1", "terminal-action": "USE",
        "terminal-rooms": "A-1, B-2", "ready": "1"})
    assert sheet == {"ready": True, "vote": "s2", "kill": ["s3", "Guard-A"],
                     "terminal": {"action": "USE", "rooms": ["A-1", "B-2"]}}
    guards = pages.sheet_from_fields(
        {"phase": "decision", "choices": {"terminal": {"keys": ["guards"]}}},
        {"terminal-action": "USE", "terminal-guards": "Guard-A B-3, Guard-C D-1"})
    assert guards == {"terminal": {"action": "USE",
                                   "guards": {"Guard-A": "B-3", "Guard-C": "D-1"}}}
    assert pages.sheet_from_fields({"phase": "movement"}, {"move": "C-2", "code": ""}) == {
        "move": "C-2"}
    assert pages.sheet_from_fields({"phase": "class"}, {"class": ""}) == {}


DECISION = {"phase": "decision", "me": {"seat": "s1"},
            "players": [{"seat": "s1", "handle": "Alice"}, {"seat": "s2", "handle": "Bob"},
                        {"seat": "s3", "handle": "Cy"}],
            "choices": {"vote": ["s2", "s3"], "kill": ["s2", "Guard-B"],
                        "terminal": {"type": "History", "actions": ["USE"], "keys": ["room"]}}}


def test_messages_find_their_place_on_the_form() -> None:
    """The engine's words go beside the row they are about; an attack target's beside
    its own box; the platform's refusals and anything else to the top of the form."""
    place = InfiltrationPlaces()
    assert place("You cannot vote for yourself.") == "vote"
    assert place("Cast a vote before declaring READY.") == "ready"
    assert place("Bob is not in your room.") == "kill-s2"
    assert place("Guard-B is dead.") == "kill-Guard-B"
    assert place("Cy is dead. Vote for a living player, NO LYNCH or NO REDS LEFT.") == "vote"
    assert place("There is no player or NPC called 'Nobody'.", vote="Nobody") == "vote"
    assert place("'Z-9' is not a room. Rooms are A-1 to H-8.") == "terminal"
    assert place("Only Reds can hack or destroy terminals.") == "terminal"
    assert place("You cannot target yourself.") == "", "no box for oneself: the top"
    assert place("this turn is closed") == ""
    movement = {"phase": "movement", "players": DECISION["players"]}
    assert pages.InfiltrationPages().place(movement, {"move": "Z-9"}, [
        "'Z-9' is not a room. Rooms are A-1 to H-8."]) == {
        "move": ["'Z-9' is not a room. Rooms are A-1 to H-8."]}
    assert pages.InfiltrationPages().place(movement, {}, [
        "A door code is exactly four digits (0000–9999)."]) == {
        "code": ["A door code is exactly four digits (0000–9999)."]}
    assert pages.InfiltrationPages().place({"phase": "class"}, {}, [
        "Reds are always Warriors; there is nothing to choose."]) == {
        "class": ["Reds are always Warriors; there is nothing to choose."]}


class InfiltrationPlaces:
    """``pages.place`` of one message on the Decision form ``DECISION``."""

    def __call__(self, message: str, **fields: str) -> str:
        places = pages.InfiltrationPages().place(DECISION, fields, [message])
        assert list(places.values()) == [[message]]
        return next(iter(places))


def test_a_refused_sheet_is_shown_as_sent_with_its_messages_beside_it() -> None:
    facts = SeatFacts(game_id=1, seat_id="s1", entry=3, status="running", can_order=True,
                      orders={"vote": "s3"},
                      refused=Refusal({"vote": "s2", "kill-s2": "1"},
                                      {"vote": "s2", "kill": ["s2"]},
                                      ("Bob is not in your room.",)))
    context = pages.InfiltrationPages().seat(DECISION, facts)
    assert context["values"]["vote"] == "s2" and context["values"]["kill"] == ["s2"]
    assert context["places"] == {"kill-s2": ["Bob is not in your room."]}
    saved_only = pages.InfiltrationPages().seat(DECISION, SeatFacts(
        game_id=1, seat_id="s1", entry=3, status="running", can_order=True,
        orders={"vote": "s3"}, tally={"vote": {"s2": "s1", "s3": "NO LYNCH"}}))
    assert saved_only["values"]["vote"] == "s3" and saved_only["places"] == {}
    assert saved_only["vote_tally"]["rows"] == [{"voter": "Bob", "target": "Alice"},
                                                {"voter": "Cy", "target": "NO LYNCH"}]


def test_quick_pace_shows_a_running_countdown(alice: Browser, bob: Browser,
                                             sessions: sessionmaker[Session]) -> None:
    """A fast phase lasts minutes: the page carries the live countdown and says the
    phase closes early once everyone is ready."""
    game_id = infiltration_game(alice, bob, pace="fast")
    assert view_of(sessions, game_id, "s1")["options"]["pace"] == "fast"
    page = alice.get(PAGE.format(game_id)).text
    assert re.search(r'class="countdown" data-deadline="[^"]+"', page)
    assert "as soon as every player has saved a class order" in page


def test_the_public_table_and_the_result() -> None:
    view = {"players": [{"seat": "s1", "handle": "Alice", "alive": True, "phantoms": 0},
                        {"seat": "s2", "handle": "Bob", "alive": False, "phantoms": 1}],
            "result": None}
    plugin_pages = pages.InfiltrationPages()
    table = plugin_pages.public(view, {})
    assert table is not None and table.rows == (("Alice", "alive", ""), ("Bob", "dead", 1))
    assert plugin_pages.result(view, {}) is None
    over = {**view, "result": {
        "result": "greens", "reason": "no_reds_left_vote", "turn": 3, "winners": ["s1"],
        "reveal": {"seats": [
            {"seat": "s1", "handle": "Alice", "team": "green", "class": "Hacker", "alive": True},
            {"seat": "s2", "handle": "Bob", "team": "red", "class": "Warrior",
             "alive": False}]}}}
    result = plugin_pages.result(over, {})
    assert result is not None
    assert result.line == ("The Greens win. Game over on turn 3: the players voted NO REDS "
                           "LEFT.")
    assert result.standings is not None and result.standings.rows == (
        ("Alice", "Green", "Hacker", "alive", "winner"), ("Bob", "Red", "Warrior", "dead", ""))


def test_against_the_computer_final_orders_play_the_phase_and_drafts_do_not(
        alice: Browser, sessions: sessionmaker[Session]) -> None:
    """The one-click game (quick pace, phases close early once everyone is READY): a
    class order counts once saved and the phase is played in the request; a Movement
    draft waits (the page offers "Play the phase now"); READY plays it at once."""
    response = alice.post("/games/quick", {"game": "infiltration"})
    assert response.status_code == 303
    game_id = int(response.headers["location"].split("/")[2])
    page = alice.get(PAGE.format(game_id)).text
    assert 'name="ready" value="1"' in page, "the class form's order counts once saved"
    view = view_of(sessions, game_id, "s1")
    played = alice.post(ORDERS.format(game_id), {**class_form(view), "ready": "1"})
    assert played.status_code == 303 and "notice=played" in played.headers["location"]
    assert view_of(sessions, game_id, "s1")["phase"] == "movement"
    draft = alice.post(ORDERS.format(game_id), {"move": "D-4"})
    assert "notice=saved" in draft.headers["location"]
    assert view_of(sessions, game_id, "s1")["phase"] == "movement", "a draft is a draft"
    page = alice.get(PAGE.format(game_id)).text
    assert f'action="/games/{game_id}/play"' in page and "(a draft)" in page
    now = alice.post(f"/games/{game_id}/play")
    assert now.status_code == 303 and "notice=played" in now.headers["location"]
    assert view_of(sessions, game_id, "s1")["phase"] == "decision"
