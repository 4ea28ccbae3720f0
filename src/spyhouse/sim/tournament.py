"""A match between two bots of a two-seat game: N seeded games, colours swapped.

Game independent, like ``simulate`` (which plays every game): player A always
sits in seat ``s1`` and B in ``s2``; game ``i`` (0-based) uses the game seed
``seed + i // 2`` and lists the seats A, B for even ``i`` and B, A for odd ``i``,
so each seed is played twice and the first listed seat (the one that moves
first in an alternating game such as Spy or Lie, DF1 ``blue``) alternates.

Every decision is timed around ``Bot.act`` with a clock the caller passes in
(the CLI and the benchmark pass ``time.perf_counter``; this package reads no
clock itself). A move
whose JSON carries ``"ai": {"budget_cut": true}`` (Spy or Lie's DF2 ``ai``
key) counts as a budget cut. The score is (wins + ½ draws) / games for A with a
95 % Wilson interval.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from spyhouse.core import bots as bot_registry
from spyhouse.core.bots import Bot
from spyhouse.core.ruleset import Seat, SeatId
from spyhouse.sim.simulate import BotFactory, simulate

SEAT_A = "s1"
SEAT_B = "s2"
#: A generous cap on record entries per game (a Spy or Lie game has at most 41).
MAX_ENTRIES = 10_000


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``score / n`` (draws count ½)."""
    if n <= 0:
        return (0.0, 1.0)
    p = score / n
    denominator = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denominator
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-quantile (0..1) by linear interpolation; 0.0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


@dataclass(slots=True)
class PlayerStats:
    """One player's decisions over a match."""

    name: str
    times: list[float] = field(default_factory=list)
    cuts: int = 0

    @property
    def decisions(self) -> int:
        return len(self.times)

    @property
    def mean_time(self) -> float:
        return statistics.fmean(self.times) if self.times else 0.0

    @property
    def median_time(self) -> float:
        return percentile(self.times, 0.5)

    @property
    def p95_time(self) -> float:
        return percentile(self.times, 0.95)

    @property
    def max_time(self) -> float:
        return max(self.times) if self.times else 0.0

    @property
    def cut_rate(self) -> float:
        return self.cuts / len(self.times) if self.times else 0.0

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "decisions": self.decisions, "mean_s": self.mean_time,
                "median_s": self.median_time, "p95_s": self.p95_time,
                "max_s": self.max_time, "budget_cuts": self.cuts, "cut_rate": self.cut_rate}


@dataclass(frozen=True, slots=True)
class GameResult:
    """One game of the match, from A's side: 1 win, ½ draw, 0 loss."""

    index: int
    seed: int
    a_first: bool
    score: float
    entries: int


@dataclass(slots=True)
class Match:
    """The games so far and each player's decision statistics."""

    game: str
    a: PlayerStats
    b: PlayerStats
    results: list[GameResult] = field(default_factory=list)

    @property
    def games(self) -> int:
        return len(self.results)

    @property
    def wins(self) -> int:
        return sum(1 for result in self.results if result.score == 1.0)

    @property
    def draws(self) -> int:
        return sum(1 for result in self.results if result.score == 0.5)

    @property
    def losses(self) -> int:
        return sum(1 for result in self.results if result.score == 0.0)

    @property
    def score(self) -> float:
        """A's score share: (wins + ½ draws) / games."""
        return sum(r.score for r in self.results) / len(self.results) if self.results else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(sum(r.score for r in self.results), len(self.results))

    def to_json(self) -> dict[str, Any]:
        low, high = self.interval
        return {"game": self.game, "a": self.a.to_json(), "b": self.b.to_json(),
                "games": self.games, "wins": self.wins, "draws": self.draws,
                "losses": self.losses, "score": self.score, "ci95": [low, high],
                "results": [{"index": r.index, "seed": r.seed, "a_first": r.a_first,
                             "score": r.score, "entries": r.entries} for r in self.results]}

    def summary(self) -> str:
        """The printed table: results for A, the score with its interval, then timings."""
        low, high = self.interval
        lines = [
            f"{self.game}: {self.a.name} (A) vs {self.b.name} (B), {self.games} games, "
            "colours swapped every other game",
            f"A: {self.wins} wins, {self.draws} draws, {self.losses} losses",
            f"score A: {self.score:.3f}  (95% Wilson interval {low:.3f} to {high:.3f})",
            f"{'player':<16}{'decisions':>10}{'mean s':>10}{'p95 s':>10}{'max s':>10}"
            f"{'cuts':>7}{'cut rate':>10}",
        ]
        for label, stats in (("A", self.a), ("B", self.b)):
            lines.append(
                f"{label + ' ' + stats.name:<16}{stats.decisions:>10}{stats.mean_time:>10.4f}"
                f"{stats.p95_time:>10.4f}{stats.max_time:>10.4f}{stats.cuts:>7}"
                f"{stats.cut_rate:>10.3f}")
        return "\n".join(lines) + "\n"


class TimedBot:
    """Wraps a bot: times each ``act`` with ``clock`` and counts budget-cut moves."""

    def __init__(self, bot: Bot, stats: PlayerStats, clock: Callable[[], float]) -> None:
        self.bot = bot
        self.stats = stats
        self.clock = clock

    def act(self, view: Mapping[str, Any]) -> Any:
        start = self.clock()
        move = self.bot.act(view)
        self.stats.times.append(self.clock() - start)
        if isinstance(move, Mapping):
            info = move.get("ai")
            if isinstance(info, Mapping) and info.get("budget_cut") is True:
                self.stats.cuts += 1
        return move


def game_seats(index: int) -> tuple[Seat, Seat]:
    """Seats of game ``index``: A (``s1``) first for even ``index``, B (``s2``) first else."""
    a = Seat(SEAT_A, "Player A", "A")
    b = Seat(SEAT_B, "Player B", "B")
    return (a, b) if index % 2 == 0 else (b, a)


def play_game(
    game: str, a: str, b: str, index: int, seed: int, match: Match, *,
    options: Mapping[str, Any] | None = None,
    make_bot: BotFactory | None = None,
    clock: Callable[[], float],
) -> GameResult:
    """Play game ``index`` of the match (seed ``seed + index // 2``) and add it to ``match``."""
    factory = make_bot if make_bot is not None else bot_registry.make_bot
    stats_of: dict[SeatId, PlayerStats] = {SEAT_A: match.a, SEAT_B: match.b}

    def timed(game_name: str, name: str, seat: SeatId, bot_seed: int) -> Bot:
        return TimedBot(factory(game_name, name, seat, bot_seed), stats_of[seat], clock)

    seats = game_seats(index)
    names = [a if seat.id == SEAT_A else b for seat in seats]
    game_seed = seed + index // 2
    result = simulate(game, players=2, turns=MAX_ENTRIES, seed=game_seed, bots=names,
                      options=options, seats=seats, make_bot=timed)
    if result.refusals:
        first = result.refusals[0]
        raise RuntimeError(f"game {index} (seed {game_seed}): a bot's move was refused at "
                           f"entry {first.entry}, seat {first.seat}: {first.message}")
    if result.outcome is None:
        raise RuntimeError(f"game {index} (seed {game_seed}) did not end")
    places = dict(result.outcome.standings)
    if places[SEAT_A] < places[SEAT_B]:
        score = 1.0
    elif places[SEAT_A] > places[SEAT_B]:
        score = 0.0
    else:
        score = 0.5
    outcome = GameResult(index, game_seed, seats[0].id == SEAT_A, score, result.entries)
    match.results.append(outcome)
    return outcome


def tournament(
    game: str, a: str, b: str, games: int, *, seed: int = 1,
    options: Mapping[str, Any] | None = None,
    make_bot: BotFactory | None = None,
    clock: Callable[[], float],
    on_game: Callable[[GameResult], None] | None = None,
) -> Match:
    """Play ``games`` games of A against B (colours swapped every other game)."""
    if games < 1:
        raise ValueError("a tournament needs at least one game")
    match = Match(game, PlayerStats(a), PlayerStats(b))
    for index in range(games):
        outcome = play_game(game, a, b, index, seed, match, options=options,
                            make_bot=make_bot, clock=clock)
        if on_game is not None:
            on_game(outcome)
    return match
