"""Whole bot games without the platform: the ruleset, the bots and a record of the orders."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from spyhouse.core.record import Record
from spyhouse.core.rng import Rng
from spyhouse.core.ruleset import Seat
from spyhouse.games.infiltration.bots import STRATEGIES, make_bot
from spyhouse.games.infiltration.model import State
from spyhouse.games.infiltration.ruleset import Infiltration

RULES = Infiltration()


def seats(players: int) -> list[Seat]:
    return [Seat(f"s{n}", f"Agent{n}") for n in range(1, players + 1)]


@dataclass
class Game:
    """A played game: every state (after setup, then after each entry) and the record."""

    record: Record
    states: list[State] = field(default_factory=list)
    #: Per entry: the orders actually resolved (seat -> typed orders or None).
    resolved: list[dict[str, Any]] = field(default_factory=list)

    @property
    def final(self) -> State:
        return self.states[-1]


def play(seed: int, players: int, options: Mapping[str, Any] | None = None,
         limit: int = 200) -> Game:
    """A bot game (strategies alternating over the seats) to its end or ``limit`` entries."""
    chosen = seats(players)
    names = sorted(STRATEGIES)
    bots = {s.id: make_bot(names[i % len(names)], s.id, seed) for i, s in enumerate(chosen)}
    rng = Rng(seed)
    state = RULES.setup(chosen, dict(options or {}), rng)
    game = Game(Record("infiltration", seed, dict(options or {}), tuple(chosen)), [state])
    entries: list[dict[str, Any]] = []
    while RULES.outcome(state) is None and len(entries) < limit:
        raw: dict[str, Any] = {}
        parsed: dict[str, Any] = {}
        for seat in sorted(RULES.awaiting(state)):
            data = bots[seat].act(RULES.view(state, seat))
            orders = None if data is None else RULES.parse_orders(state, seat, data)
            parsed[seat] = orders
            raw[seat] = None if orders is None else RULES.dump_orders(orders)
        state = RULES.resolve(state, parsed, rng)
        entries.append(raw)
        game.states.append(state)
        game.resolved.append(parsed)
    game.record = Record("infiltration", seed, dict(options or {}), tuple(chosen),
                         tuple(entries))
    return game
