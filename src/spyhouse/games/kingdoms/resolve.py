"""Resolving one turn (D.2): the steps in order, and the interleaving of every country's rows.

``resolve_turn`` clones the state, so the caller's state is never touched. Each
step is a function named after the spec step it implements. Nothing is
simultaneous: for slot s = 1..K, each country in player order processes its s-th
row completely before the next one (D.2 step 4).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from spyhouse.core.rng import Rng
from spyhouse.games.kingdoms import armies, spies
from spyhouse.games.kingdoms.model import (
    Action,
    Country,
    News,
    Orders,
    Ranking,
    Report,
    Result,
    Row,
    State,
)
from spyhouse.games.kingdoms.turn import Done, Failed, Turn

Handler = Callable[[Turn, Country, Row], Done]

HANDLERS: dict[Action, Handler] = {
    Action.SPY: spies.movement,
    Action.SKIP: spies.movement,
    Action.SPYCAT: spies.movement,
    Action.MOLE: spies.movement,
    Action.MOLECAT: spies.movement,
    Action.FIND: spies.find,
    Action.KILL: spies.kill,
    Action.WAIT: spies.wait,
    Action.SABOTAGE: spies.sabotage,
    Action.WATCH: spies.watch,
    Action.RAISE: armies.raise_armies,
    Action.MOVE: armies.move,
}


def player_order(state: State, turn: int | None = None) -> list[str]:
    """D.2 step 1: the base order rotated left by (t - 1) mod N, eliminated ones removed."""
    t = state.turn if turn is None else turn
    base = state.base_order
    shift = (t - 1) % len(base)
    rotated = [*base[shift:], *base[:shift]]
    return [cid for cid in rotated if state.countries[cid].eliminated is None]


def d2_orders(state: State, order: Sequence[str], orders: Mapping[str, Orders | None]
              ) -> dict[str, tuple[Row, ...]]:
    """D.2 step 2: each country's rows; a no-show (``None``) gets ``[]`` (C.4.5)."""
    rows: dict[str, tuple[Row, ...]] = {}
    for cid in order:
        given = orders.get(state.countries[cid].seat)
        rows[cid] = given.actions if given is not None else ()
    return rows


def process(turn: Turn, country: Country, index: int, row: Row) -> None:
    """D.3: one action of one country, atomic: done with its effects, or failed with none."""
    try:
        done = HANDLERS[row.action](turn, country, row)
    except Failed as failure:
        result = Result(index, row, False, failure.message)
    else:
        result = Result(index, row, True, done.text, done.bp, done.find)
    turn.logs[country.id].results.append(result)


def d4_action_phase(turn: Turn, order: Sequence[str], rows: Mapping[str, tuple[Row, ...]]
                    ) -> None:
    """D.2 step 4: slot by slot, country by country in player order."""
    slots = max((len(r) for r in rows.values()), default=0)
    countries = turn.state.countries
    for slot in range(slots):
        for cid in order:
            mine = rows[cid]
            if slot < len(mine):
                process(turn, countries[cid], slot + 1, mine[slot])


def d5_eliminations(turn: Turn) -> None:
    """D.2 step 5 (B.7.1): countries owning no land area are eliminated, in base order."""
    state = turn.state
    owning = set(state.owners.values())
    for cid in state.base_order:
        country = state.countries[cid]
        if country.eliminated is not None or cid in owning:
            continue
        country.eliminated = turn.t
        country.agents.clear()
        country.watchers.clear()
        country.wait = None
        turn.eliminated.append(cid)
        turn.event(cid, "eliminated", turn=turn.t)
    for cid in turn.eliminated:
        for other in state.countries.values():
            if other.wait is not None and other.wait.target == cid:
                turn.cancel_wait(other, "target_eliminated")


def d6_income(turn: Turn) -> None:
    """D.2 step 6 (B.3): 1 BP per owned land area to each surviving country."""
    counts: dict[str, int] = {}
    for owner in turn.state.owners.values():
        if owner is not None:
            counts[owner] = counts.get(owner, 0) + 1
    for country in turn.state.alive():
        gain = counts.get(country.id, 0)
        country.bp += gain
        turn.logs[country.id].income = gain


def ranking(state: State) -> Ranking:
    """B.7.3: survivors by areas, armies on the map, BP; then the eliminated, latest first.

    A rank is 1 + the number of countries strictly ahead; rank 1 wins.
    """
    areas: dict[str, int] = {}
    troops: dict[str, int] = {}
    for area, owner in state.owners.items():
        if owner is not None:
            areas[owner] = areas.get(owner, 0) + 1
            troops[owner] = troops.get(owner, 0) + state.armies[area]

    def key(c: Country) -> tuple[int, int, int, int]:
        if c.eliminated is None:
            return (0, -areas.get(c.id, 0), -troops.get(c.id, 0), -c.bp)
        return (1, -c.eliminated, 0, 0)

    keys = {c.id: key(c) for c in state.countries.values()}
    ranks = {cid: 1 + sum(1 for other in keys.values() if other < mine)
             for cid, mine in keys.items()}
    order = state.map.country_order
    listed = sorted(ranks.items(), key=lambda item: (item[1], order[item[0]]))
    return Ranking(tuple(listed), tuple(cid for cid, rank in listed if rank == 1))


def d8_outcome(state: State) -> Ranking | None:
    """D.2 step 8 (B.7.2-3): one survivor wins; after ``max_turns`` the ranking decides."""
    if len(state.alive()) == 1 or state.turn >= state.options.max_turns:
        return ranking(state)
    return None


def d9_reports(turn: Turn) -> None:
    """D.2 step 9: every country's report, and the turn's public news (E.1)."""
    state = turn.state
    state.reports = {
        cid: Report(turn.t, tuple(log.results), tuple(log.observations), tuple(log.events),
                    log.income)
        for cid, log in turn.logs.items()
    }
    order = state.map.order
    captures = sorted(turn.captures, key=lambda capture: order[capture[0]])
    state.news = (*state.news, News(turn.t, tuple(captures), tuple(turn.eliminated)))


def resolve_turn(state: State, orders: Mapping[str, Orders | None], rng: Rng) -> State:
    """Resolve turn ``state.turn`` (D.2) and return the new state."""
    if state.outcome is not None:
        raise ValueError("the game is over")
    new = state.clone()
    turn = Turn(new, rng)
    order = player_order(new)
    rows = d2_orders(new, order, orders)
    spies.start_observations(turn)
    d4_action_phase(turn, order, rows)
    d5_eliminations(turn)
    d6_income(turn)
    spies.end_observations(turn)
    new.outcome = d8_outcome(new)
    new.resolved = turn.t
    d9_reports(turn)
    if new.outcome is None:
        new.turn = turn.t + 1
    return new
