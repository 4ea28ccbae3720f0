"""The ``Ruleset`` protocol: the one interface through which the platform knows a game.

One protocol serves simultaneous-order games and alternating-move games: at
every point the game says which seats it awaits; a step resolves once all of
them have submitted, or the deadline passes and the missing ones get the
ruleset's default orders.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Literal, Protocol, TypeVar

from spyhouse.core.errors import OrderError
from spyhouse.core.rng import Rng

SeatId = str

#: When an open entry may close before its deadline (``Ruleset.early_close``, optional):
#: ``"ready"`` once every awaited seat marked its orders ready, ``"submitted"`` once every
#: awaited seat has accepted orders (ready or not), ``"never"`` only at the deadline.
CloseWhen = Literal["ready", "submitted", "never"]
CLOSE_RULES: tuple[CloseWhen, ...] = ("ready", "submitted", "never")

StateT = TypeVar("StateT")
OrdersT = TypeVar("OrdersT")


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat as the game record holds it: id, public name, player, e-mail (None = hidden)."""

    id: SeatId
    name: str
    player: str = ""
    email: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "player": self.player, "email": self.email}


@dataclass(frozen=True, slots=True)
class GameSpec:
    """What the platform reads about a game before playing it (cf. OpenSpiel's ``GameType``)."""

    name: str
    title: str
    dynamics: Literal["simultaneous", "alternating"]
    min_seats: int
    max_seats: int | None
    turn_cap: int | None = None
    default_schedule: Mapping[str, Any] | str = field(default="all_submitted")
    #: each step has a length of its own (``Ruleset.deadline_seconds``), so the host's
    #: schedule sets none of its deadlines (Infiltration's phases)
    phase_deadlines: bool = False


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: winners and places (1 + number ranked strictly above)."""

    winners: tuple[SeatId, ...]
    standings: tuple[tuple[SeatId, int], ...]


@dataclass(frozen=True, slots=True)
class StoredViews:
    """One entry's views as the platform stores them (``Ruleset.stored_views``).

    ``shared`` is what the views of the entry are built from once (Spy vs Spy's town
    table and directory): it may hold what no single seat may know, so it is never
    served as it is, only joined with a reader's own part. ``parts`` holds each
    reader's own part: a seat id, or ``None`` for the host. Both are JSON-ready, and
    ``Ruleset.joined_view(shared, parts[key])`` after a JSON round trip is exactly
    ``view(state, key)`` (the host's without the seats' own views under
    ``host_seat_view_key``, which the platform keeps once, as each seat's part).
    """

    shared: dict[str, Any]
    parts: dict[SeatId | None, dict[str, Any]]


class Ruleset(Protocol[StateT, OrdersT]):
    """A game's rules. Every method is pure: no I/O, no clock, no global randomness."""

    name: ClassVar[str]
    spec: ClassVar[GameSpec]
    #: Keys of a seat's view that are mailed to its player and never rendered on a page
    #: or sent by the API (Spy vs Spy: ``secrets``).
    mailed_only_keys: ClassVar[frozenset[str]]
    #: A player's own setup choices before the start, as form field -> key of the options'
    #: ``setup`` maps (Spy vs Spy: ``{"base": "bases"}``).
    seat_setup_keys: ClassVar[Mapping[str, str]]
    #: Order keys only the platform writes (Spy or Lie's ``ai`` on computer moves); the
    #: service strips them from every person's submission, pages and API alike.
    platform_order_keys: ClassVar[frozenset[str]]
    #: Order fields that are public while the entry is open (Infiltration's ``vote``):
    #: the service tallies every seat's current value for pages and the API.
    public_order_fields: ClassVar[frozenset[str]]
    #: The key under which the host view's ``seats[x]`` holds seat x's own view (Spy vs
    #: Spy's ``"report"``, §8.4), or ``None``. The platform stores and serves the host
    #: view without those (each is that seat's own stored view), so a host page of a
    #: thousand seats does not carry a thousand reports.
    host_seat_view_key: ClassVar[str | None]

    def parse_options(self, data: Mapping[str, Any]) -> Any:
        """Typed options from JSON; raises ``OptionsError`` naming the key."""
        ...

    def setup(self, seats: Sequence[Seat], options: Mapping[str, Any], rng: Rng) -> StateT:
        """The state at turn 0; raises ``OptionsError`` if options do not fit the seats."""
        ...

    def awaiting(self, state: StateT) -> frozenset[SeatId]:
        """The seats that must act now (none once the game is over)."""
        ...

    def parse_orders(self, state: StateT, seat: SeatId, data: Any) -> OrdersT:
        """JSON-like data to typed orders; raises ``OrderError`` listing every failing order."""
        ...

    def warnings(self, state: StateT, seat: SeatId, orders: OrdersT) -> list[str]:
        """Messages to show the player about accepted orders (nothing is refused)."""
        ...

    def dump_orders(self, orders: OrdersT) -> Any:
        """The orders as the record's JSON; ``parse_orders`` of it gives equal orders."""
        ...

    def default_orders(self, state: StateT, seat: SeatId, rng: Rng) -> OrdersT | None:
        """The no-show rule's orders (``None`` where the ruleset resolves ``None`` itself)."""
        ...

    def resolve(
        self, state: StateT, orders: Mapping[SeatId, OrdersT | None], rng: Rng
    ) -> StateT:
        """One resolution step; returns a new state and leaves ``state`` untouched."""
        ...

    def view(self, state: StateT, seat: SeatId | None) -> dict[str, Any]:
        """A fresh JSON-ready mapping of what ``seat`` may know; ``None`` is the host."""
        ...

    def outcome(self, state: StateT) -> Outcome | None:
        """``None`` while the game goes on."""
        ...

    def public_view(self, state: StateT) -> dict[str, Any]:
        """What a spectator may know: the keys every seat's view shares."""
        ...

    def seat_name_problem(self, name: str, taken: Sequence[str]) -> str | None:
        """Why ``name`` cannot be a new seat's public name, or ``None`` if it can."""
        ...

    def idle_message(self, state: StateT, seat: SeatId) -> str:
        """Why a seat that is not awaited cannot give orders now, in the game's words."""
        ...

    def turn_number(self, state: StateT) -> int:
        """The game's own count of resolved steps, as views show it."""
        ...

    # -------------------------------------------------------- optional hooks
    # ``RulesetBase`` gives each a default, so a game overrides only what it has.

    def deadline_seconds(self, state: StateT) -> int | None:
        """The length of the entry that opens at ``state``, counted from its opening;
        ``None`` takes the game's schedule (Infiltration's phases have their own)."""
        ...

    def early_close(self, state: StateT) -> CloseWhen | None:
        """When the entry opening at ``state`` may close before its deadline
        (``CLOSE_RULES``); ``None`` takes the platform's rule (every awaited seat ready)."""
        ...

    def ready_field(self, state: StateT) -> str | None:
        """The order key that is the rules' own READY mark in the entry open at ``state``
        (Infiltration's ``"ready"``); the service keeps it and the platform's READY mark
        one and the same, so the rules' checks on READY apply however READY is given."""
        ...

    def seat_range(self, options: Any) -> tuple[int, int | None]:
        """How many seats a game with these parsed options takes (fewest, most or
        ``None``); the spec's range unless the options narrow it."""
        ...

    def check_messages(self, state: StateT, seat: SeatId, data: Any) -> list[str]:
        """Every message a sheet draws, for checking as the player types; nothing is
        saved. ``[]``: ``parse_orders`` accepts it. A game whose ``parse_orders`` stops at
        the first fault may list the others here (Kingdoms checks each row)."""
        ...

    def stored_views(self, state: StateT, seats: Sequence[SeatId]) -> StoredViews:
        """Every seat's view and the host's after an entry, as the platform stores them:
        what they share once, and each reader's own part (see ``StoredViews``)."""
        ...

    def joined_view(self, shared: Mapping[str, Any], part: Mapping[str, Any]) -> dict[str, Any]:
        """The view a stored part stands for (``stored_views``), as fresh JSON-ready data:
        equal to ``view`` of the state it was stored from, for the same reader."""
        ...

    def resample(self, state: StateT, seat: SeatId, rng: Rng) -> StateT:
        """A state drawn at random among those ``seat`` cannot tell from ``state``: every
        thing the seat's view does not show is redrawn, and ``view(result, seat)`` equals
        ``view(state, seat)`` (as OpenSpiel's ``ResampleFromInfostate``). The fairness
        harness (``sim/fairness.py``) runs a bot on such worlds: a fair bot decides the
        same in each. ``state`` is left untouched."""
        ...


class RulesetBase(Generic[StateT, OrdersT]):
    """Defaults for the optional parts of ``Ruleset``: rulesets subclass it (as
    python-chess's variants subclass the board) and override what their game has."""

    spec: ClassVar[GameSpec]
    mailed_only_keys: ClassVar[frozenset[str]] = frozenset()
    seat_setup_keys: ClassVar[Mapping[str, str]] = {}
    platform_order_keys: ClassVar[frozenset[str]] = frozenset()
    public_order_fields: ClassVar[frozenset[str]] = frozenset()
    host_seat_view_key: ClassVar[str | None] = None

    def parse_orders(self, state: StateT, seat: SeatId, data: Any) -> OrdersT:
        raise NotImplementedError

    def view(self, state: StateT, seat: SeatId | None) -> dict[str, Any]:
        raise NotImplementedError

    def deadline_seconds(self, state: StateT) -> int | None:
        return None

    def early_close(self, state: StateT) -> CloseWhen | None:
        return None

    def ready_field(self, state: StateT) -> str | None:
        return None

    def seat_range(self, options: Any) -> tuple[int, int | None]:
        return self.spec.min_seats, self.spec.max_seats

    def check_messages(self, state: StateT, seat: SeatId, data: Any) -> list[str]:
        try:
            self.parse_orders(state, seat, data)
        except OrderError as exc:
            return list(exc.messages)
        return []

    def stored_views(self, state: StateT, seats: Sequence[SeatId]) -> StoredViews:
        """Each view whole, nothing shared: right for games whose views are small."""
        parts: dict[SeatId | None, dict[str, Any]] = {seat: self.view(state, seat)
                                                       for seat in seats}
        parts[None] = without_seat_views(self.view(state, None), self.host_seat_view_key)
        return StoredViews({}, parts)

    def joined_view(self, shared: Mapping[str, Any], part: Mapping[str, Any]) -> dict[str, Any]:
        return dict(part)

    def resample(self, state: StateT, seat: SeatId, rng: Rng) -> StateT:
        raise NotImplementedError(f"{self.spec.name} cannot resample a seat's hidden information")


def without_seat_views(host_view: dict[str, Any], key: str | None) -> dict[str, Any]:
    """``host_view`` without ``seats[x][key]`` (each seat's own view, stored apart)."""
    seats = host_view.get("seats")
    if key is None or not isinstance(seats, Mapping):
        return host_view
    return {**host_view, "seats": {seat: {k: v for k, v in info.items() if k != key}
                                   if isinstance(info, Mapping) else info
                                   for seat, info in seats.items()}}
