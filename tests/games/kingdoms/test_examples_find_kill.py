"""Spec §F examples 13-22: FIND at the moment it is processed (A.5) and KILL (A.6)."""

from __future__ import annotations

from typing import Any

from tests.games.kingdoms.fixture import (
    agent_lost,
    new_game,
    play,
    put,
    wait_cancelled,
    waiting,
)


def items(events: list[dict[str, Any]]) -> list[list[tuple[str, Any]]]:
    """Events with their keys in order (E.2 fixes the order)."""
    return [list(e.items()) for e in events]


def test_example_13_find_target_moves_later() -> None:
    """13: turn 1 (k1 k3 k5): k1's second FIND sees the move k3 made in slot 1."""
    state = new_game(3, turn=1)
    put(state, "k3:SPY@a05")
    t = play(state, {"k1": ["FIND - k3", "FIND - k3"], "k3": ["SPY - a04"]})
    assert t.results("k1") == [("done", "k3's spy is in a05"), ("done", "k3's spy is in a04")]
    assert [r["find"] for r in t.report("k1")["results"]] == [
        {"country": "k3", "area": "a05"}, {"country": "k3", "area": "a04"}]
    assert t.results("k3") == [("done", "moved spy a05 → a04 (land, 0 BP)")]
    assert t.events("k3") == []


def test_example_14_find_target_moved_earlier() -> None:
    """14: turn 2 (k3 k5 k1): k3's slot 1 comes before k1's slot 1."""
    state = new_game(3, turn=2)
    put(state, "k3:SPY@a05")
    t = play(state, {"k1": ["FIND - k3"], "k3": ["SPY - a04"]})
    assert t.results("k1") == [("done", "k3's spy is in a04")]


def test_example_15_find_where_types() -> None:
    """15: FIND where lists spies and watchers, never catchers; FIND whose finds only a SPY."""
    state = new_game(3)
    put(state, "k3:W@a09", "k5:SPY@a09", "k5:SPYCAT@a09", "k5:W@a09")
    t = play(state, {"k1": ["FIND a09", "FIND - k3"]})
    assert t.results("k1") == [("done", "in a09: k3 watcher, k5 SPY, k5 watcher"),
                               ("done", "k3 has no spy")]
    assert [r["find"] for r in t.report("k1")["results"]] == [
        {"area": "a09", "found": [{"country": "k3", "type": "WATCHER"},
                                  {"country": "k5", "type": "SPY"},
                                  {"country": "k5", "type": "WATCHER"}]},
        {"country": "k3", "area": None}]
    assert [r["bp"] for r in t.report("k1")["results"]] == [0, 0]
    assert t.bp_before_income("k1") == 6


def test_example_16_kill_in_owned_area() -> None:
    """16: an owner kills an enemy spy in its area without any agent."""
    state = new_game(3)
    put(state, "k3:SPY@a02")
    t = play(state, {"k1": ["KILL a02 k3"]})
    assert t.results("k1") == [("done", "killed k3's spy in a02")]
    assert items(t.events("k3")) == items([agent_lost("a02", "SPY", "kill", "k1", "owner")])
    assert t.agents("k3") == {}


def test_example_17_kill_pref_spy_then_watcher() -> None:
    """17: one target per KILL, the spy before the watcher."""
    state = new_game(3)
    put(state, "k3:SPY@a02", "k3:W@a02")
    t = play(state, {"k1": ["KILL a02 k3"] * 3})
    assert t.results("k1") == [("done", "killed k3's spy in a02"),
                               ("done", "killed k3's watcher in a02"),
                               ("done", "nothing found")]
    assert t.me("k3")["watchers"] == []


def test_example_18_kill_via_spycat_unowned() -> None:
    """18: a spy catcher kills a spy anywhere, but a watcher needs ownership."""
    state = new_game(3)
    put(state, "k1:SPYCAT@a08", "k3:SPY@a08", "k3:W@a08")
    t = play(state, {"k1": ["KILL a08 k3"] * 2})
    assert t.results("k1") == [("done", "killed k3's spy in a08"), ("done", "nothing found")]
    assert t.me("k3")["watchers"] == ["a08"]
    assert items(t.events("k3")) == items([agent_lost("a08", "SPY", "kill", "k1", "SPYCAT")])


def test_example_19_kill_via_mole_after_spy() -> None:
    """19: the spy goes first (via the catcher), then the spy catcher (via the mole)."""
    state = new_game(3)
    put(state, "k1:SPYCAT@a09", "k1:MOLE@a09", "k3:SPY@a09", "k3:SPYCAT@a09")
    t = play(state, {"k1": ["KILL a09 k3"] * 2})
    assert t.results("k1") == [("done", "killed k3's spy in a09"),
                               ("done", "killed k3's spy catcher in a09")]
    assert items(t.events("k3")) == items([agent_lost("a09", "SPY", "kill", "k1", "SPYCAT"),
                                           agent_lost("a09", "SPYCAT", "kill", "k1", "MOLE")])


def test_example_20_kill_via_molecat_molecat_immune() -> None:
    """20: a mole catcher kills a mole; nothing kills a mole catcher."""
    state = new_game(3)
    put(state, "k1:MOLECAT@a14", "k3:MOLE@a14", "k3:MOLECAT@a14")
    t = play(state, {"k1": ["KILL a14 k3"] * 2, "k3": ["KILL a14 k1"]})
    assert t.results("k1") == [("done", "killed k3's mole in a14"), ("done", "nothing found")]
    assert t.results("k3") == [("done", "nothing found")]
    assert t.agents("k1") == {"MOLECAT": "a14"}
    assert t.agents("k3") == {"MOLECAT": "a14"}
    assert items(t.events("k1")) == []


def test_example_21_kill_no_means() -> None:
    """21: no ownership and no catcher or mole in the area: the KILL fails."""
    t = play(new_game(3), {"k1": ["KILL a09 k3"]})
    assert t.results("k1") == [("failed", "you have no way to kill in a09")]
    assert t.quiet("k3")


def test_example_22_kill_cancels_victims_wait() -> None:
    """22: killing the waiting spy catcher cancels its WAIT; k1's spy then enters safely."""
    state = new_game(3)
    put(state, "k3:SPYCAT@a05", "k1:MOLE@a05", "k1:SPY@a04")
    waiting(state, "k3", "SPYCAT", "k1")
    t = play(state, {"k1": ["KILL a05 k3", "SPY - a05"]})
    assert t.results("k1") == [("done", "killed k3's spy catcher in a05"),
                               ("done", "moved spy a04 → a05 (land, 0 BP)")]
    assert items(t.events("k3")) == items([
        agent_lost("a05", "SPYCAT", "kill", "k1", "MOLE"),
        wait_cancelled("SPYCAT", "a05", "k1", "agent_lost")])
    assert t.agents("k1") == {"SPY": "a05", "MOLE": "a05"}
    assert t.me("k3")["wait"] is None
