"""``SpyVsSpy``: the platform's entry point to Spy vs Spy (the ``Ruleset`` protocol)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from spyhouse.core.rng import Rng
from spyhouse.core.ruleset import GameSpec, Outcome, RulesetBase, Seat, SeatId, StoredViews
from spyhouse.games.spyvsspy import orders as order_sheet
from spyhouse.games.spyvsspy import resample as resampling
from spyhouse.games.spyvsspy import resolve as resolution
from spyhouse.games.spyvsspy import stored
from spyhouse.games.spyvsspy import view as views
from spyhouse.games.spyvsspy.model import Options, Sheet, State
from spyhouse.games.spyvsspy.setup import brotherhood_name_problem, parse_options, start_state

SPEC = GameSpec(
    name="spyvsspy",
    title="Spy vs Spy",
    dynamics="simultaneous",
    min_seats=2,
    max_seats=None,
    default_schedule={"weekly": {"weekday": "Wednesday", "time": "20:00",
                                 "zone": "Pacific/Auckland"}},
)


class SpyVsSpy(RulesetBase[State, Sheet]):
    """Spy vs Spy per ``shared/rules/spy-vs-spy.md``."""

    name: ClassVar[str] = "spyvsspy"
    spec: ClassVar[GameSpec] = SPEC
    mailed_only_keys: ClassVar[frozenset[str]] = frozenset({"secrets"})
    seat_setup_keys: ClassVar[Mapping[str, str]] = {"base": "bases"}
    host_seat_view_key: ClassVar[str | None] = "report"

    def parse_options(self, data: Mapping[str, Any]) -> Options:
        return parse_options(data)

    def setup(self, seats: Sequence[Seat], options: Mapping[str, Any], rng: Rng) -> State:
        return start_state(seats, parse_options(options), rng)

    def awaiting(self, state: State) -> frozenset[SeatId]:
        if state.game_over is not None:
            return frozenset()
        return frozenset(b.seat for b in state.brotherhoods if b.eliminated is None)

    def parse_orders(self, state: State, seat: SeatId, data: Any) -> Sheet:
        return order_sheet.parse_sheet(state, seat, data)

    def warnings(self, state: State, seat: SeatId, orders: Sheet) -> list[str]:
        return order_sheet.sheet_warnings(state, seat, orders)

    def dump_orders(self, orders: Sheet) -> dict[str, Any]:
        return orders.to_json()

    def default_orders(self, state: State, seat: SeatId, rng: Rng) -> Sheet | None:
        """The no-show sheet is ``None``: its regions are drawn in S3 (§5.1)."""
        return None

    def resolve(self, state: State, orders: Mapping[SeatId, Sheet | None], rng: Rng) -> State:
        return resolution.resolve_turn(state, orders, rng)

    def view(self, state: State, seat: SeatId | None) -> dict[str, Any]:
        if seat is None:
            return views.host_view(state)
        return views.seat_view(state, seat)

    def stored_views(self, state: State, seats: Sequence[SeatId]) -> StoredViews:
        """The town's table and directory once, each seat's own keys and counts apart."""
        return stored.stored_views(state, seats)

    def joined_view(self, shared: Mapping[str, Any], part: Mapping[str, Any]) -> dict[str, Any]:
        return stored.joined_view(shared, part)

    def resample(self, state: State, seat: SeatId, rng: Rng) -> State:
        """Another world ``seat`` cannot tell apart (``resample.py`` says what is redrawn)."""
        return resampling.resample(state, seat, rng)

    def outcome(self, state: State) -> Outcome | None:
        if state.game_over is None:
            return None
        return Outcome(state.game_over.winners, state.game_over.standings)

    def public_view(self, state: State) -> dict[str, Any]:
        return views.public_view(state)

    def seat_range(self, options: Options) -> tuple[int, int | None]:
        """§2: the host's ``min_players`` and ``max_players``."""
        return max(self.spec.min_seats, options.min_players), options.max_players

    def seat_name_problem(self, name: str, taken: Sequence[str]) -> str | None:
        return brotherhood_name_problem(name, taken)

    def idle_message(self, state: State, seat: SeatId) -> str:
        """V15: the platform refuses sheets of an eliminated seat with this text."""
        if state.game_over is not None:
            return "the game is over"
        return "your brotherhood has been eliminated"

    def turn_number(self, state: State) -> int:
        return state.turn
