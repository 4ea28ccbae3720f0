"""The fairness harness (``sim/fairness.py``, ``spyhouse fairness``).

Every built-in bot of every game that can resample passes; the cheating bots of
``cheating_bots.py`` (stack, ``gc``, module global) are caught; bot specs of both custom
forms work through the command line. Small sizes: a few positions, two worlds.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from spyhouse import cli
from spyhouse.core import bots, registry
from spyhouse.core import record as records
from spyhouse.core.record import Record
from spyhouse.core.rng import Rng
from spyhouse.core.ruleset import RulesetBase
from spyhouse.sim import fairness
from spyhouse.sim.fairness import DecisionPoint, check_fairness
from spyhouse.sim.simulate import default_seats

CHEATS = Path(__file__).with_name("cheating_bots.py")
MODULE = "tests.sim.cheating_bots"
#: Per (game, bot): positions and entry cap when the defaults (2, 12) are too slow.
BUDGET: dict[tuple[str, str], tuple[int, int]] = {("spyorlie", "spymaster"): (1, 12)}


def resample_problem(game: str) -> str | None:
    """Why ``game`` cannot be checked (its ruleset cannot resample), or ``None``."""
    seats = default_seats(registry.get(game).spec.min_seats, game)
    _, _, state = records.start(Record(game, 1, {}, seats))
    try:
        registry.get(game).resample(state, seats[0].id, Rng(0))
    except NotImplementedError as exc:
        return f"{game} cannot resample yet: {exc}"
    return None


def needs_resample(game: str) -> None:
    problem = resample_problem(game)
    if problem is not None:
        pytest.skip(problem)


BUILT_IN = [(game, name) for game in bots.games() for name in bots.bot_names(game)]


@pytest.mark.parametrize(("game", "bot"), BUILT_IN, ids=[f"{g}-{b}" for g, b in BUILT_IN])
def test_every_built_in_bot_is_fair(game: str, bot: str) -> None:
    needs_resample(game)
    positions, turns = BUDGET.get((game, bot), (2, 12))
    report = check_fairness(game, bot, positions=positions, worlds=2, seed=3, turns=turns)
    assert report.fair, [str(finding) for finding in report.findings]
    assert not report.vacuous, report.summary()


CHEATING = [(game, kind) for game in ("spyorlie", "infiltration")
            for kind in ("StackCheat", "GcCheat", "GlobalCheat")]


@pytest.mark.parametrize(("game", "kind"), CHEATING, ids=[f"{g}-{k}" for g, k in CHEATING])
def test_a_bot_reading_the_live_state_is_caught(game: str, kind: str) -> None:
    # short games: the cheats play them in this process too, and a gc scan is slow here
    report = check_fairness(game, f"{MODULE}:{kind}_{game}", positions=4, worlds=2, seed=1,
                            turns=8 if kind == "GcCheat" else 12)
    assert not report.vacuous
    assert report.changes, report.summary()
    assert not report.resample_bugs and not report.errors


@pytest.mark.parametrize("game", ["spyorlie", "infiltration"])
def test_the_true_state_is_gone_before_the_bot_acts(game: str) -> None:
    report = check_fairness(game, f"{MODULE}:Census_{game}", positions=2, worlds=2, seed=2,
                            turns=10)
    assert report.fair, [str(finding) for finding in report.findings]


MANY = [(game, kind) for game in ("kingdoms", "spyvsspy")
        for kind in ("StackCheat", "GcCheat", "GlobalCheat")]


@pytest.mark.parametrize(("game", "kind"), MANY, ids=[f"{g}-{k}" for g, k in MANY])
def test_a_cheat_is_caught_in_the_many_player_games(game: str, kind: str) -> None:
    needs_resample(game)
    # a cheat's decision flips on one bit of what it found: four positions leave a
    # 1-in-256 chance that no world shows it, whatever the games' course
    report = check_fairness(game, f"{MODULE}:{kind}_{game}", positions=4, worlds=2, seed=1,
                            turns=6)
    assert not report.vacuous
    assert report.changes, report.summary()


def test_the_cli_fails_a_cheat_given_as_a_file(capsys: pytest.CaptureFixture[str]) -> None:
    code = cli.main(["fairness", "spyorlie", "--bot", f"{CHEATS}:StackCheat_spyorlie",
                     "--positions", "2", "--worlds", "2", "--quiet"])
    out = capsys.readouterr().out
    assert code == 1
    assert "NOT FAIR: decision changed at game seed 1, entry" in out
    assert "world" in out and "seat s" in out


@pytest.mark.parametrize("spec", [f"{MODULE}:Honest_spyorlie", f"{CHEATS}:Honest_spyorlie"])
def test_the_cli_passes_a_fair_custom_bot(spec: str, capsys: pytest.CaptureFixture[str]
                                          ) -> None:
    code = cli.main(["fairness", "spyorlie", "--bot", spec, "--positions", "2",
                     "--worlds", "1", "--quiet"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "spyorlie Honest_spyorlie: fair: 2 positions x 1 resampled worlds" in out


@pytest.mark.parametrize("argv", [["nogame", "--bot", "random"],
                                  ["spyorlie", "--bot", "nobot"],
                                  ["spyorlie", "--bot", "missing/file.py:Bot"],
                                  ["spyorlie", "--bot", "no.such.module:Bot"],
                                  ["spyorlie", "--bot", "random", "--players", "3"],
                                  ["spyorlie", "--bot", "random", "--worlds", "0"],
                                  ["spyorlie", "--bot", "random", "--options", "{"]])
def test_the_cli_exits_2_for_bad_arguments_a_game_or_a_bot(argv: list[str],
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["fairness", *argv]) == 2
    assert capsys.readouterr().err.startswith("spyhouse: ")


def test_the_cli_exits_2_for_a_game_that_cannot_resample(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(type(registry.get("spyorlie")), "resample", RulesetBase.resample)
    assert cli.main(["fairness", "spyorlie", "--bot", "random", "--positions", "1"]) == 2
    assert "cannot resample" in capsys.readouterr().err


def point(entry: int = 4) -> DecisionPoint:
    return DecisionPoint(7, entry, "s1")


def test_a_bot_that_never_answers_is_stopped_and_counted_as_its_error() -> None:
    report = check_fairness("spyorlie", f"{MODULE}:Stall_spyorlie", positions=1, worlds=1,
                            seed=1, turns=4, time_limit=1.0)
    assert not report.fair
    assert report.errors
    assert all("no decision within 1 s" in finding.message for finding in report.errors)


def test_judging_tells_changes_resample_bugs_and_errors_apart() -> None:
    findings: list[Any] = []
    answers: dict[Any, Any] = {
        fairness.TRUE: {"decision": {"a": 1}},
        0: {"decision": {"a": 1}, "varied": True},
        1: {"decision": {"a": 2}, "varied": False},
        2: {"decision": {"a": 1}, "varied": False, "resample_bug": "the view differs"},
        3: {"error": "ValueError: boom"},
    }
    assert fairness._judge(point(), answers, 4, findings) == 1
    assert [f.kind for f in findings] == ["changed", "resample", "error"]
    assert str(findings[0]) == ('decision changed at game seed 7, entry 4, seat s1, world 1: '
                                'true world {"a": 1}, resampled world {"a": 2}')
    assert fairness._judge(point(), {fairness.TRUE: {"decision": None},
                                     0: {"decision": None, "varied": False}}, 1, []) == 0


def test_a_report_without_varied_positions_is_vacuous() -> None:
    report = fairness.FairnessReport("spyorlie", "random", 1, 2, points=[point()])
    assert report.fair and report.vacuous
    assert "VACUOUS" in report.summary()


def test_points_are_spread_and_fixed_by_the_seed() -> None:
    points = [point(entry) for entry in range(40)]
    chosen = fairness.spread(points, 4, seed=5)
    assert chosen == fairness.spread(points, 4, seed=5)
    assert len({p.entry // 10 for p in chosen}) == 4
    assert fairness.spread(points[:3], 4, seed=5) == points[:3]


def test_first_difference_names_the_path() -> None:
    assert fairness._first_difference({"a": [1, {"b": 2}]}, {"a": [1, {"b": 3}]}) == \
        "view.a[1].b: 2 against 3"
