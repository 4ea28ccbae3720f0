"""Computer players: a tiny game-independent protocol and a lazy registry per game.

A bot sees exactly what a human in its seat sees: ``view(state, seat)`` of the
game's ruleset, once per turn, in order. ``act`` returns that game's order JSON
(or ``None`` for no orders). A bot's only randomness is
``Rng(seed).stream(turn, f"bot:{seat}:{name}")`` so that bot games replay.

Each game module named here exposes ``STRATEGIES: dict[str, type]`` and
``make_bot(name, seat, seed)``; the module is imported on first use only, so the
core imports no game.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import ModuleType
from typing import Any, Protocol, cast, runtime_checkable


@runtime_checkable
class Bot(Protocol):
    """A computer player for one seat of one game."""

    def act(self, view: Mapping[str, Any]) -> Any:
        """The order JSON for the next turn given this turn's view, or ``None``."""
        ...


_BOT_MODULES: dict[str, str] = {
    "spyvsspy": "spyhouse.games.spyvsspy.bots",
    "spyorlie": "spyhouse.games.spyorlie.bots",
    "infiltration": "spyhouse.games.infiltration.bots",
    "kingdoms": "spyhouse.games.kingdoms.bots",
}


def register(game: str, module: str) -> None:
    """Register the bots module of ``game`` (imported on first use)."""
    _BOT_MODULES[game] = module


def _module(game: str) -> ModuleType:
    try:
        target = _BOT_MODULES[game]
    except KeyError:
        known = ", ".join(sorted(_BOT_MODULES))
        raise KeyError(f"no bots for game {game!r}; games with bots: {known}") from None
    return importlib.import_module(target)


def games() -> list[str]:
    """Games that have bots, sorted."""
    return sorted(_BOT_MODULES)


def bot_names(game: str) -> list[str]:
    """The strategy names of ``game``'s bots, sorted."""
    strategies = cast(Mapping[str, type], _module(game).STRATEGIES)
    return sorted(strategies)


def make_bot(game: str, name: str, seat: str, seed: int) -> Bot:
    """A fresh bot playing strategy ``name`` in ``seat``; ``KeyError`` for an unknown name."""
    module = _module(game)
    if name not in module.STRATEGIES:
        known = ", ".join(sorted(module.STRATEGIES))
        raise KeyError(f"unknown {game} bot {name!r}; known bots: {known}")
    return cast(Bot, module.make_bot(name, seat, seed))
