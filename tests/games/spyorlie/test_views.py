"""Views (DF5–DF7), the information model (OBS1–OBS3), determinization, record replay."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from spyhouse.core.record import Record, replay
from spyhouse.core.rng import Rng
from spyhouse.games.spyorlie import observe
from spyhouse.games.spyorlie.game import GameState
from spyhouse.games.spyorlie.model import Face
from spyhouse.games.spyorlie.rules import Position
from tests.games.spyorlie.helpers import RULES, SEATS, play_random_platform_game

DF5_KEYS = ["game", "seat", "colour", "seats", "computer", "radius", "first_orientation", "ply",
            "round", "to_move", "awaiting", "turns_taken", "pass_streak", "cyber_window_open",
            "points", "cells", "hand", "opponent_hand_size", "unknown_pool", "legal_moves",
            "log", "last", "over", "result"]
CELL_KEYS = ["cell", "owner", "placer", "status", "orientation", "revealed", "announced",
             "immune", "face"]


def states_of(seed: int, options: dict[str, Any] | None = None) -> list[GameState]:
    """Every state of a random platform game (no-shows and ai notes included)."""
    _, entries = play_random_platform_game(seed, options)
    record = Record("spyorlie", seed, options or {}, SEATS, tuple(entries))
    return list(replay(record))


def permuted(state: GameState, colour: int, seed: int) -> GameState:
    """S′ of OBS3: ``colour``'s hidden S/M/C faces (face-down agents + hand) shuffled."""
    p = state.position.copy()
    hidden = [Face(p.face[p.board.index[c]]) for c in p.hidden_cells(colour)]
    hand = p.hand(colour)
    faces = hidden + [Face.S] * hand[0] + [Face.M] * hand[1] + [Face.C] * hand[2]
    random.Random(seed).shuffle(faces)
    p.reassign(colour, faces)
    return replace(state, position=p)


def test_seat_view_has_exactly_the_df5_keys() -> None:
    state = states_of(3)[12]
    view = RULES.view(state, "s1")
    assert list(view) == DF5_KEYS
    assert all(list(c) == CELL_KEYS for c in view["cells"])
    json.dumps(view)
    host = RULES.view(state, None)
    assert host["seat"] is None and host["colour"] is None
    assert "hands" in host and "hand" not in host and "unknown_pool" not in host
    assert host["game_over"] is None


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_host_sees_every_face_and_a_seat_never_the_opponents_hidden_ones(seed: int) -> None:
    for state in states_of(seed):
        host = RULES.view(state, None)
        assert all(c["face"] is not None for c in host["cells"])
        for seat, colour in (("s1", "BLUE"), ("s2", "RED")):
            view = RULES.view(state, seat)
            for c in view["cells"]:
                visible = c["revealed"] or c["placer"] == colour
                assert (c["face"] is not None) == visible
            for entry in view["log"]:
                if entry["colour"] != colour and "pass" not in entry["move"] and \
                        entry["move"]["mode"] == "PLAIN":
                    assert entry["move"]["face"] is None
                    assert entry["events"][0]["face"] is None
                assert "ai" not in entry["move"]
        public = RULES.public_view(state)
        assert all(c["face"] is None for c in public["cells"] if not c["revealed"])
        assert "hand" not in public and "hands" not in public and public["legal_moves"] == []


@pytest.mark.parametrize("radius", [2, 3, 4])
def test_obs3_views_do_not_depend_on_the_opponents_hidden_faces(radius: int) -> None:
    """OBS2/OBS3: permuting one seat's hidden faces leaves the other seat's view unchanged."""
    differs = 0
    for seed in range(1, 6):
        for index, state in enumerate(states_of(seed, {"radius": radius})):
            for viewer, hider in (("s1", 1), ("s2", 0)):
                other = permuted(state, hider, seed * 1000 + index)
                a = json.dumps(RULES.view(state, viewer), sort_keys=True)
                b = json.dumps(RULES.view(other, viewer), sort_keys=True)
                assert a == b
                assert json.dumps(RULES.public_view(state)) == \
                    json.dumps(RULES.public_view(other))
                hider_seat = state.seats[hider]
                differs += RULES.view(state, hider_seat) != RULES.view(other, hider_seat)
    assert differs > 0  # the permutation did change something the hider sees


def test_unknown_pool_is_the_opponents_hidden_cards_plus_hand() -> None:
    for state in states_of(4):
        p = state.position
        for seat, colour in (("s1", 0), ("s2", 1)):
            view = RULES.view(state, seat)
            other = 1 - colour
            hidden = [Face(p.face[p.board.index[c]]) for c in p.hidden_cells(other)]
            pool = observe.unknown_pool(view)
            hand = p.hand(other)
            assert pool == tuple(hidden.count(f) + hand[f] for f in Face)
            assert observe.opponent_hidden_cells(view) == p.hidden_cells(other)
            assert view["opponent_hand_size"] == sum(hand)


def test_position_round_trips_through_the_views() -> None:
    """A state survives serialization: host view -> Position, seat view + true faces -> Position."""
    for state in states_of(5):
        p = state.position
        host = json.loads(json.dumps(RULES.view(state, None)))
        back = observe.position_from_view(host, {}, ())
        assert back.key() == p.key() and back.search_key() == p.search_key()
        assert back.state_tuple()[:-1] == p.state_tuple()[:-1]  # all but KO3's counters
        for seat, colour in (("s1", 0), ("s2", 1)):
            view = json.loads(json.dumps(RULES.view(state, seat)))
            other = 1 - colour
            faces = {c: Face(p.face[p.board.index[c]]) for c in p.hidden_cells(other)}
            again = observe.position_from_view(view, faces, p.hand(other))
            assert again.search_key() == p.search_key()
            if view["awaiting"] == seat:
                assert [m.to_json() for m in again.legal_moves()] == view["legal_moves"]


def test_determinize_builds_consistent_worlds() -> None:
    rnd = random.Random(9)
    for state in states_of(6)[::3]:
        for seat in ("s1", "s2"):
            view = RULES.view(state, seat)
            faces = observe.pool_list(view)
            rnd.shuffle(faces)
            world = observe.determinize(view, faces)
            if view["awaiting"] == seat:
                assert [m.to_json() for m in world.legal_moves()] == view["legal_moves"]
                assert observe.legal_moves(view) == world.legal_moves()
            assert world.points() == (view["points"]["BLUE"], view["points"]["RED"])
            me = observe.my_colour(view)
            assert world.unknown_pool(me) == observe.unknown_pool(view)
            assert world.hand(me) == observe.own_hand(view)
            assert world.hand_size(me.other) == observe.opponent_hand_size(view)
            # Spymaster's re-sampling of the other side keeps every public fact
            resampled = world.copy()
            mine = [Face(world.face[world.board.index[c]]) for c in world.hidden_cells(me)]
            hand = world.hand(me)
            mine += [Face.S] * hand[0] + [Face.M] * hand[1] + [Face.C] * hand[2]
            rnd.shuffle(mine)
            resampled.reassign(me, mine)
            assert resampled.unknown_pool(me.other) == world.unknown_pool(me.other)
            assert resampled.hand_size(me) == world.hand_size(me)


def test_determinize_refuses_counts_that_do_not_fit() -> None:
    view = RULES.view(states_of(7)[10], "s1")
    with pytest.raises(ValueError):
        observe.determinize(view, observe.pool_list(view)[:-1])
    with pytest.raises(ValueError):
        observe.position_from_view(view, {c: Face.S for c in observe.opponent_hidden_cells(view)},
                                   (0, 0, 0, 0))


def test_last_holds_the_entry_and_its_forced_passes() -> None:
    for seed in range(1, 40):
        states = states_of(seed, {"radius": 2})
        for state in states[1:]:
            view = RULES.view(state, "s1")
            assert view["last"] == view["log"][len(view["log"]) - len(view["last"]):]
            assert "pass" not in view["last"][0]["move"]
            assert all("pass" in entry["move"] for entry in view["last"][1:])
            if not state.position.over:
                assert state.position.has_placement()  # D39: nobody is awaited for a pass


def test_host_log_keeps_ai_notes_and_computer_shows_the_latest_difficulty() -> None:
    seen_ai = False
    for state in states_of(8, {"computer": {"s2": "spymaster"}}):
        host = RULES.view(state, None)
        seen_ai |= any("ai" in entry["move"] for entry in host["log"])
        assert RULES.view(state, "s1")["computer"] in ({"s2": "spymaster"},
                                                       {"s1": "operative", "s2": "spymaster"},
                                                       {"s2": "operative"},
                                                       {"s1": "operative", "s2": "operative"})
    assert seen_ai


def _views_per_entry(record: Record) -> list[str]:
    out = []
    for state in replay(record):
        views = [RULES.view(state, seat) for seat in (None, "s1", "s2")]
        out.append(json.dumps([*views, RULES.public_view(state)], sort_keys=True))
    return out


def test_replay_gives_identical_views_in_a_fresh_process(tmp_path: Path) -> None:
    _, entries = play_random_platform_game(21)
    record = Record("spyorlie", 21, {}, SEATS, tuple(entries))
    path = tmp_path / "record.json"
    record.save(path)
    script = ("import json, sys\n"
              "from spyhouse.core.record import load\n"
              "from tests.games.spyorlie.test_views import _views_per_entry\n"
              "sys.stdout.write(json.dumps(_views_per_entry(load(sys.argv[1]))))\n")
    outputs = []
    for hash_seed in ("0", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        done = subprocess.run([sys.executable, "-c", script, str(path)], env=env, check=True,
                              capture_output=True, text=True,
                              cwd=Path(__file__).resolve().parents[3])
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1] == json.dumps(_views_per_entry(record))


def test_replay_reproduces_the_played_states() -> None:
    final, entries = play_random_platform_game(22)
    record = Record("spyorlie", 22, {}, SEATS, tuple(entries))
    states = list(replay(record))
    assert states[-1].position.state_tuple() == final.position.state_tuple()
    assert json.dumps(RULES.view(states[-1], None)) == json.dumps(RULES.view(final, None))


def test_default_orders_follow_df4() -> None:
    state = states_of(10)[6]
    seat = sorted(RULES.awaiting(state))[0]
    first = RULES.default_orders(state, seat, Rng(5))
    again = RULES.default_orders(state, seat, Rng(5))
    assert first is not None and first == again
    assert first.move in state.position.legal_moves()
    assert RULES.default_orders(state, "s1" if seat == "s2" else "s2", Rng(5)) is None
    counts: dict[Face, int] = {}
    for seed in range(300):
        order = RULES.default_orders(state, seat, Rng(seed))
        assert order is not None and order.move.mode.name != "ACCUSE"
        counts[order.move.face] = counts.get(order.move.face, 0) + 1
    hand = state.position.hand(state.position.to_move_i)
    assert counts.get(Face.S, 0) > counts.get(Face.M, 0) or hand[0] <= hand[1]
    after = RULES.resolve(state, {seat: None}, Rng(5))
    assert after.log[state.position.ply].move == first.move


def test_outcome_ranks_and_draws() -> None:
    final, _ = play_random_platform_game(30)
    outcome = RULES.outcome(final)
    assert outcome is not None
    blue, red = final.position.points()
    if blue == red:
        assert outcome.winners == () and dict(outcome.standings) == {"s1": 1, "s2": 1}
    else:
        winner = "s1" if blue > red else "s2"
        assert outcome.winners == (winner,)
    assert RULES.awaiting(final) == frozenset()
    host = RULES.view(final, None)
    assert host["game_over"]["winners"] == list(outcome.winners)
    assert host["to_move"] is None and host["awaiting"] is None and host["over"]
    assert RULES.idle_message(final, "s1") == "the game is over"


def test_position_start_matches_setup() -> None:
    state = RULES.setup(SEATS, {"radius": 3}, Rng(1))
    assert state.position.state_tuple() == Position.start(3).state_tuple()
    assert RULES.awaiting(state) == frozenset({"s1"})
    assert RULES.idle_message(state, "s2") == "it is not your move"
    assert RULES.turn_number(state) == 0
