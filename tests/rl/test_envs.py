"""The researchers' environments (``spyhouse.rl``): PettingZoo's own API tests for every
game, determinism, every masked action accepted by the rules, records that replay."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

pytest.importorskip("pettingzoo")

import numpy as np
from pettingzoo.test import api_test, parallel_api_test

from spyhouse.core import record as records
from spyhouse.core import registry
from spyhouse.core.errors import OrderError
from spyhouse.core.rng import Rng
from spyhouse.core.ruleset import Outcome
from spyhouse.rl import make_env, make_parallel_env
from spyhouse.rl.aec import SpyhouseEnv
from spyhouse.rl.table import outcome_rewards

#: each game's small test configuration: (players, rules, max_entries)
CONFIGS: dict[str, tuple[int | None, dict[str, Any], int | None]] = {
    "spyorlie": (None, {"radius": 3}, None),
    "spyvsspy": (4, {}, 6),
    "kingdoms": (3, {}, 4),
    "infiltration": (None, {}, 6),
}
GAMES = [name for name in registry.names() if registry.plugin(name).encoding]
SIMULTANEOUS = [name for name in GAMES if registry.get(name).spec.dynamics == "simultaneous"]


def env_of(game: str, seed: int = 0) -> SpyhouseEnv:
    players, rules, max_entries = CONFIGS.get(game, (None, {}, None))
    return make_env(game, players=players, rules=rules, max_entries=max_entries, seed=seed)


def play(env: SpyhouseEnv, seed: int, choose: np.random.Generator, steps: int = 10_000
         ) -> list[np.ndarray]:
    """A game of random legal actions; every observation seen, in order."""
    seen = []
    env.reset(seed=seed)
    for _ in env.agent_iter(steps):
        observation, _reward, terminated, truncated, _info = env.last()
        seen.append(observation["observation"])
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(legal[choose.integers(len(legal))]))
    return seen


def test_every_game_has_an_environment() -> None:
    assert sorted(GAMES) == sorted(CONFIGS)


@pytest.mark.parametrize("game", GAMES)
def test_api(game: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(env_of(game), num_cycles=60)


@pytest.mark.parametrize("game", SIMULTANEOUS)
def test_parallel_api(game: str) -> None:
    players, rules, max_entries = CONFIGS[game]
    env = make_parallel_env(game, players=players, rules=rules, max_entries=max_entries)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        parallel_api_test(env, num_cycles=200)


def test_alternating_games_have_no_parallel_environment() -> None:
    with pytest.raises(ValueError, match="make_env"):
        make_parallel_env("spyorlie")


@pytest.mark.parametrize("game", GAMES)
def test_same_seed_same_actions_same_observations(game: str) -> None:
    first = play(env_of(game), 7, np.random.default_rng(3))
    second = play(env_of(game), 7, np.random.default_rng(3))
    assert len(first) == len(second) > 2
    assert all(np.array_equal(a, b) for a, b in zip(first, second, strict=True))


@pytest.mark.parametrize("game", GAMES)
def test_reset_without_seed_counts_on(game: str) -> None:
    env = env_of(game, seed=5)
    env.reset()
    assert env.table.seed == 5
    env.reset()
    assert env.table.seed == 6


@pytest.mark.parametrize("game", GAMES)
def test_every_masked_action_is_accepted_by_the_rules(game: str) -> None:
    """For each decision of a random game, every action the mask allows gives a sheet that
    ``parse_orders`` accepts (and the encoder's typed orders equal the parsed ones)."""
    env = env_of(game)
    env.reset(seed=11)
    table = env.table
    encoder = table.encoder
    choose = np.random.default_rng(1)
    checked = 0
    for agent in env.agent_iter(400):
        observation, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        sheet = table.sheets[agent]
        legal = np.flatnonzero(observation["action_mask"])
        assert len(legal) > 0
        for action in legal[:: max(1, len(legal) // 40)]:
            trial = [*sheet, int(action)]
            if not encoder.complete(table.state, agent, trial):
                assert encoder.submit is not None
                trial.append(encoder.submit)
            data = encoder.orders(table.state, agent, trial)
            try:
                parsed = table.ruleset.parse_orders(table.state, agent, data)
            except OrderError as exc:  # pragma: no cover - the failure's message
                pytest.fail(f"{encoder.describe(int(action))}: {data}: {exc}")
            fast = encoder.parsed(table.state, agent, trial)
            assert fast is None or fast == parsed
            checked += 1
        env.step(int(legal[choose.integers(len(legal))]))
    assert checked > 20


@pytest.mark.parametrize("game", GAMES)
def test_record_replays_to_the_same_game(game: str) -> None:
    env = env_of(game)
    play(env, 3, np.random.default_rng(0), steps=300)
    record = env.table.record()
    final = records.final_state(record)
    ruleset = env.table.ruleset
    for seat in env.table.seat_ids:
        assert ruleset.view(final, seat) == ruleset.view(env.table.state, seat)


@pytest.mark.parametrize("game", GAMES)
def test_info_holds_the_seats_view(game: str) -> None:
    env = env_of(game)
    env.reset(seed=2)
    agent = env.agent_selection
    *_, info = env.last()
    assert "view" in info
    assert info["view"] == env.table.ruleset.view(env.table.state, agent)
    assert info.get("view") is info["view"]


@pytest.mark.parametrize("game", GAMES)
def test_the_observation_shows_no_hidden_information(game: str) -> None:
    """A state the seat cannot tell apart (``Ruleset.resample``) gives the same observation
    and mask, at the start of entries 1, 4, 7, … of a random game."""
    env = env_of(game)
    env.reset(seed=4)
    table = env.table
    encoder = table.encoder
    ruleset = table.ruleset
    choose = np.random.default_rng(2)
    checked: set[int] = set()
    for agent in env.agent_iter(2_000):
        observation, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        if table.entries % 3 == 1 and table.entries not in checked:
            checked.add(table.entries)
            for seat in table.seat_ids:
                other = ruleset.resample(table.state, seat, Rng(9 + table.entries))
                assert np.array_equal(encoder.observe(table.state, seat, []),
                                      encoder.observe(other, seat, []))
                assert np.array_equal(encoder.mask(table.state, seat, []),
                                      encoder.mask(other, seat, []))
        legal = [int(a) for a in np.flatnonzero(observation["action_mask"])
                 if not encoder.describe(int(a)).startswith("DECLARE")]  # games that last
        env.step(legal[choose.integers(len(legal))])
        del agent
    assert checked


def test_rewards_from_the_outcome() -> None:
    seats = ("s1", "s2", "s3")
    assert outcome_rewards(None, seats) == {"s1": 0.0, "s2": 0.0, "s3": 0.0}
    draw = Outcome((), (("s1", 1), ("s2", 1), ("s3", 1)))
    assert outcome_rewards(draw, seats) == {"s1": 0.0, "s2": 0.0, "s3": 0.0}
    team = Outcome(("s1", "s3"), (("s1", 1), ("s3", 1), ("s2", 3)))
    assert outcome_rewards(team, seats) == {"s1": 1.0, "s2": -1.0, "s3": 1.0}


def test_a_game_ends_with_rewards_and_terminations() -> None:
    env = env_of("spyorlie")
    env.reset(seed=1)
    choose = np.random.default_rng(0)
    finals: dict[str, float] = {}
    for agent in env.agent_iter(10_000):
        observation, reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            assert terminated and not truncated
            finals[agent] = reward
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(legal[choose.integers(len(legal))]))
    assert sorted(finals) == ["s1", "s2"]
    outcome = env.table.outcome
    assert outcome is not None
    assert finals == outcome_rewards(outcome, ("s1", "s2"))


def test_max_entries_truncates() -> None:
    env = make_env("spyorlie", max_entries=3)
    env.reset(seed=0)
    choose = np.random.default_rng(0)
    steps = 0
    for _agent in env.agent_iter(100):
        observation, reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            assert truncated and not terminated and reward == 0
            env.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(legal[choose.integers(len(legal))]))
        steps += 1
    assert steps == 3
    assert env.agents == []


def test_an_illegal_action_is_refused() -> None:
    env = make_env("spyorlie")
    env.reset(seed=0)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    for action in (illegal, -1, len(mask)):
        with pytest.raises(ValueError, match="not legal"):
            env.step(action)


def test_spyorlie_observations_equal_those_built_from_the_cell_lists() -> None:
    """The encoder reads the cells' packed codes and the engine's open cells: built whole
    from the cell lists instead (``observe_whole``), every observation is the same."""
    env = make_env("spyorlie")
    env.reset(seed=5)
    choose = np.random.default_rng(5)
    encoder: Any = env.table.encoder
    for agent in env.agent_iter(10_000):
        observation, _reward, terminated, truncated, _info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        for seat in env.possible_agents:
            assert np.array_equal(encoder.observe(env.table.state, seat, []),
                                  encoder.observe_whole(env.table.state, seat))
        del agent
        legal = np.flatnonzero(observation["action_mask"])
        env.step(int(legal[choose.integers(len(legal))]))


def test_spyorlie_mask_is_the_rules_legal_moves() -> None:
    """The mask read from the observation's open cells is exactly the rules' legal moves."""
    env = make_env("spyorlie")
    encoder = env.table.encoder
    for seed in (1, 2):
        env.reset(seed=seed)
        choose = np.random.default_rng(seed)
        for agent in env.agent_iter(10_000):
            observation, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = env.table.state.position.legal_moves()
            expected = sorted(encoder.index[move] for move in legal)  # type: ignore[attr-defined]
            actions = np.flatnonzero(observation["action_mask"])
            assert actions.tolist() == expected, agent
            env.step(int(actions[choose.integers(len(actions))]))


@pytest.mark.parametrize(("game", "players", "actions", "size"), [
    ("spyorlie", None, 918, 991),
    ("infiltration", 6, 3 * 6 + 153, 4 * 6 + 182),
    ("infiltration", 10, 3 * 10 + 153, 4 * 10 + 182),
    ("kingdoms", 3, 769, 413),
    ("spyvsspy", 4, 9 * 16 + 28 * 4 + 101, 4 * 4 + 307),
    ("spyvsspy", 8, 9 * 64 + 28 * 8 + 101, 4 * 8 + 307),
])
def test_the_sizes_docs_rl_gives(game: str, players: int | None, actions: int, size: int
                                 ) -> None:
    env = make_env(game, players=players)
    encoder = env.table.encoder
    assert encoder.action_count == actions
    assert encoder.observation_shape == (size,)


def test_a_parallel_seat_that_submitted_may_only_submit() -> None:
    env = make_parallel_env("kingdoms", players=3)
    observations, _infos = env.reset(seed=0)
    actions = {}
    for agent in env.agents:
        legal = np.flatnonzero(observations[agent]["action_mask"])
        actions[agent] = 0 if agent == "s1" else int(legal[-1])
    observations, *_ = env.step(actions)
    assert np.flatnonzero(observations["s1"]["action_mask"]).tolist() == [0]
    assert env.table.entries == 0
    with pytest.raises(ValueError, match="only submit"):
        env.step({"s1": int(np.flatnonzero(observations["s2"]["action_mask"])[-1]),
                  "s2": 0, "s3": 0})


@pytest.mark.parametrize("game", GAMES)
def test_every_action_has_words(game: str) -> None:
    encoder = env_of(game).table.encoder
    words = [encoder.describe(action) for action in range(encoder.action_count)]
    assert all(words)
    if encoder.submit is not None:
        assert words[encoder.submit] == "SUBMIT"


def test_the_examples_of_docs_rl_run() -> None:
    """The Python examples of docs/rl.md run as written."""
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "rl.md").read_text()
    blocks = [block.split("```", 1)[0] for block in text.split("```python\n")[1:]]
    assert len(blocks) >= 2
    for block in blocks:
        exec(compile(block, "docs/rl.md", "exec"), {})


def test_spyorlie_plays_the_same_with_every_sheet_parsed() -> None:
    """Without the encoder's typed fast path (``trust = False``) every move goes through
    ``parse_orders``, and the game is the same."""
    fast = make_env("spyorlie")
    slow = make_env("spyorlie")
    slow.table.trust = False
    first = play(fast, 8, np.random.default_rng(4))
    second = play(slow, 8, np.random.default_rng(4))
    assert all(np.array_equal(a, b) for a, b in zip(first, second, strict=True))
    assert fast.table.record() == slow.table.record()


def test_spyorlie_typed_moves_equal_the_parsed_ones() -> None:
    """Every legal action's typed move (``Encoder.parsed``, from the mask's own tables) is
    the move ``parse_orders`` reads from the action's JSON."""
    env = make_env("spyorlie")
    table = env.table
    encoder: Any = table.encoder
    for seed in (3, 4):
        env.reset(seed=seed)
        choose = np.random.default_rng(seed)
        for agent in env.agent_iter(10_000):
            observation, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            actions = np.flatnonzero(observation["action_mask"])
            for action in actions.tolist():
                data = encoder.orders(table.state, agent, [action])
                assert encoder.parsed(table.state, agent, [action]) == \
                    table.ruleset.parse_orders(table.state, agent, data), action
            env.step(int(actions[choose.integers(len(actions))]))
