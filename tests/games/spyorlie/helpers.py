"""Shared helpers: a seeded random legal-move player and a platform game around a position."""

from __future__ import annotations

import random
from functools import cache
from typing import Any

from spyhouse.core.rng import Rng
from spyhouse.core.ruleset import Seat
from spyhouse.games.spyorlie.game import GameState
from spyhouse.games.spyorlie.model import Event, Move
from spyhouse.games.spyorlie.rules import Position
from spyhouse.games.spyorlie.ruleset import SpyOrLie

SEATS = (Seat("s1", "Blue Agency"), Seat("s2", "Red Agency"))
RULES = SpyOrLie()


def new_game(options: dict[str, Any] | None = None) -> GameState:
    return RULES.setup(SEATS, options or {}, Rng(0))


def with_position(state: GameState, position: Position) -> GameState:
    """The platform state holding ``position`` (fixtures: no log, no keys)."""
    return GameState(options=state.options, seats=state.seats, names=state.names,
                     position=position, computer=state.computer)


def random_game(seed: int, radius: int = 4) -> list[tuple[Position, Move, list[Event]]]:
    """A random legal game played with ``Position.play``: (position before, move, events)."""
    rnd = random.Random(seed)
    p = Position.start(radius)
    out = []
    while not p.over:
        legal = p.legal_moves()
        move = legal[rnd.randrange(len(legal))]
        before = p.copy()
        events = p.play(move)
        out.append((before, move, events))
    return out


@cache
def final_positions(count: int, radius: int = 4) -> tuple[Position, ...]:
    out = []
    for seed in range(1, count + 1):
        game = random_game(seed, radius)
        last, move, _ = game[-1]
        end = last.copy()
        end.play(move)
        out.append(end)
    return tuple(out)


def play_random_platform_game(seed: int, options: dict[str, Any] | None = None,
                              ) -> tuple[GameState, list[dict[str, Any]]]:
    """A game through the Ruleset API; returns the final state and the record's entries."""
    rnd = random.Random(seed)
    state = new_game(options)
    entries: list[dict[str, Any]] = []
    rng = Rng(seed)
    while RULES.outcome(state) is None:
        seat = sorted(RULES.awaiting(state))[0]
        legal = RULES.view(state, seat)["legal_moves"]
        roll = rnd.randrange(10)
        if roll == 0:
            entries.append({seat: None})
            state = RULES.resolve(state, {seat: None}, rng)
            continue
        data = dict(legal[rnd.randrange(len(legal))])
        if roll == 1:
            data["ai"] = {"difficulty": "operative", "budget_cut": False}
        order = RULES.parse_orders(state, seat, data)
        entries.append({seat: RULES.dump_orders(order)})
        state = RULES.resolve(state, {seat: order}, rng)
    return state, entries
