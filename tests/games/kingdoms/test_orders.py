"""C.1-C.3: order JSON, normalisation and every parse-time message."""

from __future__ import annotations

from typing import Any

import pytest

from tests.games.kingdoms.fixture import RULES, new_game, orders_json, refusal


def r(action: Any = None, frm: Any = None, to: Any = None, extra: Any = None) -> dict[str, Any]:
    return {"action": action, "from": frm, "to": to, "extra": extra}


CASES: list[tuple[Any, str]] = [
    ("SPY a01 a02", 'orders: expected an object with an "actions" list'),
    ({"actions": {}}, 'orders: expected an object with an "actions" list'),
    ({"actions": [], "b": 1, "a": 2}, 'orders: unknown field "a"'),
    ({"actions": ["SPY"]}, "action 1: expected an object with action, from, to, extra"),
    ({"actions": [{"action": "SPY", "to": "a02", "z": 1, "y": 2}]},
     'action 1: unknown field "y"'),
    ({"actions": [r()]}, "action 1: ACTION is required"),
    ({"actions": [r("")]}, "action 1: ACTION is required"),
    ({"actions": [r("JUMP")]}, 'action 1: unknown action "JUMP"'),
    ({"actions": [r(5)]}, 'action 1: unknown action "5"'),
    ({"actions": [r("SPY", 3, "a02")]}, "action 1: SPY: FROM must be text or blank"),
    ({"actions": [r("KILL", "a02", ["k3"])]}, "action 1: KILL: TO must be text or blank"),
    ({"actions": [r("KILL", None, "k3")]}, "action 1: KILL: FROM is required"),
    ({"actions": [r("SKIP", "a01")]}, "action 1: SKIP: TO is required"),
    ({"actions": [r("WAIT", "a01", "k3")]}, "action 1: WAIT: FROM must be blank"),
    ({"actions": [r("RAISE", "a01", "a02")]}, "action 1: RAISE: TO must be blank"),
    ({"actions": [r("SABOTAGE", extra=1)]}, "action 1: SABOTAGE: EXTRA must be blank"),
    ({"actions": [r("FIND", None, "k3", "x")]}, "action 1: FIND: EXTRA must be blank"),
    ({"actions": [r("MOLE")]}, "action 1: MOLE: TO is required (or FROM to recruit)"),
    ({"actions": [r("FIND")]}, "action 1: FIND: give either FROM (an area) or TO (a country)"),
    ({"actions": [r("SPY", "a99", "a02")]}, 'action 1: SPY: unknown area "a99"'),
    ({"actions": [r("FIND", "k3")]}, 'action 1: FIND: unknown area "k3"'),
    ({"actions": [r("MOVE", "a01", "s4")]}, "action 1: MOVE: s4 is a sea area"),
    ({"actions": [r("WAIT", None, "a01")]}, 'action 1: WAIT: unknown country "a01"'),
    ({"actions": [r("SPYCAT", "a02", "a02")]},
     "action 1: SPYCAT: FROM and TO are the same area"),
    ({"actions": [r("MOLECAT", "a08", "a24")]},
     "action 1: MOLECAT: no land or sea route from a08 to a24"),
    ({"actions": [r("MOVE", "a01", "a02", True)]},
     "action 1: MOVE: EXTRA must be a whole number from 1 to 12"),
    ({"actions": [r("MOVE", "a01", "a02", "2")]},
     "action 1: MOVE: EXTRA must be a whole number from 1 to 12"),
    ({"actions": [r("RAISE", "a01", None, 13)]},
     "action 1: RAISE: EXTRA must be a whole number from 1 to 12"),
    ({"actions": [r("WAIT", None, "k3", 1)]},
     "action 1: WAIT: EXTRA must be blank, SPY, SPYCAT, MOLE or MOLECAT"),
    ({"actions": [r("FIND", None, "k3"), r("spy", "a01", "a03")]},
     "action 2: SPY: a03 is not adjacent to a01 (use SKIP for sea moves)"),
]


@pytest.mark.parametrize(("data", "message"), CASES)
def test_parse_messages(data: Any, message: str) -> None:
    """C.3: the first failing check, rows in order, within a row in the table's order."""
    assert refusal(new_game(3), "k1", data) == message


def test_eliminated_target() -> None:
    state = new_game(3)
    state.countries["k3"].eliminated = 1
    assert refusal(state, "k1", ["FIND - k3"]) == "action 1: FIND: k3 has been eliminated"


def test_normalisation_and_dump() -> None:
    """C.1: actions and WAIT types upper-cased, "" is null, missing keys are null; the
    dump parses back to equal orders."""
    state = new_game(3)
    data = {"actions": [{"action": "wait", "to": "k3", "extra": "spycat"},
                        {"action": "Spy", "from": "", "to": "a02", "extra": ""},
                        {"action": "move", "from": "a01", "to": "a02", "extra": 2},
                        {"action": "sabotage"}]}
    orders = RULES.parse_orders(state, "s1", data)
    dumped = RULES.dump_orders(orders)
    assert dumped == {"actions": [
        {"action": "WAIT", "from": None, "to": "k3", "extra": "SPYCAT"},
        {"action": "SPY", "from": None, "to": "a02", "extra": None},
        {"action": "MOVE", "from": "a01", "to": "a02", "extra": 2},
        {"action": "SABOTAGE", "from": None, "to": None, "extra": None}]}
    assert RULES.parse_orders(state, "s1", dumped) == orders
    assert RULES.parse_orders(state, "s1", {"actions": []}).actions == ()
    assert RULES.warnings(state, "s1", orders) == []


def test_parse_uses_options() -> None:
    """K and max_moves come from the options."""
    state = new_game(3, options={"actions_per_turn": 2, "max_moves": 1})
    assert refusal(state, "k1", ["FIND - k3"] * 3) == "orders: at most 2 actions per turn (got 3)"
    assert refusal(state, "k1", ["MOVE a01 a02", "MOVE a02 a01"]) == (
        "action 2: MOVE: at most 1 MOVE actions per turn")
    RULES.parse_orders(state, "s1", orders_json(["MOVE a01 a02", "RAISE a01"]))
