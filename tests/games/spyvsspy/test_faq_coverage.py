"""Spec §11: every seed FAQ answer is covered by worked examples, and every worked example
of §10 (E01–E64) is a test named ``test_eNN_<spec name>`` in a ``test_examples_*`` module."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent

#: §10: example number -> the spec's name for it.
EXAMPLES: dict[int, str] = dict(enumerate([
    "setup_start_state", "work_industrial", "train_academy", "train_short_of_money",
    "covert_accumulates", "recruit_cost", "recruit_unaffordable_after_training",
    "recruit_refused_at_submission", "hide_safe_and_silent", "leader_hide_becomes_work",
    "leader_follow_refused", "disguise_as_own_refused", "invalid_region_refused",
    "guard_protects_lowest_skill", "guards_equal_spies", "guard_with_nobody",
    "guard_skips_leader_hider_follower", "disguise_changes_table", "disguise_random",
    "mr_egg_undisguised", "mr_egg_disguised", "disguised_escort", "follow_disguised_leader",
    "follow_undisguised_leader", "follow_target_eliminated", "hunt_least_covert_first",
    "hunt_eligibility", "hunt_named_absent", "hunt_sees_through_disguise",
    "hunt_order_kills_before_acting", "hunt_order_ties", "hunt_same_info_per_brotherhood",
    "workers_hunted_where_they_work", "killed_spies_do_not_report", "search_least_covert",
    "search_named", "search_fake_unnamed", "search_fake_named_real", "search_fake_in_own_region",
    "search_own_fake_ignored", "search_own_base_unavoidable", "search_two_fakes_random",
    "two_searches_one_fake", "search_count_pigsty", "killed_faker_plants_nothing",
    "counts_include_leaders", "own_spies_excluded", "observed_regions", "declaration_correct",
    "declaration_incorrect_no_life", "declaration_incorrect_with_life",
    "incorrect_first_voids_correct", "life_covers_one", "shared_wipe", "life_cap",
    "target_self_eliminated", "mutual_elimination", "last_two_joint_winners", "no_show",
    "partial_orders", "spy2_declaration_price", "spy2_search_threshold", "spy2_guard_doubles",
    "spy2_leader_ticks",
], start=1))

#: §11: FAQ question (abbreviated as in the spec) -> the examples that cover it.
FAQ: dict[str, tuple[int, ...]] = {
    "What is the aim of the game?": (57,),
    "How do I do that?": (49,),
    "How do I find this information out?": (35, 20, 26),
    "Can I stop other players getting this information?": (37, 21, 14),
    "How do I get money?": (2,),
    "How do I get more spies?": (6,),
    "A large brotherhood costs tons to recruit": (6,),
    "Can I hurt other players?": (26, 49),
    "What is the point of TRAIN?": (3, 4),
    "Why WORK anywhere but Industry (TRAIN but Academy)?": (2, 3, 33),
    "Why DISGUISE non leaders?": (22,),
    "Train and earn first, or gather information?": (4, 6),
    "What stops two players sharing information?": (32,),
    "Sit back and do nothing?": (26, 59),
    "Only DISGUISE, GUARD and FAKE?": (15, 18, 37),
    "Some RECRUITing, TRAINing and GUARDing too": (6, 4, 14),
    "Two players left: eliminate each other?": (58,),
    "Trading information": (50,),
    "Does the turn report include my crew?": (47,),
    "Killed spies squealed first?": (34,),
    "Why does COVERT take a region?": (5,),
    "Benefit of following a leader": (23,),
    "Not disguising the leader gives less information?": (22, 24),
    "New recruits, HUNT before WORK": (33,),
    "Why disguise the leader (Mr Egg)?": (20, 21),
    "Spies seen include leaders?": (46,),
    "SEARCH count includes FAKEs?": (37,),
    "7 bases in PigSty with 1 FAKE": (44,),
    "Hounds of Sigmar FAKE in their own region": (39,),
    "Two FAKEs: least covert first?": (42,),
    "Two SEARCHes: same FAKE?": (43,),
    "GUARD with no one to guard": (16,),
}


def _test_functions() -> dict[str, str]:
    """Test function name -> module file name, over every ``test_examples_*`` module."""
    found: dict[str, str] = {}
    for path in sorted(HERE.glob("test_examples_*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                assert node.name not in found, f"{node.name} defined twice"
                found[node.name] = path.name
    return found


def _test_name(number: int) -> str:
    return f"test_e{number:02d}_{EXAMPLES[number]}"


def _spec() -> str | None:
    """The spec text, when a checkout of ``shared/`` is at hand."""
    for root in HERE.parents:
        path = root / "shared" / "rules" / "spy-vs-spy.md"
        if path.is_file():
            return path.read_text(encoding="utf-8")
    return None


def test_every_worked_example_is_a_test() -> None:
    """E01–E64 each exist once, named after the spec, in a ``test_examples_*`` module."""
    assert sorted(EXAMPLES) == list(range(1, 65))
    functions = _test_functions()
    missing = [_test_name(n) for n in EXAMPLES if _test_name(n) not in functions]
    assert missing == []
    strays = [name for name in functions
              if re.match(r"test_e\d\d_", name)
              and name not in {_test_name(n) for n in EXAMPLES}]
    assert strays == []


def test_every_faq_answer_is_covered_by_existing_tests() -> None:
    """Every example §11 names for a FAQ answer exists as a test function."""
    functions = _test_functions()
    for question, numbers in FAQ.items():
        assert numbers, question
        for number in numbers:
            assert _test_name(number) in functions, f"{question}: E{number:02d} has no test"


def test_worked_examples_have_docstrings() -> None:
    """Each example test narrates its case."""
    for path in sorted(HERE.glob("test_examples_*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef) and re.match(r"test_e\d\d_", node.name):
                doc = ast.get_docstring(node) or ""
                number = node.name[6:8]
                assert doc.startswith(f"E{number}"), f"{node.name}: narrate E{number}"


def test_lists_match_the_spec() -> None:
    """The names above and the FAQ table are those of spec §10 and §11 (when the spec is here)."""
    spec = _spec()
    if spec is None:
        pytest.skip("shared/rules/spy-vs-spy.md is not in this checkout")
    headings = {int(n): name for n, name in re.findall(r"\*\*E(\d\d) (\w+)", spec)}
    assert headings == EXAMPLES
    section = spec.split("## 11.", 1)[1].split("## 12.", 1)[0]
    table: dict[str, tuple[int, ...]] = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 2 and re.search(r"E\d\d", cells[1]):
            table[cells[0]] = tuple(int(n) for n in re.findall(r"E(\d\d)", cells[1]))
    assert table == FAQ
