"""The registry of games: name -> ruleset, imported lazily so the core imports no game."""

from __future__ import annotations

import importlib
from typing import Any

from spyhouse.core.ruleset import Ruleset

_GAMES: dict[str, str] = {
    "spyvsspy": "spyhouse.games.spyvsspy.ruleset:SpyVsSpy",
    "infiltration": "spyhouse.games.infiltration.ruleset:Infiltration",
    "kingdoms": "spyhouse.games.kingdoms.ruleset:Kingdoms",
    "spyorlie": "spyhouse.games.spyorlie.ruleset:SpyOrLie",
}


def names() -> list[str]:
    """Registered game names, sorted."""
    return sorted(_GAMES)


def register(name: str, target: str) -> None:
    """Register a game by ``"module:Class"``; the class is imported on first use."""
    _GAMES[name] = target


def get(name: str) -> Ruleset[Any, Any]:
    """A fresh ruleset instance for ``name``; ``KeyError`` with the known names otherwise."""
    try:
        target = _GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r}; known games: {', '.join(names())}") from None
    module_name, _, class_name = target.partition(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    ruleset: Ruleset[Any, Any] = cls()
    return ruleset
