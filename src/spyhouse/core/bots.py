"""Computer players: a tiny game-independent protocol, reached through each game's plugin.

A bot sees exactly what a human in its seat sees: ``view(state, seat)`` of the
game's ruleset, once per turn, in order. ``act`` returns that game's order JSON
(or ``None`` for no orders). A bot's only randomness is
``Rng(seed).stream(turn, f"bot:{seat}:{name}")`` so that bot games replay.

A game's bots are its plugin's ``BotSet`` (``core.plugin``): strategy names and a
factory ``make(strategy, seat, seed)``. Anyone's bot joins them by a *bot spec*
(``bot_factory``): a built-in strategy name, ``path/to/file.py:Class`` or
``package.module:Class``, where ``Class(seat, seed)`` builds a bot.

Fair by construction: the platform hands a bot ``fresh_view(view)``, a copy made by a
JSON round trip, so nothing reachable from what the bot is given leads back to the
game's state. A bot whose decisions may depend on the wall clock has an attribute
``time_cap`` (seconds, or ``None`` for no cap); the fairness harness and the lab set it
to ``None`` so that a decision depends on the view and the seed alone.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import json
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
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


#: ``factory(seat, seed)``: a fresh bot for one seat (``bot_factory``).
SeatBotFactory = Callable[[str, int], Bot]


class BotSpecError(ValueError):
    """A bot spec that names no bot: the message says why, for the command line."""


def seat_bot_seed(game_seed: int, seat: str) -> int:
    """The seed of the bot in ``seat`` of the game seeded ``game_seed``: drawn from both
    one way (SHA-256), never the game seed itself, from which a bot could recompute the
    game's secret setup draws (Infiltration's teams). The same everywhere a bot is made
    (simulations, the lab, the server's bot seats), so a bot game replays anywhere."""
    digest = hashlib.sha256(f"spyhouse-bot:{game_seed}:{seat}".encode()).digest()
    return int.from_bytes(digest[:4], "big") >> 1


def fresh_view(view: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of ``view`` made by a JSON round trip: all a bot is ever handed."""
    return cast(dict[str, Any], json.loads(json.dumps(view)))


def is_builtin(game: str, spec: str) -> bool:
    """Whether ``spec`` is one of ``game``'s own strategy names."""
    return ":" not in spec and spec in _bots(game).strategies


def _load_class(spec: str) -> Any:
    where, _, name = spec.rpartition(":")
    if not where or not name.isidentifier():
        raise BotSpecError(f"bot spec {spec!r} is not NAME, path/to/file.py:Class or "
                           "module:Class")
    if where.endswith(".py"):
        path = Path(where)
        if not path.is_file():
            raise BotSpecError(f"bot file {where} does not exist")
        digest = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:16]
        module_name = f"spyhouse_bot_{digest}"
        module = sys.modules.get(module_name)
        if module is None:
            loader = importlib.util.spec_from_file_location(module_name, path)
            if loader is None or loader.loader is None:
                raise BotSpecError(f"bot file {where} cannot be loaded")
            module = importlib.util.module_from_spec(loader)
            sys.modules[module_name] = module
            loader.loader.exec_module(module)
    else:
        try:
            module = importlib.import_module(where)
        except ImportError as exc:
            raise BotSpecError(f"bot module {where} cannot be imported: {exc}") from exc
    found = getattr(module, name, None)
    if found is None or not callable(found):
        raise BotSpecError(f"{where} has no bot class {name}")
    return found


def bot_factory(game: str, spec: str) -> SeatBotFactory:
    """The factory of the bot ``spec`` names for ``game``; ``BotSpecError`` if none.

    A built-in name is ``make_bot(game, name, …)``; ``file.py:Class`` and
    ``module:Class`` build ``Class(seat, seed)``, which must have ``act(view)``.
    """
    if ":" not in spec:
        if spec not in _bots(game).strategies:
            known = ", ".join(bot_names(game))
            raise BotSpecError(f"unknown {game} bot {spec!r}; known bots: {known}, or "
                               "path/to/file.py:Class, or module:Class")
        return lambda seat, seed: make_bot(game, spec, seat, seed)
    cls = _load_class(spec)
    if not callable(getattr(cls, "act", None)):
        raise BotSpecError(f"bot class {spec} has no act(view) method")
    return lambda seat, seed: cast(Bot, cls(seat, seed))


def bot_label(spec: str) -> str:
    """A short name for ``spec`` in reports: the class name of ``file.py:Class``."""
    return spec.rpartition(":")[2] if ":" in spec else spec
