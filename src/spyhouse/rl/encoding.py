"""The contract between ``spyhouse.rl`` and a game's encoding (``GamePlugin.encoding``).

A game names its encoding as a dotted path ("package.module:NAME"); the object there is an
``Encoding``: called with the ruleset, the game's options and the seat ids, it returns an
``Encoder``, the fixed action and observation layout of that one game configuration. The
environments know a game only through it and the ``Ruleset`` protocol, so this layer
never imports a game, and numpy is loaded only here and in the encoding modules.

Every seat builds a *sheet*: the list of action indices it chose since the entry opened.
A one-move game (``submit is None``) completes a sheet with one action; a many-order game
adds one order per action and completes it with its ``submit`` action (or when full).
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from spyhouse.core.plugin import GamePlugin
from spyhouse.core.ruleset import Ruleset, SeatId

Observation = NDArray[np.float32]
Mask = NDArray[np.int8]


class Encoder(Protocol):
    """One game configuration's encoding: pure functions of a state, a seat and its sheet.

    ``observe`` and ``mask`` read only what the seat's view shows (they are what a seat
    knows, as a vector); ``mask`` marks every action whose sheet ``parse_orders`` accepts.
    """

    #: the size of the flat ``Discrete`` action space
    action_count: int
    #: the observation vector's shape, and the bounds of every entry
    observation_shape: tuple[int, ...]
    observation_low: float
    observation_high: float
    #: the action that completes a sheet (also the only legal action of a seat with nothing
    #: to order); ``None``: every sheet is one action
    submit: int | None

    def observe(self, state: Any, seat: SeatId, sheet: Sequence[int]) -> Observation:
        """The seat's observation (float32, ``observation_shape``), its sheet so far included."""
        ...

    def mask(self, state: Any, seat: SeatId, sheet: Sequence[int]) -> Mask:
        """1 for each action the seat may add to ``sheet`` now (int8, ``action_count``)."""
        ...

    def complete(self, state: Any, seat: SeatId, sheet: Sequence[int]) -> bool:
        """Whether ``sheet`` is finished (its last action ``submit``, or no order fits)."""
        ...

    def orders(self, state: Any, seat: SeatId, sheet: Sequence[int]) -> Any:
        """The orders JSON of a complete sheet, as a player would send it."""
        ...

    def parsed(self, state: Any, seat: SeatId, sheet: Sequence[int]) -> Any:
        """The typed orders ``parse_orders`` gives for ``orders(...)`` of a complete sheet,
        built directly (the environment's fast path; the tests check they are equal), or
        ``None`` to have the environment call ``parse_orders``."""
        ...

    def describe(self, action: int) -> str:
        """One action in words, for people reading logs and docs."""
        ...


class Encoding(Protocol):
    """What ``GamePlugin.encoding`` names: a factory of encoders."""

    def __call__(self, ruleset: Ruleset[Any, Any], options: Mapping[str, Any],
                 seats: Sequence[SeatId]) -> Encoder:
        ...


def load_encoding(plugin: GamePlugin) -> Encoding:
    """The encoding ``plugin.encoding`` names ("module:NAME"), imported now (lazily, so a
    game's package does not need numpy unless someone asks for an environment)."""
    path = plugin.encoding
    if not path:
        raise ValueError(f"{plugin.name} has no encoding for environments")
    module_name, _, attribute = path.partition(":")
    module = importlib.import_module(module_name)
    encoding: Encoding = getattr(module, attribute or "ENCODING")
    return encoding
