"""The plain-text reports (``text.py``) that ``spyhouse replay`` prints."""

from __future__ import annotations

from spyhouse.games.infiltration import text
from tests.games.infiltration.botplay import RULES, play
from tests.games.infiltration.scenario import Scenario


def test_seat_report_shows_what_the_seat_knows() -> None:
    game = Scenario(["Ann", "Hal"], rooms={"Ann": "D-5", "Hal": "D-5"},
                    npcs={"Guard-D": "D-5"}, features={"D-5": "Seer"})
    game.move()
    report = text.render_report(game.view("Hal"))
    assert report.startswith("INFILTRATION — turn 1, Decision phase — ALERT MODE\n")
    assert f"You: Hal ({game.seat('Hal')}), Green Hacker, alive, in D-5" in report
    assert "Arrival report (turn 1): D-5 — Seer — operational — clean" in report
    assert "  Players here: Ann" in report and "  NPCs here: Guard-D" in report
    assert "  vote: Ann, " in report and "  kill: Ann, Guard-D" in report
    assert "terminal: Seer — actions: none" in report
    assert "[alert] ALERT MODE" in report
    assert "Red Warrior" not in report and "The Reds:" not in report


def test_red_report_lists_the_reds_and_occupancy() -> None:
    game = Scenario(["Ann"], rooms={"Ann": "A-1", "Rex": "C-2", "Roy": "C-3"})
    report = text.render_report(game.view("Rex"))
    assert "The Reds: Rex, Roy" in report
    assert "Occupancy (Reds only): A-1: 1" in report


def test_host_report_and_standings() -> None:
    game = play(12, 8)
    host = text.render_host(RULES.view(game.final, None))
    assert "Facility (* hacked, x destroyed):" in host
    assert "Code: " in host and "GHOST" in host
    result = game.final.result
    assert result is not None
    assert f"GAME OVER on turn {result['turn']}" in host
    seat = text.render_report(RULES.view(game.final, "s1"))
    assert "General's code:" in seat  # the reveal at the end
    standings = text.render_standings(RULES.view(game.final, None))
    assert standings.startswith(f"{result['result']} ({result['reason']})")
    ongoing = text.render_standings(RULES.view(game.states[1], None))
    assert "Agent1" in ongoing and "alive" in ongoing
