"""The order sheet: parsing and validation at submission (spec §5.1, §5.3).

The whole sheet is checked against the state after the last resolved turn.
Any error refuses the whole sheet, listing every error in the spec's words;
warnings accept it. Messages name only the sheet and public facts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spyhouse.core.errors import IllegalOrderError, OrderError, OrderSyntaxError
from spyhouse.games.spyvsspy.model import (
    LEADER_NUMBER,
    SPY2_REMOVED,
    TAKES_BROTHERHOOD,
    TAKES_REGION,
    Brotherhood,
    Declaration,
    Region,
    Sheet,
    SpyOrder,
    State,
    Task,
)

_SPY_KEYS = {"task", "region", "brotherhood", "leader"}
_DECLARATION_KEYS = {"brotherhood", "leader", "region"}


class _Refused(Exception):
    """One order's first failing check (internal)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _region(text: str) -> Region | None:
    letter = text.strip().upper()
    return Region(letter) if letter in Region.__members__ else None


def _other_leaders(state: State, me: Brotherhood) -> dict[str, str]:
    """Leader names a seat may name (the other surviving leaders), keyed by casefold."""
    return {b.leader.casefold(): b.leader for b in state.brotherhoods
            if b.eliminated is None and b is not me}


def _fields(data: Any, allowed: set[str]) -> dict[str, str] | None:
    """The string fields of an order object (null = left out), or None if malformed."""
    if not isinstance(data, Mapping):
        return None
    out: dict[str, str] = {}
    for key, value in data.items():
        if key not in allowed:
            return None
        if value is None:
            continue
        if not isinstance(value, str):
            return None
        out[key] = value
    return out


def _spy_order(state: State, me: Brotherhood, number: int, data: Any,
               leaders: Mapping[str, str]) -> SpyOrder:
    """Check one spy's order, in the table order V2..V8; raise ``_Refused`` on the first fault."""
    fields = _fields(data, _SPY_KEYS)
    if fields is None or "task" not in fields:
        raise _Refused(f"spy {number}: malformed order")
    name = fields["task"].strip().upper()
    if name not in Task.__members__:
        raise _Refused(f"spy {number}: unknown task {fields['task'].strip()}")
    task = Task(name)
    if state.spy2_tasks and task in SPY2_REMOVED:
        raise _Refused(f"spy {number}: {task} is not used in this game")
    region: Region | None = None
    if task in TAKES_REGION:  # V3
        if "region" not in fields:
            raise _Refused(f"spy {number}: {task} needs a region")
        region = _region(fields["region"])
        if region is None:
            raise _Refused(f"spy {number}: unknown region {fields['region'].strip()}")
    elif "region" in fields:  # V4
        if task is Task.RECRUIT:
            raise _Refused(
                f"spy {number}: RECRUIT takes no region (it always happens in the Ghetto)")
        raise _Refused(f"spy {number}: {task} takes no region")
    if "brotherhood" in fields and task not in TAKES_BROTHERHOOD:
        raise _Refused(f"spy {number}: {task} takes no brotherhood")
    if "leader" in fields and task is not Task.FOLLOW:
        raise _Refused(f"spy {number}: {task} takes no leader")
    brotherhood = fields.get("brotherhood")
    if brotherhood is not None:
        if brotherhood == me.seat:  # V5
            if task is Task.DISGUISE:
                raise _Refused(f"spy {number}: you cannot disguise as your own brotherhood")
            raise _Refused(f"spy {number}: you cannot {task} your own brotherhood")
        target = state.by_seat(brotherhood)
        if target is None or target.eliminated is not None:  # V6
            raise _Refused(f"spy {number}: no such brotherhood")
    leader: str | None = None
    if task is Task.FOLLOW:  # V7, V8
        leader = leaders.get(fields.get("leader", "").strip().casefold())
        if leader is None:
            raise _Refused(f"spy {number}: no such leader to follow")
        if number == LEADER_NUMBER:
            raise _Refused(f"spy {number}: Leaders cannot FOLLOW")
    return SpyOrder(task, region, brotherhood, leader)


def _declaration(state: State, me: Brotherhood, k: int, data: Any,
                 seen: set[str], leaders: Mapping[str, str]) -> Declaration:
    """Check one declaration (V11..V13)."""
    fields = _fields(data, _DECLARATION_KEYS)
    if fields is None or set(fields) != _DECLARATION_KEYS:
        raise _Refused(f"declaration {k}: malformed declaration")
    seat = fields["brotherhood"]
    if seat == me.seat:
        raise _Refused(f"declaration {k}: you cannot declare on yourself")
    target = state.by_seat(seat)
    if target is None or target.eliminated is not None:
        raise _Refused(f"declaration {k}: no such brotherhood")
    if seat in seen:
        raise _Refused(f"declaration {k}: one declaration per brotherhood")
    seen.add(seat)
    leader = leaders.get(fields["leader"].strip().casefold())
    if leader is None:
        raise _Refused(f"declaration {k}: no such leader")
    region = _region(fields["region"])
    if region is None:
        raise _Refused(f"declaration {k}: unknown region {fields['region'].strip()}")
    return Declaration(seat, leader, region)


def _spy_key(key: str) -> tuple[int, int | str]:
    return (0, int(key)) if key.isdecimal() and str(int(key)) == key else (1, key)


def parse_sheet(state: State, seat: str, data: Any) -> Sheet:
    """The seat's sheet as typed orders; raise ``OrderError`` listing every error (§5.3)."""
    me = state.by_seat(seat)
    if me is None:
        raise OrderError(seat, ["no such brotherhood in this game"])
    if me.eliminated is not None or state.game_over is not None:
        raise OrderError(seat, ["your brotherhood has been eliminated"]
                         if me.eliminated is not None else ["the game is over"])
    if not isinstance(data, Mapping) or set(data) - {"spies", "declarations"}:
        raise OrderSyntaxError(seat, ["sheet: malformed orders"])
    raw_spies = data.get("spies")
    raw_declarations = data.get("declarations")
    raw_spies = {} if raw_spies is None else raw_spies  # null counts as left out
    raw_declarations = [] if raw_declarations is None else raw_declarations
    if not isinstance(raw_spies, Mapping) or not isinstance(raw_declarations, list):
        raise OrderSyntaxError(seat, ["sheet: malformed orders"])
    leaders = _other_leaders(state, me)
    numbers = {spy.number for spy in me.spies}
    errors: list[str] = []
    spies: list[tuple[int, SpyOrder]] = []
    for key in sorted((str(k) for k in raw_spies), key=_spy_key):
        number = _spy_key(key)[1]
        if not isinstance(number, int) or number not in numbers:  # V1
            errors.append(f"spy {key}: you have no spy {key}")
            continue
        try:
            spies.append((number, _spy_order(state, me, number, raw_spies[key], leaders)))
        except _Refused as refused:
            errors.append(refused.message)
    recruits = sum(1 for _, order in spies if order.task is Task.RECRUIT)
    cost = recruits * len(me.spies)
    if recruits and cost > me.gp:  # V10
        errors.append(f"RECRUIT: {recruits} recruits cost {cost} gp, you have {me.gp} gp")
    declarations: list[Declaration] = []
    seen: set[str] = set()
    for k, raw in enumerate(raw_declarations, start=1):
        try:
            declarations.append(_declaration(state, me, k, raw, seen, leaders))
        except _Refused as refused:
            errors.append(refused.message)
    if errors:
        raise IllegalOrderError(seat, errors)
    return Sheet(tuple(spies), tuple(declarations))


def sheet_warnings(state: State, seat: str, sheet: Sheet) -> list[str]:
    """Warnings for an accepted sheet (V9, V14), by spy number."""
    me = state.by_seat(seat)
    if me is None:
        return []
    warnings: list[str] = []
    for spy in me.spies:
        order = sheet.order_for(spy.number)
        if order is None:
            warnings.append(
                f"spy {spy.number} has no orders: it will WORK in a random region")
        elif order.task is Task.HIDE and spy.number == LEADER_NUMBER and order.region:
            warnings.append(
                f"spy {spy.number}: Leaders cannot HIDE, he will WORK in {order.region.label}")
    return warnings
