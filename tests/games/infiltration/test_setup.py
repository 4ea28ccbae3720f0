"""Setup S1–S10 and the options (§2, §3, §15.3, §16): the facility generator, the draws in
their streams, the starting positions, the notifications and every option refusal."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spyhouse.core.errors import OptionsError
from spyhouse.core.rng import Rng, ScriptedRng
from spyhouse.core.ruleset import Seat
from spyhouse.games.infiltration import facility
from spyhouse.games.infiltration.model import (
    FLOORS,
    ROOMS,
    SPECIALS,
    Feature,
    Phase,
    bracket_of,
    composition,
)
from spyhouse.games.infiltration.ruleset import Infiltration

RULES = Infiltration()


def _seats(n: int) -> list[Seat]:
    return [Seat(f"s{i}", f"P{i}") for i in range(1, n + 1)]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**40), bracket=st.sampled_from(["S", "M", "L"]))
def test_s5_generator_invariants(seed: int, bracket: str) -> None:
    """S4/S5: 64 rooms with the bracket's counts, every room a feature, one Commander's,
    every other terminal at least twice, the specials on pairwise different floors."""
    features = facility.generate_map(Rng(seed), bracket)
    assert len(features) == 64
    assert Counter(features) == Counter(composition(bracket))
    assert features.count(Feature.COMMANDER) == 1
    counts = Counter(features)
    assert all(counts[f] >= 2 for f in Feature if f.is_terminal and f is not Feature.COMMANDER)
    floors = [room[0] for room, f in zip(ROOMS, features, strict=True) if f in SPECIALS]
    assert len(floors) == len(set(floors))


def test_s5_draws_in_the_spec_order() -> None:
    """§16 ``layout``: the floor shuffle (roll 8, 7, …, 2), one roll(8) per special in the
    order GHOST, General's, Lab, generators, then the terminal shuffle."""
    rng = ScriptedRng(0, {"layout": [1, 1, 1, 1, 1, 1, 1, 3, 5, 8, 1, 2]})
    features = facility.generate_map(rng, "S")
    by_room = dict(zip(ROOMS, features, strict=True))
    assert by_room["A-3"] is Feature.GHOST
    assert by_room["B-5"] is Feature.GENERALS
    assert by_room["C-8"] is Feature.LAB
    assert by_room["D-1"] is Feature.GENERATOR and by_room["E-2"] is Feature.GENERATOR
    assert [n for key, n, _ in rng.draws][:12] == [8, 7, 6, 5, 4, 3, 2, 8, 8, 8, 8, 8]


def test_s8_code_is_four_digits() -> None:
    """S8: roll(10000) − 1, shown with four digits."""
    assert facility.draw_code(ScriptedRng(0, {"code": [1]})) == "0000"
    assert facility.draw_code(ScriptedRng(0, {"code": [4072]})) == "4071"


def test_setup_positions_and_notifications() -> None:
    """S6/S7/S10: one guard per floor on its floor; players alone in guard-free terminal
    rooms; each player told their team (Reds also the Reds) and their start."""
    state = RULES.setup(_seats(10), {}, Rng(77))
    assert state.phase is Phase.CLASS and state.turn == 0
    guards = [n for n in state.npcs if n.id.startswith("Guard-")]
    assert [g.room[0] for g in guards] == list(FLOORS)
    starts = [p.room for p in state.players]
    assert len(set(starts)) == len(starts)
    assert all(state.feature(r).is_terminal for r in starts)
    assert not set(starts) & {g.room for g in guards}
    reds = [p.seat for p in state.players if p.is_red]
    assert len(reds) == 2 and state.starting_reds == 2  # ⌊(10+1)/4⌋
    for p in state.players:
        kinds = [e["kind"] for e in state.private_logs[p.seat]]
        assert kinds == (["secret", "class", "arrival"] if p.is_red else ["secret", "arrival"])
        secret = state.private_logs[p.seat][0]
        assert secret["reds"] == (reds if p.is_red else None)
    assert [e["kind"] for e in state.public_log] == ["setup"]
    assert state.presence_log == [{p.seat: p.room for p in state.players}]
    assert len(state.npcs) == 8 + 2  # bracket M: two Engineers by default


def test_facility_seed_reuses_the_map() -> None:
    """``facility_seed`` fixes map and code, while teams and starts follow the game seed."""
    one = RULES.setup(_seats(8), {"facility_seed": 5}, Rng(1))
    two = RULES.setup(_seats(8), {"facility_seed": 5}, Rng(2))
    assert one.features == two.features and one.code == two.code
    assert [p.room for p in one.players] != [p.room for p in two.players]


def test_random_class_mode_has_no_class_phase() -> None:
    """S3 random mode: every Green gets a class at setup; turn 1's Movement phase opens."""
    state = RULES.setup(_seats(8), {"class_mode": "random"}, Rng(3))
    assert state.phase is Phase.MOVEMENT and state.turn == 1
    assert all(p.klass is not None for p in state.players)
    assert [e["kind"] for e in state.public_log] == ["setup", "turn"]


def test_class_phase_default_class() -> None:
    """S3: a Green who sends no class gets ``default_class``."""
    state = RULES.setup(_seats(7), {"classes_offered": ["Hacker", "Sneaker"],
                                    "setup": {"reds": ["s1", "s2"]}}, Rng(3))
    orders = {s: None for s in RULES.awaiting(state)}
    state = RULES.resolve(state, orders, Rng(3))
    assert {p.klass.value for p in state.players if not p.is_red} == {"Hacker"}  # type: ignore
    assert state.options.default_class.value == "Hacker"


def test_resolved_options_in_views() -> None:
    """§15.3 defaults; seat views never show ``facility_seed`` or ``setup``; the host's does."""
    state = RULES.setup(_seats(16), {"pace": "fast"}, Rng(9))
    seat = RULES.view(state, "s1")["options"]
    assert seat["reds"] == 4 and seat["engineers"] == 2 and seat["players"] == 16
    assert (seat["class_deadline"], seat["movement_deadline"], seat["decision_deadline"],
            seat["early_close"]) == (300, 180, 480, True)
    assert "facility_seed" not in seat and "setup" not in seat
    host = RULES.view(state, None)["options"]
    assert host["facility_seed"] == 9 and host["setup"] == {}
    assert RULES.view(state, "s1")["composition"]["Power generator"] == 4
    assert RULES.deadline_seconds(state) == 300


def _map(n: int) -> dict[str, str]:
    features = facility.generate_map(Rng(0), bracket_of(n))
    return {room: f.value for room, f in zip(ROOMS, features, strict=True)}


REFUSALS: list[tuple[str, int, dict[str, Any], str]] = [
    ("unknown", 8, {"colour": "red"}, "option 'colour': unknown option"),
    ("reds", 6, {"reds": 2}, "option 'reds': an integer from 1 to 1"),
    ("reds-type", 8, {"reds": "two"}, "option 'reds': an integer from 1 to 6"),
    ("players", 8, {"players": 9}, "option 'players': must equal the number of seats (8)"),
    ("players-range", 8, {"players": 30}, "option 'players': an integer from 6 to 20"),
    ("class_mode", 8, {"class_mode": "pick"}, "option 'class_mode': choose or random"),
    ("classes", 8, {"classes_offered": []},
     "option 'classes_offered': a non-empty list of Warrior, Hacker, Sneaker"),
    ("default", 8, {"classes_offered": ["Hacker"], "default_class": "Warrior"},
     "option 'default_class': one of the offered classes: Hacker"),
    ("engineers", 8, {"engineers": 5}, "option 'engineers': an integer from 0 to 4"),
    ("pace-fixed", 8, {"pace": "fast", "movement_deadline": 600},
     "option 'movement_deadline': must be null unless pace is custom"),
    ("pace-custom", 8, {"pace": "custom", "class_deadline": 600, "movement_deadline": 600},
     "option 'decision_deadline': required with pace custom: 60 to 604800 seconds"),
    ("phantom_limit", 8, {"phantom_limit": 1}, "option 'phantom_limit': 0 or an integer from "
                                               "2 to 5"),
    ("max_turns", 8, {"max_turns": 5}, "option 'max_turns': 0 or an integer from 10 to 99"),
    ("bool", 8, {"phantoms": "yes"}, "option 'phantoms': true or false"),
    ("setup-key", 8, {"setup": {"teams": []}}, "option 'setup.teams': unknown option"),
    ("setup-reds", 8, {"setup": {"reds": ["s1"]}},
     "option 'setup.reds': a list of exactly 2 different seat ids"),
    ("setup-classes", 8, {"setup": {"classes": {"s3": "Hacker"}}},
     "option 'setup.classes': requires setup.reds"),
    ("setup-map", 8, {"setup": {"map": {k: v for k, v in _map(8).items() if k != "B-2"}}},
     "option 'setup.map': B-2 is missing"),
    ("setup-code", 8, {"setup": {"code": "12345"}}, "option 'setup.code': a string of four "
                                                    "digits"),
]


@pytest.mark.parametrize(("case", "n", "options", "message"), REFUSALS,
                         ids=[r[0] for r in REFUSALS])
def test_option_refusals(case: str, n: int, options: dict[str, Any], message: str) -> None:
    """§15.3: one line naming the key and what is allowed."""
    with pytest.raises(OptionsError) as info:
        RULES.setup(_seats(n), options, Rng(1))
    assert str(info.value) == message


def test_handles() -> None:
    """§1: handles are 1–20 letters, digits or _, unique case-insensitively."""
    assert RULES.seat_name_problem("Agent_7", ["Bob"]) is None
    assert RULES.seat_name_problem("Mad Bobs", []) is not None
    assert RULES.seat_name_problem("x" * 21, []) is not None
    assert RULES.seat_name_problem("bob", ["Bob"]) is not None
    seats = _seats(7)
    seats[3] = Seat("s4", "Not a handle")
    with pytest.raises(OptionsError, match="seat s4"):
        RULES.setup(seats, {}, Rng(1))


def test_a_bracket_composition_totals_64() -> None:
    for bracket in "SML":
        assert sum(composition(bracket).values()) == 64
