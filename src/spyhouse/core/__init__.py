"""The game-independent kernel: rulesets, seats, order errors, seeded RNG, records, registry.

Everything in ``core`` is pure: no I/O, no clock, no global randomness.
"""

from spyhouse.core.errors import (
    IllegalOrderError,
    OptionsError,
    OrderError,
    OrderSyntaxError,
    RecordError,
)
from spyhouse.core.rng import Rng, ScriptedRng, Stream
from spyhouse.core.ruleset import GameSpec, Outcome, Ruleset, Seat, SeatId

__all__ = [
    "GameSpec",
    "IllegalOrderError",
    "OptionsError",
    "OrderError",
    "OrderSyntaxError",
    "Outcome",
    "RecordError",
    "Rng",
    "Ruleset",
    "ScriptedRng",
    "Seat",
    "SeatId",
    "Stream",
]
