"""Benchmark: Spy vs Spy's built-in bots played against each other, many games.

Prints, for each line-up, the win share by bot and by seat with 95 % Wilson intervals
(a game won jointly by k brotherhoods gives each winner 1/k), a chi-square test of all
seats' wins together (8 separate 95 % checks flag some seat in about one fair line-up
in three), and the game length
(median and percentiles of resolved turns). A line-up of one bot name is that bot in
every seat (the seat-bias check: every seat's share should sit inside the Wilson
interval of the fair share 1/players); a line-up of several names is rotated over
the seats, game by game, so each bot sits in each seat equally often.

(``bench/spyvsspy_bots.py`` is a different benchmark: the bots' speed in a
1,000-brotherhood game.)

    python bench/spyvsspy_seats.py [--bots economist hunter shadow] [--mix a,b,c]
        [--players 8] [--games 240] [--turns 60] [--seed 1] [--options JSON]
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import time
from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from spyhouse.sim.simulate import simulate
from spyhouse.sim.tournament import percentile, wilson


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


def play(lineup: Sequence[str], *, players: int, games: int, turns: int, seed: int,
         options: Mapping[str, Any]) -> dict[str, Any]:
    """``games`` games of ``lineup`` rotated over the seats; shares by bot and seat."""
    by_seat: dict[str, float] = defaultdict(float)
    by_bot: dict[str, float] = defaultdict(float)
    bot_games: dict[str, int] = defaultdict(int)
    lengths: list[int] = []
    unfinished = refusals = 0
    for game in range(games):
        shift = game % len(lineup)
        bots = [lineup[(index + shift) % len(lineup)] for index in range(players)]
        sim = simulate("spyvsspy", players=players, turns=turns, seed=seed + game,
                       bots=bots, options=dict(options))
        lengths.append(sim.entries)
        refusals += len(sim.refusals)
        for name in set(sim.bots.values()):
            bot_games[name] += sum(1 for b in sim.bots.values() if b == name)
        if sim.outcome is None or not sim.outcome.winners:
            unfinished += 1
            continue
        winners = sim.outcome.winners
        for seat in winners:
            by_seat[seat] += 1 / len(winners)
            by_bot[sim.bots[seat]] += 1 / len(winners)
    return {"by_seat": dict(by_seat), "by_bot": dict(by_bot), "bot_games": dict(bot_games),
            "lengths": lengths, "unfinished": unfinished, "refusals": refusals}


def chi_square_p(counts: Sequence[float]) -> float:
    """The p-value of Pearson's chi-square test that ``counts`` (wins by seat) are uniform.

    One test for all seats together: with 8 seats each checked against its own 95 %
    interval, a perfectly fair line-up shows some seat outside about one time in three."""
    total = sum(counts)
    if total <= 0 or len(counts) < 2:
        return 1.0
    expected = total / len(counts)
    statistic = sum((c - expected) ** 2 / expected for c in counts)
    return _upper_gamma(0.5 * (len(counts) - 1), 0.5 * statistic)


def _upper_gamma(a: float, x: float) -> float:
    """The regularised upper incomplete gamma function Q(a, x) (Numerical Recipes 6.2)."""
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:  # series for P, then Q = 1 - P
        term = total = 1.0 / a
        n = a
        for _ in range(500):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-12:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    b = x + 1 - a  # continued fraction for Q (Lentz)
    c = 1 / 1e-300
    d = 1 / b
    h = d
    for i in range(1, 500):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = 1e-300 if abs(d) < 1e-300 else d
        c = b + an / c
        c = 1e-300 if abs(c) < 1e-300 else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-12:
            break
    return min(1.0, math.exp(log_front) * h)


def report(lineup: Sequence[str], result: dict[str, Any], players: int, games: int) -> bool:
    """Print the tables; True when every seat sits inside the fair share's interval."""
    fair = 1 / players
    low, high = wilson(fair * games, games)
    print(f"\n== {','.join(lineup)}: {games} games, {players} players; fair {fair:.3f}, "
          f"95 % interval of fair [{low:.3f}, {high:.3f}]")
    ok = True
    for number in range(1, players + 1):
        seat = f"s{number}"
        score = result["by_seat"].get(seat, 0.0)
        share = score / games
        lo, hi = wilson(score, games)
        inside = low <= share <= high
        ok = ok and inside
        print(f"  seat {seat:>3}: {share:.3f} [{lo:.3f}, {hi:.3f}]{'' if inside else '  OUT'}")
    scores = [result["by_seat"].get(f"s{n}", 0.0) for n in range(1, players + 1)]
    print(f"  all seats together: chi-square p = {chi_square_p(scores):.3f} "
          "(uniform unless p < 0.05)")
    if len(set(lineup)) > 1:
        for name in sorted(set(lineup)):
            seats = result["bot_games"].get(name, 0)
            score = result["by_bot"].get(name, 0.0)
            lo, hi = wilson(score, seats)
            print(f"  bot {name:>10}: {score / max(seats, 1):.3f} per seat-game "
                  f"[{lo:.3f}, {hi:.3f}] (fair {fair:.3f}; {seats} seat-games)")
    lengths = result["lengths"]
    print(f"  length: median {statistics.median(lengths):.1f}, p10 "
          f"{percentile(lengths, 0.1):.1f}, p25 {percentile(lengths, 0.25):.1f}, p75 "
          f"{percentile(lengths, 0.75):.1f}, p90 {percentile(lengths, 0.9):.1f}, max "
          f"{max(lengths)}; unfinished {result['unfinished']}, refused sheets "
          f"{result['refusals']}")
    print(f"  RESULT lineup={','.join(lineup)} seats_fair={'yes' if ok else 'no'} "
          f"median_turns={statistics.median(lengths):.1f}")
    return ok


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--bots", nargs="*", default=["economist", "hunter", "shadow"],
                        help="bots each played in every seat")
    parser.add_argument("--mix", action="append", default=[],
                        help="a comma-separated line-up rotated over the seats")
    parser.add_argument("--players", type=int, default=8)
    parser.add_argument("--games", type=int, default=240)
    parser.add_argument("--turns", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--options", type=json.loads, default={})
    args = parser.parse_args(argv)
    lineups = [[name] for name in args.bots] + [mix.split(",") for mix in args.mix]
    print(f"load before {_load()}")
    start = time.perf_counter()
    for lineup in lineups:
        result = play(lineup, players=args.players, games=args.games, turns=args.turns,
                      seed=args.seed, options=args.options)
        report(lineup, result, args.players, args.games)
    print(f"\n{time.perf_counter() - start:.1f} s; load after {_load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
