"""A fifth game, defined in the tests alone (Sealed Bid), played through the platform's
real HTTP routes: no platform file knows it, so whatever works here works for any game
that keeps to the plugin contract (``core.plugin``)."""

from __future__ import annotations

import re
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.clock import FakeClock
from spyhouse.core import registry
from spyhouse.core.plugin import GamePlugin
from spyhouse.core.record import replay
from spyhouse.sim.simulate import simulate
from spyhouse.store.tables import Game
from spyhouse.web.client import ApiClient, play_seat
from tests.web.helpers import Browser, refused_form, refused_page, run_worker, saved_orders
from tests.web.test_api import make_token
from tests.web.test_demo_bot_cli import ViaTestClient


def _create(host: Browser, **fields: str) -> Any:
    return host.post("/games", {
        "game": "sealedbid", "title": "Friday auction", "max_seats": "",
        "schedule": "interval", "interval_hours": "48", "weekday": "Wednesday",
        "time": "20:00", "zone": "Pacific/Auckland", **fields})


def _game_id(response: Any) -> int:
    assert response.status_code == 303, response.text
    match = re.match(r"/games/(\d+)", response.headers["location"])
    assert match
    return int(match.group(1))


def _entry(sessions: sessionmaker[Session], game_id: int) -> tuple[int, str]:
    with sessions() as db:
        game = db.get(Game, game_id)
        assert game is not None
        return game.entry, game.status


def _bid(browser: Browser, game_id: int, bid: int | str, *, ready: bool = False) -> Any:
    page = browser.get(f"/games/{game_id}/seat").text
    entry = re.search(r'name="entry" value="(\d+)"', page)
    assert entry, "no order form on the seat page"
    form = {"bid": str(bid), "entry": entry.group(1)}
    if ready:
        form["ready"] = "1"
    return browser.post(f"/games/{game_id}/orders", form)


def test_lobby_and_create_form_offer_the_fifth_game(alice: Browser) -> None:
    lobby = alice.get("/lobby").text
    assert "Play Sealed Bid against the computer" in lobby
    assert '<input type="hidden" name="game" value="sealedbid">' in lobby
    new = alice.get("/games/new").text
    assert '<option value="sealedbid"' in new and ">Sealed Bid</option>" in new
    assert 'name="option-rounds"' in new and 'max="5"' in new
    chosen = alice.get("/games/new?game=sealedbid").text
    groups = dict(re.findall(r'<fieldset class="game-options" data-game="(\w+)"([^>]*)>', chosen))
    assert "sealedbid" in groups and len(groups) >= 2
    assert "hidden" not in groups.pop("sealedbid")
    assert all("hidden" in attrs and "disabled" in attrs for attrs in groups.values())
    refused = refused_form(alice, _create(alice, **{"option-rounds": "9"}), "/games/new")
    assert "Rounds: a whole number from 1 to 5" in refused.text


def test_quick_offer_starts_a_game_against_the_computer(alice: Browser,
                                                        sessions: sessionmaker[Session]
                                                        ) -> None:
    response = alice.post("/games/quick", {"game": "sealedbid"})
    assert response.status_code == 303
    game_id = int(response.headers["location"].split("/")[2])
    seat = alice.get(response.headers["location"]).text
    assert "Your budget: 100 left" in seat
    assert _bid(alice, game_id, 50, ready=True).status_code == 303  # played at once
    assert _entry(sessions, game_id) == (1, "running")
    report = alice.get(f"/games/{game_id}/report").text
    assert "Round 1: you bid 50 and won" in report


def test_a_whole_game_through_the_routes(app: FastAPI, clock: FakeClock, alice: Browser,
                                         bob: Browser, carol: Browser,
                                         sessions: sessionmaker[Session]) -> None:
    # carol hosts without a seat; alice and bob bid against a computer bidder
    game_id = _game_id(_create(carol, **{"option-rounds": "2"}))
    assert alice.join(game_id, "Alice Bids").status_code == 303
    assert bob.join(game_id, "Bob Bids").status_code == 303
    assert carol.add_bot(game_id, "steady").status_code == 303
    game = carol.get(f"/games/{game_id}").text
    assert "Steady Eddie" in game and "Computer (steady)" in game
    assert carol.start(game_id).status_code == 303

    seat = alice.get(f"/games/{game_id}/seat")
    assert seat.status_code == 200
    assert "Your budget: 100 left" in seat.text
    assert "Round 1 of 2: the prize is 10 points." in seat.text
    assert f'data-check="/games/{game_id}/check"' in seat.text

    checked = alice.post(f"/games/{game_id}/check", {"bid": "150"}).json()
    assert checked["ok"] is False
    assert checked["places"] == {"bid": ["bid: you have only 100 left"]}
    assert alice.post(f"/games/{game_id}/check", {"bid": "40"}).json()["ok"] is True

    # drafts do not play the round, however often the worker runs
    assert _bid(alice, game_id, 40).status_code == 303
    assert _bid(bob, game_id, 30).status_code == 303
    assert "saved as a <strong>draft</strong>" in alice.get(f"/games/{game_id}/seat").text
    run_worker(app, clock)
    assert _entry(sessions, game_id) == (0, "running")

    refused = refused_page(alice, _bid(alice, game_id, 500))
    assert "Nothing was saved: your previous orders stay in force." in refused.text
    row = refused.text.split('id="bid-row"')[1].split("</p>")[0]
    assert "bid: you have only 100 left" in row and 'value="500"' in row
    assert saved_orders(sessions, game_id, "s1") == {"bid": 40}

    # the host without a seat reads the host page; a seated player does not
    assert carol.get(f"/games/{game_id}/host").status_code == 200
    assert alice.get(f"/games/{game_id}/host").status_code == 404

    # final marks play the round (by the worker)
    assert alice.post(f"/games/{game_id}/ready", {"ready": "1"}).status_code == 303
    run_worker(app, clock)
    assert _entry(sessions, game_id) == (0, "running")  # bob's bid is still a draft
    assert bob.post(f"/games/{game_id}/ready", {"ready": "1"}).status_code == 303
    assert run_worker(app, clock) >= 1
    assert _entry(sessions, game_id) == (1, "running")

    report = alice.get(f"/games/{game_id}/report/1").text
    assert "Round 1: you bid 40 and won" in report and "Your budget: 60 left." in report
    assert "Alice Bids" in report.split('class="list results"')[1]
    assert "No bid yet." in alice.get(f"/games/{game_id}/report/0").text
    bob_state = bob.get(f"/games/{game_id}/state").json()["state"]
    assert bob_state["view"]["me"] == {"seat": "s2", "budget": 70, "bids": [30],
                                       "ledger": ["Round 1: you bid 30 and lost"]}
    assert "budgets" not in bob_state["view"] and "bids" not in bob_state["view"]
    assert "bid 40" not in bob.get(f"/games/{game_id}/report").text  # alice's bid is hers
    host = carol.get(f"/games/{game_id}/host").text
    assert "Round 1: Alice Bids bid 40" in host and "Steady Eddie: 67 left" in host

    # round 2: bob outbids everyone; the game ends
    assert _bid(alice, game_id, 10, ready=True).status_code == 303
    assert _bid(bob, game_id, 50, ready=True).status_code == 303
    assert run_worker(app, clock) >= 1
    assert _entry(sessions, game_id) == (2, "over")

    over = alice.get(f"/games/{game_id}").text
    assert "Bob Bids wins with 20 points." in over
    standings = over.split('class="list standings"')[1].split("</table>")[0]
    assert standings.index("Bob Bids") < standings.index("Alice Bids")
    assert alice.get(f"/games/{game_id}/host").status_code == 200  # the reveal
    assert "The auction is over" in alice.get(f"/games/{game_id}/seat").text
    lobby = alice.get("/lobby").text
    assert "over: Bob Bids wins with 20 points." in lobby


def test_a_bot_plays_a_seat_through_the_api_until_the_end(app: FastAPI, clock: FakeClock,
                                                          alice: Browser, bob: Browser,
                                                          sessions: sessionmaker[Session]
                                                          ) -> None:
    game_id = _game_id(_create(alice, **{"option-rounds": "2"}))
    assert alice.join(game_id, "Alice Bids").status_code == 303
    assert bob.join(game_id, "Bob Bids").status_code == 303
    assert alice.start(game_id).status_code == 303
    token = make_token(bob, game_id)
    api = ApiClient.connect("http://testserver", token, transport=ViaTestClient(TestClient(app)))

    def sleep(_seconds: float) -> None:  # alice bids 1 each round; the worker plays it
        with sessions() as db:
            game = db.scalar(select(Game).where(Game.id == game_id))
            assert game is not None
            running = game.status == "running"
        if running and saved_orders(sessions, game_id, "s1") is None:
            assert _bid(alice, game_id, 1, ready=True).status_code == 303
        run_worker(app, clock)

    sent = play_seat(api, "steady", seed=1, say=lambda _line: None, sleep=sleep,
                     max_polls=10)
    assert sent == 2
    assert _entry(sessions, game_id) == (2, "over")
    assert "Bob Bids wins with 30 points." in alice.get(f"/games/{game_id}").text


def test_the_fifth_game_keeps_the_core_contract(sealedbid: GamePlugin) -> None:
    """What ``tests/core/test_conformance.py`` asks of the installed games: bot games end,
    replay to the same views, and ``parse_orders`` takes back what ``dump_orders`` wrote."""
    result = simulate("sealedbid", players=3, turns=10, seed=5, options={"rounds": 4})
    assert result.outcome is not None and not result.refusals and result.entries == 4
    ruleset = registry.get("sealedbid")
    states = list(replay(result.record))
    assert [ruleset.view(s, None) for s in states] == \
        [ruleset.view(s, None) for s in replay(result.record)]
    first = states[0]
    assert ruleset.dump_orders(ruleset.parse_orders(first, "s1", {"bid": 7})) == {"bid": 7}
    assert ruleset.view(states[-1], "s1")["game_over"]["bids"][0] == {"s1": 33, "s2": 33,
                                                                      "s3": 33}
