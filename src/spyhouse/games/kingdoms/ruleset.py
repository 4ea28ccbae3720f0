"""``Kingdoms``: the platform's entry point to Kingdoms (the ``Ruleset`` protocol).

This is the one layer that reads a file: the shipped maps (``maps/*.toml``) are
package data, read once through ``importlib.resources`` and handed to the pure
rules as data (DESIGN "purity"). A custom map travels whole in the options.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from importlib import resources
from typing import Any, ClassVar

from spyhouse.core.rng import Rng
from spyhouse.core.ruleset import GameSpec, Outcome, RulesetBase, Seat, SeatId
from spyhouse.games.kingdoms import orders as order_rows
from spyhouse.games.kingdoms import resample as resampling
from spyhouse.games.kingdoms import resolve as resolution
from spyhouse.games.kingdoms import view as views
from spyhouse.games.kingdoms.maps import Map, load_map
from spyhouse.games.kingdoms.model import Options, Orders, State
from spyhouse.games.kingdoms.setup import parse_options, start_state

SPEC = GameSpec(
    name="kingdoms",
    title="Kingdoms",
    dynamics="simultaneous",
    min_seats=3,
    max_seats=6,
    turn_cap=20,
    default_schedule={"interval_hours": 48},
)
SEAT_NAME_MAX = 40


@functools.cache
def builtin_maps() -> Mapping[str, Map]:
    """The maps shipped with the package, by id (file name without ``.toml``)."""
    folder = resources.files("spyhouse.games.kingdoms") / "maps"
    found: dict[str, Map] = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".toml"):
            found[entry.name.removesuffix(".toml")] = load_map(entry.read_text("utf-8"))
    return found


class Kingdoms(RulesetBase[State, Orders]):
    """Kingdoms per ``shared/rules/kingdoms.md``."""

    name: ClassVar[str] = "kingdoms"
    spec: ClassVar[GameSpec] = SPEC

    def parse_options(self, data: Mapping[str, Any]) -> Options:
        return parse_options(data, builtin_maps())

    def setup(self, seats: Sequence[Seat], options: Mapping[str, Any], rng: Rng) -> State:
        """D.1: no randomness is drawn at setup."""
        return start_state(seats, options, builtin_maps())

    def awaiting(self, state: State) -> frozenset[SeatId]:
        if state.outcome is not None:
            return frozenset()
        return frozenset(c.seat for c in state.alive())

    def parse_orders(self, state: State, seat: SeatId, data: Any) -> Orders:
        return order_rows.parse_orders(state, seat, data)

    def check_messages(self, state: State, seat: SeatId, data: Any) -> list[str]:
        """Every row's parse-time message (C.3), not only the first that ``parse_orders``
        refuses with, so a page shows each failing row's as the player types; then the
        list's own (too many rows, the MOVE cap). Parse-time checks read only public data."""
        by_row: dict[int, str] = {}
        general: list[str] = []
        country = state.country_of(seat)
        rows = data.get("actions") if isinstance(data, Mapping) else None
        if (country is not None and country.eliminated is None and state.outcome is None
                and isinstance(rows, list)):
            for index, raw in enumerate(rows, start=1):
                try:
                    order_rows.parse_row(state, seat, country.id, index, raw)
                except order_rows.KingdomsOrderError as exc:
                    by_row[index] = exc.message
        try:
            self.parse_orders(state, seat, data)
        except order_rows.KingdomsOrderError as exc:
            if exc.index is None:
                general.append(exc.message)
            else:
                by_row.setdefault(exc.index, exc.message)
        return [*general, *(by_row[index] for index in sorted(by_row))]

    def warnings(self, state: State, seat: SeatId, orders: Orders) -> list[str]:
        return []

    def dump_orders(self, orders: Orders) -> dict[str, Any]:
        return orders.to_json()

    def default_orders(self, state: State, seat: SeatId, rng: Rng) -> Orders:
        """C.4.5: a no-show does nothing; standing WAITs stay."""
        return Orders(())

    def resolve(self, state: State, orders: Mapping[SeatId, Orders | None], rng: Rng) -> State:
        return resolution.resolve_turn(state, orders, rng)

    def view(self, state: State, seat: SeatId | None) -> dict[str, Any]:
        if seat is None:
            return views.host_view(state)
        return views.seat_view(state, seat)

    def resample(self, state: State, seat: SeatId, rng: Rng) -> State:
        """Another world ``seat`` cannot tell apart (``resample.py`` says what is redrawn)."""
        return resampling.resample(state, seat, rng)

    def outcome(self, state: State) -> Outcome | None:
        if state.outcome is None:
            return None
        seat = {c.id: c.seat for c in state.countries.values()}
        return Outcome(tuple(seat[c] for c in state.outcome.winners),
                       tuple((seat[c], rank) for c, rank in state.outcome.ranking))

    def public_view(self, state: State) -> dict[str, Any]:
        return views.public_view(state)

    def seat_name_problem(self, name: str, taken: Sequence[str]) -> str | None:
        """A seat's public name: 1 to 40 printable characters, not already taken."""
        name = name.strip()
        if not 1 <= len(name) <= SEAT_NAME_MAX:
            return f"a name has 1 to {SEAT_NAME_MAX} characters"
        if not name.isprintable():
            return "a name may hold only printable characters"
        if name.casefold() in {other.strip().casefold() for other in taken}:
            return f"{name} is already taken in this game"
        return None

    def idle_message(self, state: State, seat: SeatId) -> str:
        """C.3: why a seat that is not awaited cannot give orders now."""
        if state.outcome is not None:
            return "the game is over"
        return "your country has been eliminated"

    def turn_number(self, state: State) -> int:
        """The number of resolved turns (the view's ``turn`` once the game is over)."""
        return state.resolved
