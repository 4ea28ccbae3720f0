"""``resample``: a world the seat cannot tell apart, over positions of bot games.

For every seat of every position: the seat's view of the new world is exactly its
view of the old one, the old state is untouched, the same rng draws the same world,
the game plays on from it, and the hidden facts (leaders, bases, lives, skills) do
change for some positions.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spyhouse.core import record as records
from spyhouse.core.bots import fresh_view, make_bot
from spyhouse.core.rng import Rng
from spyhouse.games.spyvsspy.model import STARTING_SKILLS, State
from spyhouse.games.spyvsspy.ruleset import SpyVsSpy
from spyhouse.sim.simulate import simulate
from tests.games.resample_checks import dumped, seat_world

RULES = SpyVsSpy()
QUICK = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
#: (players, seed, options) of the bot games whose positions are tried.
GAMES: tuple[tuple[int, int, dict[str, Any] | None], ...] = (
    (5, 1, None), (8, 4, None), (4, 2, {"variant": "spy2"}))


@functools.cache
def positions() -> tuple[tuple[State, tuple[str, ...]], ...]:
    """Every state of the games (after each record entry) with its bots by seat."""
    found: list[tuple[State, tuple[str, ...]]] = []
    for players, seed, options in GAMES:
        sim = simulate("spyvsspy", players=players, turns=12, seed=seed, options=options)
        bots = tuple(sim.bots[seat.id] for seat in sim.record.seats)
        found.extend((state, bots) for state in records.replay(sim.record))
    return tuple(found)


def seats_of(state: State) -> list[str]:
    return [b.seat for b in state.brotherhoods]


picks = st.tuples(st.integers(0, 10**6), st.integers(0, 10**6), st.integers(0, 2**32))


@QUICK
@given(picks)
def test_the_seat_sees_the_same_and_the_state_is_untouched(pick: tuple[int, int, int]) -> None:
    state, _ = positions()[pick[0] % len(positions())]
    seat = seats_of(state)[pick[1] % len(state.brotherhoods)]
    world, again = seat_world(RULES, state, seat, pick[2])
    assert [(b.leader, b.base, b.life) for b in again.brotherhoods] == \
        [(b.leader, b.base, b.life) for b in world.brotherhoods]


@QUICK
@given(picks)
def test_the_world_is_legal_and_plays_on(pick: tuple[int, int, int]) -> None:
    state, bots = positions()[pick[0] % len(positions())]
    seat = seats_of(state)[pick[1] % len(state.brotherhoods)]
    world = RULES.resample(state, seat, Rng(pick[2]))
    old = {b.seat: b for b in state.brotherhoods}
    assert sorted(b.leader for b in world.brotherhoods) == \
        sorted(b.leader for b in state.brotherhoods)
    for b in world.brotherhoods:
        assert (len(b.spies), b.gp, b.covertness) == \
            (len(old[b.seat].spies), old[b.seat].gp, old[b.seat].covertness)
        assert sorted(s.skill for s in b.spies) == sorted(s.skill for s in old[b.seat].spies)
        assert all(s.skill >= (STARTING_SKILLS[s.number - 1] if s.number <= 9 else 1)
                   for s in b.spies)
    if world.game_over is not None:
        return
    sheets = {}
    for index, other in enumerate(seats_of(world)):
        if other in RULES.awaiting(world):
            bot = make_bot("spyvsspy", bots[index], other, pick[2])
            data = bot.act(fresh_view(RULES.view(world, other)))
            sheets[other] = None if data is None else RULES.parse_orders(world, other, data)
    after = RULES.resolve(world, sheets, Rng(pick[2]))
    if after.game_over is None:
        RULES.resolve(after, {s: RULES.default_orders(after, s, Rng(1))
                              for s in RULES.awaiting(after)}, Rng(pick[2] + 1))


def test_hidden_facts_are_redrawn() -> None:
    """Leaders, bases, skills and where spies stood each change for some seat of some
    position, and the host's view (everything) differs for most positions under way."""
    changed = {"leader": 0, "base": 0, "skill": 0, "where": 0, "life": 0, "host": 0}
    tried = 0
    for state, _ in positions():
        if state.game_over is not None or state.turn == 0:
            continue
        for seat in RULES.awaiting(state):
            tried += 1
            world = RULES.resample(state, seat, Rng(tried))
            for old, new in zip(state.brotherhoods, world.brotherhoods, strict=True):
                changed["leader"] += old.leader != new.leader
                changed["base"] += old.base is not new.base
                changed["life"] += old.life != new.life
                changed["skill"] += ([s.skill for s in old.spies]
                                     != [s.skill for s in new.spies])
                changed["where"] += [s.at for s in old.spies] != [s.at for s in new.spies]
            changed["host"] += dumped(RULES.view(world, None)) != dumped(RULES.view(state, None))
    assert all(changed[key] > 0 for key in ("leader", "base", "skill", "where", "host")), \
        changed
    assert changed["host"] > tried // 2, (changed, tried)


def test_what_the_view_names_stays() -> None:
    """A rival the seat's hunt revealed keeps its base or leader in every world."""
    checked = 0
    for state, _ in positions():
        if state.game_over is not None:
            continue
        for seat in sorted(RULES.awaiting(state)):
            view = RULES.view(state, seat)
            for line in view.get("spies") or ():
                result = line.get("result") or ""
                for b in state.brotherhoods:
                    if result.startswith(f"killed a spy of {b.name}; "):
                        world = RULES.resample(state, seat, Rng(checked))
                        twin = world.by_seat(b.seat)
                        assert twin is not None
                        if "'s base is in " in result:
                            assert twin.base is b.base
                        else:
                            assert twin.leader == b.leader
                        checked += 1
    assert checked > 0


def test_other_seats_reports_stay_true() -> None:
    """What any seat's last hunt revealed holds in the new world too: hidden reports are
    told the new leader names and bases."""
    told = re.compile(r"killed a spy of (.+?); (.+?)'s (base is in (\w)|leader is (.+))$")
    checked = 0
    for state, _ in positions():
        if state.log is None or state.game_over is not None:
            continue
        for seat in sorted(RULES.awaiting(state)):
            world = RULES.resample(state, seat, Rng(checked))
            assert world.log is not None
            by_name = {b.name: b for b in world.brotherhoods}
            for part in world.log.seats.values():
                for line in part.spies:
                    found = told.search(line.result or "")
                    if found:
                        b = by_name[found.group(1)]
                        assert (b.base.value == found.group(4) if found.group(4)
                                else b.leader == found.group(5))
                        checked += 1
    assert checked > 0


def check_records(world: State) -> None:
    """The hidden records agree with the world: every report's spy lines are where the
    spies are, with their skills and pay; the town's counts are the reports' sightings."""
    log = world.log
    assert log is not None
    apparent: dict[Any, dict[Any, int]] = {}
    tasks: dict[Any, dict[Any, int]] = {}
    for b in world.brotherhoods:
        part = log.seats.get(b.seat)
        if part is None or b.eliminated is not None:
            continue
        for line in part.spies:
            spy = b.spy(line.number)
            if line.killed or line.at is None or spy is None:
                continue
            assert (spy.at, spy.skill) == (line.at, line.skill)
            if line.task is not None and line.task.task.value == "WORK":
                assert line.result == f"earned {spy.skill + line.at.info.work} gp"
        for sighting in part.seen:
            row = apparent.setdefault(sighting.region, {})
            row[sighting.apparent] = row.get(sighting.apparent, 0) + 1
            done = tasks.setdefault(sighting.region, {})
            done[sighting.task] = done.get(sighting.task, 0) + 1
    assert apparent == log.apparent
    assert tasks == log.tasks


@QUICK
@given(picks)
def test_hidden_records_agree_with_the_world(pick: tuple[int, int, int]) -> None:
    state, _ = positions()[pick[0] % len(positions())]
    if state.log is None or state.game_over is not None:
        return
    seat = seats_of(state)[pick[1] % len(state.brotherhoods)]
    check_records(state)
    check_records(RULES.resample(state, seat, Rng(pick[2])))
