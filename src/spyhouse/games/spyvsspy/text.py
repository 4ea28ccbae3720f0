"""Plain-text turn reports, laid out like the seed's "Example of Turn Sheet".

Everything here reads a view mapping (``SpyVsSpy.view``, spec §8.5) and nothing
else: never the state, so a report can hold only what the view's seat may know.
Missing keys are simply left out, which covers eliminated seats (public keys,
``seat`` and ``declarations``), spectators (public keys only) and spy2 (no life).

- ``render_report(view)``: a seat's turn report (§8.2): header, news, my
  declarations, "Your brotherhood", my spies, the Brotherhood Report table and
  the region quick reference.
- ``render_host(view)``: the host view (``seat=None``, §8.4) or a spectator's
  public view: directory, news, game over, and for the host every seat's secrets
  and sheet.
- ``render_standings(view)``: the standings (or the directory while the game
  goes on) from the public keys of any view.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from spyhouse.games.spyvsspy.model import SPY2_CHANGES, view_changes

TITLE = "SPY vs SPY"
REGION_LETTERS: tuple[str, ...] = ("A", "B", "C", "D", "E", "F", "G", "H", "I")
_COUNT_COLUMNS = ("Spies", "Covertness", "gp")


# ---------------------------------------------------------------- small helpers


def _table(
    headers: Sequence[str], rows: Iterable[Sequence[Any]], right: Iterable[int] = (), gap: int = 2
) -> list[str]:
    """Rows as aligned text columns; columns listed in ``right`` are right-aligned."""
    body = [[_cell(value) for value in row] for row in rows]
    widths = [len(h) for h in headers]
    for row in body:
        for index, value in enumerate(row):
            if index < len(widths):
                widths[index] = max(widths[index], len(value))
            else:
                widths.append(len(value))
    right_set = set(right)
    sep = " " * gap

    def line(values: Sequence[str]) -> str:
        cells = []
        for index, width in enumerate(widths):
            value = values[index] if index < len(values) else ""
            cells.append(value.rjust(width) if index in right_set else value.ljust(width))
        return sep.join(cells).rstrip()

    out = [line(list(headers))]
    out.extend(line(row) for row in body)
    return out


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else ""
    return str(value)


def _heading(text: str) -> list[str]:
    return ["", text, "-" * len(text)]


def _names(view: Mapping[str, Any]) -> dict[str, str]:
    """Seat id -> brotherhood name, from the public directory."""
    return {
        str(row.get("seat")): str(row.get("name"))
        for row in view.get("directory") or ()
        if isinstance(row, Mapping)
    }


def _region_labels(view: Mapping[str, Any]) -> dict[str, str]:
    """Region letter -> "letter name" ("H Industrial"), from the view's region table."""
    labels: dict[str, str] = {}
    for row in view.get("regions") or ():
        if isinstance(row, Mapping) and "letter" in row:
            labels[str(row["letter"])] = f"{row['letter']} {row.get('name', '')}".rstrip()
    return labels


def _region(view: Mapping[str, Any], letter: Any) -> str:
    if letter is None:
        return ""
    return _region_labels(view).get(str(letter), str(letter))


def _status(row: Mapping[str, Any]) -> str:
    gone = row.get("eliminated")
    if isinstance(gone, Mapping):
        return f"eliminated turn {gone.get('turn')} ({gone.get('phase')})"
    return str(row.get("status") or "")


def _title(view: Mapping[str, Any]) -> str:
    variant = view.get("variant")
    suffix = f" ({variant})" if variant and variant != "classic" else ""
    changes = view_changes(view)
    if changes and variant != "spy2":  # a classic game with some Spy 2 changes
        suffix = " (Spy 2 changes: " + ", ".join(
            name for name in SPY2_CHANGES if name in changes) + ")"
    return f"{TITLE}{suffix}"


def format_task(task: Mapping[str, Any] | None, names: Mapping[str, str]) -> str:
    """An executed order as a report shows it: "HUNT D brotherhood Bravo", "FOLLOW Mr Egg"."""
    if not task:
        return ""
    parts = [str(task.get("task", ""))]
    if task.get("region"):
        parts.append(str(task["region"]))
    if task.get("brotherhood"):
        seat = str(task["brotherhood"])
        parts.append(f"brotherhood {names.get(seat, seat)}")
    if task.get("leader"):
        parts.append(str(task["leader"]))
    return " ".join(parts)


# ---------------------------------------------------------------- sections


def _header(view: Mapping[str, Any], who: str) -> list[str]:
    turn = view.get("turn", 0)
    when = "setup (turn 0)" if turn == 0 else f"turn {turn}"
    lines = [f"{_title(view)} - {who} - report after {when}"]
    if view.get("price") is not None:
        lines.append(f"Declaration price = {view['price']} gp")
    return lines


def _news(view: Mapping[str, Any]) -> list[str]:
    news = list(view.get("news") or ())
    lines = _heading("News")
    lines.extend(f"  {line}" for line in news) if news else lines.append("  (no news)")
    return lines


def _declarations(view: Mapping[str, Any]) -> list[str]:
    if "declarations" not in view:
        return []
    declared = list(view.get("declarations") or ())
    lines = _heading("My declarations")
    if not declared:
        lines.append("  (none)")
        return lines
    names = _names(view)
    rows = [
        (
            str(number),
            names.get(str(d.get("brotherhood")), str(d.get("brotherhood"))),
            d.get("leader"),
            _region(view, d.get("region")),
            d.get("outcome"),
        )
        for number, d in enumerate(declared, start=1)
    ]
    lines.extend(
        "  " + text
        for text in _table(("#", "Brotherhood", "Leader", "Region", "Outcome"), rows, right=(0,))
    )
    return lines


def _me(view: Mapping[str, Any]) -> list[str]:
    me = view.get("me")
    if not isinstance(me, Mapping):
        return []
    lines = _heading(f"Your brotherhood: {me.get('name', '')}".rstrip(": "))
    lines.append(f"  Nspies = {me.get('nspies')}")
    lines.append(f"  Covertness = {me.get('covertness')}")
    lines.append(f"  GP = {me.get('gp')}")
    if "life" in me:
        lines.append(f"  Life = {me.get('life')}")
    notices = list(me.get("notices") or ())
    if notices:
        lines.append("  Notices:")
        lines.extend(f"    {notice}" for notice in notices)
    return lines


def _spies(view: Mapping[str, Any]) -> list[str]:
    spies = view.get("spies")
    if not isinstance(spies, Sequence) or isinstance(spies, str):
        return []
    names = _names(view)
    rows = [
        (
            f"#{spy.get('number')}",
            "Leader" if spy.get("leader") else "",
            spy.get("skill"),
            spy.get("at") or "",
            format_task(spy.get("task"), names),
            spy.get("result") or "",
        )
        for spy in spies
        if isinstance(spy, Mapping)
    ]
    lines = _heading("My spies")
    lines.extend(
        "  " + text
        for text in _table(("Spy", "", "Skill", "At", "Task", "Result"), rows, right=(0, 2))
    )
    return lines


def brotherhood_table(table: Mapping[str, Any]) -> list[str]:
    """The Brotherhood Report (§8.2 item 6) as aligned lines, rows in the view's order."""
    columns = [str(c) for c in table.get("columns") or REGION_LETTERS]
    headers = ["Brotherhood & Task", *columns, "Player", "Email", *_COUNT_COLUMNS]
    rows: list[list[Any]] = []
    for row in table.get("rows") or ():
        if not isinstance(row, Mapping):
            continue
        cells = row.get("cells") or {}
        values: list[Any] = [row.get("label", "")]
        values.extend(cells.get(column, "") for column in columns)
        if row.get("kind") == "brotherhood":
            values.extend(row.get(key, "") for key in ("player", "email", "spies",
                                                        "covertness", "gp"))
        rows.append(values)
    first_count = 1 + len(columns) + 2
    right = [*range(1, 1 + len(columns)), *range(first_count, first_count + 3)]
    return _table(headers, rows, right=right)


def _brotherhood_report(view: Mapping[str, Any]) -> list[str]:
    table = view.get("table")
    if not isinstance(table, Mapping):
        return []
    lines = _heading("Brotherhood Report")
    lines.extend(brotherhood_table(table))
    return lines


def _regions(view: Mapping[str, Any]) -> list[str]:
    regions = [r for r in view.get("regions") or () if isinstance(r, Mapping)]
    if not regions:
        return []
    lines = _heading("Region quick ref")
    rows = [(r.get("letter"), r.get("name"), r.get("train"), r.get("work")) for r in regions]
    lines.extend("  " + text for text in _table(("", "Region", "Train", "Work"), rows,
                                                right=(2, 3)))
    return lines


def _directory(view: Mapping[str, Any]) -> list[str]:
    rows = [
        (r.get("bid"), r.get("seat"), r.get("name"), r.get("player"), r.get("email"),
         r.get("spies"), r.get("covertness"), r.get("gp"), _status(r))
        for r in view.get("directory") or ()
        if isinstance(r, Mapping)
    ]
    if not rows:
        return []
    lines = _heading("Brotherhoods")
    headers = ("#", "Seat", "Brotherhood", "Player", "Email", "Spies", "Covertness", "gp",
               "Status")
    lines.extend("  " + text for text in _table(headers, rows, right=(0, 5, 6, 7)))
    return lines


def _game_over(view: Mapping[str, Any]) -> list[str]:
    over = view.get("game_over")
    if not isinstance(over, Mapping):
        return []
    names = _names(view)
    winners = [names.get(str(s), str(s)) for s in over.get("winners") or ()]
    lines = _heading("Game over")
    if len(winners) == 1:
        lines.append(f"  Winner: {winners[0]}")
    elif winners:
        lines.append(f"  Joint winners: {', '.join(winners)}")
    secrets = over.get("secrets") or {}
    rows = []
    for entry in over.get("standings") or ():
        seat = str(entry.get("seat"))
        secret = secrets.get(seat) or {}
        rows.append((entry.get("place"), names.get(seat, seat), secret.get("leader", ""),
                     _region(view, secret.get("base"))))
    if rows:
        lines.extend("  " + text for text in _table(("Place", "Brotherhood", "Leader", "Base"),
                                                    rows, right=(0,)))
    if over.get("seed") is not None:
        lines.append(f"  Game seed: {over['seed']}")
    return lines


# ---------------------------------------------------------------- public entry points


def render_report(view: Mapping[str, Any]) -> str:
    """A seat's turn report as plain text (the seed's sample sheet, §8.2)."""
    names = _names(view)
    seat = view.get("seat")
    me = view.get("me")
    who = str(me.get("name")) if isinstance(me, Mapping) and me.get("name") else None
    if who is None:
        who = names.get(str(seat), str(seat)) if seat is not None else "spectator"
    lines = _header(view, who)
    lines.extend(_news(view))
    lines.extend(_declarations(view))
    if seat is not None and "me" not in view and view.get("game_over") is None:
        lines.extend(["", "Your brotherhood has been eliminated; you see only public news."])
    lines.extend(_me(view))
    lines.extend(_spies(view))
    lines.extend(_brotherhood_report(view))
    lines.extend(_game_over(view))
    if "me" not in view:
        lines.extend(_directory(view))
    lines.extend(_regions(view))
    return "\n".join(lines) + "\n"


def _spy_key(key: Any) -> tuple[int, int, str]:
    """Spy numbers in numeric order (keys that are not numbers last, as text)."""
    text = str(key)
    return (0, int(text), text) if text.isdecimal() else (1, 0, text)


def _sheet_summary(sheet: Any, names: Mapping[str, str]) -> str:
    if sheet is None:
        return "no orders (no-show)"
    if not isinstance(sheet, Mapping):
        return str(sheet)
    parts = []
    spies = sheet.get("spies") or {}
    for number in sorted(spies, key=_spy_key):
        parts.append(f"#{number} {format_task(spies[number], names)}")
    for decl in sheet.get("declarations") or ():
        target = names.get(str(decl.get("brotherhood")), str(decl.get("brotherhood")))
        parts.append(f"declare {target}, {decl.get('leader')}, {decl.get('region')}")
    return "; ".join(parts) if parts else "empty sheet"


def _host_seats(view: Mapping[str, Any]) -> list[str]:
    seats = view.get("seats")
    if not isinstance(seats, Mapping):
        return []
    names = _names(view)
    rows = []
    sheets = []
    for seat, info in seats.items():
        if not isinstance(info, Mapping):
            continue
        spies = [s for s in info.get("spies") or () if isinstance(s, Mapping)]
        skills = " ".join(str(s.get("skill")) for s in spies)
        rows.append((seat, names.get(str(seat), str(seat)), info.get("leader"),
                     _region(view, info.get("base")), info.get("life", ""), len(spies), skills))
        sheets.append(f"  {seat}: {_sheet_summary(info.get('sheet'), names)}")
    lines = _heading("Seats (host only)")
    lines.extend("  " + text for text in _table(
        ("Seat", "Brotherhood", "Leader", "Base", "Life", "Spies", "Skills"), rows,
        right=(4, 5)))
    lines.extend(_heading(f"Sheets resolved in turn {view.get('turn', 0)}"))
    lines.extend(sheets)
    return lines


def render_host(view: Mapping[str, Any]) -> str:
    """The host view (§8.4), or a spectator's public view, as plain text."""
    who = "host view" if "seats" in view else "public view"
    lines = _header(view, who)
    options = view.get("options")
    if isinstance(options, Mapping) and options:
        shown = ", ".join(f"{key}={json.dumps(value, ensure_ascii=False, sort_keys=True)}"
                          for key, value in options.items())
        lines.append(f"Options: {shown}")
    lines.extend(_news(view))
    lines.extend(_directory(view))
    lines.extend(_game_over(view))
    lines.extend(_host_seats(view))
    lines.extend(_regions(view))
    return "\n".join(lines) + "\n"


def render_standings(view: Mapping[str, Any]) -> str:
    """Standings at game over, else the brotherhoods still in and those out, from public keys."""
    names = _names(view)
    directory = {str(r.get("seat")): r for r in view.get("directory") or ()
                 if isinstance(r, Mapping)}
    headers = ("Place", "Brotherhood", "Player", "Spies", "Covertness", "gp", "Status")
    over = view.get("game_over")
    rows: list[tuple[Any, ...]] = []
    if isinstance(over, Mapping):
        title = f"Final standings after turn {view.get('turn', 0)}"
        for entry in over.get("standings") or ():
            seat = str(entry.get("seat"))
            row = directory.get(seat, {})
            rows.append((entry.get("place"), names.get(seat, seat), row.get("player"),
                         row.get("spies"), row.get("covertness"), row.get("gp"),
                         _status(row)))
    else:
        title = f"Standings after turn {view.get('turn', 0)} (game not over)"
        alive = [r for r in directory.values() if r.get("status") != "eliminated"]
        gone = [r for r in directory.values() if r.get("status") == "eliminated"]

        def out_key(row: Mapping[str, Any]) -> tuple[int, int, int]:
            when = row.get("eliminated") or {}
            return (-int(when.get("turn", 0)), 0 if when.get("phase") == "D2" else 1,
                    int(row.get("bid", 0)))

        gone.sort(key=out_key)
        for row in [*alive, *gone]:
            rows.append(("-", row.get("name"), row.get("player"), row.get("spies"),
                         row.get("covertness"), row.get("gp"), _status(row)))
    lines = [title, *_table(headers, rows, right=(0, 3, 4, 5))]
    return "\n".join(lines) + "\n"


__all__ = ["brotherhood_table", "format_task", "render_host", "render_report",
           "render_standings"]
