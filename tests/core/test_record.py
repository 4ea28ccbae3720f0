"""The game record (core/record.py): save/load round trip, validation, replay errors.

DESIGN.md "The game record"; docs/record-format.md.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from spyhouse.core import record as records
from spyhouse.core import registry
from spyhouse.core.errors import RecordError
from spyhouse.core.record import FORMAT, Record, record_from_json
from spyhouse.core.ruleset import Seat

SEATS = (
    Seat("s1", "Buttmans Brigade", "Richard", "rich@example.org"),
    Seat("s2", "Greedy Gimps", "Andrew", None),
    Seat("s3", "Hoodless Wonders", "Joffre", "joff@example.org"),
)


def _record(turns: tuple[dict[str, Any], ...] = ()) -> Record:
    return Record(game="spyvsspy", seed=20261130, options={"base_choice": "random"},
                  seats=SEATS, turns=turns)


def _good_json() -> dict[str, Any]:
    return {
        "format": FORMAT,
        "game": "spyvsspy",
        "seed": 5,
        "options": {},
        "seats": [{"id": "s1", "name": "Alpha", "player": "A", "email": None},
                  {"id": "s2", "name": "Bravo", "player": "B"}],
        "turns": [{"orders": {"s1": None, "s2": None}}],
    }


WORK_ALL = {"spies": {str(n): {"task": "WORK", "region": "H"} for n in range(1, 10)},
            "declarations": []}


def test_round_trip_save_load(tmp_path: Path) -> None:
    original = _record(({"s1": WORK_ALL, "s2": None, "s3": None},))
    path = tmp_path / "game.json"
    original.save(path)
    loaded = records.load(path)
    assert loaded == original
    assert loaded.dumps() == original.dumps()
    assert json.loads(path.read_text(encoding="utf-8"))["format"] == "spyhouse-record/1"


def test_round_trip_keeps_non_ascii(tmp_path: Path) -> None:
    seats = (Seat("s1", "Les Barbouzes Éclairées", "Zoë"), Seat("s2", "Greedy Gimps", "A"))
    original = Record("spyvsspy", 1, {}, seats)
    path = tmp_path / "game.json"
    original.save(path)
    assert "Éclairées" in path.read_text(encoding="utf-8")
    assert records.load(path) == original


def test_good_json_is_accepted() -> None:
    record = record_from_json(_good_json())
    assert record.seats[1] == Seat("s2", "Bravo", "B", None)
    assert record.turns == ({"s1": None, "s2": None},)


def _broken(change: str) -> Any:
    data = _good_json()
    if change == "not-object":
        return ["a list"]
    if change == "format":
        data["format"] = "spyhouse-record/0"
    elif change == "unknown-key":
        data["extra"] = 1
    elif change == "game":
        data["game"] = "chess"
    elif change == "seed-negative":
        data["seed"] = -1
    elif change == "seed-bool":
        data["seed"] = True
    elif change == "seed-text":
        data["seed"] = "5"
    elif change == "options":
        data["options"] = []
    elif change == "seats-empty":
        data["seats"] = []
    elif change == "seat-not-object":
        data["seats"][0] = "s1"
    elif change == "seat-unknown-key":
        data["seats"][0]["colour"] = "red"
    elif change == "seat-id":
        data["seats"][0]["id"] = 7
    elif change == "seat-name":
        data["seats"][1]["name"] = "  "
    elif change == "seat-player":
        data["seats"][1]["player"] = 3
    elif change == "seat-email":
        data["seats"][1]["email"] = ["x"]
    elif change == "seat-duplicate":
        data["seats"][1]["id"] = "s1"
    elif change == "turns":
        data["turns"] = {}
    elif change == "turn-shape":
        data["turns"] = [{"orders": {}, "extra": 1}]
    elif change == "turn-orders":
        data["turns"] = [{"orders": []}]
    elif change == "turn-seat":
        data["turns"] = [{"orders": {"s1": None}}, {"orders": {"s9": None}}]
    return data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("not-object", "a record must be a JSON object"),
        ("format", "format must be 'spyhouse-record/1', not 'spyhouse-record/0'"),
        ("unknown-key", "unknown key 'extra'"),
        ("game", "unknown game 'chess'"),
        ("seed-negative", "seed must be a whole number >= 0"),
        ("seed-bool", "seed must be a whole number >= 0"),
        ("seed-text", "seed must be a whole number >= 0"),
        ("options", "options must be an object"),
        ("seats-empty", "seats must be a non-empty list"),
        ("seat-not-object", "seat 1 is not an object"),
        ("seat-unknown-key", "seat 1 has unknown key 'colour'"),
        ("seat-id", "seat 1 needs a string id"),
        ("seat-name", "seat s2 needs a name"),
        ("seat-player", "seat s2: player must be a string"),
        ("seat-email", "seat s2: email must be a string or null"),
        ("seat-duplicate", "seat id 's1' is used twice"),
        ("turns", "turns must be a list"),
        ("turn-shape", "turn 1: a turn must be an object with the one key 'orders'"),
        ("turn-orders", "turn 1: orders must be an object of seat ids"),
        ("turn-seat", "turn 2, seat s9: no such seat in this record"),
    ],
)
def test_every_validation_error_is_one_clear_line(change: str, message: str) -> None:
    with pytest.raises(RecordError) as caught:
        record_from_json(_broken(change))
    text = str(caught.value)
    assert text == message
    assert "\n" not in text


def test_input_is_not_modified_by_validation() -> None:
    data = _good_json()
    before = copy.deepcopy(data)
    record_from_json(data)
    assert data == before


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{", "not JSON: Expecting property name enclosed in double quotes at line 1"),
        ("", "not JSON: Expecting value at line 1"),
    ],
)
def test_loads_reports_bad_json(text: str, message: str) -> None:
    with pytest.raises(RecordError, match="^" + re.escape(message)):
        records.loads(text)


def test_load_reports_unreadable_file(tmp_path: Path) -> None:
    missing = tmp_path / "nope.json"
    with pytest.raises(RecordError, match="cannot read"):
        records.load(missing)


def test_record_error_formats_turn_and_seat() -> None:
    assert str(RecordError("why", entry=3, seat="s2")) == "turn 3, seat s2: why"
    assert str(RecordError("why", entry=3)) == "turn 3: why"
    assert str(RecordError("why", seat="s2")) == "seat s2: why"
    assert str(RecordError("why")) == "why"


def test_replay_of_a_bad_order_names_turn_seat_and_order() -> None:
    bad = {"spies": {"4": {"task": "WORK", "region": "Z"}}, "declarations": []}
    record = _record(({"s1": WORK_ALL, "s2": None, "s3": None},
                      {"s1": None, "s2": bad, "s3": None}))
    with pytest.raises(RecordError) as caught:
        list(records.replay(record))
    error = caught.value
    assert error.entry == 2
    assert error.seat == "s2"
    assert str(error) == "turn 2, seat s2: spy 4: unknown region Z"


def test_replay_lists_every_failing_order() -> None:
    bad = {"spies": {"4": {"task": "WORK", "region": "Z"}, "6": {"task": "RECRUIT",
                                                                   "region": "G"}}}
    record = _record(({"s1": bad},))
    with pytest.raises(RecordError) as caught:
        records.final_state(record)
    assert str(caught.value) == (
        "turn 1, seat s1: spy 4: unknown region Z; "
        "spy 6: RECRUIT takes no region (it always happens in the Ghetto)")


def test_replay_refuses_bad_options() -> None:
    record = Record("spyvsspy", 1, {"variant": "spy3"}, SEATS)
    with pytest.raises(RecordError, match=r"^options: variant must be"):
        records.final_state(record)


def test_final_state_turn_out_of_range() -> None:
    record = _record(({"s1": None},))
    with pytest.raises(RecordError, match="--turn must be between 0 and 1"):
        records.final_state(record, 2)


def test_replay_is_deterministic_and_dumps_the_same_views() -> None:
    record = _record(({"s1": WORK_ALL, "s2": None, "s3": None},) * 3)
    ruleset = registry.get("spyvsspy")
    first = [json.dumps(ruleset.view(s, "s2"), sort_keys=True) for s in records.replay(record)]
    second = [json.dumps(ruleset.view(s, "s2"), sort_keys=True) for s in records.replay(record)]
    assert first == second
    assert len(first) == 4


# ---------------------------------------------------------------- size and nesting limits


def _nested(depth: int) -> str:
    """A record whose one order sheet is an array ``depth`` levels deep (the record
    around it adds 5: record, turns, turn, orders, then the sheet)."""
    head = ('{"format": "spyhouse-record/1", "game": "spyvsspy", "seed": 1, "options": {}, '
            '"seats": [{"id": "s1", "name": "A"}], "turns": [{"orders": {"s1": ')
    return head + "[" * depth + "]" * depth + "}}]}"


@pytest.mark.parametrize("depth", [10_000, 900, records.MAX_DEPTH - 3])
def test_deeply_nested_json_is_one_line_not_a_recursion_error(depth: int) -> None:
    # 10 000: the parser itself would recurse too deep; 900: it parses, and the walk
    # (not recursion) refuses it; MAX_DEPTH - 3: the sheet is one level too deep
    with pytest.raises(RecordError) as caught:
        records.loads(_nested(depth))
    assert str(caught.value) == records.TOO_DEEP
    assert "\n" not in str(caught.value)


def test_nesting_up_to_the_limit_is_read() -> None:
    arrays = records.MAX_DEPTH - 4
    record = records.loads(_nested(arrays))  # exactly MAX_DEPTH deep
    assert record.turns[0]["s1"] == json.loads("[" * arrays + "]" * arrays)
    with pytest.raises(RecordError, match="^" + re.escape(records.TOO_DEEP)):
        record_from_json({**_good_json(), "options": {"x": json.loads("[" * 64 + "]" * 64)}})


def test_a_too_big_file_is_refused_without_being_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    with path.open("w", encoding="utf-8") as file:
        file.write('{"format": "spyhouse-record/1", "padding": "')
        file.write("x" * records.MAX_BYTES)
        file.write('"}')
    with pytest.raises(RecordError) as caught:
        records.load(path)
    assert str(caught.value) == records.TOO_BIG
    with pytest.raises(RecordError, match=r"^too big"):
        records.loads(" " * (records.MAX_BYTES + 1))
    # just under the limit: read, and judged on its content
    path.write_text(json.dumps(_good_json()) + " " * (records.MAX_BYTES - 1000),
                    encoding="utf-8")
    assert records.load(path).game == "spyvsspy"


def test_a_number_python_will_not_convert_is_one_line() -> None:
    with pytest.raises(RecordError, match=r"^not a usable JSON value: Exceeds the limit"):
        records.loads('{"seed": ' + "1" * 5000 + "}")
