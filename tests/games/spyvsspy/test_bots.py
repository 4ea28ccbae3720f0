"""Spy vs Spy bots (``spyvsspy/bots.py``) and the bot registry (``core/bots.py``).

Bots read only their seat's view. These tests also read the host view, to check
each declaration and each notebook against the truth.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spyhouse.core import bots as registry
from spyhouse.core.rng import Rng
from spyhouse.core.ruleset import Seat
from spyhouse.games.spyvsspy import bots
from spyhouse.games.spyvsspy.model import State
from spyhouse.sim.simulate import seat_names, simulate
from tests.games.spyvsspy.fixture import RULES
from tests.games.spyvsspy.test_notebook import check_sound

NAMES = ["economist", "hunter", "shadow"]
ALL_NAMES = ["economist", "grower", "hunter", "informer", "shadow"]
SPY2_GONE = {"HIDE", "DISGUISE", "FOLLOW", "FAKE"}


@dataclass
class Game:
    """A bot game played turn by turn, checking every sheet and declaration on the way."""

    state: State
    bots: dict[str, bots.SpyBot]
    sheets: list[dict[str, Any]] = field(default_factory=list)
    guesses: Counter[tuple[str, bool]] = field(default_factory=Counter)


def new_bot_game(seed: int, players: int, strategies: Sequence[str],
                 variant: str = "classic") -> Game:
    seats = [Seat(f"s{i}", name) for i, name in enumerate(seat_names(players), start=1)]
    state = RULES.setup(seats, {"variant": variant}, Rng(seed))
    made = {seat.id: bots.make_bot(strategies[i % len(strategies)], seat.id, seed)
            for i, seat in enumerate(seats)}
    return Game(state, made)


def check_declarations(game: Game, seat: str, view: dict[str, Any], sheet: dict[str, Any]
                       ) -> None:
    """A bot declares only what is true, or guesses once while holding a Life (classic)."""
    host = RULES.view(game.state, None)["seats"]
    wrong = 0
    for declaration in sheet["declarations"]:
        truth = host[declaration["brotherhood"]]
        right = (truth["leader"], truth["base"]) == (declaration["leader"],
                                                     declaration["region"])
        game.guesses[(game.bots[seat].name, right)] += 1
        wrong += not right
    assert wrong <= (view["me"].get("life") or 0), (seat, sheet["declarations"])


def step(game: Game, rng: Rng, *, check: bool = True) -> None:
    sheets = {}
    turn: dict[str, Any] = {}
    for seat in sorted(RULES.awaiting(game.state)):
        view = RULES.view(game.state, seat)
        sheet = game.bots[seat].act(view)
        assert sheet is not None
        if check:
            check_declarations(game, seat, view, sheet)
            if view["variant"] == "spy2":
                assert not {o["task"] for o in sheet["spies"].values()} & SPY2_GONE
        sheets[seat] = RULES.parse_orders(game.state, seat, sheet)  # never an OrderError
        turn[seat] = sheet
    if check:
        check_sound(game.state, {seat: b.notebook for seat, b in game.bots.items()})
    game.sheets.append(turn)
    game.state = RULES.resolve(game.state, sheets, rng)


def run(game: Game, seed: int, turns: int, *, check: bool = True) -> Game:
    rng = Rng(seed)
    for _ in range(turns):
        if RULES.outcome(game.state) is not None:
            break
        step(game, rng, check=check)
    return game


# ---------------------------------------------------------------- registry


def test_registry_lists_and_makes_bots() -> None:
    assert "spyvsspy" in registry.games()
    assert registry.bot_names("spyvsspy") == ALL_NAMES
    bot = registry.make_bot("spyvsspy", "hunter", "s2", 5)
    assert isinstance(bot, registry.Bot)
    assert isinstance(bot, bots.Hunter)
    with pytest.raises(KeyError, match="known bots"):
        registry.make_bot("spyvsspy", "nobody", "s1", 1)
    with pytest.raises(KeyError, match="no bots"):
        registry.bot_names("chess")


def test_strategies_have_a_plan() -> None:
    for name, cls in bots.STRATEGIES.items():
        assert cls.name == name
        assert cls.__doc__ is not None and len(cls.__doc__.split()) > 60


def test_no_orders_once_out() -> None:
    game = run(new_bot_game(3, 3, NAMES), 3, 60)
    assert RULES.outcome(game.state) is not None
    for seat, bot in game.bots.items():
        assert bot.act(RULES.view(game.state, seat)) is None


# ---------------------------------------------------------------- whole games


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(3, 8),
       variant=st.sampled_from(["classic", "spy2"]),
       mix=st.lists(st.sampled_from(NAMES), min_size=1, max_size=4))
def test_bot_games_are_valid_and_sound(seed: int, players: int, variant: str,
                                       mix: list[str]) -> None:
    """Every sheet is accepted, every declaration is right or covered by a Life, and every
    notebook keeps the true secrets of every surviving rival."""
    run(new_bot_game(seed, players, mix, variant), seed, 40)


def test_bots_replay_without_global_random() -> None:
    """Same seed, same sheets: bots use only their own seeded streams."""
    random.seed(1)
    first = run(new_bot_game(11, 5, NAMES), 11, 8, check=False).sheets
    random.seed(2)
    second = run(new_bot_game(11, 5, NAMES), 11, 8, check=False).sheets
    assert first == second


def test_simulation_has_no_refusals() -> None:
    result = simulate("spyvsspy", players=6, turns=80, seed=4)
    assert result.refusals == ()
    assert result.outcome is not None


def test_beyond_forty_leaders() -> None:
    """Pool names " II" (§3.2) in a 45-seat game: sheets stay valid."""
    run(new_bot_game(2, 45, NAMES), 2, 3, check=False)


def _count(game: Game, seat: str, task: str) -> int:
    return sum(1 for turn in game.sheets for order in turn.get(seat, {"spies": {}})["spies"]
               .values() if order["task"] == task)


def test_strategies_differ() -> None:
    """Over ten turns the economist recruits more than the shadow, the hunter hunts more
    than the economist, and the shadow guards and disguises more than either (all three
    plant FAKEs: the economist and the hunter one a turn on their own base, for cover)."""
    totals: Counter[tuple[str, str]] = Counter()
    for seed in range(8):
        game = run(new_bot_game(seed, 6, NAMES), seed, 10, check=False)
        for seat, bot in game.bots.items():
            for task in ("RECRUIT", "HUNT", "GUARD", "DISGUISE", "FAKE"):
                totals[(bot.name, task)] += _count(game, seat, task)
    assert totals[("economist", "RECRUIT")] > totals[("shadow", "RECRUIT")]
    assert totals[("hunter", "HUNT")] > totals[("economist", "HUNT")]
    assert totals[("shadow", "GUARD")] > totals[("hunter", "GUARD")]
    assert totals[("shadow", "DISGUISE")] > totals[("economist", "DISGUISE")]
    assert totals[("shadow", "DISGUISE")] > totals[("hunter", "DISGUISE")]
    assert min(totals[(name, "FAKE")] for name in NAMES) > 0


@pytest.mark.parametrize("variant", ["classic", "spy2"])
def test_small_bot_games_end(variant: str) -> None:
    """Games of 3 to 6 bots end; the lengths are printed (run pytest -s), not bounded tightly."""
    lengths: Counter[int] = Counter()
    wins: Counter[str] = Counter()
    guesses: Counter[tuple[str, bool]] = Counter()
    for seed in range(24):
        game = run(new_bot_game(seed, 3 + seed % 4, NAMES, variant), seed, 150)
        outcome = RULES.outcome(game.state)
        assert outcome is not None, f"seed {seed} did not end in 150 turns"
        lengths[game.state.turn] += 1
        guesses.update(game.guesses)
        for winner in outcome.winners:
            wins[game.bots[winner].name] += 1
    print(f"\n{variant}: game lengths {dict(sorted(lengths.items()))}; wins {dict(wins)}; "
          f"declarations (strategy, right) {dict(guesses)}")


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 8),
       variant=st.sampled_from(["classic", "spy2"]))
def test_bots_among_random_players(seed: int, players: int, variant: str) -> None:
    """Against players that use every task at random (DISGUISE, FAKE, HIDE...), bots' sheets
    stay valid, their declarations right or covered, and their notebooks sound."""
    from tests.games.spyvsspy.randomplay import random_sheet

    game = new_bot_game(seed, players, NAMES, variant)
    rng = Rng(seed)
    for turn in range(1, 25):
        if RULES.outcome(game.state) is not None:
            break
        sheets = {}
        for index, seat in enumerate(sorted(RULES.awaiting(game.state))):
            view = RULES.view(game.state, seat)
            if index % 2:
                data = random_sheet(view, Rng(seed).stream(turn, f"player:{seat}"),
                                    declare=False)
            else:
                sheet = game.bots[seat].act(view)
                assert sheet is not None
                check_declarations(game, seat, view, sheet)
                data = sheet
            sheets[seat] = RULES.parse_orders(game.state, seat, data)
        check_sound(game.state, {seat: game.bots[seat].notebook
                                 for seat in sorted(RULES.awaiting(game.state))[::2]})
        game.state = RULES.resolve(game.state, sheets, rng)
