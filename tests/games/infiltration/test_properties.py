"""Property tests over random bot games (hypothesis): games end, dead players never act,
records replay to identical views (also in a fresh process with another PYTHONHASHSEED),
and a seat's team, class and orders never reach another seat's view except where the rules
reveal them (indistinguishability: change the secret, compare the other seats' views)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spyhouse.core.errors import OrderError
from spyhouse.core.record import step
from spyhouse.core.rng import Rng
from spyhouse.games.infiltration.model import INFO_TERMINALS, Klass, Phase, State, Team
from spyhouse.games.infiltration.orders import DecisionOrder, TerminalOrder
from spyhouse.games.infiltration.statements import parse_statement
from tests.games.infiltration.botplay import RULES, Game, play

GAMES = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SEEDS = st.integers(0, 2**31)
PLAYERS = st.integers(6, 20)


def _views(state: State) -> str:
    seats: list[str | None] = [None, *(p.seat for p in state.players)]
    return json.dumps([RULES.view(state, s) for s in seats], sort_keys=True, ensure_ascii=False)


def _sample(game: Game) -> list[int]:
    """State indices worth checking: every sixth entry and the last one."""
    last = len(game.states) - 1
    return sorted({*range(0, last, 6), last})


@GAMES
@given(seed=SEEDS, players=PLAYERS)
def test_bot_games_end_and_dead_players_never_act(seed: int, players: int) -> None:
    """Every bot game ends within max_turns; each entry holds exactly the awaited seats —
    the living — and a dead seat's orders are refused (G2)."""
    game = play(seed, players)
    assert RULES.outcome(game.final) is not None
    assert game.final.turn <= 30
    assert len(game.record.turns) <= 1 + 2 * 30
    for before, entry in zip(game.states, game.record.turns, strict=False):
        living = {p.seat for p in before.players if p.alive}
        assert set(entry) == set(RULES.awaiting(before))
        if before.phase is not Phase.CLASS:
            assert set(entry) == living
        for p in before.players:
            if not p.alive:
                with pytest.raises(OrderError):
                    RULES.parse_orders(before, p.seat, {})
    result = game.final.result
    assert result is not None
    assert result["reason"] in {"ghost_destroyed", "no_reds_left_vote", "too_few_greens",
                                "max_turns"}


@GAMES
@given(seed=SEEDS, players=PLAYERS)
def test_record_replays_to_identical_views(seed: int, players: int) -> None:
    """Replaying the record (dumped orders, parsed again) gives byte-identical views, and no
    resolution changes the state it was given."""
    game = play(seed, players)
    rng = Rng(seed)
    state = RULES.setup(list(game.record.seats), dict(game.record.options), rng)
    sample = set(_sample(game))
    replayed = [state]
    for entry, raw in enumerate(game.record.turns, start=1):
        before = _views(state) if entry - 1 in sample else None
        state = step(RULES, rng, state, raw, entry)
        if before is not None:
            assert _views(replayed[-1]) == before
        replayed.append(state)
    for index in sorted(sample):
        assert _views(replayed[index]) == _views(game.states[index])


def swap_secrets(state: State, a: str, b: str, *, teams: bool) -> State:
    twin = state.clone()
    pa, pb = twin.player(a), twin.player(b)
    pa.klass, pb.klass = pb.klass, pa.klass
    if teams:
        pa.team, pb.team = pb.team, pa.team
    return twin


@GAMES
@given(seed=SEEDS, players=PLAYERS)
def test_team_and_class_never_reach_another_seat(seed: int, players: int) -> None:
    """Swapping two other seats' teams and classes leaves a Green's view unchanged; swapping
    two other seats' classes leaves a Red's view unchanged (until the game's reveal)."""
    game = play(seed, players)
    for index in _sample(game):
        state = game.states[index]
        if state.result is not None:
            continue
        order = [p.seat for p in state.players]
        for viewer in state.players:
            others = [s for s in order if s != viewer.seat]
            a, b = others[index % len(others)], others[(index + 1) % len(others)]
            same_team = state.player(a).team is state.player(b).team
            teams = viewer.team is Team.GREEN
            if not teams and not same_team:
                continue
            twin = swap_secrets(state, a, b, teams=teams)
            assert RULES.view(twin, viewer.seat) == RULES.view(state, viewer.seat)


def _private_use(state: State, seat: str) -> TerminalOrder | None:
    """A USE of the information terminal in ``seat``'s room whose answer is true."""
    me = state.player(seat)
    feature = state.feature(me.room)
    if (feature not in INFO_TERMINALS or state.is_destroyed(me.room)
            or state.is_hacked(me.room) or (state.alert and me.klass is not Klass.SNEAKER)):
        return None
    if feature.value in ("Seer", "Locator"):
        return TerminalOrder("USE", player=seat)
    if feature.value == "History":
        return TerminalOrder("USE", room=me.room)
    if feature.value == "Map data":
        return TerminalOrder("USE", rooms=(me.room,))
    if feature.value == "Validity check":
        return TerminalOrder("USE", statement_text="CODE IS 0000",
                             statement=parse_statement("CODE IS 0000", state.turn))
    return TerminalOrder("USE")


@GAMES
@given(seed=SEEDS, players=PLAYERS)
def test_private_orders_never_reach_another_seat(seed: int, players: int) -> None:
    """Whether a seat used an (unhacked) information terminal, and on what, changes no other
    seat's view after the Decision phase resolves."""
    game = play(seed, players)
    rng = Rng(seed)
    checked = 0
    for state, resolved in zip(game.states, game.resolved, strict=False):
        if state.phase is not Phase.DECISION or checked >= 3:
            continue
        for p in state.living():
            use = _private_use(state, p.seat)
            if use is None:
                continue
            base = resolved.get(p.seat) or DecisionOrder()
            with_use = dict(resolved, **{p.seat: DecisionOrder(base.vote, base.kill, use,
                                                                base.ready)})
            without = dict(resolved, **{p.seat: DecisionOrder(base.vote, base.kill, None,
                                                               base.ready)})
            one, two = RULES.resolve(state, with_use, rng), RULES.resolve(state, without, rng)
            for other in state.players:
                if other.seat != p.seat:
                    assert RULES.view(one, other.seat) == RULES.view(two, other.seat)
            if one.player(p.seat).alive:  # the answer reaches only a survivor (R5)
                assert RULES.view(one, p.seat) != RULES.view(two, p.seat)
            checked += 1
            break


def test_replay_in_a_fresh_process_with_another_hash_seed(tmp_path: Path) -> None:
    """A saved record replays to the same views in new processes with other PYTHONHASHSEEDs."""
    game = play(20261130, 9)
    path = tmp_path / "game.json"
    game.record.save(path)
    script = (
        "import json, sys\n"
        "from spyhouse.core import registry\n"
        "from spyhouse.core.record import load, replay\n"
        "rules = registry.get('infiltration')\n"
        "out = []\n"
        "for s in replay(load(sys.argv[1])):\n"
        "    seats = [None] + [p.seat for p in s.players]\n"
        "    out.append([rules.view(s, x) for x in seats])\n"
        "sys.stdout.write(json.dumps(out, sort_keys=True, ensure_ascii=False))\n"
    )
    outputs = []
    root = Path(__file__).resolve().parents[3]
    for hash_seed in ("0", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        done = subprocess.run([sys.executable, "-c", script, str(path)], env=env, check=True,
                              capture_output=True, text=True, cwd=root)
        outputs.append(done.stdout)
    here: list[Any] = []
    for state in game.states:
        seats: list[str | None] = [None, *(p.seat for p in state.players)]
        here.append([RULES.view(state, x) for x in seats])
    assert outputs[0] == outputs[1] == json.dumps(here, sort_keys=True, ensure_ascii=False)
