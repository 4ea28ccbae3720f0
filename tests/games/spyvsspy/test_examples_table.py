"""Spec §10 E46–E48: the brotherhood report (§8.2 item 6)."""

from __future__ import annotations

from spyhouse.games.spyvsspy.model import State
from tests.games.spyvsspy.fixture import column, play, seen, unobserved


def test_e46_counts_include_leaders(game: State) -> None:
    """E46 (FAQ spies seen include leaders): Bravo's leader and Bravo#4 WORK in F, where
    Alpha#3 WORKs. Alpha's F column counts both Bravo spies (the leader too), WORK 2, and
    ticks Mr Orange."""
    t = play(game, {"s2": {1: ("WORK", "F"), 4: ("WORK", "F")}, "s1": {3: ("WORK", "F")}})
    assert seen(t.view("s1"), "F") == {"Bravo": 2, "WORK": 2, "Mr Orange": "✓"}


def test_e47_own_spies_excluded(game: State) -> None:
    """E47 (FAQ my crew): Alpha#2–#6 WORK in F and nobody else is there. The column is
    observed, but Alpha's own spies are never counted: every count is 0, no tick (Alpha's
    own leader never has a row)."""
    t = play(game, {"s1": {n: ("WORK", "F") for n in range(2, 7)}})
    view = t.view("s1")
    col = column(view, "F")
    assert seen(view, "F") == {}
    assert "Mr Pink" not in col and "Alpha" not in col
    assert all(col[task] == 0 for task in ("WORK", "COVERT", "HUNT"))


def test_e48_observed_regions(game: State) -> None:
    """E48: Alpha's leader and #2–#6 WORK in A; #7 (1) WORKs in B and is killed there by
    Bravo#2 (3); #8 and #9 HIDE in C. Only A is observed: a killed spy gives no report and
    hiders observe nothing, so every cell of B–I is "?" and every cell of A a number or a
    leader cell."""
    orders = {n: ("WORK", "A") for n in range(1, 7)}
    orders.update({7: ("WORK", "B"), 8: ("HIDE", "C"), 9: ("HIDE", "C")})
    t = play(game, {"s1": orders, "s2": {2: ("HUNT", "B")}})
    view = t.view("s1")
    assert t.result("s1", 7) == "killed by a hunter of Bravo"
    assert seen(view, "A") == {}
    for row in view["table"]["rows"]:
        a = row["cells"]["A"]
        if row["kind"] == "leader":
            assert a == ""
        else:
            assert isinstance(a, int) and not isinstance(a, bool)
    for region in "BCDEFGHI":
        assert unobserved(view, region), region
