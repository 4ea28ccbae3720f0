"""The scratch context of one turn's resolution and the primitives every rule shares.

``Turn`` holds the state being resolved (already a clone), the turn number, the
battle stream and each country's growing report. Its methods implement the
spec's shared steps: observations (A.4), entering with the ambush check (D.4),
eliminating an agent (D.5), cancelling a WAIT (A.7.4) and capture (B.6).

An action handler (``spies.py``, ``armies.py``) checks its conditions first and
raises ``Failed`` with the C.4 message, then pays and applies its effects and
returns ``Done``: an action is atomic (C.4.1).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from spyhouse.core.rng import Rng, Stream
from spyhouse.games.kingdoms.model import (
    AGENT_TYPES,
    AgentType,
    Country,
    Event,
    FindWhere,
    FindWhose,
    Observation,
    Result,
    Scalar,
    State,
)


class Failed(Exception):
    """A processing-time failure (C.4.3): the action has no effect at all."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def given(value: str | None) -> str:
    """A field ``parse_orders`` guarantees to be filled (C.2)."""
    if value is None:
        raise TypeError("a required field is blank: the row was not parsed")
    return value


def pay(country: Country, cost: int) -> None:
    """C.4.1-2: the whole cost, checked after every other condition, then paid at once.

    BP never goes below 0; a cost equal to the BP is allowed.
    """
    if country.bp < cost:
        raise Failed(f"not enough BPs (need {cost}, have {country.bp})")
    country.bp -= cost


@dataclass(frozen=True, slots=True)
class Done:
    """A successful action: its result text, the BP paid and FIND's structured result."""

    text: str
    bp: int = 0
    find: FindWhose | FindWhere | None = None


@dataclass(slots=True)
class Log:
    """One country's report as it grows during the turn (E.2)."""

    results: list[Result] = field(default_factory=list)
    observations: list[Observation] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    income: int = 0


class Turn:
    """Resolution of turn ``state.turn`` on a state the caller has already cloned."""

    def __init__(self, state: State, rng: Rng) -> None:
        self.state = state
        self.t = state.turn
        self.rng = rng
        self.logs: dict[str, Log] = {cid: Log() for cid in state.countries}
        #: (area, old owner, new owner) in processing order (E.1 news).
        self.captures: list[tuple[str, str | None, str]] = []
        self.eliminated: list[str] = []
        self._battle: Stream | None = None

    # -- randomness (D.6)

    def die(self) -> int:
        """One battle die, 1..6, from the turn's ``battle`` stream in processing order."""
        if self._battle is None:
            self._battle = self.rng.stream(self.t, "battle")
        return self._battle.roll(6)

    # -- reports

    def event(self, cid: str, name: str, **data: Scalar) -> None:
        """A private event for ``cid``; keys keep the order given (E.2)."""
        self.logs[cid].events.append(Event(name, tuple(data.items())))

    def foreign_agents(self, area: str, viewer: str) -> tuple[tuple[str, str], ...]:
        """Every agent of a country other than ``viewer`` in ``area``, country then type."""
        found: list[tuple[str, str]] = []
        for country in self.state.countries.values():
            if country.id == viewer or not country.agents:
                continue
            for kind in AGENT_TYPES:
                if country.agents.get(kind) == area:
                    found.append((country.id, kind.value))
        return tuple(found)

    def observe(self, cid: str, area: str, when: str, by: str) -> None:
        """A.4: a snapshot of ``area`` for ``cid`` at this moment."""
        self.logs[cid].observations.append(Observation(
            area, when, by, self.state.owners.get(area), self.state.armies.get(area, 0),
            self.foreign_agents(area, cid)))

    # -- WAITs, agents (A.7.4, D.4, D.5)

    def cancel_wait(self, country: Country, cause: str) -> None:
        """A.7.4: the country's standing WAIT disappears; the country is told."""
        wait = country.wait
        if wait is None:
            return
        country.wait = None
        self.event(country.id, "wait_cancelled", agent=wait.agent.value, area=wait.area,
                   target=wait.target, cause=cause)

    def remove_agent(self, country: Country, kind: AgentType) -> None:
        """D.5: remove the agent; a WAIT it stood in is cancelled (``agent_lost``)."""
        country.agents.pop(kind, None)
        if country.wait is not None and country.wait.agent is kind:
            self.cancel_wait(country, "agent_lost")

    def enter(self, country: Country, kind: AgentType, area: str) -> bool:
        """D.4: ``country``'s agent of ``kind`` enters ``area``; ``False`` if ambushed there."""
        for waiter in self.state.countries.values():
            wait = waiter.wait
            if (wait is None or wait.area != area or wait.target != country.id
                    or wait.hunts is not kind):
                continue
            waiter.wait = None
            self.event(country.id, "agent_lost", area=area, type=kind.value, cause="ambush",
                       by=waiter.id, means=wait.agent.value)
            self.remove_agent(country, kind)
            self.event(waiter.id, "ambush", area=area, victim=country.id, type=kind.value)
            return False
        return True

    # -- areas (B.6)

    def capture(self, area: str, mover: str, armies: int, battle: bool) -> None:
        """B.6: ``mover`` owns ``area`` with ``armies``; a WAIT standing there is cancelled."""
        old = self.state.owners[area]
        self.state.owners[area] = mover
        self.state.armies[area] = armies
        self.captures.append((area, old, mover))
        if old is None:
            return
        loser = self.state.countries[old]
        self.event(old, "area_captured", area=area, by=mover, battle=battle)
        if loser.wait is not None and loser.wait.area == area:
            self.cancel_wait(loser, "captured")
