"""``SpyOrLie``: the platform's entry point to Spy or Lie (the ``Ruleset`` protocol, DF3)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from spyhouse.core.rng import Rng
from spyhouse.core.ruleset import GameSpec, Outcome, RulesetBase, Seat, SeatId
from spyhouse.games.spyorlie import orders as move_orders
from spyhouse.games.spyorlie import resample as resampling
from spyhouse.games.spyorlie import view as views
from spyhouse.games.spyorlie.game import (
    GameState,
    Options,
    Order,
    parse_options,
    resolve_entry,
    start_state,
)

SPEC = GameSpec(
    name="spyorlie",
    title="Spy or Lie",
    dynamics="alternating",
    min_seats=2,
    max_seats=2,
    default_schedule="all_submitted",
)


class SpyOrLie(RulesetBase[GameState, Order]):
    """Spy or Lie per ``shared/rules/spy-or-lie.md``."""

    name: ClassVar[str] = "spyorlie"
    spec: ClassVar[GameSpec] = SPEC
    #: Order keys only the platform writes (DF2: ``ai`` on computer moves); stripped from
    #: every person's submission before ``parse_orders``.
    platform_order_keys: ClassVar[frozenset[str]] = frozenset({"ai"})

    def parse_options(self, data: Mapping[str, Any]) -> Options:
        return parse_options(data)

    def setup(self, seats: Sequence[Seat], options: Mapping[str, Any], rng: Rng) -> GameState:
        """Empty board, full hands, BLUE to move; no randomness (RND1)."""
        return start_state(seats, parse_options(options))

    def awaiting(self, state: GameState) -> frozenset[SeatId]:
        p = state.position
        if p.over:
            return frozenset()
        return frozenset((state.seats[p.to_move_i],))

    def parse_orders(self, state: GameState, seat: SeatId, data: Any) -> Order:
        return move_orders.parse_orders(state, seat, data)

    def warnings(self, state: GameState, seat: SeatId, orders: Order) -> list[str]:
        return []

    def dump_orders(self, orders: Order) -> dict[str, Any]:
        return orders.to_json()

    def default_orders(self, state: GameState, seat: SeatId, rng: Rng) -> Order | None:
        """DF4 (D40); ``None`` when ``seat`` is not awaited."""
        if seat not in self.awaiting(state):
            return None
        return move_orders.default_order(state, rng)

    def resolve(self, state: GameState, orders: Mapping[SeatId, Order | None],
                rng: Rng) -> GameState:
        """APPLY the awaited seat's move (its DF4 default when ``None``), then forced passes."""
        p = state.position
        if p.over:
            return state
        order = orders.get(state.seats[p.to_move_i])  # the one seat awaited
        if order is None:
            order = move_orders.default_order(state, rng)
        return resolve_entry(state, order)

    def view(self, state: GameState, seat: SeatId | None) -> dict[str, Any]:
        if seat is None:
            return views.host_view(state)
        colour = state.colour_of(seat)
        if colour is None:
            return views.public_view(state)
        return views.seat_view(state, colour)

    def outcome(self, state: GameState) -> Outcome | None:
        if not state.position.over:
            return None
        winners, standings = views.standings_of(state)
        return Outcome(winners, standings)

    def public_view(self, state: GameState) -> dict[str, Any]:
        return views.public_view(state)

    def seat_name_problem(self, name: str, taken: Sequence[str]) -> str | None:
        """A seat's public name: 1 to 40 printable characters, unique in the game."""
        name = name.strip()
        if not 1 <= len(name) <= 40:
            return "a name has 1 to 40 characters"
        if not name.isprintable():
            return "a name may hold only printable characters"
        if name.casefold() in {other.strip().casefold() for other in taken}:
            return f"the name {name} is taken in this game"
        return None

    def idle_message(self, state: GameState, seat: SeatId) -> str:
        if state.position.over:
            return "the game is over"
        return "it is not your move"

    def turn_number(self, state: GameState) -> int:
        """The ply: completed turns, passes included (§4.2)."""
        return state.position.ply

    def resample(self, state: GameState, seat: SeatId, rng: Rng) -> GameState:
        """The opponent's unseen faces dealt anew over its face-down agents and hand."""
        return resampling.resample(state, seat, rng)
