"""Cheating bots for the fairness harness's mutation tests, written for any game.

Each wraps a built-in bot of its game and, when it finds a live game state, reads the
host view of it (every hidden thing) and lets that change its decision: it gives no
orders (``None``) when a hash of what it found is odd. They reach a game only through
``spyhouse.core.registry``: a state is any object of a class from the game's package
(the package of its ruleset's class) that the ruleset's ``view`` accepts.

- ``StackCheat_<game>`` walks the call stack's frames and their locals;
- ``GcCheat_<game>`` searches ``gc.get_objects()``;
- ``GlobalCheat_<game>``: importing this module wraps each ruleset class's ``view`` so
  the last state it was called with stays in a module global, which the bot reads.

A bot records whether it found a state (``found``), so a test can tell "caught" from
"found nothing". ``Honest_<game>`` wraps the built-in bot and peeks at nothing;
``Census_<game>`` answers how many states it can reach.
"""

from __future__ import annotations

import gc
import hashlib
import inspect
import json
import multiprocessing
import time
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from spyhouse.core import registry
from spyhouse.core.bots import bot_names, games, make_bot

#: game -> the last state its ruleset's ``view`` was called with (the module-global cheat).
LAST_STATE: dict[str, Any] = {}
_VERDICT: dict[tuple[str, type], bool] = {}


def _package(game: str) -> str:
    return type(registry.get(game)).__module__.rpartition(".")[0] + "."


def is_state(game: str, value: Any, package: str | None = None) -> bool:
    """Whether ``value`` is one of ``game``'s states (its ruleset's host view accepts it)."""
    cls = type(value)
    module = getattr(cls, "__module__", None)
    if not isinstance(module, str) or not module.startswith(package or _package(game)):
        return False
    key = (game, cls)
    if key not in _VERDICT:
        try:
            registry.get(game).view(value, None)
            _VERDICT[key] = True
        except Exception:
            _VERDICT[key] = False
    return _VERDICT[key]


def _install_view_hook(game: str) -> None:
    cls = type(registry.get(game))
    original: Callable[..., dict[str, Any]] = cls.view
    if getattr(original, "cheat_hook", False):
        return

    def view(self: Any, state: Any, seat: str | None) -> dict[str, Any]:
        LAST_STATE[game] = state
        return original(self, state, seat)

    view.cheat_hook = True  # type: ignore[attr-defined]
    cls.view = view  # type: ignore[method-assign]


for _game in registry.names():
    _install_view_hook(_game)


class Cheat:
    """A built-in bot of ``game`` (strategy ``base``) that peeks at found states."""

    game: ClassVar[str]
    base: ClassVar[str]

    def __init__(self, seat: str, seed: int) -> None:
        self.seat = seat
        self.inner = make_bot(self.game, self.base, seat, seed)
        if hasattr(self.inner, "time_cap"):
            self.inner.time_cap = None
        self.keeps_notes = getattr(self.inner, "keeps_notes", True)
        self.found = False

    def states(self) -> list[Any]:
        raise NotImplementedError

    def act(self, view: Mapping[str, Any]) -> Any:
        decision = self.inner.act(view)
        found = self.states()
        if not found:
            return decision
        self.found = True
        ruleset = registry.get(self.game)
        hosts = sorted(json.dumps(ruleset.view(state, None), sort_keys=True, default=str)
                       for state in found)
        digest = hashlib.sha256("".join(hosts).encode("utf-8")).digest()
        return None if digest[0] % 2 else decision


class StackCheat(Cheat):
    def states(self) -> list[Any]:
        found = []
        frame = inspect.currentframe()
        while frame is not None:
            found.extend(value for value in list(frame.f_locals.values())
                         if is_state(self.game, value))
            frame = frame.f_back
        return found


class GcCheat(Cheat):
    #: the state classes found by a first full scan (later scans test the type alone)
    kinds: ClassVar[set[type]] = set()

    def states(self) -> list[Any]:
        objects = gc.get_objects()
        if not self.kinds:
            package = _package(self.game)
            self.kinds.update(type(value) for value in objects
                              if is_state(self.game, value, package))
        kinds = self.kinds
        return [value for value in objects if type(value) in kinds]


class GlobalCheat(Cheat):
    def states(self) -> list[Any]:
        state = LAST_STATE.get(self.game)
        return [] if state is None else [state]


class Honest(Cheat):
    """The built-in bot wrapped and nothing else: a fair custom bot (spec tests)."""

    def states(self) -> list[Any]:
        return []


class Census(Cheat):
    """Answers how many states the stack and ``gc`` reach, and nothing else: the harness
    finds it fair only if a resampled world's process reaches as many as the true
    world's, which holds only when the true state is gone before the bot acts."""

    def act(self, view: Mapping[str, Any]) -> Any:
        if self.inner.act(view) is None:
            return None
        stack = StackCheat.states(self)  # type: ignore[arg-type]
        package = _package(self.game)
        heap = [value for value in gc.get_objects() if is_state(self.game, value, package)]
        return {"stack": len(stack), "gc": len(heap)}


class Stall(Honest):
    """Plays like the built-in bot in this process, and never answers in a fresh one
    (the harness's child): the harness's time limit must end it."""

    def act(self, view: Mapping[str, Any]) -> Any:
        if multiprocessing.parent_process() is not None:
            time.sleep(3600)
        return super().act(view)


def _base(game: str) -> str:
    names = bot_names(game)
    return "random" if "random" in names else names[0]


for _game in games():
    for _kind in (StackCheat, GcCheat, GlobalCheat, Honest, Census, Stall):
        _name = f"{_kind.__name__}_{_game}"
        globals()[_name] = type(_name, (_kind,), {"game": _game, "base": _base(_game),
                                                  "kinds": set()})
