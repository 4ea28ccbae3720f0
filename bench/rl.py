"""Environment steps per second of ``spyhouse.rl`` against the engine's own random playout.

Plays Spy or Lie (or ``--game``) with uniformly random legal actions through the AEC
environment (``last()`` then ``step()``, as a training loop does, the view in ``info``
never read), then the same number of games as the rules' own random playout in the same
process (``parse_orders`` + ``resolve`` of a random entry of the seat's legal moves, the
platform's path without any encoding), and prints both rates and their ratio.

    nice -n 10 .venv/bin/python bench/rl.py [--game spyorlie] [--games 200] [--seed 0]
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import numpy as np

from spyhouse.core import registry
from spyhouse.core.rng import Rng
from spyhouse.rl import make_env


def env_rate(game: str, games: int, seed: int, players: int | None) -> tuple[int, float]:
    """(steps, CPU seconds) of ``games`` episodes of random legal actions."""
    env = make_env(game, players=players, seed=seed)
    choose = np.random.default_rng(seed)
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
            env.step(int(legal[choose.integers(len(legal))]))
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="spyorlie")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, default=None)
    args = parser.parse_args()
    steps, seconds = env_rate(args.game, args.games, args.seed, args.players)
    env_speed = steps / seconds
    print(f"{args.game} env: {steps} steps in {seconds:.2f} s = {env_speed:,.0f} steps per "
          f"CPU second (random legal actions, {args.games} games)")
    if args.game == "spyorlie":
        moves, seconds = engine_rate(args.game, args.games, args.seed)
        engine_speed = moves / seconds
        print(f"{args.game} engine: {moves} moves in {seconds:.2f} s = "
              f"{engine_speed:,.0f} moves per CPU second (parse_orders + resolve, no encoding)")
        print(f"env / engine: {env_speed / engine_speed:.2f}")


if __name__ == "__main__":
    main()
