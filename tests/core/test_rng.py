"""The seeded RNG (core/rng.py): streams per (seed, turn, purpose), rolls we own.

DESIGN.md "Randomness"; spec §7 (a random choice among one candidate draws nothing).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spyhouse.core.rng import Rng, ScriptedRng, Stream

SRC = Path(__file__).resolve().parents[2] / "src"


def _rolls(rng: Rng, turn: int, purpose: str, n: int, count: int) -> list[int]:
    stream = rng.stream(turn, purpose)
    return [stream.roll(n) for _ in range(count)]


@given(seed=st.integers(0, 2**63), n=st.integers(1, 10_000), turn=st.integers(0, 500))
def test_roll_stays_in_range(seed: int, n: int, turn: int) -> None:
    stream = Rng(seed).stream(turn, "hunt")
    assert all(1 <= stream.roll(n) <= n for _ in range(20))


@pytest.mark.parametrize("n", [0, -1, -9])
def test_roll_refuses_empty_range(n: int) -> None:
    with pytest.raises(ValueError, match="needs n >= 1"):
        Rng(1).stream(1, "x").roll(n)


@pytest.mark.parametrize("n", [2, 3, 6, 9, 40])
def test_roll_is_roughly_uniform(n: int) -> None:
    """Every face comes up, none far from its share (a loose chi-square bound)."""
    draws = 600 * n
    counts = Counter(_rolls(Rng(7), 1, f"uniform-{n}", n, draws))
    assert sorted(counts) == list(range(1, n + 1))
    expected = draws / n
    chi2 = sum((counts[face] - expected) ** 2 / expected for face in range(1, n + 1))
    # the 99.99th percentile of chi-square with 39 degrees of freedom is about 84
    assert chi2 < 30 + 2 * n


def test_same_seed_turn_purpose_gives_same_draws() -> None:
    assert _rolls(Rng(42), 3, "hunt", 9, 200) == _rolls(Rng(42), 3, "hunt", 9, 200)
    assert Rng(42).stream(3, "hunt").key == "spyhouse/42/3/hunt"


def test_streams_are_independent() -> None:
    """Changing the seed, the turn or the purpose gives a different stream."""
    base = _rolls(Rng(42), 3, "hunt", 1000, 50)
    assert _rolls(Rng(43), 3, "hunt", 1000, 50) != base
    assert _rolls(Rng(42), 4, "hunt", 1000, 50) != base
    assert _rolls(Rng(42), 3, "search", 1000, 50) != base


def test_drawing_from_one_purpose_does_not_move_another() -> None:
    rng = Rng(5)
    alone = _rolls(rng, 2, "recruit", 3, 30)
    rng2 = Rng(5)
    hunt = rng2.stream(2, "hunt")
    recruit = rng2.stream(2, "recruit")
    mixed = []
    for _ in range(30):
        hunt.roll(9)
        mixed.append(recruit.roll(3))
    assert mixed == alone


def test_choice_of_one_draws_nothing() -> None:
    stream = Rng(9).stream(1, "disguise")
    fresh = Rng(9).stream(1, "disguise")
    assert stream.choice(["only"]) == "only"
    assert stream.roll(1) == 1
    assert [stream.roll(100) for _ in range(10)] == [fresh.roll(100) for _ in range(10)]


def test_choice_and_ordering_use_canonical_order() -> None:
    candidates = ["a", "b", "c", "d"]
    stream = Rng(3).stream(1, "pick")
    replay = Rng(3).stream(1, "pick")
    assert stream.choice(candidates) == candidates[replay.roll(4) - 1]
    ordered = Rng(3).stream(2, "order").ordering(candidates)
    assert sorted(ordered) == candidates
    with pytest.raises(ValueError):
        stream.choice([])


def test_ordering_of_one_or_none_draws_nothing() -> None:
    stream = Rng(11).stream(1, "o")
    fresh = Rng(11).stream(1, "o")
    assert stream.ordering([]) == []
    assert stream.ordering(["x"]) == ["x"]
    assert stream.roll(50) == fresh.roll(50)


def test_scripted_rng_answers_from_script_then_from_seed() -> None:
    rng = ScriptedRng(seed=4, script={"hunt": [2, 1], "recruit@3": [3]})
    hunt = rng.stream(1, "hunt")
    assert hunt.roll(2) == 2
    assert hunt.roll(5) == 1
    fresh = Rng(4).stream(1, "hunt")
    assert hunt.roll(9) == fresh.roll(9)  # past the script: the seeded stream
    assert rng.stream(3, "recruit").roll(3) == 3
    assert rng.unused() == {}
    assert rng.draws[:2] == [("hunt@1", 2, 2), ("hunt@1", 5, 1)]
    assert ("recruit@3", 3, 3) in rng.draws


def test_scripted_rng_turn_specific_script() -> None:
    rng = ScriptedRng(script={"recruit@3": [3]})
    other_turn = rng.stream(2, "recruit")
    other_turn.roll(3)
    assert rng.unused() == {"recruit@3": [3]}


def test_scripted_rng_refuses_out_of_range_value() -> None:
    rng = ScriptedRng(script={"setup-bases": [10]})
    with pytest.raises(ValueError, match=r"outside 1\.\.9"):
        rng.stream(0, "setup-bases").roll(9)


def test_scripted_choice_of_one_uses_no_script_value() -> None:
    rng = ScriptedRng(script={"disguise": [2]})
    stream = rng.stream(1, "disguise")
    assert stream.choice(["only"]) == "only"
    assert rng.unused() == {"disguise": [2]}
    assert stream.choice(["a", "b", "c"]) == "b"


def test_stream_key_names_seed_turn_purpose() -> None:
    assert isinstance(Rng(1).stream(0, "setup-leaders"), Stream)
    assert Rng(1).stream(0, "setup-leaders").key == "spyhouse/1/0/setup-leaders"


_CHILD = """
import json
from spyhouse.core.rng import Rng
rng = Rng(20261130)
out = {}
for purpose in ["setup-leaders", "hunt", "default:s1", "búsqueda"]:
    s = rng.stream(7, purpose)
    out[purpose] = [s.roll(n) for n in (2, 3, 9, 40, 1000, 2**40)]
print(json.dumps(out))
"""


def _child_draws(hash_seed: str) -> dict[str, list[int]]:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed,
           "PYTHONPATH": os.pathsep.join([str(SRC), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "-c", _CHILD], env=env, capture_output=True,
                          text=True, check=True)
    result: dict[str, list[int]] = json.loads(done.stdout)
    return result


def test_draws_identical_across_processes_and_hash_seeds() -> None:
    here: dict[str, list[int]] = {}
    rng = Rng(20261130)
    for purpose in ["setup-leaders", "hunt", "default:s1", "búsqueda"]:
        s = rng.stream(7, purpose)
        here[purpose] = [s.roll(n) for n in (2, 3, 9, 40, 1000, 2**40)]
    assert _child_draws("0") == here
    assert _child_draws("12345") == here
