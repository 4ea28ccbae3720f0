"""A bot's notebook: what one seat has learned, read from its own views only.

``Notebook.update(view)`` digests the events it has not seen yet (private log and
public log, oldest first): arrival reports (features seen, the code, the GHOST
door), terminal answers (Seer colours, Psychic counts, Map data, Guard forecasts,
Validity checks), combat reports and anonymous transmissions. Anonymous
``INTEL``/``ACCUSE`` messages (the bots' own sharing format, see ``green_intel``)
are hearsay: counted, never trusted over what the seat saw itself.

Greens also keep checked facts apart from hearsay (``mapped``: Map data answers
whose control room came back right, so the terminal was not hacked) and judge
each INTEL message by whether it contradicts what they know: a message caught in
one lie is dropped whole, which is what makes a Red's false INTEL cheap to spot
once a few rooms are known (``believed_rooms``, ``green_code``). Killing claims are
weighed the same way: one that fits the deaths counts, a rival claim on the same
death halves both, and a Validity answer on ``x WAS IN room ON TURN n`` adds to it
or takes it back (``unverified``, ``_claim_checked``).
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
_SUPER = re.compile(r"^(\w+): ([A-H]-[1-8])( \(dead\))?$")
_KEYS = {"GHOST": GHOST, "GENERALS": GENERALS, "LAB": LAB}
#: Suspicion a fitting killing claim adds, and what a Validity answer on it adds after.
CLAIM_WEIGHT, CHECK_TRUE, CHECK_FALSE = 3.0, 1.0, -3.0


#: One letter per S4 feature for the compact ``MAP=`` of an INTEL message ("." unknown).
LETTERS: dict[str, str] = {
    GHOST: "G", GENERALS: "N", LAB: "W", GENERATOR: "P", "Commander's": "C", "Seer": "S",
    "Psychic": "Y", "Locator": "L", "History": "H", "Map data": "M", "Superlocator": "U",
    "Anonymous messaging": "A", "Gas": "X", "Guard": "R", "Validity check": "V",
    "Electronic lock": "K", "Switch": "T",
}
FEATURE_OF_LETTER: dict[str, str] = {letter: name for name, letter in LETTERS.items()}
_UNIQUE = (GHOST, GENERALS, LAB)


@dataclass(frozen=True, slots=True)
class Claim:
    """One INTEL message: the features it names, and the code and door news it gives."""

    rooms: tuple[tuple[str, str], ...]
    code: str | None = None
    door: bool = False


@dataclass(frozen=True, slots=True)
class Accusation:
    """A public ``ACCUSE x KILLED v IN room ON TURN n`` claim, checkable against the deaths."""

    accused: str
    victim: str
    room: str
    turn: int


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
    here: str = ""  # the room of the latest arrival report
    #: Features read from Map data whose control room answered right (never hacked).
    mapped: dict[str, str] = field(default_factory=dict)
    #: The control of the Map data use now pending: (room, the feature it must show).
    pending_map: tuple[str, str] | None = None
    #: Every INTEL message, parsed.
    claims: list[Claim] = field(default_factory=list)
    accusations: list[Accusation] = field(default_factory=list)
    #: Validity answers on codes: code -> +3 per TRUE, -3 per FALSE.
    code_checks: dict[str, int] = field(default_factory=dict)
    #: Player -> (turn, room) from this seat's own checked sources (History, Superlocator).
    sightings: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    #: Killers this seat has established (seat -> victim, room, turn), for ACCUSE messages.
    culprits: dict[str, Accusation] = field(default_factory=dict)
    #: Players this seat killed, on its own suspicion, without their striking back.
    struck_down: set[str] = field(default_factory=set)
    #: Killings this seat witnessed in a combat report: victim -> (room, turn).
    kills_seen: dict[str, tuple[str, int]] = field(default_factory=dict)
    #: Validity answers on killing claims: claim -> +1 per TRUE, -1 per FALSE (as read).
    claim_checks: dict[Accusation, int] = field(default_factory=dict)
    #: The claim whose ``x WAS IN room ON TURN n`` statement is pending at a Validity check.
    pending_claim: Accusation | None = None
    #: Fitting claims another fitting claim on the same killing contradicts (counted half).
    contested: set[Accusation] = field(default_factory=set)
    _beliefs: dict[str, str] | None = None
    _green_beliefs: dict[str, str] | None = None
    _facts: dict[str, str] | None = None
    _unique_at: dict[str, str] | None = None

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
        self._stale()

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
        self.mapped.pop(room, None)
        self.here = room
        self._beliefs = None
        self._stale()
        for seat in item.get("players") or ():
            self.sightings.setdefault(seat, []).append((int(item["turn"]), room))
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
        if terminal == "Map data" and self.pending_map is not None:
            self._map_checked(str(item["room"]), turn, lines)
        elif terminal == "History":
            self._history(turn, lines)
        elif terminal == "Superlocator" and self.team == "green":
            self._superlocator(turn, lines)
        for line in lines:
            if terminal == "Seer" and (m := _SEER.match(line)):
                seat = self.handles.get(m.group(1).casefold())
                if seat is not None:
                    self._seer(str(item["room"]), turn, seat, m.group(2))
            elif terminal == "Psychic" and (m := _PSYCHIC.match(line)):
                self.psychic.append((turn, int(m.group(1))))
            elif terminal == "Map data" and self.pending_map is None and (m := _MAP.match(line)):
                self.hear(m.group(1), m.group(2), 2)
            elif terminal in ("Locator", "Superlocator") and (m := _WHERE.match(line)):
                seat = self.handles.get(m.group(1).casefold())
                if seat is not None and (terminal == "Locator" or self.team == "red"):
                    self.corpse_room[seat] = m.group(2)
            elif terminal == "Guard" and (m := _GUARD.match(line)):
                self.guard_plan[m.group(1)] = m.group(2)
                self.guard_plan_turn = turn
        if terminal == "Map data":
            self.pending_map = None
        if terminal == "Validity check" and self.pending_claim is not None and lines:
            self._claim_checked(str(item["room"]), turn, lines[0] == "TRUE")
        if terminal == "Validity check" and self.pending_statement and lines:
            words = self.pending_statement.split()
            if words[:2] == ["CODE", "IS"] and self.team == "green":
                # A hacked terminal answers the opposite: weigh the answer, rule nothing out.
                change = 3 if lines[0] == "TRUE" else -3
                self.code_checks[words[2]] = self.code_checks.get(words[2], 0) + change
                self._stale()
            elif words[:2] == ["CODE", "IS"] and lines[0] != "TRUE":
                self.bad_codes.add(words[2])
            self.pending_statement = None

    def _claim_checked(self, room: str, turn: int, true: bool) -> None:
        """A Validity answer on ``x WAS IN room ON TURN n`` for a killing claim.

        A hacked terminal answers the opposite, so an answer is weighed, not trusted:
        one from a terminal this seat knows is hacked is read flipped, and TRUE adds
        less than a fitting claim did while FALSE takes most of it back."""
        claim = self.pending_claim
        self.pending_claim = None
        self.pending_statement = None
        if claim is None:
            return
        known = self.hack_state.get(room)
        if known is not None and known[1] and known[0] >= turn - 3:
            true = not true
        self.claim_checks[claim] = self.claim_checks.get(claim, 0) + (1 if true else -1)
        self.suspect(claim.accused, CHECK_TRUE if true else CHECK_FALSE)
        if true and self.fits(claim):
            self.sightings.setdefault(claim.accused, []).append((claim.turn, claim.room))

    def unverified(self) -> list[Accusation]:
        """Fitting killing claims against living, untrusted players that this seat has not
        put to a Validity check yet, in the order they were posted."""
        return [c for c in self.accusations
                if c not in self.claim_checks and c.accused != self.seat
                and self.alive.get(c.accused, False) and not self.trusted(c.accused)
                and c.accused not in self.culprits and self.fits(c)]

    def _map_checked(self, room: str, turn: int, lines: list[str]) -> None:
        """Map data with a control room: a wrong control means the terminal is hacked,
        and then every line is wrong (a hacked answer never names the true feature)."""
        control, expected = self.pending_map or ("", "")
        answers = [(m.group(1), m.group(2)) for line in lines if (m := _MAP.match(line))]
        hacked = (control, expected) not in answers
        self.hack_state[room] = (turn, hacked)
        if hacked:
            return
        for where, feature in answers:
            if where not in self.seen:
                self.mapped[where] = feature
        self._beliefs = None
        self._stale()

    def _superlocator(self, turn: int, lines: list[str]) -> None:
        """Superlocator: this seat's own line is the control (a hacked answer moves everyone)."""
        rows = [(self.handles.get(m.group(1).casefold()), m.group(2), bool(m.group(3)))
                for line in lines if (m := _SUPER.match(line))]
        mine = [room for seat, room, _ in rows if seat == self.seat]
        if not mine or mine[0] != self.here:
            return
        for seat, room, dead in rows:
            if seat is None or seat == self.seat:
                continue
            if dead:
                self.corpse_room[seat] = room
            else:
                self.sightings.setdefault(seat, []).append((turn, room))

    def _history(self, turn: int, lines: list[str]) -> None:
        """Who stood in a dead player's room on the turn they died.

        A hacked History shows another room's log; the true log of the corpse's room
        must list the victim on its death turn, so a log without them is discarded."""
        room = self.pending_history
        self.pending_history = None
        if room is None:
            return
        self.solved.add(room)
        log: dict[int, list[str]] = {}
        for line in lines:
            if m := _HISTORY.match(line):
                named = [self.handles.get(h.casefold()) for h in m.group(2).split(", ")]
                log[int(m.group(1))] = [s for s in named if s is not None]
        victims = [s for s, r in sorted(self.corpse_room.items())
                   if r == room and s in self.death_turn]
        checked = [v for v in victims if v in log.get(self.death_turn[v], [])]
        if victims and not checked:
            return  # hacked, or the corpse room was wrong
        for n, present in log.items():
            for seat in present:
                if seat != self.seat:
                    self.sightings.setdefault(seat, []).append((n, room))
        for victim in checked:
            when = self.death_turn[victim]
            dead_then = {s for s, t in self.death_turn.items() if t == when}
            others = [s for s in log[when] if s not in dead_then and s != self.seat
                      and self.alive.get(s, False)]
            for seat in others:
                self.suspect(seat, 6.0 if len(others) == 1 else 3.0)
            if len(others) == 1 and self.innocent(victim):
                self.culprits[others[0]] = Accusation(others[0], victim, room, when)

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

    def innocent(self, seat: str) -> bool:
        """Whether killing ``seat`` looks like murder to this seat, not an execution of a
        suspect (Greens kill players they hold to be Red)."""
        return (self.colour.get(seat) != "RED" and seat not in self.struck_down
                and self.suspicion.get(seat, 0.0) < 2.0)

    def unsolved_rooms(self) -> list[str]:
        """Rooms of players found dead whose history this seat has not read yet."""
        order = sorted(self.death_turn, key=lambda s: (self.death_turn[s], s))
        rooms = [self.corpse_room[s] for s in order if s in self.corpse_room]
        return [r for r in reversed(rooms) if r not in self.solved]

    def _combat(self, item: Mapping[str, Any]) -> None:
        attacks = [(x, y) for x, y in item["attacks"]]
        pairs = set(attacks)
        turn = int(item["turn"])
        if any(x == self.seat and y in item["died"] and y in self.names for x, y in attacks):
            self.last_kill = turn
        for x, y in attacks:
            if x not in self.names or y not in self.names:
                continue  # NPC attacks say nothing about teams
            mutual = (y, x) in pairs
            if y == self.seat:
                self.attacked_me.add(x)
                # A blow that answers this Green's own says less than an unprovoked one.
                answered = self.team == "green" and mutual
                self.suspect(x, 1.0 if answered else 5.0)
            elif x != self.seat and self.colour.get(y) != "RED":
                self.suspect(x, 0.5 if mutual else 3.0)
        for dead in item["died"]:
            if dead in self.names:
                self.kills_seen[dead] = (str(item["room"]), turn)
        if self.team != "green":
            return
        for dead in item["died"]:
            if dead not in self.names or dead == self.seat:
                continue
            killers = tuple(x for x, y in attacks if y == dead and x in self.names)
            if (self.seat, dead) in pairs and (dead, self.seat) not in pairs:
                self.struck_down.add(dead)
            if len(killers) == 1 and killers[0] != self.seat and self.innocent(dead):
                self.culprits[killers[0]] = Accusation(killers[0], dead, str(item["room"]), turn)

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
            self._accusation(words)
            return
        if words[0] != "INTEL":
            return
        named: list[tuple[str, str]] = []
        code: str | None = None
        door = False
        for word in words[1:]:
            key, _, value = word.partition("=")
            if key in _KEYS and value in ROOMS:
                self.hear(value, _KEYS[key], 1)
                named.append((value, _KEYS[key]))
            elif key == "GEN":
                rooms = [room for room in value.split(",") if room in ROOMS]
                for room in rooms:
                    self.hear(room, GENERATOR, 1)
                named += [(room, GENERATOR) for room in rooms]
            elif key == "MAP" and len(value) == len(ROOMS):
                for room, letter in zip(ROOMS, value, strict=True):
                    feature = FEATURE_OF_LETTER.get(letter)
                    if feature is not None:
                        named.append((room, feature))
                        if feature in SPECIAL_NAMES:
                            self.hear(room, feature, 1)
            elif key == "CODE" and len(value) == 4 and value.isdigit():
                code = value
            elif key == "DOOR" and value == "OPEN":
                self.door_told += 1
                door = True
        if named or code is not None or door:
            self.claims.append(Claim(tuple(named), code, door))
            self._stale()

    def _accusation(self, words: list[str]) -> None:
        """``ACCUSE a b …`` (bare names: weak) or ``ACCUSE x KILLED v IN room ON TURN n``
        (checked against the public deaths and what this seat saw: strong when it fits)."""
        if len(words) == 9 and words[2] == "KILLED" and words[4] == "IN" \
                and words[6:8] == ["ON", "TURN"]:
            self._killed_claim(words)
            return
        for word in words[1:]:
            seat = self.handles.get(word.casefold())
            if seat is not None and seat != self.seat:
                self.suspect(seat, 1.5 if self.team == "red" else 0.75)

    def _killed_claim(self, words: list[str]) -> None:
        accused = self.handles.get(words[1].casefold())
        victim = self.handles.get(words[3].casefold())
        room, turn_text = words[5], words[8]
        if accused is None or victim is None or room not in ROOMS or not turn_text.isdigit():
            return
        claim = Accusation(accused, victim, room, int(turn_text))
        if claim in self.accusations or accused == self.seat:
            return
        if not self.fits(claim):
            self.accusations.append(claim)
            return
        # One killer per killing: claims naming different killers discredit each other.
        rivals = [c for c in self.accusations if c.victim == claim.victim
                  and c.turn == claim.turn and c.accused != claim.accused and self.fits(c)]
        self.accusations.append(claim)
        for rival in rivals:
            if rival not in self.contested:
                self.contested.add(rival)
                self.suspect(rival.accused, -CLAIM_WEIGHT / 2)
        if rivals:
            self.contested.add(claim)
        self.suspect(accused, CLAIM_WEIGHT / 2 if rivals else CLAIM_WEIGHT)

    def fits(self, claim: Accusation) -> bool:
        """Whether a killing claim agrees with the public deaths and this seat's own facts."""
        if self.death_turn.get(claim.victim) != claim.turn:
            return False
        if self.corpse_room.get(claim.victim, claim.room) != claim.room:
            return False
        if self.colour.get(claim.accused) == "GREEN" and claim.accused not in self.culprits:
            return False
        seen = self.sightings.get(claim.accused, [])
        return not any(t == claim.turn and r != claim.room for t, r in seen)

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

    # ------------------------------------------------------------ a Green's beliefs

    def _stale(self) -> None:
        """Drop the cached beliefs (recomputed on the next question)."""
        self._green_beliefs = None
        self._facts = None
        self._unique_at = None

    def facts(self) -> dict[str, str]:
        """Room -> feature for every room this seat knows for certain, canonical order."""
        if self._facts is None:
            self._facts = {r: f for r in ROOMS
                           if (f := self.seen.get(r) or self.mapped.get(r)) is not None}
        return self._facts

    def known_feature(self, room: str) -> str | None:
        """The feature this seat saw in ``room`` or read there from a checked Map data."""
        return self.facts().get(room)

    def credible(self, claim: Claim) -> bool:
        """Whether an INTEL message contradicts nothing this seat knows for certain."""
        for room, feature in claim.rooms:
            known = self.known_feature(room)
            if known is not None and known != feature:
                return False
            if feature in _UNIQUE and self.unique_at().get(feature, room) != room:
                return False
        code = claim.code
        wrong = self.code is not None and code != self.code
        return code is None or (code not in self.bad_codes and not wrong)

    def _claimed(self) -> dict[str, str]:
        """Room -> believed feature: known, else the feature most credible messages give."""
        if self._green_beliefs is not None:
            return self._green_beliefs
        support: dict[str, dict[str, int]] = {}
        for claim in self.claims:
            if self.credible(claim):
                for room, feature in claim.rooms:
                    votes = support.setdefault(room, {})
                    votes[feature] = votes.get(feature, 0) + 1
        found: dict[str, str] = {}
        for room in ROOMS:
            known = self.known_feature(room)
            if known is not None:
                found[room] = known
            elif room in support:
                votes = support[room]
                found[room] = max(sorted(votes), key=lambda f: votes[f])
        self._green_beliefs = found
        return found

    def believed(self, room: str) -> str | None:
        """What a Green believes ``room`` holds: known, else credible hearsay."""
        return self._claimed().get(room)

    def believed_rooms(self, feature: str) -> list[str]:
        """Rooms a Green believes hold ``feature``: known ones first, canonical order."""
        found = self._claimed()
        sure = self.sure_of(feature)
        return sure + [r for r in ROOMS if r not in sure and found.get(r) == feature]

    def sure_of(self, feature: str) -> list[str]:
        """Rooms this seat knows for certain hold ``feature``, canonical order."""
        return [r for r, f in self.facts().items() if f == feature]

    def unique_at(self) -> dict[str, str]:
        """Where this seat knows the one-of-a-kind specials are: feature -> room."""
        if self._unique_at is None:
            self._unique_at = {f: r for r, f in reversed(self.facts().items()) if f in _UNIQUE}
        return self._unique_at

    def green_code(self) -> str | None:
        """The code read in the General's room, else the best-supported credible one."""
        if self.code is not None:
            return self.code
        support = dict(self.code_checks)
        for claim in self.claims:
            if claim.code is not None and self.credible(claim):
                support[claim.code] = support.get(claim.code, 0) + 1
        options = [(votes, code) for code, votes in sorted(support.items())
                   if code not in self.bad_codes and votes > 0]
        return max(options)[1] if options else None

    @staticmethod
    def carries_map(limit: int) -> bool:
        """Whether an INTEL message of ``limit`` characters has room for the whole map
        (``INTEL CODE=dddd MAP=<one letter per room> DOOR=OPEN``)."""
        return len("INTEL CODE=0000 MAP= DOOR=OPEN") + len(ROOMS) <= limit

    def green_intel(self, limit: int) -> str | None:
        """The INTEL message of what this seat knows for certain (seen or checked): the
        whole known map in one ``MAP=`` word when the limit allows, else the specials."""
        letters = "".join(LETTERS.get(self.known_feature(r) or "", ".") for r in ROOMS)
        parts = ["INTEL"]
        if self.carries_map(limit):
            if letters.strip("."):
                parts.append(f"MAP={letters}")
        else:
            for key, feature in (("GHOST", GHOST), ("LAB", LAB), ("GENERALS", GENERALS)):
                rooms = self.sure_of(feature)
                if rooms:
                    parts.append(f"{key}={rooms[0]}")
            generators = self.sure_of(GENERATOR)
            if generators:
                parts.append("GEN=" + ",".join(generators))
        if self.code is not None:
            parts.insert(1, f"CODE={self.code}")
        if self.door_open:
            parts.append("DOOR=OPEN")
        return _fit(parts, limit)

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
        return _fit(parts, limit)


def _fit(parts: list[str], limit: int) -> str | None:
    """The message's parts in order while they fit ``limit`` characters; ``None`` when
    nothing but the ``INTEL`` keyword would be sent."""
    text = parts[0]
    for part in parts[1:]:
        if len(text) + 1 + len(part) > limit:
            break
        text += " " + part
    return text if text != "INTEL" else None
