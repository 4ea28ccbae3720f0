"""Benchmark: Spy vs Spy's computer players and every seat's view, after one big turn.

The script builds the game of ``bench/spyvsspy_turn.py``: ``--brotherhoods`` N (default
1000) brotherhoods at turn 0, each grown to ``--spies`` spies of varied skill, one random
valid sheet per seat, and resolves that turn. Then, seat by seat (a view is dropped
before the next is built: a thousand 870 kB views would not fit in memory), it times
with ``time.perf_counter``:

- ``view``: ``SpyVsSpy().view(after, seat)``, the seat's view after the turn (what the
  server builds for each bot and each report);
- ``bot``: a fresh bot of the seat's strategy (``economist``, ``hunter``, ``shadow`` in
  turn) acting on that view alone;
- ``cold``: a fresh bot fed the seat's turn-0 view first and then that view, as a
  restarted server feeds it (``records.bot_sheet``); both acts are timed;
- ``warm``: the second act of ``cold`` alone (a bot that already read turn 0, as a
  server that kept it in memory).

It prints the total and the per-bot median of each, per strategy too, and a digest
of every sheet (the same code and seed give the same digest: a faster version must
print the digest of the old one). With ``--baseline FILE`` (the JSON of an earlier
run, e.g. of the old code run with ``PYTHONPATH=/tmp/old/src``) it prints the ratios
old/new. ``--every K`` times one seat in K (every figure then covers those seats
only, and the totals are scaled by K). JSON goes to
``bench/results/spyvsspy_bots_<N>.json`` (or ``--out``); the last line is
``RESULT brotherhoods=<N> views_s=<total> bots_s=<total> bots_cold_s=<total>``.

    python bench/spyvsspy_bots.py [--brotherhoods 1000] [--spies 50] [--every 1]
        [--baseline FILE] [--out FILE]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import spyhouse
from spyhouse.core.rng import Rng
from spyhouse.games.spyvsspy.bots import make_bot
from spyhouse.games.spyvsspy.model import Sheet
from spyvsspy_turn import SEED, build_state, random_sheet

RESULTS = Path(__file__).resolve().parent / "results"
STRATEGIES = ("economist", "hunter", "shadow")
FIGURES = ("view", "bot", "cold", "warm")


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "?"


def measure(size: int, spies: int, every: int) -> dict[str, Any]:
    """Resolve one turn of ``size`` brotherhoods and time views and bots seat by seat."""
    rng = Rng(SEED + size)
    ruleset, state, seats = build_state(size, spies, rng)
    stream = rng.stream(1, "bench-sheets")
    sheets: dict[str, Sheet | None] = {
        seat.id: ruleset.parse_orders(state, seat.id, random_sheet(state, seat.id, stream))
        for seat in seats}
    after = ruleset.resolve(state.clone(), sheets, rng)
    times: dict[str, dict[str, list[float]]] = {
        figure: {name: [] for name in STRATEGIES} for figure in FIGURES}
    digest = hashlib.sha256()
    clock = time.perf_counter
    for index, seat in enumerate(seats):
        if index % every:
            continue
        name = STRATEGIES[index % len(STRATEGIES)]
        first = ruleset.view(state, seat.id)  # turn 0, untimed: its cost is not the point
        start = clock()
        view = ruleset.view(after, seat.id)
        times["view"][name].append(clock() - start)

        fresh = make_bot(name, seat.id, SEED)
        start = clock()
        sheet = fresh.act(view)
        times["bot"][name].append(clock() - start)

        cold = make_bot(name, seat.id, SEED)
        start = clock()
        cold.act(first)
        middle = clock()
        cold_sheet = cold.act(view)
        end = clock()
        times["cold"][name].append(end - start)
        times["warm"][name].append(end - middle)
        digest.update(json.dumps([seat.id, sheet, cold_sheet]).encode())
        del first, view
    scale = every
    out: dict[str, Any] = {"brotherhoods": size, "spies": spies, "every": every,
                           "seats_timed": sum(len(v) for v in times["view"].values()),
                           "sheets_sha256": digest.hexdigest()}
    for figure, by_name in times.items():
        every_time = [t for values in by_name.values() for t in values]
        out[f"{figure}_s"] = sum(every_time) * scale
        out[f"{figure}_median_ms"] = statistics.median(every_time) * 1000
        for name, values in by_name.items():
            if values:
                out[f"{figure}_median_ms_{name}"] = statistics.median(values) * 1000
    return out


def _ratios(old: dict[str, Any], new: dict[str, Any]) -> dict[str, float]:
    keys = [key for key in new if key.endswith(("_s", "_ms")) or "_ms_" in key]
    return {key: old[key] / new[key] for key in keys
            if isinstance(old.get(key), int | float) and new[key]}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--brotherhoods", type=int, default=1000)
    parser.add_argument("--spies", type=int, default=50, help="spies per brotherhood")
    parser.add_argument("--every", type=int, default=1, help="time one seat in K")
    parser.add_argument("--baseline", type=Path, help="JSON of an earlier run, for ratios")
    parser.add_argument("--out", type=Path, help="JSON results file")
    args = parser.parse_args(argv)
    if args.brotherhoods < 2 or args.spies < 9 or args.every < 1:
        parser.error("--brotherhoods >= 2, --spies >= 9, --every >= 1")

    load_before = _load()
    row = measure(args.brotherhoods, args.spies, args.every)
    row["load_before"], row["load_after"] = load_before, _load()
    row["package"] = str(Path(spyhouse.__file__).parent)
    print(f"package {row['package']}; load {load_before} -> {row['load_after']}")
    print(f"{'':>6} {'total s':>9} {'median ms':>10} "
          + " ".join(f"{name + ' ms':>13}" for name in STRATEGIES))
    for figure in FIGURES:
        print(f"{figure:>6} {row[f'{figure}_s']:>9.2f} {row[f'{figure}_median_ms']:>10.2f} "
              + " ".join(f"{row.get(f'{figure}_median_ms_{name}', 0.0):>13.2f}"
                         for name in STRATEGIES))
    print(f"sheets sha256 {row['sheets_sha256']}")
    if args.baseline is not None:
        old = json.loads(args.baseline.read_text(encoding="utf-8"))["result"]
        row["baseline"] = {"file": str(args.baseline), "ratios_old_over_new": _ratios(old, row),
                           "same_sheets": old.get("sheets_sha256") == row["sheets_sha256"]}
        print(f"baseline {args.baseline} (load {old.get('load_before')}): sheets "
              f"{'identical' if row['baseline']['same_sheets'] else 'DIFFER'}")
        for figure in FIGURES:
            print(f"{figure:>6} total {old[f'{figure}_s']:.2f} s -> {row[f'{figure}_s']:.2f} s "
                  f"(x{old[f'{figure}_s'] / row[f'{figure}_s']:.2f}); median "
                  f"{old[f'{figure}_median_ms']:.2f} -> {row[f'{figure}_median_ms']:.2f} ms "
                  f"(x{old[f'{figure}_median_ms'] / row[f'{figure}_median_ms']:.2f})")
    out = args.out or RESULTS / f"spyvsspy_bots_{args.brotherhoods}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    payload = {"benchmark": "spyvsspy_bots", "python": sys.version.split()[0],
               "platform": platform.platform(), "result": row}
    out.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    print(f"results written to {out}")
    print(f"RESULT brotherhoods={args.brotherhoods} views_s={row['view_s']:.2f} "
          f"bots_s={row['bot_s']:.2f} bots_cold_s={row['cold_s']:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
