"""Kingdoms' pages through the real application, at the platform's routes
(``/games/{id}/seat``, ``/orders``, ``/check``, ``/ready``, ``/play``, ``/report/{entry}``,
``/host``), drawn by ``games/kingdoms/pages.py`` and its templates.

A three-country game (alice k1, bob k3, a steward bot k5): the map and the four-box order
list, a refused list that saves nothing and shows the engine's message beside its row, the
in-place check of every row, a processed turn and its report, past turns. Only the seat's
holder reads or acts (404 for anybody else); every write needs the session's CSRF token;
each page is built from the seat's own view. The host's page draws the whole board; a game
against the computer is played on its "Play the turn now" button.
"""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.clock import FakeClock
from spyhouse.core import registry
from spyhouse.games.kingdoms import pages
from spyhouse.games.kingdoms.layout import layout
from spyhouse.games.kingdoms.maps import load_map
from spyhouse.games.kingdoms.ruleset import builtin_maps
from tests.games.kingdoms.test_maps import ISTHMUS
from tests.web.helpers import Browser, run_worker, visitor
from tests.web.helpers import saved_orders as saved

PAGE = "/games/{}"
SEAT = PAGE + "/seat"
CREATE = {"game": "kingdoms", "max_seats": "", "schedule": "interval", "interval_hours": "48",
          "weekday": "Wednesday", "time": "20:00", "zone": "Pacific/Auckland"}


def created(host: Browser, title: str) -> int:
    response = host.post("/games", {**CREATE, "title": title})
    assert response.status_code == 303, response.text
    match = re.match(r"/games/(\d+)", response.headers["location"])
    assert match
    return int(match.group(1))


def kingdoms_game(host: Browser, guest: Browser) -> int:
    """A running Kingdoms game: host k1 (s1), guest k3 (s2), a steward bot k5 (s3)."""
    game_id = created(host, "Six Realms")
    assert host.join(game_id, "Arden Court").status_code == 303
    assert guest.join(game_id, "Calder Hall").status_code == 303
    assert host.add_bot(game_id, "steward").status_code == 303
    assert host.start(game_id).status_code == 303
    return game_id


def orders_form(*rows: tuple[str, str, str, str], ready: bool = False) -> dict[str, str]:
    fields: dict[str, str] = {}
    for n, (action, frm, to, extra) in enumerate(rows, start=1):
        fields.update({f"row-{n}-action": action, f"row-{n}-from": frm,
                       f"row-{n}-to": to, f"row-{n}-extra": extra})
    if ready:
        fields["ready"] = "1"
    return fields



def message_of(page: str, n: int) -> str:
    match = re.search(rf'id="row-{n}-msg"[^>]*>(.*?)</td>', page, re.S)
    assert match, f"no message cell for row {n}"
    return html.unescape(re.sub(r"<[^>]+>", "", match.group(1))).strip()


TURN = (("SPY", "a01", "a02", ""), ("FIND", "", "k3", ""), ("MOVE", "a02", "a08", "1"))


# ---------------------------------------------------------------- the page


def test_page_shows_map_orders_and_own_country(alice: Browser, bob: Browser) -> None:
    game_id = kingdoms_game(alice, bob)
    page = alice.get(PAGE.format(game_id))
    assert page.status_code == 200
    text = page.text
    assert 'id="km-map"' in text and 'data-area="a01"' in text and 'data-area="s5"' in text
    assert "k1 Arden" in text and "BP <strong" in text
    assert 'name="row-8-action"' in text and 'name="row-9-action"' not in text  # K = 8
    assert '<option value="k3">k3 Calder</option>' in text
    assert '<option value="k1">' not in text  # one's own country is never a TO choice
    assert "/static/kingdoms/map.js" in text
    a01 = re.search(r'id="area-a01".*?class="km-armies-n">(\d+)<', text, re.S)
    assert a01 and a01.group(1) == "3"  # k1's home starts with 3 armies
    # bob plays k3 and sees his own country, not alice's
    other = bob.get(PAGE.format(game_id)).text
    assert "country\n<strong>k3 Calder</strong>" in other


def test_platform_seat_and_report_pages_lead_here(alice: Browser, bob: Browser) -> None:
    game_id = kingdoms_game(alice, bob)
    seat = alice.get(f"/games/{game_id}/seat")
    assert seat.status_code == 200 and f'url=/kingdoms/games/{game_id}"' in seat.text
    report = alice.get(f"/games/{game_id}/report")
    assert report.status_code == 200
    assert f"url=/kingdoms/games/{game_id}/report/0" in report.text


def test_only_the_seat_holder_reads_or_acts(alice: Browser, bob: Browser, carol: Browser,
                                           app: FastAPI) -> None:
    game_id = kingdoms_game(alice, bob)
    base = PAGE.format(game_id)
    assert carol.get(base).status_code == 404
    assert carol.get(base + "/report/0").status_code == 404
    form = orders_form(("FIND", "", "k3", ""))
    assert carol.post(base + "/orders", form).status_code == 404
    assert carol.post(base + "/check", form).status_code == 404
    assert carol.post(base + "/ready", {"ready": "1"}).status_code == 404
    anonymous = visitor(app)
    response = anonymous.get(base)
    assert response.status_code == 303 and response.headers["location"].startswith("/login")
    assert alice.get(PAGE.format(game_id + 99)).status_code == 404


def test_another_games_seat_has_no_kingdoms_page(alice: Browser, bob: Browser) -> None:
    game_id = alice.create_game()  # Spy vs Spy
    alice.join(game_id, "Alpha Brotherhood")
    assert alice.get(PAGE.format(game_id)).status_code == 404


def test_csrf_refused_and_nothing_saved(alice: Browser, bob: Browser,
                                        sessions: sessionmaker[Session]) -> None:
    game_id = kingdoms_game(alice, bob)
    base = PAGE.format(game_id)
    for path in ("/orders", "/check", "/ready"):
        response = alice.post(base + path, orders_form(*TURN), token=False)
        assert response.status_code == 403, path
        wrong = alice.post(base + path, {**orders_form(*TURN), "csrf_token": "forged"},
                           token=False)
        assert wrong.status_code == 403, path
    assert saved(sessions, game_id, "s1") is None


# ---------------------------------------------------------------- orders


def test_orders_saved_and_shown_again(alice: Browser, bob: Browser,
                                      sessions: sessionmaker[Session]) -> None:
    game_id = kingdoms_game(alice, bob)
    response = alice.post(PAGE.format(game_id) + "/orders", orders_form(*TURN))
    assert response.status_code == 303
    assert response.headers["location"] == PAGE.format(game_id) + "?notice=saved"
    assert saved(sessions, game_id, "s1") == {"actions": [
        {"action": "SPY", "from": "a01", "to": "a02", "extra": None},
        {"action": "FIND", "from": None, "to": "k3", "extra": None},
        {"action": "MOVE", "from": "a02", "to": "a08", "extra": 1}]}
    page = alice.get(PAGE.format(game_id) + "?notice=saved").text
    assert "Your orders are saved" in page
    row3 = re.search(r'<tr id="row-3".*?</tr>', page, re.S)
    assert row3
    assert re.search(r'value="MOVE"[^>]*selected', row3.group(0))
    assert re.search(r'value="a08"[^>]*selected', row3.group(0))
    assert re.search(r'value="1"[^>]*selected', row3.group(0))


def test_blank_rows_between_are_skipped_and_messages_keep_form_rows(
        alice: Browser, bob: Browser, sessions: sessionmaker[Session]) -> None:
    game_id = kingdoms_game(alice, bob)
    form = orders_form(("FIND", "", "k3", ""), ("", "", "", ""), ("MOVE", "a01", "a03", "1"))
    response = alice.post(PAGE.format(game_id) + "/orders", form)
    assert response.status_code == 422
    # the engine numbers the third form row as its action 2; it is shown beside row 3
    assert message_of(response.text, 3) == "action 2: MOVE: a03 is not adjacent to a01"
    assert message_of(response.text, 1) == "" and message_of(response.text, 2) == ""


def test_refused_list_saves_nothing_and_shows_each_rows_message(
        alice: Browser, bob: Browser, sessions: sessionmaker[Session]) -> None:
    game_id = kingdoms_game(alice, bob)
    base = PAGE.format(game_id)
    assert alice.post(base + "/orders", orders_form(("FIND", "", "k3", ""))).status_code == 303
    before = saved(sessions, game_id, "s1")
    bad = orders_form(("SPY", "a01", "a02", ""), ("MOVE", "a01", "a03", "1"),
                      ("KILL", "a02", "k2", ""), ("WAIT", "", "k3", "BOSS"),
                      ("RAISE", "a01", "", "0"))
    response = alice.post(base + "/orders", bad)
    assert response.status_code == 422
    page = response.text
    assert "Nothing was saved" in page
    assert message_of(page, 1) == ""
    assert message_of(page, 2) == "action 2: MOVE: a03 is not adjacent to a01"
    assert message_of(page, 3) == 'action 3: KILL: unknown country "k2"'
    assert message_of(page, 4) == ("action 4: WAIT: EXTRA must be blank, SPY, SPYCAT, "
                                   "MOLE or MOLECAT")
    assert message_of(page, 5) == "action 5: RAISE: EXTRA must be a whole number from 1 to 12"
    # what was typed stays on the form, the unknown values included
    assert re.search(r'<option value="k2" selected>', page)
    assert re.search(r'<option value="BOSS" selected>', page)
    assert saved(sessions, game_id, "s1") == before  # the previous list stays


def test_move_cap_message_beside_the_fourth_move(alice: Browser, bob: Browser) -> None:
    game_id = kingdoms_game(alice, bob)
    moves = [("MOVE", "a01", "a02", "1")] * 4
    response = alice.post(PAGE.format(game_id) + "/orders", orders_form(*moves))
    assert response.status_code == 422
    assert message_of(response.text, 4) == "action 4: MOVE: at most 3 MOVE actions per turn"
    assert message_of(response.text, 3) == ""


def test_check_answers_every_rows_message_and_saves_nothing(
        alice: Browser, bob: Browser, sessions: sessionmaker[Session]) -> None:
    game_id = kingdoms_game(alice, bob)
    form = orders_form(("SKIP", "a01", "a02", ""), ("FIND", "a09", "k3", ""),
                       ("SPY", "a01", "a02", ""))
    answer = alice.post(PAGE.format(game_id) + "/check", form)
    assert answer.status_code == 200
    assert answer.json() == {"ok": False, "general": [], "rows": {
        "1": "action 1: SKIP: a02 is adjacent to a01 (use SPY)",
        "2": "action 2: FIND: give either FROM (an area) or TO (a country)"}}
    good = alice.post(PAGE.format(game_id) + "/check", orders_form(*TURN)).json()
    assert good == {"ok": True, "rows": {}, "general": []}
    assert saved(sessions, game_id, "s1") is None


def test_stale_form_for_a_processed_turn_is_refused(alice: Browser, bob: Browser,
                                                    app: FastAPI, clock: FakeClock) -> None:
    game_id = kingdoms_game(alice, bob)
    alice.post(f"/games/{game_id}/process")
    run_worker(app, clock)
    response = alice.post(PAGE.format(game_id) + "/orders",
                          {**orders_form(*TURN), "entry": "1"})
    assert response.status_code == 409 and "the turn is closed" in response.text


def test_ready(alice: Browser, bob: Browser, sessions: sessionmaker[Session]) -> None:
    game_id = kingdoms_game(alice, bob)
    base = PAGE.format(game_id)
    assert alice.post(base + "/ready", {"ready": "1"}).status_code == 409
    response = alice.post(base + "/orders", orders_form(*TURN, ready=True))
    assert response.headers["location"].endswith("?notice=ready")
    page = alice.get(base).text
    assert "marked final" in page


# ---------------------------------------------------------------- a turn and its report


def test_turn_processed_and_report_read(alice: Browser, bob: Browser, app: FastAPI,
                                        clock: FakeClock) -> None:
    game_id = kingdoms_game(alice, bob)
    base = PAGE.format(game_id)
    assert alice.post(base + "/orders", orders_form(*TURN)).status_code == 303
    assert bob.post(base + "/orders",
                    orders_form(("SPY", "a06", "a05", ""))).status_code == 303
    assert alice.post(f"/games/{game_id}/process").status_code == 303
    run_worker(app, clock)
    page = html.unescape(alice.get(base).text)
    assert "Report of turn 1" in page
    assert "recruited spy in a01 (2 BP); moved spy a01 → a02 (land, 0 BP)" in page
    assert "k3's spy is in a05" in page
    assert "captured a08" in page
    assert "a08 Greyholm: neutral → k1" in page
    assert "Orders for turn 2" in page
    # the FIND result is drawn on the map: k3's spy in a05
    a05 = re.search(r'id="area-a05".*?</g>\s*\n\s*</g>', page, re.S)
    assert a05 and 'data-country="k3" data-type="SPY"' in a05.group(0)
    # past turns: setup and turn 1; none beyond
    setup = html.unescape(alice.get(base + "/report/0").text)
    assert "Setup: no turn played yet" in setup and "recruited spy" not in setup
    assert "recruited spy in a01" in html.unescape(alice.get(base + "/report/1").text)
    assert alice.get(base + "/report/2").status_code == 404
    # bob reads his own report, never alice's results or agents
    theirs = html.unescape(bob.get(base).text)
    assert "moved spy a06 → a05" in theirs
    assert "recruited spy in a01" not in theirs and "k3's spy is in a05" not in theirs
    assert 'km-own-agent" data-type="SPY"' in theirs
    assert 'data-country="k1"' not in theirs  # bob's spy saw no k1 agent


# ---------------------------------------------------------------- the map layout


def test_layout_of_the_default_map_is_its_grid() -> None:
    pos = layout(builtin_maps()["default"].to_json())
    for n in range(24):
        row, col = divmod(n, 6)
        x, y = pos[f"a{n + 1:02d}"]
        x0, y0 = pos["a01"]
        assert abs(x - x0 - col) < 0.15 and abs(y - y0 - row) < 0.15
    assert pos["s1"][1] < pos["a01"][1] and pos["s3"][1] > pos["a19"][1]  # north, south
    assert pos["s4"][0] < pos["a01"][0] and pos["s2"][0] > pos["a06"][0]  # west, east


def test_layout_of_a_custom_map() -> None:
    pos = layout(load_map(ISTHMUS).to_json())
    assert set(pos) == {"r1", "b1", "g1", "g2", "mid", "bay"}
    land = [pos[a] for a in ("r1", "b1", "g1", "g2", "mid")]
    for i, p in enumerate(land):
        for q in land[i + 1:]:
            assert abs(p[0] - q[0]) + abs(p[1] - q[1]) > 0.5


def test_map_picture_reads_only_the_view() -> None:
    view: dict[str, Any] = {
        "map": builtin_maps()["default"].to_json(),
        "owners": {"a01": "k1", "a02": None},
        "countries": [{"id": "k1", "name": "Arden", "seat": "s1", "areas": 1,
                       "eliminated": None}],
        "me": {"country": "k1", "bp": 6, "reserve": 7, "armies": {"a01": 3},
               "agents": [{"type": "SPY", "area": "a02"}], "watchers": ["a09"], "wait": None},
        "report": {"turn": 1, "results": [], "events": [], "income": 1, "observations": [
            {"area": "a02", "when": "end", "by": "SPY", "owner": None, "armies": 0,
             "agents": [{"country": "k3", "type": "SPYCAT"}]}]},
    }
    picture = web.map_picture(view)
    areas = {a["id"]: a for a in picture["areas"]}
    assert areas["a01"]["armies"] == 3 and areas["a01"]["mine"]
    assert areas["a02"]["agents"][0]["type"] == "SPY"
    assert areas["a02"]["foreign"][0]["country"] == "k3"
    assert areas["a09"]["agents"][0]["type"] == "WATCHER"
    assert areas["a03"]["armies"] is None  # never seen: not shown


def test_page_before_the_start_is_refused(alice: Browser) -> None:
    response = alice.post("/games", {
        "game": "kingdoms", "title": "Not yet", "max_seats": "", "schedule": "interval",
        "interval_hours": "48", "weekday": "Wednesday", "time": "20:00",
        "zone": "Pacific/Auckland"})
    game_id = int(response.headers["location"].split("/")[2].split("?")[0])
    assert alice.join(game_id, "Arden Court").status_code == 303
    page = alice.get(PAGE.format(game_id))
    assert page.status_code == 409 and "the game has not started yet" in page.text


def test_a_host_pastes_a_map_and_reads_its_first_problem() -> None:
    """Maps as data on the web: a pasted map is validated at creation, with a clear error."""
    from spyhouse.games.kingdoms import ui
    from spyhouse.games.kingdoms.maps import MapError

    assert ui.options_from_fields({"option-map": ""}) == {}
    try:
        ui.options_from_fields({"option-map": "this is = not [ toml"})
    except MapError as exc:
        assert str(exc).startswith("map: not valid TOML")
    else:
        raise AssertionError("bad TOML accepted")
    text = (Path(__file__).resolve().parents[3] / "src/spyhouse/games/kingdoms/maps"
            / "default.toml").read_text(encoding="utf-8")
    assert "map" in ui.options_from_fields({"option-map": text})


def test_the_create_form_offers_every_games_options(alice: Browser) -> None:
    """A host who picks Kingdoms on the create form finds its map box there, whichever game
    the form opened with."""
    page = alice.get("/games/new").text
    assert 'name="option-map"' in page and "Kingdoms: Map" in page
    assert "Spy vs Spy: Bases" in page
