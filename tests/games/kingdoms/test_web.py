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
from tests.web.helpers import Browser, refused_page, run_worker, visitor
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
    page = alice.get(SEAT.format(game_id))
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
    other = bob.get(SEAT.format(game_id)).text
    assert "country\n<strong>k3 Calder</strong>" in other


def test_the_form_posts_to_the_platform_and_is_checked_there(alice: Browser,
                                                            bob: Browser) -> None:
    game_id = kingdoms_game(alice, bob)
    text = alice.get(SEAT.format(game_id)).text
    assert f'action="/games/{game_id}/orders"' in text
    assert f'data-check="/games/{game_id}/check"' in text
    assert 'data-place="row-1"' in text and 'data-place="row-8"' in text
    assert 'data-place=""' in text
    assert f'name="entry" value="{1}"' in text  # the open record entry
    assert "/kingdoms/games" not in text  # no link to the old game-specific URLs
    # the deadline and what closes the turn: drafts stay drafts until final
    assert 'class="countdown"' in text
    assert "The turn closes at the deadline" in text and "marked final" in text
    assert "Play the turn now" not in text  # a game of people: no button plays it


def test_platform_report_pages_draw_the_map(alice: Browser, bob: Browser) -> None:
    game_id = kingdoms_game(alice, bob)
    report = alice.get(PAGE.format(game_id) + "/report")
    assert report.status_code == 200
    assert 'id="km-map"' in report.text and "Setup: no turn played yet" in report.text
    past = alice.get(PAGE.format(game_id) + "/report/0")
    assert past.status_code == 200 and 'id="km-map"' in past.text
    assert f'href="/games/{game_id}/seat">current page' in past.text


def test_only_the_seat_holder_reads_or_acts(alice: Browser, bob: Browser, carol: Browser,
                                           app: FastAPI) -> None:
    game_id = kingdoms_game(alice, bob)
    base = PAGE.format(game_id)
    assert carol.get(base + "/seat").status_code == 404
    assert carol.get(base + "/report/0").status_code == 404
    form = orders_form(("FIND", "", "k3", ""))
    assert carol.post(base + "/orders", form).status_code == 404
    assert carol.post(base + "/check", form).status_code == 404
    assert carol.post(base + "/ready", {"ready": "1"}).status_code == 404
    assert carol.post(base + "/play").status_code == 404
    anonymous = visitor(app)
    response = anonymous.get(base + "/seat")
    assert response.status_code == 303 and response.headers["location"].startswith("/login")
    assert alice.get(SEAT.format(game_id + 99)).status_code == 404


def test_csrf_refused_and_nothing_saved(alice: Browser, bob: Browser,
                                        sessions: sessionmaker[Session]) -> None:
    game_id = kingdoms_game(alice, bob)
    base = PAGE.format(game_id)
    for path in ("/orders", "/check", "/ready", "/play"):
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
    assert response.headers["location"] == SEAT.format(game_id) + "?notice=saved"
    assert saved(sessions, game_id, "s1") == {"actions": [
        {"action": "SPY", "from": "a01", "to": "a02", "extra": None},
        {"action": "FIND", "from": None, "to": "k3", "extra": None},
        {"action": "MOVE", "from": "a02", "to": "a08", "extra": 1}]}
    page = alice.get(SEAT.format(game_id) + "?notice=saved").text
    assert "Your orders are saved" in page
    assert "as a draft (not final yet)" in page and "Mark final (ready)" in page
    row3 = re.search(r'<tr id="row-3".*?</tr>', page, re.S)
    assert row3
    assert re.search(r'value="MOVE"[^>]*selected', row3.group(0))
    assert re.search(r'value="a08"[^>]*selected', row3.group(0))
    assert re.search(r'value="1"[^>]*selected', row3.group(0))


def test_blank_rows_between_are_skipped_and_messages_keep_form_rows(
        alice: Browser, bob: Browser, sessions: sessionmaker[Session]) -> None:
    game_id = kingdoms_game(alice, bob)
    form = orders_form(("FIND", "", "k3", ""), ("", "", "", ""), ("MOVE", "a01", "a03", "1"))
    response = refused_page(alice, alice.post(PAGE.format(game_id) + "/orders", form))
    # the engine numbers the third form row as its action 2; it is shown beside row 3
    assert message_of(response.text, 3) == "action 2: MOVE: a03 is not adjacent to a01"
    assert message_of(response.text, 1) == "" and message_of(response.text, 2) == ""
    answer = alice.post(PAGE.format(game_id) + "/check", form).json()
    assert answer["places"] == {"row-3": ["action 2: MOVE: a03 is not adjacent to a01"]}


BAD = (("SPY", "a01", "a02", ""), ("MOVE", "a01", "a03", "1"), ("KILL", "a02", "k2", ""),
       ("WAIT", "", "k3", "BOSS"), ("RAISE", "a01", "", "0"))
BAD_MESSAGES = {
    2: "action 2: MOVE: a03 is not adjacent to a01",
    3: 'action 3: KILL: unknown country "k2"',
    4: "action 4: WAIT: EXTRA must be blank, SPY, SPYCAT, MOLE or MOLECAT",
    5: "action 5: RAISE: EXTRA must be a whole number from 1 to 12",
}


def test_refused_list_saves_nothing_and_shows_the_rows_message(
        alice: Browser, bob: Browser, sessions: sessionmaker[Session]) -> None:
    game_id = kingdoms_game(alice, bob)
    base = PAGE.format(game_id)
    assert alice.post(base + "/orders", orders_form(("FIND", "", "k3", ""))).status_code == 303
    before = saved(sessions, game_id, "s1")
    response = refused_page(alice, alice.post(base + "/orders", orders_form(*BAD)))
    page = response.text
    assert "Nothing was saved: your previous orders stay in force." in page
    assert message_of(page, 1) == ""
    # the refusal names the first failing row (parse_orders stops there), beside it; the
    # page asks the check for the others as soon as it loads (data-refused)
    assert message_of(page, 2) == BAD_MESSAGES[2]
    assert 'data-refused="1"' in page
    assert re.search(r'<tbody class="km-row-group has-error" data-place="row-2">', page)
    # what was typed stays on the form, the unknown values included
    assert re.search(r'<option value="k2" selected>', page)
    assert re.search(r'<option value="BOSS" selected>', page)
    assert saved(sessions, game_id, "s1") == before  # the previous list stays


def test_check_gives_every_failing_rows_message(alice: Browser, bob: Browser,
                                                sessions: sessionmaker[Session]) -> None:
    game_id = kingdoms_game(alice, bob)
    answer = alice.post(PAGE.format(game_id) + "/check", orders_form(*BAD)).json()
    assert answer["ok"] is False
    assert answer["places"] == {f"row-{n}": [m] for n, m in BAD_MESSAGES.items()}
    assert answer["messages"] == list(BAD_MESSAGES.values())
    assert saved(sessions, game_id, "s1") is None


def test_move_cap_message_beside_the_fourth_move(alice: Browser, bob: Browser) -> None:
    game_id = kingdoms_game(alice, bob)
    moves = [("MOVE", "a01", "a02", "1")] * 4
    response = refused_page(alice, alice.post(PAGE.format(game_id) + "/orders",
                                              orders_form(*moves)))
    assert message_of(response.text, 4) == "action 4: MOVE: at most 3 MOVE actions per turn"
    assert message_of(response.text, 3) == ""
    answer = alice.post(PAGE.format(game_id) + "/check", orders_form(*moves)).json()
    assert answer["places"] == {"row-4": ["action 4: MOVE: at most 3 MOVE actions per turn"]}


def test_check_answers_every_rows_message_and_saves_nothing(
        alice: Browser, bob: Browser, sessions: sessionmaker[Session]) -> None:
    game_id = kingdoms_game(alice, bob)
    form = orders_form(("SKIP", "a01", "a02", ""), ("FIND", "a09", "k3", ""),
                       ("SPY", "a01", "a02", ""))
    answer = alice.post(PAGE.format(game_id) + "/check", form)
    assert answer.status_code == 200
    assert answer.json() == {"ok": False, "messages": [
        "action 1: SKIP: a02 is adjacent to a01 (use SPY)",
        "action 2: FIND: give either FROM (an area) or TO (a country)"], "places": {
        "row-1": ["action 1: SKIP: a02 is adjacent to a01 (use SPY)"],
        "row-2": ["action 2: FIND: give either FROM (an area) or TO (a country)"]}}
    good = alice.post(PAGE.format(game_id) + "/check", orders_form(*TURN)).json()
    assert good == {"ok": True, "messages": [], "places": {}}
    assert saved(sessions, game_id, "s1") is None


def test_the_form_reads_k_rows_and_puts_list_messages_at_the_top() -> None:
    kingdoms = registry.plugin("kingdoms").pages
    view = {"options": {"actions_per_turn": 9}}
    form = orders_form(*[("WATCH", "", "", "")] * 10)
    sheet = kingdoms.sheet_from_fields(view, form)
    assert len(sheet["actions"]) == 9  # K rows of the view's options, no more
    message = "orders: at most 8 actions per turn (got 9)"
    assert kingdoms.place(view, form, [message]) == {"": [message]}
    assert kingdoms.place(view, form, []) == {}


def test_stale_form_for_a_processed_turn_is_refused(alice: Browser, bob: Browser,
                                                    app: FastAPI, clock: FakeClock) -> None:
    game_id = kingdoms_game(alice, bob)
    alice.post(f"/games/{game_id}/process")
    run_worker(app, clock)
    response = refused_page(alice, alice.post(PAGE.format(game_id) + "/orders",
                                              {**orders_form(*TURN), "entry": "1"}))
    assert "the turn is closed" in response.text


def test_ready(alice: Browser, bob: Browser, sessions: sessionmaker[Session]) -> None:
    game_id = kingdoms_game(alice, bob)
    base = PAGE.format(game_id)
    assert "Nothing was saved" in refused_page(alice, alice.post(base + "/ready",
                                                              {"ready": "1"})).text
    response = alice.post(base + "/orders", orders_form(*TURN, ready=True))
    assert response.headers["location"].endswith("?notice=ready")
    page = alice.get(base + "/seat").text
    assert "marked final" in page and "Not final yet" in page
    response = alice.post(base + "/ready", {"ready": "0"})
    assert response.headers["location"].endswith("?notice=unready")
    assert "as a draft (not final yet)" in alice.get(base + "/seat").text
    assert saved(sessions, game_id, "s1") is not None  # the list itself stays


def test_play_now_only_against_the_computer(alice: Browser, bob: Browser) -> None:
    game_id = kingdoms_game(alice, bob)
    alice.post(PAGE.format(game_id) + "/orders", orders_form(*TURN))
    assert alice.post(PAGE.format(game_id) + "/play").status_code == 409


# ---------------------------------------------------------------- against the computer


def computer_game(player: Browser) -> int:
    """Kingdoms against two computer countries (alice k1)."""
    game_id = created(player, "Against the machine")
    assert player.join(game_id, "Arden Court").status_code == 303
    for strategy in ("steward", "warlord"):
        assert player.add_bot(game_id, strategy).status_code == 303
    assert player.start(game_id).status_code == 303
    return game_id


def test_against_the_computer_a_draft_waits_for_play_now(alice: Browser) -> None:
    game_id = computer_game(alice)
    base = PAGE.format(game_id)
    page = alice.get(base + "/seat").text
    assert "Saving keeps a draft" in page and "Play the turn now" in page
    assert f'action="/games/{game_id}/play"' not in page  # nothing saved: no button yet
    assert alice.post(base + "/orders", orders_form(*TURN)).status_code == 303
    page = alice.get(base + "/seat").text
    assert f'action="/games/{game_id}/play"' in page
    assert "Report of turn 1" not in page  # a draft is not played
    response = alice.post(base + "/play")
    assert response.status_code == 303
    assert response.headers["location"] == SEAT.format(game_id) + "?notice=played"
    page = html.unescape(alice.get(base + "/seat?notice=played").text)
    assert "the turn has been played" in page
    assert "Report of turn 1" in page and "Orders for turn 2" in page


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
    page = html.unescape(alice.get(base + "/seat").text)
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
    theirs = html.unescape(bob.get(base + "/seat").text)
    assert "moved spy a06 → a05" in theirs
    assert "recruited spy in a01" not in theirs and "k3's spy is in a05" not in theirs
    assert 'km-own-agent" data-type="SPY"' in theirs
    assert 'data-country="k1"' not in theirs  # bob's spy saw no k1 agent


# ---------------------------------------------------------------- the host and the game page


def test_the_host_who_plays_no_seat_sees_the_whole_board(
        alice: Browser, bob: Browser, carol: Browser, app: FastAPI, clock: FakeClock) -> None:
    game_id = created(alice, "Hosted")
    assert bob.join(game_id, "Arden Court").status_code == 303
    assert carol.join(game_id, "Calder Hall").status_code == 303
    assert alice.add_bot(game_id, "steward").status_code == 303
    assert alice.start(game_id).status_code == 303
    base = PAGE.format(game_id)
    assert bob.post(base + "/orders", orders_form(*TURN)).status_code == 303
    assert carol.post(base + "/orders",
                      orders_form(("SPY", "a06", "a05", ""))).status_code == 303
    assert alice.post(f"/games/{game_id}/process").status_code == 303
    run_worker(app, clock)
    response = alice.get(base + "/host")
    assert response.status_code == 200
    page = html.unescape(response.text)
    assert 'id="km-map"' in page and "The whole board after turn 1" in page
    # every country's agents on the map, coloured by country
    a02 = re.search(r'id="area-a02".*?</g>\s*\n\s*</g>', page, re.S)
    assert a02 and 'data-country="k1" data-type="SPY"' in a02.group(0)
    a05 = re.search(r'id="area-a05".*?</g>\s*\n\s*</g>', page, re.S)
    assert a05 and 'data-country="k3" data-type="SPY"' in a05.group(0)
    # every country's own state and report, with who plays it
    for cid in ("k1", "k3", "k5"):
        assert f'id="country-{cid}"' in page
    assert "k1 Arden · Arden Court" in page and "k3 Calder · Calder Hall" in page
    assert "recruited spy in a01" in page and "moved spy a06 → a05" in page
    assert "The same as plain text" in page  # the text renderer's host report
    assert alice.get(base + "/host/0").status_code == 200
    assert bob.get(base + "/host").status_code in (403, 404)  # a seat holder, mid-game


def test_game_page_lists_the_countries(alice: Browser, bob: Browser) -> None:
    game_id = kingdoms_game(alice, bob)
    page = alice.get(PAGE.format(game_id)).text
    assert "<td>Arden</td>" in page and "<td>Calder</td>" in page
    assert f'href="/games/{game_id}/seat"' in page


def test_public_table_and_result_read_only_the_public_view() -> None:
    view: dict[str, Any] = {
        "turn": 9,
        "countries": [{"id": "k1", "name": "Arden", "seat": "s1", "areas": 9, "eliminated": None},
                      {"id": "k3", "name": "Calder", "seat": "s2", "areas": 0, "eliminated": 4},
                      {"id": "k5", "name": "Esk", "seat": "s3", "areas": 5, "eliminated": None}],
        "outcome": None,
    }
    kingdoms = registry.plugin("kingdoms").pages
    table = kingdoms.public(view, {"s1": "Arden Court"})
    assert table is not None
    assert table.rows[0] == ("k1", "Arden", "Arden Court", 9, "in the game")
    assert table.rows[1][2] == "s2"  # a seat without a name keeps its id
    assert table.rows[1][-1] == "eliminated in turn 4"
    assert kingdoms.result(view, {}) is None
    view["outcome"] = {"winners": ["k1"], "ranking": [{"country": "k1", "rank": 1},
                                                      {"country": "k5", "rank": 2},
                                                      {"country": "k3", "rank": 3}]}
    names = {"s1": "Arden Court", "s2": "Calder Hall", "s3": "Esk Keep"}
    result = kingdoms.result(view, names)
    assert result is not None and result.line == "Arden (Arden Court) wins."
    assert result.standings is not None
    assert result.standings.rows[0] == (1, "k1", "Arden", "Arden Court", 9, "wins")
    assert result.standings.rows[2][-1] == "eliminated in turn 4"
    view["outcome"]["winners"] = ["k1", "k5"]
    shared = kingdoms.result(view, names)
    assert shared is not None
    assert shared.line == "Arden (Arden Court) and Esk (Esk Keep) share the win."


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
    picture = pages.map_picture(view)
    areas = {a["id"]: a for a in picture["areas"]}
    assert areas["a01"]["armies"] == 3 and areas["a01"]["mine"]
    assert areas["a02"]["agents"][0]["type"] == "SPY"
    assert areas["a02"]["foreign"][0]["country"] == "k3"
    assert areas["a02"]["armies"] == 0  # seen by the spy
    assert areas["a09"]["agents"][0]["type"] == "WATCHER"
    assert areas["a03"]["armies"] is None  # never seen: not shown


def test_host_picture_draws_every_country() -> None:
    view: dict[str, Any] = {
        "map": builtin_maps()["default"].to_json(),
        "owners": {"a01": "k1", "a06": "k3"},
        "countries": [{"id": "k1", "name": "Arden", "seat": "s1", "areas": 1,
                       "eliminated": None},
                      {"id": "k3", "name": "Calder", "seat": "s2", "areas": 1,
                       "eliminated": None}],
        "private": {
            "k1": {"me": {"country": "k1", "armies": {"a01": 4}, "watchers": ["a09"],
                          "agents": [{"type": "SPY", "area": "a02"}], "wait": None},
                   "report": None},
            "k3": {"me": {"country": "k3", "armies": {"a06": 2}, "watchers": [],
                          "agents": [{"type": "MOLE", "area": "a02"}],
                          "wait": {"agent": "SPYCAT", "area": "a05", "target": "k1",
                                   "hunts": "SPY"}},
                   "report": None}},
    }
    picture = pages.host_picture(view)
    assert picture["host"] is True
    areas = {a["id"]: a for a in picture["areas"]}
    assert areas["a01"]["armies"] == 4 and areas["a06"]["armies"] == 2
    assert [(f["country"], f["type"]) for f in areas["a02"]["foreign"]] == [
        ("k1", "SPY"), ("k3", "MOLE")]
    assert areas["a09"]["foreign"][0]["type"] == "WATCHER"
    assert areas["a05"]["waiting_for"] == ["k3"]
    assert not any(a.get("mine") for a in picture["areas"])


def test_page_before_the_start_leads_to_the_game_page(alice: Browser) -> None:
    game_id = created(alice, "Not yet")
    assert alice.join(game_id, "Arden Court").status_code == 303
    page = alice.get(SEAT.format(game_id))
    assert page.status_code == 303 and page.headers["location"] == PAGE.format(game_id)
    refused = alice.post(PAGE.format(game_id) + "/orders", orders_form(*TURN))
    assert refused.status_code == 409 and "the game has not started yet" in refused.text


def test_a_host_pastes_a_map_and_reads_its_first_problem() -> None:
    """Maps as data on the web: a pasted map is validated at creation, with a clear error."""
    from spyhouse.games.kingdoms.maps import MapError

    plugin = registry.plugin("kingdoms")
    assert plugin.options_from_form({"option-map": ""}) == {}
    try:
        plugin.options_from_form({"option-map": "this is = not [ toml"})
    except MapError as exc:
        assert str(exc).startswith("map: not valid TOML")
    else:
        raise AssertionError("bad TOML accepted")
    text = (Path(__file__).resolve().parents[3] / "src/spyhouse/games/kingdoms/maps"
            / "default.toml").read_text(encoding="utf-8")
    assert "map" in plugin.options_from_form({"option-map": text})


def test_the_create_form_offers_every_games_options(alice: Browser) -> None:
    """A host who picks Kingdoms on the create form finds its map box there, whichever game
    the form opened with."""
    page = alice.get("/games/new").text
    kingdoms = re.search(r'<fieldset class="game-options" data-game="kingdoms".*?</textarea>',
                         page, re.S)
    assert kingdoms and 'name="option-map"' in kingdoms.group(0)
    assert "Options of Kingdoms" in kingdoms.group(0) and "Map (paste a map file" in page
    assert 'data-game="spyvsspy"' in page
