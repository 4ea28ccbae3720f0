"""Computer players for Spy or Lie: the bot registry's module (``core/bots.py``).

``STRATEGIES`` maps a name to a bot class; ``make_bot(name, seat, seed)`` builds one.
Each bot's ``act(view)`` takes the seat view (DF5) — the same object a human's page is
made from — and returns the move JSON (DF2) with the ``ai`` note
``{"difficulty", "budget_cut"}``, or ``None`` when the view awaits nothing from its seat.

The bots keep no state between turns: a decision depends only on the view, the seed and
the budget (and, with AI6's time cap on, on the wall clock). Their randomness is
``Rng(seed).stream(ply, f"bot:{seat}:{difficulty}")``, keyed by the view's ply, so a
replayed or re-created bot decides the same (RND2). ``difficulty`` is an attribute read
when a turn starts (D37): set it between turns to change level; the platform may
equally build a fresh bot for each computer turn.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from spyhouse.core.rng import Rng
from spyhouse.games.spyorlie.ai import (
    BUDGETS,
    DEFAULT_TIME_CAP,
    DEFAULT_WEIGHTS,
    DIFFICULTIES,
    OPERATIVE,
    RANDOM,
    SPYMASTER,
    Budget,
    Decision,
    Weights,
    choose,
)


class SpyOrLieBot:
    """A computer player for one seat. ``budgets`` (per difficulty) and ``weights`` default
    to the tuned values of ``ai``; ``time_cap=None`` turns AI6's wall-clock cap off."""

    name: ClassVar[str] = OPERATIVE
    #: The platform need not feed a fresh bot the seat's earlier views: it keeps no notes.
    keeps_notes: ClassVar[bool] = False

    def __init__(self, seat: str, seed: int, *, difficulty: str | None = None,
                 budgets: Mapping[str, Budget] | None = None,
                 weights: Weights = DEFAULT_WEIGHTS,
                 time_cap: float | None = DEFAULT_TIME_CAP,
                 clock: Callable[[], float] = time.perf_counter) -> None:
        self.seat = seat
        self.seed = seed
        self.difficulty = difficulty if difficulty is not None else self.name
        if self.difficulty not in DIFFICULTIES:
            raise ValueError(f"unknown difficulty {self.difficulty!r}")
        self.budgets = dict(BUDGETS if budgets is None else budgets)
        self.weights = weights
        self.time_cap = time_cap
        self.clock = clock
        self.rng = Rng(seed)
        #: The last decision (for benchmarks and tests; never sent anywhere).
        self.last: Decision | None = None

    def decide(self, view: Mapping[str, Any]) -> Decision | None:
        """The decision for ``view``, or ``None`` when it awaits nothing from this seat."""
        if view.get("over") or view.get("awaiting") != self.seat or not view.get("legal_moves"):
            return None
        difficulty = self.difficulty  # D37: read once, when the turn starts
        stream = self.rng.stream(int(view["ply"]), f"bot:{self.seat}:{difficulty}")
        decision = choose(view, difficulty, stream, self.budgets.get(difficulty),
                          weights=self.weights, time_cap=self.time_cap, clock=self.clock)
        self.last = decision
        return decision

    def act(self, view: Mapping[str, Any]) -> dict[str, Any] | None:
        decision = self.decide(view)
        return None if decision is None else decision.to_json()


class Operative(SpyOrLieBot):
    """§15.3: samples the hidden cards and looks one move ahead (plus the exact endgame)."""

    name: ClassVar[str] = OPERATIVE


class Spymaster(SpyOrLieBot):
    """§15.4: samples the hidden cards and also examines the opponent's replies."""

    name: ClassVar[str] = SPYMASTER


class RandomBot(SpyOrLieBot):
    """AI8: a uniform choice from the canonical legal list (tests and ``simulate``)."""

    name: ClassVar[str] = RANDOM


STRATEGIES: dict[str, type[SpyOrLieBot]] = {
    cls.name: cls for cls in (Operative, Spymaster, RandomBot)
}


def make_bot(name: str, seat: str, seed: int, *,
             time_cap: float | None = DEFAULT_TIME_CAP) -> SpyOrLieBot:
    """A fresh bot of strategy ``name`` for ``seat``; ``KeyError`` for an unknown name."""
    try:
        cls = STRATEGIES[name]
    except KeyError:
        raise KeyError(f"unknown spyorlie bot {name!r}; known: {', '.join(sorted(STRATEGIES))}"
                       ) from None
    return cls(seat, seed, time_cap=time_cap)


__all__ = ["STRATEGIES", "Operative", "RandomBot", "SpyOrLieBot", "Spymaster", "make_bot"]
