"""``resample``: a world the seat cannot tell apart, over positions of bot games.

For every seat of every position: the seat's view of the new world is exactly its
view of the old one, the old state is untouched, the same rng draws the same world,
the world keeps the invariants of D.7 and plays on, and the hidden facts (armies,
BP, agents, WAITs) do change for some positions.
"""

from __future__ import annotations

import functools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spyhouse.core import record as records
from spyhouse.core.bots import fresh_view, make_bot
from spyhouse.core.rng import Rng
from spyhouse.games.kingdoms.bots import STRATEGIES as BOTS
from spyhouse.games.kingdoms.model import AGENT_TYPES, State
from spyhouse.games.kingdoms.ruleset import Kingdoms
from spyhouse.sim.simulate import simulate
from tests.games.kingdoms.randomplay import play
from tests.games.resample_checks import dumped, seat_world

RULES = Kingdoms()
STRATEGIES = sorted(BOTS)
QUICK = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
#: (players, seed) of the bot games whose positions are tried.
GAMES = ((6, 1), (4, 5))
#: (players, seed) of games where every other seat writes random rows (agents, watchers
#: and WAITs, which the bots rarely use).
MIXED = ((5, 2), (6, 3))


@functools.cache
def positions() -> tuple[tuple[State, tuple[str, ...]], ...]:
    """Every state of the games (after each record entry) with its bots by seat."""
    found: list[tuple[State, tuple[str, ...]]] = []
    for players, seed in GAMES:
        sim = simulate("kingdoms", players=players, turns=20, seed=seed)
        bots = tuple(sim.bots[seat.id] for seat in sim.record.seats)
        found.extend((state, bots) for state in records.replay(sim.record))
    for players, seed in MIXED:
        game = play(seed, players, mix="mixed")
        bots = tuple(STRATEGIES[index % len(STRATEGIES)] for index in range(players))
        found.extend((state, bots) for state in game.states)
    return tuple(found)


def seats_of(state: State) -> list[str]:
    return [seat.id for seat in state.seats]


picks = st.tuples(st.integers(0, 10**6), st.integers(0, 10**6), st.integers(0, 2**32))


@QUICK
@given(picks)
def test_the_seat_sees_the_same_and_the_state_is_untouched(pick: tuple[int, int, int]) -> None:
    state, _ = positions()[pick[0] % len(positions())]
    seat = seats_of(state)[pick[1] % len(state.seats)]
    seat_world(RULES, state, seat, pick[2])


def check_invariants(world: State) -> None:
    """D.7 in the drawn world: armies and reserve make the pool, armies only in owned
    areas, one watcher per area and at most ``max_watchers``, a WAIT's agent in its area,
    which its country owns."""
    options = world.options
    for c in world.alive():
        on_map = sum(world.armies[a] for a in world.owned(c.id))
        assert on_map + c.reserve == options.force_pool
        assert c.bp >= 0
        assert len(set(c.watchers)) == len(c.watchers) <= options.max_watchers
        assert all(world.map.is_land(a) for a in [*c.agents.values(), *c.watchers])
        if c.wait is not None:
            assert c.agents.get(c.wait.agent) == c.wait.area
            assert world.owners[c.wait.area] == c.id
    for area, owner in world.owners.items():
        assert owner is not None or world.armies.get(area, 0) == 0


@QUICK
@given(picks)
def test_the_world_is_legal_and_plays_on(pick: tuple[int, int, int]) -> None:
    state, bots = positions()[pick[0] % len(positions())]
    seat = seats_of(state)[pick[1] % len(state.seats)]
    world = RULES.resample(state, seat, Rng(pick[2]))
    check_invariants(world)
    if world.outcome is not None:
        return
    orders = {}
    for index, other in enumerate(seats_of(world)):
        if other in RULES.awaiting(world):
            bot = make_bot("kingdoms", bots[index], other, pick[2])
            data = bot.act(fresh_view(RULES.view(world, other)))
            orders[other] = None if data is None else RULES.parse_orders(world, other, data)
    after = RULES.resolve(world, orders, Rng(pick[2]))
    check_invariants(after)
    if after.outcome is None:
        RULES.resolve(after, {s: RULES.default_orders(after, s, Rng(1))
                              for s in RULES.awaiting(after)}, Rng(pick[2] + 1))


def test_hidden_facts_are_redrawn() -> None:
    """Armies, BP, agents and WAIT targets each change for some seat of some position,
    and the host's view differs for most positions under way."""
    changed = {"armies": 0, "bp": 0, "agents": 0, "wait": 0, "host": 0}
    tried = 0
    for state, _ in positions():
        if state.outcome is not None or state.resolved == 0:
            continue
        for seat in sorted(RULES.awaiting(state)):
            tried += 1
            world = RULES.resample(state, seat, Rng(tried))
            changed["armies"] += world.armies != state.armies
            for cid, old in state.countries.items():
                new = world.countries[cid]
                changed["bp"] += old.bp != new.bp
                changed["agents"] += (old.agents, old.watchers) != (new.agents, new.watchers)
                changed["wait"] += old.wait != new.wait
            changed["host"] += dumped(RULES.view(world, None)) != dumped(RULES.view(state, None))
    assert all(count > 0 for count in changed.values()), changed
    assert changed["host"] > tried // 2, (changed, tried)


def test_the_start_is_told_by_the_rules() -> None:
    """Setup draws nothing (D.1): before turn 1 every world is the real one."""
    state, _ = positions()[0]
    assert state.resolved == 0
    for seat in seats_of(state):
        world = RULES.resample(state, seat, Rng(7))
        assert dumped(RULES.view(world, None)) == dumped(RULES.view(state, None))


@QUICK
@given(picks)
def test_end_of_turn_observations_agree_with_the_world(pick: tuple[int, int, int]) -> None:
    """Every country's end-of-turn observations (A.4) are what its agents and watchers
    see in the drawn world: where they stand, the owner, the armies, the foreign agents."""
    state, _ = positions()[pick[0] % len(positions())]
    seat = seats_of(state)[pick[1] % len(state.seats)]
    world = RULES.resample(state, seat, Rng(pick[2]))
    for cid, report in world.reports.items():
        country = world.countries[cid]
        if country.eliminated is not None:
            continue
        spots = [(area, kind.value) for kind, area in sorted(
            country.agents.items(), key=lambda item: AGENT_TYPES.index(item[0]))]
        spots += [(area, "WATCHER") for area in country.watchers]
        ends = [o for o in report.observations if o.when == "end"]
        assert [(o.area, o.by) for o in ends] == spots
        for o in ends:
            assert (o.owner, o.armies) == (world.owners.get(o.area), world.armies.get(o.area, 0))
            assert list(o.agents) == [(c.id, kind.value) for c in world.countries.values()
                                      if c.id != cid for kind in AGENT_TYPES
                                      if c.agents.get(kind) == o.area]
