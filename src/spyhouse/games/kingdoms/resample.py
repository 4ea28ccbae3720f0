"""A world one seat cannot tell from the real one (``Ruleset.resample``, spec §E).

The fairness harness runs a bot on such worlds: whatever the seat's view does not
show is redrawn, and the seat's view of the new state is exactly the old one.
An area the seat's last report speaks of at all (an observation at any moment, an
event, a row or a FIND result) is *seen*: nothing in it is changed. For every other
country still in the game:

- its armies in its unseen areas are dealt out afresh among those areas (the same
  number on the map, so its reserve and ``force_pool`` hold);
- its BP is drawn between what its income of the last turn guarantees and what its
  past income (public news) could have saved, less what its armies and agents
  on the map must have cost;
- each agent and watcher the report never showed is placed in another unseen land
  area (a waiting agent in another unseen area of its own, its WAIT moving along),
  and the target of every standing WAIT is drawn among the other countries.

Once the game is over the ranking shows areas, armies and BP, so only agents and
WAITs are redrawn. Only the present view is matched, not the seat's earlier reports.
Other countries' end-of-turn observations are taken again in the new world; the rest
of their reports stays as it was told.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from spyhouse.core.rng import Rng, Stream
from spyhouse.games.kingdoms.model import (
    AGENT_TYPES,
    RECRUIT_COST,
    WATCHER,
    AgentType,
    Country,
    Observation,
    Report,
    State,
    Wait,
)
from spyhouse.games.kingdoms.setup import HOME_ARMIES, OTHER_ARMIES
from spyhouse.games.kingdoms.view import seat_view


def resample(state: State, seat: str, rng: Rng) -> State:
    """A state ``seat`` cannot tell from ``state``; ``state`` itself is left untouched."""
    seen_view = seat_view(state, seat)
    me = state.country_of(seat)
    assert me is not None  # seat_view raised otherwise
    if state.resolved == 0:  # setup draws nothing (D.1): the rules tell the whole state
        return state.clone()
    stream = rng.stream(state.resolved, f"resample:{seat}")
    seen_areas = _seen_areas(seen_view)
    seen_agents = _seen_agents(seen_view)
    new = state.clone()
    others = [c for c in new.countries.values() if c.eliminated is None and c.id != me.id]
    free = [area for area in new.map.lands if area not in seen_areas]
    for country in others:
        if new.outcome is None:
            _deal_armies(new, country, seen_areas, stream)
            _redraw_bp(new, country, stream)
        _place_agents(new, country, seen_agents, free, stream)
        _place_watchers(new, country, seen_agents, free, stream)
        _redraw_wait(new, country, stream)
    new.reports = _retake_end_observations(new, me.id)
    return new


# ---------------------------------------------------------------- what the view tells


def _seen_areas(view: Mapping[str, Any]) -> set[str]:
    """Every area the seat's last report names (observations, events, rows, FINDs)."""
    report = view.get("report") or {}
    areas: set[str] = set()
    for observation in report.get("observations", ()):
        areas.add(observation["area"])
    for event in report.get("events", ()):
        if isinstance(event.get("area"), str):
            areas.add(event["area"])
    for result in report.get("results", ()):
        row = result["row"]
        areas.update(value for value in (row.get("from"), row.get("to")) if value)
        find = result.get("find") or {}
        if isinstance(find.get("area"), str):
            areas.add(find["area"])
    return areas


def _seen_agents(view: Mapping[str, Any]) -> set[tuple[str, str]]:
    """(country, type) of every foreign agent or watcher the report shows anywhere;
    a FIND whose names the country's SPY, found or not."""
    report = view.get("report") or {}
    seen: set[tuple[str, str]] = set()
    for observation in report.get("observations", ()):
        seen.update((a["country"], a["type"]) for a in observation["agents"])
    for result in report.get("results", ()):
        find = result.get("find") or {}
        if "found" in find:
            seen.update((a["country"], a["type"]) for a in find["found"])
        elif "country" in find:
            seen.add((find["country"], AgentType.SPY.value))
    for event in report.get("events", ()):
        for who, kind in ((event.get("by"), event.get("means")),
                          (event.get("victim"), event.get("type"))):
            if isinstance(who, str) and isinstance(kind, str):
                seen.add((who, kind))
    return seen


# ---------------------------------------------------------------- the redraws


def _deal_armies(state: State, country: Country, seen: set[str], stream: Stream) -> None:
    """The country's armies in its unseen areas, dealt one by one among those areas."""
    areas = [a for a in state.owned(country.id) if a not in seen]
    if len(areas) < 2:
        return
    total = sum(state.armies[a] for a in areas)
    for area in areas:
        state.armies[area] = 0
    for _ in range(total):
        state.armies[stream.choice(areas)] += 1


def _start_armies(state: State, cid: str) -> int:
    home = state.map.country[cid].home
    return sum(HOME_ARMIES if a.id == home else OTHER_ARMIES
               for a in state.map.areas if a.land and a.owner == cid)


def _past_income(state: State, cid: str) -> int:
    """BP the country earned in every resolved turn: its areas after each, from the
    public news undone turn by turn (income is paid after the turn's captures)."""
    owners = dict(state.owners)
    total = 0
    for news in reversed(state.news):
        total += sum(1 for owner in owners.values() if owner == cid)
        for area, old, _new in reversed(news.captures):
            owners[area] = old
    return total


def _redraw_bp(state: State, country: Country, stream: Stream) -> None:
    """BP between the last income (paid after all spending) and the most it could have
    kept: start + past income - the armies raised and agents recruited it must have paid."""
    if state.resolved == 0:
        return
    on_map = sum(state.armies[a] for a in state.owned(country.id))
    spent = (2 * max(0, on_map - _start_armies(state, country.id))
             + sum(RECRUIT_COST[kind] for kind in country.agents)
             + RECRUIT_COST[AgentType.SPY] * len(country.watchers))
    low = len(state.owned(country.id))
    high = state.options.start_bp + _past_income(state, country.id) - spent
    if high > low:
        country.bp = low + stream.roll(high - low + 1) - 1


def _place_agents(state: State, country: Country, seen: set[tuple[str, str]],
                  free: list[str], stream: Stream) -> None:
    """Each agent the report never showed, to an unseen land area (a waiting agent to an
    unseen area its country owns, its WAIT with it)."""
    for kind in AGENT_TYPES:
        if kind not in country.agents or (country.id, kind.value) in seen:
            continue
        wait = country.wait
        if wait is not None and wait.agent is kind:
            if wait.area not in free:
                continue
            places = [a for a in free if state.owners.get(a) == country.id]
            country.agents[kind] = stream.choice(places)
            country.wait = replace(wait, area=country.agents[kind])
        elif country.agents[kind] in free:
            country.agents[kind] = stream.choice(free)


def _place_watchers(state: State, country: Country, seen: set[tuple[str, str]],
                    free: list[str], stream: Stream) -> None:
    """Watchers no FIND found, to unseen land areas (one per area, area order)."""
    if not country.watchers or (country.id, WATCHER) in seen:
        return
    kept = [a for a in country.watchers if a not in free]
    movable = len(country.watchers) - len(kept)
    places = [a for a in free if a not in kept]
    drawn = stream.ordering(places)[:movable]
    country.watchers = sorted(kept + drawn, key=lambda a: state.map.order[a])


def _redraw_wait(state: State, country: Country, stream: Stream) -> None:
    """A standing WAIT is never shown to its target: its target is drawn among the others."""
    wait = country.wait
    if wait is None:
        return
    targets = [c.id for c in state.alive() if c.id != country.id]
    if targets:
        country.wait = Wait(wait.agent, wait.area, stream.choice(targets), wait.hunts)


# ---------------------------------------------------------------- hidden records


def _retake_end_observations(state: State, mine: str) -> dict[str, Report]:
    """Every other country's report with its end-of-turn observations (A.4) taken
    again in the new world; the seat's own report as it was."""
    reports = dict(state.reports)
    for cid, report in state.reports.items():
        country = state.countries[cid]
        if cid == mine or country.eliminated is not None:
            continue
        kept = tuple(o for o in report.observations if o.when != "end")
        reports[cid] = replace(report, observations=kept + _end_observations(state, country))
    return reports


def _end_observations(state: State, country: Country) -> tuple[Observation, ...]:
    spots = [(where, kind.value) for kind in AGENT_TYPES
             if (where := country.agents.get(kind)) is not None]
    spots += [(where, WATCHER) for where in country.watchers]
    return tuple(Observation(area, "end", by, state.owners.get(area), state.armies.get(area, 0),
                             _foreign_agents(state, area, country.id))
                 for area, by in spots)


def _foreign_agents(state: State, area: str, viewer: str) -> tuple[tuple[str, str], ...]:
    return tuple((c.id, kind.value) for c in state.countries.values() if c.id != viewer
                 for kind in AGENT_TYPES if c.agents.get(kind) == area)
