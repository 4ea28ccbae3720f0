"""``resample`` (spec §14, AI2): the seat's view unchanged, the opponent's unseen faces
re-dealt, the state untouched, the same stream the same world, and play goes on."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from spyhouse.core.rng import Rng
from spyhouse.games.spyorlie.game import GameState
from tests.games.spyorlie.helpers import RULES, new_game


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def played(seed: int, entries: int) -> GameState:
    """A game after ``entries`` record entries of default (random legal) moves."""
    rng = Rng(seed)
    state = new_game()
    for _ in range(entries):
        if RULES.outcome(state) is not None:
            break
        (seat,) = RULES.awaiting(state)
        state = RULES.resolve(state, {seat: RULES.default_orders(state, seat, rng)}, rng)
    return state


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 45), st.sampled_from(["s1", "s2"]),
       st.integers(0, 1_000))
def test_view_kept_state_untouched_world_plays_on(seed: int, entries: int, seat: str,
                                                  draw: int) -> None:
    state = played(seed, entries)
    host_before = canonical(RULES.view(state, None))
    world = RULES.resample(state, seat, Rng(draw))
    assert canonical(RULES.view(state, None)) == host_before
    assert RULES.view(world, seat) == RULES.view(state, seat)
    assert world.keys == () or world.keys[-1] == world.position.key()
    again = RULES.resample(state, seat, Rng(draw))
    assert canonical(RULES.view(again, None)) == canonical(RULES.view(world, None))
    if RULES.outcome(world) is None:
        (mover,) = RULES.awaiting(world)
        for move in RULES.view(world, mover)["legal_moves"][:5]:
            RULES.parse_orders(world, mover, move)
        rng = Rng(seed)
        RULES.resolve(world, {mover: RULES.default_orders(world, mover, rng)}, rng)


def test_hidden_faces_vary_and_the_hand_holds_the_rest() -> None:
    varied = 0
    for seed in range(6):
        state = played(seed, 16)
        for seat in ("s1", "s2"):
            world = RULES.resample(state, seat, Rng(seed))
            true_host, world_host = RULES.view(state, None), RULES.view(world, None)
            if canonical(true_host) != canonical(world_host):
                varied += 1
            other = "RED" if state.colour_of(seat) == 0 else "BLUE"
            assert sum(world_host["hands"][other].values()) == \
                sum(true_host["hands"][other].values())
            assert world_host["hands"][other]["X"] == true_host["hands"][other]["X"]
    assert varied >= 6


def test_nothing_hidden_at_the_start() -> None:
    state = new_game()
    assert canonical(RULES.view(RULES.resample(state, "s1", Rng(3)), None)) == \
        canonical(RULES.view(state, None))
