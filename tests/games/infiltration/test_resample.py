"""``resample`` (spec §13, §15.4): the seat's view unchanged, teams (for a Green), classes,
the others' rooms, the map and the code redrawn, the state untouched, the same stream the
same world, and play goes on from it."""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from spyhouse.core.rng import Rng
from spyhouse.games.infiltration.model import Phase, State, Team
from tests.games.infiltration.botplay import RULES, play


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


@cache
def game_states(seed: int) -> tuple[State, ...]:
    """Every state of a bot game with a class phase (``choose`` mode), 6 or 8 players."""
    return tuple(play(seed, 6 + 2 * (seed % 2), limit=30).states)


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 3), st.integers(0, 29), st.integers(0, 7), st.integers(0, 1_000))
def test_view_kept_state_untouched_world_plays_on(seed: int, index: int, who: int,
                                                  draw: int) -> None:
    states = game_states(seed)
    state = states[min(index, len(states) - 1)]
    seat = state.players[who % len(state.players)].seat
    host_before = canonical(RULES.view(state, None))
    world = RULES.resample(state, seat, Rng(draw))
    assert canonical(RULES.view(state, None)) == host_before
    assert RULES.view(world, seat) == RULES.view(state, seat)
    assert world.occupancy == state.occupancy
    assert sorted(world.features) == sorted(state.features)
    assert [p.team for p in world.players].count(Team.RED) == state.starting_reds
    assert world.reds_alive() == state.reds_alive()
    again = RULES.resample(state, seat, Rng(draw))
    assert canonical(RULES.view(again, None)) == canonical(RULES.view(world, None))
    if RULES.outcome(world) is None:
        rng = Rng(seed)
        orders = {s: RULES.default_orders(world, s, rng) for s in RULES.awaiting(world)}
        after = RULES.resolve(world, orders, rng)
        for s in sorted(RULES.awaiting(after)):
            RULES.view(after, s)


def test_hidden_information_varies_teams_only_for_a_green() -> None:
    states = game_states(1)
    state = next(s for s in states if s.phase is Phase.DECISION and s.turn >= 2)
    green = next(p.seat for p in state.players if not p.is_red and p.alive)
    red = next(p.seat for p in state.players if p.is_red and p.alive)
    teams = [p.team for p in state.players]
    green_teams = set()
    for draw in range(6):
        for seat in (green, red):
            world = RULES.resample(state, seat, Rng(draw))
            assert canonical(RULES.view(world, None)) != canonical(RULES.view(state, None))
            if seat == red:
                assert [p.team for p in world.players] == teams
            else:
                green_teams.add(tuple(p.team for p in world.players))
    assert len(green_teams) > 1
