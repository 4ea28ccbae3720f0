"""Spec §10 E61–E64: the ``spy2`` variant (§9)."""

from __future__ import annotations

import pytest

from spyhouse.games.spyvsspy.model import State
from tests.games.spyvsspy.fixture import SPY2_TASK_ROWS, labels, new_game, play, seen


@pytest.fixture
def spy2() -> State:
    """The §10 fixture in the spy2 variant."""
    return new_game(variant="spy2")


def _b(state: State, seat: str):  # type: ignore[no-untyped-def]
    b = state.by_seat(seat)
    assert b is not None
    return b


def test_e61_spy2_declaration_price(spy2: State) -> None:
    """E61: price 10. Alpha declares Bravo wrongly, Bravo declares Charlie correctly; Charlie
    has 20 gp. In (declarer, target) order: Alpha pays 10 (price 15) and stays in, as spy2 has
    no elimination for a wrong declaration; Bravo pays 15, the price rises to 20 and the
    correct declaration halves it: max(10, ⌊20 / 2⌋) = 10. Charlie is eliminated and Bravo
    ends with 20 − 15 + 20 = 25 gp and no Life."""
    assert spy2.price == 10
    t = play(spy2, declare={"s1": [("s2", "Mr Orange", "I")], "s2": [("s3", "Mr Green", "D")]})
    assert t.gp("s1") == 10
    assert t.gp("s2") == 25
    assert _b(t.after, "s1").surviving
    assert not _b(t.after, "s3").surviving
    assert _b(t.after, "s2").life == 0
    assert "life" not in t.view("s2")["me"]
    assert t.after.price == 10
    assert t.view("s1")["price"] == 10
    assert t.outcomes("s1") == ["incorrect: paid 10 gp"]
    assert t.outcomes("s2") == ["correct: paid 15 gp; you receive 20 gp"]
    assert t.news == ["Charlie eliminated: correctly declared by Bravo; "
                      "its leader was Mr Green, its base D Docks"]


def test_e62_spy2_search_threshold(spy2: State) -> None:
    """E62: turn 3, Bravo covertness 6, Charlie 7 (both based in D). A base is findable iff
    skill × turn > covertness: Alpha#4 (2 × 3 = 6) finds neither ("no base found", though
    2 bases are counted); Alpha#2 (3 × 3 = 9) finds both and gets the least covert, Bravo."""
    spy2.turn = 2
    _b(spy2, "s2").covertness = 6
    _b(spy2, "s3").covertness = 7
    t = play(spy2, {"s1": {4: ("SEARCH", "D"), 2: ("SEARCH", "D")}})
    assert t.after.turn == 3
    assert t.result("s1", 4) == "no base found; bases here: 2"
    assert t.result("s1", 2) == "base of Bravo reported here; bases here: 2"


def test_e63_spy2_guard_doubles(spy2: State) -> None:
    """E63: in D Alpha#7 (1) WORKs and Alpha#9 (1) GUARDs: #7 is guarded and defends with
    2 × 1 = 2. A Bravo hunter of skill 2 "found no one to hunt"; one of skill 3 kills #7."""
    alpha = {7: ("WORK", "D"), 9: ("GUARD", "D")}
    t = play(spy2, {"s1": alpha, "s2": {4: ("HUNT", "D")}})
    assert t.result("s1", 9) == "guarded spy #7"
    assert t.result("s2", 4) == "found no one to hunt"
    assert t.spy("s1", 7)["killed"] is False

    t = play(spy2, {"s1": alpha, "s2": {2: ("HUNT", "D")}}, script={"hunt-reveal": [1, 1, 1, 1]})
    assert t.result("s1", 9) == "guarded spy #7"
    assert t.result("s1", 7) == "killed by a hunter of Bravo"
    assert t.result("s2", 2) == "killed a spy of Alpha; Alpha's base is in B Beltram"
    assert t.spy("s1", 9)["killed"] is False
    assert t.news == ["Bravo killed a spy of Alpha"]


def test_e64_spy2_leader_ticks(spy2: State) -> None:
    """E64: Mr Orange (Bravo's leader, skill 4) WORKs in E with Alpha#4 (2) and #7 (1). Alpha's
    E counts Bravo 1 and WORK 1, but 2 + 1 = 3 is not > 4, so Mr Orange is not ticked (nor
    with #8 added: 4 is not > 4). With Alpha#2 (3) there too (sum 6), he is. spy2 reports
    have no "Disguised as you" row and only the tasks COVERT, GUARD, HUNT, RECRUIT, SEARCH,
    TRAIN, WORK."""
    t = play(spy2, {"s2": {1: ("WORK", "E")}, "s1": {4: ("WORK", "E"), 7: ("WORK", "E")}})
    view = t.view("s1")
    assert labels(view) == ["Bravo", "Charlie", "Delta", *SPY2_TASK_ROWS,
                            "Mr Green", "Mr Grey", "Mr Orange"]
    assert seen(view, "E") == {"Bravo": 1, "WORK": 1}

    # The sum must be greater: 2 + 1 + 1 = 4 is not enough either.
    t = play(spy2, {"s2": {1: ("WORK", "E")},
                    "s1": {4: ("WORK", "E"), 7: ("WORK", "E"), 8: ("WORK", "E")}})
    assert seen(t.view("s1"), "E") == {"Bravo": 1, "WORK": 1}

    t = play(spy2, {"s2": {1: ("WORK", "E")},
                    "s1": {4: ("WORK", "E"), 7: ("WORK", "E"), 2: ("WORK", "E")}})
    assert seen(t.view("s1"), "E") == {"Bravo": 1, "WORK": 1, "Mr Orange": "✓"}
