"""Infiltration's page routes (``games/infiltration/web.py``) through the real application.

A six-seat game (Alice s1, Bob s2, four bots): the facility map, the phase's order form, a
refused sheet that saves nothing and shows the engine's words, a whole round, the public vote
tally (the declared-public ``vote`` field only). Only the seat's holder reads or acts; every
write needs the session's CSRF token.
"""

from __future__ import annotations

import html
import re
from typing import Any

from fastapi import FastAPI
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.clock import FakeClock
from spyhouse.games.infiltration import web
from spyhouse.service import play
from spyhouse.store.tables import Game, OrderDraft, SeatRow
from tests.web.helpers import Browser, run_worker, visitor
from tests.web.helpers import saved_orders as saved

PAGE = "/infiltration/games/{}"




















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


def test_platform_seat_and_report_pages_lead_here(alice: Browser, bob: Browser) -> None:
    game_id = infiltration_game(alice, bob)
    seat = alice.get(f"/games/{game_id}/seat")
    assert seat.status_code == 200 and f'url=/infiltration/games/{game_id}"' in seat.text
    report = alice.get(f"/games/{game_id}/report")
    assert report.status_code == 200
    assert f"url=/infiltration/games/{game_id}/report/0" in report.text
    past = alice.get(PAGE.format(game_id) + "/report/0")
    assert past.status_code == 200 and 'id="inf-map"' in past.text


def test_only_the_seat_holder_reads_or_acts(alice: Browser, bob: Browser, carol: Browser,
                                           app: FastAPI) -> None:
    game_id = infiltration_game(alice, bob)
    base = PAGE.format(game_id)
    assert carol.get(base).status_code == 404
    assert carol.get(base + "/report/0").status_code == 404
    assert carol.post(base + "/orders", {"class": "Hacker"}).status_code == 404
    response = visitor(app).get(base)
    assert response.status_code == 303 and response.headers["location"].startswith("/login")
    assert alice.get(PAGE.format(game_id + 99)).status_code == 404


def test_another_games_seat_has_no_infiltration_page(alice: Browser) -> None:
    game_id = alice.create_game()  # Spy vs Spy
    alice.join(game_id, "Alpha Brotherhood")
    assert alice.get(PAGE.format(game_id)).status_code == 404


def test_csrf_refused_and_nothing_saved(alice: Browser, bob: Browser,
                                        sessions: sessionmaker[Session]) -> None:
    game_id = infiltration_game(alice, bob)
    base = PAGE.format(game_id) + "/orders"
    assert alice.post(base, {"class": "Hacker"}, token=False).status_code == 403
    assert alice.post(base, {"class": "Hacker", "csrf_token": "forged"},
                      token=False).status_code == 403
    assert saved(sessions, game_id, "s1") is None


def test_class_saved_then_refusal_saves_nothing(alice: Browser, bob: Browser,
                                                sessions: sessionmaker[Session]) -> None:
    game_id = infiltration_game(alice, bob)
    base = PAGE.format(game_id)
    view = view_of(sessions, game_id, "s1")
    response = alice.post(base + "/orders", class_form(view))
    assert response.status_code == 303
    assert "notice=saved" in response.headers["location"]
    first = saved(sessions, game_id, "s1")
    assert first == class_form(view)
    refused = alice.post(base + "/orders", {"class": "Wizard"})
    assert refused.status_code == 422
    message = ("Reds are always Warriors; there is nothing to choose."
               if not view["choices"]["classes"] else "Wizard is not available in this game.")
    assert message in text_of(refused.text)
    assert "Nothing was saved" in refused.text
    assert saved(sessions, game_id, "s1") == first


def _to_decision(alice: Browser, bob: Browser, app: FastAPI, clock: FakeClock,
                 sessions: sessionmaker[Session], game_id: int) -> None:
    base = PAGE.format(game_id)
    for who, seat in ((alice, "s1"), (bob, "s2")):
        assert who.post(PAGE.format(game_id) + "/orders",
                        class_form(view_of(sessions, game_id, seat))).status_code == 303
    process(alice, app, clock, game_id)
    assert view_of(sessions, game_id, "s1")["phase"] == "movement"
    page = alice.get(base).text
    assert 'id="inf-move"' in page and "Movement phase" in page
    assert alice.post(base + "/orders", {"move": "Z-9"}).status_code == 422
    assert saved(sessions, game_id, "s1") is None
    assert alice.post(base + "/orders", {"move": "D-4", "ready": "1"}).status_code == 303
    assert saved(sessions, game_id, "s1") == {"move": "D-4", "ready": True}
    process(alice, app, clock, game_id)
    assert view_of(sessions, game_id, "s1")["phase"] == "decision"


def test_a_round_and_the_public_vote_tally(alice: Browser, bob: Browser, app: FastAPI,
                                           clock: FakeClock,
                                           sessions: sessionmaker[Session]) -> None:
    game_id = infiltration_game(alice, bob)
    base = PAGE.format(game_id)
    _to_decision(alice, bob, app, clock, sessions, game_id)
    view = view_of(sessions, game_id, "s1")
    assert view["me"]["room"] == "D-4"
    page = alice.get(base).text
    assert 'name="vote"' in page and "Decision phase" in page
    assert 'id="room-D-4" data-room="D-4" class="inf-room inf-seen inf-here' in page
    # a refused decision: voting for oneself saves nothing
    refused = alice.post(base + "/orders", {"vote": "s1"})
    assert refused.status_code == 422
    assert "You cannot vote for yourself." in text_of(refused.text)
    assert saved(sessions, game_id, "s1") is None
    # Bob votes with a secret terminal/kill choice: only his vote is public
    assert bob.post(base + "/orders", {"vote": "s1"}).status_code == 303
    assert alice.post(base + "/orders", {"vote": "NO LYNCH", "ready": "1"}).status_code == 303
    assert saved(sessions, game_id, "s1") == {"vote": "NO LYNCH", "ready": True}
    page = text_of(alice.get(base).text)
    assert "Bob → Alice" in page and "Alice → NO LYNCH" in page
    process(alice, app, clock, game_id)
    after = view_of(sessions, game_id, "s1")
    assert after["phase"] == "movement" and after["turn"] == 2
    page = text_of(alice.get(base).text)
    assert "Totals:" in page  # the votes of turn 1 in the public thread


def test_tally_reads_only_the_vote_field(alice: Browser, bob: Browser, app: FastAPI,
                                        sessions: sessionmaker[Session]) -> None:
    game_id = infiltration_game(alice, bob)
    with sessions() as db:
        game = db.get(Game, game_id)
        assert game is not None
        view = {"players": [{"seat": "s1", "handle": "Alice"}, {"seat": "s2", "handle": "Bob"}]}
        db.add(OrderDraft(game_id=game_id, seat_id="s2", entry=game.entry + 1,
                          data={"vote": "s1", "kill": ["s1"], "terminal": {"action": "HACK"}},
                          ready=False, updated_at=game.created_at))
        db.flush()
        tally = web.vote_tally(db, game, view)
        db.rollback()
    assert tally == {"rows": [{"voter": "Bob", "target": "Alice"}], "totals": [("Alice", 1)]}


def test_sheet_from_fields_builds_the_phase_json() -> None:
    view = {"phase": "decision", "choices": {"terminal": {"keys": ["rooms"]}}}
    sheet = web.sheet_from_fields(view, {
        "vote": "s2", "kill-s3": "1", "kill-Guard-A": "1", "terminal-action": "USE",
        "terminal-rooms": "A-1, B-2", "ready": "1"})
    assert sheet == {"ready": True, "vote": "s2", "kill": ["s3", "Guard-A"],
                     "terminal": {"action": "USE", "rooms": ["A-1", "B-2"]}}
    guards = web.sheet_from_fields(
        {"phase": "decision", "choices": {"terminal": {"keys": ["guards"]}}},
        {"terminal-action": "USE", "terminal-guards": "Guard-A B-3, Guard-C D-1"})
    assert guards == {"terminal": {"action": "USE",
                                   "guards": {"Guard-A": "B-3", "Guard-C": "D-1"}}}
    assert web.sheet_from_fields({"phase": "movement"}, {"move": "C-2", "code": ""}) == {
        "move": "C-2"}
    assert web.sheet_from_fields({"phase": "class"}, {"class": ""}) == {}


def test_quick_pace_option(alice: Browser, bob: Browser,
                           sessions: sessionmaker[Session]) -> None:
    game_id = infiltration_game(alice, bob, pace="fast")
    assert view_of(sessions, game_id, "s1")["options"]["pace"] == "fast"
