"""``SpyhouseEnv``: any registered game as a PettingZoo AEC environment.

Every seat is an agent (named by its seat id, ``s1``…``sN``). The agent selected is an
awaited seat whose sheet is not complete yet, lowest seat first: in a one-move game that
is the seat to move; in a many-order game each awaited seat builds its whole sheet, one
action per order, then the next seat builds its own, and the entry resolves once every
awaited seat is done. Seats the rules do not await are never selected (a seat out of the
game waits for the end with everyone else). At the end every agent is terminated (an
outcome) or truncated (``max_entries`` or the game's turn cap reached without one).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from spyhouse.core.ruleset import SeatId
from spyhouse.rl.table import Table


class LazyInfo(dict[str, Any]):
    """An agent's info: ``info["view"]`` (the seat's view, as the rules give it) is built
    on first reading only, for it costs more than a whole step of the game."""

    __slots__ = ("_seat", "_state", "_table")

    def __init__(self, table: Table, seat: SeatId, entry: int) -> None:
        super().__init__(entry=entry)
        self._table = table
        self._state = table.state
        self._seat = seat

    def __missing__(self, key: str) -> Any:
        if key != "view":
            raise KeyError(key)
        view = self._table.ruleset.view(self._state, self._seat)
        self["view"] = view
        return view

    def get(self, key: str, default: Any = None) -> Any:
        try:
            return self[key]
        except KeyError:
            return default

    def __contains__(self, key: object) -> bool:
        return key == "view" or super().__contains__(key)


def observation_space(table: Table) -> spaces.Dict:
    encoder = table.encoder
    return spaces.Dict({
        "observation": spaces.Box(encoder.observation_low, encoder.observation_high,
                                  encoder.observation_shape, dtype=np.float32),
        "action_mask": spaces.Box(0, 1, (encoder.action_count,), dtype=np.int8),
    })



def agent_spaces(table: Table) -> tuple[dict[SeatId, spaces.Dict], dict[SeatId, spaces.Discrete]]:
    """Every seat's observation space and action space: the same for every seat."""
    space = observation_space(table)
    action = spaces.Discrete(table.encoder.action_count)
    return dict.fromkeys(table.seat_ids, space), dict.fromkeys(table.seat_ids, action)

class SpyhouseEnv(AECEnv):  # type: ignore[misc]
    """A game of ``game`` per episode; ``reset(seed=s)`` plays the game seeded ``s``
    (``None``: the previous seed plus one, starting from the ``seed`` option)."""

    metadata: ClassVar[dict[str, Any]] = {"name": "spyhouse_v0", "render_modes": ["ansi"],
                                          "is_parallelizable": False}

    def __init__(self, game: str, *, players: int | None = None,
                 rules: Mapping[str, Any] | None = None, max_entries: int | None = None,
                 seed: int = 0, render_mode: str | None = None) -> None:
        super().__init__()
        self.table = Table(game, players=players, rules=rules, max_entries=max_entries)
        self.render_mode = render_mode
        self.possible_agents = list(self.table.seat_ids)
        self.observation_spaces, self.action_spaces = agent_spaces(self.table)
        self._next_seed = seed
        self.agents: list[SeatId] = []
        self.agent_selection = self.possible_agents[0]

    def __str__(self) -> str:
        return f"spyhouse_{self.table.game}"

    def observation_space(self, agent: SeatId) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: SeatId) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is None:
            seed = self._next_seed
        self._next_seed = seed + 1
        self.table.reset(seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._refresh()

    def _refresh(self) -> None:
        """After an entry resolved (or at the start): infos, the end, the next agent."""
        table = self.table
        entry = table.entries
        self.infos = {seat: LazyInfo(table, seat, entry) for seat in self.agents}
        if table.over:
            ended = table.outcome is not None or not table.truncated
            for seat, reward in table.rewards().items():
                if seat in self.rewards:
                    self.rewards[seat] = reward
            for seat in self.agents:
                self.terminations[seat] = ended
                self.truncations[seat] = not ended
            self._accumulate_rewards()
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = table.acting()[0]

    def observe(self, agent: SeatId) -> dict[str, Any]:
        observation, mask = self.table._encoded(agent)
        return {"observation": observation, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: None is only for a finished agent")
        self._cumulative_rewards[agent] = 0.0
        table = self.table
        resolved = table.act(agent, int(action))
        if resolved:
            self._clear_rewards()
            self._refresh()
        else:
            self._clear_rewards()
            self.agent_selection = table.acting()[0]

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return self.table.describe()

    def close(self) -> None:
        pass
