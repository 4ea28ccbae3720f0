"""Environment steps per second of ``spyhouse.rl`` against the engine's own random playout.

Plays Spy or Lie (or ``--game``) with uniformly random legal actions through the AEC
environment (``last()`` then ``step()``, as a training loop does, the view in ``info``
never read); then, in the same process, the same games played by the rules' own path
(``parse_orders`` + ``resolve`` of a random legal move, the platform's immutable states,
no encoding) and by the engine's in-place playout on its ``Position`` (``legal_moves`` +
``apply``, as the computer players search). It prints each rate per CPU second of this
process (so that other work on the machine slows the figures less), the best and the
median of ``--rounds`` rounds, and the ratios.

    nice -n 10 .venv/bin/python bench/rl.py [--game spyorlie] [--games 40] [--rounds 7]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from spyhouse.core import registry
from spyhouse.core.rng import Rng
from spyhouse.rl import make_env


def env_rate(game: str, games: int, seed: int, players: int | None) -> tuple[int, float]:
    """(steps, CPU seconds) of ``games`` episodes of random legal actions."""
    env = make_env(game, players=players, seed=seed)
    choose = random.Random(seed)
    steps = 0
    start = time.process_time()
    for _ in range(games):
        env.reset()
        for agent in env.agent_iter():
            observation, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[choose.randrange(len(legal))]))
            steps += 1
            del agent
    return steps, time.process_time() - start


def engine_rate(game: str, games: int, seed: int) -> tuple[int, float]:
    """(moves, CPU seconds) of Spy or Lie's own random playout through the ``Ruleset``: each
    move one of the view-free legal moves, parsed and resolved as the platform does."""
    ruleset: Any = registry.get(game)
    env = make_env(game, seed=seed)
    seats = env.table.seats
    pick = random.Random(seed)
    moves = 0
    start = time.process_time()
    for number in range(games):
        rng = Rng(seed + number)
        state = ruleset.setup(seats, {}, rng)
        while ruleset.outcome(state) is None:
            seat = next(iter(ruleset.awaiting(state)))
            legal = state.position.legal_moves()
            move = legal[pick.randrange(len(legal))]
            orders = ruleset.parse_orders(state, seat, move.to_json())
            state = ruleset.resolve(state, {seat: orders}, rng)
            moves += 1
    return moves, time.process_time() - start


def playout_rate(game: str, games: int, seed: int) -> tuple[int, float]:
    """(moves, CPU seconds) of Spy or Lie's in-place random playout on the engine's
    ``Position`` (``legal_moves`` and ``apply``, as the computer players' search plays):
    the engine's own speed, without the platform's immutable states."""
    ruleset: Any = registry.get(game)
    seats = make_env(game, seed=seed).table.seats
    start_position = ruleset.setup(seats, {}, Rng(seed)).position
    pick = random.Random(seed)
    moves = 0
    start = time.process_time()
    for _ in range(games):
        position = start_position.copy()
        while not position.over:
            legal = position.legal_moves()
            if legal:
                position.apply(legal[pick.randrange(len(legal))])
                moves += 1
            else:
                position.apply_pass()
    return moves, time.process_time() - start


def best(rate: Callable[[int], tuple[int, float]], rounds: int) -> tuple[float, float]:
    """The best and the median rate over ``rounds`` rounds (round ``r`` seeded ``r``): the
    best is the machine's speed with the least interference from other work."""
    speeds = []
    for number in range(rounds):
        count, seconds = rate(number)
        speeds.append(count / seconds)
    return max(speeds), statistics.median(speeds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="spyorlie")
    parser.add_argument("--games", type=int, default=40, help="games per round")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--players", type=int, default=None)
    args = parser.parse_args()
    env_best, env_median = best(
        lambda seed: env_rate(args.game, args.games, seed, args.players), args.rounds)
    print(f"{args.game} env: {env_best:,.0f} steps per CPU second at best, "
          f"{env_median:,.0f} median ({args.rounds} rounds of {args.games} games, "
          f"random legal actions)")
    if args.game == "spyorlie":
        engine_best, engine_median = best(
            lambda seed: engine_rate(args.game, args.games, seed), args.rounds)
        print(f"{args.game} engine: {engine_best:,.0f} moves per CPU second at best, "
              f"{engine_median:,.0f} median (parse_orders + resolve, no encoding)")
        print(f"env / engine: {env_best / engine_best:.2f} at best, "
              f"{env_median / engine_median:.2f} median")
        playout_best, playout_median = best(
            lambda seed: playout_rate(args.game, args.games, seed), args.rounds)
        print(f"{args.game} playout: {playout_best:,.0f} moves per CPU second at best, "
              f"{playout_median:,.0f} median (Position.apply in place, no platform state)")
        print(f"env / playout: {env_best / playout_best:.2f} at best, "
              f"{env_median / playout_median:.2f} median")


if __name__ == "__main__":
    main()
