"""Spy vs Spy's typed domain: regions, tasks, options, state and the turn log (spec §1–§4)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal


class Region(StrEnum):
    """The nine regions of Spy Town, lettered in alphabetical order of their names (§3.1)."""

    A = "A"
    B = "B"
    C = "C"
    D = "D"
    E = "E"
    F = "F"
    G = "G"
    H = "H"
    I = "I"  # noqa: E741 - the spec's letter

    @property
    def info(self) -> RegionInfo:
        return REGION_INFO[self]

    @property
    def label(self) -> str:
        """"letter name", as reports write a region ("H Industrial")."""
        return f"{self.value} {REGION_INFO[self].name}"

    @classmethod
    def from_roll(cls, value: int) -> Region:
        """``roll(9)``: 1 = A … 9 = I."""
        return REGIONS[value - 1]


@dataclass(frozen=True, slots=True)
class RegionInfo:
    letter: str
    name: str
    train: int
    work: int


REGIONS: tuple[Region, ...] = tuple(Region)
#: ``region.value`` by region. On Python 3.11 ``.value`` goes through the enum's property
#: descriptor, several times slower than this lookup; views and stored parts read it for
#: every spy of every seat.
REGION_VALUE: dict[Region, str] = {region: region.value for region in REGIONS}
REGION_INFO: dict[Region, RegionInfo] = {
    Region.A: RegionInfo("A", "Academy", 3, 1),
    Region.B: RegionInfo("B", "Beltram", 2, 3),
    Region.C: RegionInfo("C", "Cathedral", 2, 1),
    Region.D: RegionInfo("D", "Docks", 1, 4),
    Region.E: RegionInfo("E", "Embassy", 2, 2),
    Region.F: RegionInfo("F", "Fairground", 1, 3),
    Region.G: RegionInfo("G", "Ghetto", 1, 2),
    Region.H: RegionInfo("H", "Industrial", 1, 5),
    Region.I: RegionInfo("I", "PigSty", 1, 1),
}
RECRUIT_REGION = Region.G


class Task(StrEnum):
    """The eleven tasks, declared in their strict resolution order (§5.2)."""

    HIDE = "HIDE"
    COVERT = "COVERT"
    TRAIN = "TRAIN"
    GUARD = "GUARD"
    DISGUISE = "DISGUISE"
    FOLLOW = "FOLLOW"
    HUNT = "HUNT"
    FAKE = "FAKE"
    SEARCH = "SEARCH"
    RECRUIT = "RECRUIT"
    WORK = "WORK"


TASKS: tuple[Task, ...] = tuple(Task)
#: ``task.value`` by task, for the same reason as ``REGION_VALUE``.
TASK_VALUE: dict[Task, str] = {task: task.value for task in TASKS}
SPY2_REMOVED: frozenset[Task] = frozenset({Task.HIDE, Task.DISGUISE, Task.FOLLOW, Task.FAKE})
#: Tasks that take a region (RECRUIT happens in the Ghetto; FOLLOW goes where the leader goes).
TAKES_REGION: frozenset[Task] = frozenset(TASKS) - {Task.RECRUIT, Task.FOLLOW}
#: Tasks that may name a brotherhood.
TAKES_BROTHERHOOD: frozenset[Task] = frozenset({Task.DISGUISE, Task.HUNT, Task.SEARCH})
#: Task rows of the brotherhood report, alphabetical as in the sample sheet (§8.2, §9.6).
CLASSIC_TASK_ROWS: tuple[Task, ...] = (
    Task.COVERT, Task.DISGUISE, Task.FAKE, Task.FOLLOW, Task.GUARD,
    Task.HUNT, Task.RECRUIT, Task.SEARCH, Task.TRAIN, Task.WORK,
)
SPY2_TASK_ROWS: tuple[Task, ...] = tuple(t for t in CLASSIC_TASK_ROWS if t not in SPY2_REMOVED)

STARTING_GP = 20
STARTING_COVERTNESS = 1
STARTING_SKILLS: tuple[int, ...] = (4, 3, 3, 2, 2, 2, 1, 1, 1)
LEADER_NUMBER = 1
DISGUISED_AS_YOU = "Disguised as you"
SPY2_START_PRICE = 10

_BASE_POOL: tuple[str, ...] = (
    "Mr Pink", "Mr Orange", "Mr Vermillion", "Mr Mango", "Mr Lemon", "Mr Torp", "Mr Fuscia",
    "Mr Purple", "Mr Green", "Mr Grey", "Mr Navy", "Mr Ochre", "Mr Aqua", "Mr Yellow",
    "Mr Black", "Mr Mauve", "Mr Rose", "Mr Egg", "Mr Amber", "Mr Beige", "Mr Blue", "Mr Brown",
    "Mr Cerise", "Mr Coral", "Mr Crimson", "Mr Cyan", "Mr Gold", "Mr Indigo", "Mr Khaki",
    "Mr Lilac", "Mr Maroon", "Mr Olive", "Mr Peach", "Mr Plum", "Mr Scarlet", "Mr Silver",
    "Mr Tan", "Mr Teal", "Mr Violet", "Mr White",
)
assert len(_BASE_POOL) == 40


def _roman(number: int) -> str:
    numerals = ((10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I"))
    out = []
    for value, letters in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"),
                           (90, "XC"), (50, "L"), (40, "XL"), *numerals):
        while number >= value:
            out.append(letters)
            number -= value
    return "".join(out)


def leader_pool(seats: int) -> tuple[str, ...]:
    """The pool for a game of ``seats`` brotherhoods: 40 names, then " II", " III"… (§3.2)."""
    blocks = max(1, -(-seats // 40))
    names = list(_BASE_POOL)
    for block in range(2, blocks + 1):
        names.extend(f"{name} {_roman(block)}" for name in _BASE_POOL)
    return tuple(names)


Variant = Literal["classic", "spy2"]
BaseChoice = Literal["choose", "random"]

#: The Spy 2 rule changes of §9, one name each, for the option ``spy2_changes`` (a classic
#: game with some of them; variant "spy2" is all of them): ``tasks`` §9.1 (no HIDE,
#: DISGUISE, FOLLOW, FAKE; the report's rows of §9.6), ``search`` §9.2, ``declarations``
#: §9.3 (price, no Lives; the outcomes and price of §9.6), ``sightings`` §9.4, ``guard``
#: §9.5. Not in the spec: one switch per numbered change, so that a lab can measure each.
SPY2_CHANGES: tuple[str, ...] = ("tasks", "search", "declarations", "sightings", "guard")
ALL_SPY2_CHANGES: frozenset[str] = frozenset(SPY2_CHANGES)


def view_changes(view: Mapping[str, Any]) -> frozenset[str]:
    """The Spy 2 changes in force in a game, from any of its views (§8.5 ``variant`` and
    ``options``): all of them for variant "spy2", else the option's list."""
    if view.get("variant") == "spy2":
        return ALL_SPY2_CHANGES
    options = view.get("options")
    listed = options.get("spy2_changes") if isinstance(options, Mapping) else None
    return frozenset(str(name) for name in listed or ()) & ALL_SPY2_CHANGES


@dataclass(frozen=True, slots=True)
class Options:
    """Typed game options (§2); ``setup`` holds secrets and never reaches a seat's view."""

    min_players: int = 2
    max_players: int | None = None
    base_choice: BaseChoice = "choose"
    variant: Variant = "classic"
    setup_bases: tuple[tuple[str, Region], ...] = ()
    setup_leaders: tuple[tuple[str, str], ...] = ()
    #: Spy 2 changes switched on one by one in a classic game (``SPY2_CHANGES``)
    spy2_changes: frozenset[str] = frozenset()

    @property
    def changes(self) -> frozenset[str]:
        """The Spy 2 changes in force: every one for variant "spy2"."""
        return ALL_SPY2_CHANGES if self.variant == "spy2" else self.spy2_changes

    def to_json(self, *, with_setup: bool) -> dict[str, Any]:
        data: dict[str, Any] = {
            "min_players": self.min_players,
            "max_players": self.max_players,
            "base_choice": self.base_choice,
            "variant": self.variant,
        }
        if self.spy2_changes:  # left out when empty: classic records and views unchanged
            data["spy2_changes"] = [name for name in SPY2_CHANGES if name in self.spy2_changes]
        if with_setup:
            data["setup"] = {
                "bases": {seat: region.value for seat, region in self.setup_bases},
                "leaders": dict(self.setup_leaders),
            }
        return data


# ---------------------------------------------------------------- orders


@dataclass(frozen=True, slots=True)
class SpyOrder:
    """One spy's order as accepted (normalised spellings; ``brotherhood`` a seat id)."""

    task: Task
    region: Region | None = None
    brotherhood: str | None = None
    leader: str | None = None

    def to_json(self) -> dict[str, str]:
        data = {"task": TASK_VALUE[self.task]}
        if self.region is not None:
            data["region"] = REGION_VALUE[self.region]
        if self.brotherhood is not None:
            data["brotherhood"] = self.brotherhood
        if self.leader is not None:
            data["leader"] = self.leader
        return data


@dataclass(frozen=True, slots=True)
class Declaration:
    brotherhood: str
    leader: str
    region: Region

    def to_json(self) -> dict[str, str]:
        return {"brotherhood": self.brotherhood, "leader": self.leader,
                "region": REGION_VALUE[self.region]}


@dataclass(frozen=True, slots=True)
class Sheet:
    """A seat's accepted order sheet for one turn (§5.1)."""

    spies: tuple[tuple[int, SpyOrder], ...] = ()
    declarations: tuple[Declaration, ...] = ()

    def order_for(self, number: int) -> SpyOrder | None:
        for spy_number, order in self.spies:
            if spy_number == number:
                return order
        return None

    def to_json(self) -> dict[str, Any]:
        return {
            "spies": {str(number): order.to_json() for number, order in self.spies},
            "declarations": [d.to_json() for d in self.declarations],
        }


# ---------------------------------------------------------------- state


@dataclass(slots=True, eq=False)
class Spy:
    number: int
    skill: int
    at: Region | None = None


@dataclass(frozen=True, slots=True)
class Elimination:
    turn: int
    phase: Literal["D1", "D2"]


@dataclass(slots=True, eq=False)
class Brotherhood:
    """One seat's brotherhood. ``leader`` and ``base`` are secret (§3.3)."""

    seat: str
    bid: int
    name: str
    player: str
    email: str | None
    leader: str
    base: Region
    gp: int = STARTING_GP
    covertness: int = STARTING_COVERTNESS
    life: int = 0
    spies: list[Spy] = field(default_factory=list)
    next_number: int = 1
    eliminated: Elimination | None = None

    @property
    def surviving(self) -> bool:
        return self.eliminated is None

    def spy(self, number: int) -> Spy | None:
        for spy in self.spies:
            if spy.number == number:
                return spy
        return None

    def clone(self) -> Brotherhood:
        return Brotherhood(
            self.seat, self.bid, self.name, self.player, self.email, self.leader, self.base,
            self.gp, self.covertness, self.life,
            [Spy(s.number, s.skill, s.at) for s in self.spies],
            self.next_number, self.eliminated,
        )


@dataclass(frozen=True, slots=True)
class SpyLine:
    """One row of "My spies" (§8.2 item 5), as of the end of the turn."""

    number: int
    leader: bool
    skill: int
    at: Region | None
    killed: bool
    task: SpyOrder | None
    result: str | None


@dataclass(frozen=True, slots=True)
class DeclarationLine:
    declaration: Declaration
    outcome: str


@dataclass(frozen=True, slots=True)
class Sighting:
    """One of a seat's own visible spies as placed this turn (never a hider)."""

    region: Region
    apparent: int
    task: Task


@dataclass(frozen=True, slots=True)
class SeatLog:
    """What one seat was told about the last resolved turn, and where its spies showed."""

    declarations: tuple[DeclarationLine, ...] = ()
    notices: tuple[str, ...] = ()
    spies: tuple[SpyLine, ...] = ()
    seen: tuple[Sighting, ...] = ()


@dataclass(frozen=True, slots=True)
class LeaderSighting:
    owner: int
    name: str
    region: Region
    skill: int


@dataclass(frozen=True, slots=True)
class TurnLog:
    """The facts of the last resolved turn that views are built from.

    ``apparent`` and ``tasks`` count every visible spy placed in each region
    (by apparent brotherhood ``bid`` and by executed task); a seat's table
    subtracts its own ``seen`` spies, so one pass serves every view.
    """

    turn: int
    news: tuple[str, ...]
    seats: dict[str, SeatLog]
    apparent: dict[Region, dict[int, int]]
    tasks: dict[Region, dict[Task, int]]
    leaders: tuple[LeaderSighting, ...]
    sheets: dict[str, Sheet | None]
    #: The host's record of how the turn was resolved, JSON-ready ("why it happened"):
    #: S1's verdicts, S3's notices, each task's first acts, and T7's and T9's choices
    #: (``resolve``). Never in a seat's view or the public view.
    explain: dict[str, Any] = field(default_factory=dict)
    #: What every seat's report of this turn is built from, derived once from the fields
    #: above by ``view`` on first use (a thousand views share it). The log never changes
    #: after the turn is resolved, so this never goes stale; it takes no part in equality.
    derived: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class GameOver:
    winners: tuple[str, ...]
    standings: tuple[tuple[str, int], ...]


@dataclass(slots=True)
class State:
    """The whole game after ``turn`` resolved turns. Omniscient: never shown as is."""

    options: Options
    seed: int
    turn: int
    brotherhoods: list[Brotherhood]
    price: int = SPY2_START_PRICE
    log: TurnLog | None = None
    game_over: GameOver | None = None
    index: dict[str, int] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        if not self.index:
            self.index = {b.seat: i for i, b in enumerate(self.brotherhoods)}

    def __repr__(self) -> str:  # a state's repr must never carry secrets into logs
        return f"<spyvsspy State turn={self.turn} brotherhoods={len(self.brotherhoods)}>"

    @property
    def spy2(self) -> bool:
        """Variant "spy2": every change of §9 (a single change: the properties below)."""
        return self.options.variant == "spy2"

    @property
    def spy2_tasks(self) -> bool:
        """§9.1/§9.6: no HIDE, DISGUISE, FOLLOW or FAKE, and the report rows without them."""
        return "tasks" in self.options.changes

    @property
    def spy2_search(self) -> bool:
        """§9.2: bases findable by skill × turn, the count of real bases only."""
        return "search" in self.options.changes

    @property
    def spy2_declarations(self) -> bool:
        """§9.3/§9.6: declarations at a game-wide price, no Lives."""
        return "declarations" in self.options.changes

    @property
    def spy2_sightings(self) -> bool:
        """§9.4: a leader is ticked only where the observers' skills sum above his."""
        return "sightings" in self.options.changes

    @property
    def spy2_guard(self) -> bool:
        """§9.5: a guarded spy has double defence instead of immunity."""
        return "guard" in self.options.changes

    def by_seat(self, seat: str) -> Brotherhood | None:
        position = self.index.get(seat)
        return None if position is None else self.brotherhoods[position]

    def surviving(self) -> list[Brotherhood]:
        return [b for b in self.brotherhoods if b.eliminated is None]

    def clone(self) -> State:
        return State(self.options, self.seed, self.turn,
                     [b.clone() for b in self.brotherhoods], self.price, self.log,
                     self.game_over, self.index)
