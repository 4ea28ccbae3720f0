"""Options and setup (B.3, D.1) and the shape of the views (E.4)."""

from __future__ import annotations

from typing import Any

import pytest

from spyhouse.core.errors import OptionsError
from spyhouse.core.rng import Rng
from spyhouse.core.ruleset import Seat
from spyhouse.games.kingdoms.view import PUBLIC_KEYS
from tests.games.kingdoms.fixture import RULES, new_game, play, put
from tests.games.kingdoms.test_maps import isthmus


def seats(n: int) -> list[Seat]:
    return [Seat(f"s{i}", f"Player {i}") for i in range(1, n + 1)]


def test_start_state_g3() -> None:
    """B.3 / D.1: home 3 armies, other starting areas 1, BP 6, reserve 7; unused areas neutral."""
    state = new_game(3)
    assert state.base_order == ("k1", "k3", "k5")
    assert [state.countries[c].seat for c in state.base_order] == ["s1", "s2", "s3"]
    assert {a: state.armies[a] for a in state.owned("k1")} == {"a01": 3, "a02": 1, "a07": 1}
    assert {a: state.armies[a] for a in state.owned("k3")} == {"a05": 1, "a06": 3, "a12": 1}
    assert {a: state.armies[a] for a in state.owned("k5")} == {"a15": 1, "a21": 3, "a22": 1}
    assert all(c.bp == 6 and c.reserve == 7 for c in state.countries.values())
    assert state.owners["a03"] is None and state.armies["a04"] == 0
    assert list(state.countries) == ["k1", "k3", "k5"]


def test_options_seating_and_numbers() -> None:
    """B.3: options change the numbers; seating chooses the countries in seat order."""
    state = RULES.setup(seats(3), {"map": "default", "max_turns": 30, "start_bp": 9,
                                   "seating": ["k2", "k4", "k6"]}, Rng(1))
    assert state.base_order == ("k2", "k4", "k6")
    assert state.countries["k4"].seat == "s2" and state.countries["k2"].bp == 9
    view = RULES.view(state, "s1")
    assert view["options"] == {"start_bp": 9, "force_pool": 12, "actions_per_turn": 8,
                               "max_moves": 3, "max_watchers": 3, "max_turns": 30,
                               "map": "default", "seating": ["k2", "k4", "k6"]}


OPTION_ERRORS: list[tuple[int, dict[str, Any], str]] = [
    (3, {"zeta": 1, "alpha": 2}, 'options: unknown option "alpha"'),
    (3, {"max_moves": 0}, "options: max_moves must be a whole number, at least 1"),
    (3, {"start_bp": True}, "options: start_bp must be a whole number, at least 1"),
    (3, {"force_pool": 0, "max_turns": "x"},
     "options: force_pool must be a whole number, at least 1"),
    (3, {"map": 7}, "options: map must be a map id or a map object"),
    (3, {"map": "atlantis"}, 'options: unknown map "atlantis"'),
    (3, {"map": {"id": "x"}}, 'map x: missing key "name"'),
    (2, {}, "setup: Kingdoms needs 3 to 6 seats (got 2)"),
    (7, {"seating": "k1"}, "setup: Kingdoms needs 3 to 6 seats (got 7)"),
    (3, {"seating": ["k1", "k1", "k2"]},
     "options: seating must be a list of 3 distinct countries of the map"),
    (4, {"seating": ["k1", "k2", "k3"]},
     "options: seating must be a list of 4 distinct countries of the map"),
    (3, {"seating": ["k1", "k2", "k9"]},
     "options: seating must be a list of 3 distinct countries of the map"),
    (4, {"map": isthmus()}, "setup: map isthmus has no seating for 4 seats"),
    (3, {"force_pool": 4}, "options: force_pool 4 is less than the 5 armies k1 starts with"),
]


@pytest.mark.parametrize(("players", "options", "message"), OPTION_ERRORS)
def test_setup_refusals(players: int, options: dict[str, Any], message: str) -> None:
    """B.3: setup refuses the game with the first failing check."""
    with pytest.raises(OptionsError) as caught:
        RULES.setup(seats(players), options, Rng(1))
    assert str(caught.value) == message


def test_parse_options_without_seats() -> None:
    """The host's form: checks (1)-(3) and the seating list against its own length."""
    options = RULES.parse_options({"max_turns": 5})
    assert options.max_turns == 5 and options.map.id == "default"
    with pytest.raises(OptionsError, match="seating must be a list of 2 distinct"):
        RULES.parse_options({"seating": ["k1", "k1"]})


def test_custom_map_game() -> None:
    """A custom map travels whole in the options and is played like the default one."""
    data = isthmus()
    state = RULES.setup(seats(3), {"map": data}, Rng(1))
    assert state.base_order == ("red", "blu", "grn")
    assert state.armies == {"r1": 3, "b1": 3, "g1": 3, "g2": 1, "mid": 0}
    assert RULES.view(state, "s1")["options"]["map"] == "isthmus"
    assert RULES.view(state, "s1")["map"]["id"] == "isthmus"
    orders = RULES.parse_orders(state, "s1", {"actions": [
        {"action": "SKIP", "from": "r1", "to": "b1"}, {"action": "MOVE", "from": "r1",
                                                      "to": "mid", "extra": 2}]})
    after = RULES.resolve(state, {"s1": orders}, Rng(1))
    report = RULES.view(after, "s1")["report"]
    assert [r["text"] for r in report["results"]] == [
        "recruited spy in r1 (2 BP); moved spy r1 → b1 (sea, 1 BP)", "captured mid"]


def test_view_keys() -> None:
    """E.4: a seat's view has exactly the nine public keys, ``me`` and ``report``."""
    state = new_game(3)
    view = RULES.view(state, "s1")
    assert list(view) == [*PUBLIC_KEYS, "me", "report"]
    assert view["report"] is None
    assert view["turn"] == 1 and view["order"] == ["k1", "k3", "k5"]
    assert view["me"] == {"country": "k1", "bp": 6, "reserve": 7,
                          "armies": {"a01": 3, "a02": 1, "a07": 1}, "agents": [],
                          "watchers": [], "wait": None}
    assert view["countries"][0] == {"id": "k1", "name": "Arden", "seat": "s1", "areas": 3,
                                    "eliminated": None}
    assert list(RULES.public_view(state)) == list(PUBLIC_KEYS)
    host = RULES.view(state, None)
    assert list(host) == [*PUBLIC_KEYS, "private", "game_over"]
    assert list(host["private"]) == ["k1", "k3", "k5"]
    assert host["private"]["k3"]["me"] == RULES.view(state, "s2")["me"]


def test_views_are_fresh() -> None:
    """A view is a fresh mapping: changing it changes neither the state nor the next view."""
    state = new_game(3)
    put(state, "k1:SPY@a02")
    t = play(state, {"k1": ["SPY - a08"]})
    first = t.view("k1")
    first["me"]["agents"].clear()
    first["report"]["observations"].clear()
    first["map"]["area"].clear()
    again = t.view("k1")
    assert again["me"]["agents"] == [{"type": "SPY", "area": "a08"}]
    assert again["report"]["observations"]
    assert again["map"]["area"]


def test_resolve_leaves_the_old_state_alone() -> None:
    state = new_game(3)
    before = RULES.view(state, None)
    play(state, {"k1": ["SPY a01 a02", "MOVE a02 a08", "RAISE a01 - 1"]})
    assert RULES.view(state, None) == before


def test_seat_names_and_idle_message() -> None:
    assert RULES.seat_name_problem("Arden Lords", []) is None
    assert RULES.seat_name_problem("  ", []) is not None
    assert RULES.seat_name_problem("Lords", ["lords"]) == "Lords is already taken in this game"
    state = new_game(3)
    assert RULES.idle_message(state, "s1") == "your country has been eliminated"
