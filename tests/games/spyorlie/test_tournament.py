"""``spyhouse tournament`` and the match runner behind it (``sim/tournament.py``), and
``spyhouse simulate spyorlie`` through the generic simulation with the Spy or Lie bots.

Games here are on small boards with the Random bot or tiny budgets: fast and exact.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from spyhouse.cli import main
from spyhouse.core import record as records
from spyhouse.core.bots import Bot
from spyhouse.games.spyorlie.ai import Budget
from spyhouse.games.spyorlie.bots import STRATEGIES
from spyhouse.sim.tournament import (
    GameResult,
    Match,
    PlayerStats,
    TimedBot,
    game_seats,
    percentile,
    tournament,
    wilson,
)


class Ticks:
    """A fake clock: every reading is one tick (0.01 s) later."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 0.01
        return self.now


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------- statistics


def test_wilson_interval_known_values() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    low, high = wilson(10, 10)
    assert low == pytest.approx(0.7225, abs=1e-4) and high == 1.0
    assert wilson(180, 200)[0] == pytest.approx(0.8506, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_percentile_interpolates() -> None:
    assert percentile([], 0.5) == 0.0
    assert percentile([3.0], 0.95) == 3.0
    assert percentile([1.0, 2.0, 3.0, 4.0], 0.5) == 2.5
    assert percentile([float(n) for n in range(101)], 0.95) == pytest.approx(95.0)


def test_match_counts_and_score() -> None:
    match = Match("g", PlayerStats("a"), PlayerStats("b"))
    for index, score in enumerate((1.0, 0.5, 0.0, 1.0)):
        match.results.append(GameResult(index, 1 + index // 2, index % 2 == 0, score, 40))
    assert (match.wins, match.draws, match.losses) == (2, 1, 1)
    assert match.score == pytest.approx(0.625)
    assert match.interval == wilson(2.5, 4)
    text = match.summary()
    assert "A: 2 wins, 1 draws, 1 losses" in text and "score A: 0.625" in text
    assert json.loads(json.dumps(match.to_json()))["games"] == 4


def test_timed_bot_times_each_decision_and_counts_cuts() -> None:
    class Fixed:
        def __init__(self, moves: list[Any]) -> None:
            self.moves = moves

        def act(self, view: Any) -> Any:
            return self.moves.pop(0)

    stats = PlayerStats("x")
    timed = TimedBot(Fixed([{"ai": {"budget_cut": True}}, {"ai": {"budget_cut": False}},
                            None]), stats, Ticks())
    for _ in range(3):
        timed.act({})
    assert stats.decisions == 3 and stats.cuts == 1
    assert stats.times == pytest.approx([0.01, 0.01, 0.01])
    assert stats.cut_rate == pytest.approx(1 / 3)


# ---------------------------------------------------------------- the match runner


def test_colours_swap_every_other_game() -> None:
    assert [seat.id for seat in game_seats(0)] == ["s1", "s2"]
    assert [seat.id for seat in game_seats(1)] == ["s2", "s1"]


def test_tournament_plays_seeded_pairs_with_colours_swapped() -> None:
    seen: list[GameResult] = []
    match = tournament("spyorlie", "random", "random", 6, seed=10, options={"radius": 2},
                       clock=Ticks(), on_game=seen.append)
    assert match.games == 6 and seen == match.results
    assert [r.seed for r in match.results] == [10, 10, 11, 11, 12, 12]
    assert [r.a_first for r in match.results] == [True, False] * 3
    assert match.wins + match.draws + match.losses == 6
    assert match.a.decisions + match.b.decisions == sum(r.entries for r in match.results)
    again = tournament("spyorlie", "random", "random", 6, seed=10, options={"radius": 2},
                       clock=Ticks())
    assert [r.score for r in again.results] == [r.score for r in match.results]


def test_tournament_with_a_custom_bot_factory_and_the_ai_note() -> None:
    tiny = {"operative": Budget(worlds=2, depth=1, nodes=0, endgame=4, candidates=2,
                                exact_nodes=200)}

    def factory(game: str, name: str, seat: str, seed: int) -> Bot:
        return STRATEGIES[name](seat, seed, budgets=tiny, time_cap=None)

    match = tournament("spyorlie", "operative", "random", 2, seed=3, options={"radius": 3},
                       make_bot=factory, clock=Ticks())
    assert match.games == 2 and match.a.cuts == 0 and match.a.decisions > 0


def test_tournament_refuses_zero_games() -> None:
    with pytest.raises(ValueError):
        tournament("spyorlie", "random", "random", 0, clock=Ticks())


# ---------------------------------------------------------------- the command line


def test_cli_tournament_prints_the_table(capsys: pytest.CaptureFixture[str],
                                         tmp_path: Path) -> None:
    out_file = tmp_path / "match.json"
    code, out, err = run(capsys, "tournament", "spyorlie", "--a", "random", "--b", "random",
                         "--games", "4", "--seed", "5", "--radius", "2", "-q",
                         "--out", str(out_file))
    assert code == 0, err
    assert "seeds 5 to 6" in out
    assert "random (A) vs random (B), 4 games" in out
    assert "A: " in out and " wins, " in out and "95% Wilson interval" in out
    for word in ("decisions", "mean s", "p95 s", "cut rate"):
        assert word in out
    data = json.loads(out_file.read_text(encoding="utf-8"))
    assert data["games"] == 4 and len(data["ci95"]) == 2
    assert data["wins"] + data["draws"] + data["losses"] == 4


@pytest.mark.parametrize(("argv", "message"), [
    (["--a", "random", "--b", "nobody"], "unknown bot 'nobody'"),
    (["--a", "random", "--b", "random", "--games", "0"], "--games must be at least 1"),
    (["--a", "random", "--b", "random", "--seed", "-1"], "--seed must be"),
    (["--a", "random", "--b", "random", "--radius", "9"], "radius"),
])
def test_cli_tournament_errors_are_one_line(capsys: pytest.CaptureFixture[str],
                                            argv: list[str], message: str) -> None:
    code, _, err = run(capsys, "tournament", "spyorlie", "-q", *argv)
    assert code == 1
    assert message in err and err.count("\n") == 1


def test_cli_tournament_unknown_game(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "tournament", "chess", "--a", "x", "--b", "y")
    assert code == 1 and "unknown game 'chess'" in err


def test_cli_tournament_needs_both_players(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["tournament", "spyorlie", "--a", "random"])
    assert exc.value.code == 2
    capsys.readouterr()


# ---------------------------------------------------------------- simulate with these bots


@pytest.fixture
def record_path(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path / "game.json"


def test_simulate_spyorlie_plays_a_whole_game_that_replays(
        capsys: pytest.CaptureFixture[str], record_path: Path) -> None:
    code, out, err = run(capsys, "simulate", "spyorlie", "--players", "2", "--turns", "100",
                         "--seed", "4", "--bot", "random", "--bot", "operative",
                         "--options", '{"radius": 3}', "-q", "--out", str(record_path))
    assert code == 0, err
    assert "refused sheets: 0" in out and "bots: operative, random" in out
    record = records.load(str(record_path))
    notes = [order["ai"] for turn in record.turns for order in turn.values()]
    assert {note["difficulty"] for note in notes} == {"random", "operative"}
    state = records.final_state(record, None)
    assert state.position.over
    code, _, err = run(capsys, "replay", str(record_path), "--seat", "s1", "--json")
    assert code == 0, err
