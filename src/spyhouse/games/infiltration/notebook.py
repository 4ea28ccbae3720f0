"""A bot's notebook: what one seat has learned, read from its own views only.

``Notebook.update(view)`` digests the events it has not seen yet (private log and
public log, oldest first): arrival reports (features seen, the code, the GHOST
door), terminal answers (Seer colours, Psychic counts, Map data, Guard forecasts,
Validity checks), combat reports and anonymous transmissions. Anonymous
``INTEL``/``ACCUSE`` messages (the bots' own sharing format, see ``intel_message``)
are hearsay: counted, never trusted over what the seat saw itself.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from spyhouse.games.infiltration.model import ROOMS

GHOST, GENERALS, LAB, GENERATOR = "GHOST room", "General's room", "Weapons Lab", "Power generator"
SPECIAL_NAMES = (GHOST, GENERALS, LAB, GENERATOR)
_SEER = re.compile(r"^(\w+) is (RED|GREEN)$")
_PSYCHIC = re.compile(r"^Reds alive: (\d+)$")
_MAP = re.compile(r"^([A-H]-[1-8]): (.+)$")
_WHERE = re.compile(r"^(\w+)(?::| is in) ([A-H]-[1-8]) \(dead\)$")
_HISTORY = re.compile(r"^Turn (\d+): (.+)$")
_GUARD = re.compile(r"^(Guard-[A-H]) → ([A-H]-[1-8])$")
_REJECTED = re.compile(r"The outer door of ([A-H]-[1-8]) .*\((no code given|code (\d{4}) "
                       r"rejected)\)")
_KEYS = {"GHOST": GHOST, "GENERALS": GENERALS, "LAB": LAB}


@dataclass(slots=True)
class Notebook:
    """Everything one seat knows or suspects; updated from its views in order."""

    seat: str = ""
    team: str = "green"
    reds: tuple[str, ...] = ()
    handles: dict[str, str] = field(default_factory=dict)  # handle (casefold) -> seat
    names: dict[str, str] = field(default_factory=dict)  # seat -> handle
    alive: dict[str, bool] = field(default_factory=dict)
    seen: dict[str, str] = field(default_factory=dict)  # room -> feature seen on arrival
    told: dict[str, dict[str, int]] = field(default_factory=dict)  # room -> feature -> votes
    broken: set[str] = field(default_factory=set)  # rooms seen destroyed
    code: str | None = None  # read in the General's room
    told_codes: dict[str, int] = field(default_factory=dict)
    bad_codes: set[str] = field(default_factory=set)
    door_open: bool = False
    door_told: int = 0
    colour: dict[str, str] = field(default_factory=dict)  # seat -> "RED"/"GREEN" (Seer)
    suspicion: dict[str, float] = field(default_factory=dict)
    psychic: list[tuple[int, int]] = field(default_factory=list)  # (turn, count)
    guard_plan: dict[str, str] = field(default_factory=dict)  # guard -> room, next move
    guard_plan_turn: int = -1
    occupancy: list[tuple[str, int]] = field(default_factory=list)
    last_votes: list[tuple[str, str | None]] = field(default_factory=list)
    attacked_me: set[str] = field(default_factory=set)
    pending_statement: str | None = None
    pending_history: str | None = None
    death_turn: dict[str, int] = field(default_factory=dict)  # found dead (R5) -> turn
    corpse_room: dict[str, str] = field(default_factory=dict)
    solved: set[str] = field(default_factory=set)  # deaths whose room history was read
    #: What this seat knows of terminals' hack state: room -> (turn, hacked).
    hack_state: dict[str, tuple[int, bool]] = field(default_factory=dict)
    last_kill: int = -99  # the latest turn this seat's attack killed a player
    private_seen: int = 0
    public_seen: int = 0
    _beliefs: dict[str, str] | None = None

    # ------------------------------------------------------------ reading a view

    def update(self, view: Mapping[str, Any]) -> None:
        me = view["me"]
        self.seat = me["seat"]
        self.team = me["team"]
        self.reds = tuple(me["reds"] or ())
        for row in view["players"]:
            self.handles[row["handle"].casefold()] = row["seat"]
            self.names[row["seat"]] = row["handle"]
            self.alive[row["seat"]] = row["alive"]
        private = view["private_log"]
        for item in private[self.private_seen:]:
            self._private(item)
        self.private_seen = len(private)
        public = view["public_log"]
        for item in public[self.public_seen:]:
            self._public(item)
        self.public_seen = len(public)
        if view.get("occupancy") is not None:
            self.occupancy = [(room, count) for room, count in view["occupancy"]]
        self._beliefs = None

    def _private(self, item: Mapping[str, Any]) -> None:
        kind = item["kind"]
        if kind == "arrival":
            self._arrival(item)
        elif kind == "terminal":
            self._terminal(item)
        elif kind == "combat":
            self._combat(item)

    def _arrival(self, item: Mapping[str, Any]) -> None:
        room, feature = item["room"], item["feature"]
        self.seen[room] = feature
        self._beliefs = None
        for corpse in item.get("corpses") or ():
            self.corpse_room[corpse] = room
        if item.get("hacked") is not None:
            self.hack_state[room] = (int(item["turn"]), bool(item["hacked"]))
        if item.get("destroyed"):
            self.broken.add(room)
        else:
            self.broken.discard(room)
        if feature == GENERALS:
            self.code = item["text"].rsplit(" ", 1)[-1].rstrip(".")
        if feature == GHOST:
            self.door_open = True
        notice = item.get("notice") or ""
        match = _REJECTED.search(notice)
        if match:
            self.seen[match.group(1)] = GHOST
            if match.group(3):
                self.bad_codes.add(match.group(3))

    def _terminal(self, item: Mapping[str, Any]) -> None:
        terminal, lines = item["terminal"], item["lines"]
        turn = int(item["turn"])
        for line in lines:
            if terminal == "Seer" and (m := _SEER.match(line)):
                seat = self.handles.get(m.group(1).casefold())
                if seat is not None:
                    self._seer(str(item["room"]), turn, seat, m.group(2))
            elif terminal == "Psychic" and (m := _PSYCHIC.match(line)):
                self.psychic.append((turn, int(m.group(1))))
            elif terminal == "Map data" and (m := _MAP.match(line)):
                self.hear(m.group(1), m.group(2), 2)
            elif terminal in ("Locator", "Superlocator") and (m := _WHERE.match(line)):
                seat = self.handles.get(m.group(1).casefold())
                if seat is not None:
                    self.corpse_room[seat] = m.group(2)
            elif terminal == "History" and (m := _HISTORY.match(line)):
                self._history(int(m.group(1)), m.group(2).split(", "))
            elif terminal == "Guard" and (m := _GUARD.match(line)):
                self.guard_plan[m.group(1)] = m.group(2)
                self.guard_plan_turn = turn
        if terminal == "History":
            if self.pending_history is not None:
                self.solved.add(self.pending_history)
            self.pending_history = None
        if terminal == "Validity check" and self.pending_statement and lines:
            words = self.pending_statement.split()
            if words[:2] == ["CODE", "IS"]:
                if lines[0] == "TRUE":
                    self.told_codes[words[2]] = self.told_codes.get(words[2], 0) + 3
                else:
                    self.bad_codes.add(words[2])
            self.pending_statement = None

    def _seer(self, room: str, turn: int, seat: str, colour: str) -> None:
        """A Seer answer; a self-check tells whether the terminal is hacked."""
        if seat == self.seat:
            mine = "RED" if self.team == "red" else "GREEN"
            self.hack_state[room] = (turn, colour != mine)
            return
        known = self.hack_state.get(room)
        sure = known is not None and known[0] >= turn - 1
        if sure and known is not None and known[1]:
            colour = "GREEN" if colour == "RED" else "RED"  # a hacked answer is always wrong
        self.colour[seat] = colour
        weight = 6.0 if sure else 3.0
        self.suspect(seat, weight if colour == "RED" else -weight)

    def seer_checked(self, room: str, turn: int) -> bool:
        """Whether this seat knows the hack state of ``room`` from this or the last turn."""
        known = self.hack_state.get(room)
        return known is not None and known[0] >= turn - 1

    def _history(self, turn: int, handles: list[str]) -> None:
        """Who stood in a dead player's room on the turn they were found dead."""
        room = self.pending_history
        if room is None:
            return
        present = [self.handles.get(h.casefold()) for h in handles]
        victims = [s for s, r in self.corpse_room.items()
                   if r == room and self.death_turn.get(s) == turn]
        if not victims:
            return
        others = [s for s in present if s is not None and s not in victims and s != self.seat]
        for seat in others:
            self.suspect(seat, 6.0 if len(others) == 1 else 3.0)

    def unsolved_rooms(self) -> list[str]:
        """Rooms of players found dead whose history this seat has not read yet."""
        order = sorted(self.death_turn, key=lambda s: (self.death_turn[s], s))
        rooms = [self.corpse_room[s] for s in order if s in self.corpse_room]
        return [r for r in reversed(rooms) if r not in self.solved]

    def _combat(self, item: Mapping[str, Any]) -> None:
        attacks = [(x, y) for x, y in item["attacks"]]
        pairs = set(attacks)
        if any(x == self.seat and y in item["died"] and y in self.names for x, y in attacks):
            self.last_kill = int(item["turn"])
        for x, y in attacks:
            if x not in self.names or y not in self.names:
                continue  # NPC attacks say nothing about teams
            mutual = (y, x) in pairs
            if y == self.seat:
                self.attacked_me.add(x)
                self.suspect(x, 5.0)
            elif x != self.seat and self.colour.get(y) != "RED":
                self.suspect(x, 0.5 if mutual else 3.0)

    def _public(self, item: Mapping[str, Any]) -> None:
        kind = item["kind"]
        if kind == "anonymous":
            self._hearsay(str(item["message"]))
        elif kind == "deaths":
            for seat in item["dead"]:
                self.death_turn[seat] = int(item["turn"])
        elif kind == "votes":
            self.last_votes = [(voter, choice) for voter, choice in item["votes"]]

    def _hearsay(self, message: str) -> None:
        words = message.split()
        if not words:
            return
        if words[0] == "ACCUSE":
            for word in words[1:]:
                seat = self.handles.get(word.casefold())
                if seat is not None and seat != self.seat:
                    self.suspect(seat, 1.5)
            return
        if words[0] != "INTEL":
            return
        for word in words[1:]:
            key, _, value = word.partition("=")
            if key in _KEYS and value in ROOMS:
                self.hear(value, _KEYS[key], 1)
            elif key == "GEN":
                for room in value.split(","):
                    if room in ROOMS:
                        self.hear(room, GENERATOR, 1)
            elif key == "CODE" and len(value) == 4 and value.isdigit():
                self.told_codes[value] = self.told_codes.get(value, 0) + 1
            elif key == "DOOR" and value == "OPEN":
                self.door_told += 1

    # ------------------------------------------------------------ beliefs

    def hear(self, room: str, feature: str, weight: int) -> None:
        votes = self.told.setdefault(room, {})
        votes[feature] = votes.get(feature, 0) + weight
        self._beliefs = None

    def suspect(self, seat: str, amount: float) -> None:
        if seat != self.seat:
            self.suspicion[seat] = self.suspicion.get(seat, 0.0) + amount

    def feature_of(self, room: str) -> str | None:
        """What the seat believes is in ``room``: seen, else the best-supported hearsay."""
        if room in self.seen:
            return self.seen[room]
        votes = self.told.get(room)
        if not votes:
            return None
        return max(sorted(votes), key=lambda f: votes[f])

    def beliefs(self) -> dict[str, str]:
        """Room -> believed feature for every room with any evidence (cached per update)."""
        if self._beliefs is None:
            found = {}
            for room in ROOMS:
                feature = self.feature_of(room)
                if feature is not None:
                    found[room] = feature
            self._beliefs = found
        return self._beliefs

    def rooms_of(self, feature: str) -> list[str]:
        """Rooms believed to hold ``feature``, seen ones first, canonical order."""
        beliefs = self.beliefs()
        seen = [r for r in ROOMS if self.seen.get(r) == feature]
        told = [r for r in ROOMS if r not in self.seen and beliefs.get(r) == feature]
        return seen + told

    def best_code(self) -> str | None:
        if self.code is not None:
            return self.code
        options = [(votes, c) for c, votes in self.told_codes.items()
                   if c not in self.bad_codes]
        if not options:
            return None
        return max(sorted(options))[1]

    def door_known_open(self) -> bool:
        return self.door_open or self.door_told >= 2

    def unknown_rooms(self) -> list[str]:
        return [r for r in ROOMS if r not in self.seen and r not in self.told]

    def reds_alive_estimate(self, turn: int) -> int | None:
        """The latest Psychic count if it is recent (this turn or the last)."""
        recent = [count for t, count in self.psychic if t >= turn - 1]
        return recent[-1] if recent else None

    def trusted(self, seat: str) -> bool:
        return self.colour.get(seat) == "GREEN" or seat in self.reds

    def intel_message(self, limit: int) -> str | None:
        """``INTEL GHOST=H-8 CODE=4071 LAB=E-5 GEN=C-1,F-3 GENERALS=B-2`` (what was seen)."""
        parts = ["INTEL"]
        for key, feature in (("GHOST", GHOST), ("CODE", ""), ("LAB", LAB),
                             ("GENERALS", GENERALS)):
            if key == "CODE":
                if self.code is not None:
                    parts.append(f"CODE={self.code}")
                continue
            rooms = [r for r in ROOMS if self.seen.get(r) == feature]
            if rooms:
                parts.append(f"{key}={rooms[0]}")
        generators = [r for r in ROOMS if self.seen.get(r) == GENERATOR]
        if generators:
            parts.append("GEN=" + ",".join(generators))
        if self.door_open:
            parts.append("DOOR=OPEN")
        if len(parts) == 1:
            return None
        text = parts[0]
        for part in parts[1:]:
            if len(text) + 1 + len(part) > limit:
                break
            text += " " + part
        return text if text != "INTEL" else None
