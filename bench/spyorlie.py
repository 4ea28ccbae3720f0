"""Benchmark: Spy or Lie's engine speed and its computer opponents' speed and strength.

Prints, and writes as JSON to ``bench/results/spyorlie.json``:

1. ``playouts``: random games from the opening (radius 4), each move drawn from the
   canonical legal list with a core ``Stream`` and played with ``Position.play``
   (legal moves generated at every ply), per wall second and per CPU second of this
   process (``time.process_time``: far less dependent on how busy the machine is, though
   a crowded machine still lowers it); ``Position.advance`` (the search's event-free
   step) likewise where the engine has it;
2. ``legal moves``: positions per second of the legal-move generator
   (``Position.legal_moves``) over positions sampled from random games;
3. ``move time``: median, 95th percentile and maximum wall time of one decision of
   each opponent at its default budget (AI6 cap on, as played), over positions sampled
   from random games at every stage, with its CPU time and the AI6 budget-cut count and
   rate; ``--load K`` runs K busy processes meanwhile (a loaded machine);
4. ``strength`` (AI9): Operative vs Random and Spymaster vs Operative, ``--games`` games
   each (default 200: seeds 1…100, colours swapped), with the score, its 95 % Wilson
   interval, decision times and budget-cut rates; optionally Spymaster vs Random
   (``--pairs``). Targets: ≥ 0.90, ≥ 0.60 (and ≥ 0.90), p95 ≤ 1 s, cut rate 0.

Every decision runs on one core; ``--jobs J`` plays the match games in J processes
(use at most the number of idle cores, or the times are inflated).

``--baseline FILE`` reads an earlier run's JSON (e.g. the same script run against an
older engine: ``git archive OLD src | tar -x -C /tmp/old`` and
``PYTHONPATH=/tmp/old/src python bench/spyorlie.py --out old.json``; the script uses only
the engine's public calls) and prints each figure's ratio to it. Run both within the same
minutes: on a shared machine the figures move with its load. Issue 15's targets: at
least 2x the old engine's random playouts per CPU second, Spymaster p95 ≤ 0.5 s and no
budget cut under load.

    python bench/spyorlie.py [--games 200] [--jobs 1] [--seed 1] [--positions 60]
                             [--pairs op-random sm-op sm-random] [--no-strength]
                             [--load 0] [--baseline FILE]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from tqdm import tqdm

from spyhouse.core.rng import Rng
from spyhouse.core.ruleset import Seat
from spyhouse.games.spyorlie import ai
from spyhouse.games.spyorlie.bots import make_bot
from spyhouse.games.spyorlie.game import GameState
from spyhouse.games.spyorlie.rules import Position
from spyhouse.games.spyorlie.ruleset import SpyOrLie
from spyhouse.sim.tournament import GameResult, Match, PlayerStats, percentile, play_game

RESULTS = Path(__file__).resolve().parent / "results" / "spyorlie.json"
PAIRS: dict[str, tuple[str, str, float]] = {
    "op-random": ("operative", "random", 0.90),
    "sm-op": ("spymaster", "operative", 0.60),
    "sm-random": ("spymaster", "random", 0.90),
}
RULES = SpyOrLie()
SEATS = (Seat("s1", "Blue"), Seat("s2", "Red"))


def playouts(seconds: float, seed: int, step: str = "play") -> dict[str, float]:
    """Random games from the opening for about ``seconds`` (wall), each move played with
    ``Position.<step>`` (``play``: the rules' path with events; ``advance``: the search's)."""
    games = plies = 0
    start = time.perf_counter()
    cpu = time.process_time()
    while time.perf_counter() - start < seconds:
        stream = Rng(seed).stream(games, "playout")
        p = Position.start(4)
        move = getattr(p, step)
        while not p.over:
            move(stream.choice(p.legal_moves()))
            plies += 1
        games += 1
    elapsed = time.perf_counter() - start
    cpu_s = time.process_time() - cpu
    return {"games": games, "seconds": elapsed, "cpu_seconds": cpu_s,
            "playouts_per_s": games / elapsed, "plies_per_s": plies / elapsed,
            "playouts_per_cpu_s": games / cpu_s, "plies_per_cpu_s": plies / cpu_s}


def sample_states(count: int, seed: int) -> list[GameState]:
    """``count`` platform states from seeded random games, spread over every stage."""
    states: list[GameState] = []
    game = 0
    while len(states) < count:
        stream = Rng(seed).stream(game, "sample")
        state = RULES.setup(SEATS, {}, Rng(seed))
        stage = 0
        while RULES.outcome(state) is None:
            if stage % 4 == game % 4 and len(states) < count:
                states.append(state)
            seat = sorted(RULES.awaiting(state))[0]
            move = stream.choice(RULES.view(state, seat)["legal_moves"])
            state = RULES.resolve(state, {seat: RULES.parse_orders(state, seat, move)},
                                  Rng(seed))
            stage += 1
        game += 1
    return states


def legal_rate(states: Sequence[GameState], repeat: int) -> dict[str, float]:
    positions = [state.position for state in states]
    start = time.perf_counter()
    for _ in range(repeat):
        for p in positions:
            p.legal_moves()
    elapsed = time.perf_counter() - start
    calls = repeat * len(positions)
    return {"positions": calls, "seconds": elapsed, "positions_per_s": calls / elapsed}


def move_times(states: Sequence[GameState], seed: int) -> dict[str, dict[str, float]]:
    """One decision per state and difficulty at the default budget, cap on."""
    out: dict[str, dict[str, float]] = {}
    for difficulty in (ai.OPERATIVE, ai.SPYMASTER):
        times: list[float] = []
        cpu_times: list[float] = []
        cuts = 0
        for index, state in enumerate(tqdm(states, desc=difficulty, unit="move",
                                           file=sys.stderr, leave=False)):
            seat = sorted(RULES.awaiting(state))[0]
            view = RULES.view(state, seat)
            bot = make_bot(difficulty, seat, seed + index)
            cpu = time.process_time()
            start = time.perf_counter()
            decision = bot.decide(view)
            times.append(time.perf_counter() - start)
            cpu_times.append(time.process_time() - cpu)
            cuts += bool(decision is not None and decision.budget_cut)
        out[difficulty] = {"moves": len(times), "median_s": statistics.median(times),
                           "p95_s": percentile(times, 0.95), "max_s": max(times),
                           "cpu_median_s": statistics.median(cpu_times),
                           "cpu_p95_s": percentile(cpu_times, 0.95),
                           "budget_cuts": cuts, "cut_rate": cuts / len(times)}
    return out


def _burn(stop: Any) -> None:
    """A busy process for ``--load`` (until ``stop`` is set)."""
    count = 0
    while not stop.is_set():
        for _ in range(100_000):
            count += 1


class Load:
    """``count`` busy processes while the block runs (a machine loaded by other work)."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.stop = multiprocessing.Event()
        self.procs: list[Any] = []

    def __enter__(self) -> Load:
        for _ in range(self.count):
            proc = multiprocessing.Process(target=_burn, args=(self.stop,), daemon=True)
            proc.start()
            self.procs.append(proc)
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        for proc in self.procs:
            proc.join()


def ratios(results: dict[str, Any], baseline: dict[str, Any]) -> dict[str, float]:
    """Each comparable figure of ``results`` divided by the baseline's (speed: higher is
    better; times: the baseline's over ours, so above 1 is faster too)."""
    out: dict[str, float] = {}

    def ratio(name: str, new: float | None, old: float | None) -> None:
        if new and old:
            out[name] = new / old

    new_play, old_play = results.get("playouts", {}), baseline.get("playouts", {})
    for key in ("plies_per_cpu_s", "plies_per_s"):
        ratio(f"playouts {key}", new_play.get(key), old_play.get(key))
    old_plies = old_play.get("plies_per_cpu_s")
    search_rate = results.get("playouts_advance", {}).get("plies_per_cpu_s")
    if search_rate:
        ratio("playouts (advance) plies_per_cpu_s", search_rate, old_plies)
    ratio("legal_moves positions_per_s",
          results.get("legal_moves", {}).get("positions_per_s"),
          baseline.get("legal_moves", {}).get("positions_per_s"))
    for difficulty, row in results.get("move_time", {}).items():
        old_row = baseline.get("move_time", {}).get(difficulty, {})
        for key in ("median_s", "p95_s", "cpu_median_s", "cpu_p95_s"):
            ratio(f"{difficulty} {key} (speed-up)", old_row.get(key), row.get(key))
    return out


def _play_share(args: tuple[str, str, list[int], int]) -> dict[str, Any]:
    """One process's share of a match (top level, so a process pool can run it)."""
    a, b, indices, seed = args
    match = Match("spyorlie", PlayerStats(a), PlayerStats(b))
    for index in indices:
        play_game("spyorlie", a, b, index, seed, match, clock=time.perf_counter)
    return {"results": [(r.index, r.seed, r.a_first, r.score, r.entries)
                        for r in match.results],
            "a": (match.a.times, match.a.cuts), "b": (match.b.times, match.b.cuts)}


def strength(a: str, b: str, games: int, seed: int, jobs: int,
             progress: Callable[[int], None]) -> Match:
    """A seeded match of ``games`` games (colours swapped), in ``jobs`` processes."""
    match = Match("spyorlie", PlayerStats(a), PlayerStats(b))
    # One task per seed: its two games, colours swapped.
    tasks = [(a, b, list(range(first, min(first + 2, games))), seed)
             for first in range(0, games, 2)]

    def merge(part: dict[str, Any]) -> None:
        for index, game_seed, a_first, score, entries in part["results"]:
            match.results.append(GameResult(index, game_seed, a_first, score, entries))
        for stats, (times, cuts) in ((match.a, part["a"]), (match.b, part["b"])):
            stats.times.extend(times)
            stats.cuts += cuts
        progress(len(part["results"]))

    if jobs <= 1:
        for task in tasks:
            merge(_play_share(task))
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            for part in pool.map(_play_share, tasks):
                merge(part)
    match.results.sort(key=lambda r: r.index)
    return match


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else "")
    parser.add_argument("--games", type=int, default=200, help="games per pairing (200)")
    parser.add_argument("--seed", type=int, default=1, help="first seed (1)")
    parser.add_argument("--jobs", type=int, default=1, help="processes for the matches (1)")
    parser.add_argument("--positions", type=int, default=60,
                        help="positions for the move-time sample (60)")
    parser.add_argument("--playout-seconds", type=float, default=5.0)
    parser.add_argument("--pairs", nargs="+", choices=sorted(PAIRS),
                        default=["op-random", "sm-op"], help="pairings to play")
    parser.add_argument("--no-strength", action="store_true", help="skip the matches")
    parser.add_argument("--out", type=Path, default=RESULTS, help="JSON results file")
    parser.add_argument("--load", type=int, default=0,
                        help="busy processes during the move-time sample (0)")
    parser.add_argument("--baseline", type=Path, default=None,
                        help="an earlier run's JSON: print each figure's ratio to it")
    args = parser.parse_args(argv)

    results: dict[str, Any] = {
        "python": platform.python_version(), "machine": platform.machine(),
        "date": time.strftime("%Y-%m-%d"), "budgets": {
            name: {"worlds": b.worlds, "depth": b.depth, "nodes": b.nodes,
                   "endgame": b.endgame, "candidates": b.candidates,
                   "exact_nodes": b.exact_nodes} for name, b in ai.BUDGETS.items()},
    }
    results["load_before"] = os.getloadavg()
    rate = playouts(args.playout_seconds, args.seed)
    results["playouts"] = rate
    print(f"random playouts from the opening (play): {rate['playouts_per_cpu_s']:.0f} games "
          f"({rate['plies_per_cpu_s']:.0f} moves) per CPU second; {rate['playouts_per_s']:.0f}"
          f" games ({rate['plies_per_s']:.0f} moves) per wall second", flush=True)
    if hasattr(Position, "advance"):
        fast = playouts(args.playout_seconds, args.seed, "advance")
        results["playouts_advance"] = fast
        print(f"random playouts from the opening (advance, no events): "
              f"{fast['playouts_per_cpu_s']:.0f} games ({fast['plies_per_cpu_s']:.0f} moves) "
              f"per CPU second", flush=True)
    states = sample_states(args.positions, args.seed)
    legal = legal_rate(states, 200)
    results["legal_moves"] = legal
    print(f"legal-move generator: {legal['positions_per_s']:.0f} positions/s", flush=True)
    results["load"] = args.load
    with Load(args.load):
        timing = move_times(states, args.seed)
    results["load_after"] = os.getloadavg()
    results["move_time"] = timing
    for difficulty, row in timing.items():
        print(f"{difficulty} move time over {row['moves']} positions (busy processes: "
              f"{args.load}): p50 {row['median_s']:.3f} s, p95 {row['p95_s']:.3f} s, max "
              f"{row['max_s']:.3f} s (CPU p50 {row['cpu_median_s']:.3f} s, p95 "
              f"{row['cpu_p95_s']:.3f} s), budget cuts {row['budget_cuts']} (rate "
              f"{row['cut_rate']:.3f})", flush=True)
    print(f"load average {results['load_before'][0]:.2f} before, "
          f"{results['load_after'][0]:.2f} after", flush=True)
    if args.baseline is not None:
        baseline = json.loads(args.baseline.read_text(encoding="utf-8"))
        results["ratios"] = ratios(results, baseline)
        print(f"ratios to {args.baseline}:")
        for name, value in results["ratios"].items():
            print(f"  {name}: {value:.2f}x")
    if not args.no_strength:
        results["strength"] = {}
        for key in args.pairs:
            a, b, target = PAIRS[key]
            with tqdm(total=args.games, desc=f"{a} vs {b}", unit="game", file=sys.stderr,
                      leave=False) as bar:

                def advance(count: int) -> None:
                    bar.update(count)

                match = strength(a, b, args.games, args.seed, args.jobs, advance)
            verdict = "met" if match.score >= target else "MISSED"
            results["strength"][key] = {**match.to_json(), "target": target}
            print(f"\n{a} vs {b}: target >= {target:.2f}: {verdict}")
            print(match.summary(), end="", flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    print(f"\nresults written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
