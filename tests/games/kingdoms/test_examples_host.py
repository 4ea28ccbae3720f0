"""Spec §F examples 38 and 40-46: player order (D.2), RAISE, MOVE and battle, capture,
elimination and victory (Part B), parse errors (C.3)."""

from __future__ import annotations

from typing import Any

import pytest

from spyhouse.games.kingdoms import resolve
from spyhouse.games.kingdoms.model import Country, Row, State
from spyhouse.games.kingdoms.resolve import player_order, ranking
from spyhouse.games.kingdoms.turn import Turn
from tests.games.kingdoms.fixture import (
    RULES,
    event,
    new_game,
    orders_json,
    play,
    put,
    refusal,
    seat,
    set_area,
    wait_cancelled,
    waiting,
)
from tests.games.kingdoms.test_examples_find_kill import items


def only(state: State, cid: str, area: str, armies: int) -> None:
    """``cid`` owns ``area`` with ``armies`` and nothing else (its other areas go neutral)."""
    for other in state.owned(cid):
        if other != area:
            set_area(state, other, None, 0)
    set_area(state, area, cid, armies)


def test_example_38_player_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """38: the base order rotates each turn; eliminated countries drop out."""
    state = new_game(3)
    assert player_order(state, 2) == ["k3", "k5", "k1"]
    assert player_order(state, 4) == ["k1", "k3", "k5"]
    state = new_game(3, turn=5)
    for area in state.owned("k3"):
        set_area(state, area, None, 0)
    state.countries["k3"].eliminated = 4
    assert player_order(state) == ["k5", "k1"]
    seen: list[tuple[str, int]] = []
    real = resolve.process

    def spy(turn: Turn, country: Country, index: int, row: Row) -> None:
        seen.append((country.id, index))
        real(turn, country, index, row)

    monkeypatch.setattr(resolve, "process", spy)
    t = play(state, {"k5": ["FIND - k1"], "k1": ["FIND - k5", "FIND - k5", "FIND - k5"]})
    assert seen == [("k5", 1), ("k1", 1), ("k1", 2), ("k1", 3)]
    assert t.view("k1")["order"] == ["k5", "k1"]  # P_6: k5 k1 k3 less k3


def test_example_40_raise() -> None:
    """40: 2 BP per army from the reserve into an own area."""
    t = play(new_game(3), {"k1": ["RAISE a01 - 2", "RAISE a08", "RAISE a01 - 2"]})
    assert t.results("k1") == [("done", "raised 2 in a01 (4 BP)"),
                               ("failed", "you do not own a08"),
                               ("failed", "not enough BPs (need 4, have 2)")]
    assert t.me("k1")["armies"]["a01"] == 5
    assert t.me("k1")["reserve"] == 5
    assert t.bp_before_income("k1") == 2


def test_example_41_move_capture_neutral() -> None:
    """41: one army walks into neutral a08 and captures it; a02 stays k1's with 0 armies."""
    t = play(new_game(3, turn=1), {"k1": ["MOVE a02 a08 1"]})
    assert t.results("k1") == [("done", "captured a08")]
    assert t.me("k1")["armies"] == {"a01": 3, "a02": 0, "a07": 1, "a08": 1}
    assert t.news()["captures"] == [{"area": "a08", "old": None, "new": "k1"}]
    assert t.report("k1")["income"] == 4
    assert t.me("k1")["bp"] == 10


def test_example_42_battle_capture() -> None:
    """42: draws (2,4) then (6,3): the attacker loses one, then the defender; a03 falls."""
    state = new_game(6)
    set_area(state, "a02", "k1", 3)
    assert state.countries["k1"].reserve == 5
    t = play(state, {"k1": ["MOVE a02 a03 3"]}, battle=[2, 4, 6, 3])
    assert t.results("k1") == [
        ("done", "battle in a03: lost 1, destroyed 1; captured a03 with 2")]
    assert t.after.owners["a03"] == "k1" and t.after.armies["a03"] == 2
    assert t.me("k1")["reserve"] == 6
    assert t.me("k2")["reserve"] == 8
    battle = event("battle", area="a03", attacker="k1", defender="k2", attackers=3,
                   defenders=1, attacker_losses=1, defender_losses=1, result="captured")
    assert items(t.events("k2")) == items([
        battle, event("area_captured", area="a03", by="k1", battle=True)])
    assert items(t.events("k1")) == items([battle])
    assert t.news()["captures"] == [{"area": "a03", "old": "k2", "new": "k1"}]


def test_example_43_battle_tie_defends() -> None:
    """43: a tie (4,4) goes to the defender."""
    t = play(new_game(6), {"k1": ["MOVE a02 a03 1"]}, battle=[4, 4])
    assert t.results("k1") == [("done", "battle in a03: lost 1, destroyed 0; attack failed")]
    assert t.after.owners["a03"] == "k2" and t.after.armies["a03"] == 1
    assert t.me("k1")["reserve"] == 8
    assert t.news()["captures"] == []
    assert [e["result"] for e in t.events("k2")] == ["held"]


def test_example_44_elimination() -> None:
    """44: k5 loses its last area; at step 5 it is eliminated with its spy and watcher."""
    state = new_game(3, turn=1)
    only(state, "k5", "a15", 0)
    set_area(state, "a14", "k1", 2)
    put(state, "k5:SPY@a03", "k5:W@a09", "k1:SPY@a02")
    waiting(state, "k1", "SPY", "k5")
    t = play(state, {"k1": ["MOVE a14 a15 1"]})
    assert t.results("k1") == [("done", "captured a15")]
    k5 = t.after.countries["k5"]
    assert k5.eliminated == 1 and k5.agents == {} and k5.watchers == []
    assert items(t.events("k1")) == items([wait_cancelled("SPY", "a02", "k5",
                                                          "target_eliminated")])
    assert items(t.events("k5")) == items([
        event("area_captured", area="a15", by="k1", battle=False),
        event("eliminated", turn=1)])
    assert t.news() == {"turn": 1, "captures": [{"area": "a15", "old": "k5", "new": "k1"}],
                        "eliminated": ["k5"]}
    assert t.report("k5")["income"] == 0
    assert t.me("k5")["bp"] == 6
    assert t.view("k1")["order"] == ["k3", "k1"]
    assert seat(t.after, "k5") not in RULES.awaiting(t.after)
    assert refusal(t.after, "k5", []) == "orders: your country has been eliminated"
    assert {"id": "k5", "name": "Eskar", "seat": "s3", "areas": 0, "eliminated": 1} in (
        t.view("k1")["countries"])


def _final_standing(state: State, k1_bp: int, k3_bp: int) -> None:
    """After turn 20: k1 and k3 with 9 areas and 6 armies each, k5 out in turn 12."""
    for area in state.owners:
        state.owners[area] = None
        state.armies[area] = 0
    lands = list(state.owners)
    for cid, areas in (("k1", lands[:9]), ("k3", lands[9:18])):
        for area in areas:
            state.owners[area] = cid
        state.armies[areas[0]] = 6
    state.countries["k1"].bp = k1_bp
    state.countries["k3"].bp = k3_bp
    state.countries["k5"].eliminated = 12


def test_example_45_victory() -> None:
    """45: ranking by areas, armies, BP; shared ranks; the last survivor wins at once."""
    state = new_game(3, turn=20)
    _final_standing(state, 3, 5)
    assert ranking(state).to_json() == {
        "ranking": [{"country": "k3", "rank": 1}, {"country": "k1", "rank": 2},
                    {"country": "k5", "rank": 3}], "winners": ["k3"]}
    state.countries["k1"].bp = 5
    assert ranking(state).to_json() == {
        "ranking": [{"country": "k1", "rank": 1}, {"country": "k3", "rank": 1},
                    {"country": "k5", "rank": 3}], "winners": ["k1", "k3"]}

    # Through resolve: turn 20 is the last (max_turns); BP counts after income (+9 each).
    state = new_game(3, turn=20)
    _final_standing(state, 3 - 3, 5 - 3)
    t = play(state, {})
    assert t.view("k1")["outcome"]["winners"] == ["k3"]
    assert t.view("k1")["order"] == [] and t.view("k1")["turn"] == 20
    assert RULES.outcome(t.after) is not None and RULES.awaiting(t.after) == frozenset()
    assert refusal(t.after, "k1", []) == "orders: the game is over"

    # k3 and k5 both eliminated in turn 7: k1 wins after turn 7; k3 and k5 share rank 2.
    state = new_game(3, turn=7)
    only(state, "k3", "a05", 0)
    only(state, "k5", "a15", 0)
    set_area(state, "a04", "k1", 1)
    set_area(state, "a14", "k1", 1)
    t = play(state, {"k1": ["MOVE a04 a05", "MOVE a14 a15"]})
    assert t.view("k1")["outcome"] == {
        "ranking": [{"country": "k1", "rank": 1}, {"country": "k3", "rank": 2},
                    {"country": "k5", "rank": 2}], "winners": ["k1"]}
    assert t.view("k1")["turn"] == 7
    outcome = RULES.outcome(t.after)
    assert outcome is not None and outcome.winners == ("s1",)
    assert RULES.turn_number(t.after) == 7


PARSE_ERRORS: list[tuple[Any, str]] = [
    (["FIND - k3"] * 9, "orders: at most 8 actions per turn (got 9)"),
    (["KILL a02 k1"], "action 1: KILL: k1 is your own country"),
    (["KILL a02 k2"], 'action 1: KILL: unknown country "k2"'),
    (["FIND a09 k3"], "action 1: FIND: give either FROM (an area) or TO (a country)"),
    (["WAIT - k3 BOSS"], "action 1: WAIT: EXTRA must be blank, SPY, SPYCAT, MOLE or MOLECAT"),
    (["MOVE a01 a03"], "action 1: MOVE: a03 is not adjacent to a01"),
    (["SPY s1 a01"], "action 1: SPY: s1 is a sea area"),
    (["RAISE a01 - 0"], "action 1: RAISE: EXTRA must be a whole number from 1 to 12"),
    (["MOVE a01 a02"] * 4, "action 4: MOVE: at most 3 MOVE actions per turn"),
    ({"actions": [{"action": "SPY", "where": "a01"}]}, 'action 1: unknown field "where"'),
]


@pytest.mark.parametrize(("orders", "message"), PARSE_ERRORS)
def test_example_46_parse_errors(orders: Any, message: str) -> None:
    """46: the first failing check refuses the whole order set with its message."""
    assert refusal(new_game(3), "k1", orders) == message


def test_example_46_refused_orders_name_the_row() -> None:
    """46: the error carries the seat and the 1-based row index (None for the whole set)."""
    from spyhouse.games.kingdoms.orders import KingdomsOrderError

    state = new_game(3)
    with pytest.raises(KingdomsOrderError) as caught:
        RULES.parse_orders(state, "s1", orders_json(["FIND - k3", "KILL a02 k1"]))
    assert (caught.value.seat, caught.value.index) == ("s1", 2)
    with pytest.raises(KingdomsOrderError) as caught:
        RULES.parse_orders(state, "s1", orders_json(["FIND - k3"] * 9))
    assert caught.value.index is None
