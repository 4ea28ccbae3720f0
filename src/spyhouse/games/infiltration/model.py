"""Infiltration's typed domain: rooms, features, teams, classes, NPCs and the state (spec §1, §3).

The state is a plain mutable dataclass that ``resolve`` clones before changing
(``State.clone``), so a caller's state is never touched. Logged events are
JSON-ready dicts that are never changed once appended; views copy them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

FLOORS: tuple[str, ...] = ("A", "B", "C", "D", "E", "F", "G", "H")
#: Canonical room order: A-1 … A-8, B-1 … H-8 (§1).
ROOMS: tuple[str, ...] = tuple(f"{floor}-{number}" for floor in FLOORS for number in range(1, 9))
ROOM_INDEX: dict[str, int] = {room: index for index, room in enumerate(ROOMS)}


def floor_rooms(floor: str) -> tuple[str, ...]:
    """The eight rooms of ``floor`` in canonical order."""
    return tuple(f"{floor}-{number}" for number in range(1, 9))


def parse_room(text: Any) -> str | None:
    """``"c-4"`` → ``"C-4"``; ``None`` when ``text`` is not a room (§15 conventions)."""
    if not isinstance(text, str):
        return None
    room = text.strip().upper()
    return room if room in ROOM_INDEX else None


class Team(StrEnum):
    GREEN = "green"
    RED = "red"


class Klass(StrEnum):
    """The selectable classes (§1.1), in their canonical order."""

    WARRIOR = "Warrior"
    HACKER = "Hacker"
    SNEAKER = "Sneaker"


CLASSES: tuple[Klass, ...] = tuple(Klass)


def parse_class(text: Any) -> Klass | None:
    """A class keyword, matched case-insensitively after trimming; ``None`` otherwise."""
    if not isinstance(text, str):
        return None
    key = text.strip().casefold()
    for klass in CLASSES:
        if klass.value.casefold() == key:
            return klass
    return None


class Feature(StrEnum):
    """A room's feature by its S4 name, in S4 table order."""

    GHOST = "GHOST room"
    GENERALS = "General's room"
    LAB = "Weapons Lab"
    GENERATOR = "Power generator"
    COMMANDER = "Commander's"
    SEER = "Seer"
    PSYCHIC = "Psychic"
    LOCATOR = "Locator"
    HISTORY = "History"
    MAPDATA = "Map data"
    SUPERLOCATOR = "Superlocator"
    MESSAGING = "Anonymous messaging"
    GAS = "Gas"
    GUARD = "Guard"
    VALIDITY = "Validity check"
    LOCK = "Electronic lock"
    SWITCH = "Switch"

    @property
    def is_terminal(self) -> bool:
        return self not in SPECIALS

    @property
    def article(self) -> str:
        """"a" or "an" before the terminal's name (Switch confirmation, §9.2)."""
        return "an" if self.value[0] in "AEIOU" else "a"


FEATURES: tuple[Feature, ...] = tuple(Feature)
SPECIALS: frozenset[Feature] = frozenset(
    {Feature.GHOST, Feature.GENERALS, Feature.LAB, Feature.GENERATOR})
TERMINALS: tuple[Feature, ...] = tuple(f for f in FEATURES if f not in SPECIALS)
INFO_TERMINALS: frozenset[Feature] = frozenset({
    Feature.SEER, Feature.PSYCHIC, Feature.LOCATOR, Feature.HISTORY, Feature.MAPDATA,
    Feature.SUPERLOCATOR, Feature.VALIDITY})

#: Validity-statement feature keywords (§10) → feature.
FEATURE_KEYWORDS: dict[str, Feature] = {
    "SEER": Feature.SEER, "PSYCHIC": Feature.PSYCHIC, "LOCATOR": Feature.LOCATOR,
    "HISTORY": Feature.HISTORY, "MAPDATA": Feature.MAPDATA,
    "SUPERLOCATOR": Feature.SUPERLOCATOR, "MESSAGING": Feature.MESSAGING, "GAS": Feature.GAS,
    "GUARDTERMINAL": Feature.GUARD, "VALIDITY": Feature.VALIDITY,
    "COMMANDER": Feature.COMMANDER, "LOCK": Feature.LOCK, "SWITCH": Feature.SWITCH,
    "WEAPONSLAB": Feature.LAB, "GENERALSROOM": Feature.GENERALS, "GHOSTROOM": Feature.GHOST,
    "GENERATOR": Feature.GENERATOR,
}


def parse_feature(text: Any) -> Feature | None:
    """An S4 feature name, matched case-insensitively after trimming."""
    if not isinstance(text, str):
        return None
    key = text.strip().casefold()
    for feature in FEATURES:
        if feature.value.casefold() == key:
            return feature
    return None


Bracket = str  # "S", "M" or "L"


def bracket_of(players: int) -> Bracket:
    """S = 6–9 players, M = 10–14, L = 15–20 (§1)."""
    if players <= 9:
        return "S"
    return "M" if players <= 14 else "L"


#: S4: feature → count per bracket (S, M, L).
_COMPOSITION: dict[Feature, tuple[int, int, int]] = {
    Feature.GHOST: (1, 1, 1), Feature.GENERALS: (1, 1, 1), Feature.LAB: (1, 1, 1),
    Feature.GENERATOR: (2, 3, 4), Feature.COMMANDER: (1, 1, 1), Feature.SEER: (3, 4, 5),
    Feature.PSYCHIC: (4, 4, 4), Feature.LOCATOR: (6, 6, 6), Feature.HISTORY: (6, 6, 5),
    Feature.MAPDATA: (6, 6, 5), Feature.SUPERLOCATOR: (2, 3, 3), Feature.MESSAGING: (5, 5, 5),
    Feature.GAS: (3, 3, 4), Feature.GUARD: (5, 4, 4), Feature.VALIDITY: (8, 7, 6),
    Feature.LOCK: (5, 5, 5), Feature.SWITCH: (5, 4, 4),
}


def composition(bracket: Bracket) -> dict[Feature, int]:
    """The S4 column of ``bracket``, in table order (64 rooms in all)."""
    column = "SML".index(bracket)
    return {feature: counts[column] for feature, counts in _COMPOSITION.items()}


class Phase(StrEnum):
    CLASS = "class"
    MOVEMENT = "movement"
    DECISION = "decision"
    OVER = "over"


PHASE_TITLE: dict[Phase, str] = {
    Phase.CLASS: "class selection", Phase.MOVEMENT: "Movement", Phase.DECISION: "Decision",
    Phase.OVER: "",
}


class NpcKind(StrEnum):
    GUARD = "guard"
    ENGINEER = "engineer"
    RENEGADE = "renegade"


GUARD_IDS: tuple[str, ...] = tuple(f"Guard-{floor}" for floor in FLOORS)

#: Combat priority (§1.1 table).
PRIORITY_RENEGADE = 4
PRIORITY_WARRIOR = 3
PRIORITY_LOW = 2
PRIORITY_ENGINEER = 1


@dataclass(frozen=True, slots=True)
class Death:
    """When and how someone died (host view ``death``)."""

    turn: int
    step: str
    cause: str  # "lynch", "removed", "combat", "gas"

    def to_json(self) -> dict[str, Any]:
        return {"turn": self.turn, "step": self.step, "cause": self.cause}


@dataclass(slots=True)
class Player:
    seat: str
    handle: str
    team: Team
    klass: Klass | None
    room: str
    alive: bool = True
    stinger: bool = False
    stinger_turn: int | None = None
    phantoms: int = 0
    death: Death | None = None

    @property
    def is_red(self) -> bool:
        return self.team is Team.RED

    @property
    def priority(self) -> int:
        return PRIORITY_WARRIOR if self.klass in (Klass.WARRIOR, None) else PRIORITY_LOW

    @property
    def sneaker(self) -> bool:
        return self.klass is Klass.SNEAKER

    def clone(self) -> Player:
        return replace(self)


@dataclass(slots=True)
class Npc:
    id: str
    kind: NpcKind
    room: str
    plan: str
    alive: bool = True
    #: Guards: their home floor letter; other NPCs: "".
    home: str = ""

    @property
    def priority(self) -> int:
        if self.kind is NpcKind.RENEGADE:
            return PRIORITY_RENEGADE
        return PRIORITY_LOW if self.kind is NpcKind.GUARD else PRIORITY_ENGINEER

    def clone(self) -> Npc:
        return replace(self)


def npc_ids(engineers: int, renegades: int) -> tuple[str, ...]:
    """Canonical NPC order: guards A→H, Engineers, Renegades, by number (§1)."""
    return (GUARD_IDS + tuple(f"Engineer-{n}" for n in range(1, engineers + 1))
            + tuple(f"Renegade-{n}" for n in range(1, renegades + 1)))


def canonical_npc(text: Any, ids: tuple[str, ...]) -> str | None:
    """The NPC id ``text`` names (any case), or ``None``."""
    if not isinstance(text, str):
        return None
    key = text.strip().casefold()
    for npc_id in ids:
        if npc_id.casefold() == key:
            return npc_id
    return None


Event = dict[str, Any]


@dataclass(slots=True)
class State:
    """Everything about one game of Infiltration after a resolution step."""

    options: Any  # options.Options (fully resolved)
    phase: Phase
    turn: int
    players: list[Player]
    npcs: list[Npc]
    features: list[Feature]
    destroyed: list[bool]
    hacked: list[bool]
    code: str
    starting_reds: int
    ghost_door_open: bool = False
    #: Rooms locked for the next movement (canonical order).
    locks: tuple[str, ...] = ()
    #: Per turn 0 … t: seat id → room of every living player (T6, S7).
    presence_log: list[dict[str, str]] = field(default_factory=list)
    #: The Commander's orders issued at the latest R3.5 (guard id → room).
    commander_orders: dict[str, str] = field(default_factory=dict)
    #: The latest initiative order (R3.2).
    initiative: tuple[str, ...] = ()
    #: This turn's Alert Mode (set at T8; None before the first Alert phase of a turn).
    alert: bool | None = None
    #: This turn's T2 occupancy report: (room, count) in canonical order.
    occupancy: tuple[tuple[str, int], ...] = ()
    public_log: list[Event] = field(default_factory=list)
    private_logs: dict[str, list[Event]] = field(default_factory=dict)
    #: The same events serialized once (views parse them back: a fast deep copy).
    public_json: list[str] = field(default_factory=list)
    private_json: dict[str, list[str]] = field(default_factory=dict)
    #: The latest arrival report of each player.
    arrivals: dict[str, Event] = field(default_factory=dict)
    #: ``None`` while the game goes on; then the §15.2 outcome JSON.
    result: dict[str, Any] | None = None
    index: dict[str, int] = field(default_factory=dict, repr=False, compare=False)
    npc_index: dict[str, int] = field(default_factory=dict, repr=False, compare=False)
    #: The host's record of the latest resolution (JSON text; "" when it has none): each
    #: room's combat tier by tier, the terminal uses with their snapshot's hack state, the
    #: gassed rooms. Only the host view reads it ("why it happened").
    explain: str = ""

    def __post_init__(self) -> None:
        if not self.index:
            self.index = {p.seat: i for i, p in enumerate(self.players)}
        if not self.npc_index:
            self.npc_index = {n.id: i for i, n in enumerate(self.npcs)}

    def __repr__(self) -> str:  # a state's repr must never carry secrets into logs
        return (f"<infiltration State turn={self.turn} phase={self.phase.value} "
                f"players={len(self.players)}>")

    def clone(self) -> State:
        return State(
            self.options, self.phase, self.turn,
            [p.clone() for p in self.players], [n.clone() for n in self.npcs],
            list(self.features), list(self.destroyed), list(self.hacked), self.code,
            self.starting_reds, self.ghost_door_open, self.locks, list(self.presence_log),
            dict(self.commander_orders), self.initiative, self.alert, self.occupancy,
            list(self.public_log), {s: list(log) for s, log in self.private_logs.items()},
            list(self.public_json), {s: list(log) for s, log in self.private_json.items()},
            dict(self.arrivals), self.result, self.index, self.npc_index, self.explain,
        )

    # ---------------------------------------------------------------- look-ups

    def player(self, seat: str) -> Player:
        return self.players[self.index[seat]]

    def find_player(self, seat: Any) -> Player | None:
        if not isinstance(seat, str) or seat not in self.index:
            return None
        return self.players[self.index[seat]]

    def npc(self, npc_id: str) -> Npc:
        return self.npcs[self.npc_index[npc_id]]

    @property
    def npc_id_list(self) -> tuple[str, ...]:
        return tuple(n.id for n in self.npcs)

    def living(self) -> list[Player]:
        return [p for p in self.players if p.alive]

    def feature(self, room: str) -> Feature:
        return self.features[ROOM_INDEX[room]]

    def is_destroyed(self, room: str) -> bool:
        return self.destroyed[ROOM_INDEX[room]]

    def is_hacked(self, room: str) -> bool:
        return self.hacked[ROOM_INDEX[room]]

    def rooms_with(self, feature: Feature) -> list[str]:
        return [room for room, f in zip(ROOMS, self.features, strict=True) if f is feature]

    def handle(self, name: str) -> str:
        """A participant's display name: a player's handle or an NPC's id."""
        if name in self.index:
            return self.players[self.index[name]].handle
        return name

    def by_handle(self, text: str) -> Player | None:
        key = text.casefold()
        for p in self.players:
            if p.handle.casefold() == key:
                return p
        return None

    def reds_alive(self) -> int:
        return sum(1 for p in self.players if p.alive and p.is_red)

    def greens_alive(self) -> int:
        return sum(1 for p in self.players if p.alive and not p.is_red)

    def log_private(self, seat: str, event: Event) -> None:
        self.private_logs.setdefault(seat, []).append(event)
        self.private_json.setdefault(seat, []).append(_dumps(event))

    def log_public(self, event: Event) -> None:
        self.public_log.append(event)
        self.public_json.append(_dumps(event))


def _dumps(event: Event) -> str:
    return json.dumps(event, ensure_ascii=False, separators=(",", ":"))


def load_events(serialized: list[str]) -> list[Event]:
    """Fresh copies of logged events from their serialized form (one C-speed parse)."""
    parsed: list[Event] = json.loads("[" + ",".join(serialized) + "]")
    return parsed


def event(turn: int, step: str, kind: str, text: str, **fields: Any) -> Event:
    """An event in the §15.4 envelope: turn, step, kind, the fields, then text."""
    out: Event = {"turn": turn, "step": step, "kind": kind}
    out.update(fields)
    out["text"] = text
    return out


def fresh(value: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, tuples as lists, scalars)."""
    if isinstance(value, dict):
        return {key: fresh(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [fresh(item) for item in value]
    return value


def thousandths(points: int) -> str:
    """Vote points as the §15.4 text: points / 1000, at most three decimals, no trailing 0."""
    whole, part = divmod(points, 1000)
    if part == 0:
        return str(whole)
    return f"{whole}.{part:03d}".rstrip("0")
