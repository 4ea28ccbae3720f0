"""C.4: processing-time failures (no effect at all) and the effects the examples leave out."""

from __future__ import annotations

from tests.games.kingdoms.fixture import (
    new_game,
    play,
    put,
    set_area,
    wait_cancelled,
    waiting,
)
from tests.games.kingdoms.test_examples_find_kill import items


def test_movement_failures() -> None:
    state = new_game(3)
    put(state, "k1:SPY@a02", "k1:MOLE@a09")
    t = play(state, {"k1": ["SPYCAT - a03", "SPY a02", "SKIP - a03", "SKIP - a09",
                            "MOLE - a09", "MOLECAT a01 a02"]})
    assert t.results("k1") == [
        ("failed", "no spy catcher (give FROM to recruit one)"),
        ("failed", "you already have a spy (in a02)"),
        ("failed", "a03 is adjacent to a02 (use SPY)"),
        ("failed", "no sea route from a02 to a09"),
        ("failed", "your mole is already in a09"),
        ("failed", "cannot recruit a mole catcher in a01: you have no other agent or watcher "
                   "there"),
    ]
    assert t.bp_before_income("k1") == 6
    assert t.agents("k1") == {"SPY": "a02", "MOLE": "a09"}


def test_recruit_without_moving() -> None:
    """A.2.5: TO may be blank; the agent is recruited and stays (special type via the spy)."""
    state = new_game(3)
    put(state, "k1:SPY@a08")
    t = play(state, {"k1": ["MOLE a08"]})
    assert t.results("k1") == [("done", "recruited mole in a08 (5 BP)")]
    assert t.agents("k1") == {"SPY": "a08", "MOLE": "a08"}
    assert [(o[0], o[1], o[2]) for o in t.observations("k1")] == [
        ("start", "a08", "SPY"), ("recruit", "a08", "MOLE"), ("end", "a08", "SPY"),
        ("end", "a08", "MOLE")]


def test_spy_lost_to_watch_or_sabotage_ends_its_wait() -> None:
    """A.7.4 agent_lost: WATCH and SABOTAGE remove the waiting spy and its WAIT."""
    state = new_game(3)
    put(state, "k1:SPY@a02")
    waiting(state, "k1", "SPY", "k3")
    t = play(state, {"k1": ["WATCH"]})
    assert items(t.events("k1")) == items([wait_cancelled("SPY", "a02", "k3", "agent_lost")])
    assert t.me("k1")["wait"] is None and t.me("k1")["watchers"] == ["a02"]


def test_another_agents_move_keeps_the_wait() -> None:
    """A.7.4 agent_action: only W's own movement cancels; another agent's move does not."""
    state = new_game(3)
    put(state, "k1:SPYCAT@a02", "k1:SPY@a01")
    waiting(state, "k1", "SPYCAT", "k3")
    t = play(state, {"k1": ["SPY - a07", "FIND - k3", "KILL a01 k5"]})
    assert t.events("k1") == []
    assert t.me("k1")["wait"] == {"agent": "SPYCAT", "area": "a02", "target": "k3",
                                  "hunts": "SPY"}


def test_army_failures() -> None:
    state = new_game(3)
    state.countries["k1"].reserve = 1
    set_area(state, "a07", "k1", 1)
    t = play(state, {"k1": ["RAISE a01 - 2", "MOVE a07 a08 2", "MOVE a08 a09"]})
    assert t.results("k1") == [("failed", "only 1 armies in reserve"),
                               ("failed", "only 1 armies in a07"),
                               ("failed", "you do not own a08")]


def test_sabotage_and_watch_need_a_spy() -> None:
    t = play(new_game(3), {"k1": ["SABOTAGE", "WATCH"]})
    assert t.results("k1") == [("failed", "no spy"), ("failed", "no spy")]


def test_move_joins_and_chains() -> None:
    """B.5.1, B.5.4: armies join an own area and may move again in the same turn."""
    t = play(new_game(3), {"k1": ["MOVE a01 a02 3", "MOVE a02 a08 4"]})
    assert t.results("k1") == [("done", "moved 3 a01 → a02"), ("done", "captured a08")]
    assert t.me("k1")["armies"] == {"a01": 0, "a02": 0, "a07": 1, "a08": 4}


def test_sea_cost_paid_when_ambushed_on_placement() -> None:
    """C.4.4: a recruit ambushed on placement pays the sea cost of the move never made."""
    state = new_game(3)
    put(state, "k1:SPY@a06", "k3:W@a06")
    set_area(state, "a06", "k1", 1)
    waiting(state, "k1", "SPY", "k3")
    t = play(state, {"k3": ["SKIP a06 a01"]})
    assert t.results("k3") == [("done", "recruited spy in a06 (2 BP)")]
    assert t.report("k3")["results"][0]["bp"] == 3
    assert t.agents("k3") == {}
