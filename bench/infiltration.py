"""Benchmark: whole Infiltration bot games per second, at 8 and at 20 players.

Each game is ``spyhouse.sim.simulate.simulate("infiltration", …)`` from setup to
its end (the bots alternate ``operative`` and ``vigilante`` over the seats),
exactly as ``spyhouse simulate`` plays one: every awaited seat's view is built,
its bot answers, ``parse_orders`` checks the answer, ``dump_orders`` records it
and ``resolve`` runs the phase. Seeds are 1…N, so every run plays the same games.

It prints, per size, the games played, the median and mean turns and the median
record entries per game, the wall time, games per second (wall clock and per CPU
second, since a shared machine slows the wall clock) and phases (record entries)
per second, the results and the Greens' share of the decided games (the bots'
balance), then the ratio of the first size's rate to the last's, and writes the
results as JSON to ``bench/results/infiltration.json``.

    python bench/infiltration.py [--sizes 8 20] [--games 30]
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from spyhouse.core.ruleset import Outcome
from spyhouse.sim.simulate import simulate

RESULTS = Path(__file__).resolve().parent / "results" / "infiltration.json"


def measure(players: int, games: int) -> dict[str, Any]:
    """Play ``games`` whole games at ``players`` seats; time them together."""
    turns: list[int] = []
    entries: list[int] = []
    results: Counter[str] = Counter()
    start, cpu = time.perf_counter(), time.process_time()
    for seed in range(1, games + 1):
        done = simulate("infiltration", players=players, turns=500, seed=seed)
        if done.refusals:
            raise SystemExit(f"seed {seed}: a bot's orders were refused: {done.refusals[0]}")
        outcome: Outcome | None = done.outcome
        if outcome is None:
            raise SystemExit(f"seed {seed}: the game did not end")
        turns.append(int(done.final_state.turn))
        entries.append(done.entries)
        results[str(done.final_state.result["result"])] += 1
    elapsed = time.perf_counter() - start
    cpu_s = time.process_time() - cpu
    return {
        "players": players,
        "games": games,
        "seconds": elapsed,
        "games_per_s": games / elapsed,
        "cpu_seconds": cpu_s,
        "games_per_cpu_s": games / cpu_s,
        "entries_per_s": sum(entries) / elapsed,
        "median_turns": statistics.median(turns),
        "mean_turns": statistics.fmean(turns),
        "median_entries": statistics.median(entries),
        "results": dict(sorted(results.items())),
        "greens_share_of_decided": greens_share(results),
    }


def greens_share(results: Counter[str]) -> float | None:
    """The Greens' wins as a fraction of the games either team won (draws left out)."""
    decided = results["greens"] + results["reds"]
    return results["greens"] / decided if decided else None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sizes", type=int, nargs="+", default=[8, 20],
                        help="numbers of players (6 to 20; default 8 20)")
    parser.add_argument("--games", type=int, default=30, help="games per size (default 30)")
    parser.add_argument("--out", type=Path, default=RESULTS, help="JSON results file")
    args = parser.parse_args(argv)
    if args.games < 1 or any(not 6 <= size <= 20 for size in args.sizes):
        parser.error("--games >= 1 and every size from 6 to 20")

    rows = []
    print(f"{'players':>7} {'games':>6} {'turns':>6} {'mean':>5} {'entries':>7} {'seconds':>8} "
          f"{'games/s':>8} {'per CPU s':>9} {'phases/s':>9}  results")
    for size in args.sizes:
        row = measure(size, args.games)
        rows.append(row)
        outcome = ", ".join(f"{k} {v}" for k, v in row["results"].items())
        share = row["greens_share_of_decided"]
        if share is not None:
            outcome += f" (Greens {100 * share:.0f}% of decided)"
        print(f"{size:>7} {row['games']:>6} {row['median_turns']:>6} {row['mean_turns']:>5.1f} "
              f"{row['median_entries']:>7} {row['seconds']:>8.2f} {row['games_per_s']:>8.2f} "
              f"{row['games_per_cpu_s']:>9.2f} {row['entries_per_s']:>9.0f}  {outcome}",
              flush=True)
    ratio = None
    if len(rows) >= 2:
        ratio = rows[0]["games_per_s"] / rows[-1]["games_per_s"]
        cpu_ratio = rows[0]["games_per_cpu_s"] / rows[-1]["games_per_cpu_s"]
        print(f"ratio: {rows[0]['players']} players play {ratio:.2f}× as many games per "
              f"second as {rows[-1]['players']} players ({cpu_ratio:.2f}× per CPU second)")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    payload = {
        "benchmark": "infiltration",
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "results": rows,
        "ratio_first_to_last": ratio,
    }
    args.out.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    print(f"results written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
