"""Each seat's view and the host's view (spec §8), built by allow-list.

Every key is constructed from what the seat may know; nothing is copied from
the state and pruned. Pages, mails, the text report and bots read these views
and nothing else.
"""

from __future__ import annotations

from typing import Any

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
    Sheet,
    SpyLine,
    State,
    Task,
    TurnLog,
)


def _directory_row(b: Brotherhood) -> dict[str, Any]:
    return {
        "seat": b.seat, "bid": b.bid, "name": b.name, "player": b.player,
        "email": b.email if b.email is not None else "hidden",
        "spies": len(b.spies), "covertness": b.covertness, "gp": b.gp,
        "status": "surviving" if b.eliminated is None else "eliminated",
        "eliminated": None if b.eliminated is None else
        {"turn": b.eliminated.turn, "phase": b.eliminated.phase},
    }


def public_view(state: State, *, host: bool = False) -> dict[str, Any]:
    """The keys every seat and spectator sees (§8.5); ``host`` adds the setup options."""
    view: dict[str, Any] = {
        "game": "spyvsspy",
        "variant": state.options.variant,
        "options": state.options.to_json(with_setup=host),
        "turn": state.turn,
        "regions": [{"letter": REGION_VALUE[r], "name": r.info.name, "train": r.info.train,
                     "work": r.info.work} for r in REGIONS],
        "directory": [_directory_row(b) for b in state.brotherhoods],
        "news": list(state.log.news) if state.log else [],
    }
    if state.spy2_declarations:
        view["price"] = state.price
    view["game_over"] = _game_over(state)
    return view


def _game_over(state: State) -> dict[str, Any] | None:
    over = state.game_over
    if over is None:
        return None
    return {
        "winners": list(over.winners),
        "standings": [{"seat": seat, "place": place} for seat, place in over.standings],
        "secrets": {b.seat: {"leader": b.leader, "base": REGION_VALUE[b.base]}
                    for b in state.brotherhoods},
        "seed": state.seed,
    }


def _declarations(log: SeatLog | None) -> list[dict[str, str]]:
    if log is None:
        return []
    return [{"brotherhood": line.declaration.brotherhood, "leader": line.declaration.leader,
             "region": REGION_VALUE[line.declaration.region], "outcome": line.outcome}
            for line in log.declarations]


def _spy_json(line: SpyLine) -> dict[str, Any]:
    return {"number": line.number, "leader": line.leader, "skill": line.skill,
            "at": REGION_VALUE[line.at] if line.at else None, "killed": line.killed,
            "task": line.task.to_json() if line.task else None, "result": line.result}


def seat_view(state: State, seat: str) -> dict[str, Any]:
    """What ``seat`` may know after the last resolved turn (§8.2, §8.5)."""
    b = state.by_seat(seat)
    if b is None:
        raise KeyError(f"no seat {seat!r} in this game")
    view = public_view(state)
    view["seat"] = seat
    log = state.log.seats.get(seat) if state.log else None
    if b.eliminated is not None or state.game_over is not None:
        if state.log is not None and (state.game_over is not None
                                      or (b.eliminated and b.eliminated.turn == state.turn)):
            view["declarations"] = _declarations(log)
        return view
    view["secrets"] = _secrets(b)
    view["me"] = _me(state, b, log)
    view["leaders"] = sorted((x.leader for x in state.brotherhoods
                              if x.eliminated is None and x is not b), key=str.casefold)
    view["declarations"] = _declarations(log)
    view["spies"] = _spies(b, log)
    if log is None or state.log is None:
        view["table"] = None
    else:
        view["table"] = _table(state, b, state.log, log, view["directory"])
    return view


def _secrets(b: Brotherhood) -> dict[str, str]:
    return {"leader": b.leader, "base": REGION_VALUE[b.base]}


def _me(state: State, b: Brotherhood, log: SeatLog | None) -> dict[str, Any]:
    me: dict[str, Any] = {"name": b.name, "nspies": len(b.spies), "covertness": b.covertness,
                          "gp": b.gp}
    if not state.spy2_declarations:
        me["life"] = b.life
    me["notices"] = list(log.notices) if log else []
    return me


def _spies(b: Brotherhood, log: SeatLog | None) -> list[dict[str, Any]]:
    """"My spies": the last turn's lines, or the spies as they stand before turn 1."""
    if log is None:
        return [{"number": spy.number, "leader": spy.number == 1, "skill": spy.skill,
                 "at": REGION_VALUE[spy.at] if spy.at else None, "killed": False,
                 "task": None, "result": None} for spy in b.spies]
    return [_spy_json(line) for line in log.spies]


def _observed(log: SeatLog) -> set[Region]:
    """O(b): regions where a spy of b, not hiding and not killed, spent the turn."""
    return {line.at for line in log.spies
            if line.at is not None and not line.killed and line.task is not None
            and line.task.task is not Task.HIDE}


_LETTERS = tuple(REGION_VALUE[region] for region in REGIONS)
_ZEROS = dict.fromkeys(_LETTERS, 0)


def _totals_by_bid(turn: TurnLog) -> dict[int, dict[str, int]]:
    """Every region's count of visible spies by apparent ``bid``, as one row of cells per
    bid (letters in column order, 0 where none was seen). Built once per turn and kept in
    ``turn.derived``: each seat's row for a brotherhood is then a copy of this row, less
    the seat's own few spies, instead of nine look-ups per row and seat."""
    totals: dict[int, dict[str, int]] | None = turn.derived.get("totals_by_bid")
    if totals is None:
        totals = {}
        for region, counts in turn.apparent.items():
            letter = REGION_VALUE[region]
            for bid, count in counts.items():
                row = totals.get(bid)
                if row is None:
                    row = totals[bid] = dict(_ZEROS)
                row[letter] = count
        turn.derived["totals_by_bid"] = totals
    return totals


def _own_seen(log: SeatLog, observed: set[Region]
              ) -> tuple[dict[int, list[tuple[str, int]]], dict[Region, dict[Task, int]]]:
    """The seat's own visible spies in its observed regions, which its report does not
    count: (by apparent bid, the (letter, count) pairs), and per region the counts by task."""
    counts: dict[tuple[int, Region], int] = {}
    own_tasks: dict[Region, dict[Task, int]] = {r: {} for r in observed}
    for seen in log.seen:
        if seen.region in observed:
            key = (seen.apparent, seen.region)
            counts[key] = counts.get(key, 0) + 1
            tasks = own_tasks[seen.region]
            tasks[seen.task] = tasks.get(seen.task, 0) + 1
    by_bid: dict[int, list[tuple[str, int]]] = {}
    for (bid, region), count in counts.items():
        by_bid.setdefault(bid, []).append((REGION_VALUE[region], count))
    return by_bid, own_tasks


def _table(state: State, b: Brotherhood, turn: TurnLog, log: SeatLog,
           directory: list[dict[str, Any]]) -> dict[str, Any]:
    """The brotherhood report (§8.2 item 6): others' counts seen in observed columns.

    Each count is the region's total minus the seat's own visible spies, so a view
    costs one pass over the rows, not over every spy in town.
    """
    observed = _observed(log)
    own_by_bid, own_tasks = _own_seen(log, observed)
    totals = _totals_by_bid(turn)
    unseen = [REGION_VALUE[r] for r in REGIONS if r not in observed]

    def cells(bid: int) -> dict[str, int | str]:
        row: dict[str, int | str] = dict(totals.get(bid, _ZEROS))
        for letter in unseen:
            row[letter] = "?"
        for letter, count in own_by_bid.get(bid, ()):
            row[letter] -= count  # type: ignore[operator]  # an observed column: an int
        return row

    rows: list[dict[str, Any]] = []
    others = sorted((x for x in state.brotherhoods if x.eliminated is None and x is not b),
                    key=lambda x: x.name.casefold())
    for x in others:
        entry = directory[x.bid - 1]
        # the directory's keys a report's row repeats, in their order
        rows.append({"label": x.name, "kind": "brotherhood", "cells": cells(x.bid),
                     "seat": entry["seat"], "player": entry["player"],
                     "email": entry["email"], "spies": entry["spies"],
                     "covertness": entry["covertness"], "gp": entry["gp"]})
    if not state.spy2_tasks:
        rows.append({"label": DISGUISED_AS_YOU, "kind": "disguised", "cells": cells(b.bid)})
    for task in SPY2_TASK_ROWS if state.spy2_tasks else CLASSIC_TASK_ROWS:
        task_cells: dict[str, int | str] = {}
        for r in REGIONS:
            task_cells[REGION_VALUE[r]] = (turn.tasks.get(r, {}).get(task, 0)
                                           - own_tasks[r].get(task, 0)) if r in observed else "?"
        rows.append({"label": TASK_VALUE[task], "kind": "task", "cells": task_cells})
    rows.extend(_leader_rows(state, b, turn, log, observed))
    return {"columns": list(_LETTERS), "rows": rows}


def _leader_rows(state: State, b: Brotherhood, turn: TurnLog, log: SeatLog,
                 observed: set[Region]) -> list[dict[str, Any]]:
    """One row per other surviving leader, by name: ✓ where seen (spy2: §9.4 threshold)."""
    skill_sum: dict[Region, int] = {}
    if state.spy2_sightings:
        for line in log.spies:
            if line.at is not None and not line.killed and line.task is not None:
                skill_sum[line.at] = skill_sum.get(line.at, 0) + line.skill
    blank = {letter: ("" if r in observed else "?") for letter, r in zip(_LETTERS, REGIONS,
                                                                          strict=True)}
    spy2, own = state.spy2_sightings, b.bid
    rows: list[dict[str, Any]] = []
    append = rows.append
    for sighting in turn.leaders:
        if sighting.owner == own:
            continue
        leader_cells = dict(blank)
        r = sighting.region
        if r in observed and (not spy2 or skill_sum.get(r, 0) > sighting.skill):
            leader_cells[REGION_VALUE[r]] = "✓"
        append({"label": sighting.name, "kind": "leader", "cells": leader_cells})
    return rows


def host_view(state: State) -> dict[str, Any]:
    """The host's full view (§8.4): public keys with setup, and every seat's secrets and report."""
    view = public_view(state, host=True)
    sheets = state.log.sheets if state.log else {}
    seats: dict[str, Any] = {}
    for b in state.brotherhoods:
        seats[b.seat] = host_seat(b, sheets.get(b.seat))
        seats[b.seat]["report"] = seat_view(state, b.seat)
    view["seats"] = seats
    view["explain"] = explain_json(state)
    return view


def explain_json(state: State) -> dict[str, Any] | None:
    """The host's record of the last resolved turn (``TurnLog.explain``), a fresh copy;
    ``None`` before turn 1. Host only: what T7 and T9 chose and why."""
    if state.log is None:
        return None
    copied: dict[str, Any] = json_copy(state.log.explain)
    return copied


def json_copy(value: Any) -> Any:
    """A fresh copy of JSON data (lists and dicts new, the scalars as they are)."""
    if isinstance(value, dict):
        return {key: json_copy(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [json_copy(item) for item in value]
    return value


def host_seat(b: Brotherhood, sheet: Sheet | None) -> dict[str, Any]:
    """The host's entry for one seat (§8.4) without its report: secrets, spies, sheet."""
    return {
        "leader": b.leader,
        "base": REGION_VALUE[b.base],
        "life": b.life,
        "spies": [{"number": s.number, "skill": s.skill,
                   "at": REGION_VALUE[s.at] if s.at else None} for s in b.spies],
        "sheet": sheet.to_json() if sheet is not None else None,
    }
