"""Property tests over random games (bots and random rows): determinism, invariants (D.7),
BP accounting, and secrecy (E.3)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spyhouse.core.rng import Rng
from spyhouse.games.kingdoms.model import (
    AGENT_TYPES,
    MOVED_TYPE,
    RAISE_COST,
    RECRUIT_COST,
    Action,
    Orders,
    Report,
    Result,
    Row,
    State,
)
from tests.games.kingdoms.fixture import RULES
from tests.games.kingdoms.randomplay import play

GAMES = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ROOT = Path(__file__).resolve().parents[3]
seeds = st.integers(0, 2**32)
players = st.integers(3, 6)
mixes = st.sampled_from(["bots", "random", "mixed"])


def all_views(state: State) -> str:
    views = [RULES.view(state, None)] + [RULES.view(state, c.seat)
                                         for c in state.countries.values()]
    return json.dumps(views, sort_keys=True, ensure_ascii=False)


def replay(record_json: dict[str, Any]) -> list[State]:
    """The states of a record, resolved again from its JSON orders."""
    rng = Rng(record_json["seed"])
    from spyhouse.core.ruleset import Seat

    seats = [Seat(s["id"], s["name"]) for s in record_json["seats"]]
    state = RULES.setup(seats, record_json["options"], rng)
    states = [state]
    for turn in record_json["turns"]:
        orders = {sid: None if data is None else RULES.parse_orders(state, sid, data)
                  for sid, data in turn["orders"].items()}
        state = RULES.resolve(state, orders, rng)
        states.append(state)
    return states


@GAMES
@given(seed=seeds, n=players, mix=mixes)
def test_record_replays_to_identical_views(seed: int, n: int, mix: str) -> None:
    """Replaying the record's JSON gives byte-identical views after every turn."""
    game = play(seed, n, mix=mix)
    record = json.loads(json.dumps(game.record.to_json()))
    for played, again in zip(game.states, replay(record), strict=True):
        assert all_views(played) == all_views(again)


_SCRIPT = """
import json, sys
sys.path.insert(0, {root!r})
from tests.games.kingdoms.test_properties import all_views, replay
record = json.load(open(sys.argv[1]))
sys.stdout.write(json.dumps([all_views(s) for s in replay(record)]))
"""


def test_replay_in_fresh_process_with_other_hash_seed(tmp_path: Path) -> None:
    """A record replays to the same views in new processes with different PYTHONHASHSEEDs."""
    game = play(4242, 6, mix="mixed")
    path = tmp_path / "record.json"
    path.write_text(game.record.dumps(), encoding="utf-8")
    outputs = []
    for hash_seed in ("1", "987654"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        done = subprocess.run([sys.executable, "-c", _SCRIPT.format(root=str(ROOT)), str(path)],
                              env=env, capture_output=True, text=True, check=True, cwd=ROOT)
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1] == json.dumps([all_views(s) for s in game.states])


def check_invariants(state: State) -> None:
    """D.7: pools whole, armies only where owned, agents on land, WAITs well founded."""
    force = state.options.force_pool
    for c in state.countries.values():
        on_map = sum(n for a, n in state.armies.items() if state.owners[a] == c.id)
        assert on_map + c.reserve == force, c.id
        assert c.bp >= 0
        assert len(c.watchers) == len(set(c.watchers)) <= state.options.max_watchers
        assert all(state.map.is_land(a) for a in [*c.agents.values(), *c.watchers])
        if c.wait is not None:
            assert c.agents.get(c.wait.agent) == c.wait.area
            assert state.owners[c.wait.area] == c.id
            assert state.countries[c.wait.target].eliminated is None
        if c.eliminated is not None:
            assert not c.agents and not c.watchers and c.wait is None
            assert c.id not in state.owners.values()
    for area, owner in state.owners.items():
        if owner is None:
            assert state.armies[area] == 0
        assert state.armies[area] >= 0


_SEA = re.compile(r"\((?:land|sea), (\d+) BP\)")


def rule_cost(before: State, row: Row, result: Result) -> int:
    """What the rules charge for a done row (B.4, A.2, A.3, A.8); 0 for everything else."""
    if not result.done:
        return 0
    if row.action is Action.RAISE:
        return RAISE_COST * row.count
    if row.action is Action.SABOTAGE:
        return 1
    if row.action in MOVED_TYPE:
        cost = 0
        if result.text.startswith("recruited"):
            cost += RECRUIT_COST[MOVED_TYPE[row.action]]
            if row.to is not None and row.frm is not None and not before.map.adjacent(
                    row.frm, row.to):
                cost += before.map.sea_cost(row.frm, row.to) or 0
        else:
            match = _SEA.search(result.text)
            cost += int(match.group(1)) if match else 0
        return cost
    return 0


@GAMES
@given(seed=seeds, n=players, mix=mixes)
def test_invariants_and_bp_accounting(seed: int, n: int, mix: str) -> None:
    """D.7 after every turn; BP after = BP before − the costs the rules name + income."""
    game = play(seed, n, mix=mix)
    for before, after in zip(game.states, game.states[1:], strict=False):
        check_invariants(after)
        for cid, c in after.countries.items():
            report = after.reports[cid]
            paid = 0
            for result in report.results:
                assert result.bp == rule_cost(before, result.row, result), result
                paid += result.bp
            assert c.bp == before.countries[cid].bp - paid + report.income
            if c.eliminated is None:
                assert report.income == len(after.owned(cid))
            else:
                assert report.income == 0


def _blur(state: State, seat: str) -> State:
    """The same state with everything ``seat`` may not know changed (E.3)."""
    other = state.clone()
    mine = state.seat_country[seat]
    lands = list(other.map.lands)
    for c in other.countries.values():
        if c.id == mine:
            continue
        c.bp += 1000
        c.reserve += 7
        c.agents = {kind: lands[(lands.index(area) + 5) % len(lands)]
                    for kind, area in c.agents.items()}
        c.watchers = []
        c.wait = None
        if c.id in other.reports:
            other.reports[c.id] = Report(0)
    for area, owner in other.owners.items():
        if owner is not None and owner != mine:
            other.armies[area] += 3
    return other


@GAMES
@given(seed=seeds, n=players, mix=mixes)
def test_views_show_nothing_of_other_countries_secrets(seed: int, n: int, mix: str) -> None:
    """E.3: changing other countries' BP, reserves, agents, watchers, WAITs, reports and
    armies leaves a seat's view unchanged; a spectator's view has only public keys."""
    game = play(seed, n, turns=8, mix=mix)
    for state in game.states:
        for c in state.countries.values():
            assert RULES.view(state, c.seat) == RULES.view(_blur(state, c.seat), c.seat)
        assert RULES.public_view(state) == RULES.public_view(_blur(state, "s1"))


@GAMES
@given(seed=seeds, n=players, mix=mixes)
def test_other_countries_orders_stay_hidden(seed: int, n: int, mix: str) -> None:
    """E.3: another country's orders, its number of rows, its FINDs and its failed actions
    never show: padding a country's orders with FINDs and rows that must fail leaves
    every other seat's view the same."""
    game = play(seed, n, turns=6, mix=mix)
    for index, (before, orders) in enumerate(zip(game.states, game.orders, strict=False)):
        for padded_seat in sorted(orders):
            c = before.country_of(padded_seat)
            assert c is not None
            given_orders = orders[padded_seat]
            rows = given_orders.actions if given_orders is not None else ()
            rivals = [x.id for x in before.alive() if x.id != c.id]
            real_after = game.states[index + 1]
            changed = {capture[0] for capture in real_after.news[-1].captures}
            # an area that was never c's this turn: a RAISE there must fail
            foreign = next(a for a in before.map.lands if before.owners[a] != c.id
                           and a not in changed)
            pad = (Row(Action.FIND, None, rivals[0]), Row(Action.FIND, foreign, None),
                   Row(Action.RAISE, foreign, None, 1))
            room = before.options.actions_per_turn - len(rows)
            padded = dict(orders)
            padded[padded_seat] = Orders((*rows, *pad[:room]))
            rng = Rng(game.record.seed)
            after = RULES.resolve(before, padded, rng)
            for other in before.countries.values():
                if other.id != c.id:
                    assert RULES.view(after, other.seat) == RULES.view(
                        game.states[index + 1], other.seat)
        if index >= 2:
            break


@GAMES
@given(seed=seeds, n=players, mix=mixes)
def test_observations_tell_the_truth(seed: int, n: int, mix: str) -> None:
    """A.4: an ``end`` observation lists exactly the other countries' agents there, never
    the observer's own and never a watcher; FIND where lists only spies and watchers."""
    game = play(seed, n, mix=mix)
    for state in game.states[1:]:
        for cid, report in state.reports.items():
            for obs in report.observations:
                assert all(country != cid for country, _ in obs.agents)
                assert all(kind != "WATCHER" for _, kind in obs.agents)
                if obs.when == "end":
                    truth = tuple((c.id, k.value) for c in state.countries.values()
                                  if c.id != cid for k in AGENT_TYPES
                                  if c.agents.get(k) == obs.area)
                    assert obs.agents == truth
                    assert (obs.owner, obs.armies) == (state.owners[obs.area],
                                                       state.armies[obs.area])
            for result in report.results:
                found = getattr(result.find, "found", ())
                assert all(kind in ("SPY", "WATCHER") and country != cid
                           for country, kind in found)
