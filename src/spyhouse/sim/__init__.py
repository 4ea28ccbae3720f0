"""Simulations: games played by bots, producing a game record (no I/O, no clock)."""

from spyhouse.sim.simulate import (
    Refusal,
    Simulation,
    default_seats,
    seat_names,
    simulate,
)

__all__ = ["Refusal", "Simulation", "default_seats", "seat_names", "simulate"]
