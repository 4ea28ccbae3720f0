"""Kingdoms bot strength and seat fairness: win shares by bot and by seat, 95 % intervals.

Two kinds of run, every game a ``simulate`` on the default map with fresh seeds:

- ``--hero B --field F``: one ``B`` among ``players - 1`` ``F`` bots, ``B`` rotated over
  every seat, ``--seeds`` games a seat (the issue's yardstick: ``--field random``);
- ``--same B``: every seat a ``B`` (seat fairness: each seat's share against 1/players).

A shared win (B.7.3) counts 1/winners to each winner. It prints the shares with
Wilson intervals (``spyhouse.sim.tournament.wilson``), the games ended by conquest
before the turn cap, and the bots' milliseconds per decision (CPU time).

    nice -n 10 .venv/bin/python bench/kingdoms_bots.py --hero warlord --field random --seeds 15
    nice -n 10 .venv/bin/python bench/kingdoms_bots.py --same warlord --games 240
"""

from __future__ import annotations

import argparse
import time
from collections import Counter, defaultdict
from collections.abc import Mapping
from typing import Any

from spyhouse.core import bots as bot_registry
from spyhouse.core.bots import Bot
from spyhouse.sim.simulate import simulate
from spyhouse.sim.tournament import wilson

GAME = "kingdoms"


class Timed:
    """A bot whose decisions are timed (CPU seconds, per bot name)."""

    def __init__(self, inner: Bot, name: str, clock: dict[str, list[float]]) -> None:
        self.inner = inner
        self.name = name
        self.clock = clock

    def act(self, view: Mapping[str, Any]) -> Any:
        start = time.process_time()
        result = self.inner.act(view)
        self.clock[self.name].append(time.process_time() - start)
        return result


def run(line_ups: list[tuple[int, list[str]]], players: int, turns: int) -> None:
    clock: dict[str, list[float]] = defaultdict(list)

    def factory(game: str, name: str, seat: str, seed: int) -> Bot:
        return Timed(bot_registry.make_bot(game, name, seat, seed), name, clock)

    by_bot: defaultdict[str, float] = defaultdict(float)
    bot_seats: Counter[str] = Counter()
    by_seat: defaultdict[str, float] = defaultdict(float)
    conquests = 0
    lengths: list[int] = []
    refusals = 0
    started = time.perf_counter()
    for seed, names in line_ups:
        sim = simulate(GAME, players=players, turns=turns, seed=seed, bots=names,
                       make_bot=factory)
        refusals += len(sim.refusals)
        assert sim.outcome is not None, f"seed {seed}: no outcome after {turns} entries"
        lengths.append(sim.entries)
        winners = sim.outcome.winners
        conquests += _conquest(sim.final_state)
        for name in sim.bots.values():
            bot_seats[name] += 1
        for seat in winners:
            by_bot[sim.bots[seat]] += 1 / len(winners)
            by_seat[seat] += 1 / len(winners)
    games = len(line_ups)
    wall = time.perf_counter() - started
    print(f"games {games}, players {players}, wall {wall:.0f} s, refused sheets {refusals}")
    print(f"ended by conquest: {conquests}; mean length {sum(lengths) / games:.1f} turns")
    print("by bot (share of games won, per seat it held; fair = 1/players):")
    for name in sorted(bot_seats):
        n = bot_seats[name]
        low, high = wilson(by_bot[name], n)
        print(f"  {name:10s} {by_bot[name] / n:.3f}  [{low:.3f}, {high:.3f}]  over {n} seats")
    fair = 1 / players
    low, high = wilson(fair * games, games)
    print(f"by seat (fair {fair:.3f}, 95 % interval of fair [{low:.3f}, {high:.3f}]):")
    for number in range(1, players + 1):
        seat = f"s{number}"
        share = by_seat[seat] / games
        flag = "" if low <= share <= high else "  OUTSIDE"
        print(f"  {seat} {share:.3f}{flag}")
    for name, times in sorted(clock.items()):
        times.sort()
        mean = 1000 * sum(times) / len(times)
        p95 = 1000 * times[int(0.95 * (len(times) - 1))]
        print(f"  {name:10s} {mean:.2f} ms per decision (p95 {p95:.2f}, {len(times)} decisions)")


def _conquest(state: Any) -> bool:
    """Whether the game ended with one country left (B.7.2)."""
    return sum(1 for c in state.countries.values() if c.eliminated is None) == 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hero")
    parser.add_argument("--field", default="random")
    parser.add_argument("--same")
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--seeds", type=int, default=15, help="games per seat (--hero)")
    parser.add_argument("--games", type=int, default=240, help="games (--same)")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--turns", type=int, default=30)
    args = parser.parse_args()
    line_ups: list[tuple[int, list[str]]] = []
    if args.same:
        line_ups = [(args.seed + i, [args.same]) for i in range(args.games)]
    elif args.hero:
        for i in range(args.seeds):
            for seat in range(args.players):
                names = [args.field] * args.players
                names[seat] = args.hero
                line_ups.append((args.seed + i * args.players + seat, names))
    else:
        parser.error("give --hero B (with --field F) or --same B")
    run(line_ups, args.players, args.turns)


if __name__ == "__main__":
    main()
