"""Spy vs Spy bots without seat bias, with the balance pair, under single Spy 2 changes.

The figures (seat shares over 240 games, game lengths) are measured by
``bench/spyvsspy_seats.py``; these tests check the mechanisms, fast.
"""

from __future__ import annotations

from collections import Counter

import pytest

from spyhouse.games.spyvsspy import bots
from spyhouse.games.spyvsspy.model import SPY2_CHANGES
from spyhouse.sim.simulate import simulate


def test_each_bot_ranks_rivals_in_its_own_order() -> None:
    """Ties between rivals go by a shuffle of the bot's own, not by seat order: the bots of
    an 8-seat game do not all put the same rival first."""
    sim = simulate("spyvsspy", players=8, turns=1, seed=5, bots=["hunter"])
    firsts: Counter[str] = Counter()
    for seat, (_, view) in sim.last_views.items():
        bot = bots.make_bot("hunter", seat, 5)
        bot.act(view)
        assert sorted(bot.rank) == sorted(s for s in sim.last_views if s != seat)
        firsts[min(bot.rank, key=bot.rank.__getitem__)] += 1
    assert len(firsts) >= 4


def test_rank_is_deterministic() -> None:
    sim = simulate("spyvsspy", players=6, turns=1, seed=2, bots=["economist"])
    view = sim.last_views["s3"][1]
    first, second = bots.make_bot("economist", "s3", 2), bots.make_bot("economist", "s3", 2)
    assert first.act(view) == second.act(view)
    assert first.rank == second.rank


def test_hunted_rivals_spread_over_seats() -> None:
    """Over the first turns of an 8-hunter game the named HUNT targets are not mostly s1."""
    sim = simulate("spyvsspy", players=8, turns=3, seed=9, bots=["hunter"])
    named = Counter(order["brotherhood"] for entry in sim.record.turns
                    for sheet in entry.values() if sheet
                    for order in sheet["spies"].values()
                    if order["task"] == "HUNT" and "brotherhood" in order)
    assert named and named["s1"] < 0.4 * sum(named.values())


def test_grower_and_informer_differ_in_the_opening_only() -> None:
    """Turn 1: the grower recruits and hunts nobody, the informer hunts. After the grower's
    opening both play the hunter's plan."""
    sim = simulate("spyvsspy", players=4, turns=1, seed=4, bots=["hunter"])
    view = sim.last_views["s2"][1]
    grower = bots.make_bot("grower", "s2", 4).act(view)
    informer = bots.make_bot("informer", "s2", 4).act(view)
    assert grower is not None and informer is not None
    grower_tasks = {order["task"] for order in grower["spies"].values()}
    informer_tasks = {order["task"] for order in informer["spies"].values()}
    assert "RECRUIT" in grower_tasks and "HUNT" not in grower_tasks
    assert "HUNT" in informer_tasks
    assert issubclass(bots.Grower, bots.Hunter) and bots.Informer.OPENING == 0
    assert bots.Grower.OPENING > 0


@pytest.mark.parametrize("change", SPY2_CHANGES)
def test_bots_play_under_each_single_change(change: str) -> None:
    """Bots read the changes from the view: no sheet is refused under any one of them."""
    sim = simulate("spyvsspy", players=4, turns=10, seed=1, bots=["economist", "hunter", "shadow"],
                   options={"spy2_changes": [change]})
    assert sim.refusals == ()


@pytest.mark.parametrize("name", sorted(bots.STRATEGIES))
def test_bots_without_their_secrets(name: str) -> None:
    """A player's API view leaves out ``secrets`` (they are mailed): the bot still gives a
    sheet the rules accept (its cover FAKE goes to a region it draws)."""
    from spyhouse.core import registry

    ruleset = registry.get("spyvsspy")
    sim = simulate("spyvsspy", players=5, turns=3, seed=6, bots=[name])
    state = sim.final_state
    assert ruleset.awaiting(state)
    for seat in sorted(ruleset.awaiting(state)):
        view = {k: v for k, v in ruleset.view(state, seat).items() if k != "secrets"}
        bot = bots.make_bot(name, seat, 6)
        sheet = bot.act(view)
        ruleset.parse_orders(state, seat, sheet)
