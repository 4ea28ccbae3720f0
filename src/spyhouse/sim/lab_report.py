"""The lab's report: result rows aggregated into tables, plots and raw files.

Everything is grouped by *cell*: one player count and one variant. In a cell,

- a bot's **win share** is the mean of its seats' shares over every seat it played
  (a finished game gives each winner ``1 / len(winners)``, everyone else 0), with a
  95 % Wilson interval on (sum of shares, seats played) (``tournament.wilson``, which
  counts a fractional share as a fractional success);
- a seat's win share likewise over the cell's games; its **fair share** is the mean
  share of all seats (``1 / N`` when every game ends with one winner), and a seat whose
  interval misses it is flagged;
- **head to head**, for two bots A and B: over the games where both sat and one of them
  won, A's part of their wins (a game's part is A's shares over A's and B's), with a
  Wilson interval; bots that meet in the same games are compared on the same deals;
- game length is the game's own turn count (``Ruleset.turn_number``) at the end, its
  mean with a 95 % interval (normal approximation: mean ± 1.96 s / √n).

The intervals treat seats as independent draws; seats of one game are not (their
shares add up to at most 1), and copies of one bot in the same game are correlated, so
read them as approximate. ``write_report`` writes ``report.md``, the PNG plots
(matplotlib's Agg renderer via ``Figure``: no display, no global pyplot state),
``results.csv`` and ``results.json`` into a folder. When all the games end in a few kinds
of way (the first sentence of the game's own result line, e.g. "The Reds win."), a table
and ``endings.png`` give each kind's share per cell: a team game's balance by side.
"""

from __future__ import annotations

import csv
import json
import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from spyhouse.sim.tournament import percentile, wilson

Row = Mapping[str, Any]

#: The report's plots, by file name.
PLOTS = ("win_share_by_bot.png", "win_share_by_seat.png", "game_length.png",
         "win_share_by_variant.png")
#: The plot of how games ended, written when there are few kinds of ending.
ENDINGS_PLOT = "endings.png"
#: At most this many distinct endings are tabulated per cell (more: names, not sides).
MAX_ENDINGS = 8
CSV_FIELDS = ("index", "players", "variant", "seed", "block", "rotation", "bots", "finished",
              "winners", "winner_bots", "shares", "places", "entries", "turns", "refusals",
              "ending")


@dataclass(frozen=True, slots=True)
class Share:
    """A win share with its interval: ``score`` summed over ``n`` seats played."""

    label: str
    n: int
    score: float
    wins: int

    @property
    def mean(self) -> float:
        return self.score / self.n if self.n else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.score, self.n)


@dataclass(frozen=True, slots=True)
class Duel:
    """Bots A and B in the games where both sat and one of them won: A's part of those
    wins (``a_score`` summed over ``games``, each game's part ``A / (A + B)``)."""

    a: str
    b: str
    games: int
    a_score: float

    @property
    def mean(self) -> float:
        return self.a_score / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.a_score, self.games)


def _duels(labels: Sequence[str], rows: Sequence[Row]) -> tuple[Duel, ...]:
    games = {(a, b): 0 for i, a in enumerate(labels) for b in labels[i + 1:]}
    score = dict.fromkeys(games, 0.0)
    for row in rows:
        took: dict[str, float] = {}
        for name, share in zip(row["bots"], row["shares"], strict=True):
            took[name] = took.get(name, 0.0) + float(share)
        for a, b in games:
            if a in took and b in took and took[a] + took[b] > 0:
                games[(a, b)] += 1
                score[(a, b)] += took[a] / (took[a] + took[b])
    return tuple(Duel(a, b, games[(a, b)], score[(a, b)]) for a, b in games)


@dataclass(frozen=True, slots=True)
class Cell:
    """One player count and one variant: its games' aggregates."""

    players: int
    variant: str
    games: int
    finished: int
    bots: tuple[Share, ...]
    seats: tuple[Share, ...]
    fair: float
    turns: tuple[int, ...]
    refusals: int
    endings: tuple[tuple[str, int], ...]
    #: for each pair of bots (A, B) that met: A's part of the wins they took between them
    duels: tuple[Duel, ...] = ()

    def label(self, many_players: bool, many_variants: bool) -> str:
        parts = ([f"N={self.players}"] if many_players or not many_variants else []) + (
            [self.variant] if many_variants else [])
        return " · ".join(parts)


def _shares(labels: Sequence[str], rows: Sequence[Row], key: str) -> tuple[Share, ...]:
    score = dict.fromkeys(labels, 0.0)
    count = dict.fromkeys(labels, 0)
    wins = dict.fromkeys(labels, 0)
    for row in rows:
        names = row["bots"] if key == "bots" else [f"s{i}" for i in
                                                   range(1, len(row["bots"]) + 1)]
        for name, share in zip(names, row["shares"], strict=True):
            score[name] += float(share)
            count[name] += 1
            wins[name] += 1 if share > 0 else 0
    return tuple(Share(name, count[name], score[name], wins[name]) for name in labels)


def cells(rows: Sequence[Row]) -> list[Cell]:
    """The rows' cells, by player count then variant in order of first appearance."""
    order: dict[tuple[int, str], list[Row]] = {}
    for row in rows:
        order.setdefault((int(row["players"]), str(row["variant"])), []).append(row)
    found: list[Cell] = []
    for (players, variant), group in sorted(order.items(), key=lambda kv: kv[0][0]):
        bot_labels = list(dict.fromkeys(name for row in group for name in row["bots"]))
        seat_labels = [f"s{i}" for i in range(1, players + 1)]
        total = sum(float(share) for row in group for share in row["shares"])
        fair = total / (players * len(group)) if group else 0.0
        endings: dict[str, int] = {}
        for row in group:
            text = row["ending"] if row["finished"] else "(unfinished: entry cap)"
            endings[text] = endings.get(text, 0) + 1
        found.append(Cell(
            players, variant, len(group), sum(1 for row in group if row["finished"]),
            _shares(bot_labels, group, "bots"), _shares(seat_labels, group, "seats"), fair,
            tuple(int(row["turns"]) for row in group),
            sum(int(row["refusals"]) for row in group),
            tuple(sorted(endings.items(), key=lambda kv: (-kv[1], kv[0]))),
            _duels(bot_labels, group)))
    return found


# ---------------------------------------------------------------- markdown


def _pct(value: float) -> str:
    return f"{value:.3f}"


def _share_table(shares: Sequence[Share], first: str, fair: float | None) -> list[str]:
    lines = [f"| {first} | seats played | games won | win share | 95 % interval |"
             + (" vs fair |" if fair is not None else ""),
             "|---|---:|---:|---:|---|" + ("---|" if fair is not None else "")]
    for share in shares:
        low, high = share.interval
        line = (f"| {share.label} | {share.n} | {share.wins} | {_pct(share.mean)} | "
                f"{_pct(low)} – {_pct(high)} |")
        if fair is not None:
            line += " **outside** |" if not low <= fair <= high else " inside |"
        lines.append(line)
    return lines


def _length_line(cell: Cell, label: str) -> str:
    turns = [float(t) for t in cell.turns]
    mean = statistics.fmean(turns)
    half = 1.96 * statistics.stdev(turns) / math.sqrt(len(turns)) if len(turns) > 1 else 0.0
    return (f"| {label} | {cell.games} | {cell.finished} | {mean:.1f} | "
            f"{mean - half:.1f} – {mean + half:.1f} | "
            f"{percentile(turns, 0.5):g} | {percentile(turns, 0.1):g} – "
            f"{percentile(turns, 0.9):g} | {max(cell.turns)} |")


def _ending_cell(count: int, games: int) -> str:
    low, high = wilson(count, games)
    return f"{count / games:.3f} ({_pct(low)} – {_pct(high)})"


def markdown(rows: Sequence[Row], meta: Mapping[str, Any]) -> str:
    """The report as Markdown: the command, then per cell the bots, seats and length."""
    found = cells(rows)
    many_players = len({cell.players for cell in found}) > 1
    many_variants = len({cell.variant for cell in found}) > 1
    out = [f"# Balance lab: {meta.get('game', '?')}", ""]
    if meta.get("command"):
        out += ["```", str(meta["command"]), "```", ""]
    out += [f"{len(rows)} games; bots: {', '.join(meta.get('bots', []))}; "
            f"seeds {meta.get('seed', '?')} + block; entry cap {meta.get('turns', '?')}.",
            "Every bot sits every seat equally often (a block of rotations per seed). "
            "A finished game's winners share 1 between them; intervals are 95 % Wilson "
            "intervals (approximate: seats of one game are not independent).", ""]
    if meta.get("variants"):
        out += ["Variants (options merged over the game's defaults):", ""]
        out += [f"- `{label}`: `{json.dumps(options, sort_keys=True)}`"
                for label, options in meta["variants"].items()]
        out.append("")
    out += ["## Game length", "",
            "| cell | games | finished | mean turns | 95 % interval of the mean | median | "
            "10–90 % | max |",
            "|---|---:|---:|---:|---|---:|---|---:|"]
    out += [_length_line(cell, cell.label(many_players, many_variants) or "all")
            for cell in found]
    out += ["", "![game length](game_length.png)", ""]
    for cell in found:
        title = cell.label(many_players, many_variants) or f"N={cell.players}"
        out += [f"## {title}", "", f"{cell.games} games, {cell.finished} finished"
                f"{f', {cell.refusals} refused sheets' if cell.refusals else ''}.", "",
                "Win share by bot:", ""]
        out += _share_table(cell.bots, "bot", None)
        duels = [duel for duel in cell.duels if duel.games]
        if duels:
            out += ["", "Head to head: in the games where both sat and one of them won, A's "
                    "part of their wins (0.5: even; the interval excludes 0.5: a real "
                    "difference):", "",
                    "| A | B | games | A's part | 95 % interval |", "|---|---|---:|---:|---|"]
            for duel in duels:
                low, high = duel.interval
                mark = " **" if not low <= 0.5 <= high else " "
                out.append(f"| {duel.a} | {duel.b} | {duel.games} |{mark}{_pct(duel.mean)}"
                           f"{mark.strip()} | {_pct(low)} – {_pct(high)} |")
        out += ["", f"Win share by seat (fair share {_pct(cell.fair)}):", ""]
        out += _share_table(cell.seats, "seat", cell.fair)
        if len(cell.endings) <= MAX_ENDINGS:
            out += ["", "How the games ended (the game's own result line):", "",
                    "| ending | games | share |", "|---|---:|---:|"]
            out += [f"| {text or '(no line)'} | {count} | {count / cell.games:.3f} |"
                    for text, count in cell.endings]
        out.append("")
    if ending_kinds(found):
        out += ["## How the games ended", "",
                "| cell | " + " | ".join(text or "(no line)" for text in ending_kinds(found))
                + " |", "|---|" + "---|" * len(ending_kinds(found))]
        for cell in found:
            counts = dict(cell.endings)
            out.append(f"| {cell.label(many_players, many_variants) or 'all'} | " + " | ".join(
                _ending_cell(counts.get(text, 0), cell.games) for text in ending_kinds(found))
                + " |")
        out += ["", "Share of the cell's games, 95 % Wilson interval in brackets.", "",
                f"![how the games ended]({ENDINGS_PLOT})", ""]
    out += ["## Plots", "", "![win share by bot](win_share_by_bot.png)", "",
            "![win share by seat](win_share_by_seat.png)", "",
            "![win share by variant](win_share_by_variant.png)", "",
            "Raw results: `results.csv`, `results.json` (one row per game).", ""]
    return "\n".join(out)


def summary_lines(rows: Sequence[Row]) -> list[str]:
    """One line per cell for the terminal: games, median length, each bot's win share."""
    found = cells(rows)
    many_players = len({cell.players for cell in found}) > 1
    many_variants = len({cell.variant for cell in found}) > 1
    lines = []
    for cell in found:
        shares = ", ".join(f"{share.label} {_pct(share.mean)} ({_pct(share.interval[0])}–"
                           f"{_pct(share.interval[1])})" for share in cell.bots)
        median = percentile([float(t) for t in cell.turns], 0.5)
        lines.append(f"{cell.label(many_players, many_variants) or 'all'}: {cell.games} games "
                     f"({cell.finished} finished), median {median:g} turns; win share "
                     f"{shares}")
    return lines


# ---------------------------------------------------------------- plots


def _errors(shares: Sequence[Share]) -> tuple[list[float], list[list[float]]]:
    means = [share.mean for share in shares]
    lows = [max(0.0, share.mean - share.interval[0]) for share in shares]  # rounding
    highs = [max(0.0, share.interval[1] - share.mean) for share in shares]
    return means, [lows, highs]


def _save(figure: Any, path: Path) -> None:
    figure.tight_layout()
    figure.savefig(path, dpi=90)


def plot_bots(found: Sequence[Cell], path: Path, *, by_variant: bool = False) -> None:
    """Grouped bars: one group per bot (per cell with ``by_variant``), 95 % error bars."""
    from matplotlib.figure import Figure

    many_players = len({cell.players for cell in found}) > 1
    many_variants = len({cell.variant for cell in found}) > 1
    bots = list(dict.fromkeys(share.label for cell in found for share in cell.bots))
    figure = Figure(figsize=(7, 3.6))
    axes = figure.subplots()
    if by_variant:
        groups, series = [cell.label(many_players, many_variants) for cell in found], bots
    else:
        groups, series = bots, [cell.label(many_players, many_variants) for cell in found]
    width = 0.8 / max(1, len(series))
    for s_index, name in enumerate(series):
        shares: list[Share] = []
        for g_index in range(len(groups)):
            cell = found[g_index] if by_variant else found[s_index]
            bot = name if by_variant else groups[g_index]
            shares.append(next((x for x in cell.bots if x.label == bot),
                               Share(bot, 0, 0.0, 0)))
        means, errors = _errors(shares)
        xs = [g + (s_index - (len(series) - 1) / 2) * width for g in range(len(groups))]
        axes.bar(xs, means, width, yerr=errors, capsize=3, label=name or "all")
    axes.set_xticks(range(len(groups)), groups, rotation=15 if len(groups) > 4 else 0)
    axes.set_ylabel("win share (95 % interval)")
    axes.set_title("win share per bot and variant" if by_variant else "win share by bot")
    if len(series) > 1 or by_variant:
        axes.legend(fontsize="small")
    _save(figure, path)


def plot_seats(found: Sequence[Cell], path: Path) -> None:
    """Each seat's win share with its interval, against the cell's fair share; with
    several player counts, each divided by its cell's fair share (1: fair)."""
    from matplotlib.figure import Figure
    from matplotlib.ticker import MaxNLocator

    many_players = len({cell.players for cell in found}) > 1
    many_variants = len({cell.variant for cell in found}) > 1
    figure = Figure(figsize=(7, 3.6))
    axes = figure.subplots()
    offset = 0.6 / max(1, len(found))
    for index, cell in enumerate(found):
        scale = 1 / cell.fair if many_players and cell.fair > 0 else 1.0
        means, errors = _errors(cell.seats)
        xs = [seat + 1 + (index - (len(found) - 1) / 2) * offset
              for seat in range(len(cell.seats))]
        line = axes.errorbar(xs, [m * scale for m in means],
                             yerr=[[e * scale for e in side] for side in errors], fmt="o",
                             capsize=2, markersize=3 if len(found) > 4 else 5,
                             label=cell.label(many_players, many_variants) or "all")
        axes.hlines(cell.fair * scale, 0.6, len(cell.seats) + 0.4, linestyles="dashed",
                    colors=line[0].get_color(), linewidth=1)
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_xlabel("seat (dashed: fair share)")
    axes.set_ylabel("win share ÷ fair share" if many_players else "win share (95 % interval)")
    axes.set_title("win share by seat" + (" relative to fair (95 % intervals)"
                                          if many_players else ""))
    axes.legend(fontsize="small", ncol=2 if len(found) > 4 else 1)
    _save(figure, path)


def ending_kinds(found: Sequence[Cell]) -> list[str]:
    """The distinct endings of all cells, most frequent first; ``[]`` when there are more
    than ``MAX_ENDINGS`` (they name players, not sides)."""
    totals: dict[str, int] = {}
    for cell in found:
        for text, count in cell.endings:
            totals[text] = totals.get(text, 0) + count
    if len(totals) > MAX_ENDINGS:
        return []
    return [text for text, _ in sorted(totals.items(), key=lambda kv: (-kv[1], kv[0]))]


def plot_endings(found: Sequence[Cell], kinds: Sequence[str], path: Path) -> None:
    """Each ending's share of the games per cell (a side's win share in a team game),
    with 95 % Wilson intervals."""
    from matplotlib.figure import Figure

    many_players = len({cell.players for cell in found}) > 1
    many_variants = len({cell.variant for cell in found}) > 1
    figure = Figure(figsize=(7, 3.6))
    axes = figure.subplots()
    xs = list(range(len(found)))
    for index, text in enumerate(kinds):
        shares = [Share(text, cell.games, float(dict(cell.endings).get(text, 0)), 0)
                  for cell in found]
        means, errors = _errors(shares)
        shift = (index - (len(kinds) - 1) / 2) * 0.06
        axes.errorbar([x + shift for x in xs], means, yerr=errors, fmt="o-", capsize=3,
                      label=text or "(no line)")
    axes.set_xticks(xs, [cell.label(many_players, many_variants) or "all" for cell in found],
                    rotation=15 if len(found) > 6 else 0)
    axes.set_ylim(0, 1)
    axes.set_ylabel("share of games (95 % interval)")
    axes.set_title("how the games ended")
    axes.legend(fontsize="small")
    _save(figure, path)


def plot_lengths(found: Sequence[Cell], path: Path) -> None:
    """Box plots of the game's own turn count at the end, one per cell."""
    from matplotlib.figure import Figure

    many_players = len({cell.players for cell in found}) > 1
    many_variants = len({cell.variant for cell in found}) > 1
    figure = Figure(figsize=(7, 3.2))
    axes = figure.subplots()
    axes.boxplot([list(cell.turns) for cell in found], showmeans=True)
    axes.set_xticks(range(1, len(found) + 1),
                    [cell.label(many_players, many_variants) or "all" for cell in found])
    axes.set_ylabel("turns")
    axes.set_title("game length (box: quartiles, triangle: mean)")
    _save(figure, path)


# ---------------------------------------------------------------- files


def write_csv(rows: Sequence[Row], path: Path) -> None:
    """One line per game; list fields joined with ``;``."""
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=CSV_FIELDS)
        writer.writeheader()
        for row in rows:
            writer.writerow({key: ";".join(str(v) for v in row[key])
                             if isinstance(row[key], list) else row[key]
                             for key in CSV_FIELDS})


def write_report(out: Path, rows: Sequence[Row], meta: Mapping[str, Any]) -> list[Path]:
    """Write ``report.md``, the plots and the raw results into ``out``; the paths."""
    if not rows:
        raise ValueError("no games to report")
    out.mkdir(parents=True, exist_ok=True)
    found = cells(rows)
    plot_bots(found, out / PLOTS[0])
    plot_seats(found, out / PLOTS[1])
    plot_lengths(found, out / PLOTS[2])
    plot_bots(found, out / PLOTS[3], by_variant=True)
    written = [out / name for name in PLOTS]
    kinds = ending_kinds(found)
    if kinds:
        plot_endings(found, kinds, out / ENDINGS_PLOT)
        written.append(out / ENDINGS_PLOT)
    (out / "report.md").write_text(markdown(rows, meta), encoding="utf-8")
    write_csv(rows, out / "results.csv")
    (out / "results.json").write_text(
        json.dumps({"meta": dict(meta), "rows": list(rows)}, indent=1, sort_keys=True) + "\n",
        encoding="utf-8")
    return [out / "report.md", *written, out / "results.csv", out / "results.json"]


__all__ = ["ENDINGS_PLOT", "PLOTS", "Cell", "Duel", "Share", "cells", "ending_kinds",
           "markdown", "summary_lines", "write_csv", "write_report"]
