"""Spec §F examples 32-37: SABOTAGE (A.8), WATCH and watchers (A.9), stale FROM (A.2.6)."""

from __future__ import annotations

from tests.games.kingdoms.fixture import (
    agent_lost,
    event,
    new_game,
    play,
    put,
)
from tests.games.kingdoms.test_examples_find_kill import items


def test_example_32_sabotage() -> None:
    """32: one of k3's armies in a05 goes to k3's reserve; k1's spy is caught."""
    state = new_game(3)
    put(state, "k1:SPY@a05")
    t = play(state, {"k1": ["SABOTAGE", "SPY a01 a02"]})
    assert t.results("k1") == [
        ("done", "sabotage in a05: one army of k3 dispersed; your spy was caught"),
        ("done", "recruited spy in a01 (2 BP); moved spy a01 → a02 (land, 0 BP)")]
    assert [r["bp"] for r in t.report("k1")["results"]] == [1, 2]
    assert t.bp_before_income("k1") == 3
    assert t.after.armies["a05"] == 0
    assert t.after.owners["a05"] == "k3"
    assert t.me("k3")["reserve"] == 8
    assert t.me("k3")["armies"]["a05"] == 0
    assert items(t.events("k3")) == items([event("sabotaged", area="a05", by="k1",
                                                 dispersed=True)])
    assert t.agents("k1") == {"SPY": "a02"}


def test_example_33_sabotage_edges() -> None:
    """33: in a neutral area the spy and the BP are still lost; in an own area it fails."""
    state = new_game(3)
    put(state, "k1:SPY@a11")
    t = play(state, {"k1": ["SABOTAGE"]})
    assert t.results("k1") == [
        ("done", "sabotage in a11: no army to disperse; your spy was caught")]
    assert t.bp_before_income("k1") == 5
    assert t.agents("k1") == {}
    assert t.quiet("k3") and t.quiet("k5")

    state = new_game(3)
    put(state, "k1:SPY@a02")
    t = play(state, {"k1": ["SABOTAGE"]})
    assert t.results("k1") == [("failed", "your spy is in your own area a02")]
    assert t.bp_before_income("k1") == 6
    assert t.agents("k1") == {"SPY": "a02"}


def test_example_34_watch() -> None:
    """34: the spy goes underground in a09; next turn a spy is recruited there."""
    state = new_game(3, turn=1)
    put(state, "k1:SPY@a09")
    t = play(state, {"k1": ["WATCH"]})
    assert t.results("k1") == [("done", "your spy went underground in a09")]
    assert t.agents("k1") == {}
    assert t.me("k1")["watchers"] == ["a09"]
    assert t.observations("k1")[-1] == ("end", "a09", "WATCHER", None, 0, [])
    assert [r["bp"] for r in t.report("k1")["results"]] == [0]
    t2 = play(t.after, {"k1": ["SPY a09 a03"]})
    assert t2.results("k1") == [
        ("done", "recruited spy in a09 (2 BP); moved spy a09 → a03 (land, 0 BP)")]
    assert t2.after.owners["a09"] is None


def test_example_35_watch_limits() -> None:
    """35: one watcher per area, at most max_watchers (3)."""
    state = new_game(3)
    put(state, "k1:W@a08", "k1:W@a09", "k1:W@a14", "k1:SPY@a09")
    t = play(state, {"k1": ["WATCH", "SPY - a03", "WATCH"]})
    assert t.results("k1") == [("failed", "you already have a watcher in a09"),
                               ("done", "moved spy a09 → a03 (land, 0 BP)"),
                               ("failed", "you already have 3 watchers")]
    assert t.agents("k1") == {"SPY": "a03"}


def test_example_36_watcher_killed_only_by_owner() -> None:
    """36: turn 3 (k5 k1 k3): k5's spy catcher cannot kill a watcher; the owner k1 can."""
    state = new_game(3, turn=3)
    put(state, "k3:W@a02", "k5:SPYCAT@a02")
    t = play(state, {"k5": ["KILL a02 k3"], "k1": ["KILL a02 k3"]})
    assert t.results("k5") == [("done", "nothing found")]
    assert t.results("k1") == [("done", "killed k3's watcher in a02")]
    assert items(t.events("k3")) == items([agent_lost("a02", "WATCHER", "kill", "k1",
                                                      "owner")])
    assert t.me("k3")["watchers"] == []


def test_example_37_from_mismatch_and_replacement() -> None:
    """37: a FROM naming the dead spy's area cannot recruit there; a FROM in an own area can."""
    state = new_game(3, turn=1)
    put(state, "k3:SPY@a02")
    t = play(state, {"k1": ["KILL a02 k3"], "k3": ["SPY a02 a03", "SPY a06 a05"]})
    assert t.results("k1") == [("done", "killed k3's spy in a02")]
    assert t.results("k3") == [
        ("failed", "cannot recruit a spy in a02: you do not own it and have no watcher there"),
        ("done", "recruited spy in a06 (2 BP); moved spy a06 → a05 (land, 0 BP)")]
    assert t.bp_before_income("k3") == 4

    state = new_game(3, turn=1)
    put(state, "k3:SPY@a04")
    t = play(state, {"k3": ["SPY a05 a06"]})
    assert t.results("k3") == [("failed", "your spy is in a04, not a05")]
