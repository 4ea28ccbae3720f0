"""Simulations: games played by bots, producing a game record (no I/O, no clock)."""

from spyhouse.sim.simulate import (
    SEAT_NAMES,
    Refusal,
    Simulation,
    default_seats,
    seat_names,
    simulate,
)

__all__ = ["SEAT_NAMES", "Refusal", "Simulation", "default_seats", "seat_names", "simulate"]
