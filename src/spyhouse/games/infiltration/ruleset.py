"""``Infiltration``: the platform's entry point to Infiltration (the ``Ruleset`` protocol).

One resolution step is one Infiltration phase: class selection (once), then
Movement and Decision for every turn (spec §15.2).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from spyhouse.core.rng import Rng
from spyhouse.core.ruleset import CloseWhen, GameSpec, Outcome, RulesetBase, Seat, SeatId
from spyhouse.games.infiltration import orders as order_sheet
from spyhouse.games.infiltration import phases
from spyhouse.games.infiltration import resample as resampling
from spyhouse.games.infiltration import view as views
from spyhouse.games.infiltration.model import Phase, State
from spyhouse.games.infiltration.options import Options, handle_problem, parse_options
from spyhouse.games.infiltration.setup import start_state

SPEC = GameSpec(
    name="infiltration",
    title="Infiltration",
    dynamics="simultaneous",
    min_seats=6,
    max_seats=20,
    turn_cap=None,
    default_schedule={"interval_hours": 24},
    phase_deadlines=True,
)


class Infiltration(RulesetBase[State, order_sheet.Orders]):
    """Infiltration per ``shared/rules/infiltration.md``."""

    name: ClassVar[str] = "infiltration"
    spec: ClassVar[GameSpec] = SPEC
    #: Order fields the platform posts publicly as they change, with a live tally (L1).
    public_order_fields: ClassVar[frozenset[str]] = frozenset({"vote"})

    def parse_options(self, data: Mapping[str, Any]) -> Options:
        return parse_options(data)

    def setup(self, seats: Sequence[Seat], options: Mapping[str, Any], rng: Rng) -> State:
        return start_state(seats, options, rng)

    def awaiting(self, state: State) -> frozenset[SeatId]:
        return views.awaiting(state)

    def parse_orders(self, state: State, seat: SeatId, data: Any) -> order_sheet.Orders:
        return order_sheet.parse_orders(state, seat, data)

    def warnings(self, state: State, seat: SeatId, orders: order_sheet.Orders) -> list[str]:
        """Reminders about accepted orders; nothing here is a secret."""
        out: list[str] = []
        if isinstance(orders, order_sheet.DecisionOrder) and orders.vote is None:
            if state.options.phantoms:
                out.append("You have not voted: without a vote at the deadline you receive "
                           "a phantom vote.")
            else:
                out.append("You have not voted.")
        return out

    def dump_orders(self, orders: order_sheet.Orders) -> dict[str, Any]:
        return order_sheet.dump(orders)

    def default_orders(self, state: State, seat: SeatId, rng: Rng) -> order_sheet.Orders:
        """§15.2: ``{}`` in every phase; it draws nothing."""
        return order_sheet.default_for(state.phase)

    def resolve(self, state: State, orders: Mapping[SeatId, order_sheet.Orders | None],
                rng: Rng) -> State:
        return phases.resolve(state, orders, rng)

    def view(self, state: State, seat: SeatId | None) -> dict[str, Any]:
        if seat is None:
            return views.host_view(state)
        return views.seat_view(state, seat)

    def outcome(self, state: State) -> Outcome | None:
        """Winners: the winning team, the dead included; places 1 (winners) and 2."""
        if state.result is None:
            return None
        winners = tuple(state.result["winners"])
        losers_place = 1 + len(winners) if winners else 1
        standings = tuple((p.seat, 1 if p.seat in winners or not winners else losers_place)
                          for p in state.players)
        return Outcome(winners, standings)

    def public_view(self, state: State) -> dict[str, Any]:
        return views.public_view(state)

    def seat_name_problem(self, name: str, taken: Sequence[str]) -> str | None:
        return handle_problem(name, taken)

    def idle_message(self, state: State, seat: SeatId) -> str:
        if state.phase is Phase.OVER:
            return "The game is over; no orders are accepted."
        return "You are dead and can no longer give orders."

    def turn_number(self, state: State) -> int:
        return state.turn

    def ready_field(self, state: State) -> str | None:
        """§15.1: Movement and Decision orders carry READY as their ``ready`` key; the
        class phase has none (any accepted class order counts, §15.2)."""
        return "ready" if state.phase in (Phase.MOVEMENT, Phase.DECISION) else None

    def deadline_seconds(self, state: State) -> int | None:
        """The current phase's length from the options (§2); None once the game is over."""
        options = state.options
        return {Phase.CLASS: options.class_deadline, Phase.MOVEMENT: options.movement_deadline,
                Phase.DECISION: options.decision_deadline}.get(state.phase)

    def early_close(self, state: State) -> CloseWhen:
        """§2/§15.2: with ``early_close`` on, the class phase closes once every awaited seat
        has an accepted order and the other phases once every order is READY; with it off
        only the deadline closes a phase (READY is then just a note to the others)."""
        if not state.options.early_close:
            return "never"
        return "submitted" if state.phase is Phase.CLASS else "ready"

    def resample(self, state: State, seat: SeatId, rng: Rng) -> State:
        """Teams (for a Green), classes, the others' rooms, the map and the code redrawn
        where the seat's view does not show them (``resample.py``)."""
        return resampling.resample(state, seat, rng)
