"""Computer players: a tiny game-independent protocol, reached through each game's plugin.

A bot sees exactly what a human in its seat sees: ``view(state, seat)`` of the
game's ruleset, once per turn, in order. ``act`` returns that game's order JSON
(or ``None`` for no orders). A bot's only randomness is
``Rng(seed).stream(turn, f"bot:{seat}:{name}")`` so that bot games replay.

A game's bots are its plugin's ``BotSet`` (``core.plugin``): strategy names and a
factory ``make(strategy, seat, seed)``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, cast, runtime_checkable

from spyhouse.core import registry
from spyhouse.core.plugin import BotSet


@runtime_checkable
class Bot(Protocol):
    """A computer player for one seat of one game."""

    def act(self, view: Mapping[str, Any]) -> Any:
        """The order JSON for the next turn given this turn's view, or ``None``."""
        ...


def _bots(game: str) -> BotSet:
    found = registry.plugin(game).bots if game in registry.names() else None
    if found is None:
        known = ", ".join(games())
        raise KeyError(f"no bots for game {game!r}; games with bots: {known}")
    return found


def games() -> list[str]:
    """Games that have bots, sorted."""
    return [plugin.name for plugin in registry.plugins() if plugin.bots is not None]


def bot_names(game: str) -> list[str]:
    """The strategy names of ``game``'s bots, sorted."""
    return sorted(_bots(game).strategies)


def make_bot(game: str, name: str, seat: str, seed: int) -> Bot:
    """A fresh bot playing strategy ``name`` in ``seat``; ``KeyError`` for an unknown name."""
    found = _bots(game)
    if name not in found.strategies:
        known = ", ".join(sorted(found.strategies))
        raise KeyError(f"unknown {game} bot {name!r}; known bots: {known}")
    return cast(Bot, found.make(name, seat, seed))
