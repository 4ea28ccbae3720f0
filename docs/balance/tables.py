"""The tables of docs/balance.md, from the lab's results (run.sh writes them).

    .venv/bin/python docs/balance/tables.py [var/balance]

prints Markdown: the opening question per field, the Spy 2 changes, Infiltration by size,
and draws docs/balance/openings.png (the four opening bots' win shares per field).
Everything here is read from ``results.json`` through ``spyhouse.sim.lab_report``.
"""

from __future__ import annotations

import json
import statistics
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from spyhouse.sim.lab_report import Cell, Share, cells
from spyhouse.sim.tournament import percentile, wilson

GROWTH = ("grower", "Patient")
INFORMATION = ("informer", "Eager")


def _rows(folder: Path) -> list[Mapping[str, Any]]:
    data = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    return list(data["rows"])


def _share(share: Share) -> str:
    low, high = share.interval
    return f"{share.mean:.3f} ({low:.3f}–{high:.3f})"


def _part(score: float, games: int) -> str:
    if not games:
        return "–"
    low, high = wilson(score, games)
    bold = "**" if not low <= 0.5 <= high else ""
    return f"{bold}{score / games:.3f}{bold} ({low:.3f}–{high:.3f}, {games} games)"


def _duel(rows: Sequence[Mapping[str, Any]], side_a: Sequence[str],
          side_b: Sequence[str]) -> tuple[float, int]:
    """Side A's part of the wins A and B took between them, over the games one won."""
    score, games = 0.0, 0
    for row in rows:
        a = sum(s for b, s in zip(row["bots"], row["shares"], strict=True) if b in side_a)
        b = sum(s for n, s in zip(row["bots"], row["shares"], strict=True) if n in side_b)
        if a + b > 0:
            score += a / (a + b)
            games += 1
    return score, games


def _bot(cell: Cell, label: str) -> Share:
    return next(share for share in cell.bots if share.label == label)


def _length(cell: Cell) -> str:
    turns = [float(t) for t in cell.turns]
    mean = statistics.fmean(turns)
    half = 1.96 * statistics.stdev(turns) / len(turns) ** 0.5
    return f"{mean:.1f} ({mean - half:.1f}–{mean + half:.1f}) | {percentile(turns, 0.5):g}"


def openings(root: Path) -> list[str]:
    lines = ["| field (4 of 8 seats) | grower | informer | Patient | Eager | "
             "grower vs informer | Patient vs Eager | growth vs information (pooled) | "
             "median turns |",
             "|---|---|---|---|---|---|---|---|---:|"]
    for field in ("economist", "hunter", "shadow"):
        folder = root / f"openings-{field}"
        if not (folder / "results.json").exists():
            continue
        rows = _rows(folder)
        (cell,) = cells(rows)
        turns = [float(t) for t in cell.turns]
        lines.append(
            f"| {field} | " + " | ".join(_share(_bot(cell, b)) for b in
                                         ("grower", "informer", "Patient", "Eager"))
            + f" | {_part(*_duel(rows, ['grower'], ['informer']))}"
            + f" | {_part(*_duel(rows, ['Patient'], ['Eager']))}"
            + f" | {_part(*_duel(rows, GROWTH, INFORMATION))}"
            + f" | {percentile(turns, 0.5):g} |")
    return lines


def plot_openings(root: Path, path: Path) -> None:
    """Grouped bars: per field, the four opening bots' win shares with 95 % intervals."""
    from matplotlib.figure import Figure

    fields = [f for f in ("economist", "hunter", "shadow")
              if (root / f"openings-{f}" / "results.json").exists()]
    if not fields:
        return
    bots = ("grower", "informer", "Patient", "Eager")
    colours = ("tab:green", "tab:blue", "tab:olive", "tab:cyan")
    figure = Figure(figsize=(7, 3.4))
    axes = figure.subplots()
    found = {f: cells(_rows(root / f"openings-{f}"))[0] for f in fields}
    width = 0.2
    for index, (bot, colour) in enumerate(zip(bots, colours, strict=True)):
        shares = [_bot(found[f], bot) for f in fields]
        means = [s.mean for s in shares]
        errors = [[max(0.0, s.mean - s.interval[0]) for s in shares],
                  [max(0.0, s.interval[1] - s.mean) for s in shares]]
        xs = [i + (index - 1.5) * width for i in range(len(fields))]
        growth = bot in GROWTH
        axes.bar(xs, means, width, yerr=errors, capsize=3, color=colour,
                 hatch="" if growth else "//",
                 label=f"{bot} ({'growth first' if growth else 'information first'})")
    axes.axhline(1 / 8, color="grey", linestyle="dashed", linewidth=1)
    axes.set_xticks(range(len(fields)), [f"field: 4 × {f}" for f in fields])
    axes.set_ylabel("win share per seat (95 %)")
    axes.set_title("Spy vs Spy, 8 players: growth first or information first")
    axes.legend(fontsize="small", ncol=2)
    figure.tight_layout()
    figure.savefig(path, dpi=90)


def spy2(root: Path) -> list[str]:
    folder = root / "spy2"
    if not (folder / "results.json").exists():
        return []
    lines = ["| rules | mean turns (95 %) | median | economist | hunter | shadow |",
             "|---|---|---:|---|---|---|"]
    for cell in cells(_rows(folder)):
        lines.append(f"| {cell.variant} | {_length(cell)} | "
                     + " | ".join(_share(_bot(cell, b)) for b in
                                  ("economist", "hunter", "shadow")) + " |")
    return lines


def infiltration(root: Path) -> list[str]:
    folder = root / "infiltration"
    if not (folder / "results.json").exists():
        return []
    lines = ["| players | Reds | Reds win | Greens win | draw | mean turns (95 %) | median |",
             "|---:|---:|---|---|---|---|---:|"]
    for cell in cells(_rows(folder)):
        counts = dict(cell.endings)
        parts = []
        for text in ("The Reds win.", "The Greens win.", "A draw."):
            count = counts.get(text, 0)
            low, high = wilson(count, cell.games)
            bold = "**" if text != "A draw." and not low <= 0.5 <= high else ""
            parts.append(f"{bold}{count / cell.games:.3f}{bold} ({low:.3f}–{high:.3f})")
        lines.append(f"| {cell.players} | {(cell.players + 1) // 4} | " + " | ".join(parts)
                     + f" | {_length(cell)} |")
    return lines


def main(argv: Sequence[str]) -> int:
    root = Path(argv[0]) if argv else Path("var/balance")
    plot_openings(root, Path(__file__).with_name("openings.png"))
    for title, lines in (("Openings", openings(root)), ("Spy 2 changes", spy2(root)),
                         ("Infiltration by size", infiltration(root))):
        print(f"## {title}\n")
        print("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
