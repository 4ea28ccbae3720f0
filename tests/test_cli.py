"""The ``spyhouse`` command line (cli.py) and the bot simulation behind ``simulate``.

DESIGN.md "Command line"; docs/cli.md. The CLI runs in-process through
``main(argv)``, and once through ``python -m spyhouse`` in a subprocess.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from spyhouse.cli import main
from spyhouse.core import record as records
from spyhouse.core import registry
from spyhouse.core.record import Record
from spyhouse.core.ruleset import Seat
from spyhouse.sim import default_seats, seat_names, simulate

SRC = Path(__file__).resolve().parents[1] / "src"
HAVE_BOTS = importlib.util.find_spec("spyhouse.games.spyvsspy.bots") is not None
needs_bots = pytest.mark.skipif(not HAVE_BOTS, reason="spyvsspy bots not written yet")

WORK_H = {"spies": {str(n): {"task": "WORK", "region": "H"} for n in range(1, 10)},
          "declarations": []}
BAD = {"spies": {"4": {"task": "WORK", "region": "Z"}}, "declarations": []}
SEATS = (Seat("s1", "Alpha", "A"), Seat("s2", "Bravo", "B"), Seat("s3", "Charlie", "C"))


def _write(tmp_path: Path, record: Record, name: str = "game.json") -> Path:
    path = tmp_path / name
    record.save(path)
    return path


def _good(tmp_path: Path) -> Path:
    turns = ({"s1": WORK_H, "s2": None, "s3": WORK_H}, {"s1": None, "s2": WORK_H, "s3": None})
    return _write(tmp_path, Record("spyvsspy", 9, {}, SEATS, turns))


def _bad(tmp_path: Path) -> Path:
    turns = ({"s1": WORK_H, "s2": None, "s3": None}, {"s1": None, "s2": WORK_H, "s3": None},
             {"s1": None, "s2": BAD, "s3": None})
    return _write(tmp_path, Record("spyvsspy", 9, {}, SEATS, turns), "record.json")


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _cli_env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(SRC),
                                                         os.environ.get("PYTHONPATH", "")])}


# ---------------------------------------------------------------- games


def test_games_lists_spyvsspy(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "games")
    assert code == 0
    assert any(line.startswith("spyvsspy") for line in out.splitlines())
    assert "Spy vs Spy" in out
    assert err == ""


def test_no_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main([])
    assert caught.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1


# ---------------------------------------------------------------- replay


def test_replay_prints_seat_report_as_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _run(capsys, "replay", str(_good(tmp_path)), "--seat", "s1")
    assert code == 0, err
    assert "Alpha - report after turn 2" in out
    assert "Brotherhood Report" in out
    assert "Nspies = 9" in out


def test_replay_prints_host_view_without_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(capsys, "replay", str(_good(tmp_path)))
    assert code == 0
    assert "host view" in out
    assert "Seats (host only)" in out


def test_replay_json_is_the_view_sorted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _good(tmp_path)
    code, out, _ = _run(capsys, "replay", str(path), "--seat", "s2", "--turn", "1", "--json")
    assert code == 0
    record = records.load(path)
    view = registry.get("spyvsspy").view(records.final_state(record, 1), "s2")
    assert json.loads(out) == view
    assert out == json.dumps(view, sort_keys=True, ensure_ascii=False, indent=2) + "\n"
    assert view["turn"] == 1


def test_replay_turn_zero_is_setup(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "replay", str(_good(tmp_path)), "--turn", "0", "--json")
    assert code == 0
    assert json.loads(out)["turn"] == 0


def _one_line_error(code: int, out: str, err: str) -> str:
    assert code == 1
    assert out == ""
    assert err.endswith("\n")
    assert err.count("\n") == 1, err
    return err.rstrip("\n")


def test_bad_record_gives_one_stderr_line_and_exit_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _bad(tmp_path)
    line = _one_line_error(*_run(capsys, "replay", str(path), "--seat", "s1"))
    assert line == f"spyhouse: {path}: turn 3, seat s2: spy 4: unknown region Z"


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        ("{not json", "not JSON: "),
        ('{"format": "spyhouse-record/1", "game": "chess", "seed": 1, "seats": []}',
         "unknown game 'chess'"),
        ('[]', "a record must be a JSON object"),
    ],
)
def test_malformed_record_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, reason: str
) -> None:
    path = tmp_path / "broken.json"
    path.write_text(content, encoding="utf-8")
    line = _one_line_error(*_run(capsys, "replay", str(path)))
    assert line.startswith(f"spyhouse: {path}: {reason}")


def test_missing_file_unknown_seat_and_turn_out_of_range(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = _one_line_error(*_run(capsys, "replay", str(tmp_path / "nope.json")))
    assert "cannot read" in line
    good = str(_good(tmp_path))
    line = _one_line_error(*_run(capsys, "replay", good, "--seat", "s9"))
    assert line == f"spyhouse: {good}: no seat 's9' in this record (seats: s1, s2, s3)"
    line = _one_line_error(*_run(capsys, "replay", good, "--turn", "7"))
    assert line == f"spyhouse: {good}: --turn must be between 0 and 2"


def test_deeply_nested_or_too_big_records_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deep = tmp_path / "deep.json"
    depth = 10_000
    deep.write_text('{"format": "spyhouse-record/1", "game": "spyvsspy", "seed": 1, '
                    '"seats": [{"id": "s1", "name": "A"}], "turns": [{"orders": {"s1": '
                    + "[" * depth + "]" * depth + "}}]}", encoding="utf-8")
    line = _one_line_error(*_run(capsys, "replay", str(deep)))
    assert line == f"spyhouse: {deep}: {records.TOO_DEEP}"
    done = subprocess.run([sys.executable, "-m", "spyhouse", "replay", str(deep)],
                          capture_output=True, text=True, env=_cli_env(), check=False)
    assert (done.returncode, done.stdout) == (1, "")
    assert done.stderr == f"spyhouse: {deep}: {records.TOO_DEEP}\n"  # no traceback
    big = tmp_path / "big.json"
    big.write_text('{"format": "spyhouse-record/1", "x": "' + "x" * records.MAX_BYTES + '"}',
                   encoding="utf-8")
    line = _one_line_error(*_run(capsys, "replay", str(big)))
    assert line == f"spyhouse: {big}: {records.TOO_BIG}"


def test_python_dash_m_spyhouse_in_a_subprocess(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _good(tmp_path)
    _, in_process, _ = _run(capsys, "replay", str(path), "--seat", "s3")
    done = subprocess.run([sys.executable, "-m", "spyhouse", "replay", str(path), "--seat", "s3"],
                          capture_output=True, text=True, env=_cli_env(), check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout == in_process
    bad = _bad(tmp_path)
    done = subprocess.run([sys.executable, "-m", "spyhouse", "replay", str(bad)],
                          capture_output=True, text=True, env=_cli_env(), check=False)
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr == f"spyhouse: {bad}: turn 3, seat s2: spy 4: unknown region Z\n"


# ---------------------------------------------------------------- simulate (real bots)


@needs_bots
def test_simulate_writes_a_record_that_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out_path = tmp_path / "sim" / "game.json"
    code, out, err = _run(capsys, "simulate", "spyvsspy", "--players", "5", "--turns", "6",
                          "--seed", "17", "--out", str(out_path), "--report", "s2")
    assert code == 0, err
    assert err == ""  # no progress bar when stderr is not a terminal
    assert "The last report seat s2 read (after record entry " in out
    assert "SPY vs SPY - Cannibal Island Republican Army - report after " in out
    assert "seed 17" in out
    assert "standings" in out.lower()
    assert f"record written to {out_path}" in out
    record = records.load(out_path)
    assert record.seed == 17
    assert [seat.id for seat in record.seats] == ["s1", "s2", "s3", "s4", "s5"]
    assert 1 <= len(record.turns) <= 6
    states = list(records.replay(record))  # every recorded sheet is valid
    assert len(states) == len(record.turns) + 1


@needs_bots
def test_simulate_is_deterministic(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = [tmp_path / "a.json", tmp_path / "b.json"]
    for path in paths:
        code, _, err = _run(capsys, "simulate", "spyvsspy", "--players", "4", "--turns", "4",
                            "--seed", "5", "--out", str(path), "-q")
        assert code == 0, err
    assert paths[0].read_bytes() == paths[1].read_bytes()


@needs_bots
def test_simulate_matches_replay_view() -> None:
    result = simulate("spyvsspy", players=4, turns=5, seed=23)
    ruleset = registry.get("spyvsspy")
    replayed = records.final_state(result.record)
    for seat in [None, "s1", "s4"]:
        assert ruleset.view(replayed, seat) == ruleset.view(result.final_state, seat)


@needs_bots
def test_simulate_bots_cycle_over_seats() -> None:
    from spyhouse.core import bots

    names = bots.bot_names("spyvsspy")
    result = simulate("spyvsspy", players=len(names) + 1, turns=1, seed=1)
    assert [result.bots[f"s{i}"] for i in range(1, len(names) + 2)] == [*names, names[0]]
    one = simulate("spyvsspy", players=3, turns=1, seed=1, bots=[names[-1]])
    assert set(one.bots.values()) == {names[-1]}


@needs_bots
def test_simulate_unknown_bot_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "simulate", "spyvsspy", "--bot", "nobody", "--turns", "1")
    line = _one_line_error(code, out, err)
    assert line.startswith("spyhouse: unknown bot 'nobody' for spyvsspy; bots: ")


def test_simulate_report_seat_must_exist(capsys: pytest.CaptureFixture[str]) -> None:
    line = _one_line_error(*_run(capsys, "simulate", "spyvsspy", "--players", "3",
                                 "--report", "s4"))
    assert line == "spyhouse: --report s4: the seats are s1 to s3"


def test_simulate_unknown_game_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    line = _one_line_error(*_run(capsys, "simulate", "chess", "--turns", "1"))
    from spyhouse.core import registry

    assert line == f"spyhouse: unknown game 'chess'; known games: {', '.join(registry.names())}"


# ---------------------------------------------------------------- the simulation loop


class _ScriptBot:
    """A stand-in bot: WORK in H for every spy it sees, or a fixed answer."""

    def __init__(self, answer: Any = "work") -> None:
        self.answer = answer
        self.views: list[Mapping[str, Any]] = []

    def act(self, view: Mapping[str, Any]) -> Any:
        self.views.append(view)
        if self.answer != "work":
            return self.answer
        spies = view.get("spies") or [{"number": n} for n in range(1, 10)]
        return {"spies": {str(s["number"]): {"task": "WORK", "region": "h"} for s in spies
                          if not s.get("killed")}}


def test_simulation_loop_records_and_counts_refusals() -> None:
    made: dict[str, _ScriptBot] = {}

    def factory(game: str, name: str, seat: str, seed: int) -> _ScriptBot:
        assert game == "spyvsspy"
        made[seat] = _ScriptBot(BAD if name == "broken" else None if name == "absent"
                                else "work")
        return made[seat]

    steps: list[int] = []
    result = simulate("spyvsspy", players=3, turns=3, seed=4,
                      bots=["worker", "broken", "absent"], make_bot=factory,
                      on_step=lambda entry, _state: steps.append(entry))
    assert steps == [1, 2, 3]
    assert result.bots == {"s1": "worker", "s2": "broken", "s3": "absent"}
    assert len(result.record.turns) == 3
    first = result.record.turns[0]
    assert first["s1"]["spies"]["1"] == {"task": "WORK", "region": "H"}  # dump_orders
    assert first["s2"] is None and first["s3"] is None
    assert [(r.entry, r.seat) for r in result.refusals] == [(1, "s2"), (2, "s2"), (3, "s2")]
    assert result.refusals[0].message == "spy 4: unknown region Z"
    assert result.outcome is None
    assert made["s1"].views[0]["seat"] == "s1"  # bots get their own seat's view
    assert "seats" not in made["s1"].views[0]  # never the host view
    assert list(records.replay(result.record))


def test_simulation_stops_at_zero_turns() -> None:
    result = simulate("spyvsspy", players=2, turns=0, seed=1, bots=["x"],
                      make_bot=lambda *_: _ScriptBot())
    assert result.record.turns == ()
    assert result.final_state.turn == 0


def test_seat_names_are_valid_brotherhood_names() -> None:
    from spyhouse.games.spyvsspy.setup import brotherhood_name_problem

    names = seat_names(95)
    assert len({name.casefold() for name in names}) == 95
    for index, name in enumerate(names):
        assert brotherhood_name_problem(name, names[:index]) is None, name
    seats = default_seats(3)
    assert [(s.id, s.player) for s in seats] == [("s1", "Bot 1"), ("s2", "Bot 2"),
                                                 ("s3", "Bot 3")]


# ---------------------------------------------------------------- verify


def test_verify_prints_the_head_of_a_good_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _good(tmp_path)
    code, out, err = _run(capsys, "verify", str(path))
    head = records.head(records.load(path))
    assert (code, out, err) == (0, f"ok: 2 entries, head {head}\n", "")
    assert head == json.loads(path.read_text(encoding="utf-8"))["head"]


def test_verify_names_the_first_entry_that_was_changed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "r.json"
    assert main(["simulate", "spyvsspy", "--players", "4", "--turns", "4", "--seed", "7",
                 "--out", str(path), "-q"]) == 0
    capsys.readouterr()
    assert _run(capsys, "verify", str(path))[0] == 0
    data = json.loads(path.read_text(encoding="utf-8"))
    data["turns"][2]["orders"]["s1"] = None  # one order changed: a no-show now
    path.write_text(json.dumps(data, indent=1), encoding="utf-8")
    line = _one_line_error(*_run(capsys, "verify", str(path)))
    assert line == (f"spyhouse: {path}: entry 3: hash does not match (entry 3 was changed "
                    "after it was written)")
    # replay refuses it too, with the same line
    assert _one_line_error(*_run(capsys, "replay", str(path))) == line


def test_verify_replays_the_record_after_the_chain(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _bad(tmp_path)  # a correct chain over an order the rules refuse
    line = _one_line_error(*_run(capsys, "verify", str(path)))
    assert line == f"spyhouse: {path}: turn 3, seat s2: spy 4: unknown region Z"


def test_verify_says_a_format_1_file_has_no_chain(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(_good(tmp_path).read_text(encoding="utf-8"))
    data["format"] = "spyhouse-record/1"
    del data["head"]
    for turn in data["turns"]:
        del turn["hash"]
    path = tmp_path / "old.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert _run(capsys, "verify", str(path)) == (
        0, "ok: 2 entries, no chain (a spyhouse-record/1 file)\n", "")
    assert _run(capsys, "replay", str(path))[0] == 0


def test_verify_reads_with_the_usual_limits(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = _one_line_error(*_run(capsys, "verify", str(tmp_path / "nope.json")))
    assert "cannot read" in line
    path = tmp_path / "deep.json"
    path.write_text('{"format": "spyhouse-record/2", "x": ' + "[" * 100 + "]" * 100 + "}",
                    encoding="utf-8")
    assert _one_line_error(*_run(capsys, "verify", str(path))) == (
        f"spyhouse: {path}: {records.TOO_DEEP}")


def test_import_refuses_a_file_it_cannot_read_with_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``spyhouse import`` reads as ``verify`` does: a missing or bad file is one line
    and exit 1, before any database is touched."""
    missing = tmp_path / "missing.json"
    database = tmp_path / "db" / "never.db"
    assert main(["import", str(missing), "--db", f"sqlite:///{database}"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"spyhouse: {missing}: cannot read")
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    assert main(["import", str(bad), "--db", f"sqlite:///{database}"]) == 1
    assert capsys.readouterr().err.strip().startswith(f"spyhouse: {bad}: not JSON")
    assert not database.exists()
