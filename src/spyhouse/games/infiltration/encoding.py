"""Infiltration for ``spyhouse.rl``: a sheet built one order at a time (docs/rl.md).

Every phase's sheet is a few orders, each one action, ended by ``SUBMIT`` (action 0): the
class; the room to move to and READY; the vote, each kill, one terminal action and READY.
Layout for ``N`` players (fixed by the game's size; ``R = 64`` rooms in ``ROOMS`` order,
``NPC_SLOTS`` NPC ids: Guard-A…H, Engineer-1…4, Renegade-1…2):

    0                    SUBMIT
    CLASS   + k          choose class k (Warrior, Hacker, Sneaker)
    MOVE    + r          move to room r
    VOTE    + j          vote for player j (seat order); VOTE + N: NO LYNCH; + N + 1: NO REDS LEFT
    KILL    + j          kill player j; KILL + N + m: kill NPC slot m
    USE                  USE the terminal here (types that take no argument)
    HACK, DESTROY, RESTORE
    USE_PLAYER + j       USE a Seer/Locator on player j
    USE_ROOM   + r       USE a History/Gas/Lock/Switch on room r, or Map data on [room r]
    READY                mark the sheet ready (after a vote, in the Decision phase)

Not encoded (a documented subset): door codes, Map data on several rooms, anonymous
messages, Validity statements and Commander's guard orders. Every masked action is one
``parse_orders`` accepts (the mask follows the view's own ``choices``).

Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from spyhouse.core.ruleset import Ruleset, SeatId
from spyhouse.games.infiltration.model import (
    CLASSES,
    FEATURES,
    GUARD_IDS,
    ROOM_INDEX,
    ROOMS,
    Feature,
    Phase,
    State,
    Team,
)
from spyhouse.games.infiltration.orders import ACTIONS, NO_LYNCH, NO_REDS_LEFT
from spyhouse.games.infiltration.view import choices

NPC_SLOTS: tuple[str, ...] = (GUARD_IDS + tuple(f"Engineer-{n}" for n in range(1, 5))
                              + tuple(f"Renegade-{n}" for n in range(1, 3)))
NPC_SLOT = {npc: index for index, npc in enumerate(NPC_SLOTS)}
PHASES = (Phase.CLASS, Phase.MOVEMENT, Phase.DECISION, Phase.OVER)
#: terminals whose USE takes a player / one room / nothing
PLAYER_TERMINALS = frozenset({Feature.SEER, Feature.LOCATOR})
ROOM_TERMINALS = frozenset({Feature.HISTORY, Feature.GAS, Feature.LOCK, Feature.SWITCH,
                            Feature.MAPDATA})
PLAIN_TERMINALS = frozenset({Feature.PSYCHIC, Feature.SUPERLOCATOR, Feature.GUARD})
TURN_SCALE = 30


class InfiltrationEncoder:
    """The encoding of one game size (``N`` players)."""

    submit: int | None = 0
    observation_low = 0.0
    observation_high = 1.0

    def __init__(self, seats: Sequence[SeatId]) -> None:
        self.seats = tuple(seats)
        self.seat_index = {seat: index for index, seat in enumerate(self.seats)}
        n = len(self.seats)
        self.players = n
        rooms = len(ROOMS)
        self.CLASS = 1
        self.MOVE = self.CLASS + len(CLASSES)
        self.VOTE = self.MOVE + rooms
        self.KILL = self.VOTE + n + 2
        self.USE = self.KILL + n + len(NPC_SLOTS)
        self.HACK = self.USE + 1
        self.DESTROY = self.USE + 2
        self.RESTORE = self.USE + 3
        self.USE_PLAYER = self.USE + 4
        self.USE_ROOM = self.USE_PLAYER + n
        self.READY = self.USE_ROOM + rooms
        self.action_count = self.READY + 1
        # observation: phase 4, turn, alert, me (alive, red, class 3, room 64, stinger,
        # phantoms), players (alive, me, known red, here) x N, NPCs here, occupancy 64,
        # terminal here (feature one-hot, 4 actions), the sheet (class, move, vote, kills,
        # terminal, ready)
        self.sizes = (4 + 2, 2 + len(CLASSES) + rooms + 2, 4 * n, len(NPC_SLOTS), rooms,
                      len(FEATURES) + len(ACTIONS), 6)
        self.observation_shape = (sum(self.sizes),)

    # ------------------------------------------------------------ actions

    def _target(self, ident: str) -> int:
        """The kill action of a player seat or an NPC id."""
        if ident in self.seat_index:
            return self.KILL + self.seat_index[ident]
        return self.KILL + self.players + NPC_SLOT[ident]

    def mask(self, state: State, seat: SeatId, sheet: Sequence[int]) -> NDArray[np.int8]:
        out = np.zeros(self.action_count, dtype=np.int8)
        out[0] = 1
        me = state.player(seat)
        if state.phase is Phase.OVER or not (me.alive or state.phase is Phase.CLASS):
            return out
        offered = choices(state, me)
        used = set(sheet)
        if state.phase is Phase.CLASS:
            if not any(self.CLASS <= a < self.MOVE for a in used):
                for klass in offered["classes"]:
                    out[self.CLASS + CLASSES.index(klass)] = 1
            return out
        if state.phase is Phase.MOVEMENT:
            if not any(self.MOVE <= a < self.VOTE for a in used):
                out[self.MOVE:self.MOVE + len(ROOMS)] = 1
            out[self.READY] = self.READY not in used
            return out
        voted = any(self.VOTE <= a < self.KILL for a in used)
        if not voted:
            for target in offered["vote"]:
                out[self._vote(target)] = 1
        for target in offered["kill"]:
            action = self._target(target)
            out[action] = action not in used
        if not any(self.USE <= a < self.READY for a in used):
            self._terminal(state, me.room, offered["terminal"], out)
        out[self.READY] = voted and self.READY not in used
        return out

    def _vote(self, target: str) -> int:
        if target == NO_LYNCH:
            return self.VOTE + self.players
        if target == NO_REDS_LEFT:
            return self.VOTE + self.players + 1
        return self.VOTE + self.seat_index[target]

    def _terminal(self, state: State, room: str, offered: Mapping[str, Any],
                  out: NDArray[np.int8]) -> None:
        actions = offered["actions"]
        if not actions:
            return
        feature = state.feature(room)
        for action in actions[1:]:
            out[{"HACK": self.HACK, "DESTROY": self.DESTROY, "RESTORE": self.RESTORE}[action]] = 1
        if feature in PLAIN_TERMINALS:
            out[self.USE] = 1
        elif feature in PLAYER_TERMINALS:
            out[self.USE_PLAYER:self.USE_PLAYER + self.players] = 1
        elif feature in ROOM_TERMINALS:
            out[self.USE_ROOM:self.USE_ROOM + len(ROOMS)] = 1
            if feature is Feature.SWITCH:
                out[self.USE_ROOM + ROOM_INDEX[room]] = 0

    def complete(self, state: State, seat: SeatId, sheet: Sequence[int]) -> bool:
        return bool(sheet) and sheet[-1] == 0

    def orders(self, state: State, seat: SeatId, sheet: Sequence[int]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        kills: list[str] = []
        room = state.player(seat).room
        for action in sheet:
            if action == 0:
                continue
            if action == self.READY:
                out["ready"] = True
            elif action < self.MOVE:
                out["class"] = CLASSES[action - self.CLASS].value
            elif action < self.VOTE:
                out["move"] = ROOMS[action - self.MOVE]
            elif action < self.KILL:
                out["vote"] = self._vote_name(action - self.VOTE)
            elif action < self.USE:
                k = action - self.KILL
                kills.append(self.seats[k] if k < self.players
                             else NPC_SLOTS[k - self.players])
            else:
                out["terminal"] = self._terminal_json(state.feature(room), action)
        if kills:
            out["kill"] = kills
        return out

    def _vote_name(self, k: int) -> str:
        if k < self.players:
            return self.seats[k]
        return NO_LYNCH if k == self.players else NO_REDS_LEFT

    def _terminal_json(self, feature: Feature, action: int) -> dict[str, Any]:
        if action < self.USE_PLAYER:
            return {"action": ACTIONS[action - self.USE]}
        if action < self.USE_ROOM:
            return {"action": "USE", "player": self.seats[action - self.USE_PLAYER]}
        room = ROOMS[action - self.USE_ROOM]
        if feature is Feature.MAPDATA:
            return {"action": "USE", "rooms": [room]}
        return {"action": "USE", "room": room}

    def parsed(self, state: State, seat: SeatId, sheet: Sequence[int]) -> None:
        return None

    def describe(self, action: int) -> str:
        if action == 0:
            return "SUBMIT"
        if action == self.READY:
            return "READY"
        if action < self.MOVE:
            return f"class {CLASSES[action - self.CLASS].value}"
        if action < self.VOTE:
            return f"move {ROOMS[action - self.MOVE]}"
        if action < self.KILL:
            return f"vote {self._vote_name(action - self.VOTE)}"
        if action < self.USE:
            k = action - self.KILL
            return f"kill {self.seats[k] if k < self.players else NPC_SLOTS[k - self.players]}"
        if action < self.USE_PLAYER:
            return ACTIONS[action - self.USE]
        if action < self.USE_ROOM:
            return f"USE on {self.seats[action - self.USE_PLAYER]}"
        return f"USE on {ROOMS[action - self.USE_ROOM]}"

    # ------------------------------------------------------------ observations

    def observe(self, state: State, seat: SeatId, sheet: Sequence[int]) -> NDArray[np.float32]:
        out = np.zeros(self.observation_shape, dtype=np.float32)
        me = state.player(seat)
        n = self.players
        out[PHASES.index(state.phase)] = 1.0
        out[4] = min(state.turn, TURN_SCALE) / TURN_SCALE
        out[5] = bool(state.alert) and state.phase is Phase.DECISION
        at = self.sizes[0]
        out[at] = me.alive
        out[at + 1] = me.team is Team.RED
        if me.klass is not None:
            out[at + 2 + CLASSES.index(me.klass)] = 1.0
        out[at + 2 + len(CLASSES) + ROOM_INDEX[me.room]] = 1.0
        out[at + 2 + len(CLASSES) + len(ROOMS)] = me.stinger
        out[at + 3 + len(CLASSES) + len(ROOMS)] = min(me.phantoms, 4) / 4
        at += self.sizes[1]
        awaited = state.phase is not Phase.OVER and (me.alive or state.phase is Phase.CLASS)
        offered = choices(state, me) if awaited else {}
        here = set(offered.get("kill", ()))
        for player in state.players:
            j = self.seat_index[player.seat]
            out[at + j] = player.alive
            out[at + n + j] = player.seat == seat
            out[at + 2 * n + j] = me.team is Team.RED and player.team is Team.RED
            out[at + 3 * n + j] = player.seat in here
        at += self.sizes[2]
        for npc in here:
            if npc in NPC_SLOT:
                out[at + NPC_SLOT[npc]] = 1.0
        at += self.sizes[3]
        if me.team is Team.RED and me.alive and state.phase is Phase.MOVEMENT:
            for room, count in state.occupancy:
                out[at + ROOM_INDEX[room]] = min(count, n) / n
        at += self.sizes[4]
        terminal = offered.get("terminal")
        if terminal:
            feature = state.feature(me.room)
            out[at + FEATURES.index(feature)] = 1.0
            for action in terminal["actions"]:
                out[at + len(FEATURES) + ACTIONS.index(action)] = 1.0
        at += self.sizes[5]
        used = set(sheet)
        out[at] = any(self.CLASS <= a < self.MOVE for a in used)
        out[at + 1] = any(self.MOVE <= a < self.VOTE for a in used)
        out[at + 2] = any(self.VOTE <= a < self.KILL for a in used)
        out[at + 3] = min(sum(1 for a in used if self.KILL <= a < self.USE), 4) / 4
        out[at + 4] = any(self.USE <= a < self.READY for a in used)
        out[at + 5] = self.READY in used
        return out


def encoding(ruleset: Ruleset[Any, Any], options: Mapping[str, Any],
             seats: Sequence[SeatId]) -> InfiltrationEncoder:
    """The encoder of a game of ``len(seats)`` players."""
    return InfiltrationEncoder(seats)


ENCODING = encoding
