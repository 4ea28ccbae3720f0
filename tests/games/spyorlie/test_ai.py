"""Computer opponents (spec §15, AI1–AI9; fairness OBS3 and AE-40; RND2).

Budgets here are tiny and the AI6 time cap is off, so every decision is reproducible
and the file runs in seconds; strength and speed are measured by ``bench/spyorlie.py``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from spyhouse.core import bots as bot_registry
from spyhouse.core.rng import Rng
from spyhouse.games.spyorlie import ai, observe
from spyhouse.games.spyorlie.ai import Budget, Decision, choose, evaluate
from spyhouse.games.spyorlie.bots import STRATEGIES, SpyOrLieBot, make_bot
from spyhouse.games.spyorlie.game import GameState
from spyhouse.games.spyorlie.model import Face, Mode, Move
from spyhouse.games.spyorlie.rules import Position
from tests.games.spyorlie import fixture
from tests.games.spyorlie.helpers import RULES, new_game, with_position

TINY = {
    ai.OPERATIVE: Budget(worlds=3, depth=1, nodes=0, endgame=5, candidates=3, exact_nodes=300),
    ai.SPYMASTER: Budget(worlds=2, depth=2, nodes=150, endgame=5, candidates=2,
                         exact_nodes=300),
}


def bot(name: str, seat: str, seed: int) -> SpyOrLieBot:
    return STRATEGIES[name](seat, seed, budgets=TINY, time_cap=None)


def played_states(seed: int, radius: int, every: int = 1) -> Iterator[GameState]:
    """States of a game between seeded random bots (through the Ruleset), every ``every``."""
    state = new_game({"radius": radius})
    players = {"s1": make_bot("random", "s1", seed), "s2": make_bot("random", "s2", seed + 1)}
    index = 0
    while RULES.outcome(state) is None:
        if index % every == 0:
            yield state
        index += 1
        seat = sorted(RULES.awaiting(state))[0]
        data = players[seat].act(RULES.view(state, seat))
        state = RULES.resolve(state, {seat: RULES.parse_orders(state, seat, data)}, Rng(seed))


def permuted(state: GameState, colour: int, seed: int) -> GameState:
    """S′ of OBS3: ``colour``'s hidden S/M/C faces (face-down agents + hand) reshuffled."""
    p = state.position.copy()
    hidden = [Face(p.face[p.board.index[c]]) for c in p.hidden_cells(colour)]
    hand = p.hand(colour)
    faces = hidden + [Face.S] * hand[0] + [Face.M] * hand[1] + [Face.C] * hand[2]
    random.Random(seed).shuffle(faces)
    p.reassign(colour, faces)
    return replace(state, position=p)


def view_of(position: Position, seat: str = "s1", radius: int | None = None) -> dict[str, Any]:
    state = new_game({"radius": radius if radius is not None else position.radius})
    return RULES.view(with_position(state, position), seat)


# ---------------------------------------------------------------- registry and contract


def test_registry_offers_the_three_strategies() -> None:
    assert bot_registry.bot_names("spyorlie") == ["operative", "random", "spymaster"]
    made = bot_registry.make_bot("spyorlie", "spymaster", "s2", 7)
    assert isinstance(made, SpyOrLieBot) and made.difficulty == "spymaster"
    with pytest.raises(KeyError, match="unknown spyorlie bot"):
        make_bot("grandmaster", "s1", 1)
    # Stateless: the platform need not replay the seat's earlier views into a fresh bot.
    assert all(cls.keeps_notes is False for cls in STRATEGIES.values())


@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_moves_are_legal_and_carry_the_ai_note(name: str) -> None:
    """DF2: a computer move is a legal move plus ``ai`` = {difficulty, budget_cut}."""
    for state in played_states(3, 3, every=3):
        seat = sorted(RULES.awaiting(state))[0]
        view = RULES.view(state, seat)
        move = bot(name, seat, 5).act(view)
        assert move is not None
        note = move.pop("ai")
        assert note == {"difficulty": name, "budget_cut": False}
        assert move in view["legal_moves"]
        RULES.parse_orders(state, seat, {**move, "ai": note})


def test_a_bot_not_awaited_or_after_the_end_returns_none() -> None:
    state = new_game({"radius": 2})
    assert bot("operative", "s2", 1).act(RULES.view(state, "s2")) is None
    final = list(played_states(4, 2))[-1]
    seat = sorted(RULES.awaiting(final))[0]
    move = bot("operative", seat, 1).act(RULES.view(final, seat))
    assert move is not None
    after = RULES.resolve(final, {seat: RULES.parse_orders(final, seat, move)}, Rng(0))
    assert RULES.outcome(after) is not None
    assert bot("operative", "s1", 1).act(RULES.view(after, "s1")) is None


def test_difficulty_can_change_between_turns() -> None:
    """AI7/D37: the difficulty is read when a turn starts and recorded in the move."""
    player = bot("operative", "s1", 9)
    view = RULES.view(new_game({"radius": 3}), "s1")
    first = player.act(view)
    player.difficulty = "spymaster"
    second = player.act(view)
    assert first is not None and second is not None
    assert first["ai"]["difficulty"] == "operative"
    assert second["ai"]["difficulty"] == "spymaster"


def test_random_bot_draws_once_from_the_ply_stream() -> None:
    """AI8/RND2: one choice from the canonical list with the stream of (seed, ply, purpose)."""
    for state in played_states(6, 3, every=4):
        seat = sorted(RULES.awaiting(state))[0]
        view = RULES.view(state, seat)
        move = bot("random", seat, 11).act(view)
        stream = Rng(11).stream(view["ply"], f"bot:{seat}:random")
        expected = stream.choice(view["legal_moves"])
        assert move is not None and move["ai"]["difficulty"] == "random"
        del move["ai"]
        assert move == expected


# ---------------------------------------------------------------- reproducibility (RND2, AE-40)


@pytest.mark.parametrize("name", ["operative", "spymaster"])
def test_same_seed_same_decisions(name: str) -> None:
    for state in played_states(8, 3, every=2):
        seat = sorted(RULES.awaiting(state))[0]
        view = RULES.view(state, seat)
        assert bot(name, seat, 21).act(view) == bot(name, seat, 21).act(json.loads(
            json.dumps(view)))


def test_bot_games_replay_move_for_move() -> None:
    """AE-40: a seeded Operative-vs-Spymaster game with the cap off replays every move."""

    def play() -> list[Any]:
        state = new_game({"radius": 3})
        players = {"s1": bot("operative", "s1", 4), "s2": bot("spymaster", "s2", 4)}
        moves = []
        while RULES.outcome(state) is None:
            seat = sorted(RULES.awaiting(state))[0]
            move = players[seat].act(RULES.view(state, seat))
            moves.append(move)
            state = RULES.resolve(state, {seat: RULES.parse_orders(state, seat, move)},
                                  Rng(4))
        return moves

    assert play() == play()


def test_worlds_come_from_the_stream_and_fit_the_view() -> None:
    """AI1/AI2: own cards and hand as seen; the opponent's faces drawn from the pool."""
    state = list(played_states(2, 4))[17]
    seat = sorted(RULES.awaiting(state))[0]
    view = RULES.view(state, seat)
    me = observe.my_colour(view)
    worlds = ai.sample_worlds(view, Rng(3).stream(0, "t"), 6)
    again = ai.sample_worlds(view, Rng(3).stream(0, "t"), 6)
    assert [w.state_tuple() for w in worlds] == [w.state_tuple() for w in again]
    hidden = observe.opponent_hidden_cells(view)
    assert hidden
    pool = observe.unknown_pool(view)
    assignments = set()
    for world in worlds:
        assert RULES.view(replace(state, position=world), seat) == view
        assert world.hand(me) == state.position.hand(me)
        faces = [world.card(cell).face for cell in hidden]  # type: ignore[union-attr]
        counts = [faces.count(f) + world.hand(me.other)[f] for f in Face]
        assert tuple(counts) == pool
        assignments.add(tuple(faces))
    assert len(assignments) > 1


# ---------------------------------------------------------------- fairness (OBS3, AE-40)


@pytest.mark.parametrize("radius", [2, 3, 4])
def test_fair_play_hidden_cards_do_not_change_views_or_moves(radius: int) -> None:
    """OBS3 (b): S′ = S with the opponent's face-down agents and hand reassigned (any
    assignment consistent with what is public). The mover's view is identical and every
    difficulty, with the same seed and budgets and the time cap off, plays the same move."""
    checked = 0
    for seed in (1, 2):
        for index, state in enumerate(played_states(seed, radius, every=3)):
            seat = sorted(RULES.awaiting(state))[0]
            mover = int(state.colour_of(seat))  # type: ignore[arg-type]
            other = permuted(state, 1 - mover, seed * 100 + index)
            view = RULES.view(state, seat)
            view_other = RULES.view(other, seat)
            assert json.dumps(view, sort_keys=True) == json.dumps(view_other, sort_keys=True)
            if state.position.hidden_cells(1 - mover):
                checked += state.position.state_tuple() != other.position.state_tuple()
            for name in ("operative", "spymaster", "random"):
                assert bot(name, seat, 31).act(view) == bot(name, seat, 31).act(view_other)
    assert checked > 0  # some pairs really differed in the hidden cards


def test_fair_play_with_the_default_budgets() -> None:
    """OBS3 with the shipped budgets (cap off) on a few radius-4 positions."""
    states = list(played_states(5, 4))
    for state in (states[12], states[25], states[33]):
        seat = sorted(RULES.awaiting(state))[0]
        mover = int(state.colour_of(seat))  # type: ignore[arg-type]
        other = permuted(state, 1 - mover, 77)
        view, view_other = RULES.view(state, seat), RULES.view(other, seat)
        assert view == view_other
        for name in ("operative", "spymaster"):
            a = make_bot(name, seat, 3, time_cap=None).act(view)
            b = make_bot(name, seat, 3, time_cap=None).act(view_other)
            assert a == b


# ---------------------------------------------------------------- evaluation and search


def test_evaluation_is_zero_sum_and_finished_games_score_the_result() -> None:
    for state in played_states(9, 4, every=2):
        p = state.position
        assert evaluate(p, 0) == pytest.approx(-evaluate(p, 1))
    final = list(played_states(9, 4))[-1].position.copy()
    final.play(final.legal_moves()[0])
    assert final.over
    blue, red = final.points()
    lead = blue - red
    expected = (ai.WIN if lead > 0 else -ai.WIN if lead < 0 else 0.0) + lead
    assert evaluate(final, 0) == expected


def test_a_group_in_atari_counts_against_its_owner_when_the_opponent_moves() -> None:
    """AE-11's position: RED (2,-2) has one liberty; it weighs more with BLUE to move."""
    p = fixture.position("(0,0)=Bs (1,0)=Rs (2,-1)=Bs (2,-2)=Rs", radius=2, to_move="B",
                         turns=(2, 2))
    blue_to_move = evaluate(p, 0)
    p.to_move_i = 1
    red_to_move = evaluate(p, 0)
    assert blue_to_move > red_to_move


def test_operative_values_are_the_mean_evaluation_over_the_sampled_worlds() -> None:
    """AI3 as built: one ply, the evaluation of the position after the move (and any
    forced passes) from the mover's side, averaged over the worlds, argmax, ties canonical."""
    state = list(played_states(7, 4))[15]
    seat = sorted(RULES.awaiting(state))[0]
    view = RULES.view(state, seat)
    me = int(observe.my_colour(view))
    moves = ai.root_moves(observe.legal_moves(view), observe.own_hand(view)[0])
    budget = ai.BUDGETS[ai.OPERATIVE]
    report = ai.search(view, moves, Rng(5).stream(15, "t"), budget)
    worlds = ai.sample_worlds(view, Rng(5).stream(15, "t"), budget.worlds)
    expected = []
    for move in moves:
        total = 0.0
        for world in worlds:
            after = world.copy()
            after.play(move)
            total += evaluate(after, me) if after.to_move_i == me or after.over else \
                -evaluate(after, 1 - me)
        expected.append(total / len(worlds))
    assert report.values == pytest.approx(expected)
    assert report.worlds == budget.worlds and not report.cut
    decision = choose(view, "operative", Rng(5).stream(15, "t"))
    best = max(expected)
    assert decision.move == moves[expected.index(best)]


def test_root_candidates_drop_plain_catchers_only_while_a_spy_is_held() -> None:
    legal = [Move(Face.S, (1, 0), 1, Mode.PLAIN, None), Move(Face.C, (1, 0), 1, Mode.PLAIN, None),
             Move(Face.C, (1, 0), 1, Mode.ACCUSE, (0, 0))]
    assert ai.root_moves(legal, 2) == [legal[0], legal[2]]
    assert ai.root_moves(legal[1:], 0) == legal[1:]


def _minimax(p: Position) -> int:
    """Plain minimax over the searched moves: the game's result for the side to move."""
    side = p.to_move_i
    if p.over:
        return ai._result(p, side)
    best = -2
    for move in ai._inner_moves(p):
        child = p.copy()
        child.play(move)
        if child.over:
            value = ai._result(child, side)
        elif child.to_move_i == side:
            value = _minimax(child)
        else:
            value = -_minimax(child)
        best = max(best, value)
    return best


@pytest.mark.parametrize("seed", range(1, 9))
def test_endgame_solver_agrees_with_plain_minimax(seed: int) -> None:
    """The alpha-beta solver (with its table) gives the same results as a plain minimax."""
    rnd = random.Random(seed)
    p = Position.start(2)
    while not p.over and ai.empty_live_cells(p) > 5:
        p.play(rnd.choice(p.legal_moves()))
    if p.over:
        pytest.skip("the random game ended early")
    engine = ai._Search(ai.DEFAULT_WEIGHTS, None)
    moves = p.legal_moves()
    results = engine.results(p, p.to_move_i, moves)
    for move, result in zip(moves, results, strict=True):
        child = p.copy()
        child.play(move)
        if child.over:
            expected = ai._result(child, p.to_move_i)
        elif child.to_move_i == p.to_move_i:
            expected = _minimax(child)
        else:
            expected = -_minimax(child)
        assert result == expected


def test_the_endgame_is_solved_and_a_won_line_is_taken() -> None:
    """At most ``endgame`` empty cells: the best candidates are solved to the end; a move
    whose result is a win in every world outranks any heuristic value."""
    state = list(played_states(12, 3))[-5]
    seat = sorted(RULES.awaiting(state))[0]
    view = RULES.view(state, seat)
    moves = ai.root_moves(observe.legal_moves(view), observe.own_hand(view)[0])
    budget = Budget(worlds=2, depth=1, nodes=0, endgame=8, candidates=len(moves),
                    exact_nodes=100_000)
    report = ai.search(view, moves, Rng(1).stream(0, "t"), budget)
    assert report.exact == tuple(range(len(moves)))
    for value in report.values:  # heuristic part + WIN x mean result
        assert abs(value) < 3 * ai.WIN


# ---------------------------------------------------------------- AI6 time cap


class _FakeClock:
    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_time_cap_stops_after_a_world_and_marks_the_move() -> None:
    state = list(played_states(2, 4))[14]
    seat = sorted(RULES.awaiting(state))[0]
    view = RULES.view(state, seat)
    player = STRATEGIES["operative"](seat, 1, time_cap=0.95, clock=_FakeClock(1.0))
    move = player.act(view)
    assert move is not None and move["ai"] == {"difficulty": "operative", "budget_cut": True}
    assert player.last is not None and player.last.worlds == 1
    del move["ai"]
    assert move in view["legal_moves"]
    calm = STRATEGIES["operative"](seat, 1, time_cap=0.95, clock=_FakeClock(0.0))
    assert calm.decide(view) == make_bot("operative", seat, 1, time_cap=None).decide(view)


def test_choose_refuses_a_view_that_awaits_nothing() -> None:
    view = RULES.view(new_game(), "s2")
    with pytest.raises(ValueError, match="awaits no move"):
        choose(view, "operative", Rng(1).stream(0, "t"))
    with pytest.raises(ValueError, match="unknown difficulty"):
        choose(RULES.view(new_game(), "s1"), "grandmaster", Rng(1).stream(0, "t"))


def test_decision_json_is_the_move_plus_the_note() -> None:
    move = Move(Face.S, (0, 0), 1, Mode.PLAIN, None)
    assert Decision(move, "spymaster", True).to_json() == {
        **move.to_json(), "ai": {"difficulty": "spymaster", "budget_cut": True}}
