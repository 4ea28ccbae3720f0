"""Spec §F examples 23-31 and 39: WAIT, its triggers and every way it ends (A.7)."""

from __future__ import annotations

from tests.games.kingdoms.fixture import (
    RULES,
    agent_lost,
    event,
    new_game,
    play,
    put,
    seat,
    set_area,
    wait_cancelled,
    waiting,
)
from tests.games.kingdoms.test_examples_find_kill import items


def test_example_23_wait_triggered_land() -> None:
    """23: a spy catcher waits in a02; next turn k3's spy walks in and is eliminated."""
    state = new_game(3, turn=1)
    put(state, "k1:SPYCAT@a02")
    t1 = play(state, {"k1": ["WAIT - k3 SPYCAT"]})
    assert t1.results("k1") == [("done", "your spy catcher waits in a02 for k3's spy")]
    assert t1.me("k1")["wait"] == {"agent": "SPYCAT", "area": "a02", "target": "k3",
                                   "hunts": "SPY"}
    state2 = t1.after
    assert state2.turn == 2
    put(state2, "k3:SPY@a03")
    t2 = play(state2, {"k3": ["SPY - a02"]})
    assert t2.results("k3") == [("done", "moved spy a03 → a02 (land, 0 BP)")]
    assert [o[0] for o in t2.observations("k3")] == ["start"]  # no arrival, no end
    assert items(t2.events("k3")) == items([agent_lost("a02", "SPY", "ambush", "k1", "SPYCAT")])
    assert items(t2.events("k1")) == items([event("ambush", area="a02", victim="k3",
                                                  type="SPY")])
    assert t2.me("k1")["wait"] is None
    assert t2.agents("k3") == {}


def test_example_24_wait_and_skip() -> None:
    """24: a sea move passing a02's coast does not enter a02; one landing there does."""
    state = new_game(3)
    put(state, "k1:SPY@a02", "k3:SPY@a06")
    waiting(state, "k1", "SPY", "k3")
    a = play(state, {"k3": ["SKIP - a01"]})
    assert a.results("k3") == [("done", "moved spy a06 → a01 (sea, 1 BP)")]
    assert a.bp_before_income("k3") == 5
    assert a.agents("k3") == {"SPY": "a01"}
    assert a.me("k1")["wait"] is not None
    b = play(state, {"k3": ["SKIP - a02"]})
    assert b.bp_before_income("k3") == 5
    assert b.agents("k3") == {}
    assert items(b.events("k3")) == items([agent_lost("a02", "SPY", "ambush", "k1", "SPY")])


def test_example_25_wait_needs_entering_and_type() -> None:
    """25: agents already there, the wrong type and leaving never trigger; re-entering does."""
    state = new_game(3, turn=1)
    put(state, "k1:SPY@a02", "k3:SPY@a02", "k3:MOLE@a03")
    t = play(state, {"k1": ["WAIT - k3"], "k3": ["MOLE - a02", "SPY - a01", "SPY - a02"]})
    assert t.results("k1") == [("done", "your spy waits in a02 for k3's spy")]
    assert t.results("k3") == [("done", "moved mole a03 → a02 (land, 0 BP)"),
                               ("done", "moved spy a02 → a01 (land, 0 BP)"),
                               ("done", "moved spy a01 → a02 (land, 0 BP)")]
    assert t.agents("k3") == {"MOLE": "a02"}
    assert items(t.events("k3")) == items([agent_lost("a02", "SPY", "ambush", "k1", "SPY")])


def test_example_26_wait_cancel_own_action() -> None:
    """26: the waiting agent's own successful move cancels the WAIT; a failed one does not."""
    state = new_game(3, turn=1)
    put(state, "k1:SPYCAT@a02", "k3:SPY@a03")
    waiting(state, "k1", "SPYCAT", "k3")
    a = play(state, {"k1": ["SPYCAT - a01"], "k3": ["SPY - a02"]})
    assert a.results("k1") == [("done", "moved spy catcher a02 → a01 (land, 0 BP)")]
    assert items(a.events("k1")) == items([wait_cancelled("SPYCAT", "a02", "k3",
                                                          "agent_action")])
    assert a.agents("k3") == {"SPY": "a02"}
    b = play(state, {"k1": ["SPYCAT - a14"], "k3": ["SPY - a02"]})
    assert b.results("k1") == [("failed", "no land or sea route from a02 to a14")]
    assert b.agents("k3") == {}
    assert items(b.events("k1")) == items([event("ambush", area="a02", victim="k3",
                                                 type="SPY")])


def test_example_27_wait_replaced() -> None:
    """27: a new WAIT (any agent, any target) replaces the standing one."""
    state = new_game(3)
    put(state, "k1:SPYCAT@a02", "k1:SPY@a07", "k3:SPY@a03")
    waiting(state, "k1", "SPYCAT", "k3")
    t = play(state, {"k1": ["WAIT - k5 SPY"], "k3": ["SPY - a02"]})
    assert t.results("k1") == [("done", "your spy waits in a07 for k5's spy")]
    assert items(t.events("k1")) == items([wait_cancelled("SPYCAT", "a02", "k3", "replaced")])
    assert t.me("k1")["wait"] == {"agent": "SPY", "area": "a07", "target": "k5",
                                  "hunts": "SPY"}
    assert t.agents("k3") == {"SPY": "a02"}


def test_example_28_wait_cancel_capture() -> None:
    """28: k6 captures a07 without battle; k1's WAIT there ends; k6 never learns of it."""
    state = new_game(4, turn=1)
    set_area(state, "a07", "k1", 0)
    assert state.countries["k1"].reserve == 8
    put(state, "k1:SPY@a07")
    waiting(state, "k1", "SPY", "k6")
    t = play(state, {"k6": ["MOVE a13 a07 1", "SPY a13 a07"]})
    assert t.results("k6") == [
        ("done", "captured a07"),
        ("done", "recruited spy in a13 (2 BP); moved spy a13 → a07 (land, 0 BP)")]
    assert items(t.events("k1")) == items([
        event("area_captured", area="a07", by="k6", battle=False),
        wait_cancelled("SPY", "a07", "k6", "captured")])
    assert t.news()["captures"] == [{"area": "a07", "old": "k1", "new": "k6"}]
    assert ("arrival", "a07", "SPY", "k6", 1, [("k1", "SPY")]) in t.observations("k6")
    assert t.agents("k6") == {"SPY": "a07"}
    assert t.events("k6") == []


def test_example_29_wait_failures() -> None:
    """29: a WAIT needs the agent, standing in an own area."""
    state = new_game(3)
    put(state, "k1:SPY@a08")
    t = play(state, {"k1": ["WAIT - k3", "WAIT - k3 MOLE"]})
    assert t.results("k1") == [("failed", "your spy is in a08, which you do not own"),
                               ("failed", "no mole to wait with")]


def test_example_30_wait_cannot_catch_molecat() -> None:
    """30: a waiting mole lets a mole catcher in and ambushes the spy catcher."""
    state = new_game(3)
    put(state, "k1:MOLE@a02", "k3:MOLECAT@a03", "k3:SPYCAT@a08")
    waiting(state, "k1", "MOLE", "k3")
    t = play(state, {"k3": ["MOLECAT - a02", "SPYCAT - a02"]})
    assert t.agents("k3") == {"MOLECAT": "a02"}
    assert items(t.events("k1")) == items([event("ambush", area="a02", victim="k3",
                                                 type="SPYCAT")])
    assert items(t.events("k3")) == items([agent_lost("a02", "SPYCAT", "ambush", "k1",
                                                      "MOLE")])


def test_example_31_recruit_enters_wait() -> None:
    """31: a spy recruited under the ambusher's eyes is caught on placement and never moves."""
    state = new_game(3)
    put(state, "k1:SPYCAT@a02", "k3:W@a02")
    waiting(state, "k1", "SPYCAT", "k3")
    t = play(state, {"k3": ["SPY a02 a08"]})
    assert t.results("k3") == [("done", "recruited spy in a02 (2 BP)")]
    assert t.report("k3")["results"][0]["bp"] == 2
    assert t.bp_before_income("k3") == 4
    assert items(t.events("k3")) == items([agent_lost("a02", "SPY", "ambush", "k1", "SPYCAT")])
    assert t.me("k3")["watchers"] == ["a02"]
    assert t.agents("k3") == {}
    assert [o[0] for o in t.observations("k3")] == ["end"]  # only the watcher's


def test_example_39_no_show_keeps_wait() -> None:
    """39: k3 sends nothing (null): its orders are [] and its WAIT still catches k1's spy."""
    state = new_game(3, turn=2)
    put(state, "k3:SPYCAT@a05", "k1:SPY@a04")
    waiting(state, "k3", "SPYCAT", "k1")
    assert RULES.default_orders(state, seat(state, "k3"), None).to_json() == {  # type: ignore[arg-type]
        "actions": []}
    t = play(state, {"k1": ["SPY - a05"], "k3": None})
    assert t.results("k3") == []
    assert t.agents("k1") == {}
    assert items(t.events("k1")) == items([agent_lost("a05", "SPY", "ambush", "k3",
                                                      "SPYCAT")])
    assert t.me("k3")["wait"] is None
