"""Orders: the §15.1 order JSON, parsed and validated at submission (§14, §15.5).

``parse_orders`` runs the §15.5 checks in the spec's order and raises at the first
failure with the exact message. The checks read only what the sender may know:
their own room and its visible contents, their team and class, and public facts.
``dump_orders`` writes the canonical JSON (default-valued keys left out), which
parses back to equal orders.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from spyhouse.core.errors import IllegalOrderError
from spyhouse.games.infiltration.model import (
    GUARD_IDS,
    PHASE_TITLE,
    Feature,
    Klass,
    Phase,
    Player,
    State,
    Team,
    canonical_npc,
    parse_class,
    parse_room,
)
from spyhouse.games.infiltration.statements import Statement, parse_statement

NO_LYNCH = "NO LYNCH"
NO_REDS_LEFT = "NO REDS LEFT"
ACTIONS: tuple[str, ...] = ("USE", "HACK", "DESTROY", "RESTORE")
_CODE = re.compile(r"^[0-9]{4}$")
_PHASE_KEYS: dict[Phase, tuple[str, ...]] = {
    Phase.CLASS: ("class",),
    Phase.MOVEMENT: ("move", "code", "ready"),
    Phase.DECISION: ("vote", "kill", "terminal", "ready"),
}

#: §15.1: the USE keys of each terminal type.
USE_KEYS: dict[Feature, tuple[str, ...]] = {
    Feature.SEER: ("player",), Feature.LOCATOR: ("player",), Feature.PSYCHIC: (),
    Feature.SUPERLOCATOR: (), Feature.GUARD: (), Feature.HISTORY: ("room",),
    Feature.GAS: ("room",), Feature.LOCK: ("room",), Feature.SWITCH: ("room",),
    Feature.MAPDATA: ("rooms",), Feature.MESSAGING: ("text",),
    Feature.VALIDITY: ("statement",), Feature.COMMANDER: ("guards",),
}
_USE_HELP: dict[Feature, str] = {
    Feature.SEER: "player (a player's seat id)", Feature.LOCATOR: "player (a player's seat id)",
    Feature.PSYCHIC: "no other field", Feature.SUPERLOCATOR: "no other field",
    Feature.GUARD: "no other field", Feature.HISTORY: "room", Feature.GAS: "room",
    Feature.LOCK: "room", Feature.SWITCH: "room (not this one)",
    Feature.MAPDATA: "rooms (1 to 5 different rooms)", Feature.VALIDITY: "statement (text)",
    Feature.COMMANDER: "guards (Guard-X → room, 1 to 8 of them)",
}
U8_TEXT = ("The terminal cannot evaluate that statement. Allowed forms: player IS IN room; "
           "player WAS IN room ON TURN n; player HAS STINGER; GUARD-x IS IN room; room HAS "
           "feature; room IS DESTROYED; room IS HACKED; CODE IS dddd. Alliance and class can "
           "never be checked.")


class InfiltrationOrderError(IllegalOrderError):
    """One refusal of §15.5: its code (``"K1"``), the 1-based ``kill`` index or None."""

    def __init__(self, seat: str | None, code: str, message: str,
                 index: int | None = None) -> None:
        super().__init__(seat, [message])
        self.code = code
        self.index = index
        self.message = message


@dataclass(frozen=True, slots=True)
class ClassOrder:
    klass: Klass | None = None


@dataclass(frozen=True, slots=True)
class MoveOrder:
    move: str | None = None
    code: str | None = None
    ready: bool = False


@dataclass(frozen=True, slots=True)
class TerminalOrder:
    action: str
    player: str | None = None
    room: str | None = None
    rooms: tuple[str, ...] | None = None
    text: str | None = None
    statement_text: str | None = None
    statement: Statement | None = None
    guards: tuple[tuple[str, str], ...] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"action": self.action}
        if self.player is not None:
            out["player"] = self.player
        if self.room is not None:
            out["room"] = self.room
        if self.rooms is not None:
            out["rooms"] = list(self.rooms)
        if self.text is not None:
            out["text"] = self.text
        if self.statement_text is not None:
            out["statement"] = self.statement_text
        if self.guards is not None:
            out["guards"] = dict(self.guards)
        return out


@dataclass(frozen=True, slots=True)
class DecisionOrder:
    vote: str | None = None
    kill: tuple[str, ...] = ()
    terminal: TerminalOrder | None = None
    ready: bool = False


Orders = ClassOrder | MoveOrder | DecisionOrder


def default_for(phase: Phase) -> Orders:
    """§15.2: the no-show default is ``{}`` in every phase."""
    if phase is Phase.CLASS:
        return ClassOrder()
    if phase is Phase.MOVEMENT:
        return MoveOrder()
    return DecisionOrder()


def dump(orders: Orders) -> dict[str, Any]:
    """The canonical order JSON; keys holding their default are left out."""
    out: dict[str, Any] = {}
    if isinstance(orders, ClassOrder):
        if orders.klass is not None:
            out["class"] = orders.klass.value
        return out
    if isinstance(orders, MoveOrder):
        if orders.move is not None:
            out["move"] = orders.move
        if orders.code is not None:
            out["code"] = orders.code
    else:
        if orders.vote is not None:
            out["vote"] = orders.vote
        if orders.kill:
            out["kill"] = list(orders.kill)
        if orders.terminal is not None:
            out["terminal"] = orders.terminal.to_json()
    if orders.ready:
        out["ready"] = True
    return out


def _quote(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _keyword(value: str) -> str:
    return " ".join(value.split()).upper()


class _Checker:
    """The §15.5 checks for one submission of one seat."""

    def __init__(self, state: State, seat: str) -> None:
        self.state = state
        self.seat = seat
        self.me: Player = state.player(seat)

    def fail(self, code: str, message: str, index: int | None = None) -> InfiltrationOrderError:
        return InfiltrationOrderError(self.seat, code, message, index)

    def name(self, ident: str) -> str:
        return self.state.handle(ident)

    def parse(self, data: Any) -> Orders:
        state, me = self.state, self.me
        if state.phase is Phase.OVER:
            raise self.fail("G5", "The game is over; no orders are accepted.")
        if not me.alive:
            raise self.fail("G2", "You are dead and can no longer give orders.")
        if not isinstance(data, dict):
            raise self.fail("F1", "Orders must be a JSON object.")
        keys = _PHASE_KEYS[state.phase]
        for key in sorted(str(k) for k in data):
            if key not in keys:
                raise self.fail("G1", f"'{key}' is not accepted during the "
                                      f"{PHASE_TITLE[state.phase]} phase.")
        if state.phase is Phase.CLASS:
            return ClassOrder(self.klass(data.get("class")))
        if state.phase is Phase.MOVEMENT:
            return MoveOrder(self.move(data.get("move")), self.code(data.get("code")),
                             self.ready(data.get("ready", False)))
        vote = self.vote(data.get("vote"))
        kill = self.kill(data.get("kill", []))
        terminal = self.terminal(data.get("terminal"))
        ready = self.ready(data.get("ready", False))
        if ready and vote is None:
            raise self.fail("B3", "Cast a vote before declaring READY.")
        return DecisionOrder(vote, kill, terminal, ready)

    # ------------------------------------------------------------ class and movement

    def klass(self, value: Any) -> Klass | None:
        if value is not None and not isinstance(value, str):
            raise self.fail("F2", "'class' must be a class name or null.")
        if value is None:
            return None
        if self.me.team is Team.RED:
            raise self.fail("P1", "Reds are always Warriors; there is nothing to choose.")
        offered = self.state.options.classes_offered
        klass = parse_class(value)
        if klass is None or klass not in offered:
            names = ", ".join(k.value for k in offered)
            raise self.fail("P2", f"{value} is not available in this game. "
                                  f"Choose one of: {names}.")
        return klass

    def move(self, value: Any) -> str | None:
        if value is not None and not isinstance(value, str):
            raise self.fail("F2", "'move' must be a room or null.")
        if value is None:
            return None
        room = parse_room(value)
        if room is None:
            raise self.fail("G4", f"'{value}' is not a room. Rooms are A-1 to H-8.")
        return room

    def code(self, value: Any) -> str | None:
        if value is None:
            return None
        if not isinstance(value, str) or not _CODE.match(value):
            raise self.fail("M1", "A door code is exactly four digits (0000–9999).")
        return value

    def ready(self, value: Any) -> bool:
        if not isinstance(value, bool):
            raise self.fail("F2", "'ready' must be true or false.")
        return value

    # ------------------------------------------------------------ vote and kill

    def ident(self, value: str) -> str | None:
        """The seat id or canonical NPC id ``value`` names, or None."""
        if value in self.state.index:
            return value
        return canonical_npc(value, self.state.npc_id_list)

    def vote(self, value: Any) -> str | None:
        if value is not None and not isinstance(value, str):
            raise self.fail("F2", "'vote' must be a player, NO LYNCH, NO REDS LEFT or null.")
        if value is None:
            return None
        keyword = _keyword(value)
        if keyword in (NO_LYNCH, NO_REDS_LEFT):
            return keyword
        ident = self.ident(value)
        if ident is None:
            raise self.fail("G3", f"There is no player or NPC called '{value}'.")
        if ident not in self.state.index:
            raise self.fail("B4", f"{ident} is not a player. Vote for a living player, "
                                  "NO LYNCH or NO REDS LEFT.")
        if ident == self.seat:
            raise self.fail("B2", "You cannot vote for yourself.")
        if not self.state.player(ident).alive:
            raise self.fail("B1", f"{self.name(ident)} is dead. Vote for a living player, "
                                  "NO LYNCH or NO REDS LEFT.")
        return ident

    def kill(self, value: Any) -> tuple[str, ...]:
        message = "'kill' must be a list of players and NPCs in your room."
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise self.fail("F2", message)
        chosen: list[str] = []
        for index, entry in enumerate(value, start=1):
            ident = self.ident(entry)
            if ident is None:
                raise self.fail("G3", f"There is no player or NPC called '{entry}'.", index)
            if ident == self.seat:
                raise self.fail("K3", "You cannot target yourself.", index)
            if ident in self.state.index:
                target = self.state.player(ident)
                room, alive = target.room, target.alive
            else:
                npc = self.state.npc(ident)
                room, alive = npc.room, npc.alive
            if room != self.me.room:
                raise self.fail("K1", f"{self.name(ident)} is not in your room.", index)
            if not alive:
                raise self.fail("K2", f"{self.name(ident)} is dead.", index)
            if ident in chosen:
                raise self.fail("K4", f"{self.name(ident)} is named more than once.", index)
            chosen.append(ident)
        return tuple(chosen)

    # ------------------------------------------------------------ terminal

    def terminal(self, value: Any) -> TerminalOrder | None:
        if value is None:
            return None
        if not isinstance(value, dict):
            raise self.fail("F2", "'terminal' must be an object or null.")
        raw = value.get("action")
        action = _keyword(raw) if isinstance(raw, str) else None
        if action not in ACTIONS:
            raise self.fail("F2", "'action' must be USE, HACK, DESTROY or RESTORE.")
        state, me = self.state, self.me
        if action in ("HACK", "DESTROY") and me.team is not Team.RED:
            raise self.fail("U11", "Only Reds can hack or destroy terminals.")
        if action == "RESTORE" and me.klass is not Klass.HACKER:
            raise self.fail("U12", "Only Hackers can restore terminals.")
        room = me.room
        feature = state.feature(room)
        if not feature.is_terminal:
            raise self.fail("U1", f"There is no terminal in {room}.")
        if state.alert and not me.sneaker:
            raise self.fail("U3", "ALERT MODE: terminals are locked down this turn.")
        if state.is_destroyed(room):
            raise self.fail("U2", f"The {feature.value} terminal in {room} is destroyed and "
                                  "cannot be used.")
        if action == "RESTORE" and not state.is_hacked(room):
            raise self.fail("U13", "This terminal is not hacked.")
        extra = sorted(str(k) for k in value if k != "action")
        if action != "USE":
            if extra:
                raise self.fail("F3", f"{action} takes no other field.")
            return TerminalOrder(action)
        return self.use(feature, value, extra)

    def use(self, feature: Feature, value: dict[str, Any], keys: list[str]) -> TerminalOrder:
        wanted = USE_KEYS[feature]
        help_text = _USE_HELP.get(
            feature, f"text (1 to {self.state.options.message_max_chars} characters)")
        u4 = self.fail("U4", f"The {feature.value} terminal takes: {help_text}.")
        if sorted(wanted) != keys:
            raise u4
        if not wanted:
            return TerminalOrder("USE")
        key = wanted[0]
        arg = value[key]
        if key in ("player", "room", "text", "statement") and not isinstance(arg, str):
            raise u4
        if key == "rooms" and not isinstance(arg, list):
            raise u4
        if key == "guards" and not isinstance(arg, dict):
            raise u4
        if key == "player":
            return TerminalOrder("USE", player=self.reading(arg))
        if key == "room":
            room = self.room(arg)
            if feature is Feature.SWITCH and room == self.me.room:
                raise self.fail("U6", "A Switch terminal cannot target its own room.")
            return TerminalOrder("USE", room=room)
        if key == "rooms":
            rooms = tuple(self.room(entry) for entry in arg)
            if not 1 <= len(rooms) <= 5 or len(set(rooms)) != len(rooms):
                raise self.fail("U5", "Choose 1 to 5 different rooms.")
            return TerminalOrder("USE", rooms=rooms)
        if key == "text":
            text = arg.strip()
            limit = self.state.options.message_max_chars
            if not 1 <= len(text) <= limit:
                raise self.fail("U9", f"Messages must be 1 to {limit} characters.")
            return TerminalOrder("USE", text=text)
        if key == "statement":
            return TerminalOrder("USE", statement_text=arg, statement=self.statement(arg))
        return TerminalOrder("USE", guards=self.guards(arg))

    def reading(self, value: str) -> str:
        ident = self.ident(value)
        if ident is None:
            raise self.fail("G3", f"There is no player or NPC called '{value}'.")
        if ident not in self.state.index:
            raise self.fail("U10", "This terminal only reads players.")
        return ident

    def room(self, value: Any) -> str:
        room = parse_room(value)
        if room is None:
            raise self.fail("G4", f"'{_quote(value)}' is not a room. Rooms are A-1 to H-8.")
        return room

    def statement(self, text: str) -> Statement:
        statement = parse_statement(text, self.state.turn)
        if statement is None:
            raise self.fail("U8", U8_TEXT)
        if statement.player is not None and self.state.by_handle(statement.player) is None:
            raise self.fail("G3", f"There is no player or NPC called '{statement.player}'.")
        return statement

    def guards(self, value: dict[str, Any]) -> tuple[tuple[str, str], ...]:
        u7 = self.fail("U7", "Give 1 to 8 destinations, at most one for each of "
                             "Guard-A … Guard-H.")
        if not 1 <= len(value) <= 8:
            raise u7
        chosen: dict[str, Any] = {}
        for key, room in value.items():
            guard = canonical_npc(key, GUARD_IDS)
            if guard is None or guard in chosen:
                raise u7
            chosen[guard] = room
        pairs = [(guard, self.room(chosen[guard])) for guard in GUARD_IDS if guard in chosen]
        return tuple(pairs)


def parse_orders(state: State, seat: str, data: Any) -> Orders:
    """§15.5: the typed orders of ``seat`` for the current phase, or the first refusal."""
    if seat not in state.index:
        raise InfiltrationOrderError(seat, "G3", f"There is no player or NPC called '{seat}'.")
    return _Checker(state, seat).parse(data)
