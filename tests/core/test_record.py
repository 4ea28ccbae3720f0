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
from hypothesis import given, settings
from hypothesis import strategies as st

from spyhouse.core import record as records
from spyhouse.core import registry
from spyhouse.core.errors import RecordError
from spyhouse.core.record import FORMAT_1, Record, record_from_json
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
    """A record as written before the chain (``spyhouse-record/1``: no hashes)."""
    return {
        "format": FORMAT_1,
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
    assert json.loads(path.read_text(encoding="utf-8"))["format"] == "spyhouse-record/2"


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
        ("format", "format must be 'spyhouse-record/2' or 'spyhouse-record/1', "
                   "not 'spyhouse-record/0'"),
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


# ---------------------------------------------------------------- the chain (spyhouse-record/2)

PLAYERS = {"spyvsspy": 4, "kingdoms": 3, "infiltration": 6, "spyorlie": 2}


def _simulated(game: str, turns: int = 6, seed: int = 11) -> Record:
    from spyhouse.sim.simulate import simulate
    return simulate(game, players=PLAYERS[game], turns=turns, seed=seed).record


def _sha(data: bytes) -> str:
    import hashlib
    return hashlib.sha256(data).hexdigest()


def _canon(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, ensure_ascii=False,
                      separators=(",", ":")).encode("utf-8")


@pytest.mark.parametrize("game", sorted(PLAYERS))
def test_the_chain_of_a_simulated_record_is_the_documented_one(game: str) -> None:
    record = _simulated(game)
    assert record.turns
    header = {"format": "spyhouse-record/2", "game": record.game, "seed": record.seed,
              "options": record.options, "seats": [s.to_json() for s in record.seats]}
    expected, previous = [], _sha(_canon(header))
    assert records.genesis(record) == previous
    for orders in record.turns:
        previous = _sha(previous.encode("ascii") + _canon(dict(orders)))
        expected.append(previous)
    assert records.chain(record) == expected
    assert records.head(record) == expected[-1]
    data = json.loads(record.dumps())
    assert data["format"] == "spyhouse-record/2"
    assert [turn["hash"] for turn in data["turns"]] == expected
    assert data["head"] == expected[-1]
    assert all(re.fullmatch("[0-9a-f]{64}", h) for h in expected)
    loaded = records.loads(record.dumps())
    assert loaded == record
    assert records.verify(data) == records.VerifyResult(loaded, chained=True,
                                                        head=expected[-1])
    assert len(list(records.replay(loaded))) == len(record.turns) + 1


def test_a_record_without_entries_has_the_genesis_for_head() -> None:
    record = _record()
    assert records.chain(record) == []
    assert records.head(record) == records.genesis(record)
    assert json.loads(record.dumps())["head"] == records.genesis(record)
    assert records.loads(record.dumps()) == record


def _refusal(data: dict[str, Any]) -> str:
    with pytest.raises(RecordError) as caught:
        record_from_json(data)
    text = str(caught.value)
    assert "\n" not in text
    verdict = records.verify(data)
    assert not verdict.ok and verdict.problem == text
    return text


@pytest.mark.parametrize("game", sorted(PLAYERS))
def test_changing_any_entry_breaks_the_chain_at_that_entry(game: str) -> None:
    record = _simulated(game)
    written = json.loads(record.dumps())
    for index, turn in enumerate(written["turns"]):
        data = copy.deepcopy(written)
        seat = sorted(turn["orders"])[0]
        data["turns"][index]["orders"][seat] = {"changed": True}
        entry = index + 1
        what = "the record's header or entry 1" if entry == 1 else f"entry {entry}"
        assert _refusal(data) == (f"entry {entry}: hash does not match ({what} was "
                                  "changed after it was written)")
        assert records.verify(data).entry == entry


@pytest.mark.parametrize("change", ["seed", "option", "seat-name", "seat-player",
                                    "seat-email", "seat-order", "game"])
def test_changing_the_header_breaks_the_chain_at_entry_1(change: str) -> None:
    data = json.loads(_simulated("spyvsspy").dumps())
    if change == "seed":
        data["seed"] += 1
    elif change == "option":
        data["options"]["variant"] = "spy2"
    elif change == "seat-name":
        data["seats"][1]["name"] = "Someone Else"
    elif change == "seat-player":
        data["seats"][1]["player"] = "Mallory"
    elif change == "seat-email":
        data["seats"][1]["email"] = "m@example.org"
    elif change == "seat-order":
        data["seats"].reverse()
    elif change == "game":
        data["game"] = "kingdoms"
    assert _refusal(data).startswith("entry 1: hash does not match (the record's header")


def test_a_changed_hash_a_changed_head_and_a_cut_record_are_refused() -> None:
    written = json.loads(_simulated("spyvsspy").dumps())
    data = copy.deepcopy(written)
    data["turns"][2]["hash"] = "0" * 64
    assert _refusal(data).startswith("entry 3: hash does not match")
    data = copy.deepcopy(written)
    data["head"] = "0" * 64
    assert _refusal(data) == ("head does not match (the record was changed after it "
                              "was written)")
    data = copy.deepcopy(written)
    del data["turns"][-1]  # the last entry cut off: the head names the lost one
    assert _refusal(data).startswith("head does not match")
    data = copy.deepcopy(written)
    del data["turns"][1]  # an entry taken out of the middle
    assert _refusal(data).startswith("entry 2: hash does not match")
    data = copy.deepcopy(written)
    data["turns"][0], data["turns"][1] = data["turns"][1], data["turns"][0]
    assert _refusal(data).startswith("entry 1: hash does not match")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("no-head", "a spyhouse-record/2 record needs its head"),
        ("no-hash", "turn 1: a turn must be an object with the two keys 'orders' and 'hash'"),
        ("head-in-1", "unknown key 'head'"),
        ("hash-in-1", "turn 1: a turn must be an object with the one key 'orders'"),
    ],
)
def test_the_chain_s_keys_belong_to_format_2_only(change: str, message: str) -> None:
    data = json.loads(_simulated("spyvsspy", turns=2).dumps())
    if change == "no-head":
        del data["head"]
    elif change == "no-hash":
        del data["turns"][0]["hash"]
    elif change == "head-in-1":
        data["format"] = "spyhouse-record/1"
        for turn in data["turns"]:
            del turn["hash"]
    elif change == "hash-in-1":
        data["format"] = "spyhouse-record/1"
        del data["head"]
    with pytest.raises(RecordError) as caught:
        record_from_json(data)
    assert str(caught.value) == message


@pytest.mark.parametrize("game", sorted(PLAYERS))
def test_a_format_1_record_without_hashes_still_loads_and_replays(game: str) -> None:
    record = _simulated(game)
    data = json.loads(record.dumps())
    data["format"] = "spyhouse-record/1"
    del data["head"]
    for turn in data["turns"]:
        del turn["hash"]
    text = json.dumps(data, indent=1, ensure_ascii=False)
    loaded = records.loads(text)
    assert loaded == record
    verdict = records.verify(json.loads(text))
    assert verdict.ok and not verdict.chained and verdict.head == records.head(record)
    assert len(list(records.replay(loaded))) == len(record.turns) + 1
    assert json.loads(loaded.dumps())["format"] == "spyhouse-record/2"  # written as /2


_json_leaf = st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=8)
_json = st.recursive(_json_leaf, lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=8)
_seats = st.lists(st.tuples(st.text(min_size=1, max_size=8).filter(str.strip),
                            st.text(max_size=8), st.none() | st.text(max_size=8)),
                  min_size=1, max_size=4)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**63), seats=_seats, options=st.dictionaries(st.text(max_size=5),
                                                                          _json, max_size=3),
       turns=st.lists(st.lists(_json, max_size=4), max_size=4))
def test_a_written_record_reads_back_equal_with_the_same_chain(
        seed: int, seats: list[tuple[str, str, str | None]], options: dict[str, Any],
        turns: list[list[Any]]) -> None:
    seat_list = tuple(Seat(f"s{i + 1}", name, player, email)
                      for i, (name, player, email) in enumerate(seats))
    ids = [seat.id for seat in seat_list]
    record = Record("spyvsspy", seed, options, seat_list,
                    tuple({ids[i % len(ids)]: value for i, value in enumerate(turn)}
                          for turn in turns))
    again = records.loads(record.dumps())
    assert again == record
    assert records.chain(again) == records.chain(record)
    assert again.dumps() == record.dumps()


def test_the_chain_is_the_same_in_a_process_with_another_hash_seed() -> None:
    import os
    import subprocess
    import sys
    record = _simulated("kingdoms")
    script = ("import sys; from spyhouse.core import record as r; "
              "print(r.head(r.loads(sys.stdin.read())))")
    for hash_seed in ("0", "1234"):
        done = subprocess.run([sys.executable, "-c", script], input=record.dumps(),
                              capture_output=True, text=True, check=True,
                              env={**os.environ, "PYTHONHASHSEED": hash_seed})
        assert done.stdout.strip() == records.head(record)
