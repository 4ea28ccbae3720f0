"""Spec §10 E09–E13, E59, E60: HIDE, validation (§5.3) and no-shows (§5.5, §6 S3)."""

from __future__ import annotations

from spyhouse.games.spyvsspy.model import State
from tests.games.spyvsspy.fixture import (
    RULES,
    play,
    refusal,
    seen,
    sheet_json,
    unobserved,
)


def test_e09_hide_safe_and_silent(game: State) -> None:
    """E09: Alpha#5 (2) HIDEs in D, Alpha's only spy there; Bravo#2 (3) HUNTs in D and
    nobody else is there. The hider is never a target ("found no one to hunt"), is
    invisible in Bravo's report (every count in D is 0) and observes nothing (Alpha's D
    column is "?")."""
    t = play(game, {"s1": {5: ("HIDE", "D")}, "s2": {2: ("HUNT", "D")}})
    assert t.result("s2", 2) == "found no one to hunt"
    assert t.spy("s1", 5)["killed"] is False
    assert t.spy("s1", 5)["at"] == "D"
    assert seen(t.view("s2"), "D") == {}
    assert unobserved(t.view("s1"), "D")
    assert t.news == []
    assert t.result("s1", 5) == "hid in D Docks"


def test_e10_leader_hide_becomes_work(game: State) -> None:
    """E10: Alpha orders its leader (spy 1) to HIDE in C. The sheet is accepted with the
    warning that he will WORK in C Cathedral (V9). Resolved, he WORKs there: 4 + 1 = 5 gp,
    a notice says so, the spy list shows WORK C, and Bravo's observer in C counts Alpha 1,
    WORK 1 and ticks Mr Pink."""
    sheet = RULES.parse_orders(game, "s1", sheet_json(
        {n: ("HIDE", "C") if n == 1 else ("WORK", "I") for n in range(1, 10)}))
    assert RULES.warnings(game, "s1", sheet) == [
        "spy 1: Leaders cannot HIDE, he will WORK in C Cathedral"]

    t = play(game, {"s1": {1: ("HIDE", "C")}, "s2": {3: ("WORK", "C")}})
    assert t.warnings["s1"] == ["spy 1: Leaders cannot HIDE, he will WORK in C Cathedral"]
    assert t.gp("s1") == 25
    assert t.notices("s1") == ["spy 1: Leaders cannot HIDE, he worked in C Cathedral"]
    assert t.spy("s1", 1)["task"] == {"task": "WORK", "region": "C"}
    assert t.result("s1", 1) == "earned 5 gp"
    assert seen(t.view("s2"), "C") == {"Alpha": 1, "WORK": 1, "Mr Pink": "✓"}


def test_e11_leader_follow_refused(game: State) -> None:
    """E11: a leader cannot FOLLOW (V8): Alpha's sheet with spy 1 FOLLOW Mr Orange is
    refused as a whole, so whatever stood before (here: nothing, a no-show) still stands."""
    assert refusal(game, "s1", sheet_json({1: ("FOLLOW", "Mr Orange")})) == (
        "spy 1: Leaders cannot FOLLOW",)
    assert refusal(game, "s1", sheet_json({1: ("FOLLOW", "Mr Orange"), 2: ("WORK", "H")})) == (
        "spy 1: Leaders cannot FOLLOW",)


def test_e12_disguise_as_own_refused(game: State) -> None:
    """E12: Alpha#4 may not DISGUISE as Alpha itself (V5)."""
    assert refusal(game, "s1", sheet_json({4: ("DISGUISE", "E", "s1")})) == (
        "spy 4: you cannot disguise as your own brotherhood",)


def test_e13_invalid_region_refused(game: State) -> None:
    """E13: spy 4 WORK in "Z" and spy 6 RECRUIT with a region: both errors are listed,
    by spy number (V3, V4)."""
    assert refusal(game, "s1", sheet_json({4: ("WORK", "Z"), 6: ("RECRUIT", "G")})) == (
        "spy 4: unknown region Z",
        "spy 6: RECRUIT takes no region (it always happens in the Ghetto)",
    )


def test_e59_no_show(game: State) -> None:
    """E59: Delta submits nothing. ``default:s4`` draws 8, 1, 1, 4, 4, 4, 9, 9, 9 for #1–#9:
    #1 WORKs in H (4 + 5 = 9 gp), #2–#3 in A (3 + 1 = 4 each), #4–#6 in D (2 + 4 = 6 each),
    #7–#9 in I (1 + 1 = 2 each): 20 + 41 = 61 gp. Delta declares nothing and its only notice
    is the no-show notice. Nobody hunts."""
    t = play(game, no_show={"s4"}, avoid="HADI",
             script={"default:s4": [8, 1, 1, 4, 4, 4, 9, 9, 9]})
    assert t.draws("default:s4") == [(9, v) for v in (8, 1, 1, 4, 4, 4, 9, 9, 9)]
    assert t.rng.unused() == {}
    assert t.gp("s4") == 61
    view = t.view("s4")
    assert view["me"]["gp"] == 61
    assert view["me"]["notices"] == ["no orders received: all spies worked in random regions"]
    assert view["declarations"] == []
    expected = {1: ("H", 9), 2: ("A", 4), 3: ("A", 4), 4: ("D", 6), 5: ("D", 6), 6: ("D", 6),
                7: ("I", 2), 8: ("I", 2), 9: ("I", 2)}
    for number, (region, pay) in expected.items():
        line = t.spy("s4", number)
        assert line["task"] == {"task": "WORK", "region": region}
        assert line["at"] == region
        assert line["result"] == f"earned {pay} gp"


def test_e60_partial_orders(game: State) -> None:
    """E60: Alpha's sheet orders #1–#8 only. It is accepted with a warning for #9 (V14);
    ``default:s1`` draws 5, so #9 WORKs in E Embassy for 1 + 2 = 3 gp and a notice says so."""
    t = play(game, omit={"s1": {9}}, avoid="E", script={"default:s1": [5]})
    assert t.warnings["s1"] == ["spy 9 has no orders: it will WORK in a random region"]
    assert t.draws("default:s1") == [(9, 5)]
    assert t.notices("s1") == ["spy 9 had no orders: he worked in E Embassy"]
    assert t.spy("s1", 9)["task"] == {"task": "WORK", "region": "E"}
    assert t.result("s1", 9) == "earned 3 gp"
    assert t.gp("s1") == 23
