"""Environments for researchers: every game as a PettingZoo environment (docs/rl.md).

``make_env(game, ...)`` gives an AEC environment for any game whose plugin names an
encoding; ``make_parallel_env(game, ...)`` a parallel one for the games whose seats give
orders simultaneously. An adapter layer like ``spyhouse.sim``: games are reached through
the registry and their plugins only. Needs the ``rl`` extra (pettingzoo, gymnasium, numpy).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from spyhouse.rl.aec import SpyhouseEnv
    from spyhouse.rl.parallel import SpyhouseParallelEnv


def make_env(game: str, *, players: int | None = None, rules: Mapping[str, Any] | None = None,
             max_entries: int | None = None, seed: int = 0,
             render_mode: str | None = None) -> SpyhouseEnv:
    """A PettingZoo AEC environment of ``game``: ``players`` seats (the game's fewest by
    default), ``rules`` the game's options JSON, ``max_entries`` resolved entries at most
    (then every agent is truncated), ``seed`` the first ``reset()``'s game seed."""
    from spyhouse.rl.aec import SpyhouseEnv

    return SpyhouseEnv(game, players=players, rules=rules, max_entries=max_entries, seed=seed,
                       render_mode=render_mode)


def make_parallel_env(game: str, *, players: int | None = None,
                      rules: Mapping[str, Any] | None = None, max_entries: int | None = None,
                      seed: int = 0, render_mode: str | None = None) -> SpyhouseParallelEnv:
    """A PettingZoo parallel environment of a simultaneous-order ``game`` (its ruleset's
    ``spec.dynamics == "simultaneous"``); ``ValueError`` for an alternating one."""
    from spyhouse.rl.parallel import SpyhouseParallelEnv

    return SpyhouseParallelEnv(game, players=players, rules=rules, max_entries=max_entries,
                               seed=seed, render_mode=render_mode)


__all__ = ["make_env", "make_parallel_env"]
