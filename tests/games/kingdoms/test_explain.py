"""Kingdoms' "why it happened" (issue 13 item 6), as its events allow: the player order,
the action phase slot by slot, and what was killed, ambushed, sabotaged or fought over.

Worked examples of spec §F with a kill, an ambush, a sabotage, a battle, an elimination
or the player order are played and their explanation must state the outcome. Properties:
explain never raises on random games, its titles and lines are non-empty strings, and a
replayed record explains every entry as the live run did.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spyhouse.core.record import replay
from spyhouse.games.kingdoms.plugin import PLUGIN
from tests.games.kingdoms.fixture import RULES, Played, new_game, play, put, set_area, waiting
from tests.games.kingdoms.randomplay import play as random_play

PAGES = PLUGIN.pages


def _why(t: Played) -> dict[str, list[str]]:
    return {e.title: list(e.lines) for e in PAGES.explain(RULES.view(t.after, None), None, 1)}


def _names(t: Played) -> dict[str, str]:
    return {c.id: c.name for c in t.after.countries.values()}


def test_titles_follow_d2() -> None:
    t = play(new_game(3), {"k1": ["FIND - k3"]})
    assert list(_why(t)) == ["D.2.1 Player order", "D.2.3 Start observations",
                             "D.2.4 Action phase",
                             "Spies caught, ambushes, sabotage and battles",
                             "D.2.5 Eliminations", "D.2.6 Income", "D.2.7 End observations"]


def test_example_16_kill_in_owned_area() -> None:
    """16: the owner kills k3's spy in a02 without any agent."""
    state = new_game(3)
    put(state, "k3:SPY@a02")
    t = play(state, {"k1": ["KILL a02 k3"]})
    n = _names(t)
    why = _why(t)
    assert f"Slot 1, {n['k1']}: KILL a02 k3: done: killed k3's spy in a02." in why[
        "D.2.4 Action phase"]
    assert why["Spies caught, ambushes, sabotage and battles"] == [
        f"{n['k3']} lost its spy in a02: killed by {n['k1']} (as the area's owner)."]


def test_example_23_wait_triggered_land() -> None:
    """23: k1's spy catcher waits in a02; next turn k3's spy walks in and is caught."""
    state = new_game(3, turn=1)
    put(state, "k1:SPYCAT@a02")
    t1 = play(state, {"k1": ["WAIT - k3 SPYCAT"]})
    state2 = t1.after
    put(state2, "k3:SPY@a03")
    t2 = play(state2, {"k3": ["SPY - a02"]})
    n = _names(t2)
    # each country's events in turn 2's player order (k3 k5 k1)
    assert _why(t2)["Spies caught, ambushes, sabotage and battles"] == [
        f"{n['k3']} lost its spy in a02: ambushed by {n['k1']}'s waiting spy catcher.",
        f"{n['k1']}'s WAIT in a02 caught {n['k3']}'s spy as it entered."]


def test_example_32_sabotage() -> None:
    """32: k1's spy disperses one of k3's armies in a05 and is caught."""
    state = new_game(3)
    put(state, "k1:SPY@a05")
    t = play(state, {"k1": ["SABOTAGE", "SPY a01 a02"]})
    n = _names(t)
    why = _why(t)
    assert (f"Slot 1, {n['k1']}: SABOTAGE: done, 1 BP paid: sabotage in a05: one army of k3 "
            "dispersed; your spy was caught.") in why["D.2.4 Action phase"]
    assert why["Spies caught, ambushes, sabotage and battles"] == [
        f"{n['k3']}'s area a05 was sabotaged by {n['k1']}: one army dispersed."]


def test_example_38_player_order() -> None:
    """38: turn 5 with k3 out since turn 4: the order is k5, k1; slots follow it."""
    state = new_game(3, turn=5)
    for area in state.owned("k3"):
        set_area(state, area, None, 0)
    state.countries["k3"].eliminated = 4
    t = play(state, {"k5": ["FIND - k1"], "k1": ["FIND - k5", "FIND - k5"]})
    n = _names(t)
    why = _why(t)
    assert why["D.2.1 Player order"][0].startswith(f"Turn 5: {n['k5']}, {n['k1']} (")
    slots = why["D.2.4 Action phase"]
    assert [line.split(":")[0] for line in slots] == [
        f"Slot 1, {n['k5']}", f"Slot 1, {n['k1']}", f"Slot 2, {n['k1']}"]


def test_example_42_battle_capture() -> None:
    """42: the attacker loses one, then the defender; a03 falls."""
    state = new_game(6)
    set_area(state, "a02", "k1", 3)
    t = play(state, {"k1": ["MOVE a02 a03 3"]}, battle=[2, 4, 6, 3])
    n = _names(t)
    assert _why(t)["Spies caught, ambushes, sabotage and battles"] == [
        f"Battle in a03: {n['k1']} attacked with 3 against {n['k2']}'s 1; losses 1 and 1; "
        "the attacker captured it (ties go to the defender).",
        f"{n['k2']} lost a03 to {n['k1']} after a battle."]


def test_example_44_elimination() -> None:
    """44: k5 loses its last area and is eliminated; k1's WAIT on it is cancelled."""
    state = new_game(3, turn=1)
    for area in state.owned("k5"):
        set_area(state, area, None, 0)
    set_area(state, "a15", "k5", 0)
    set_area(state, "a14", "k1", 2)
    put(state, "k5:SPY@a03", "k5:W@a09", "k1:SPY@a02")
    waiting(state, "k1", "SPY", "k5")
    t = play(state, {"k1": ["MOVE a14 a15 1"]})
    n = _names(t)
    why = _why(t)
    assert why["D.2.5 Eliminations"] == [f"Eliminated: {n['k5']} (no land area left)."]
    events = why["Spies caught, ambushes, sabotage and battles"]
    assert f"{n['k5']} lost a15 to {n['k1']} without a battle." in events
    assert f"{n['k5']} was eliminated in turn 1." in events
    assert (f"{n['k1']}'s spy stopped waiting in a02 for {n['k5']}: target eliminated."
            in events)


GAMES = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@GAMES
@given(seed=st.integers(0, 2**31), players=st.integers(3, 6))
def test_explain_never_raises_and_replays_identically(seed: int, players: int) -> None:
    """Every entry of a random game is explained in non-empty titles and lines, and the
    replayed record explains each entry as the live run did."""
    game = random_play(seed, players, 12)
    for entry, (live, replayed) in enumerate(zip(game.states, replay(game.record),
                                                 strict=True)):
        orders = game.record.turns[entry - 1] if entry else None
        explained = PAGES.explain(RULES.view(live, None), orders, entry)
        assert explained
        for e in explained:
            assert isinstance(e.title, str) and e.title
            assert e.lines and all(isinstance(line, str) and line for line in e.lines)
        assert explained == PAGES.explain(RULES.view(replayed, None), orders, entry)
