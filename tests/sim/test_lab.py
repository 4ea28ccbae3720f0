"""The balance lab (``spyhouse lab``, src/spyhouse/sim/lab*.py; docs/lab.md).

Fast on purpose: Spy vs Spy games of three or four bots take milliseconds, and one
local Ray (two CPUs) is started once for the module and shut down after it.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from spyhouse.cli import main
from spyhouse.core.bots import BotSpecError
from spyhouse.sim.lab import LabError, Variant, parse_variant, plan_games, play
from spyhouse.sim.lab_report import ENDINGS_PLOT, PLOTS, cells, write_report
from spyhouse.sim.lab_run import run_tasks

GAME = "spyvsspy"
BOTS = ["economist", "hunter", "shadow"]
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"

WRAPPED = '''
from spyhouse.core.bots import make_bot


class Wrapped:
    """The built-in hunter under another name; its clock cap must be lifted by the lab."""

    time_cap = 2.0

    def __init__(self, seat, seed):
        self.bot = make_bot("spyvsspy", "hunter", seat, seed)

    def act(self, view):
        assert self.time_cap is None, "the lab plays without a clock"
        return self.bot.act(view)
'''


def _plan(**changes: Any) -> list[Any]:
    arguments: dict[str, Any] = {"players": [4], "games": 6, "seed": 11}
    arguments.update(changes)
    bots = arguments.pop("bots", BOTS)
    return plan_games(GAME, bots, **arguments)


def test_rotation_seats_every_bot_in_every_seat_equally() -> None:
    tasks = _plan(players=[4, 5], games=7)  # 7 rounds up to 3 blocks of 3 rotations
    assert len(tasks) == 2 * 9
    for players in (4, 5):
        counts = Counter((bot, seat) for task in tasks if task.players == players
                         for seat, bot in enumerate(task.lineup))
        assert set(counts) == {(bot, seat) for bot in BOTS for seat in range(players)}
        assert len(set(counts.values())) == 1
    assert [task.index for task in tasks] == list(range(len(tasks)))
    assert {task.seed for task in tasks} == {11, 12, 13}


def test_repeated_bot_sits_each_seat_by_its_copies() -> None:
    tasks = _plan(bots=["hunter", "economist", "economist", "economist"], games=4)
    counts = Counter((bot, seat) for task in tasks for seat, bot in enumerate(task.lineup))
    assert all(counts[("hunter", seat)] == 1 for seat in range(4))
    assert all(counts[("economist", seat)] == 3 for seat in range(4))


def test_variants_share_seeds_and_merge_options() -> None:
    variants = [Variant("classic", {}), parse_variant('{"variant": "spy2"}')]
    tasks = _plan(variants=variants, options={"base_choice": "random"})
    by_variant: dict[str, list[Any]] = {}
    for task in tasks:
        by_variant.setdefault(task.variant, []).append(task)
    assert list(by_variant) == ["classic", "variant=spy2"]
    assert [t.seed for t in by_variant["classic"]] == [t.seed for t in by_variant["variant=spy2"]]
    assert by_variant["variant=spy2"][0].options == {"base_choice": "random", "variant": "spy2"}


def test_parse_variant_labels() -> None:
    assert parse_variant("{}").label == "default"
    assert parse_variant('spy2={"variant": "spy2"}') == Variant("spy2", {"variant": "spy2"})
    with pytest.raises(LabError):
        parse_variant("[1]")
    with pytest.raises(LabError):
        parse_variant("x={")


def test_plan_refuses_what_cannot_be_played() -> None:
    with pytest.raises(BotSpecError):
        _plan(bots=["nobody"])
    with pytest.raises(LabError, match="players"):
        plan_games("kingdoms", ["steward"], players=[9], games=1)
    with pytest.raises(LabError, match="variant"):
        _plan(variants=[Variant("bad", {"variant": "spy3"})])


def test_rows_split_each_game_among_its_winners() -> None:
    rows = [play(task) for task in _plan()]
    for row in rows:
        assert len(row["shares"]) == len(row["bots"]) == 4
        if row["winners"]:
            assert sum(row["shares"]) == pytest.approx(1.0)
            assert all(row["shares"][int(s[1:]) - 1] == 1 / len(row["winners"])
                       for s in row["winners"])
        else:
            assert sum(row["shares"]) == 0.0


def test_same_rows_in_process_and_on_two_processes() -> None:
    tasks = _plan()
    seen: list[int] = []
    alone = run_tasks(tasks, on_row=lambda row: seen.append(row["index"]))
    pooled = run_tasks(tasks, jobs=2)
    assert alone == pooled
    assert sorted(seen) == list(range(len(tasks)))
    assert json.loads(json.dumps(alone)) == alone


@pytest.fixture(scope="module")
def local_ray() -> Iterator[Any]:
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        yield ray
    finally:
        ray.shutdown()


def test_ray_gives_the_rows_of_two_processes(local_ray: Any) -> None:
    tasks = _plan(variants=[Variant("classic", {}), Variant("spy2", {"variant": "spy2"})])
    assert run_tasks(tasks, ray="local") == run_tasks(tasks, jobs=2)
    assert local_ray.is_initialized()  # a Ray the caller started is left running


def test_custom_file_bot_plays_as_its_class(tmp_path: Path) -> None:
    path = tmp_path / "mybots.py"
    path.write_text(WRAPPED, encoding="utf-8")
    spec = f"{path}:Wrapped"
    custom = _plan(bots=["economist", spec, "shadow"])
    builtin = _plan(bots=["economist", "hunter", "shadow"])
    assert custom[0].lineup[1] == f"{path.resolve()}:Wrapped"
    mine = run_tasks(custom, jobs=2)
    theirs = run_tasks(builtin)
    assert {bot for row in mine for bot in row["bots"]} == {"economist", "Wrapped", "shadow"}
    for ours, reference in zip(mine, theirs, strict=True):  # the same player, renamed
        assert ours["shares"] == reference["shares"]
        assert ours["bots"] == [b.replace("hunter", "Wrapped") for b in reference["bots"]]


def test_report_files_and_plots(tmp_path: Path) -> None:
    tasks = _plan(players=[3, 4], variants=[Variant("classic", {}),
                                            Variant("spy2", {"variant": "spy2"})])
    rows = run_tasks(tasks)
    paths = write_report(tmp_path, rows, {"game": GAME, "bots": BOTS, "seed": 11,
                                          "command": "spyhouse lab …"})
    assert {p.name for p in paths} >= {"report.md", "results.csv", "results.json", *PLOTS}
    from PIL import Image

    for name in PLOTS:
        data = (tmp_path / name).read_bytes()
        assert data.startswith(PNG_MAGIC) and len(data) < 150_000
        with Image.open(tmp_path / name) as image:
            image.verify()
    report = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "## N=3 · spy2" in report and "Win share by seat" in report
    assert report.count("![") >= 4
    lines = (tmp_path / "results.csv").read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1 + len(rows)
    saved = json.loads((tmp_path / "results.json").read_text(encoding="utf-8"))
    assert saved["rows"] == rows
    found = cells(rows)
    assert [(c.players, c.variant) for c in found] == [(3, "classic"), (3, "spy2"),
                                                       (4, "classic"), (4, "spy2")]
    for cell in found:
        assert sum(share.n for share in cell.bots) == cell.players * cell.games
        assert sum(share.score for share in cell.seats) == pytest.approx(
            cell.fair * cell.players * cell.games)
        assert [(d.a, d.b) for d in cell.duels] == [("economist", "hunter"),
                                                    ("economist", "shadow"),
                                                    ("hunter", "shadow")]
        assert all(0 <= d.mean <= 1 and d.games <= cell.finished for d in cell.duels)
    assert "Head to head" in report


def test_team_game_endings_by_size(tmp_path: Path) -> None:
    """Infiltration's result line names the winning side: one share per side and size."""
    tasks = plan_games("infiltration", ["operative", "vigilante"], players=[6, 7], games=2,
                       seed=3)
    rows = run_tasks(tasks)
    paths = write_report(tmp_path, rows, {"game": "infiltration"})
    assert tmp_path / ENDINGS_PLOT in paths
    assert (tmp_path / ENDINGS_PLOT).read_bytes().startswith(PNG_MAGIC)
    report = (tmp_path / "report.md").read_text(encoding="utf-8")
    assert "## How the games ended" in report
    assert {row["ending"] for row in rows} <= {"The Greens win.", "The Reds win.", "A draw."}


def test_cli_lab_smoke(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "lab"
    status = main(["lab", GAME, "--bots", "economist,hunter", "--players", "3",
                   "--games", "4", "--variants", "spy2={\"variant\": \"spy2\"}",
                   "--jobs", "1", "--out", str(out), "-q"])
    assert status == 0
    assert "4 games" in capsys.readouterr().out
    report = (out / "report.md").read_text(encoding="utf-8")
    assert "spyhouse lab spyvsspy --bots economist,hunter --players 3 --games 4" in report
    assert main(["lab", GAME, "--bots", "nobody", "--out", str(out)]) == 1
    assert "unknown spyvsspy bot 'nobody'" in capsys.readouterr().err
    broken = tmp_path / "broken.py"
    broken.write_text("class Broken:\n    def __init__(self, seat, seed):\n        pass\n"
                      "    def act(self, view):\n        raise ValueError('oops')\n")
    assert main(["lab", GAME, "--bots", f"hunter,{broken}:Broken", "--players", "2",
                 "--games", "2", "--out", str(out), "-q"]) == 1
    assert "lab game 0 (seed 1" in capsys.readouterr().err
