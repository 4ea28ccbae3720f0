"""The Validity check's statement language (spec §10): parse and evaluate one atom.

A statement is exactly one of the forms Q1–Q8; tokens are separated by spaces and
matched case-insensitively. Anything else does not parse (U8), and a form whose
``<player>`` is no handle is refused with G3 by the order parser.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from spyhouse.games.infiltration.model import (
    FEATURE_KEYWORDS,
    GUARD_IDS,
    ROOM_INDEX,
    Feature,
    State,
)

_WORD = re.compile(r"^[A-Za-z0-9_]+$")
_NUMBER = re.compile(r"^[0-9]+$")
_CODE = re.compile(r"^[0-9]{4}$")


@dataclass(frozen=True, slots=True)
class Statement:
    """A parsed statement: its form (Q1…Q8) and its arguments (player as typed)."""

    form: str
    player: str | None = None
    room: str | None = None
    turn: int | None = None
    guard: str | None = None
    feature: Feature | None = None
    code: str | None = None


def _room(token: str) -> str | None:
    room = token.upper()
    return room if room in ROOM_INDEX else None


def parse_statement(text: str, current_turn: int) -> Statement | None:
    """The statement's form and arguments, or ``None`` when it matches no form (U8)."""
    tokens = text.split()
    upper = [t.upper() for t in tokens]
    n = len(tokens)
    if n == 3 and upper[0] == "CODE" and upper[1] == "IS" and _CODE.match(tokens[2]):
        return Statement("Q8", code=tokens[2])
    if n == 4 and upper[1:3] == ["IS", "IN"] and (room := _room(tokens[3])):
        if upper[0] in {g.upper() for g in GUARD_IDS}:
            return Statement("Q4", guard=f"Guard-{upper[0][-1]}", room=room)
        if _WORD.match(tokens[0]):
            return Statement("Q1", player=tokens[0], room=room)
        return None
    if (n == 7 and upper[1:3] == ["WAS", "IN"] and upper[4:6] == ["ON", "TURN"]
            and _WORD.match(tokens[0]) and (room := _room(tokens[3]))
            and _NUMBER.match(tokens[6]) and int(tokens[6]) <= current_turn):
        return Statement("Q2", player=tokens[0], room=room, turn=int(tokens[6]))
    if n == 3 and upper[1] == "HAS":
        room = _room(tokens[0])
        if room is not None:
            feature = FEATURE_KEYWORDS.get(upper[2])
            return None if feature is None else Statement("Q5", room=room, feature=feature)
        if upper[2] == "STINGER" and _WORD.match(tokens[0]):
            return Statement("Q3", player=tokens[0])
        return None
    if n == 3 and upper[1] == "IS" and (room := _room(tokens[0])):
        if upper[2] == "DESTROYED":
            return Statement("Q6", room=room)
        if upper[2] == "HACKED":
            return Statement("Q7", room=room)
    return None


def evaluate(statement: Statement, state: State) -> bool:
    """The statement's truth on the snapshot (§10 table)."""
    form = statement.form
    if form in ("Q1", "Q2", "Q3"):
        player = state.by_handle(statement.player or "")
        if player is None:
            return False
        if form == "Q1":
            return player.room == statement.room
        if form == "Q2":
            log = state.presence_log
            turn = statement.turn or 0
            return turn < len(log) and log[turn].get(player.seat) == statement.room
        return player.alive and player.stinger
    if form == "Q4":
        return state.npc(statement.guard or "").room == statement.room
    room = statement.room or ""
    if form == "Q5":
        return state.feature(room) is statement.feature
    if form == "Q6":
        return state.feature(room).is_terminal and state.is_destroyed(room)
    if form == "Q7":
        return state.feature(room).is_terminal and state.is_hacked(room)
    return statement.code == state.code
