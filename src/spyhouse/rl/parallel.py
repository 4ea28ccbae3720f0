"""``SpyhouseParallelEnv``: a simultaneous-order game as a PettingZoo parallel environment.

One ``step`` adds one action to every acting seat's sheet at once (one order each, or
``submit``); the entry resolves in the step where the last awaited seat submits. A seat
with nothing to order (not awaited, or its sheet complete) may only ``submit``, which
does nothing: its mask says so. The encodings, rewards and ends are the AEC
environment's (``aec.py``, docs/rl.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from gymnasium import spaces
from pettingzoo import ParallelEnv  # type: ignore[import-untyped]

from spyhouse.core.ruleset import SeatId
from spyhouse.rl.aec import LazyInfo, agent_spaces
from spyhouse.rl.table import Table


class SpyhouseParallelEnv(ParallelEnv):  # type: ignore[misc]
    """A game of a simultaneous-order ``game`` per episode (``reset(seed=s)`` as the AEC
    environment's)."""

    metadata: ClassVar[dict[str, Any]] = {"name": "spyhouse_parallel_v0", "render_modes": ["ansi"]}

    def __init__(self, game: str, *, players: int | None = None,
                 rules: Mapping[str, Any] | None = None, max_entries: int | None = None,
                 seed: int = 0, render_mode: str | None = None) -> None:
        self.table = Table(game, players=players, rules=rules, max_entries=max_entries)
        if self.table.ruleset.spec.dynamics != "simultaneous":
            raise ValueError(f"{game} is played one seat at a time: use make_env")
        if self.table.encoder.submit is None:
            raise ValueError(f"{game}'s encoding has no submit action for idle seats")
        self.render_mode = render_mode
        self.possible_agents = list(self.table.seat_ids)
        self.observation_spaces, self.action_spaces = agent_spaces(self.table)
        self._next_seed = seed
        self.agents: list[SeatId] = []

    def __str__(self) -> str:
        return f"spyhouse_parallel_{self.table.game}"

    def observation_space(self, agent: SeatId) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: SeatId) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _observations(self) -> dict[SeatId, dict[str, Any]]:
        table = self.table
        out: dict[SeatId, dict[str, Any]] = {}
        for seat in self.agents:
            observation, mask = table._encoded(seat)
            out[seat] = {"observation": observation, "action_mask": mask}
        return out

    def _infos(self) -> dict[SeatId, dict[str, Any]]:
        table = self.table
        return {seat: LazyInfo(table, seat, entry=table.entries) for seat in self.agents}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[dict[SeatId, dict[str, Any]], dict[SeatId, dict[str, Any]]]:
        if seed is None:
            seed = self._next_seed
        self._next_seed = seed + 1
        self.table.reset(seed)
        self.agents = list(self.possible_agents)
        return self._observations(), self._infos()

    def step(self, actions: Mapping[SeatId, int]) -> tuple[
            dict[SeatId, dict[str, Any]], dict[SeatId, float], dict[SeatId, bool],
            dict[SeatId, bool], dict[SeatId, dict[str, Any]]]:
        table = self.table
        acting = table.acting()
        for seat in acting:
            if seat not in actions:
                raise ValueError(f"{seat} must act now")
        for seat, action in actions.items():
            if seat not in acting and int(action) != table.encoder.submit:
                raise ValueError(f"{seat} has nothing to order now: only submit")
        for seat in acting:
            table.act(seat, int(actions[seat]))
        observations = self._observations()
        infos = self._infos()
        rewards = dict.fromkeys(self.agents, 0.0)
        over = table.over
        ended = over and (table.outcome is not None or not table.truncated)
        terminations = dict.fromkeys(self.agents, ended)
        truncations = dict.fromkeys(self.agents, over and not ended)
        if over:
            rewards.update(table.rewards())
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return self.table.describe()

    def close(self) -> None:
        pass
