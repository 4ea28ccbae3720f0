"""A random but always-valid player, for property tests: it reads only its own view."""

from __future__ import annotations

from typing import Any

from spyhouse.core.rng import Rng, Stream
from spyhouse.core.ruleset import Seat
from spyhouse.games.spyvsspy.model import REGIONS, SPY2_REMOVED, TASKS, Task
from spyhouse.games.spyvsspy.ruleset import SpyVsSpy

RULES = SpyVsSpy()
NAMES = ["Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf", "Hotel"]


def seats(n: int) -> list[Seat]:
    return [Seat(f"s{i}", NAMES[i - 1], f"Player {i}", f"p{i}@example.org" if i % 2 else None)
            for i in range(1, n + 1)]


def random_sheet(view: dict[str, Any], stream: Stream, *, declare: bool = True) -> dict[str, Any]:
    """Any valid sheet: every task, optional names, now and then a guess at a declaration."""
    spy2 = view["variant"] == "spy2"
    tasks = [t for t in TASKS if not (spy2 and t in SPY2_REMOVED)]
    others = [row["seat"] for row in view["directory"]
              if row["status"] == "surviving" and row["seat"] != view["seat"]]
    leaders: list[str] = view["leaders"]
    spies: dict[str, dict[str, str]] = {}
    recruits = 0
    nspies = view["me"]["nspies"]
    for spy in view["spies"]:
        if spy["killed"]:
            continue
        if stream.roll(10) == 1:
            continue  # left out: the default applies
        task = stream.choice(tasks)
        order: dict[str, str] = {"task": task.value}
        if task is Task.FOLLOW and (spy["leader"] or not leaders):
            task, order = Task.WORK, {"task": "WORK"}
        if task is Task.RECRUIT and (recruits + 1) * nspies > view["me"]["gp"]:
            task, order = Task.WORK, {"task": "WORK"}
        if task is Task.RECRUIT:
            recruits += 1
        elif task is Task.FOLLOW:
            order["leader"] = stream.choice(leaders)
        else:
            order["region"] = stream.choice(REGIONS).value
        if task in (Task.HUNT, Task.SEARCH, Task.DISGUISE) and others and stream.roll(2) == 1:
            order["brotherhood"] = stream.choice(others)
        spies[str(spy["number"])] = order
    declarations = []
    if declare and others and leaders and stream.roll(6) == 1:
        declarations.append({"brotherhood": stream.choice(others),
                             "leader": stream.choice(leaders),
                             "region": stream.choice(REGIONS).value})
    return {"spies": spies, "declarations": declarations}


def play(seed: int, players: int, turns: int, variant: str = "classic",
         declare: bool = True, no_show: int = 0) -> list[Any]:
    """States of a random game, turn 0 first; seat ``s{no_show}`` never sends orders."""
    rng = Rng(seed)
    state = RULES.setup(seats(players), {"variant": variant}, rng)
    states = [state]
    for t in range(1, turns + 1):
        if RULES.outcome(state) is not None:
            break
        sheets = {}
        for seat in sorted(RULES.awaiting(state)):
            if seat == f"s{no_show}":
                sheets[seat] = None
                continue
            view = RULES.view(state, seat)
            data = random_sheet(view, Rng(seed).stream(t, f"player:{seat}"), declare=declare)
            sheets[seat] = RULES.parse_orders(state, seat, data)
        state = RULES.resolve(state, sheets, rng)
        states.append(state)
    return states


def sheets_of(state: Any) -> dict[str, Any]:
    """The sheets resolved in the state's last turn, as record JSON."""
    return {seat: (sheet.to_json() if sheet is not None else None)
            for seat, sheet in (state.log.sheets.items() if state.log else ())}
