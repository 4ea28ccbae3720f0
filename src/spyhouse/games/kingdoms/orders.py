"""Order JSON (C.1), row shapes (C.2) and the parse-time checks with their exact messages (C.3).

Parse-time checks use only the map, the seat list, K, the options and the public
elimination list, never the hidden state, so a refusal can never leak a secret.
The first failing check refuses the whole order set.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from spyhouse.core.errors import IllegalOrderError, OrderError, OrderSyntaxError
from spyhouse.games.kingdoms.maps import Map
from spyhouse.games.kingdoms.model import (
    AGENT_TYPES,
    MAX_COUNT,
    SPECIAL_MOVES,
    Action,
    Orders,
    Row,
    State,
)

ROW_KEYS = ("action", "from", "to", "extra")
ACTION_NAMES = frozenset(a.value for a in Action)
WAITER_NAMES = frozenset(t.value for t in AGENT_TYPES)

#: What a field holds: an area, a country, nothing, or (extra) a waiter / a count.
Field = Literal["area", "country", "blank"]
Extra = Literal["blank", "waiter", "count"]


@dataclass(frozen=True, slots=True)
class Shape:
    """C.2: the kinds of FROM, TO and EXTRA and which of FROM/TO are required."""

    frm: Field
    to: Field
    extra: Extra
    need_from: bool = False
    need_to: bool = False


SHAPES: dict[Action, Shape] = {
    Action.SPY: Shape("area", "area", "blank"),
    Action.SKIP: Shape("area", "area", "blank", need_to=True),
    Action.SPYCAT: Shape("area", "area", "blank"),
    Action.MOLE: Shape("area", "area", "blank"),
    Action.MOLECAT: Shape("area", "area", "blank"),
    Action.FIND: Shape("area", "country", "blank"),
    Action.KILL: Shape("area", "country", "blank", need_from=True, need_to=True),
    Action.WAIT: Shape("blank", "country", "waiter", need_to=True),
    Action.SABOTAGE: Shape("blank", "blank", "blank"),
    Action.WATCH: Shape("blank", "blank", "blank"),
    Action.RAISE: Shape("area", "blank", "count", need_from=True),
    Action.MOVE: Shape("area", "area", "count", need_from=True, need_to=True),
}


class KingdomsOrderError(OrderError):
    """C.3: ``OrderError(seat, index, message)``; ``index`` is 1-based or ``None``."""

    def __init__(self, seat: str | None, index: int | None, message: str) -> None:
        super().__init__(seat, [message])
        self.index = index
        self.message = message


class OrdersShapeError(KingdomsOrderError, OrderSyntaxError):
    """The order object or a row is not of the C.1 shape."""


class RowError(KingdomsOrderError, IllegalOrderError):
    """A well-formed row breaks a C.2 rule."""


def _blank(value: Any) -> Any:
    """C.1: an empty string in any field counts as ``null``."""
    return None if value == "" else value


@dataclass(slots=True)
class _RowCheck:
    """Checks one row in the order of C.3's table."""

    state: State
    seat: str
    me: str
    index: int
    action: Action
    frm: Any
    to: Any
    extra: Any

    def fail(self, message: str) -> RowError:
        text = f"action {self.index}: {self.action.value}: {message}"
        return RowError(self.seat, self.index, text)

    @property
    def map(self) -> Map:
        return self.state.map

    def run(self) -> Row:
        shape = SHAPES[self.action]
        fields = (("FROM", self.frm, shape.frm), ("TO", self.to, shape.to))
        for name, value, _ in fields:
            if value is not None and not isinstance(value, str):
                raise self.fail(f"{name} must be text or blank")
        if shape.need_from and self.frm is None:
            raise self.fail("FROM is required")
        if shape.need_to and self.to is None:
            raise self.fail("TO is required")
        for name, value, kind in fields:
            if kind == "blank" and value is not None:
                raise self.fail(f"{name} must be blank")
        if shape.extra == "blank" and self.extra is not None:
            raise self.fail("EXTRA must be blank")
        self.either_field()
        self.known_fields(fields)
        self.geometry()
        return Row(self.action, self.frm, self.to, self.extra_value(shape.extra))

    def either_field(self) -> None:
        if self.action in (Action.SPY, *SPECIAL_MOVES) and self.frm is None and self.to is None:
            raise self.fail("TO is required (or FROM to recruit)")
        if self.action is Action.FIND and (self.frm is None) == (self.to is None):
            raise self.fail("give either FROM (an area) or TO (a country)")

    def known_fields(self, fields: tuple[tuple[str, Any, Field], ...]) -> None:
        areas = [value for _, value, kind in fields if kind == "area" and value is not None]
        countries = [value for _, value, kind in fields if kind == "country" and value is not None]
        for value in areas:
            if value not in self.map.area:
                raise self.fail(f'unknown area "{value}"')
        for value in areas:
            if not self.map.area[value].land:
                raise self.fail(f"{value} is a sea area")
        for value in countries:
            if value not in self.state.countries:
                raise self.fail(f'unknown country "{value}"')
        for value in countries:
            if value == self.me:
                raise self.fail(f"{value} is your own country")
        for value in countries:
            if self.state.countries[value].eliminated is not None:
                raise self.fail(f"{value} has been eliminated")

    def geometry(self) -> None:
        if SHAPES[self.action].to != "area" or self.frm is None or self.to is None:
            return
        frm, to = self.frm, self.to
        if frm == to:
            raise self.fail("FROM and TO are the same area")
        adjacent = self.map.adjacent(frm, to)
        if self.action is Action.SPY and not adjacent:
            raise self.fail(f"{to} is not adjacent to {frm} (use SKIP for sea moves)")
        if self.action is Action.MOVE and not adjacent:
            raise self.fail(f"{to} is not adjacent to {frm}")
        if self.action is Action.SKIP:
            if adjacent:
                raise self.fail(f"{to} is adjacent to {frm} (use SPY)")
            if self.map.sea_cost(frm, to) is None:
                raise self.fail(f"no sea route from {frm} to {to}")
        if (self.action in SPECIAL_MOVES and not adjacent
                and self.map.sea_cost(frm, to) is None):
            raise self.fail(f"no land or sea route from {frm} to {to}")

    def extra_value(self, kind: Extra) -> str | int | None:
        extra = self.extra
        if kind == "waiter":
            if extra is None:
                return None
            if isinstance(extra, str) and extra.upper() in WAITER_NAMES:
                return extra.upper()
            raise self.fail("EXTRA must be blank, SPY, SPYCAT, MOLE or MOLECAT")
        if kind == "count":
            if extra is None:
                return None
            if isinstance(extra, int) and not isinstance(extra, bool) and 1 <= extra <= MAX_COUNT:
                return extra
            raise self.fail(f"EXTRA must be a whole number from 1 to {MAX_COUNT}")
        return None


def _action_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def parse_row(state: State, seat: str, me: str, index: int, raw: Any) -> Row:
    """One row (C.2) of ``seat``, playing country ``me``; raises on the first problem."""
    if not isinstance(raw, Mapping):
        raise OrdersShapeError(seat, index, f"action {index}: expected an object with action, "
                                          "from, to, extra")
    unknown = sorted(str(key) for key in raw if key not in ROW_KEYS)
    if unknown:
        raise OrdersShapeError(seat, index, f'action {index}: unknown field "{unknown[0]}"')
    action = _blank(raw.get("action"))
    if action is None:
        raise OrdersShapeError(seat, index, f"action {index}: ACTION is required")
    if not isinstance(action, str) or action.upper() not in ACTION_NAMES:
        raise OrdersShapeError(seat, index,
                               f'action {index}: unknown action "{_action_text(action)}"')
    check = _RowCheck(state, seat, me, index, Action(action.upper()), _blank(raw.get("from")),
                      _blank(raw.get("to")), _blank(raw.get("extra")))
    return check.run()


def parse_orders(state: State, seat: str, data: Any) -> Orders:
    """C.1-C.3: the orders of ``seat`` for the turn awaiting orders."""
    if not isinstance(data, Mapping) or not isinstance(data.get("actions"), list):
        raise OrdersShapeError(seat, None, 'orders: expected an object with an "actions" list')
    unknown = sorted(str(key) for key in data if key != "actions")
    if unknown:
        raise OrdersShapeError(seat, None, f'orders: unknown field "{unknown[0]}"')
    if state.outcome is not None:
        raise RowError(seat, None, "orders: the game is over")
    country = state.country_of(seat)
    if country is None:
        raise RowError(seat, None, "orders: no such seat in this game")
    if country.eliminated is not None:
        raise RowError(seat, None, "orders: your country has been eliminated")
    rows = data["actions"]
    limit = state.options.actions_per_turn
    if len(rows) > limit:
        raise RowError(seat, None, f"orders: at most {limit} actions per turn (got {len(rows)})")
    parsed: list[Row] = []
    moves = 0
    for index, raw in enumerate(rows, start=1):
        row = parse_row(state, seat, country.id, index, raw)
        if row.action is Action.MOVE:
            moves += 1
            if moves > state.options.max_moves:
                raise RowError(seat, index, f"action {index}: MOVE: at most "
                                            f"{state.options.max_moves} MOVE actions per turn")
        parsed.append(row)
    return Orders(tuple(parsed))
