"""The Kingdoms domain: agent types, actions, order rows, options, countries and the state.

Everything here is data. The state is omniscient and never shown as is: views
(``view.py``) build each seat's mapping from it by allow-list.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from spyhouse.core.ruleset import Seat
from spyhouse.games.kingdoms.maps import Map


class AgentType(StrEnum):
    """The four mobile spy types (A.1), in type order."""

    SPY = "SPY"
    SPYCAT = "SPYCAT"
    MOLE = "MOLE"
    MOLECAT = "MOLECAT"


AGENT_TYPES: tuple[AgentType, ...] = tuple(AgentType)
TYPE_RANK: dict[str, int] = {t.value: i for i, t in enumerate(AGENT_TYPES)} | {"WATCHER": 4}
#: A watcher's type code in JSON (A.1 "Type order").
WATCHER = "WATCHER"
TYPE_NAMES: dict[AgentType, str] = {
    AgentType.SPY: "spy", AgentType.SPYCAT: "spy catcher",
    AgentType.MOLE: "mole", AgentType.MOLECAT: "mole catcher",
}
#: A.1 / A.7.2: the type each type's WAIT hunts.
HUNTS: dict[AgentType, AgentType] = {
    AgentType.SPY: AgentType.SPY, AgentType.SPYCAT: AgentType.SPY,
    AgentType.MOLE: AgentType.SPYCAT, AgentType.MOLECAT: AgentType.MOLE,
}
#: A.1 recruit costs in BP.
RECRUIT_COST: dict[AgentType, int] = {
    AgentType.SPY: 2, AgentType.SPYCAT: 5, AgentType.MOLE: 5, AgentType.MOLECAT: 5,
}
RAISE_COST = 2
#: B.4 / B.5: the largest count a RAISE or MOVE row may give.
MAX_COUNT = 12


class Action(StrEnum):
    """The twelve order rows (C.2)."""

    SPY = "SPY"
    SKIP = "SKIP"
    SPYCAT = "SPYCAT"
    MOLE = "MOLE"
    MOLECAT = "MOLECAT"
    FIND = "FIND"
    KILL = "KILL"
    WAIT = "WAIT"
    SABOTAGE = "SABOTAGE"
    WATCH = "WATCH"
    RAISE = "RAISE"
    MOVE = "MOVE"


#: Movement actions and the agent type they move or recruit (A.2, A.3).
MOVED_TYPE: dict[Action, AgentType] = {
    Action.SPY: AgentType.SPY, Action.SKIP: AgentType.SPY, Action.SPYCAT: AgentType.SPYCAT,
    Action.MOLE: AgentType.MOLE, Action.MOLECAT: AgentType.MOLECAT,
}
SPECIAL_MOVES = frozenset({Action.SPYCAT, Action.MOLE, Action.MOLECAT})


@dataclass(frozen=True, slots=True)
class Row:
    """One order row ``[ACTION][FROM][TO][EXTRA]`` as C.1 stores it."""

    action: Action
    frm: str | None = None
    to: str | None = None
    extra: str | int | None = None

    @property
    def count(self) -> int:
        """RAISE/MOVE: the number of armies (blank = 1)."""
        return self.extra if isinstance(self.extra, int) else 1

    @property
    def waiter(self) -> AgentType:
        """WAIT: the waiting agent type (blank = SPY)."""
        return AgentType(self.extra) if isinstance(self.extra, str) else AgentType.SPY

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action.value, "from": self.frm, "to": self.to,
                "extra": self.extra}


@dataclass(frozen=True, slots=True)
class Orders:
    """A country's orders for one turn: rows in slot order."""

    actions: tuple[Row, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"actions": [row.to_json() for row in self.actions]}


@dataclass(frozen=True, slots=True)
class Options:
    """The game options of B.3, typed; ``map_option`` is what the record holds."""

    map: Map
    map_option: str | dict[str, Any] = "default"
    start_bp: int = 6
    force_pool: int = 12
    actions_per_turn: int = 8
    max_moves: int = 3
    max_watchers: int = 3
    max_turns: int = 20
    seating: tuple[str, ...] | None = None


#: The number options of B.3 in the table's order, with their defaults.
NUMBER_DEFAULTS: dict[str, int] = {
    "start_bp": 6, "force_pool": 12, "actions_per_turn": 8, "max_moves": 3,
    "max_watchers": 3, "max_turns": 20,
}
NUMBER_OPTIONS: tuple[str, ...] = tuple(NUMBER_DEFAULTS)


@dataclass(frozen=True, slots=True)
class Wait:
    """A standing WAIT (A.7.2): the waiting agent, its area, the target and the hunted type."""

    agent: AgentType
    area: str
    target: str
    hunts: AgentType

    def to_json(self) -> dict[str, Any]:
        return {"agent": self.agent.value, "area": self.area, "target": self.target,
                "hunts": self.hunts.value}


@dataclass(slots=True)
class Country:
    """One country of the game: its seat, money, reserve, agents, watchers and WAIT."""

    id: str
    name: str
    seat: str
    bp: int
    reserve: int
    agents: dict[AgentType, str] = field(default_factory=dict)
    watchers: list[str] = field(default_factory=list)
    wait: Wait | None = None
    eliminated: int | None = None

    def clone(self) -> Country:
        return Country(self.id, self.name, self.seat, self.bp, self.reserve,
                       dict(self.agents), list(self.watchers), self.wait, self.eliminated)


# ---------------------------------------------------------------- report items (E.2)


@dataclass(frozen=True, slots=True)
class Observation:
    """A snapshot of one area for one country (A.4)."""

    area: str
    when: str
    by: str
    owner: str | None
    armies: int
    agents: tuple[tuple[str, str], ...]

    def to_json(self) -> dict[str, Any]:
        return {"area": self.area, "when": self.when, "by": self.by, "owner": self.owner,
                "armies": self.armies,
                "agents": [{"country": c, "type": t} for c, t in self.agents]}


Scalar = str | int | bool | None


@dataclass(frozen=True, slots=True)
class Event:
    """A private event (E.2): its name and its keys in the spec's order."""

    name: str
    data: tuple[tuple[str, Scalar], ...]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"event": self.name}
        out.update(self.data)
        return out

    def get(self, key: str) -> Scalar:
        return dict(self.data).get(key)


@dataclass(frozen=True, slots=True)
class FindWhose:
    """FIND whose (A.5): the area of ``country``'s spy, ``None`` when it has none."""

    country: str
    area: str | None

    def to_json(self) -> dict[str, Any]:
        return {"country": self.country, "area": self.area}


@dataclass(frozen=True, slots=True)
class FindWhere:
    """FIND where (A.5): every enemy spy and watcher in ``area`` as (country, type)."""

    area: str
    found: tuple[tuple[str, str], ...]

    def to_json(self) -> dict[str, Any]:
        return {"area": self.area,
                "found": [{"country": c, "type": t} for c, t in self.found]}


@dataclass(frozen=True, slots=True)
class Result:
    """The outcome of one own row (E.2 "action results")."""

    index: int
    row: Row
    done: bool
    text: str
    bp: int = 0
    find: FindWhose | FindWhere | None = None

    def to_json(self) -> dict[str, Any]:
        return {"index": self.index, "row": self.row.to_json(),
                "status": "done" if self.done else "failed", "text": self.text,
                "bp": self.bp, "find": None if self.find is None else self.find.to_json()}


@dataclass(frozen=True, slots=True)
class Report:
    """One country's report of one resolved turn."""

    turn: int
    results: tuple[Result, ...] = ()
    observations: tuple[Observation, ...] = ()
    events: tuple[Event, ...] = ()
    income: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"turn": self.turn,
                "results": [r.to_json() for r in self.results],
                "observations": [o.to_json() for o in self.observations],
                "events": [e.to_json() for e in self.events],
                "income": self.income}


@dataclass(frozen=True, slots=True)
class News:
    """The public news of one resolved turn (E.1)."""

    turn: int
    captures: tuple[tuple[str, str | None, str], ...] = ()
    eliminated: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"turn": self.turn,
                "captures": [{"area": a, "old": old, "new": new}
                             for a, old, new in self.captures],
                "eliminated": list(self.eliminated)}


@dataclass(frozen=True, slots=True)
class Ranking:
    """The end of the game (B.7.3): ranks in rank-then-country order, and the winners."""

    ranking: tuple[tuple[str, int], ...]
    winners: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"ranking": [{"country": c, "rank": r} for c, r in self.ranking],
                "winners": list(self.winners)}


# ---------------------------------------------------------------- the state


@dataclass(slots=True)
class State:
    """The whole game. ``turn`` is the turn awaiting orders (the last one once over)."""

    options: Options
    seats: tuple[Seat, ...]
    base_order: tuple[str, ...]
    countries: dict[str, Country]
    owners: dict[str, str | None]
    armies: dict[str, int]
    turn: int = 1
    resolved: int = 0
    news: tuple[News, ...] = ()
    outcome: Ranking | None = None
    reports: dict[str, Report] = field(default_factory=dict)
    seat_country: dict[str, str] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.seat_country:
            self.seat_country = {c.seat: c.id for c in self.countries.values()}

    def __repr__(self) -> str:  # a state's repr must never carry secrets into logs
        return f"<kingdoms State turn={self.turn} countries={len(self.countries)}>"

    @property
    def map(self) -> Map:
        return self.options.map

    def country_of(self, seat: str) -> Country | None:
        cid = self.seat_country.get(seat)
        return None if cid is None else self.countries[cid]

    def alive(self) -> list[Country]:
        """Countries not eliminated, in country order."""
        return [c for c in self.countries.values() if c.eliminated is None]

    def owned(self, cid: str) -> list[str]:
        """The land areas ``cid`` owns, in area order."""
        return [a for a, owner in self.owners.items() if owner == cid]

    def clone(self) -> State:
        return State(self.options, self.seats, self.base_order,
                     {cid: c.clone() for cid, c in self.countries.items()},
                     dict(self.owners), dict(self.armies), self.turn, self.resolved,
                     self.news, self.outcome, dict(self.reports), self.seat_country)
