"""Spy vs Spy for ``spyhouse.rl``: a turn's sheet built one order per action (docs/rl.md).

Each task action orders the *next* spy of the brotherhood without an order (spies by
number, the Leader first); declarations may come at any point; ``SUBMIT`` (action 0) ends
the sheet (spies left without an order WORK in a random region, as the rules say). For
``N`` seats (seat order), ``R = 9`` regions (A…I), the eleven tasks in rules order and the
game's ``N`` leader names sorted alphabetically (a public list: every seat knows the
others' and its own):

    0                           SUBMIT
    TASK + 9 t + r              task t in region r (the tasks that take a region)
    RECRUIT                     RECRUIT (in the Ghetto)
    FOLLOW + k                  FOLLOW leader k
    TARGET + 9 N i + N r + j    DISGUISE/HUNT/SEARCH (i = 0, 1, 2) in region r naming seat j
    DECLARE + 9 N j + 9 k + r   declare that seat j's leader is leader k, in region r

The mask follows the sheet rules (V1-V13): no task removed by the variant, no FOLLOW for
the Leader, RECRUIT only while the recruits' cost fits the gold, no brotherhood or leader
of one's own or eliminated, one declaration per brotherhood.

Pure: no I/O, no clock, no randomness.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from spyhouse.core.ruleset import Ruleset, SeatId
from spyhouse.games.spyvsspy.model import (
    LEADER_NUMBER,
    REGIONS,
    SPY2_REMOVED,
    TAKES_REGION,
    TASKS,
    Brotherhood,
    State,
    Task,
)

TARGET_TASKS: tuple[Task, ...] = (Task.DISGUISE, Task.HUNT, Task.SEARCH)
#: spies shown in the observation (a brotherhood rarely has more)
SPY_SLOTS = 16
TURN_SCALE = 40
GP_SCALE = 100


class SpyVsSpyEncoder:
    """The encoding of one game size (``N`` seats)."""

    submit: int | None = 0
    observation_low = 0.0
    observation_high = 1.0

    def __init__(self, seats: Sequence[SeatId]) -> None:
        self.seats = tuple(seats)
        self.seat_index = {seat: index for index, seat in enumerate(self.seats)}
        n = len(self.seats)
        r = len(REGIONS)
        self.n = n
        self.TASK = 1
        self.RECRUIT = self.TASK + len(TASKS) * r
        self.FOLLOW = self.RECRUIT + 1
        self.TARGET = self.FOLLOW + n
        self.DECLARE = self.TARGET + len(TARGET_TASKS) * r * n
        self.action_count = self.DECLARE + n * n * r
        # observation: turn, price, seats (alive, me) x N, gp, covertness, life, spies,
        # base 9, my leader's slot N, spies x SPY_SLOTS (ordered, skill, region 9, killed),
        # sightings region x task, declared on x N, the sheet's ordered share
        self.observation_shape = (2 + 2 * n + 4 + r + n + SPY_SLOTS * (3 + r)
                                  + r * len(TASKS) + n + 1,)

    # ------------------------------------------------------------ helpers

    @staticmethod
    def leaders(state: State) -> list[str]:
        """Every leader name of the game, alphabetically (case-folded)."""
        return sorted((b.leader for b in state.brotherhoods), key=str.casefold)

    def _spy_actions(self, sheet: Sequence[int]) -> list[int]:
        return [a for a in sheet if 0 < a < self.DECLARE]

    # ------------------------------------------------------------ actions

    def mask(self, state: State, seat: SeatId, sheet: Sequence[int]) -> NDArray[np.int8]:
        out = np.zeros(self.action_count, dtype=np.int8)
        out[0] = 1
        me = state.by_seat(seat)
        if me is None or me.eliminated is not None or state.game_over is not None:
            return out
        r = len(REGIONS)
        n = self.n
        ordered = self._spy_actions(sheet)
        rivals = [self.seat_index[b.seat] for b in state.brotherhoods
                  if b.eliminated is None and b is not me and b.seat in self.seat_index]
        leaders = self.leaders(state)
        others = [leaders.index(b.leader) for b in state.brotherhoods
                  if b.eliminated is None and b is not me]
        if len(ordered) < len(me.spies):
            number = sorted(spy.number for spy in me.spies)[len(ordered)]
            allowed = [t for t in TASKS if not (state.spy2_tasks and t in SPY2_REMOVED)]
            for t, task in enumerate(TASKS):
                if task in allowed and task in TAKES_REGION:
                    out[self.TASK + r * t:self.TASK + r * (t + 1)] = 1
            recruits = sum(1 for a in ordered if a == self.RECRUIT)
            out[self.RECRUIT] = (recruits + 1) * len(me.spies) <= me.gp
            if Task.FOLLOW in allowed and number != LEADER_NUMBER:
                for k in others:
                    out[self.FOLLOW + k] = 1
            for i, task in enumerate(TARGET_TASKS):
                if task in allowed:
                    for region in range(r):
                        for j in rivals:
                            out[self.TARGET + (i * r + region) * n + j] = 1
        declared = {(a - self.DECLARE) // (n * r) for a in sheet if a >= self.DECLARE}
        for j in rivals:
            if j not in declared:
                for k in others:
                    start = self.DECLARE + (j * n + k) * r
                    out[start:start + r] = 1
        return out

    def complete(self, state: State, seat: SeatId, sheet: Sequence[int]) -> bool:
        return bool(sheet) and sheet[-1] == 0

    def orders(self, state: State, seat: SeatId, sheet: Sequence[int]) -> dict[str, Any]:
        me = state.by_seat(seat)
        numbers = sorted(spy.number for spy in me.spies) if me is not None else []
        leaders = self.leaders(state)
        spies: dict[str, Any] = {}
        declarations: list[dict[str, str]] = []
        for action in sheet:
            if action == 0:
                continue
            if action >= self.DECLARE:
                j, rest = divmod(action - self.DECLARE, self.n * len(REGIONS))
                k, region = divmod(rest, len(REGIONS))
                declarations.append({"brotherhood": self.seats[j], "leader": leaders[k],
                                     "region": REGIONS[region].value})
                continue
            number = numbers[len(spies)]
            spies[str(number)] = self._task(action, leaders)
        out: dict[str, Any] = {"spies": spies}
        if declarations:
            out["declarations"] = declarations
        return out

    def _task(self, action: int, leaders: Sequence[str]) -> dict[str, str]:
        r = len(REGIONS)
        if action < self.RECRUIT:
            t, region = divmod(action - self.TASK, r)
            return {"task": TASKS[t].value, "region": REGIONS[region].value}
        if action == self.RECRUIT:
            return {"task": "RECRUIT"}
        if action < self.TARGET:
            return {"task": "FOLLOW", "leader": leaders[action - self.FOLLOW]}
        rest, j = divmod(action - self.TARGET, self.n)
        i, region = divmod(rest, r)
        return {"task": TARGET_TASKS[i].value, "region": REGIONS[region].value,
                "brotherhood": self.seats[j]}

    def parsed(self, state: State, seat: SeatId, sheet: Sequence[int]) -> None:
        return None

    def describe(self, action: int) -> str:
        if action == 0:
            return "SUBMIT"
        if action >= self.DECLARE:
            j, rest = divmod(action - self.DECLARE, self.n * len(REGIONS))
            k, region = divmod(rest, len(REGIONS))
            return f"DECLARE {self.seats[j]} leader #{k} in {REGIONS[region].value}"
        placeholder = [f"leader #{k}" for k in range(self.n)]
        return " ".join(self._task(action, placeholder).values())

    # ------------------------------------------------------------ observations

    def observe(self, state: State, seat: SeatId, sheet: Sequence[int]) -> NDArray[np.float32]:
        out = np.zeros(self.observation_shape, dtype=np.float32)
        n = self.n
        r = len(REGIONS)
        me = state.by_seat(seat)
        out[0] = min(state.turn, TURN_SCALE) / TURN_SCALE
        out[1] = min(state.price, GP_SCALE) / GP_SCALE if state.spy2_declarations else 0.0
        for b in state.brotherhoods:
            j = self.seat_index.get(b.seat)
            if j is not None:
                out[2 + j] = b.eliminated is None
                out[2 + n + j] = b is me
        at = 2 + 2 * n
        if me is None or me.eliminated is not None:
            return out
        self._me(state, me, out, at)
        at += 4 + r + n
        log = state.log.seats.get(seat) if state.log is not None else None
        ordered = len(self._spy_actions(sheet))
        if log is None:
            lines = [(spy.number, spy.skill, spy.at, False) for spy in me.spies]
        else:
            lines = [(line.number, line.skill, line.at, line.killed) for line in log.spies]
        numbers = sorted(spy.number for spy in me.spies)
        done = set(numbers[:ordered])
        for slot, (number, skill, where, killed) in enumerate(lines[:SPY_SLOTS]):
            row = at + slot * (3 + r)
            out[row] = number in done
            out[row + 1] = min(skill, 10) / 10
            out[row + 2] = killed
            if where is not None:
                out[row + 3 + REGIONS.index(where)] = 1.0
        at += SPY_SLOTS * (3 + r)
        if log is not None:
            for sighting in log.seen:
                cell = at + REGIONS.index(sighting.region) * len(TASKS) \
                    + TASKS.index(sighting.task)
                out[cell] = min(out[cell] + 0.25, 1.0)
        at += r * len(TASKS)
        for a in sheet:
            if a >= self.DECLARE:
                out[at + (a - self.DECLARE) // (n * r)] = 1.0
        at += n
        out[at] = ordered / max(len(me.spies), 1)
        return out

    def _me(self, state: State, me: Brotherhood, out: NDArray[np.float32], at: int) -> None:
        r = len(REGIONS)
        out[at] = min(me.gp, GP_SCALE) / GP_SCALE
        out[at + 1] = min(me.covertness, 10) / 10
        out[at + 2] = min(me.life, 10) / 10
        out[at + 3] = min(len(me.spies), SPY_SLOTS) / SPY_SLOTS
        out[at + 4 + REGIONS.index(me.base)] = 1.0
        out[at + 4 + r + self.leaders(state).index(me.leader)] = 1.0


def encoding(ruleset: Ruleset[Any, Any], options: Mapping[str, Any],
             seats: Sequence[SeatId]) -> SpyVsSpyEncoder:
    """The encoder of a game of ``len(seats)`` brotherhoods."""
    return SpyVsSpyEncoder(seats)


ENCODING = encoding
