"""Plain-text reports (``kingdoms/text.py``) made from views only."""

from __future__ import annotations

from spyhouse.games.kingdoms import text
from tests.games.kingdoms.fixture import RULES, new_game, play, put, waiting
from tests.games.kingdoms.randomplay import play as play_game


def test_report_shows_results_observations_and_events() -> None:
    state = new_game(3)
    put(state, "k3:SPY@a02", "k1:SPYCAT@a02")
    waiting(state, "k1", "SPYCAT", "k5")
    t = play(state, {"k1": ["KILL a02 k3", "SPY a01 a02", "MOVE a02 a08", "WAIT - k3 SPYCAT"]})
    page = text.render_report(t.view("k3"))
    assert "KINGDOMS — The Six Realms — orders for turn 2 — k3 (Calder)" in page
    assert "your spy in a02 Harrow was killed by k1 (Arden) as the area's owner" in page
    assert "a08 Greyholm: neutral → k1 (Arden)" in page
    mine = text.render_report(t.view("k1"))
    assert "killed k3's spy in a02" in mine
    assert "KILL a02 k3" in mine and "MOVE a02 a08" in mine
    assert "recruit  spy" in mine
    assert "your spy catcher no longer waits in a02 for k5 (replaced)" in mine
    assert "standing WAIT: your spy catcher in a02 waits for k3's spy" in mine
    assert "Player order of turn 2: k3 k5 k1" in mine


def test_report_reveals_only_the_view() -> None:
    """A rendered report is made from the view: another country's rows never appear."""
    state = new_game(3)
    t = play(state, {"k1": ["FIND - k5"], "k3": ["RAISE a06 - 1"]})
    page = text.render_report(t.view("k1"))
    assert "RAISE" not in page and "FIND - k5" in page


def test_host_spectator_and_standings() -> None:
    game = play_game(5, 4, mix="bots")
    final = game.states[-1]
    host = text.render_host(RULES.view(final, None))
    assert "final report — host" in host and "Final ranking after turn" in host
    for c in final.countries.values():
        assert f"Your country: {c.id} ({c.name})" in host
    public = text.render_host(RULES.public_view(final))
    assert "final report — public" in public and "Your country" not in public
    standings = text.render_standings(RULES.view(game.states[2], None))
    assert standings.startswith("Standings after turn 2 (game not over)")
    assert text.render_report(RULES.public_view(final)) == public


def test_event_texts() -> None:
    view = RULES.view(new_game(3), "s1")
    cases: dict[str, dict[str, object]] = {
        "your mole was ambushed in a02 Harrow by k3 (Calder)'s mole catcher": {
            "event": "agent_lost", "area": "a02", "type": "MOLE", "cause": "ambush",
            "by": "k3", "means": "MOLECAT"},
        "your ambush in a02 Harrow caught k3 (Calder)'s spy": {
            "event": "ambush", "area": "a02", "victim": "k3", "type": "SPY"},
        "k3 (Calder)'s spy sabotaged a01 Northmark: no army there to disperse": {
            "event": "sabotaged", "area": "a01", "by": "k3", "dispersed": False},
        "a07 Westfold was captured by k5 (Eskar) without battle": {
            "event": "area_captured", "area": "a07", "by": "k5", "battle": False},
        "your country was eliminated in turn 4": {"event": "eliminated", "turn": 4},
    }
    for expected, event in cases.items():
        assert text.event_text(view, event) == expected
