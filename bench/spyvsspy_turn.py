"""Benchmark: resolving one Spy vs Spy turn, and building every seat's view.

For each size (number of brotherhoods) the script builds a turn-0 state with
``SpyVsSpy().setup``, grows every brotherhood to about 50 spies of varied skill,
draws one random valid sheet per seat from a seeded core ``Rng`` (validated by
``parse_orders``, outside the timing), then times, with ``time.perf_counter``
over a few repetitions (the median is reported):

- ``resolve``: ``SpyVsSpy().resolve(state, sheets, rng)``, one whole turn;
- ``views``: ``SpyVsSpy().view(after, seat)`` for every seat, after that turn;
- ``no-gc``: the same turn with Python's cyclic garbage collector paused, which
  separates the algorithm's growth from the collector's scans of a large heap;
- ``stored``: ``SpyVsSpy().stored_views(after, seats)``, every view of the entry as
  the platform stores it (the shared part once, every seat's part and the host's);
- ``join``: ``SpyVsSpy().joined_view(shared, part)`` of one seat, after a JSON round
  trip of both (the mean over a sample of seats), next to ``view`` of one seat.

It prints, per size, the time per turn, spies resolved per second, the view
time per turn, and the growth exponent between consecutive sizes,
log(t2/t1) / log(n2/n1) (1 = linear, 2 = quadratic); then the stored views: their
time, one join and one view in milliseconds, and the JSON bytes of every seat's whole
view against those of the shared part and every part (the seats' and the host's). It
writes the results as JSON to ``bench/results/spyvsspy_turn.json``.

    python bench/spyvsspy_turn.py [--sizes 15 100 1000] [--repeat 3] [--spies 50]
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import platform
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from spyhouse.core.rng import Rng, Stream
from spyhouse.core.ruleset import Seat
from spyhouse.games.spyvsspy.model import (
    LEADER_NUMBER,
    REGIONS,
    Sheet,
    Spy,
    State,
    Task,
)
from spyhouse.games.spyvsspy.ruleset import SpyVsSpy
from spyhouse.sim.simulate import default_seats

T = TypeVar("T")

RESULTS = Path(__file__).resolve().parent / "results" / "spyvsspy_turn.json"
SEED = 20261130

#: Task mix of the random sheets (weights out of 100); RECRUIT is capped by V10.
TASK_WEIGHTS: tuple[tuple[Task, int], ...] = (
    (Task.WORK, 30), (Task.HUNT, 12), (Task.SEARCH, 10), (Task.TRAIN, 8), (Task.GUARD, 8),
    (Task.DISGUISE, 8), (Task.FAKE, 6), (Task.COVERT, 5), (Task.HIDE, 5), (Task.FOLLOW, 5),
    (Task.RECRUIT, 3),
)


def _weighted_task(stream: Stream) -> Task:
    total = sum(weight for _, weight in TASK_WEIGHTS)
    pick = stream.roll(total)
    for task, weight in TASK_WEIGHTS:
        if pick <= weight:
            return task
        pick -= weight
    return Task.WORK


def build_state(size: int, spies: int, rng: Rng) -> tuple[SpyVsSpy, State, list[Seat]]:
    """Turn 0 with ``size`` brotherhoods, each grown to ``spies`` spies of skill 1..6."""
    ruleset = SpyVsSpy()
    seats = list(default_seats(size))
    state = ruleset.setup(seats, {"base_choice": "random"}, rng)
    grow = rng.stream(0, "bench-grow")
    for brotherhood in state.brotherhoods:
        while len(brotherhood.spies) < spies:
            brotherhood.spies.append(Spy(brotherhood.next_number, grow.roll(6)))
            brotherhood.next_number += 1
        brotherhood.gp = 20 + grow.roll(400)
        brotherhood.covertness = grow.roll(8)
    return ruleset, state, seats


def random_sheet(state: State, seat: str, stream: Stream) -> dict[str, Any]:
    """A random valid order sheet (JSON) for ``seat``: every spy gets a task."""
    me = state.by_seat(seat)
    if me is None:
        raise ValueError(f"no seat {seat}")
    others = [b for b in state.brotherhoods if b.eliminated is None and b.seat != seat]
    recruits_left = me.gp // max(1, len(me.spies))
    orders: dict[str, dict[str, str]] = {}
    for spy in me.spies:
        task = _weighted_task(stream)
        if task is Task.FOLLOW and (spy.number == LEADER_NUMBER or not others):
            task = Task.WORK
        if task is Task.RECRUIT:
            if recruits_left <= 0:
                task = Task.WORK
            else:
                recruits_left -= 1
        order: dict[str, str] = {"task": task.value}
        if task is Task.FOLLOW:
            order["leader"] = stream.choice(others).leader
        elif task is not Task.RECRUIT:
            order["region"] = REGIONS[stream.roll(9) - 1].value
        if task in (Task.DISGUISE, Task.HUNT, Task.SEARCH) and others and stream.roll(2) == 1:
            order["brotherhood"] = stream.choice(others).seat
        orders[str(spy.number)] = order
    return {"spies": orders, "declarations": []}


def _median_time(action: Callable[[T], object], prepare: Callable[[], T], repeat: int) -> float:
    """The median over ``repeat`` runs of ``action(prepare())``, timing ``action`` only."""
    times = []
    for _ in range(repeat):
        subject = prepare()
        start = time.perf_counter()
        action(subject)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def measure(size: int, spies: int, repeat: int) -> dict[str, Any]:
    rng = Rng(SEED + size)
    ruleset, state, seats = build_state(size, spies, rng)
    sheet_stream = rng.stream(1, "bench-sheets")
    sheets: dict[str, Sheet | None] = {}
    for seat in seats:
        sheets[seat.id] = ruleset.parse_orders(state, seat.id, random_sheet(state, seat.id,
                                                                            sheet_stream))
    total_spies = sum(len(b.spies) for b in state.brotherhoods)
    # Each run resolves a fresh copy, so a resolver that touched its input could not
    # skew later runs; copying is outside the timing.
    after = ruleset.resolve(state.clone(), sheets, rng)
    resolve_s = _median_time(lambda fresh: ruleset.resolve(fresh, sheets, rng), state.clone,
                             repeat)
    gc.disable()  # the same turn with the cyclic collector paused: the algorithm alone
    try:
        resolve_nogc_s = _median_time(lambda fresh: ruleset.resolve(fresh, sheets, rng),
                                      state.clone, repeat)
    finally:
        gc.enable()

    def all_views(_: None) -> None:
        for seat in seats:
            ruleset.view(after, seat.id)

    views_s = _median_time(all_views, lambda: None, repeat)
    stored = measure_stored(ruleset, after, [seat.id for seat in seats], repeat)
    return {
        "brotherhoods": size,
        "spies": total_spies,
        "repeat": repeat,
        "resolve_s": resolve_s,
        "spies_per_s": total_spies / resolve_s if resolve_s > 0 else None,
        "resolve_nogc_s": resolve_nogc_s,
        "views_s": views_s,
        "view_s_per_seat": views_s / size,
        "survivors_after": sum(1 for b in after.brotherhoods if b.eliminated is None),
        **stored,
    }


def _json_bytes(data: Any) -> int:
    return len(json.dumps(data, ensure_ascii=False).encode())


def measure_stored(ruleset: SpyVsSpy, after: State, ids: list[str],
                   repeat: int) -> dict[str, Any]:
    """``stored_views`` of every seat and the host, one seat's join, and their bytes."""
    stored_s = _median_time(lambda _: ruleset.stored_views(after, ids), lambda: None, repeat)
    done = ruleset.stored_views(after, ids)
    shared = json.loads(json.dumps(done.shared))
    parts = {key: json.loads(json.dumps(part)) for key, part in done.parts.items()}
    sample = ids[::max(1, len(ids) // 20)]  # about 20 seats, spread over the town

    def joins(_: None) -> None:
        for seat in sample:
            ruleset.joined_view(shared, parts[seat])

    def views(_: None) -> None:
        for seat in sample:
            ruleset.view(after, seat)

    join_s = _median_time(joins, lambda: None, repeat) / len(sample)
    view_s = _median_time(views, lambda: None, repeat) / len(sample)
    host_join_s = _median_time(lambda _: ruleset.joined_view(shared, parts[None]),
                               lambda: None, repeat)
    view_bytes = [_json_bytes(ruleset.view(after, seat)) for seat in ids]
    part_bytes = [_json_bytes(parts[seat]) for seat in ids]
    return {
        "stored_s": stored_s,
        "join_s_per_seat": join_s,
        "view_s_per_seat_sample": view_s,
        "host_join_s": host_join_s,
        "views_bytes": sum(view_bytes),
        "largest_view_bytes": max(view_bytes),
        "smallest_view_bytes": min(view_bytes),
        "shared_bytes": _json_bytes(shared),
        "seat_parts_bytes": sum(part_bytes),
        "largest_part_bytes": max(part_bytes),
        "host_part_bytes": _json_bytes(parts[None]),
    }


def exponent(t1: float, t2: float, n1: int, n2: int) -> float | None:
    """The growth exponent k in t ~ n^k between two sizes."""
    if t1 <= 0 or t2 <= 0 or n1 == n2:
        return None
    return math.log(t2 / t1) / math.log(n2 / n1)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sizes", type=int, nargs="+", default=[15, 100, 1000],
                        help="numbers of brotherhoods (default 15 100 1000)")
    parser.add_argument("--repeat", type=int, default=3, help="repetitions per size (median)")
    parser.add_argument("--spies", type=int, default=50, help="spies per brotherhood")
    parser.add_argument("--out", type=Path, default=RESULTS, help="JSON results file")
    args = parser.parse_args(argv)
    if args.repeat < 1 or args.spies < 9 or any(size < 2 for size in args.sizes):
        parser.error("--repeat >= 1, --spies >= 9 and every size >= 2")

    rows: list[dict[str, Any]] = []
    header = (f"{'brotherhoods':>12} {'spies':>7} {'turn s':>9} {'spies/s':>10} "
              f"{'views s':>9} {'k turn':>7} {'k views':>7} {'no-gc s':>9} {'k no-gc':>7}")
    print(header)
    for size in args.sizes:
        row = measure(size, args.spies, args.repeat)
        if rows:
            prev = rows[-1]
            row["exponent_resolve"] = exponent(prev["resolve_s"], row["resolve_s"],
                                               prev["brotherhoods"], size)
            row["exponent_views"] = exponent(prev["views_s"], row["views_s"],
                                             prev["brotherhoods"], size)
            row["exponent_resolve_nogc"] = exponent(prev["resolve_nogc_s"],
                                                    row["resolve_nogc_s"],
                                                    prev["brotherhoods"], size)
        rows.append(row)
        k_turn = row.get("exponent_resolve")
        k_views = row.get("exponent_views")
        k_nogc = row.get("exponent_resolve_nogc")
        print(f"{size:>12} {row['spies']:>7} {row['resolve_s']:>9.4f} "
              f"{row['spies_per_s'] or 0:>10.0f} {row['views_s']:>9.4f} "
              f"{'' if k_turn is None else f'{k_turn:.2f}':>7} "
              f"{'' if k_views is None else f'{k_views:.2f}':>7} "
              f"{row['resolve_nogc_s']:>9.4f} "
              f"{'' if k_nogc is None else f'{k_nogc:.2f}':>7}", flush=True)

    print()
    print(f"{'brotherhoods':>12} {'stored s':>9} {'join ms':>8} {'view ms':>8} "
          f"{'host join s':>11} {'views MB':>9} {'stored MB':>9} {'shared kB':>9} "
          f"{'part kB':>8} {'host kB':>8}")
    for row in rows:
        stored_bytes = row["shared_bytes"] + row["seat_parts_bytes"] + row["host_part_bytes"]
        print(f"{row['brotherhoods']:>12} {row['stored_s']:>9.4f} "
              f"{row['join_s_per_seat'] * 1000:>8.2f} "
              f"{row['view_s_per_seat_sample'] * 1000:>8.2f} {row['host_join_s']:>11.4f} "
              f"{row['views_bytes'] / 1e6:>9.1f} {stored_bytes / 1e6:>9.2f} "
              f"{row['shared_bytes'] / 1e3:>9.1f} {row['largest_part_bytes'] / 1e3:>8.1f} "
              f"{row['host_part_bytes'] / 1e3:>8.1f}")

    args.out.parent.mkdir(parents=True, exist_ok=True)
    payload = {
        "benchmark": "spyvsspy_turn",
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "spies_per_brotherhood": args.spies,
        "repeat": args.repeat,
        "results": rows,
    }
    args.out.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    print(f"results written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
