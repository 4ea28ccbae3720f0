"""Spy vs Spy's views stored in parts (issue 12): shared once per entry, a small part each.

At a thousand brotherhoods each seat's view is mostly the same two things: the public
keys (the directory) and the Brotherhood Report, whose rows are every other brotherhood
and every other leader. The platform stores an entry's views as ``StoredViews``:

- ``shared``, once per entry, O(brotherhoods + spies): the public view, the surviving
  leaders' names, and what the reports are made from (per region: the counts of visible
  spies by apparent ``bid`` and by task; the leaders' sightings; the surviving
  brotherhoods in the report's order). It holds what no single seat may know (who leads
  which brotherhood, where), so it is never served, only joined;
- each seat's part, O(its own spies): seat id, secrets, ``me``, declarations, spies and,
  for its report, its ``bid`` and its own visible spies' counts in each region it
  observed (and, in spy2, their skills there): the report's cells are the totals less
  those;
- the host's part: the setup options, ``seats`` without the reports (each is that
  seat's own part), built in O(brotherhoods + spies), never seat by seat, and ``explain``,
  the host's bounded record of how the turn was resolved.

``joined_view(shared, part)`` is exactly ``seat_view`` (or ``host_view`` without the
reports), keys in the same order, after a JSON round trip of both: every key of a dict
here is a string, and whatever is indexed by ``bid`` is a list.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from spyhouse.core.ruleset import StoredViews
from spyhouse.games.spyvsspy.model import (
    CLASSIC_TASK_ROWS,
    DISGUISED_AS_YOU,
    REGION_VALUE,
    REGIONS,
    SPY2_TASK_ROWS,
    TASK_VALUE,
    Brotherhood,
    Region,
    SeatLog,
    State,
    Task,
    view_changes,
)
from spyhouse.games.spyvsspy.view import (
    _LETTERS,
    _declarations,
    _me,
    _observed,
    _secrets,
    _spies,
    explain_json,
    host_seat,
    public_view,
)

#: The layout of ``shared`` and the parts; a join refuses any other.
FORMAT = 1


def stored_views(state: State, seats: Sequence[str]) -> StoredViews:
    """Every view of ``state`` in parts: ``shared`` once, ``parts[seat]``, ``parts[None]``."""
    parts: dict[str | None, dict[str, Any]] = {seat: seat_part(state, seat) for seat in seats}
    parts[None] = host_part(state)
    return StoredViews(shared_part(state), parts)


# ------------------------------------------------------------------ storing


def shared_part(state: State) -> dict[str, Any]:
    """What every view of the entry is joined from, O(brotherhoods + spies)."""
    surviving = [b for b in state.brotherhoods if b.eliminated is None]
    shared: dict[str, Any] = {
        "format": FORMAT,
        "public": public_view(state),
        # every surviving leader, as the views sort them: a seat's ``leaders`` is this
        # less its own (the sort is stable, so removing one keeps the others' order)
        "leaders": sorted((b.leader for b in surviving), key=str.casefold),
        "table": None,
    }
    turn = state.log
    if turn is None or state.game_over is not None:
        return shared
    size = len(state.brotherhoods) + 1
    apparent = []
    for r in REGIONS:
        counts = [0] * size  # by bid; 0 is no brotherhood's
        for bid, count in turn.apparent.get(r, {}).items():
            counts[bid] = count
        apparent.append(counts)
    shared["table"] = {
        # the report's brotherhood rows, by name (a seat's rows are these less its own)
        "order": [b.bid for b in sorted(surviving, key=lambda x: x.name.casefold())],
        "apparent": apparent,
        "tasks": [{TASK_VALUE[task]: count for task, count in turn.tasks.get(r, {}).items()}
                  for r in REGIONS],
        "leaders": [[s.owner, s.name, REGION_VALUE[s.region], s.skill] for s in turn.leaders],
    }
    return shared


def seat_part(state: State, seat: str) -> dict[str, Any]:
    """``seat``'s own keys of its view, and its own spies' counts for its report."""
    b = state.by_seat(seat)
    if b is None:
        raise KeyError(f"no seat {seat!r} in this game")
    part: dict[str, Any] = {"seat": seat}
    log = state.log.seats.get(seat) if state.log else None
    if b.eliminated is not None or state.game_over is not None:
        if state.log is not None and (state.game_over is not None
                                      or (b.eliminated and b.eliminated.turn == state.turn)):
            part["declarations"] = _declarations(log)
        return part
    part["secrets"] = _secrets(b)
    part["me"] = _me(state, b, log)
    part["declarations"] = _declarations(log)
    part["spies"] = _spies(b, log)
    part["table"] = None if log is None or state.log is None else _own_counts(state, b, log)
    return part


def _own_counts(state: State, b: Brotherhood, log: SeatLog) -> dict[str, Any]:
    """Per observed region: the seat's own visible spies by apparent bid and by task
    (spy2: the skills of its spies there, for the leader threshold)."""
    observed = _observed(log)
    apparent: dict[Region, dict[int, int]] = {r: {} for r in observed}
    tasks: dict[Region, dict[Task, int]] = {r: {} for r in observed}
    for seen in log.seen:
        counts = apparent.get(seen.region)
        if counts is not None:
            counts[seen.apparent] = counts.get(seen.apparent, 0) + 1
            by_task = tasks[seen.region]
            by_task[seen.task] = by_task.get(seen.task, 0) + 1
    skill: dict[Region, int] = {}
    if state.spy2_sightings:
        for line in log.spies:
            if line.at is not None and not line.killed and line.task is not None:
                skill[line.at] = skill.get(line.at, 0) + line.skill
    regions = []
    for r in REGIONS:
        if r in observed:
            entry: dict[str, Any] = {
                "region": REGION_VALUE[r],
                "apparent": [[bid, n] for bid, n in apparent[r].items()],
                "tasks": {TASK_VALUE[task]: n for task, n in tasks[r].items()}}
            if state.spy2_sightings:
                entry["skill"] = skill.get(r, 0)
            regions.append(entry)
    return {"bid": b.bid, "observed": regions}


def host_part(state: State) -> dict[str, Any]:
    """The host's view less the reports, less the public keys ``shared`` has."""
    sheets = state.log.sheets if state.log else {}
    return {"options": state.options.to_json(with_setup=True),
            "seats": {b.seat: host_seat(b, sheets.get(b.seat)) for b in state.brotherhoods},
            "explain": explain_json(state)}


# ------------------------------------------------------------------ joining


def joined_view(shared: Mapping[str, Any], part: Mapping[str, Any]) -> dict[str, Any]:
    """The view ``part`` stands for, as fresh data (nothing of ``shared`` or ``part`` is
    shared with it, so a caller may change it)."""
    if shared.get("format") != FORMAT:
        raise ValueError(f"not a stored Spy vs Spy entry (format {shared.get('format')!r})")
    public = shared["public"]
    if "seat" not in part:  # the host's
        view = {key: _copy(part["options"]) if key == "options" else _PUBLIC.get(key, _copy)(value)
                for key, value in public.items()}
        view["seats"] = {seat: _host_seat(info) for seat, info in part["seats"].items()}
        view["explain"] = _copy(part.get("explain"))
        return view
    view = {key: _PUBLIC.get(key, _copy)(value) for key, value in public.items()}
    view["seat"] = part["seat"]
    if "secrets" not in part:  # eliminated, or the game is over
        if "declarations" in part:
            view["declarations"] = _copy(part["declarations"])
        return view
    secrets = part["secrets"]
    view["secrets"] = dict(secrets)
    view["me"] = {**part["me"], "notices": list(part["me"]["notices"])}
    leaders: list[str] = shared["leaders"]
    mine = leaders.index(secrets["leader"])
    view["leaders"] = leaders[:mine] + leaders[mine + 1:]
    view["declarations"] = _copy(part["declarations"])
    view["spies"] = [{**line, "task": None if line["task"] is None else dict(line["task"])}
                     for line in part["spies"]]
    own = part["table"]
    view["table"] = None if own is None else _table(
        shared["table"], own, view["directory"], view_changes(public))
    return view


def _table(table: Mapping[str, Any], own: Mapping[str, Any],
           directory: list[dict[str, Any]], changes: frozenset[str]) -> dict[str, Any]:
    """``view._table`` from the totals less the seat's own counts."""
    spy2_tasks, spy2_sightings = "tasks" in changes, "sightings" in changes
    bid: int = own["bid"]
    observed: dict[str, Mapping[str, Any]] = {entry["region"]: entry
                                              for entry in own["observed"]}
    totals: list[list[int]] = table["apparent"]
    counted = [(letter, totals[i], {int(x): n for x, n in observed[letter]["apparent"]})
               for i, letter in enumerate(_LETTERS) if letter in observed]
    unseen = {letter: "?" for letter in _LETTERS}

    def cells(x: int) -> dict[str, int | str]:
        row: dict[str, int | str] = dict(unseen)
        for letter, total, mine in counted:
            row[letter] = total[x] - mine.get(x, 0)
        return row

    rows: list[dict[str, Any]] = []
    for x in table["order"]:
        if x == bid:
            continue
        e = directory[x - 1]
        rows.append({"label": e["name"], "kind": "brotherhood", "cells": cells(x),
                     "seat": e["seat"], "player": e["player"], "email": e["email"],
                     "spies": e["spies"], "covertness": e["covertness"], "gp": e["gp"]})
    if not spy2_tasks:
        rows.append({"label": DISGUISED_AS_YOU, "kind": "disguised", "cells": cells(bid)})
    tasks: list[Mapping[str, int]] = table["tasks"]
    for task in SPY2_TASK_ROWS if spy2_tasks else CLASSIC_TASK_ROWS:
        name = TASK_VALUE[task]
        task_cells: dict[str, int | str] = {}
        for i, letter in enumerate(_LETTERS):
            entry = observed.get(letter)
            task_cells[letter] = ("?" if entry is None
                                  else tasks[i].get(name, 0) - entry["tasks"].get(name, 0))
        rows.append({"label": name, "kind": "task", "cells": task_cells})
    blank = {letter: "" if letter in observed else "?" for letter in _LETTERS}
    for owner, name, letter, skill in table["leaders"]:
        if owner == bid:
            continue
        leader_cells = dict(blank)
        entry = observed.get(letter)
        if entry is not None and (not spy2_sightings or entry["skill"] > skill):
            leader_cells[letter] = "✓"
        rows.append({"label": name, "kind": "leader", "cells": leader_cells})
    return {"columns": list(_LETTERS), "rows": rows}


def _host_seat(info: Mapping[str, Any]) -> dict[str, Any]:
    """A fresh copy of the host's entry for a seat (``view.host_seat``), by its layout:
    four times as fast as ``_copy`` at a thousand seats of fifty spies."""
    sheet = info["sheet"]
    return {**info, "spies": [dict(spy) for spy in info["spies"]],
            "sheet": None if sheet is None else {
                "spies": {number: dict(order) for number, order in sheet["spies"].items()},
                "declarations": [dict(line) for line in sheet["declarations"]]}}


def _directory(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A fresh copy of the directory (its one nested value is ``eliminated``)."""
    return [{**row, "eliminated": None if row["eliminated"] is None else
             dict(row["eliminated"])} for row in rows]


def _rows(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [dict(row) for row in rows]


#: Fresh copies of the public keys by their layout (``view.public_view``), faster than
#: ``_copy`` (the directory, the news); ``_copy`` for the others.
_PUBLIC: dict[str, Callable[[Any], Any]] = {
    "options": dict, "regions": _rows, "directory": _directory, "news": list}


def _copy(value: Any) -> Any:
    """A fresh copy of JSON data (lists and dicts new, the scalars as they are)."""
    if isinstance(value, dict):
        return {key: _copy(item) if isinstance(item, dict | list | tuple) else item
                for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_copy(item) if isinstance(item, dict | list | tuple) else item
                for item in value]
    return value
