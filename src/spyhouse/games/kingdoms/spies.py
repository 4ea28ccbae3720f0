"""The spy chapter (Part A): movement and recruiting, FIND, KILL, WAIT, SABOTAGE, WATCH.

Each handler takes the turn context, the acting country and its row; it checks
the processing-time conditions in C.4.3's order (raising ``Failed``), then the
full BP cost, then pays and applies the effects (D.3). Messages use only the
acting country's own data and public data.
"""

from __future__ import annotations

from spyhouse.games.kingdoms.model import (
    AGENT_TYPES,
    HUNTS,
    MOVED_TYPE,
    RECRUIT_COST,
    TYPE_NAMES,
    WATCHER,
    Action,
    AgentType,
    Country,
    FindWhere,
    FindWhose,
    Row,
    Wait,
)
from spyhouse.games.kingdoms.turn import Done, Failed, Turn, given, pay

# ---------------------------------------------------------------- A.2, A.3 movement


def _recruit_point(turn: Turn, country: Country, kind: AgentType, area: str) -> None:
    """A.2.2: may ``country`` recruit its ``kind`` in ``area``?"""
    if kind is AgentType.SPY:
        if turn.state.owners.get(area) != country.id and area not in country.watchers:
            raise Failed(f"cannot recruit a spy in {area}: you do not own it and have no "
                         "watcher there")
        return
    others = any(where == area for other, where in country.agents.items() if other is not kind)
    if not others and area not in country.watchers:
        raise Failed(f"cannot recruit a {TYPE_NAMES[kind]} in {area}: you have no other agent "
                     "or watcher there")


def _route(turn: Turn, action: Action, here: str, to: str) -> int | None:
    """A.3: ``None`` for a land move, else the sea cost; ``Failed`` if the move is illegal."""
    game_map = turn.state.map
    adjacent = game_map.adjacent(here, to)
    cost = game_map.sea_cost(here, to)
    if action is Action.SPY:
        if not adjacent:
            raise Failed(f"{to} is not adjacent to {here} (use SKIP for sea moves)")
        return None
    if action is Action.SKIP:
        if adjacent:
            raise Failed(f"{to} is adjacent to {here} (use SPY)")
        if cost is None:
            raise Failed(f"no sea route from {here} to {to}")
        return cost
    if adjacent:
        return None
    if cost is None:
        raise Failed(f"no land or sea route from {here} to {to}")
    return cost


def movement(turn: Turn, country: Country, row: Row) -> Done:
    """SPY, SKIP, SPYCAT, MOLE, MOLECAT (A.2, A.3; D.3 step 3)."""
    kind = MOVED_TYPE[row.action]
    name = TYPE_NAMES[kind]
    current = country.agents.get(kind)
    recruit = current is None
    if current is None:
        if row.frm is None:
            raise Failed(f"no {name} (give FROM to recruit one)")
        _recruit_point(turn, country, kind, row.frm)
        here = row.frm
    else:
        if row.frm is not None and row.frm != current:
            raise Failed(f"your {name} is in {current}, not {row.frm}")
        if row.to is None:
            raise Failed(f"you already have a {name} (in {current})")
        here = current
    sea: int | None = None
    if row.to is not None:
        if row.to == here:
            raise Failed(f"your {name} is already in {here}")
        sea = _route(turn, row.action, here, row.to)
    recruit_cost = RECRUIT_COST[kind] if recruit else 0
    cost = recruit_cost + (sea or 0)
    pay(country, cost)
    parts: list[str] = []
    if not recruit and country.wait is not None and country.wait.agent is kind:
        turn.cancel_wait(country, "agent_action")
    if recruit:
        country.agents[kind] = here
        parts.append(f"recruited {name} in {here} ({recruit_cost} BP)")
        if not turn.enter(country, kind, here):
            return Done("; ".join(parts), cost)
        turn.observe(country.id, here, "recruit", kind.value)
    if row.to is not None:
        country.agents[kind] = row.to
        how = "land" if sea is None else "sea"
        parts.append(f"moved {name} {here} → {row.to} ({how}, {sea or 0} BP)")
        if turn.enter(country, kind, row.to):
            turn.observe(country.id, row.to, "arrival", kind.value)
    return Done("; ".join(parts), cost)


# ---------------------------------------------------------------- A.5 FIND


def find(turn: Turn, country: Country, row: Row) -> Done:
    """A.5: whose (TO = a country) or where (FROM = a land area), as things are right now."""
    if row.to is not None:
        where = turn.state.countries[row.to].agents.get(AgentType.SPY)
        text = f"{row.to} has no spy" if where is None else f"{row.to}'s spy is in {where}"
        return Done(text, 0, FindWhose(row.to, where))
    area = given(row.frm)
    found: list[tuple[str, str]] = []
    for other in turn.state.countries.values():
        if other.id == country.id:
            continue
        if other.agents.get(AgentType.SPY) == area:
            found.append((other.id, AgentType.SPY.value))
        if area in other.watchers:
            found.append((other.id, WATCHER))
    listed = ", ".join(f"{c} {'SPY' if t == 'SPY' else 'watcher'}" for c, t in found)
    return Done(f"in {area}: {listed or 'none'}", 0, FindWhere(area, tuple(found)))


# ---------------------------------------------------------------- A.6 KILL


def kill(turn: Turn, country: Country, row: Row) -> Done:
    """A.6: remove one of V's agents or watchers in X, by the preference order."""
    area, victim_id = given(row.frm), given(row.to)
    owns = turn.state.owners.get(area) == country.id
    mine = {kind for kind, where in country.agents.items() if where == area}
    if not owns and not mine & {AgentType.SPYCAT, AgentType.MOLE, AgentType.MOLECAT}:
        raise Failed(f"you have no way to kill in {area}")
    victim = turn.state.countries[victim_id]
    theirs = {kind for kind, where in victim.agents.items() if where == area}
    target: AgentType | None = None
    means = ""
    if AgentType.SPY in theirs and (owns or AgentType.SPYCAT in mine):
        target, means = AgentType.SPY, "owner" if owns else AgentType.SPYCAT.value
    elif area in victim.watchers and owns:
        victim.watchers.remove(area)
        turn.event(victim_id, "agent_lost", area=area, type=WATCHER, cause="kill",
                   by=country.id, means="owner")
        return Done(f"killed {victim_id}'s watcher in {area}")
    elif AgentType.SPYCAT in theirs and AgentType.MOLE in mine:
        target, means = AgentType.SPYCAT, AgentType.MOLE.value
    elif AgentType.MOLE in theirs and AgentType.MOLECAT in mine:
        target, means = AgentType.MOLE, AgentType.MOLECAT.value
    if target is None:
        return Done("nothing found")
    turn.event(victim_id, "agent_lost", area=area, type=target.value, cause="kill",
               by=country.id, means=means)
    turn.remove_agent(victim, target)
    return Done(f"killed {victim_id}'s {TYPE_NAMES[target]} in {area}")


# ---------------------------------------------------------------- A.7 WAIT


def wait(turn: Turn, country: Country, row: Row) -> Done:
    """A.7.2: set an ambush with agent W in its own area X for V's hunted type."""
    kind = row.waiter
    name = TYPE_NAMES[kind]
    area = country.agents.get(kind)
    if area is None:
        raise Failed(f"no {name} to wait with")
    if turn.state.owners.get(area) != country.id:
        raise Failed(f"your {name} is in {area}, which you do not own")
    target = given(row.to)
    turn.cancel_wait(country, "replaced")
    hunts = HUNTS[kind]
    country.wait = Wait(kind, area, target, hunts)
    return Done(f"your {name} waits in {area} for {row.to}'s {TYPE_NAMES[hunts]}")


# ---------------------------------------------------------------- A.8 SABOTAGE, A.9 WATCH


def sabotage(turn: Turn, country: Country, row: Row) -> Done:
    """A.8: disperse one army where the own spy stands (not an own area); the spy is lost."""
    area = country.agents.get(AgentType.SPY)
    if area is None:
        raise Failed("no spy")
    owner = turn.state.owners.get(area)
    if owner == country.id:
        raise Failed(f"your spy is in your own area {area}")
    pay(country, 1)
    dispersed = turn.state.armies.get(area, 0) >= 1
    if owner is not None:
        if dispersed:
            turn.state.armies[area] -= 1
            turn.state.countries[owner].reserve += 1
        turn.event(owner, "sabotaged", area=area, by=country.id, dispersed=dispersed)
    turn.remove_agent(country, AgentType.SPY)
    if dispersed:
        return Done(f"sabotage in {area}: one army of {owner} dispersed; your spy was caught", 1)
    return Done(f"sabotage in {area}: no army to disperse; your spy was caught", 1)


def watch(turn: Turn, country: Country, row: Row) -> Done:
    """A.9: the own spy goes underground where it stands and becomes a watcher."""
    area = country.agents.get(AgentType.SPY)
    if area is None:
        raise Failed("no spy")
    if area in country.watchers:
        raise Failed(f"you already have a watcher in {area}")
    limit = turn.state.options.max_watchers
    if len(country.watchers) >= limit:
        raise Failed(f"you already have {limit} watchers")
    turn.remove_agent(country, AgentType.SPY)
    order = turn.state.map.order
    country.watchers = sorted([*country.watchers, area], key=order.__getitem__)
    return Done(f"your spy went underground in {area}")


def start_observations(turn: Turn) -> None:
    """D.2 step 3: every existing agent observes its area, countries in country order."""
    for country in turn.state.countries.values():
        for kind in AGENT_TYPES:
            where = country.agents.get(kind)
            if where is not None:
                turn.observe(country.id, where, "start", kind.value)


def end_observations(turn: Turn) -> None:
    """D.2 step 7: each surviving country's agents (type order), then its watchers."""
    for country in turn.state.alive():
        for kind in AGENT_TYPES:
            where = country.agents.get(kind)
            if where is not None:
                turn.observe(country.id, where, "end", kind.value)
        for where in country.watchers:
            turn.observe(country.id, where, "end", WATCHER)
