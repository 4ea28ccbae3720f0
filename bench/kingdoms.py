"""Benchmark: Kingdoms turns per second, 6 countries on the default map, bots playing.

For each of ``--games`` seeds the script plays a whole game (until ``max_turns``
or a last survivor) in which every country is a bot (the three strategies in
turn), timing with ``time.perf_counter`` each part of every turn separately:

- ``bots``: every awaited seat's view built and its bot's ``act`` on it;
- ``parse``: ``parse_orders`` of every sheet (and ``dump_orders`` for the record);
- ``resolve``: ``Kingdoms().resolve``, one whole turn (D.2);
- ``views``: every seat's view and the host view after the turn (what the
  platform stores for pages and mail).

It then replays each game's record with ``resolve`` alone (the orders already
parsed) to time the rules without bots. It prints turns per second for the
whole loop, for resolve alone, and per part, and writes the figures as JSON to
``bench/results/kingdoms.json``. Beside the wall clock it reports the process's
CPU time (``time.process_time``) for the loop and the replay, which stays
meaningful on a machine shared with other work.

    python bench/kingdoms.py [--games 20] [--players 6]
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from spyhouse.core.rng import Rng
from spyhouse.games.kingdoms import bots
from spyhouse.games.kingdoms.model import Orders, State
from spyhouse.games.kingdoms.ruleset import Kingdoms
from spyhouse.sim.simulate import default_seats

RESULTS = Path(__file__).resolve().parent / "results" / "kingdoms.json"
PARTS = ("bots", "parse", "resolve", "views")


def play(seed: int, players: int, totals: dict[str, float]
         ) -> tuple[int, list[dict[str, Orders | None]]]:
    """One bot game; adds each part's time to ``totals``; returns turns and parsed orders."""
    rules = Kingdoms()
    rng = Rng(seed)
    seats = list(default_seats(players))
    state: State = rules.setup(seats, {}, rng)
    names = sorted(bots.STRATEGIES)
    players_bots = {s.id: bots.make_bot(names[i % len(names)], s.id, seed)
                    for i, s in enumerate(seats)}
    turns: list[dict[str, Orders | None]] = []
    while rules.outcome(state) is None:
        clock = time.perf_counter()
        sheets: dict[str, Any] = {}
        for sid in sorted(rules.awaiting(state)):
            sheets[sid] = players_bots[sid].act(rules.view(state, sid))
        t_bots = time.perf_counter()
        parsed: dict[str, Orders | None] = {}
        for sid, data in sheets.items():
            orders = None if data is None else rules.parse_orders(state, sid, data)
            if orders is not None:
                rules.dump_orders(orders)
            parsed[sid] = orders
        t_parse = time.perf_counter()
        state = rules.resolve(state, parsed, rng)
        t_resolve = time.perf_counter()
        rules.view(state, None)
        for seat in seats:
            rules.view(state, seat.id)
        t_views = time.perf_counter()
        totals["bots"] += t_bots - clock
        totals["parse"] += t_parse - t_bots
        totals["resolve"] += t_resolve - t_parse
        totals["views"] += t_views - t_resolve
        turns.append(parsed)
    return len(turns), turns


def resolve_only(seed: int, players: int, turns: Sequence[dict[str, Orders | None]]) -> float:
    """The time to resolve a played game's turns again, nothing else."""
    rules = Kingdoms()
    rng = Rng(seed)
    state = rules.setup(list(default_seats(players)), {}, rng)
    start = time.perf_counter()
    for orders in turns:
        state = rules.resolve(state, orders, rng)
    return time.perf_counter() - start


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=20, help="bot games to play (seeds 1..N)")
    parser.add_argument("--players", type=int, default=6, help="countries (3 to 6)")
    parser.add_argument("--out", type=Path, default=RESULTS, help="JSON results file")
    args = parser.parse_args(argv)
    if args.games < 1 or not 3 <= args.players <= 6:
        parser.error("--games >= 1 and --players from 3 to 6")

    totals = dict.fromkeys(PARTS, 0.0)
    turns = 0
    replay_s = 0.0
    played_games: list[tuple[int, list[dict[str, Orders | None]]]] = []
    cpu = time.process_time()
    for seed in range(1, args.games + 1):
        played, orders = play(seed, args.players, totals)
        turns += played
        played_games.append((seed, orders))
    loop_cpu = time.process_time() - cpu
    cpu = time.process_time()
    for seed, orders in played_games:
        replay_s += resolve_only(seed, args.players, orders)
    replay_cpu = time.process_time() - cpu
    loop_s = sum(totals.values())
    figures: dict[str, Any] = {
        "games": args.games,
        "players": args.players,
        "turns": turns,
        "loop_s": loop_s,
        "turns_per_s": turns / loop_s,
        "resolve_only_s": replay_s,
        "resolve_turns_per_s": turns / replay_s,
        "ms_per_turn": {part: 1000 * totals[part] / turns for part in PARTS},
        "loop_cpu_s": loop_cpu,
        "turns_per_cpu_s": turns / loop_cpu,
        "resolve_only_cpu_s": replay_cpu,
        "resolve_turns_per_cpu_s": turns / replay_cpu,
    }
    print(f"{args.games} games, {args.players} countries, {turns} turns")
    print(f"whole loop (bots + parse + resolve + views): {figures['turns_per_s']:,.0f} turns/s "
          f"({figures['turns_per_cpu_s']:,.0f} per CPU second)")
    print(f"resolve alone (replay):                      "
          f"{figures['resolve_turns_per_s']:,.0f} turns/s "
          f"({figures['resolve_turns_per_cpu_s']:,.0f} per CPU second)")
    for part in PARTS:
        print(f"  {part:<8} {figures['ms_per_turn'][part]:7.3f} ms per turn")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    payload = {"benchmark": "kingdoms", "python": sys.version.split()[0],
               "platform": platform.platform(), **figures}
    args.out.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    print(f"results written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
