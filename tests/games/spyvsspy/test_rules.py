"""Spy vs Spy rule-by-rule tests: what the worked examples of §10 leave open.

Each test is named after the rule it pins (spec ``shared/rules/spy-vs-spy.md``) and cites
its section. The §10 examples themselves live in ``test_examples_*.py``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from spyhouse.core.errors import OptionsError, OrderError, RecordError
from spyhouse.core.record import Record, final_state
from spyhouse.core.rng import Rng, ScriptedRng
from spyhouse.core.ruleset import Seat
from spyhouse.games.spyvsspy.model import Brotherhood, Options, State, leader_pool
from spyhouse.games.spyvsspy.setup import brotherhood_name_problem, parse_options
from tests.games.spyvsspy.fixture import (
    DISGUISED,
    FIXTURE_SEATS,
    RULES,
    TASK_ROWS,
    labels,
    new_game,
    play,
    refusal,
    seen,
    sheet_json,
    unobserved,
)
from tests.games.spyvsspy.randomplay import play as random_game

WRONG = "eliminated: at least one of your declarations was incorrect"
PUBLIC_KEYS = {"game", "variant", "options", "turn", "regions", "directory", "news", "game_over"}
OWN_KEYS = {"seat", "secrets", "me", "leaders", "declarations", "spies", "table"}
LETTERS = list("ABCDEFGHI")


def _b(state: State, seat: str) -> Brotherhood:
    b = state.by_seat(seat)
    assert b is not None
    return b


def _seats(names: Sequence[str], email: str | None = "x@example.org") -> list[Seat]:
    return [Seat(f"s{i}", name, f"P{i}", email) for i, name in enumerate(names, start=1)]


def _options_error(data: Mapping[str, Any]) -> str:
    with pytest.raises(OptionsError) as caught:
        parse_options(data)
    return str(caught.value)


def _resolve(state: State, raw: Mapping[str, Any], script: Mapping[str, Sequence[int]] | None = None
             ) -> tuple[State, ScriptedRng]:
    """Resolve one turn from raw §5.1 sheets (seats left out are no-shows)."""
    sheets = {seat: RULES.parse_orders(state, seat, data) for seat, data in raw.items()}
    rng = ScriptedRng(state.seed, script or {})
    return RULES.resolve(state, sheets, rng), rng


def _bravo_out(game: State) -> State:
    """The fixture after turn 1, in which Charlie declared Bravo correctly (Bravo out in D2)."""
    return play(game, declare={"s3": [("s2", "Mr Orange", "D")]}).after


# ---------------------------------------------------------------- §2 options


def test_2_defaults_when_every_key_is_left_out() -> None:
    """§2: every key may be left out and takes its default; ``setup`` left out is
    ``{"bases": {}, "leaders": {}}``; views show the options without ``setup``."""
    assert parse_options({}) == Options()
    state = RULES.setup(_seats(["Alpha", "Bravo"]), {}, Rng(1))
    assert RULES.view(state, "s1")["options"] == {
        "min_players": 2, "max_players": None, "base_choice": "choose", "variant": "classic"}
    assert RULES.view(state, None)["options"]["setup"] == {"bases": {}, "leaders": {}}


def test_2_unknown_option_key_refused_naming_it() -> None:
    """§2: an unknown key refuses the game's creation with a message naming the key."""
    assert "colour" in _options_error({"colour": "red"})


def test_2_unknown_key_inside_setup_refused_naming_it() -> None:
    """§2: unknown keys are refused "also inside ``setup``"; the message names the key."""
    assert "extras" in _options_error({"setup": {"bases": {}, "extras": {}}})


@pytest.mark.parametrize(("data", "key"), [
    ({"min_players": "2"}, "min_players"),
    ({"min_players": True}, "min_players"),
    ({"min_players": 1}, "min_players"),
    ({"max_players": 2.5}, "max_players"),
    ({"max_players": 1}, "max_players"),
    ({"base_choice": 1}, "base_choice"),
    ({"base_choice": "pick"}, "base_choice"),
    ({"variant": "spy3"}, "variant"),
    ({"setup": ["bases"]}, "setup"),
    ({"setup": {"leaders": "Mr Pink"}}, "leaders"),
    ({"setup": {"bases": {"s1": 4}}}, "bases"),
    ({"setup": {"leaders": {"s1": 4}}}, "leaders"),
])
def test_2_value_of_wrong_type_refused_naming_the_key(data: dict[str, Any], key: str) -> None:
    """§2: a value of the wrong type (or out of range) refuses creation, naming the key."""
    assert key in _options_error(data)


@pytest.mark.parametrize("value", [[], "", 0, False])
def test_2_setup_map_of_wrong_type_refused(value: Any) -> None:
    """§2: ``setup.bases`` and ``setup.leaders`` are maps (objects); any other value is "a
    value of the wrong type" and refuses the game's creation naming the key. Empty-ish
    values ([] , "", 0, false) are not "left out"."""
    assert "bases" in _options_error({"setup": {"bases": value}})
    assert "leaders" in _options_error({"setup": {"leaders": value}})


def test_2_region_not_a_to_i_refused() -> None:
    """§2: a ``setup.bases`` region that is not A–I refuses creation, naming the key."""
    assert "setup.bases" in _options_error({"setup": {"bases": {"s1": "J"}}})


def test_2_unknown_or_duplicate_leader_name_refused() -> None:
    """§2: ``setup.leaders`` names must be distinct pool names (compared after the §5.1
    normalisation, so "mr pink" is Mr Pink)."""
    assert "setup.leaders" in _options_error({"setup": {"leaders": {"s1": "Mr Nobody"}}})
    assert "setup.leaders" in _options_error(
        {"setup": {"leaders": {"s1": "Mr Pink", "s2": "mr pink"}}})


@pytest.mark.parametrize("key", ["bases", "leaders"])
def test_2_setup_seat_not_in_game_refuses_start(key: str) -> None:
    """§2: a ``setup`` seat id that is not a seat of the game refuses the start, naming
    the key."""
    value = "A" if key == "bases" else "Mr Pink"
    options = {"setup": {key: {"s9": value}}}
    parse_options(options)  # creation is fine: the seats are not known yet
    with pytest.raises(OptionsError) as caught:
        RULES.setup(_seats(["Alpha", "Bravo"]), options, Rng(1))
    assert f"setup.{key}" in str(caught.value) and "s9" in str(caught.value)


# ---------------------------------------------------------------- §3 components


def test_3_2_leader_pool_continues_with_roman_suffixes() -> None:
    """§3.2: 40 names up to 40 seats; beyond, the same 40 names suffixed " II", then
    " III", " IV", … in pool order."""
    assert len(leader_pool(2)) == len(leader_pool(40)) == 40
    assert leader_pool(40)[0] == "Mr Pink" and leader_pool(40)[39] == "Mr White"
    assert leader_pool(40)[15:18] == ("Mr Mauve", "Mr Rose", "Mr Egg")
    pool = leader_pool(41)
    assert len(pool) == 80
    assert pool[40] == "Mr Pink II" and pool[79] == "Mr White II"
    assert len(leader_pool(80)) == 80
    assert leader_pool(81)[80] == "Mr Pink III"
    assert leader_pool(121)[120] == "Mr Pink IV"
    assert leader_pool(361)[360] == "Mr Pink X"
    assert len(set(leader_pool(400))) == 400


def test_3_3_brotherhood_name_rules() -> None:
    """§3.3: 1–40 printable characters (trimmed), unique by ``str.casefold``, not a task
    name, a pool leader name or "Disguised as you"."""
    ok = brotherhood_name_problem
    assert ok("Alpha") is None
    assert ok("  Zulu  ") is None
    assert ok("x" * 40) is None
    assert ok(" " + "x" * 40 + " ") is None
    for bad in ("", "   ", "x" * 41, "Al\tpha", "Al\npha", "Disguised as you",
                "disguised AS YOU", "recruit", "HIDE", "Work", "Mr Pink", "mr white",
                "MR EGG"):
        assert ok(bad) is not None, bad
    assert ok("alpha", ["Alpha"]) is not None
    assert ok("STRASSE", ["Straße"]) is not None  # casefold, not lower()
    assert ok("Bravo", ["Alpha"]) is None


def test_3_3_setup_refuses_bad_names_and_trims() -> None:
    """§3.3 and §4: the start refuses two names equal under casefold, and stores names
    trimmed."""
    with pytest.raises(OptionsError):
        RULES.setup(_seats(["Alpha", "ALPHA"]), {}, Rng(1))
    with pytest.raises(OptionsError):
        RULES.setup(_seats(["Alpha", "Covert"]), {}, Rng(1))
    state = RULES.setup(_seats(["  Alpha ", "Bravo"]), {}, Rng(1))
    assert _b(state, "s1").name == "Alpha"
    assert RULES.view(state, "s2")["directory"][0]["name"] == "Alpha"


def test_3_3_suffixed_pool_leader_name_refused_in_a_large_game() -> None:
    """§3.3 with §3.2: beyond 40 seats "Mr Pink II" is a pool leader name (it can be a
    leader row of the report), so no brotherhood may be called that."""
    names = [f"Band {i}" for i in range(1, 41)] + ["Mr Pink II"]
    with pytest.raises(OptionsError):
        RULES.setup(_seats(names), {}, Rng(1))


# ---------------------------------------------------------------- §4 setup


def test_4_2a_pool_of_80_names_beyond_40_seats() -> None:
    """§4 2a, §7 row 1: with 41 seats the pool is 80 names; each seat in bid order draws a
    random choice among the names left (roll(80), roll(79), …)."""
    rng = ScriptedRng(3, {"setup-leaders": [41]})
    state = RULES.setup(_seats([f"Band {i}" for i in range(1, 42)]), {}, rng)
    draws = [(key, n) for key, n, _ in rng.draws]
    assert draws == [("setup-leaders@0", n) for n in range(80, 39, -1)] + [
        ("setup-bases@0", 9)] * 41
    assert _b(state, "s1").leader == "Mr Pink II"
    leaders = [b.leader for b in state.brotherhoods]
    assert len(set(leaders)) == 41 and set(leaders) <= set(leader_pool(41))


def test_4_2a_setup_leaders_assigned_first_and_leave_the_pool() -> None:
    """§4 2a, §7 row 1: names given in ``setup.leaders`` leave the pool first; only the
    other seats draw, in bid order, from the names left (in pool order)."""
    rng = ScriptedRng(3, {"setup-leaders": [1, 1]})
    state = RULES.setup(_seats(["Alpha", "Bravo", "Charlie"]),
                        {"setup": {"leaders": {"s2": "Mr Pink"}}}, rng)
    assert [d for d in rng.draws if d[0].startswith("setup-leaders")] == [
        ("setup-leaders@0", 39, 1), ("setup-leaders@0", 38, 1)]
    assert [b.leader for b in state.brotherhoods] == ["Mr Orange", "Mr Pink", "Mr Vermillion"]


def test_4_2a_setup_leaders_name_with_suffix_only_in_a_large_game() -> None:
    """§4 2a: a suffixed name is in the pool only when there are more than 40 seats."""
    options = {"setup": {"leaders": {"s1": "Mr Aqua II"}}}
    state = RULES.setup(_seats([f"Band {i}" for i in range(1, 42)]), options, Rng(1))
    assert _b(state, "s1").leader == "Mr Aqua II"
    with pytest.raises(OptionsError):
        RULES.setup(_seats(["Alpha", "Bravo"]), options, Rng(1))


def test_4_2b_random_base_choice_ignores_setup_bases() -> None:
    """§4 2b, §7 row 2: with ``base_choice`` "random" every seat draws roll(9) in bid order,
    a ``setup.bases`` entry notwithstanding."""
    rng = ScriptedRng(3, {"setup-bases": [3, 4]})
    state = RULES.setup(_seats(["Alpha", "Bravo"]),
                        {"base_choice": "random", "setup": {"bases": {"s1": "B"}}}, rng)
    assert [d for d in rng.draws if d[0].startswith("setup-bases")] == [
        ("setup-bases@0", 9, 3), ("setup-bases@0", 9, 4)]
    assert [b.base.value for b in state.brotherhoods] == ["C", "D"]


def test_4_2b_bases_drawn_only_for_seats_without_a_choice() -> None:
    """§4 2b, §7 row 2: with "choose", only seats without a ``setup.bases`` entry draw."""
    rng = ScriptedRng(3, {"setup-bases": [9, 1]})
    state = RULES.setup(_seats(["Alpha", "Bravo", "Charlie"]),
                        {"setup": {"bases": {"s2": "e"}}}, rng)
    assert [d for d in rng.draws if d[0].startswith("setup-bases")] == [
        ("setup-bases@0", 9, 9), ("setup-bases@0", 9, 1)]
    assert [b.base.value for b in state.brotherhoods] == ["I", "E", "A"]


# ---------------------------------------------------------------- §5.1 sheet form


@pytest.mark.parametrize("data", [[], "orders", 5, {"spies": {}, "notes": "hi"}])
def test_5_1_malformed_sheet(game: State, data: Any) -> None:
    """§5.1: a sheet that is not an object with only ``spies`` and ``declarations`` is
    refused with "sheet: malformed orders"."""
    assert refusal(game, "s1", data) == ("sheet: malformed orders",)


@pytest.mark.parametrize("spies", [[], "", 0, "x", 5])
def test_5_1_spies_not_an_object_is_malformed(game: State, spies: Any) -> None:
    """§5.1: ``spies`` is an object (left out = {}); any other value refuses the sheet with
    "sheet: malformed orders"."""
    assert refusal(game, "s1", {"spies": spies}) == ("sheet: malformed orders",)


@pytest.mark.parametrize("declarations", [{}, "", 0, "x", 5])
def test_5_1_declarations_not_an_array_is_malformed(game: State, declarations: Any) -> None:
    """§5.1: ``declarations`` is an array (left out = []); any other value refuses the sheet
    with "sheet: malformed orders"."""
    assert refusal(game, "s1", {"declarations": declarations}) == ("sheet: malformed orders",)


def test_5_1_malformed_order(game: State) -> None:
    """§5.1: a spy's value must be an object with a string ``task`` and only the keys
    task/region/brotherhood/leader, all strings: otherwise "spy N: malformed order"."""
    data = {"spies": {
        "3": "WORK",
        "4": {"task": "WORK", "region": "H", "note": "x"},
        "5": {"region": "H"},
        "6": {"task": 6},
        "7": {"task": "WORK", "region": ["H"]},
        "8": [],
    }}
    assert refusal(game, "s1", data) == tuple(f"spy {n}: malformed order" for n in range(3, 9))


def test_5_1_malformed_declaration(game: State) -> None:
    """§5.1: a declaration is an object with exactly the string keys brotherhood, leader,
    region: otherwise "declaration K: malformed declaration" (K from 1, in array order)."""
    data = {"declarations": [
        {"brotherhood": "s2", "leader": "Mr Orange"},
        {"brotherhood": "s2", "leader": "Mr Orange", "region": "D", "note": 1},
        "s2",
        {"brotherhood": "s3", "leader": None, "region": "D"},
        {"brotherhood": 3, "leader": "Mr Green", "region": "D"},
    ]}
    assert refusal(game, "s1", data) == tuple(
        f"declaration {k}: malformed declaration" for k in range(1, 6))


def test_5_1_null_parameter_counts_as_left_out(game: State) -> None:
    """§5.1: "A key whose value is null counts as left out": a null brotherhood or leader
    is no parameter (accepted), a null region is a missing region (V3)."""
    sheet = RULES.parse_orders(game, "s1", {"spies": {
        "2": {"task": "WORK", "region": "H", "brotherhood": None, "leader": None}}})
    assert RULES.dump_orders(sheet)["spies"] == {"2": {"task": "WORK", "region": "H"}}
    assert refusal(game, "s1", {"spies": {"2": {"task": "WORK", "region": None}}}) == (
        "spy 2: WORK needs a region",)


def test_5_1_empty_sheet_is_valid_and_not_a_no_show(game: State) -> None:
    """§5.1, V14, §8.2 item 4: ``{}`` is valid, every spy has no order (one warning each),
    and each spy gets the per-spy notice, not the no-show notice."""
    sheet = RULES.parse_orders(game, "s1", {})
    assert RULES.warnings(game, "s1", sheet) == [
        f"spy {n} has no orders: it will WORK in a random region" for n in range(1, 10)]
    after, _ = _resolve(game, {"s1": {}}, {"default:s1": [1, 2, 3, 4, 5, 6, 7, 8, 9]})
    names = ["A Academy", "B Beltram", "C Cathedral", "D Docks", "E Embassy", "F Fairground",
             "G Ghetto", "H Industrial", "I PigSty"]
    assert RULES.view(after, "s1")["me"]["notices"] == [
        f"spy {n} had no orders: he worked in {names[n - 1]}" for n in range(1, 10)]


def test_5_1_matching_ignores_case_and_blanks(game: State) -> None:
    """§5.1: task, region and leader match ignoring case and surrounding blanks and are
    normalised to the spec's spelling; the declaration is judged on the normalised form."""
    data = {"spies": {"2": {"task": " work ", "region": " h "},
                      "3": {"task": "Follow", "leader": " MR ORANGE "},
                      "4": {"task": "hunt", "region": "d", "brotherhood": "s3"}},
            "declarations": [{"brotherhood": "s2", "leader": "mr orange", "region": " d"}]}
    sheet = RULES.parse_orders(game, "s1", data)
    dumped = RULES.dump_orders(sheet)
    assert dumped["spies"] == {"2": {"task": "WORK", "region": "H"},
                               "3": {"task": "FOLLOW", "leader": "Mr Orange"},
                               "4": {"task": "HUNT", "region": "D", "brotherhood": "s3"}}
    assert dumped["declarations"] == [{"brotherhood": "s2", "leader": "Mr Orange",
                                       "region": "D"}]
    after, _ = _resolve(game, {"s1": data})
    assert RULES.view(after, "s1")["declarations"][0]["outcome"] == (
        "correct: you receive 20 gp and a Life")
    assert not _b(after, "s2").surviving


# ---------------------------------------------------------------- §5.3 validation


def test_v1_no_such_spy(game: State) -> None:
    """V1: a number that is not a surviving spy of the seat: "spy N: you have no spy N"."""
    data = sheet_json({0: ("WORK", "H"), 10: ("WORK", "H")})
    assert refusal(game, "s1", data) == ("spy 0: you have no spy 0",
                                         "spy 10: you have no spy 10")


def test_v1_killed_spy_has_no_orders_and_its_number_is_not_reused(game: State) -> None:
    """§1, V1, T10: Bravo#9 is killed while Bravo#2 recruits: the recruit is #10 (numbers
    are never reused), and next turn an order for #9 is refused."""
    t = play(game, {"s1": {2: ("HUNT", "D")}, "s2": {9: ("WORK", "D"), 2: ("RECRUIT",)}},
             script={"recruit": [1]})
    assert t.result("s2", 9) == "killed by a hunter of Alpha"
    assert [s.number for s in _b(t.after, "s2").spies] == [1, 2, 3, 4, 5, 6, 7, 8, 10]
    assert refusal(t.after, "s2", sheet_json({9: ("WORK", "A")})) == (
        "spy 9: you have no spy 9",)
    RULES.parse_orders(t.after, "s2", sheet_json({10: ("WORK", "A")}))


def test_v2_unknown_task(game: State) -> None:
    """V2: "spy N: unknown task X"."""
    assert refusal(game, "s1", sheet_json({3: ("DANCE", "A")})) == ("spy 3: unknown task DANCE",)


def test_v2_spy2_removed_tasks_refused() -> None:
    """V2, §9.1: HIDE, DISGUISE, FOLLOW and FAKE do not exist in spy2: "spy N: X is not used
    in this game" (X normalised; a leader's HIDE is refused, not converted by V9)."""
    spy2 = new_game(variant="spy2")
    data = {"spies": {"1": {"task": "hide", "region": "A"},
                      "4": {"task": "DISGUISE", "region": "A"},
                      "5": {"task": "FOLLOW", "leader": "Mr Orange"},
                      "6": {"task": "Fake", "region": "A"}}}
    assert refusal(spy2, "s1", data) == (
        "spy 1: HIDE is not used in this game", "spy 4: DISGUISE is not used in this game",
        "spy 5: FOLLOW is not used in this game", "spy 6: FAKE is not used in this game")


def test_v3_required_region_missing(game: State) -> None:
    """V3: "spy N: X needs a region" (X the task)."""
    data = {"spies": {"3": {"task": "WORK"}, "4": {"task": "hunt", "brotherhood": "s2"}}}
    assert refusal(game, "s1", data) == ("spy 3: WORK needs a region",
                                         "spy 4: HUNT needs a region")


def test_v4_parameter_the_task_does_not_take(game: State) -> None:
    """V4: region on FOLLOW; brotherhood on HIDE, COVERT, TRAIN, GUARD, FAKE, WORK, RECRUIT,
    FOLLOW; leader on any task but FOLLOW: "spy N: X takes no Y"."""
    data = {"spies": {
        "2": {"task": "COVERT", "region": "H", "brotherhood": "s2"},
        "3": {"task": "FOLLOW", "leader": "Mr Orange", "region": "A"},
        "4": {"task": "WORK", "region": "H", "brotherhood": "s2"},
        "5": {"task": "RECRUIT", "brotherhood": "s2"},
        "6": {"task": "HIDE", "region": "A", "brotherhood": "s2"},
        "7": {"task": "FOLLOW", "leader": "Mr Orange", "brotherhood": "s2"},
        "8": {"task": "HUNT", "region": "A", "leader": "Mr Orange"},
        "9": {"task": "GUARD", "region": "A", "brotherhood": "s3"},
    }}
    assert refusal(game, "s1", data) == (
        "spy 2: COVERT takes no brotherhood", "spy 3: FOLLOW takes no region",
        "spy 4: WORK takes no brotherhood", "spy 5: RECRUIT takes no brotherhood",
        "spy 6: HIDE takes no brotherhood", "spy 7: FOLLOW takes no brotherhood",
        "spy 8: HUNT takes no leader", "spy 9: GUARD takes no brotherhood")
    data = {"spies": {"2": {"task": "TRAIN", "region": "A", "brotherhood": "s2"},
                      "3": {"task": "FAKE", "region": "A", "brotherhood": "s2"},
                      "4": {"task": "DISGUISE", "region": "A", "leader": "Mr Orange"},
                      "5": {"task": "SEARCH", "region": "A", "leader": "Mr Orange"}}}
    assert refusal(game, "s1", data) == (
        "spy 2: TRAIN takes no brotherhood", "spy 3: FAKE takes no brotherhood",
        "spy 4: DISGUISE takes no leader", "spy 5: SEARCH takes no leader")


def test_v5_hunt_search_own_brotherhood_refused(game: State) -> None:
    """V5: "spy N: you cannot HUNT (SEARCH) your own brotherhood"."""
    data = {"spies": {"2": {"task": "hunt", "region": "D", "brotherhood": "s1"},
                      "3": {"task": "SEARCH", "region": "D", "brotherhood": "s1"}}}
    assert refusal(game, "s1", data) == ("spy 2: you cannot HUNT your own brotherhood",
                                         "spy 3: you cannot SEARCH your own brotherhood")


def test_v6_no_such_brotherhood(game: State) -> None:
    """V6 and §5.1 (brotherhood is a seat id matched exactly): unknown, wrongly cased or
    eliminated seats: "spy N: no such brotherhood"."""
    data = sheet_json({2: ("HUNT", "D", "s9"), 3: ("SEARCH", "D", "S2")})
    assert refusal(game, "s1", data) == ("spy 2: no such brotherhood",
                                         "spy 3: no such brotherhood")
    later = _bravo_out(game)
    assert refusal(later, "s1", sheet_json({4: ("DISGUISE", "A", "s2")})) == (
        "spy 4: no such brotherhood",)


def test_v7_no_such_leader_to_follow(game: State) -> None:
    """V7: the leader is missing, unknown, the seat's own, or of an eliminated brotherhood:
    "spy N: no such leader to follow"."""
    data = {"spies": {"5": {"task": "FOLLOW", "leader": "Mr Pink"},
                      "6": {"task": "FOLLOW", "leader": "Mr Nobody"},
                      "7": {"task": "FOLLOW"}}}
    assert refusal(game, "s1", data) == tuple(
        f"spy {n}: no such leader to follow" for n in (5, 6, 7))
    later = _bravo_out(game)
    assert refusal(later, "s1", sheet_json({8: ("FOLLOW", "Mr Orange")})) == (
        "spy 8: no such leader to follow",)


def test_v7_is_checked_before_v8(game: State) -> None:
    """§5.3: each spy gets its first failing check in table order: a leader following an
    unknown leader fails V7, not V8."""
    assert refusal(game, "s1", sheet_json({1: ("FOLLOW", "Mr Nobody")})) == (
        "spy 1: no such leader to follow",)


def test_v9_v14_warnings_listed_by_spy_number(game: State) -> None:
    """V9, V14, §5.3: warnings accept the sheet and are listed by spy number."""
    spies = {n: ("WORK", "H") for n in (2, 3, 5, 6, 7, 8)}
    spies[1] = ("HIDE", "a")
    sheet = RULES.parse_orders(game, "s1", sheet_json(spies))
    assert RULES.warnings(game, "s1", sheet) == [
        "spy 1: Leaders cannot HIDE, he will WORK in A Academy",
        "spy 4 has no orders: it will WORK in a random region",
        "spy 9 has no orders: it will WORK in a random region",
    ]


def test_v10_message_for_a_single_recruit(game: State) -> None:
    """V10: "RECRUIT: k recruits cost C gp, you have G gp", with k = 1 too."""
    _b(game, "s1").gp = 8
    assert refusal(game, "s1", sheet_json({2: ("RECRUIT",)})) == (
        "RECRUIT: 1 recruits cost 9 gp, you have 8 gp",)
    _b(game, "s1").gp = 9
    RULES.parse_orders(game, "s1", sheet_json({2: ("RECRUIT",)}))


def test_v11_declaration_on_self_unknown_or_eliminated(game: State) -> None:
    """V11: "declaration K: you cannot declare on yourself" / "…: no such brotherhood"."""
    later = _bravo_out(game)
    data = sheet_json({}, [("s1", "Mr Green", "B"), ("s9", "Mr Green", "D"),
                           ("s2", "Mr Green", "D")])
    assert refusal(later, "s1", data) == ("declaration 1: you cannot declare on yourself",
                                          "declaration 2: no such brotherhood",
                                          "declaration 3: no such brotherhood")


def test_v12_error_on_each_later_declaration_on_one_brotherhood(game: State) -> None:
    """V12: two declarations on the same brotherhood: an error on each later one."""
    data = sheet_json({}, [("s2", "Mr Orange", "D"), ("s2", "Mr Orange", "I"),
                           ("s3", "Mr Green", "D"), ("s2", "Mr Green", "D")])
    assert refusal(game, "s1", data) == ("declaration 2: one declaration per brotherhood",
                                         "declaration 4: one declaration per brotherhood")


def test_v13_declaration_leader_and_region(game: State) -> None:
    """V13: the leader must be on the seat's leader list (not its own, not an eliminated
    one) and the region A–I: "declaration K: no such leader" / "…: unknown region X"."""
    data = sheet_json({}, [("s2", "Mr Pink", "D"), ("s3", "Mr Nobody", "D"),
                           ("s4", "Mr Grey", "J")])
    assert refusal(game, "s1", data) == ("declaration 1: no such leader",
                                         "declaration 2: no such leader",
                                         "declaration 3: unknown region J")
    later = _bravo_out(game)
    assert refusal(later, "s1", sheet_json({}, [("s3", "Mr Orange", "D")])) == (
        "declaration 1: no such leader",)


def test_v13_any_listed_leader_is_accepted_whatever_the_pairing(game: State) -> None:
    """V13 Decision, §8.3 items 1 and 6: validation checks the leader against the seat's
    public list only, so a wrong pairing (Mr Orange on Charlie) or a wrong base is accepted
    and judged in S1; a refusal would leak which leader belongs to whom."""
    sheet = RULES.parse_orders(game, "s1", sheet_json({}, [("s3", "Mr Orange", "D"),
                                                           ("s4", "Mr Grey", "A")]))
    assert len(sheet.declarations) == 2


def test_5_3_one_error_per_order_first_in_table_order(game: State) -> None:
    """§5.3: each spy and each declaration gets at most one error, its first failing check
    in table order (V2 before V4, V3 before V5, V11 before V13)."""
    data = {"spies": {"3": {"task": "DANCE", "region": "A", "brotherhood": "s1"},
                      "4": {"task": "HUNT", "region": "Z", "brotherhood": "s1"},
                      "5": {"task": "RECRUIT", "region": "G", "brotherhood": "s1"}},
            "declarations": [{"brotherhood": "s1", "leader": "Mr Nobody", "region": "Z"}]}
    assert refusal(game, "s1", data) == (
        "spy 3: unknown task DANCE", "spy 4: unknown region Z",
        "spy 5: RECRUIT takes no region (it always happens in the Ghetto)",
        "declaration 1: you cannot declare on yourself")


def test_5_3_error_listing_order(game: State) -> None:
    """§5.3: errors are listed spies first (by number, then keys that are not numbers, as
    text), then V10, then declarations by K."""
    work = {"task": "WORK", "region": "H"}
    data = {"spies": {"x": work, "10": work, "abc": work, "07": work,
                      "9": {"task": "DANCE", "region": "A"},
                      "2": {"task": "WORK", "region": "Z"},
                      "3": {"task": "RECRUIT"}, "4": {"task": "RECRUIT"},
                      "5": {"task": "RECRUIT"}},
            "declarations": [{"brotherhood": "s1", "leader": "Mr Orange", "region": "D"},
                             {"brotherhood": "s2", "leader": "Mr Nobody", "region": "D"}]}
    assert refusal(game, "s1", data) == (
        "spy 2: unknown region Z", "spy 9: unknown task DANCE", "spy 10: you have no spy 10",
        "spy 07: you have no spy 07", "spy abc: you have no spy abc", "spy x: you have no spy x",
        "RECRUIT: 3 recruits cost 27 gp, you have 20 gp",
        "declaration 1: you cannot declare on yourself", "declaration 2: no such leader")


def test_v15_eliminated_seat_refused(game: State) -> None:
    """V15: an eliminated seat submits nothing: "your brotherhood has been eliminated"."""
    later = play(game, declare={"s1": [("s2", "Mr Orange", "I")]}).after
    with pytest.raises(OrderError) as caught:
        RULES.parse_orders(later, "s1", {})
    assert caught.value.messages == ("your brotherhood has been eliminated",)
    assert "s1" not in RULES.awaiting(later)


def test_5_1_record_orders_of_a_seat_not_awaited(game: State) -> None:
    """§5.1: in a record, a seat not awaited (eliminated earlier) may be left out of a turn's
    orders or given null, both meaning nothing; any other value refuses the record.
    ``default_orders`` is the null sheet, so a record holding null replays identically."""
    seats = tuple(Seat(sid, name, "P", None) for sid, name, _, _ in FIXTURE_SEATS)
    options = {"setup": {"bases": {"s1": "B", "s2": "D", "s3": "D", "s4": "I"},
                         "leaders": {"s1": "Mr Pink", "s2": "Mr Orange", "s3": "Mr Green",
                                     "s4": "Mr Grey"}}}
    first = {"s1": {"declarations": [{"brotherhood": "s2", "leader": "Mr Orange",
                                      "region": "I"}]},
             "s2": None, "s3": None, "s4": None}
    base = Record("spyvsspy", 5, options, seats, (first,))
    state = final_state(base)
    assert RULES.default_orders(state, "s2", Rng(5)) is None
    left_out = final_state(base.with_turn({"s2": None, "s3": None, "s4": None}))
    given_null = final_state(base.with_turn({"s1": None, "s2": None, "s3": None, "s4": None}))
    assert RULES.view(left_out, None) == RULES.view(given_null, None)
    with pytest.raises(RecordError):
        final_state(base.with_turn({"s1": {}, "s2": None, "s3": None, "s4": None}))


# ---------------------------------------------------------------- §6 S1, S5


def test_s1_d1_life_covers_exactly_one_wrong_declaration(game: State) -> None:
    """S1.1–S1.4: Alpha (life 1) declares Bravo wrongly and Charlie correctly: the Life
    covers the one wrong declaration (life 0), so the correct one is valid: Charlie falls,
    Alpha receives 20 gp and a Life (life 1 again)."""
    _b(game, "s1").life = 1
    t = play(game, declare={"s1": [("s2", "Mr Orange", "I"), ("s3", "Mr Green", "D")]})
    assert _b(t.after, "s1").surviving and not _b(t.after, "s3").surviving
    assert t.outcomes("s1") == ["incorrect, a Life was used",
                                "correct: you receive 20 gp and a Life"]
    assert _b(t.after, "s1").life == 1 and t.view("s1")["me"]["life"] == 1
    assert t.gp("s1") == 40
    assert t.news == ["Charlie eliminated: correctly declared by Alpha; "
                      "its leader was Mr Green, its base D Docks"]


def test_s1_3_share_of_a_declarer_eliminated_in_d2_is_lost(game: State) -> None:
    """S1.3: Alpha and Bravo declare Charlie (gp 30) correctly, Delta declares Bravo
    correctly. Both Charlie and Bravo fall in D2; the share is ⌊30 / 2⌋ = 15 for each
    declarer, and Bravo's is lost (not given to Alpha). Delta gets Bravo's 20 gp."""
    _b(game, "s3").gp = 30
    t = play(game, declare={"s1": [("s3", "Mr Green", "D")], "s2": [("s3", "Mr Green", "D")],
                            "s4": [("s2", "Mr Orange", "D")]})
    assert t.gp("s1") == 35 and t.gp("s4") == 40
    assert t.outcomes("s1") == ["correct: you receive 15 gp and a Life"]
    assert t.outcomes("s2") == ["correct, but you were eliminated too"]
    assert t.outcomes("s4") == ["correct: you receive 20 gp and a Life"]
    assert t.news == [
        "Bravo eliminated: correctly declared by Delta; its leader was Mr Orange, its base D Docks",
        "Charlie eliminated: correctly declared by Alpha, Bravo; "
        "its leader was Mr Green, its base D Docks"]
    assert [r["eliminated"] for r in t.view("s1")["directory"]] == [
        None, {"turn": 1, "phase": "D2"}, {"turn": 1, "phase": "D2"}, None]


FIVE = (*FIXTURE_SEATS, ("s5", "Echo", "Mr Black", "A"))


def test_s5_standings_later_turns_and_d2_rank_higher() -> None:
    """S5: winners first, then by elimination, later turns higher, within a turn D2 above D1;
    a place is 1 + the number ranked strictly above. Echo falls in turn 1 (D1); in turn 2
    Delta falls in D1 and Bravo, Charlie in D2 (Alpha declares them): Alpha 1, Bravo 2,
    Charlie 2, Delta 4, Echo 5."""
    t1 = play(new_game(FIVE), declare={"s5": [("s1", "Mr Pink", "A")]})
    t = play(t1.after, declare={"s1": [("s2", "Mr Orange", "D"), ("s3", "Mr Green", "D")],
                                "s4": [("s1", "Mr Pink", "A")]})
    over = t.view("s1")["game_over"]
    assert over["winners"] == ["s1"]
    assert over["standings"] == [{"seat": "s1", "place": 1}, {"seat": "s2", "place": 2},
                                 {"seat": "s3", "place": 2}, {"seat": "s4", "place": 4},
                                 {"seat": "s5", "place": 5}]
    assert t.news == [
        "Bravo eliminated: correctly declared by Alpha; its leader was Mr Orange, its base D Docks",
        "Charlie eliminated: correctly declared by Alpha; "
        "its leader was Mr Green, its base D Docks",
        "Delta eliminated by an incorrect declaration; its leader was Mr Grey, its base I PigSty",
        "game over: Alpha wins"]


def test_s5_nobody_left_and_none_in_d2_d1_fallers_are_joint_winners(game: State) -> None:
    """S5: nobody survives and nobody fell in D2: those eliminated in D1 of this turn are
    joint winners."""
    t1 = play(game, declare={"s3": [("s1", "Mr Pink", "A")], "s4": [("s1", "Mr Pink", "A")]})
    t = play(t1.after, declare={"s1": [("s2", "Mr Orange", "A")],
                                "s2": [("s1", "Mr Pink", "A")]})
    assert t.news[-1] == "game over: Alpha, Bravo are joint winners"
    over = t.view("s1")["game_over"]
    assert over["winners"] == ["s1", "s2"]
    assert over["standings"] == [{"seat": "s1", "place": 1}, {"seat": "s2", "place": 1},
                                 {"seat": "s3", "place": 3}, {"seat": "s4", "place": 3}]


def test_s5_nobody_left_d2_fallers_win_over_d1_fallers(game: State) -> None:
    """S5: nobody survives; Alpha and Bravo fell in D2 (mutual), Charlie in D1 of the same
    turn: Alpha and Bravo win jointly, Charlie is 3rd, Delta (out in turn 1) 4th."""
    t1 = play(game, declare={"s4": [("s1", "Mr Pink", "A")]})
    t = play(t1.after, declare={"s1": [("s2", "Mr Orange", "D")],
                                "s2": [("s1", "Mr Pink", "B")],
                                "s3": [("s1", "Mr Pink", "A")]})
    assert t.news == [
        "Alpha eliminated: correctly declared by Bravo; its leader was Mr Pink, its base B Beltram",
        "Bravo eliminated: correctly declared by Alpha; its leader was Mr Orange, its base D Docks",
        "Charlie eliminated by an incorrect declaration; its leader was Mr Green, its base D Docks",
        "game over: Alpha, Bravo are joint winners"]
    over = t.view("s3")["game_over"]
    assert over["winners"] == ["s1", "s2"]
    assert over["standings"] == [{"seat": "s1", "place": 1}, {"seat": "s2", "place": 1},
                                 {"seat": "s3", "place": 3}, {"seat": "s4", "place": 4}]


# ---------------------------------------------------------------- §6 S3


def test_s3_default_draws_only_for_spies_needing_them_in_number_order(game: State) -> None:
    """S3.1–S3.2, §7 row 3: ``default:s1`` draws roll(9) only for the spies without an order
    (#3, #7) and the FOLLOW whose target vanished in S1 (#5), in spy-number order; other
    seats with full sheets draw nothing. Notices are one per case, by spy number."""
    t = play(game, {"s1": {5: ("FOLLOW", "Mr Orange")}}, omit={"s1": {3, 7}},
             declare={"s3": [("s2", "Mr Orange", "D")]},
             script={"default:s1": [2, 4, 6]})
    assert t.warnings["s1"] == ["spy 3 has no orders: it will WORK in a random region",
                                "spy 7 has no orders: it will WORK in a random region"]
    assert t.draws("default:s1") == [(9, 2), (9, 4), (9, 6)]
    assert t.draws("default:s3") == [] and t.draws("default:s4") == []
    assert t.notices("s1") == [
        "spy 3 had no orders: he worked in B Beltram",
        "spy 5: Mr Orange's brotherhood was eliminated; he worked in D Docks instead",
        "spy 7 had no orders: he worked in F Fairground"]
    assert [t.spy("s1", n)["task"] for n in (3, 5, 7)] == [
        {"task": "WORK", "region": r} for r in "BDF"]


def test_s3_3_named_brotherhood_eliminated_is_dropped_with_notice(game: State) -> None:
    """S3.3, §8.2 item 4, §7 row 4: HUNT, SEARCH and DISGUISE naming Bravo, eliminated in S1,
    run unnamed with the notice "spy N: Y was eliminated; he did TASK without naming a
    brotherhood"; the DISGUISE is then drawn among the surviving others (Charlie, Delta)."""
    t = play(game, {"s1": {2: ("HUNT", "E", "s2"), 3: ("SEARCH", "D", "s2"),
                           4: ("DISGUISE", "F", "s2")}},
             declare={"s3": [("s2", "Mr Orange", "D")]}, script={"disguise": [2]})
    assert t.notices("s1") == [
        "spy 2: Bravo was eliminated; he did HUNT without naming a brotherhood",
        "spy 3: Bravo was eliminated; he did SEARCH without naming a brotherhood",
        "spy 4: Bravo was eliminated; he did DISGUISE without naming a brotherhood"]
    assert [t.spy("s1", n)["task"] for n in (2, 3, 4)] == [
        {"task": "HUNT", "region": "E"}, {"task": "SEARCH", "region": "D"},
        {"task": "DISGUISE", "region": "F"}]
    assert t.draws("disguise") == [(2, 2)]
    assert t.result("s1", 4) == "disguised as Delta"
    assert t.result("s1", 3) == "base of Charlie reported here; bases here: 1"
    assert t.result("s1", 2) == "found no one to hunt"


# ---------------------------------------------------------------- §6 T1–T11


def test_t2_covert_before_hunt_changes_the_target(game: State) -> None:
    """T2 before T7: Bravo's leader (4) does COVERT, so Bravo's covertness is 5 when the
    hunt runs; Alpha#2 (3) in D kills Charlie#4 (covertness 1) rather than Bravo#7, which
    would otherwise be first (same covertness, lower skill)."""
    t = play(game, {"s2": {1: ("COVERT", "E"), 7: ("WORK", "D")}, "s3": {4: ("WORK", "D")},
                    "s1": {2: ("HUNT", "D")}}, script={"hunt-reveal": [1, 1, 1, 1]})
    assert t.result("s2", 1) == "covertness +4"
    assert t.result("s3", 4) == "killed by a hunter of Alpha"
    assert t.spy("s2", 7)["killed"] is False


def test_t3_trainers_pay_in_spy_number_order(game: State) -> None:
    """T3: money is shared, trainers pay in spy-number order whatever the sheet's key order.
    With 8 gp: #7 TRAIN D +1 for 2 (full value, no "short" note); #8 TRAIN B +1 for 2
    (short); #9 TRAIN A +1 for 2 (short): 2 gp left. (In the sheet's order, #9 would have
    taken +2 for 8.)"""
    _b(game, "s1").gp = 8
    spies: dict[str, Any] = {"9": {"task": "TRAIN", "region": "A"},
                             "8": {"task": "TRAIN", "region": "B"},
                             "7": {"task": "TRAIN", "region": "D"}}
    spies.update({str(n): {"task": "HIDE", "region": "C"} for n in range(2, 7)})
    spies["1"] = {"task": "COVERT", "region": "C"}
    after, _ = _resolve(game, {"s1": {"spies": spies}})
    view = RULES.view(after, "s1")
    results = {s["number"]: s["result"] for s in view["spies"]}
    assert results[7] == "skill +1 for 2 gp"
    assert results[8] == "skill +1 for 2 gp (short of money)"
    assert results[9] == "skill +1 for 2 gp (short of money)"
    assert view["me"]["gp"] == 2


def test_t3_training_counts_before_the_hunt(game: State) -> None:
    """T3 before T7: Bravo#7 (1) trains +1 in D, so its skill is 2 when Alpha#4 (2) hunts
    there: not strictly lower, "found no one to hunt"."""
    t = play(game, {"s2": {7: ("TRAIN", "D")}, "s1": {4: ("HUNT", "D")}})
    assert t.result("s2", 7) == "skill +1 for 2 gp"
    assert t.result("s1", 4) == "found no one to hunt"


def test_t4_guard_never_guards_guards_or_the_leader_nor_other_regions(game: State) -> None:
    """T4: candidates are own spies in the guard's region that are not the leader, not
    guarded, and not GUARD/HIDE/FOLLOW. In D only the leader and two guards: both "nobody to
    guard". In E #6 guards #7; in H #5 finds no one (its comrades are elsewhere)."""
    t = play(game, {"s1": {1: ("WORK", "D"), 8: ("GUARD", "D"), 9: ("GUARD", "D"),
                           6: ("GUARD", "E"), 7: ("WORK", "E"), 5: ("GUARD", "H")}})
    assert t.result("s1", 8) == "nobody to guard"
    assert t.result("s1", 9) == "nobody to guard"
    assert t.result("s1", 6) == "guarded spy #7"
    assert t.result("s1", 5) == "nobody to guard"


def test_t4_guard_covers_a_recruiter_in_the_ghetto(game: State) -> None:
    """T4 with S3: a RECRUIT spy stands in G and is a guard candidate there; guarded, a
    hunter in G cannot take it."""
    t = play(game, {"s1": {7: ("RECRUIT",), 9: ("GUARD", "G")}, "s2": {2: ("HUNT", "G")}},
             script={"recruit": [1]})
    assert t.result("s1", 9) == "guarded spy #7"
    assert t.result("s2", 2) == "found no one to hunt"
    assert t.result("s1", 7) == "recruited spy #10 (skill 1) for 9 gp"


def test_t6_follower_of_a_recruiting_leader_goes_to_the_ghetto(game: State) -> None:
    """S3, T6: the follower of a leader who RECRUITs stands in G; others there count it under
    its true brotherhood with task FOLLOW, and see the leader."""
    t = play(game, {"s2": {6: ("FOLLOW", "Mr Pink")}, "s1": {1: ("RECRUIT",)},
                    "s3": {3: ("WORK", "G")}}, script={"recruit": [1]})
    assert t.spy("s2", 6)["at"] == "G"
    assert t.result("s2", 6) == "followed Mr Pink to G Ghetto; he was not disguised"
    assert seen(t.view("s3"), "G") == {"Alpha": 1, "Bravo": 1, "FOLLOW": 1, "RECRUIT": 1,
                                       "Mr Pink": "✓"}
    assert seen(t.view("s2"), "G") == {"Alpha": 1, "Charlie": 1, "RECRUIT": 1, "WORK": 1,
                                       "Mr Pink": "✓"}


def test_t7_hunting_order_uses_gp_current_at_t7(game: State) -> None:
    """T7.2a, §6 ("gp ... the values current when the step runs"): Bravo and Charlie
    start with 20 gp, but Bravo pays 2 gp for TRAIN (T3) first, so Bravo#2 hunts before
    Charlie#2 without an ordering draw; only Bravo's target draw is made."""
    t = play(game, {"s2": {2: ("HUNT", "E"), 7: ("TRAIN", "D")}, "s3": {2: ("HUNT", "E")},
                    "s4": {7: ("WORK", "E"), 8: ("WORK", "E")}},
             script={"hunt": [2], "hunt-reveal": [1, 1, 1, 1]})
    assert t.draws("hunt") == [(2, 2)]
    assert t.result("s4", 8) == "killed by a hunter of Bravo"
    assert t.result("s4", 7) == "killed by a hunter of Charlie"


def test_t7_named_brotherhood_present_is_preferred(game: State) -> None:
    """T7.2b: a hunter naming Charlie keeps only Charlie's eligible spies although Bravo is
    less covert, then takes the lowest skill among them."""
    _b(game, "s3").covertness = 5
    t = play(game, {"s1": {2: ("HUNT", "D", "s3")}, "s2": {4: ("WORK", "D")},
                    "s3": {4: ("WORK", "D"), 7: ("WORK", "D")}},
             script={"hunt-reveal": [1, 1, 2, 1]})
    assert t.result("s3", 7) == "killed by a hunter of Alpha"
    assert t.result("s1", 2) == "killed a spy of Charlie; Charlie's leader is Mr Green"
    assert t.draws("hunt") == []


def test_t7_lowest_skill_among_least_covert_without_a_draw(game: State) -> None:
    """T7.2b: among the least covert eligible spies the lowest skill is taken; no draw."""
    t = play(game, {"s1": {2: ("HUNT", "D")}, "s2": {4: ("WORK", "D"), 7: ("WORK", "D")}})
    assert t.result("s2", 7) == "killed by a hunter of Alpha"
    assert t.spy("s2", 4)["killed"] is False
    assert t.draws("hunt") == []


def test_t7_never_hunts_own_brotherhood(game: State) -> None:
    """T7.2b: eligible spies are of another brotherhood."""
    t = play(game, {"s1": {2: ("HUNT", "D"), 7: ("WORK", "D")}})
    assert t.result("s1", 2) == "found no one to hunt"
    assert t.spy("s1", 7)["killed"] is False


def test_t7_killed_result_joined_only_after_covert_train_disguise(game: State) -> None:
    """§8.2 item 5, T7.2c: a killed spy's result is "killed by a hunter of X", after its own
    result joined by "; " only for COVERT, TRAIN and DISGUISE (tasks before T7). Killed
    SEARCH, FAKE, RECRUIT and WORK spies show only the killed line; a killed recruiter pays
    nothing and draws nothing; the At is where it died; one news line per kill."""
    t = play(game, {
        "s4": {7: ("TRAIN", "D"), 8: ("DISGUISE", "C", "s2"), 9: ("SEARCH", "E"),
               6: ("FAKE", "F"), 5: ("RECRUIT",), 4: ("COVERT", "H"), 2: ("HUNT", "A")},
        "s1": {2: ("HUNT", "D"), 3: ("HUNT", "C")},
        "s2": {2: ("HUNT", "E"), 3: ("HUNT", "F")},
        "s3": {2: ("HUNT", "G"), 3: ("HUNT", "H"), 7: ("WORK", "A")},
    }, script={"hunt-reveal": [1, 1, 1, 1]})
    assert t.result("s4", 7) == "skill +1 for 2 gp; killed by a hunter of Alpha"
    assert t.spy("s4", 7)["skill"] == 2
    assert t.result("s4", 8) == "disguised as Bravo; killed by a hunter of Alpha"
    assert t.result("s4", 9) == "killed by a hunter of Bravo"
    assert t.result("s4", 6) == "killed by a hunter of Bravo"
    assert t.result("s4", 5) == "killed by a hunter of Charlie"
    assert t.result("s4", 4) == "covertness +2; killed by a hunter of Charlie"
    assert t.result("s3", 7) == "killed by a hunter of Delta"
    assert [t.spy("s4", n)["at"] for n in (7, 8, 9, 6, 5, 4)] == list("DCEFGH")
    assert all(t.spy("s4", n)["killed"] for n in (4, 5, 6, 7, 8, 9))
    assert t.draws("recruit") == []
    assert _b(t.after, "s4").covertness == 3
    assert t.news == ["Alpha killed a spy of Delta"] * 2 + ["Bravo killed a spy of Delta"] * 2 \
        + ["Charlie killed a spy of Delta"] * 2 + ["Delta killed a spy of Charlie"]
    # The killed disguiser still counts under its disguise (§8.2 item 6, T7.2c).
    assert seen(t.view("s1"), "C") == {"Bravo": 1, "DISGUISE": 1}


def test_t8_one_brotherhood_faking_twice_counts_twice(game: State) -> None:
    """T8–T9: fakes are counted and drawn per FAKE task: Delta#5 and #6 FAKE in C (no base
    there); Alpha#4's SEARCH counts 2 and draws between the two entries."""
    t = play(game, {"s4": {5: ("FAKE", "C"), 6: ("FAKE", "C")}, "s1": {4: ("SEARCH", "C")}},
             script={"search": [2]})
    assert t.result("s1", 4) == "base of Delta reported here; bases here: 2"
    assert t.draws("search") == [(2, 2)]
    assert t.result("s4", 5) == "planted a fake base in C Cathedral"
    assert seen(t.view("s1"), "C") == {"Delta": 2, "FAKE": 2}


def test_t9_named_faker_without_a_real_base_gets_a_random_fake(game: State) -> None:
    """T9 table, row "y named", F not empty: y is returned only if y ∈ Reals and y has an
    entry in F; Delta fakes in C but has no base there, so a random entry of F is taken."""
    t = play(game, {"s2": {5: ("FAKE", "C")}, "s4": {5: ("FAKE", "C")},
                    "s1": {4: ("SEARCH", "C", "s4")}}, script={"search": [1]})
    assert t.draws("search") == [(2, 1)]
    assert t.result("s1", 4) == "base of Bravo reported here; bases here: 2"


def test_t9_own_base_never_counted_and_yields_to_a_foreign_fake(game: State) -> None:
    """T9 Decisions: one's own base is never in the count, and is returned only when no other
    base and no foreign fake is in R; one's own fake is ignored."""
    t = play(game, {"s2": {4: ("SEARCH", "D"), 5: ("FAKE", "B")}, "s1": {4: ("SEARCH", "B")}})
    assert t.result("s2", 4) == "base of Charlie reported here; bases here: 1"
    assert t.result("s1", 4) == "base of Bravo reported here; bases here: 1"
    t = play(game, {"s1": {4: ("SEARCH", "B"), 5: ("FAKE", "B")}})
    assert t.result("s1", 4) == "only your own base is here; bases here: 0"


def test_t9_no_base_found(game: State) -> None:
    """T9: nobody named, no fake, no base and not the own base: "no base found; bases here:
    0"."""
    t = play(game, {"s1": {4: ("SEARCH", "C")}})
    assert t.result("s1", 4) == "no base found; bases here: 0"


def test_t10_recruit_cost_counts_spies_killed_this_turn(game: State) -> None:
    """T10 Decision: N0 counts every spy at the start of the turn, later-killed ones too:
    Bravo#9 is killed, yet Bravo#2's recruit costs 9."""
    t = play(game, {"s1": {2: ("HUNT", "D")}, "s2": {9: ("WORK", "D"), 2: ("RECRUIT",)}},
             script={"recruit": [2]})
    assert t.result("s2", 2) == "recruited spy #10 (skill 2) for 9 gp"
    assert t.gp("s2") == 11
    assert t.view("s2")["me"]["nspies"] == 9


# ---------------------------------------------------------------- §7 streams


def test_7_disguise_draws_only_for_unnamed_disguises(game: State) -> None:
    """§7 row 4, T5: only unnamed DISGUISE spies draw, in canonical order, a random choice
    among the surviving others in bid order."""
    t = play(game, {"s1": {4: ("DISGUISE", "F", "s3"), 5: ("DISGUISE", "F")},
                    "s2": {4: ("DISGUISE", "F")}, "s4": {3: ("WORK", "F")}},
             script={"disguise": [1, 1]})
    assert t.draws("disguise") == [(3, 1), (3, 1)]
    assert t.result("s1", 4) == "disguised as Charlie"
    assert t.result("s1", 5) == "disguised as Bravo"
    assert t.result("s2", 4) == "disguised as Alpha"
    assert seen(t.view("s4"), "F") == {"Alpha": 1, "Bravo": 1, "Charlie": 1, "DISGUISE": 3}


def test_7_hunt_reveal_drawn_for_every_survivor_even_without_hunts(game: State) -> None:
    """§7 row 5, T7.1: roll(2) for every surviving brotherhood every turn, hunted or not;
    a brotherhood eliminated in S1 draws nothing."""
    t = play(game)
    assert [n for n, _ in t.draws("hunt-reveal")] == [2, 2, 2, 2]
    t = play(game, declare={"s3": [("s2", "Mr Orange", "D")]})
    assert [n for n, _ in t.draws("hunt-reveal")] == [2, 2, 2]


def test_7_hunt_draws_region_by_region(game: State) -> None:
    """§7 rows 6–7: regions A→I; A's target draw (three tied Delta/Charlie/Bravo spies) comes
    before D's ordering draw of two tied hunters."""
    t = play(game, {"s1": {2: ("HUNT", "A")},
                    "s2": {7: ("WORK", "A"), 2: ("HUNT", "D")},
                    "s3": {7: ("WORK", "A"), 2: ("HUNT", "D")},
                    "s4": {7: ("WORK", "A"), 8: ("WORK", "D")}},
             script={"hunt": [2, 1], "hunt-reveal": [1, 1, 1, 1]})
    assert t.draws("hunt") == [(3, 2), (2, 1)]
    assert t.result("s3", 7) == "killed by a hunter of Alpha"
    assert t.result("s4", 8) == "killed by a hunter of Bravo"
    assert t.result("s3", 2) == "found no one to hunt"


def test_7_recruit_draws_canonical_and_only_when_paid(game: State) -> None:
    """§7 row 9: ``recruit`` draws roll(3) only for paid recruits, in canonical order: Bravo's
    recruiter cannot pay after training and draws nothing."""
    _b(game, "s2").gp = 12
    t = play(game, {"s1": {2: ("RECRUIT",)}, "s2": {7: ("TRAIN", "A"), 2: ("RECRUIT",)},
                    "s3": {2: ("RECRUIT",)}}, script={"recruit": [2, 3]})
    assert t.draws("recruit") == [(3, 2), (3, 3)]
    assert t.result("s1", 2) == "recruited spy #10 (skill 2) for 9 gp"
    assert t.result("s2", 2) == "could not afford a recruit (9 gp)"
    assert t.result("s3", 2) == "recruited spy #10 (skill 3) for 9 gp"


def test_7_search_draws_per_search_in_canonical_order(game: State) -> None:
    """§7 row 8, T9 Decision: each SEARCH draws on its own among tied least-covert bases."""
    t = play(game, {"s1": {4: ("SEARCH", "D")}, "s4": {4: ("SEARCH", "D")}},
             script={"search": [2, 1]})
    assert t.draws("search") == [(2, 2), (2, 1)]
    assert t.result("s1", 4) == "base of Charlie reported here; bases here: 2"
    assert t.result("s4", 4) == "base of Bravo reported here; bases here: 2"


# ---------------------------------------------------------------- §8 views


CASE_SEATS = (("s1", "zulu", "Mr Pink", "B"), ("s2", "Alpha", "Mr Orange", "D"),
              ("s3", "bravo", "Mr Green", "D"), ("s4", "Charlie", "Mr Grey", "I"),
              ("s5", "delta", "Mr Black", "A"), ("s6", "Echo", "Mr Navy", "C"))


def test_8_1_news_order_and_casefold_sorting() -> None:
    """§8.1: eliminations first, sorted by name case-insensitively; then one line per kill
    sorted by hunter name then victim name (casefold). §8.2 item 6: brotherhood rows sorted
    by casefold, leader rows by name."""
    game = new_game(CASE_SEATS)
    t = play(game, {"s2": {2: ("HUNT", "A"), 3: ("HUNT", "C"), 7: ("WORK", "H")},
                    "s5": {7: ("WORK", "A"), 2: ("HUNT", "F")},
                    "s6": {7: ("WORK", "C"), 2: ("HUNT", "H")},
                    "s1": {7: ("WORK", "F")}},
             declare={"s3": [("s1", "Mr Pink", "A")], "s1": [("s4", "Mr Grey", "I")]},
             script={"hunt-reveal": [1, 1, 1, 1]})
    assert t.news == [
        "bravo eliminated by an incorrect declaration; its leader was Mr Green, its base D Docks",
        "Charlie eliminated: correctly declared by zulu; its leader was Mr Grey, its base I PigSty",
        "Alpha killed a spy of delta", "Alpha killed a spy of Echo",
        "delta killed a spy of zulu", "Echo killed a spy of Alpha"]
    view = t.view("s1")
    assert labels(view) == ["Alpha", "delta", "Echo", DISGUISED, *TASK_ROWS,
                            "Mr Black", "Mr Navy", "Mr Orange"]


def test_8_1_directory_hidden_email() -> None:
    """§8.1, §8.5: a player who hides the address shows "hidden" in the directory and in
    the brotherhood rows of the report."""
    seats = [Seat("s1", "Alpha", "Ann", None), Seat("s2", "Bravo", "Bob", "bob@example.org")]
    state = RULES.setup(seats, {}, Rng(1))
    view = RULES.view(state, "s2")
    assert [r["email"] for r in view["directory"]] == ["hidden", "bob@example.org"]
    after = RULES.resolve(state, {"s1": None, "s2": None}, Rng(1))
    row = RULES.view(after, "s2")["table"]["rows"][0]
    assert (row["label"], row["email"], row["player"]) == ("Alpha", "hidden", "Ann")


def test_8_5_surviving_seat_view_keys_and_shapes(game: State) -> None:
    """§8.5: a surviving seat's view is the public keys plus seat, secrets, me, leaders,
    declarations, spies, table, with the documented shapes; classic has no ``price``."""
    t = play(game, {"s1": {2: ("WORK", "H")}, "s2": {3: ("WORK", "H")}},
             declare={"s1": [("s2", "Mr Orange", "B")]})
    view = t.view("s3")
    assert set(view) == PUBLIC_KEYS | OWN_KEYS
    assert (view["game"], view["variant"], view["turn"], view["seat"]) == (
        "spyvsspy", "classic", 1, "s3")
    assert view["options"] == {"min_players": 2, "max_players": None,
                               "base_choice": "choose", "variant": "classic"}
    assert view["regions"] == [
        {"letter": "A", "name": "Academy", "train": 3, "work": 1},
        {"letter": "B", "name": "Beltram", "train": 2, "work": 3},
        {"letter": "C", "name": "Cathedral", "train": 2, "work": 1},
        {"letter": "D", "name": "Docks", "train": 1, "work": 4},
        {"letter": "E", "name": "Embassy", "train": 2, "work": 2},
        {"letter": "F", "name": "Fairground", "train": 1, "work": 3},
        {"letter": "G", "name": "Ghetto", "train": 1, "work": 2},
        {"letter": "H", "name": "Industrial", "train": 1, "work": 5},
        {"letter": "I", "name": "PigSty", "train": 1, "work": 1}]
    assert view["game_over"] is None
    assert view["secrets"] == {"leader": "Mr Green", "base": "D"}
    assert set(view["me"]) == {"name", "nspies", "covertness", "gp", "life", "notices"}
    assert view["leaders"] == ["Mr Grey", "Mr Orange"]
    assert view["declarations"] == []
    row = view["directory"][0]
    assert row == {"seat": "s1", "bid": 1, "name": "Alpha", "player": "Player of Alpha",
                   "email": "s1@example.org", "spies": 0, "covertness": 1, "gp": row["gp"],
                   "status": "eliminated", "eliminated": {"turn": 1, "phase": "D1"}}
    assert view["directory"][2]["status"] == "surviving"
    assert view["directory"][2]["eliminated"] is None
    for spy in view["spies"]:
        assert set(spy) == {"number", "leader", "skill", "at", "killed", "task", "result"}
    assert view["table"]["columns"] == LETTERS
    for row in view["table"]["rows"]:
        assert set(row["cells"]) == set(LETTERS)
        if row["kind"] == "brotherhood":
            assert set(row) == {"label", "kind", "cells", "seat", "player", "email", "spies",
                                "covertness", "gp"}
        else:
            assert row["kind"] in ("disguised", "task", "leader")
            assert set(row) == {"label", "kind", "cells"}


def test_8_5_eliminated_seat_views(game: State) -> None:
    """§8.5, §8.2: a seat eliminated in turn t sees the public keys, ``seat`` and its
    declarations of turn t; after turn t only the public keys and ``seat``."""
    t = play(game, declare={"s1": [("s2", "Mr Orange", "I")]})
    view = t.view("s1")
    assert set(view) == PUBLIC_KEYS | {"seat", "declarations"}
    assert view["declarations"] == [{"brotherhood": "s2", "leader": "Mr Orange",
                                     "region": "I", "outcome": WRONG}]
    t2 = play(t.after)
    assert set(t2.view("s1")) == PUBLIC_KEYS | {"seat"}
    assert t2.view("s1")["seat"] == "s1"


def test_8_5_game_over_views(game: State) -> None:
    """§8.5, S5: after the final turn every seat's view (winner, eliminated now, eliminated
    earlier) is the public keys with ``game_over`` (winners, standings, secrets, seed),
    ``seat`` and the declarations it made in that turn."""
    t1 = play(game, declare={"s4": [("s1", "Mr Pink", "A")]})
    t = play(t1.after, declare={"s1": [("s2", "Mr Orange", "D")],
                                "s2": [("s1", "Mr Pink", "B")]})
    for seat in ("s1", "s2", "s3", "s4"):
        view = t.view(seat)
        assert set(view) == PUBLIC_KEYS | {"seat", "declarations"}, seat
        assert set(view["game_over"]) == {"winners", "standings", "secrets", "seed"}
        assert view["game_over"]["seed"] == 7
    assert t.view("s1")["declarations"] == [{"brotherhood": "s2", "leader": "Mr Orange",
                                             "region": "D",
                                             "outcome": "correct, but you were eliminated too"}]
    assert t.view("s3")["declarations"] == []
    assert t.view("s4")["declarations"] == []
    assert RULES.awaiting(t.after) == frozenset()


def test_8_5_turn_0_view(game: State) -> None:
    """§8.5: at turn 0 the table is null, news and declarations are empty, spies have task
    and result null, ``leaders`` is already there."""
    view = RULES.view(game, "s2")
    assert set(view) == PUBLIC_KEYS | OWN_KEYS
    assert view["turn"] == 0 and view["table"] is None and view["news"] == []
    assert view["declarations"] == [] and view["me"]["notices"] == []
    assert view["leaders"] == ["Mr Green", "Mr Grey", "Mr Pink"]
    assert all(s["task"] is None and s["result"] is None and s["at"] is None
               and s["killed"] is False for s in view["spies"])


def test_8_5_spy2_price_public_and_no_life() -> None:
    """§8.5, §9.3, §9.6: spy2 views carry the public ``price`` and ``me`` has no ``life``;
    classic views have no ``price``."""
    spy2 = new_game(variant="spy2")
    view = RULES.view(spy2, "s1")
    assert set(view) == PUBLIC_KEYS | OWN_KEYS | {"price"}
    assert view["price"] == 10
    assert set(view["me"]) == {"name", "nspies", "covertness", "gp", "notices"}
    assert RULES.view(spy2, None)["price"] == 10
    assert "price" not in RULES.view(new_game(), "s1")


def test_8_4_host_view(game: State) -> None:
    """§8.4: the host view is the public keys (``options`` with ``setup``) plus ``seats``
    {leader, base, life, spies [{number, skill, at}], sheet as resolved (null for a
    no-show), report = that seat's view}; no seed before game over. It also holds
    ``explain``, the host's record of the last turn (``null`` before turn 1; the replay's
    "why it happened", docs/spyvsspy.md)."""
    host = RULES.view(game, None)
    assert set(host) == PUBLIC_KEYS | {"seats", "explain"}
    assert host["explain"] is None
    assert host["options"]["setup"] == {
        "bases": {"s1": "B", "s2": "D", "s3": "D", "s4": "I"},
        "leaders": {"s1": "Mr Pink", "s2": "Mr Orange", "s3": "Mr Green", "s4": "Mr Grey"}}
    assert host["seats"]["s1"]["sheet"] is None
    t = play(game, {"s1": {2: ("WORK", "H")}}, no_show={"s4"}, declare={"s2": [
        ("s3", "Mr Green", "A")]})
    host = t.view(None)
    assert set(host) == PUBLIC_KEYS | {"seats", "explain"}
    assert host["explain"]["turn"] == 1
    assert "seed" not in host and host["game_over"] is None
    for seat, entry in host["seats"].items():
        assert set(entry) == {"leader", "base", "life", "spies", "sheet", "report"}
        assert entry["report"] == RULES.view(t.after, seat)
        assert all(set(s) == {"number", "skill", "at"} for s in entry["spies"])
    assert host["seats"]["s4"]["sheet"] is None
    assert host["seats"]["s1"]["sheet"]["spies"]["2"] == {"task": "WORK", "region": "H"}
    assert host["seats"]["s2"]["sheet"]["declarations"] == [
        {"brotherhood": "s3", "leader": "Mr Green", "region": "A"}]
    assert host["seats"]["s2"]["spies"] == []
    assert (host["seats"]["s3"]["leader"], host["seats"]["s3"]["base"]) == ("Mr Green", "D")
    assert host["seats"]["s1"]["spies"][1] == {"number": 2, "skill": 3, "at": "H"}


def test_8_4_host_view_seed_only_at_game_over(game: State) -> None:
    """§8.4: ``game_over.seed`` appears in the host view once the game is over."""
    t = play(game, declare={"s1": [("s2", "Mr Orange", "D"), ("s3", "Mr Green", "D"),
                                   ("s4", "Mr Grey", "I")]})
    host = t.view(None)
    assert host["game_over"]["seed"] == 7
    assert host["game_over"]["winners"] == ["s1"]
    assert t.news[-1] == "game over: Alpha wins"


def test_8_2_recruiter_observes_the_ghetto(game: State) -> None:
    """§8.2 item 6: a recruiter observes the Ghetto."""
    t = play(game, {"s1": {2: ("RECRUIT",)}, "s2": {3: ("WORK", "G")}},
             script={"recruit": [1]})
    assert seen(t.view("s1"), "G") == {"Bravo": 1, "WORK": 1}


def _check_report(view: dict[str, Any]) -> None:
    """§8.2 item 6 over one view: O(b) columns are the regions of b's surviving non-hiding
    spies with a task; unobserved columns are "?" in every row; observed ones hold counts
    ≥ 0 with rows (1) + (2) = rows (3), and leader cells "✓" or ""."""
    observed = {s["at"] for s in view["spies"]
                if s["at"] and not s["killed"] and s["task"] and s["task"]["task"] != "HIDE"}
    rows = view["table"]["rows"]
    for letter in LETTERS:
        cells = [(row["kind"], row["cells"][letter]) for row in rows]
        if letter not in observed:
            assert all(value == "?" for _, value in cells), letter
            continue
        people = tasks = 0
        for kind, value in cells:
            if kind == "leader":
                assert value in ("", "✓")
                continue
            assert isinstance(value, int) and value >= 0
            if kind == "task":
                tasks += value
            else:
                people += value
        assert people == tasks, (letter, view["turn"], view["seat"])


@pytest.mark.parametrize("variant", ["classic", "spy2"])
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_8_2_report_invariant_over_random_games(variant: str, seed: int) -> None:
    """§8.2 item 6 invariant: per observed column, rows (1) + (2) = rows (3); unobserved
    columns are all "?"; over random games of 3–6 players."""
    checked = 0
    for state in random_game(seed, 3 + seed % 4, 8, variant)[1:]:
        if state.game_over is not None:
            continue
        for b in state.surviving():
            _check_report(RULES.view(state, b.seat))
            checked += 1
    assert checked > 0


# ---------------------------------------------------------------- §9 spy2


def test_9_3_void_declaration_could_not_afford() -> None:
    """§9.3, §9.6, §9.7: a declaration is accepted at submission whatever the gp; at S1 a
    declarer with gp < P makes it void ("could not afford P gp"), P unchanged, nothing paid,
    the target untouched."""
    spy2 = new_game(variant="spy2")
    _b(spy2, "s1").gp = 9
    t = play(spy2, declare={"s1": [("s2", "Mr Orange", "D")]})
    assert t.outcomes("s1") == ["could not afford 10 gp"]
    assert t.after.price == 10 and t.view("s2")["price"] == 10
    assert t.gp("s1") == 9
    assert _b(t.after, "s2").surviving
    assert t.news == []


def test_9_3_correct_but_eliminated_too() -> None:
    """§9.3, §9.6: Alpha and Bravo declare each other correctly: each pays 10 (price 15, then
    halved back to 10), both fall in D2 and read "correct: paid 10 gp, but you were
    eliminated too"."""
    spy2 = new_game(variant="spy2")
    t = play(spy2, declare={"s1": [("s2", "Mr Orange", "D")], "s2": [("s1", "Mr Pink", "B")]})
    assert t.outcomes("s1") == ["correct: paid 10 gp, but you were eliminated too"]
    assert t.outcomes("s2") == ["correct: paid 10 gp, but you were eliminated too"]
    assert t.after.price == 10
    assert [r["eliminated"] for r in t.view("s3")["directory"]] == [
        {"turn": 1, "phase": "D2"}, {"turn": 1, "phase": "D2"}, None, None]
    assert t.news == [
        "Alpha eliminated: correctly declared by Bravo; its leader was Mr Pink, its base B Beltram",
        "Bravo eliminated: correctly declared by Alpha; its leader was Mr Orange, its base D Docks"]


def test_9_3_share_is_the_target_gp_after_this_turns_fees() -> None:
    """§9.3: in (declarer bid, target bid) order Alpha pays 10 for a correct declaration on
    Charlie (price 15 → 10), then Charlie pays 10 for a wrong one on Delta (price 15).
    Charlie's gp after the fees, 10, goes to Alpha."""
    spy2 = new_game(variant="spy2")
    t = play(spy2, declare={"s1": [("s3", "Mr Green", "D")], "s3": [("s4", "Mr Grey", "A")]})
    assert t.outcomes("s1") == ["correct: paid 10 gp; you receive 10 gp"]
    assert t.outcomes("s3") == ["incorrect: paid 10 gp"]
    assert t.gp("s1") == 20
    assert t.after.price == 15


def test_9_3_declarations_processed_by_target_bid_not_sheet_order() -> None:
    """§9.3: declarations run in (declarer bid, target bid) order, not sheet order; outcomes
    are still listed in sheet order (§8.2 item 3). Alpha lists Charlie (wrong) before Bravo
    (right): Bravo's is paid first at 10 (P 15 → 10), then Charlie's at 10 (P 15)."""
    spy2 = new_game(variant="spy2")
    t = play(spy2, declare={"s1": [("s3", "Mr Green", "A"), ("s2", "Mr Orange", "D")]})
    assert t.outcomes("s1") == ["incorrect: paid 10 gp", "correct: paid 10 gp; you receive 20 gp"]
    assert t.after.price == 15
    assert t.gp("s1") == 20


def test_9_3_void_when_the_price_has_risen_beyond_the_gp() -> None:
    """§9.3: affordability is checked at the price current when the declaration is reached:
    Alpha (15 gp) pays 10 for Bravo (P 15), then cannot afford Charlie at 15."""
    spy2 = new_game(variant="spy2")
    _b(spy2, "s1").gp = 15
    t = play(spy2, declare={"s1": [("s2", "Mr Orange", "A"), ("s3", "Mr Green", "A")]})
    assert t.outcomes("s1") == ["incorrect: paid 10 gp", "could not afford 15 gp"]
    assert t.after.price == 15
    assert t.gp("s1") == 5


def test_9_3_price_carries_over_between_turns() -> None:
    """§9.3: P carries over: after a wrong paid declaration in turn 1 (P 15), the next
    declaration in turn 2 costs 15 and raises P to 20."""
    spy2 = new_game(variant="spy2")
    t1 = play(spy2, declare={"s1": [("s2", "Mr Orange", "A")]})
    assert t1.view("s3")["price"] == 15
    t2 = play(t1.after, declare={"s2": [("s3", "Mr Green", "A")]})
    assert t2.outcomes("s2") == ["incorrect: paid 15 gp"]
    assert t2.view("s1")["price"] == 20


def test_9_2_own_base_needs_findability() -> None:
    """§9.2: the own base is returned only if findable: in turn 1 Alpha#7 (1 × 1 = 1, not >
    covertness 1) finds "no base found; bases here: 0"; Alpha#2 (3) finds "only your own base
    is here; bases here: 0"."""
    spy2 = new_game(variant="spy2")
    t = play(spy2, {"s1": {7: ("SEARCH", "B"), 2: ("SEARCH", "B")}})
    assert t.result("s1", 7) == "no base found; bases here: 0"
    assert t.result("s1", 2) == "only your own base is here; bases here: 0"


def test_9_6_spy2_count_rows_invariant_and_unobserved(game: State) -> None:
    """§9.6, §8.2: spy2 reports count true brotherhoods with only the spy2 task rows; the
    invariant holds and unobserved columns are "?"."""
    spy2 = new_game(variant="spy2")
    t = play(spy2, {"s1": {2: ("WORK", "H")}, "s2": {3: ("GUARD", "H"), 4: ("WORK", "H")}})
    view = t.view("s1")
    assert seen(view, "H") == {"Bravo": 2, "GUARD": 1, "WORK": 1}
    assert unobserved(view, "A")
