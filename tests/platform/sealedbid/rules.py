"""Sealed Bid: a tiny test-only game that proves the platform takes a fifth game unchanged.

Two to four bidders each hold a secret budget. Each round every bidder secretly bids a
whole number from what is left for the round's prize; the one highest bid wins it (a
tie: nobody), and every bid is spent. After the last round the most prize points win.
A seat's view holds its own budget and bids and the public results (who won each
round, never a losing bid); the host view holds everything. No randomness is needed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from spyhouse.core.errors import OptionsError, OrderError
from spyhouse.core.rng import Rng
from spyhouse.core.ruleset import GameSpec, Outcome, RulesetBase, Seat, SeatId

BUDGET = 100
PRIZES = (10, 20, 30, 40, 50)
SPEC = GameSpec(name="sealedbid", title="Sealed Bid", dynamics="simultaneous",
                min_seats=2, max_seats=4, default_schedule={"interval_hours": 24})


@dataclass(frozen=True, slots=True)
class Options:
    rounds: int = 3


@dataclass(frozen=True, slots=True)
class Bid:
    amount: int


@dataclass(frozen=True, slots=True)
class State:
    """Immutable: ``resolve`` builds a new one. ``bids[k]`` are round k+1's bids."""

    seats: tuple[Seat, ...]
    rounds: int
    bids: tuple[Mapping[SeatId, int], ...] = ()
    winners: tuple[SeatId | None, ...] = ()

    @property
    def over(self) -> bool:
        return len(self.winners) >= self.rounds

    def budget(self, seat: SeatId) -> int:
        return BUDGET - sum(round_bids.get(seat, 0) for round_bids in self.bids)

    def points(self) -> dict[SeatId, int]:
        return {s.id: sum(PRIZES[k] for k, w in enumerate(self.winners) if w == s.id)
                for s in self.seats}


def parse_options(data: Mapping[str, Any]) -> Options:
    for key in data:
        if key != "rounds":
            raise OptionsError(f"unknown option {key!r}")
    rounds = data.get("rounds", 3)
    if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= 5:
        raise OptionsError("rounds: a whole number from 1 to 5")
    return Options(rounds)


class SealedBid(RulesetBase[State, Bid]):
    """The platform's entry point (the ``Ruleset`` protocol)."""

    name: ClassVar[str] = "sealedbid"
    spec: ClassVar[GameSpec] = SPEC

    def parse_options(self, data: Mapping[str, Any]) -> Options:
        return parse_options(data)

    def setup(self, seats: Sequence[Seat], options: Mapping[str, Any], rng: Rng) -> State:
        if not 2 <= len(seats) <= 4:
            raise OptionsError("seats: Sealed Bid takes 2 to 4 bidders")
        return State(tuple(seats), parse_options(options).rounds)

    def awaiting(self, state: State) -> frozenset[SeatId]:
        return frozenset() if state.over else frozenset(s.id for s in state.seats)

    def parse_orders(self, state: State, seat: SeatId, data: Any) -> Bid:
        if not isinstance(data, Mapping) or set(data) != {"bid"}:
            raise OrderError(seat, ["orders are one bid: {\"bid\": N}"])
        amount = data["bid"]
        if not isinstance(amount, int) or isinstance(amount, bool) or amount < 0:
            raise OrderError(seat, ["bid: a whole number of at least 0"])
        left = state.budget(seat)
        if amount > left:
            raise OrderError(seat, [f"bid: you have only {left} left"])
        return Bid(amount)

    def warnings(self, state: State, seat: SeatId, orders: Bid) -> list[str]:
        return ["bid: a bid of 0 cannot win the prize"] if orders.amount == 0 else []

    def dump_orders(self, orders: Bid) -> dict[str, Any]:
        return {"bid": orders.amount}

    def default_orders(self, state: State, seat: SeatId, rng: Rng) -> Bid | None:
        return Bid(0)

    def resolve(self, state: State, orders: Mapping[SeatId, Bid | None], rng: Rng) -> State:
        bids = {s.id: (orders.get(s.id) or Bid(0)).amount for s in state.seats}
        top = max(bids.values())
        highest = [seat for seat, amount in bids.items() if amount == top]
        winner = highest[0] if len(highest) == 1 and top > 0 else None
        return State(state.seats, state.rounds, (*state.bids, bids), (*state.winners, winner))

    def _public(self, state: State) -> dict[str, Any]:
        outcome = self.outcome(state)
        return {
            "round": len(state.winners), "rounds": state.rounds,
            "prize": None if state.over else PRIZES[len(state.winners)],
            "seats": [{"seat": s.id, "name": s.name, "player": s.player} for s in state.seats],
            "results": [{"round": k + 1, "prize": PRIZES[k], "winner": w}
                        for k, w in enumerate(state.winners)],
            "points": state.points(),
            "game_over": None if outcome is None else {
                "winners": list(outcome.winners),
                "standings": [{"seat": s, "place": p} for s, p in outcome.standings],
                "bids": [dict(b) for b in state.bids]},
        }

    def view(self, state: State, seat: SeatId | None) -> dict[str, Any]:
        view = self._public(state)
        if seat is None:
            view["budgets"] = {s.id: state.budget(s.id) for s in state.seats}
            view["bids"] = [dict(b) for b in state.bids]
            names = {s.id: s.name for s in state.seats}
            view["ledger"] = [f"Round {k + 1}: {names[s]} bid {amount}"
                              for k, b in enumerate(state.bids) for s, amount in b.items()]
            return view
        mine = [b[seat] for b in state.bids]
        view["me"] = {"seat": seat, "budget": state.budget(seat), "bids": mine,
                      "ledger": [f"Round {k + 1}: you bid {amount} and "
                                 f"{'won' if state.winners[k] == seat else 'lost'}"
                                 for k, amount in enumerate(mine)]}
        return view

    def outcome(self, state: State) -> Outcome | None:
        if not state.over:
            return None
        points = state.points()
        best = max(points.values())
        standings = tuple((s, 1 + sum(p > points[s] for p in points.values()))
                          for s in sorted(points, key=lambda s: (-points[s], s)))
        return Outcome(tuple(sorted(s for s in points if points[s] == best)), standings)

    def public_view(self, state: State) -> dict[str, Any]:
        return self._public(state)

    def seat_name_problem(self, name: str, taken: Sequence[str]) -> str | None:
        if not 1 <= len(name.strip()) <= 40:
            return "the bidder's name needs 1 to 40 characters"
        if name.strip().casefold() in {t.strip().casefold() for t in taken}:
            return "another bidder has that name"
        return None

    def idle_message(self, state: State, seat: SeatId) -> str:
        return "the auction is over" if state.over else "there is nothing to bid on now"

    def turn_number(self, state: State) -> int:
        return len(state.winners)
