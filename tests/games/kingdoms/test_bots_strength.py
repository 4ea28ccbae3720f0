"""Kingdoms bots beat the ``random`` yardstick: one bot among five random players,
rotated over the six seats, wins well above the fair 1/6 (bench/kingdoms_bots.py
measures it over many more games)."""

from __future__ import annotations

import pytest

from spyhouse.sim.simulate import simulate

SEATS = 6


def wins_among_randoms(bot: str, seed: int) -> int:
    won = 0
    for seat in range(SEATS):
        names = ["random"] * SEATS
        names[seat] = bot
        sim = simulate("kingdoms", players=SEATS, turns=25, seed=seed + seat, bots=names)
        assert sim.refusals == ()
        assert sim.outcome is not None
        won += f"s{seat + 1}" in sim.outcome.winners
    return won


@pytest.mark.parametrize("bot", ["conqueror", "spymaster", "steward", "warlord"])
def test_bot_beats_five_random_players(bot: str) -> None:
    """18 games (3 a seat): a fair share is 3 wins; each bot wins at least twice that
    (7 to 11 at the time of writing)."""
    assert sum(wins_among_randoms(bot, seed) for seed in (100, 200, 300)) >= 6
