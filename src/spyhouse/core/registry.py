"""The registry of games: each game is one ``GamePlugin``, registered once.

Installed games come from the entry-point group ``spyhouse.games`` (see
``pyproject.toml``), loaded on first use so that importing the core imports no
game; ``register`` adds a game defined elsewhere (a test's own game). Nothing
else is looked up by name.
"""

from __future__ import annotations

from importlib.metadata import entry_points
from typing import Any

from spyhouse.core.plugin import GamePlugin
from spyhouse.core.ruleset import Ruleset

GROUP = "spyhouse.games"

_PLUGINS: dict[str, GamePlugin] = {}
_LOADED = False


def _load() -> dict[str, GamePlugin]:
    global _LOADED
    if not _LOADED:
        for point in sorted(entry_points(group=GROUP), key=lambda p: p.name):
            plugin = point.load()
            if not isinstance(plugin, GamePlugin) or plugin.name != point.name:
                raise TypeError(f"entry point {point.name} of {GROUP} is not the GamePlugin "
                                f"of a game named {point.name!r}")
            _PLUGINS.setdefault(plugin.name, plugin)
        _LOADED = True
    return _PLUGINS


def register(plugin: GamePlugin) -> None:
    """Register a game (replacing one of the same name)."""
    _load()[plugin.name] = plugin


def unregister(name: str) -> None:
    """Forget a game registered with ``register`` (tests clean up after themselves)."""
    _load().pop(name, None)


def names() -> list[str]:
    """Registered game names, sorted."""
    return sorted(_load())


def plugins() -> list[GamePlugin]:
    """Every registered game, by name."""
    games = _load()
    return [games[name] for name in sorted(games)]


def plugin(name: str) -> GamePlugin:
    """The plugin of ``name``; ``KeyError`` with the known names otherwise."""
    try:
        return _load()[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known games: {', '.join(names())}") from None


def get(name: str) -> Ruleset[Any, Any]:
    """A fresh ruleset instance for ``name``; ``KeyError`` with the known names otherwise."""
    return plugin(name).ruleset()
