"""A whole game on the web, through the pages only: two players sign up, one creates
a game, both join, the host starts it, both give orders, the worker processes the
turn, and each reads a report laid out like the seed's sample turn sheet."""

from __future__ import annotations

import re

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from spyhouse.clock import FakeClock
from tests.web.helpers import Browser, row_html, run_worker


def test_sign_up_to_a_processed_turn(app: FastAPI, clock: FakeClock) -> None:
    play_one_turn(app, clock)


@pytest.mark.postgres
def test_sign_up_to_a_processed_turn_on_postgresql(app: FastAPI, clock: FakeClock) -> None:
    play_one_turn(app, clock)


def play_one_turn(app: FastAPI, clock: FakeClock) -> None:
    ann = Browser(TestClient(app, follow_redirects=False))
    ben = Browser(TestClient(app, follow_redirects=False))
    ann.sign_up("ann")
    ben.sign_up("ben")

    game_id = ann.create_game("Friday spies", schedule="weekly", base_choice="choose")
    lobby = ben.get("/lobby").text
    assert "Friday spies" in lobby
    assert ann.join(game_id, "Gimps", base="A").status_code == 303
    assert ben.join(game_id, "Toadies", base="H", show_email="").status_code == 303
    assert ann.start(game_id).status_code == 303

    game_page = ben.get(f"/games/{game_id}").text
    assert "Gimps" in game_page and "Toadies" in game_page and "hidden" in game_page
    assert "ann@example.org" in game_page and "ben@example.org" not in game_page
    assert "every Wednesday at 20:00 (Pacific/Auckland)" in game_page

    # Ann: leader and spies WORK in the Academy, one spy HUNTs there; Ben: all to A too.
    ann_form = {f"spy-{n}-task": "WORK" for n in range(1, 10)}
    ann_form.update({f"spy-{n}-region": "A" for n in range(1, 10)})
    ann_form.update({"spy-2-task": "HUNT", "spy-2-brotherhood": "s2", "ready": "1"})
    assert ann.post(f"/games/{game_id}/orders", ann_form).status_code == 303
    ben_form = {f"spy-{n}-task": "TRAIN" for n in range(1, 10)}
    ben_form.update({f"spy-{n}-region": "A" for n in range(1, 10)})
    ben_form["ready"] = "1"
    assert ben.post(f"/games/{game_id}/orders", ben_form).status_code == 303
    assert "marked final" in ben.get(f"/games/{game_id}/seat").text

    assert run_worker(app, clock) >= 1  # every human is ready: the turn closes early

    report = ann.get(f"/games/{game_id}/report").text
    assert "report after turn 1" in report
    table = report.split('id="brotherhood-report"')[1].split("</table>")[0]
    rows = re.findall(r"<tr class=\"row-(\w+)\">\s*<th scope=\"row\">([^<]+)</th>(.*?)</tr>",
                      table, re.S)
    labels = [label for _kind, label, _cells in rows]
    assert labels[0] == "Toadies"
    assert "Disguised as you" in labels and "TRAIN" in labels and "WORK" in labels
    by_label = {label: re.findall(r"<td[^>]*>([^<]*)</td>", cells)
                for _kind, label, cells in rows}
    toadies = by_label["Toadies"]
    assert toadies[0] == "9"  # column A: all nine Toadies were seen in the Academy
    assert toadies[1:9] == ["?"] * 8  # Ann saw nothing anywhere else
    assert toadies[9:12] == ["ben", "hidden", "8"]  # one was hunted down (below)
    assert by_label["TRAIN"][0] == "9" and by_label["TRAIN"][1] == "?"
    leader_rows = [label for kind, label, _cells in rows if kind == "leader"]
    assert len(leader_rows) == 1 and leader_rows[0].startswith("Mr ")
    assert by_label[leader_rows[0]][:2] == ["✓", "?"]  # Ben's leader was seen in the Academy
    assert "killed a spy of Toadies" in report  # Ann's hunter (skill 3) found a weaker trainee
    assert "Gimps killed a spy of Toadies" in report  # the news
    ben_report = ben.get(f"/games/{game_id}/report").text
    assert "Gimps killed a spy of Toadies" in ben_report
    assert "killed by a hunter of Gimps" in ben_report
    assert "skill +3 for 18 gp" in ben_report  # the first trainee paid for the Academy
    seat = ann.get(f"/games/{game_id}/seat").text
    assert "This turn closes" in seat and 'class="countdown"' in seat
    assert 'id="spy-1"' in seat and "Leader" in row_html(seat, "spy-1")
