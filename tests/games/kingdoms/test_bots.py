"""Kingdoms bots (``kingdoms/bots.py``): valid orders from views only, deterministic,
every strategy playing the host game and the spy chapter."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spyhouse.core.rng import Rng
from spyhouse.games.kingdoms import bots
from spyhouse.games.kingdoms.model import Action
from tests.games.kingdoms.fixture import RULES
from tests.games.kingdoms.randomplay import play, seats
from tests.games.kingdoms.test_maps import isthmus

NAMES = ["conqueror", "random", "spymaster", "steward", "warlord"]
OPTIONS: list[dict[str, Any]] = [
    {},
    {"actions_per_turn": 3, "max_moves": 1, "max_turns": 12},
    {"start_bp": 20, "max_watchers": 1, "force_pool": 20},
    {"map": isthmus()},
    {"seating": ["k6", "k2", "k4"]},
]


def test_strategies_and_make_bot() -> None:
    assert sorted(bots.STRATEGIES) == NAMES
    assert bots.make_bot("warlord", "s1", 3).name == "warlord"
    with pytest.raises(KeyError):
        bots.make_bot("napoleon", "s1", 3)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), n=st.integers(3, 6), which=st.integers(0, len(OPTIONS) - 1))
def test_bots_write_only_valid_orders(seed: int, n: int, which: int) -> None:
    """Every bot sheet passes ``parse_orders`` (``play`` parses each one) with any options;
    the game ends by ``max_turns`` or a last survivor."""
    options = OPTIONS[which]
    if "map" in options or "seating" in options:
        n = 3
    game = play(seed, n, turns=25, mix="bots", options=options)
    assert RULES.outcome(game.states[-1]) is not None


def test_bots_are_deterministic() -> None:
    """The same seed gives the same record."""
    assert play(17, 5, mix="bots").record == play(17, 5, mix="bots").record


def test_fresh_bot_every_turn_still_plays() -> None:
    """A bot rebuilt each turn (no memory, as through the API) still writes valid orders."""
    rng = Rng(1)
    state = RULES.setup(seats(4), {}, rng)
    for _ in range(10):
        orders = {}
        for sid in sorted(RULES.awaiting(state)):
            bot = bots.make_bot(NAMES[int(sid[1:]) % 3], sid, 1)
            data = bot.act(RULES.view(state, sid))
            orders[sid] = None if data is None else RULES.parse_orders(state, sid, data)
        state = RULES.resolve(state, orders, rng)


def test_bots_use_the_whole_rulebook() -> None:
    """Across a few games the bots' done rows cover every action but SKIP and MOLECAT
    (which they use only when a route or a prey calls for it)."""
    done: Counter[str] = Counter()
    for seed in range(6):
        game = play(seed, 6, mix="bots")
        for state in game.states[1:]:
            for report in state.reports.values():
                done.update(r.row.action.value for r in report.results if r.done)
    wanted = {a.value for a in Action} - {"SKIP", "MOLECAT"}
    assert wanted <= set(done), wanted - set(done)


def test_bot_returns_none_when_not_playing() -> None:
    game = play(3, 3, mix="bots")
    final = game.states[-1]
    view = RULES.view(final, "s1")
    assert bots.make_bot("warlord", "s1", 3).act(view) is None
