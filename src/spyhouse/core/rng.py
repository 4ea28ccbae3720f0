"""Seeded random streams, one per (game seed, turn, purpose).

Draws go through ``Stream.roll`` (uniform 1..n by rejection sampling on
``getrandbits``), whose algorithm we own, so records replay identically on any
Python version and with any ``PYTHONHASHSEED``. Never ``random.choice``,
``shuffle`` or ``sample``, never the global ``random``.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TypeVar

T = TypeVar("T")


class Stream:
    """One named stream of draws."""

    def __init__(self, key: str) -> None:
        digest = hashlib.sha256(key.encode("utf-8")).digest()
        self._gen = random.Random(int.from_bytes(digest, "big"))
        self.key = key

    def _draw(self, n: int) -> int:
        bits = n.bit_length()
        while True:
            value = self._gen.getrandbits(bits)
            if value < n:
                return value + 1

    def roll(self, n: int) -> int:
        """A uniform integer 1..n; ``roll(1)`` draws nothing."""
        if n < 1:
            raise ValueError(f"roll({n}) needs n >= 1")
        if n == 1:
            return 1
        return self._draw(n)

    def choice(self, candidates: Sequence[T]) -> T:
        """Random choice among candidates given in canonical order; one candidate draws nothing."""
        if not candidates:
            raise ValueError("choice from no candidates")
        return candidates[self.roll(len(candidates)) - 1]

    def ordering(self, members: Iterable[T]) -> list[T]:
        """Random ordering: repeated choice among the unplaced; the last goes last with no draw."""
        left = list(members)
        placed: list[T] = []
        while len(left) > 1:
            placed.append(left.pop(self.roll(len(left)) - 1))
        placed.extend(left)
        return placed


class Rng:
    """The game's randomness: derives a fresh stream for each (turn, purpose)."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def stream(self, turn: int, purpose: str) -> Stream:
        return Stream(f"spyhouse/{self.seed}/{turn}/{purpose}")


class _ScriptedStream(Stream):
    """A stream that answers from a script first, then from the real stream."""

    def __init__(self, key: str, script: list[int], on_draw: Callable[[int, int], None]) -> None:
        super().__init__(key)
        self._script = script
        self._on_draw = on_draw

    def _draw(self, n: int) -> int:
        if self._script:
            value = self._script.pop(0)
            if not 1 <= value <= n:
                raise ValueError(f"{self.key}: scripted roll {value} outside 1..{n}")
        else:
            value = super()._draw(n)
        self._on_draw(n, value)
        return value


class ScriptedRng(Rng):
    """An ``Rng`` whose draws are fixed by a script, for tests of worked examples.

    ``script`` maps a purpose (``"hunt"``), or ``"purpose@turn"`` for one turn
    only, to the values its draws return, in order; draws past the script come
    from the seeded stream. ``draws`` records every draw as (key, n, value).
    """

    def __init__(self, seed: int = 0, script: Mapping[str, Sequence[int]] | None = None) -> None:
        super().__init__(seed)
        self._script = {key: list(values) for key, values in (script or {}).items()}
        self.draws: list[tuple[str, int, int]] = []

    def stream(self, turn: int, purpose: str) -> Stream:
        key = f"{purpose}@{turn}"
        values = self._script.get(key)
        if values is None:
            values = self._script.setdefault(purpose, [])
        label = f"spyhouse/{self.seed}/{turn}/{purpose}"
        return _ScriptedStream(
            label, values, lambda n, v: self.draws.append((key, n, v))
        )

    def unused(self) -> dict[str, list[int]]:
        """Scripted values never drawn (a test may assert this is empty)."""
        return {key: values for key, values in self._script.items() if values}
