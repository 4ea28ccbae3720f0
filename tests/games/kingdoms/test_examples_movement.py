"""Spec §F examples 01-12: recruiting (A.2), SPY/SKIP and the special moves (A.3), reports (A.4)."""

from __future__ import annotations

from tests.games.kingdoms.fixture import new_game, play, put, refusal


def test_example_01_recruit_and_land_move() -> None:
    """01: k1 recruits a spy in a01 and moves it to a02 in the same action."""
    t = play(new_game(3), {"k1": ["SPY a01 a02"]})
    assert t.results("k1") == [
        ("done", "recruited spy in a01 (2 BP); moved spy a01 → a02 (land, 0 BP)")]
    assert t.bp_before_income("k1") == 4
    assert t.me("k1")["bp"] == 7
    assert t.observations("k1") == [
        ("recruit", "a01", "SPY", "k1", 3, []),
        ("arrival", "a02", "SPY", "k1", 1, []),
        ("end", "a02", "SPY", "k1", 1, []),
    ]
    assert t.quiet("k3") and t.quiet("k5")


def test_example_02_recruit_needs_own_area() -> None:
    """02: a spy is recruited only in an own area or where a watcher is."""
    t = play(new_game(3), {"k1": ["SPY a08 a09"]})
    assert t.results("k1") == [
        ("failed", "cannot recruit a spy in a08: you do not own it and have no watcher there")]
    assert t.bp_before_income("k1") == 6
    assert t.observations("k1") == []
    assert t.agents("k1") == {}


def test_example_03_move_observes_agents() -> None:
    """03: the arrival shows k3's spy catcher in a03 but never k5's watcher."""
    state = new_game(3)
    put(state, "k1:SPY@a02", "k3:SPYCAT@a03", "k5:W@a03")
    t = play(state, {"k1": ["SPY - a03"]})
    assert t.results("k1") == [("done", "moved spy a02 → a03 (land, 0 BP)")]
    assert t.observations("k1") == [
        ("start", "a02", "SPY", "k1", 1, []),
        ("arrival", "a03", "SPY", None, 0, [("k3", "SPYCAT")]),
        ("end", "a03", "SPY", None, 0, [("k3", "SPYCAT")]),
    ]


def test_example_04_move_not_adjacent() -> None:
    """04: a land move to a non-adjacent area parses without FROM and fails when processed."""
    state = new_game(3)
    put(state, "k1:SPY@a02")
    t = play(state, {"k1": ["SPY - a05"]})
    assert t.results("k1") == [
        ("failed", "a05 is not adjacent to a02 (use SKIP for sea moves)")]
    assert t.agents("k1") == {"SPY": "a02"}
    assert refusal(state, "k1", ["SPY a02 a05"]) == (
        "action 1: SPY: a05 is not adjacent to a02 (use SKIP for sea moves)")


def test_example_05_skip_costs() -> None:
    """05: 1 BP per sea area of the cheapest route: a01→a03 (s1), a03→a24 (s1, s2)."""
    state = new_game(3)
    put(state, "k1:SPY@a01")
    t = play(state, {"k1": ["SKIP - a03", "SKIP - a24"]})
    assert t.results("k1") == [("done", "moved spy a01 → a03 (sea, 1 BP)"),
                               ("done", "moved spy a03 → a24 (sea, 2 BP)")]
    assert [r["bp"] for r in t.report("k1")["results"]] == [1, 2]
    assert t.bp_before_income("k1") == 3


def test_example_06_skip_not_enough_bp() -> None:
    """06: a07→a18 costs 3 (s4, s1, s2); with 1 BP the move fails and nothing happens."""
    state = new_game(3)
    state.countries["k1"].bp = 1
    put(state, "k1:SPY@a07")
    t = play(state, {"k1": ["SKIP - a18"]})
    assert t.results("k1") == [("failed", "not enough BPs (need 3, have 1)")]
    assert t.bp_before_income("k1") == 1
    assert t.agents("k1") == {"SPY": "a07"}


def test_example_07_recruit_and_skip() -> None:
    """07: recruit in a01 and cross two seas in one action: 2 + 2 BP."""
    t = play(new_game(3), {"k1": ["SKIP a01 a24"]})
    assert t.results("k1") == [
        ("done", "recruited spy in a01 (2 BP); moved spy a01 → a24 (sea, 2 BP)")]
    assert t.bp_before_income("k1") == 2
    assert [(o[0], o[1]) for o in t.observations("k1")] == [
        ("recruit", "a01"), ("arrival", "a24"), ("end", "a24")]


def test_example_08_skip_parse_errors() -> None:
    """08: SKIP with both areas given is checked at parse time."""
    state = new_game(3)
    assert refusal(state, "k1", ["SKIP a01 a02"]) == (
        "action 1: SKIP: a02 is adjacent to a01 (use SPY)")
    assert refusal(state, "k1", ["SKIP a08 a22"]) == (
        "action 1: SKIP: no sea route from a08 to a22")
    assert refusal(state, "k1", ["SKIP a09 a01"]) == (
        "action 1: SKIP: no sea route from a09 to a01")


def test_example_09_recruit_via_watcher() -> None:
    """09: a watcher makes its area a recruiting point and is not used up."""
    state = new_game(3)
    put(state, "k1:W@a09")
    t = play(state, {"k1": ["SPY a09 a10"]})
    assert t.results("k1") == [
        ("done", "recruited spy in a09 (2 BP); moved spy a09 → a10 (land, 0 BP)")]
    assert t.me("k1")["watchers"] == ["a09"]
    assert [(o[0], o[1], o[2]) for o in t.observations("k1")] == [
        ("recruit", "a09", "SPY"), ("arrival", "a10", "SPY"), ("end", "a10", "SPY"),
        ("end", "a09", "WATCHER")]


def test_example_10_special_recruit_points() -> None:
    """10: a spy catcher is recruited only where another own agent or a watcher is."""
    state = new_game(3)
    state.countries["k1"].bp = 10
    put(state, "k1:SPY@a08")
    t = play(state, {"k1": ["SPYCAT a01 a02", "SPYCAT a08 a09"]})
    assert t.results("k1") == [
        ("failed", "cannot recruit a spy catcher in a01: you have no other agent or watcher "
                   "there"),
        ("done", "recruited spy catcher in a08 (5 BP); moved spy catcher a08 → a09 "
                 "(land, 0 BP)"),
    ]
    assert t.bp_before_income("k1") == 5


def test_example_11_one_of_each_type() -> None:
    """11: a movement order never makes a second agent of a type."""
    state = new_game(3)
    put(state, "k1:SPY@a08", "k1:SPYCAT@a09")
    t = play(state, {"k1": ["SPYCAT a08 a14", "SPYCAT - a14"]})
    assert t.results("k1") == [("failed", "your spy catcher is in a09, not a08"),
                               ("failed", "no land or sea route from a09 to a14")]
    assert t.agents("k1") == {"SPY": "a08", "SPYCAT": "a09"}


def test_example_12_special_auto_sea() -> None:
    """12: the special types pick sea or land by themselves."""
    state = new_game(3)
    put(state, "k1:MOLE@a06")
    t = play(state, {"k1": ["MOLE - a18", "MOLE - a12"]})
    assert t.results("k1") == [("done", "moved mole a06 → a18 (sea, 1 BP)"),
                               ("done", "moved mole a18 → a12 (land, 0 BP)")]
    assert t.bp_before_income("k1") == 5
