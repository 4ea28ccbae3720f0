"""The scratch state of one turn's resolution: each spy's act and the turn's context."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from spyhouse.core.rng import Rng, Stream
from spyhouse.games.spyvsspy.model import (
    LEADER_NUMBER,
    Brotherhood,
    Region,
    Spy,
    SpyOrder,
    State,
    Task,
)


@dataclass(slots=True, eq=False)
class Act:
    """One spy's executed task this turn, where it is, and what happened to it."""

    b: Brotherhood
    spy: Spy
    order: SpyOrder
    region: Region
    task: Task = field(init=False)
    leader: bool = field(init=False)
    alive: bool = True
    guarded: bool = False
    disguise: int | None = None
    result: str | None = None
    killed_by: str | None = None

    def __post_init__(self) -> None:
        self.task = self.order.task
        self.leader = self.spy.number == LEADER_NUMBER

    @property
    def apparent(self) -> int:
        """The brotherhood others count it under (its disguise while doing DISGUISE)."""
        if self.order.task is Task.DISGUISE and self.disguise is not None:
            return self.disguise
        return self.b.bid


@dataclass
class Turn:
    """Context of resolving turn ``t``: the cloned state, the acts in canonical order."""

    state: State
    t: int
    rng: Rng
    acts: list[Act] = field(default_factory=list)
    by_task: dict[Task, list[Act]] = field(default_factory=dict)
    notices: dict[str, list[str]] = field(default_factory=dict)
    hunt_news: list[tuple[str, str]] = field(default_factory=list)
    fakes: dict[Region, list[Act]] = field(default_factory=dict)
    recruits: dict[str, list[tuple[int, str]]] = field(default_factory=dict)
    n0: dict[int, int] = field(default_factory=dict)
    #: the host's record of T7 and T9 (JSON-ready), for "why it happened"
    explain_hunts: list[dict[str, Any]] = field(default_factory=list)
    explain_searches: dict[Region, dict[str, Any]] = field(default_factory=dict)

    def stream(self, purpose: str) -> Stream:
        return self.rng.stream(self.t, purpose)

    def place(self, act: Act) -> None:
        self.acts.append(act)
        self.by_task.setdefault(act.task, []).append(act)

    def alive_doing(self, task: Task) -> list[Act]:
        """This task's spies not yet killed, in canonical order."""
        return [act for act in self.by_task.get(task, ()) if act.alive]

    def notice(self, b: Brotherhood, text: str) -> None:
        self.notices.setdefault(b.seat, []).append(text)

    def by_bid(self, bid: int) -> Brotherhood:
        return self.state.brotherhoods[bid - 1]
