"""The ``random`` Kingdoms bot, the yardstick of bot strength: raises what it can afford,
then up to ``max_moves`` random MOVEs; every sheet parses and a seed replays."""

from __future__ import annotations

from spyhouse.sim.simulate import simulate


def test_random_bot_orders_are_accepted_and_deterministic() -> None:
    for seed, players in ((1, 6), (2, 3), (3, 5)):
        first = simulate("kingdoms", players=players, turns=25, seed=seed, bots=["random"])
        assert first.refusals == ()
        assert first.outcome is not None
        rows = [row for entry in first.record.turns for sheet in entry.values()
                if sheet is not None for row in sheet["actions"]]
        assert {row["action"] for row in rows} == {"RAISE", "MOVE"}
        again = simulate("kingdoms", players=players, turns=25, seed=seed, bots=["random"])
        assert again.record == first.record
