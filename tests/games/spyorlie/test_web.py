"""Spy or Lie's board through the real application, on the platform's routes.

The board is the seat page (``/games/{id}/seat``, ``games/spyorlie/pages.py`` and
``board.html``); its script talks to the platform: ``/state``, ``/orders`` (the move as
the field ``move``, final at once), ``/computer`` (the difficulty) and ``/rematch`` (NEW
OPERATION). A person starts a game against the computer with one click on the
platform's quick page (``/play/spyorlie``, ``POST /games/quick``), plays moves (the
computer answers within the same request, its record move carrying the ``ai`` note),
switches the difficulty (from the computer's next turn, D37), is shown the rules' own DF9
message for an illegal move, and starts a new operation. Only the seat's holder reads or
acts; every write needs the session's CSRF token; the page data holds only the seat's own
view. Two people can play each other through the lobby on the same page. Once over,
every page of the game answers, and every face is shown.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.clock import FakeClock
from spyhouse.core import bots as bot_registry
from spyhouse.core.errors import OptionsError
from spyhouse.games.spyorlie import pages
from spyhouse.games.spyorlie.board import MAX_RADIUS, MIN_RADIUS
from spyhouse.games.spyorlie.plugin import PLUGIN
from spyhouse.service import games
from spyhouse.service import play as play_service
from spyhouse.store.tables import Game
from tests.web.helpers import Browser, visitor

BOARD = "/games/{}/seat"
GAME = "/games/{}"
JSON = {"Accept": "application/json"}
CENTRE_SPY = {"face": "S", "cell": [0, 0], "orientation": 0, "mode": "PLAIN", "target": None}


# ---------------------------------------------------------------- helpers


def start_operation(browser: Browser, *, radius: int = 2,
                    difficulty: str = "operative") -> int:
    """The quick page's form: the game, the computer's difficulty, the board's radius."""
    response = browser.post("/games/quick", {"game": "spyorlie", "strategy": difficulty,
                                             "option-radius": str(radius)})
    assert response.status_code == 303, response.text
    match = re.fullmatch(r"/games/(\d+)/seat(\?.*)?", response.headers["location"])
    assert match, response.headers["location"]
    return int(match.group(1))


def page_state(browser: Browser, game_id: int) -> dict[str, Any]:
    response = browser.get(GAME.format(game_id) + "/state")
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()["state"]
    return data


def play(browser: Browser, game_id: int, move: Any, *, entry: int | None = None,
         csrf: bool = True, raw: str | None = None) -> Any:
    """The board's move: the form its script posts (final at once), answered in JSON."""
    form = {"move": raw if raw is not None else json.dumps(move), "ready": "1"}
    if entry is not None:
        form["entry"] = str(entry)
    if csrf:
        form["csrf_token"] = browser.csrf()
    return browser.client.post(GAME.format(game_id) + "/orders", data=form, headers=JSON)


def set_difficulty(browser: Browser, game_id: int, value: str, *,
                   script: bool = True) -> Any:
    """The RED panel's difficulty switch (the platform's ``/computer``, field ``strategy``);
    ``script``: as the board's script posts it (JSON), else the plain form."""
    path = GAME.format(game_id) + "/computer"
    if not script:
        return browser.post(path, {"strategy": value})
    return browser.client.post(path, data={"strategy": value, "csrf_token": browser.csrf()},
                               headers=JSON)


def new_operation(browser: Browser, game_id: int, *, token: bool = True) -> Any:
    """NEW OPERATION confirmed on the board: the platform's rematch."""
    return browser.post(GAME.format(game_id) + "/rematch", token=token)


def record_turns(sessions: sessionmaker[Session], game_id: int) -> list[dict[str, Any]]:
    with sessions() as db:
        return [dict(turn) for turn in games.record_of(db, game_id).turns]


def game_row(sessions: sessionmaker[Session], game_id: int) -> Game:
    with sessions() as db:
        game = games.get_game(db, game_id)
        db.expunge(game)
        return game


def first_legal(state: dict[str, Any], **want: Any) -> dict[str, Any]:
    for move in state["view"]["legal_moves"]:
        if all(move.get(key) == value for key, value in want.items()):
            return dict(move)
    raise AssertionError(f"no legal move with {want}")


# ---------------------------------------------------------------- the desk and one click


def test_the_quick_page_needs_a_log_in(app: FastAPI) -> None:
    response = visitor(app).get("/play/spyorlie")
    assert response.status_code == 303
    assert response.headers["location"].startswith("/login")


def test_lobby_offers_the_game_against_the_computer(alice: Browser) -> None:
    page = alice.get("/lobby").text
    assert 'href="/play/spyorlie"' in page
    assert "Play Spy or Lie against the computer" in page
    quick = alice.get("/play/spyorlie")
    assert quick.status_code == 200
    assert 'name="game" value="spyorlie"' in quick.text
    for key, name in pages.DIFFICULTIES:  # the computer's difficulties, Operative first
        assert f'value="{key}"' in quick.text and name in quick.text
    assert re.search(r'name="strategy" value="operative"\s+checked', quick.text)
    assert 'value="random"' not in quick.text


def test_the_radius_choices_are_the_declared_range(alice: Browser) -> None:
    """One declaration (``plugin.py``: MIN_RADIUS..MAX_RADIUS of ``board.py``) for the
    quick page and the create form alike: the old 2..5 of the desk is gone."""
    declared = [int(value) for value, _ in PLUGIN.options[0].choices]
    assert declared == list(range(MIN_RADIUS, MAX_RADIUS + 1))
    for path in ("/play/spyorlie", "/games/new?game=spyorlie"):
        page = alice.get(path).text
        offered = sorted(int(v) for v in re.findall(r'name="option-radius" value="(\d+)"', page))
        assert offered == declared, path
    assert re.search(r'name="option-radius" value="4"\s+checked', alice.get("/play/spyorlie").text)


def test_new_operation_starts_with_one_click(alice: Browser,
                                             sessions: sessionmaker[Session]) -> None:
    game_id = start_operation(alice, radius=4)
    page = alice.get(BOARD.format(game_id))
    assert page.status_code == 200
    assert f'data-game="{game_id}"' in page.text
    for text in ("FIELD TEST / 05", "YOU ARE BLUE", "ROUND 01", "YOUR MOVE", "SECTOR 05",
                 "BLUE AGENCY", "RED AGENCY", "TERRITORY CAPTURED", "CLASSIFIED",
                 "YOUR HAND", "20 cards remaining", "FIELD MANUAL", "Your first move.",
                 "Choose a card below, then click the center.", "Operative",
                 "/static/spyorlie/board.js", "/static/spyorlie/board.css"):
        assert text in page.text, text
    state = page_state(alice, game_id)
    view = state["view"]
    assert view["colour"] == "BLUE" and view["awaiting"] == "s1" and view["radius"] == 4
    assert {tuple(m["cell"]) for m in view["legal_moves"]} == {(0, 0)}  # UI-06
    assert state["computer"] == {"s2": {"difficulty": "operative", "next": "operative"}}
    game = game_row(sessions, game_id)
    assert game.status == "running" and game.schedule == "all_submitted"
    assert game.options == {"radius": 4, "blue": "s1", "computer": {"s2": "operative"}}


def test_static_files_are_served(alice: Browser) -> None:
    for name in ("board.js", "board.css"):
        assert alice.get(f"/static/spyorlie/{name}").status_code == 200


def test_the_game_and_report_pages_lead_to_the_board(alice: Browser) -> None:
    game_id = start_operation(alice)
    game = alice.get(f"/games/{game_id}")
    assert game.status_code == 200
    assert f'href="/games/{game_id}/seat"' in game.text
    report = alice.get(f"/games/{game_id}/report")
    assert report.status_code == 200
    assert f'href="/games/{game_id}/seat"' in report.text  # the live board
    assert "OPERATION REPORT" in report.text and "No move yet." in report.text
    assert play(alice, game_id, CENTRE_SPY).status_code == 200
    after = alice.get(f"/games/{game_id}/report").text
    assert "BLUE places a Spy at [0, 0]." in after and 'data-key="0,0"' in after
    first = alice.get(f"/games/{game_id}/report/1").text
    assert "BLUE places a Spy at [0, 0]." in first and "RED places" not in first


# ---------------------------------------------------------------- playing


def test_a_move_gets_the_computer_reply_at_once(alice: Browser,
                                                sessions: sessionmaker[Session]) -> None:
    game_id = start_operation(alice)
    response = play(alice, game_id, CENTRE_SPY, entry=1)
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["ok"] is True
    state = body["state"]
    view = state["view"]
    assert state["game"]["entry"] == 2  # the move and the reply, without the worker
    assert view["awaiting"] == "s1" and view["ply"] == 2
    assert [entry["colour"] for entry in view["log"]] == ["BLUE", "RED"]
    kinds = [line["type"] for line in state["lines"]]
    # the person's placement, then the computer's (its seed is fresh each game, so its
    # placement may go on to accuse and flip: events of that same reply)
    assert kinds[:2] == ["place", "place"] and "place" not in kinds[2:]
    assert state["lines"][0]["text"] == "BLUE places a Spy at [0, 0]."
    turns = record_turns(sessions, game_id)
    assert turns[0] == {"s1": CENTRE_SPY}
    reply = turns[1]["s2"]
    assert reply["ai"]["difficulty"] == "operative"
    assert isinstance(reply["ai"]["budget_cut"], bool)
    assert "ai" not in view["log"][1]["move"]  # never in a seat view (DF2)


@pytest.mark.postgres
def test_moves_and_replies_on_postgresql(alice: Browser, sessions: sessionmaker[Session]) -> None:
    """The person's share lock on the game row (orders) and the processing's claim of it
    in the same transaction: the reply comes at once on PostgreSQL too."""
    test_a_move_gets_the_computer_reply_at_once(alice, sessions)
    game_id = start_operation(alice)
    assert set_difficulty(alice, game_id, "spymaster", script=False).status_code == 303
    state = play(alice, game_id, CENTRE_SPY).json()["state"]
    assert state["game"]["entry"] == 2 and state["view"]["computer"] == {"s2": "spymaster"}
    assert new_operation(alice, game_id).status_code == 303


def test_the_computer_is_not_rebuilt_every_turn(alice: Browser,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """In an alternating game the computer's last orders are two entries back; the bot
    that gave them is reused instead of a fresh one re-reading every earlier view (which
    grows with the game). A new difficulty gets a new bot once."""
    made: list[str] = []
    original = bot_registry.make_bot

    def counting(game: str, name: str, seat: str, seed: int) -> Any:
        made.append(name)
        return original(game, name, seat, seed)

    monkeypatch.setattr(bot_registry, "make_bot", counting)
    game_id = start_operation(alice, radius=3)
    for _ in range(3):
        move = first_legal(page_state(alice, game_id), mode="PLAIN")
        assert play(alice, game_id, move).status_code == 200
    assert made == ["operative"]
    set_difficulty(alice, game_id, "spymaster")
    for _ in range(2):
        move = first_legal(page_state(alice, game_id), mode="PLAIN")
        assert play(alice, game_id, move).status_code == 200
    assert made == ["operative", "spymaster"]


def test_a_person_cannot_write_the_ai_note(alice: Browser,
                                           sessions: sessionmaker[Session]) -> None:
    game_id = start_operation(alice)
    move = {**CENTRE_SPY, "ai": {"difficulty": "spymaster", "budget_cut": True}}
    assert play(alice, game_id, move).status_code == 200
    assert record_turns(sessions, game_id)[0] == {"s1": CENTRE_SPY}


@pytest.mark.parametrize(("move", "raw", "message"), [
    ({"face": "S", "cell": [1, 0], "orientation": 0, "mode": "PLAIN", "target": None}, None,
     "The first card must be placed in the centre, [0, 0]."),
    ({"face": "X", "cell": [0, 0], "orientation": 0, "mode": "CYBER", "target": [1, 0]}, None,
     "The first card cannot be a Cyber Attack."),
    ({"face": "S", "cell": [0, 0], "orientation": None}, None,
     "Choose orientation 0 or 1 for the first card."),
    ({"pass": True}, None,
     "You cannot pass: a pass is made for you only when you have no legal move."),
    ({"face": "S", "cell": [0, 0], "orientation": 0, "colour": "RED"}, None,
     'Unknown key "colour" in the move.'),
    (None, "not json", "A move must be a JSON object."),
    ([1, 2], None, "A move must be a JSON object."),
])
def test_an_illegal_move_answers_the_rules_message(alice: Browser, move: Any, raw: str | None,
                                                   message: str) -> None:
    game_id = start_operation(alice)
    response = play(alice, game_id, move, raw=raw)
    assert response.status_code == 422, response.text
    body = response.json()
    assert body["ok"] is False
    assert body["error"] == message
    assert body["state"]["game"]["entry"] == 0  # nothing was played
    assert body["state"]["view"]["awaiting"] == "s1"


def test_an_illegal_move_later_in_the_game(alice: Browser) -> None:
    game_id = start_operation(alice)
    state = play(alice, game_id, CENTRE_SPY).json()["state"]
    occupied = state["view"]["cells"][0]["cell"]
    response = play(alice, game_id, {"face": "S", "cell": occupied, "orientation": None,
                                     "mode": "PLAIN", "target": None})
    assert response.status_code == 422
    assert response.json()["error"] == f"Cell [{occupied[0]}, {occupied[1]}] is occupied."
    early = {"face": "X", "cell": [9, 9], "orientation": None, "mode": "CYBER",
             "target": [0, 0]}
    assert play(alice, game_id, early).json()["error"] == (
        "Cyber Attacks are allowed only after both players have taken five turns.")


def test_a_stale_page_cannot_play_a_processed_turn(alice: Browser) -> None:
    game_id = start_operation(alice)
    assert play(alice, game_id, CENTRE_SPY, entry=1).status_code == 200
    state = page_state(alice, game_id)
    move = state["view"]["legal_moves"][0]
    response = play(alice, game_id, move, entry=1)  # the entry of the first move
    assert response.status_code == 409
    assert "closed" in response.json()["error"]
    assert page_state(alice, game_id)["game"]["entry"] == 2


def play_to_the_end(browser: Browser, sessions: sessionmaker[Session]
                    ) -> tuple[int, dict[str, Any]]:
    """A radius-2 game against the random computer, every move one the page offers, to
    the end: the game id and the last page state."""
    game_id = start_operation(browser)
    with sessions() as db:  # a quick opponent for the test
        for seat in games.seats_of(db, game_id):
            if seat.bot:
                seat.bot = "random"
        db.commit()
    state = page_state(browser, game_id)
    moves = 0
    while not state["view"]["over"]:
        assert state["view"]["awaiting"] == "s1"
        move = state["view"]["legal_moves"][moves % len(state["view"]["legal_moves"])]
        response = play(browser, game_id, move, entry=state["game"]["open_entry"])
        assert response.status_code == 200, response.text
        state = response.json()["state"]
        moves += 1
        assert moves <= 20
    return game_id, state


def test_a_whole_game_against_the_random_computer(alice: Browser,
                                                  sessions: sessionmaker[Session]) -> None:
    """Every move the page offers is accepted, to the end (radius 2)."""
    game_id, state = play_to_the_end(alice, sessions)
    view = state["view"]
    assert view["result"] in ("BLUE_WIN", "RED_WIN", "DRAW")
    assert view["legal_moves"] == [] and view["awaiting"] is None
    assert state["lines"][-1]["type"] == "end"
    assert state["lines"][-1]["text"].startswith("Operation complete: BLUE ")
    assert game_row(sessions, game_id).status == "over"
    assert play(alice, game_id, CENTRE_SPY).status_code == 409


def test_a_finished_game_shows_every_page_and_every_face(
        alice: Browser, sessions: sessionmaker[Session]) -> None:
    """Once over, the game page (once a 500), the board and the report answer; the board
    links to the host page, which the platform opens to the players now, and the board's
    data holds every card's face for its script to turn face up."""
    game_id, state = play_to_the_end(alice, sessions)
    base = GAME.format(game_id)
    for path in (base, base + "/seat", base + "/report", base + "/host"):
        assert alice.get(path).status_code == 200, path
    board = alice.get(base + "/seat").text
    assert "OPERATION COMPLETE" in board
    assert re.search(rf'<span id="sol-reveal-link">\s*<a href="{base}/host">', board)
    # the board itself still holds only the seat's own view ...
    embedded = re.search(r'<script type="application/json" id="sol-state">(.*?)</script>',
                         board, re.S)
    assert embedded and json.loads(embedded.group(1))["view"] == state["view"]
    # ... and its data, once over, the end's reveal: every face, cell by cell, as the
    # host view has them (the platform's pages.reveal, for readers of the host page)
    host = alice.get(base + "/host").text
    reveal = {tuple(c["cell"]): c["face"]
              for c in alice.get(base + "/state").json()["state"]["reveal"]}
    cells = {tuple(c["cell"]) for c in state["view"]["cells"]}
    assert set(reveal) == cells and all(face in pages.FACES for face in reveal.values())
    for card in state["view"]["cells"]:  # the faces the seat knew are the same
        if card["face"] is not None:
            assert reveal[tuple(card["cell"])] == card["face"]
    assert 'class="sol-back"' not in host  # the drawn board: no card face-down
    with sessions() as db:
        public = play_service.public_view(db, game_id)
    result = pages.SpyOrLiePages().result(public, {"s1": "alice"})
    points = state["view"]["points"]
    assert result is not None
    assert f"{max(points.values())}–{min(points.values())}" in result.line
    assert result.line in alice.get(base).text
    assert result.line in alice.get("/lobby").text  # "My games": over, with the result


# ---------------------------------------------------------------- difficulty


def test_difficulty_switch_applies_from_the_next_computer_turn(
        alice: Browser, sessions: sessionmaker[Session]) -> None:
    game_id = start_operation(alice)
    response = set_difficulty(alice, game_id, "spymaster")
    assert response.status_code == 200, response.text
    state = response.json()["state"]
    assert state["computer"]["s2"] == {"difficulty": "operative", "next": "spymaster"}
    assert state["view"]["computer"] == {"s2": "operative"}  # nothing played yet
    after = play(alice, game_id, CENTRE_SPY).json()["state"]
    assert after["view"]["computer"] == {"s2": "spymaster"}
    assert after["computer"]["s2"] == {"difficulty": "spymaster", "next": "spymaster"}
    assert record_turns(sessions, game_id)[1]["s2"]["ai"]["difficulty"] == "spymaster"
    board = alice.get(BOARD.format(game_id)).text
    assert re.search(r'name="strategy" value="spymaster"\s+checked', board)
    assert f'action="/games/{game_id}/computer"' in board
    # and back, after the computer has moved (a computer kept from its last turn is not
    # reused with the old difficulty)
    set_difficulty(alice, game_id, "operative")
    move = first_legal(page_state(alice, game_id), mode="PLAIN")
    later = play(alice, game_id, move).json()["state"]
    assert later["view"]["computer"] == {"s2": "operative"}
    assert record_turns(sessions, game_id)[3]["s2"]["ai"]["difficulty"] == "operative"


def test_difficulty_switch_without_script_redirects(alice: Browser) -> None:
    game_id = start_operation(alice)
    response = set_difficulty(alice, game_id, "spymaster", script=False)
    assert response.status_code == 303
    assert response.headers["location"].split("?")[0] == BOARD.format(game_id)
    assert page_state(alice, game_id)["computer"]["s2"]["next"] == "spymaster"


@pytest.mark.parametrize("value", ["random", "grandmaster", ""])
def test_only_the_two_difficulties_are_offered(alice: Browser, value: str) -> None:
    game_id = start_operation(alice)
    response = set_difficulty(alice, game_id, value)
    assert response.status_code == 422
    assert response.json()["state"]["computer"]["s2"]["next"] == "operative"


# ---------------------------------------------------------------- new operation


def test_new_operation_starts_a_fresh_game(alice: Browser,
                                           sessions: sessionmaker[Session]) -> None:
    old_id = start_operation(alice, radius=3)
    assert play(alice, old_id, CENTRE_SPY).status_code == 200
    set_difficulty(alice, old_id, "spymaster")
    response = new_operation(alice, old_id)
    assert response.status_code == 303
    match = re.fullmatch(r"/games/(\d+)/seat(\?.*)?", response.headers["location"])
    assert match, response.headers["location"]
    new_id = int(match.group(1))
    assert new_id != old_id
    old, new = game_row(sessions, old_id), game_row(sessions, new_id)
    assert old.status == "over"
    assert new.status == "running" and new.seed != old.seed
    assert new.options == {"radius": 3, "blue": "s1", "computer": {"s2": "spymaster"}}
    state = page_state(alice, new_id)
    view = state["view"]
    assert view["cells"] == [] and view["hand"] == {"S": 11, "M": 4, "C": 3, "X": 2}
    assert view["colour"] == "BLUE" and view["awaiting"] == "s1"
    assert view["opponent_hand_size"] == 20
    assert state["computer"]["s2"]["difficulty"] == "spymaster"
    # the old board still shows, finished
    assert page_state(alice, old_id)["game"]["status"] == "over"


def test_the_quick_page_offers_to_continue_the_running_operation(alice: Browser) -> None:
    game_id = start_operation(alice)
    assert f'href="/games/{game_id}/seat"' in alice.get("/play/spyorlie").text


# ---------------------------------------------------------------- who may read and act


def test_only_the_seat_holder_reads_and_acts(app: FastAPI, alice: Browser,
                                             bob: Browser) -> None:
    game_id = start_operation(alice)
    base = GAME.format(game_id)
    assert bob.get(base + "/seat").status_code == 404
    assert bob.get(base + "/state").status_code == 404
    assert bob.get(base + "/report").status_code == 404
    assert bob.get(base + "/host").status_code == 404
    assert play(bob, game_id, CENTRE_SPY).status_code == 404
    assert set_difficulty(bob, game_id, "spymaster").status_code == 404
    assert new_operation(bob, game_id).status_code == 404
    anon = visitor(app)
    response = anon.get(base + "/state")
    assert response.status_code == 303 and response.headers["location"].startswith("/login")
    state = page_state(alice, game_id)
    assert state["game"]["entry"] == 0
    assert state["computer"]["s2"]["next"] == "operative"


def test_a_spy_vs_spy_game_has_no_board(alice: Browser) -> None:
    response = alice.post("/games/quick", {"game": "spyvsspy"})
    assert response.status_code == 303
    game_id = int(response.headers["location"].split("/")[2])
    page = alice.get(BOARD.format(game_id)).text
    assert 'id="sol-state"' not in page and "/static/spyorlie/board.js" not in page
    assert "lines" not in page_state(alice, game_id)


def test_writes_need_the_csrf_token(alice: Browser) -> None:
    game_id = start_operation(alice)
    base = GAME.format(game_id)
    assert play(alice, game_id, CENTRE_SPY, csrf=False).status_code == 403
    forged = alice.client.post(base + "/orders", data={"move": json.dumps(CENTRE_SPY),
                                                      "ready": "1", "csrf_token": "forged"})
    assert forged.status_code == 403
    assert alice.post(base + "/computer", {"strategy": "spymaster"},
                      token=False).status_code == 403
    assert new_operation(alice, game_id, token=False).status_code == 403
    assert alice.post("/games/quick", {"game": "spyorlie", "strategy": "operative"},
                      token=False).status_code == 403
    state = page_state(alice, game_id)
    assert state["game"]["entry"] == 0 and state["computer"]["s2"]["next"] == "operative"


def test_page_data_is_the_seat_view_only(alice: Browser, sessions: sessionmaker[Session],
                                         app: FastAPI) -> None:
    """UI-19: no face of RED's face-down cards, no RED hand composition, no seed."""
    game_id = start_operation(alice, radius=3)
    for _ in range(4):
        state = page_state(alice, game_id)
        move = first_legal(state, mode="PLAIN")
        assert play(alice, game_id, move).status_code == 200
    state = page_state(alice, game_id)
    with sessions() as db:
        game = games.get_game(db, game_id)
        host = games.record_of(db, game_id)
        seed = game.seed
    assert host.seed == seed
    red_hidden = [c for c in state["view"]["cells"]
                  if c["placer"] == "RED" and not c["revealed"]]
    assert red_hidden, "RED has face-down cards"
    assert all(c["face"] is None for c in red_hidden)
    text = json.dumps(state)
    assert '"hands"' not in text and str(seed) not in text
    assert set(state["view"]) == {
        "game", "seat", "colour", "seats", "computer", "radius", "first_orientation", "ply",
        "round", "to_move", "awaiting", "turns_taken", "pass_streak", "cyber_window_open",
        "points", "cells", "hand", "opponent_hand_size", "unknown_pool", "legal_moves",
        "log", "last", "over", "result"}
    for entry in state["view"]["log"]:
        if entry["colour"] == "RED" and entry["move"].get("mode") == "PLAIN":
            assert entry["move"]["face"] is None
    board = alice.get(BOARD.format(game_id)).text
    embedded = re.search(r'<script type="application/json" id="sol-state">(.*?)</script>',
                         board, re.S)
    assert embedded
    assert json.loads(embedded.group(1))["view"] == state["view"]


# ---------------------------------------------------------------- two people


def test_two_people_play_through_the_lobby(alice: Browser, bob: Browser) -> None:
    response = alice.post("/games", {"game": "spyorlie", "title": "Alice vs Bob",
                                     "max_seats": "", "schedule": "all_submitted"})
    assert response.status_code == 303, response.text
    game_id = int(response.headers["location"].split("/")[2].split("?")[0])
    assert alice.join(game_id, "Alice Agency").status_code == 303
    assert bob.join(game_id, "Bob Agency").status_code == 303
    assert alice.start(game_id).status_code == 303
    page = alice.get(BOARD.format(game_id)).text
    assert "YOU ARE BLUE" in page and 'id="sol-difficulty"' not in page
    assert 'href="/play/spyorlie">NEW OPERATION' in page
    bob_page = bob.get(BOARD.format(game_id)).text
    assert "YOU ARE RED" in bob_page
    assert play(bob, game_id, CENTRE_SPY).status_code == 409  # not RED's move
    state = play(alice, game_id, CENTRE_SPY).json()["state"]
    assert state["game"]["entry"] == 1 and state["view"]["awaiting"] == "s2"
    bob_state = page_state(bob, game_id)
    assert bob_state["view"]["colour"] == "RED" and bob_state["view"]["awaiting"] == "s2"
    assert bob_state["view"]["cells"][0]["face"] is None  # BLUE's face-down Spy
    reply = bob_state["view"]["legal_moves"][0]
    assert play(bob, game_id, reply).status_code == 200
    assert page_state(alice, game_id)["view"]["awaiting"] == "s1"
    assert new_operation(alice, game_id).status_code == 409
    assert set_difficulty(alice, game_id, "spymaster").status_code == 409


# ---------------------------------------------------------------- log lines


@pytest.mark.parametrize(("event", "text"), [
    ({"type": "place", "cell": [1, 1], "colour": "BLUE", "face": "C", "orientation": 1,
      "mode": "ACCUSE", "target": [1, 0]},
     "BLUE announces a Mole Catcher at [1, 1], accusing [1, 0]."),
    ({"type": "place", "cell": [1, 1], "colour": "RED", "face": "X", "orientation": 1,
      "mode": "CYBER", "target": [1, 0]}, "RED launches a Cyber Attack at [1, 1] on [1, 0]."),
    ({"type": "place", "cell": [1, 0], "colour": "RED", "face": None, "orientation": 1,
      "mode": "PLAIN", "target": None}, "RED places a face-down card at [1, 0]."),
    ({"type": "accuse", "catcher": [1, 1], "target": [1, 0], "correct": True, "face": "M"},
     "Correct accusation: [1, 0] is a Mole."),
    ({"type": "accuse", "catcher": [0, -1], "target": [1, -2], "correct": False, "face": "S"},
     "Wrong accusation: [1, -2] is a Spy."),
    ({"type": "flip", "cell": [2, -2], "to": "BLUE", "face": "S", "cause": "chain", "wave": 2,
      "by": [1, -2], "group": [1, -2]},
     "Wave 2: [2, -2] (Spy) is captured by BLUE from [1, -2]."),
    ({"type": "flip", "cell": [1, 0], "to": "BLUE", "face": "M", "cause": "cyber", "wave": 0,
      "by": None, "group": None}, "[1, 0] (Mole) becomes a point card of BLUE."),
    ({"type": "flip", "cell": [0, -1], "to": "RED", "face": "C", "cause": "catcher_lost",
      "wave": 0, "by": None, "group": None}, "The Mole Catcher at [0, -1] goes to RED."),
    ({"type": "flip", "cell": [2, -2], "to": "RED", "face": "S", "cause": "self", "wave": 0,
      "by": [1, -2], "group": [2, -2]},
     "Self-surrounded: [2, -2] (Spy) is taken by RED from [1, -2]."),
    ({"type": "reversal", "cell": [0, -1], "to": "RED", "face": "S", "wave": 1,
      "mole": [1, -2]},
     "Wave 1: the Mole at [1, -2] turns its captor [0, -1] (Spy) over to RED."),
    ({"type": "pass", "colour": "RED"}, "RED passes: no legal move."),
    ({"type": "end", "result": "DRAW", "points": {"BLUE": 2, "RED": 2}},
     "Operation complete: BLUE 2, RED 2, a draw."),
])
def test_event_lines(event: dict[str, Any], text: str) -> None:
    assert pages.event_text(event) == text


def test_a_persons_ai_note_is_stripped_by_the_service_too(
        alice: Browser, sessions: sessionmaker[Session], clock: FakeClock) -> None:
    """DF2: ``ai`` is written by the platform only; the service strips it from any
    person's submission (the JSON API included), not just the board page."""
    from sqlalchemy import select

    from spyhouse.store.tables import SeatRow

    game_id = start_operation(alice)
    with sessions.begin() as db:
        seat = db.scalar(select(SeatRow).where(SeatRow.game_id == game_id,
                                               SeatRow.seat_id == "s1"))
        assert seat is not None
        forged = {**CENTRE_SPY, "ai": {"difficulty": "spymaster", "budget_cut": True}}
        state = play_service.submit_orders(db, seat, forged, now=clock.now())
    assert state.data == CENTRE_SPY


def test_the_create_form_offers_the_board_radius(alice: Browser,
                                                 sessions: sessionmaker[Session]) -> None:
    form = alice.get("/games/new?game=spyorlie").text
    assert 'name="option-radius" value="3"' in form and "Radius 4 (the seed&#39;s board)" in form
    response = alice.post("/games", {"game": "spyorlie", "title": "Small board",
                                     "max_seats": "", "schedule": "all_submitted",
                                     "option-radius": "3"})
    assert response.status_code == 303, response.text
    game_id = int(response.headers["location"].split("/")[2].split("?")[0])
    with sessions() as db:
        game = db.get(Game, game_id)
        assert game is not None and game.options == {"radius": 3}
    # a radius outside the declared range is refused, naming the option; none or the
    # default leaves the rules' own default (4)
    with pytest.raises(OptionsError, match="Board"):
        PLUGIN.options_from_form({"option-radius": "99"})
    assert PLUGIN.options_from_form({}) == {}
    assert PLUGIN.options_from_form({"option-radius": "4"}) == {}
    assert PLUGIN.options_from_form({"option-radius": str(MAX_RADIUS)}) == {"radius": MAX_RADIUS}

