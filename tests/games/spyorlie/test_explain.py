"""Spy or Lie's "why it happened" (issue 13 item 6): each capture wave and Mole reversal.

Every acceptance example of spec §17 that shows a capture (AE-11 … AE-34, AE-38) is played
through the Ruleset from its position, and the explanation from the host view must name
its waves, resolvers and reversals as the spec states them. Properties: explain never
raises on random games and gives non-empty titles and lines; a replayed record explains
every entry as the live run did.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spyhouse.core.plugin import Explanation
from spyhouse.core.record import Record, replay
from spyhouse.core.rng import Rng
from spyhouse.games.spyorlie.plugin import PLUGIN
from tests.games.spyorlie.fixture import position
from tests.games.spyorlie.helpers import (
    RULES,
    SEATS,
    new_game,
    play_random_platform_game,
    with_position,
)

PAGES = PLUGIN.pages
AE12 = "(-1,-1)=Bs (0,0)=Bs (1,0)=Bs (1,-2)=Rs (2,-2)=Rs (2,-1)=Rs"
AE13 = "(-1,-1)=Bs (1,1)=Bs (0,-1)=Rs (1,-2)=Rs (1,0)=Rs (2,-2)=Rs (2,-1)=Rs"
AE36 = ("(-2,0)=R!s (-2,1)=R!s (-1,-1)=Bs (-1,1)=Rs (-1,2)=Bs (0,-1)=Rs (0,0)=Bs (0,2)=Bs "
        "(1,-2)=Bs (1,0)=Rs (1,1)=Bs (2,-2)=B!s (2,-1)=B!s")


def _explain(text: str, *, radius: int, to_move: str, turns: tuple[int, int],
             cell: tuple[int, int], face: str = "S", mode: str = "PLAIN",
             target: tuple[int, int] | None = None,
             hands: dict[str, dict[str, int]] | None = None) -> dict[str, list[str]]:
    """Play the move from the position through the Ruleset: title -> lines."""
    state = with_position(new_game(), position(text, radius=radius, to_move=to_move,
                                               turns=turns, hands=hands))
    host = RULES.view(state, None)
    seat = host["awaiting"]
    [move] = [m for m in host["legal_moves"] if m["cell"] == list(cell) and m["face"] == face
              and m["mode"] == mode and (target is None or m["target"] == list(target))]
    after = RULES.resolve(state, {seat: RULES.parse_orders(state, seat, move)}, Rng(0))
    return {e.title: list(e.lines) for e in
            PAGES.explain(RULES.view(after, None), {seat: move}, 1)}


def _chain(why: dict[str, list[str]], group: str) -> list[str]:
    return why[f"Capture chain of the group at {group}"][1:]


def test_ae_11_single_capture_boundary_closes() -> None:
    why = _explain("(0,0)=Bs (1,0)=Rs (2,-1)=Bs (2,-2)=Rs", radius=2, to_move="B",
                   turns=(2, 2), cell=(1, -2))
    assert why["Move 5: BLUE plays"] == ["BLUE placed a Spy face down at [1, -2]."]
    assert _chain(why, "[2, -2]") == ["Wave 1: [2, -2] (Spy) captured by BLUE, resolved by "
                                      "[1, -2]."]
    assert why["Score"] == ["Score: BLUE 1, RED 0 (each side's point cards)."]


def test_ae_12_multi_wave_chain() -> None:
    why = _explain(AE12, radius=2, to_move="B", turns=(3, 3), cell=(0, -1))
    assert _chain(why, "[1, -2]") == [
        "Wave 1: [1, -2] (Spy) captured by BLUE, resolved by [0, -1].",
        "Wave 2: [2, -2] (Spy) captured by BLUE, resolved by [1, -2].",
        "Wave 3: [2, -1] (Spy) captured by BLUE, resolved by [2, -2]."]


def test_ae_13_two_branches_axial_tie() -> None:
    why = _explain(AE13, radius=2, to_move="B", turns=(4, 4), cell=(0, 0))
    lines = _chain(why, "[0, -1]")
    assert lines[-1] == "Wave 3: [2, -2] (Spy) captured by BLUE, resolved by [1, -2]."
    assert len(lines) == 5
    assert "first in axial order" in why["Capture chain of the group at [0, -1]"][0]


def test_ae_14_point_cards_are_recaptured_and_never_reverse() -> None:
    why = _explain("(0,0)=Bs (1,0)=Rs (2,-2)=B!m (2,-1)=Bs", radius=2, to_move="R",
                   turns=(4, 3), cell=(1, -2))
    [mole, spy] = _chain(why, "[2, -2]")
    assert mole.startswith("Wave 1: [2, -2] (Mole) captured by RED, resolved by [1, -2]. "
                           "No reversal (a point card's face does not act")
    assert spy == "Wave 2: [2, -1] (Spy) captured by RED, resolved by [2, -2]."


def test_ae_15_mole_in_wave_1() -> None:
    why = _explain(AE12.replace("(1,-2)=Rs", "(1,-2)=Rm"), radius=2, to_move="B",
                   turns=(3, 3), cell=(0, -1))
    assert _chain(why, "[1, -2]") == [
        "Wave 1: [1, -2] (Mole) captured by BLUE, resolved by [0, -1]. It was an active Mole.",
        "Wave 1: Mole reversal: the Mole at [1, -2] turns its immediate captor [0, -1] (Spy) "
        "over to RED; that branch of the chain stops there."]
    assert why["Score"][0] == "Score: BLUE 1, RED 1 (each side's point cards)."


def test_ae_16_mole_in_wave_2() -> None:
    why = _explain(AE12.replace("(2,-2)=Rs", "(2,-2)=Rm"), radius=2, to_move="B",
                   turns=(3, 3), cell=(0, -1))
    lines = _chain(why, "[1, -2]")
    assert lines[1].startswith("Wave 2: [2, -2] (Mole) captured by BLUE, resolved by [1, -2]")
    assert lines[2].startswith("Wave 2: Mole reversal: the Mole at [2, -2] turns its immediate "
                               "captor [1, -2] (Spy) over to RED")
    assert len(lines) == 3  # (2,-1) is not reached


def test_ae_17_tie_rule_picks_the_reversed_captor() -> None:
    why = _explain(AE13.replace("(2,-2)=Rs", "(2,-2)=Rm"), radius=2, to_move="B",
                   turns=(4, 4), cell=(0, 0))
    lines = _chain(why, "[0, -1]")
    assert lines[-2].startswith("Wave 3: [2, -2] (Mole) captured by BLUE, resolved by [1, -2]")
    assert "captor [1, -2] (Spy) over to RED" in lines[-1]


def test_ae_18_reversal_priority_the_captors_other_target_waits() -> None:
    why = _explain(AE13.replace("(1,0)=Rs", "(1,0)=Rm"), radius=2, to_move="B",
                   turns=(4, 4), cell=(0, 0))
    assert _chain(why, "[0, -1]") == [
        "Wave 1: [1, 0] (Mole) captured by BLUE, resolved by [0, 0]. It was an active Mole.",
        "Wave 1: Mole reversal: the Mole at [1, 0] turns its immediate captor [0, 0] (Spy) "
        "over to RED; that branch of the chain stops there."]


def test_ae_19_reversal_priority_another_attacker_takes_over() -> None:
    why = _explain("(-1,-1)=Bs (0,-3)=Bs (1,1)=Bs (3,-1)=Bs (3,-3)=Bs (0,-1)=Rs (1,0)=Rs "
                   "(1,-2)=Rs (2,-1)=Rs (2,-2)=Rs (1,-3)=Rm", radius=3, to_move="B",
                   turns=(6, 6), cell=(0, 0))
    lines = _chain(why, "[0, -1]")
    assert lines[-3].startswith("Wave 3: [1, -3] (Mole) captured by BLUE, resolved by [1, -2]")
    assert "captor [1, -2] (Spy) over to RED" in lines[-2]
    assert lines[-1] == "Wave 3: [2, -2] (Spy) captured by BLUE, resolved by [2, -1]."


def test_ae_20_two_moles_one_captor() -> None:
    why = _explain(AE13.replace("(0,-1)=Rs", "(0,-1)=Rm").replace("(1,0)=Rs", "(1,0)=Rm"),
                   radius=2, to_move="B", turns=(4, 4), cell=(0, 0))
    lines = _chain(why, "[0, -1]")
    assert lines[0].startswith("Wave 1: [0, -1] (Mole) captured by BLUE, resolved by [0, 0]")
    assert "captor [0, 0] (Spy) over to RED" in lines[1]
    assert len(lines) == 2  # the Mole at (1,0) has no other attacker


def test_ae_21_two_trapped_groups_merged_recheck() -> None:
    why = _explain("(-1,-1)=Bs (1,-2)=Bs (1,1)=Bs (2,-1)=Bs (0,-1)=Rm (1,0)=Rs", radius=3,
                   to_move="B", turns=(4, 4), cell=(0, 0))
    assert "Capture chain of the group at [1, 0]" not in why  # safe at the re-check
    assert "captor [0, 0] (Spy) over to RED" in _chain(why, "[0, -1]")[1]


def test_ae_22_two_trapped_groups_order() -> None:
    why = _explain("(-1,-1)=Bs (1,-2)=Bs (1,1)=Bs (2,-1)=Bs (0,-1)=Rs (1,0)=Rm", radius=3,
                   to_move="B", turns=(4, 4), cell=(0, 0))
    assert _chain(why, "[0, -1]") == ["Wave 1: [0, -1] (Spy) captured by BLUE, resolved by "
                                      "[0, 0]."]
    second = _chain(why, "[1, 0]")
    assert second[0].startswith("Wave 1: [1, 0] (Mole) captured by BLUE, resolved by [0, 0]")
    assert "captor [0, 0] (Spy) over to RED" in second[1]


def test_ae_23_correct_accusation_ignores_free_edges() -> None:
    why = _explain("(0,0)=Bs (1,0)=Rm (2,-1)=Rs", radius=4, to_move="B", turns=(5, 5),
                   cell=(1, 1), face="C", mode="ACCUSE", target=(1, 0))
    assert "the accusation is correct" in why["Mole Catcher accusation"][0]
    assert "whatever its group's free edges" in why["Mole Catcher accusation"][0]
    assert why["The accused Mole"][0].startswith("The Mole at [1, 0] becomes a point card of BLUE")


def test_ae_24_wrong_accusation() -> None:
    why = _explain("(1,0)=Bs (1,-2)=Rs (2,-2)=Rs (2,-1)=Rs", radius=2, to_move="B",
                   turns=(4, 4), cell=(0, -1), face="C", mode="ACCUSE", target=(1, -2))
    line = why["Mole Catcher accusation"][0]
    assert line.startswith("[1, -2] is a Spy, not an active Mole: the accusation is wrong.")
    assert "no capture is checked this move" in line
    assert why["The lost Catcher"] == ["The Mole Catcher at [0, -1] becomes a point card of RED."]
    assert why["Score"][0] == "Score: BLUE 0, RED 1 (each side's point cards)."


def test_ae_26_immune_catcher_inside_a_trapped_group() -> None:
    why = _explain("(-1,-1)=Rs (-1,1)=Rs (1,-2)=Rs (2,-1)=Rs (0,-1)=Bs (0,0)=BC# (1,0)=Bs",
                   radius=2, to_move="R", turns=(5, 4), cell=(1, 1))
    # the immune Catcher (0,0) is skipped and blocks the chain: (0,-1) stays BLUE
    assert _chain(why, "[0, -1]") == ["Wave 1: [1, 0] (Spy) captured by RED, resolved by "
                                      "[1, 1]."]


def test_ae_27_same_without_immunity() -> None:
    why = _explain("(-1,-1)=Rs (-1,1)=Rs (1,-2)=Rs (2,-1)=Rs (0,-1)=Bs (0,0)=BC (1,0)=Bs",
                   radius=2, to_move="R", turns=(6, 5), cell=(1, 1))
    [title] = [t for t in why if t.startswith("Capture chain")]
    assert why[title][1:] == [
        "Wave 1: [1, 0] (Spy) captured by RED, resolved by [1, 1].",
        "Wave 2: [0, 0] (Mole Catcher) captured by RED, resolved by [1, 0].",
        "Wave 3: [0, -1] (Spy) captured by RED, resolved by [0, 0]."]


def test_ae_28_announced_catcher_defeats_a_mole_it_captures() -> None:
    why = _explain("(-1,-1)=Bs (1,1)=Bs (0,-1)=Rm (1,0)=Rm (1,-2)=Rs (2,-2)=Rs (2,-1)=Rs",
                   radius=2, to_move="B", turns=(4, 4), cell=(0, 0), face="C", mode="ACCUSE",
                   target=(0, -1))
    [title] = [t for t in why if t.startswith("Capture chain")]
    lines = why[title][1:]
    assert lines[0] == ("Wave 1: [1, 0] (Mole) captured by BLUE, resolved by [0, 0]. The "
                        "announced Mole Catcher defeats the Mole: no reversal.")
    assert len(lines) == 4 and why["Score"][0].startswith("Score: BLUE 5, RED 0")


def test_ae_29_cyber_attack_takes_a_mole() -> None:
    why = _explain("(0,0)=Bs (1,0)=Rm (2,-1)=Rs", radius=4, to_move="B", turns=(5, 5),
                   cell=(1, 1), face="X", mode="CYBER", target=(1, 0))
    assert why["Cyber Attack"][0].startswith("[1, 0] (Mole) becomes a point card of BLUE")
    assert not [t for t in why if t.startswith("Capture chain")]


def test_ae_30_cyber_attack_then_ordinary_capture() -> None:
    why = _explain("(0,0)=Bs (1,0)=Rm (2,-1)=Rs (2,-2)=Bs (3,-1)=Bs", radius=4, to_move="B",
                   turns=(5, 5), cell=(1, 1), face="X", mode="CYBER", target=(1, 0))
    assert _chain(why, "[2, -1]") == ["Wave 1: [2, -1] (Spy) captured by BLUE, resolved by "
                                      "[1, 0]."]


def test_ae_31_several_targets() -> None:
    why = _explain("(0,0)=Rs (1,-2)=Rs (1,0)=Bs", radius=4, to_move="B", turns=(5, 5),
                   cell=(0, -1), face="X", mode="CYBER", target=(1, -2))
    assert why["Cyber Attack"][0].startswith("[1, -2] (Spy) becomes a point card of BLUE")


def test_ae_32_self_surround() -> None:
    why = _explain("(0,0)=Bs (1,-2)=Rs (1,0)=Rs (2,-1)=Bs", radius=2, to_move="B",
                   turns=(4, 4), cell=(2, -2))
    assert why["Self-surround"][1:] == [
        "Wave 0: [2, -2] (Spy) captured by RED, resolved by [1, -2].",
        "Wave 1: [2, -1] (Spy) captured by RED, resolved by [2, -2]."]


def test_ae_33_self_surround_with_a_mole() -> None:
    why = _explain("(0,0)=Bs (1,-2)=Rs (1,0)=Rs (2,-1)=Bs", radius=2, to_move="B",
                   turns=(4, 4), cell=(2, -2), face="M")
    lines = why["Self-surround"][1:]
    assert lines[0].startswith("Wave 0: [2, -2] (Mole) captured by RED, resolved by [1, -2]")
    assert lines[1].startswith("Wave 0: Mole reversal: the Mole at [2, -2] turns its immediate "
                               "captor [1, -2] (Spy) over to BLUE")
    assert len(lines) == 2


def test_ae_34_enemy_captures_first_then_self_check_with_locked_captures() -> None:
    why = _explain("(-1,-1)=Rs (0,0)=Rs (1,-2)=Rs (1,0)=Rs (0,-1)=Bs (2,-1)=Bs", radius=2,
                   to_move="B", turns=(4, 4), cell=(2, -2))
    titles = list(why)
    assert titles.index("Capture chain of the group at [1, -2]") < titles.index("Self-surround")
    assert why["Self-surround"][1:] == [
        "Wave 0: [2, -2] (Spy) captured by RED, with no captor.",
        "Wave 1: [2, -1] (Spy) captured by RED, resolved by [2, -2]."]


def test_ae_38_last_card() -> None:
    why = _explain(AE36.replace(" (1,1)=Bs", ""), radius=2, to_move="R", turns=(7, 6),
                   cell=(1, 1), hands={"B": {}, "R": {"S": 1}})
    assert why["Self-surround"][1:] == [
        "Wave 0: [1, 1] (Spy) captured by BLUE, with no captor.",
        "Wave 1: [1, 0] (Spy) captured by BLUE, resolved by [1, 1]."]
    assert why["End of the game"][1] == "Final score BLUE 4, RED 4: a draw."
    assert list(why)[-2:] == ["End of the game", "Score"]


def test_setup_entry() -> None:
    [setup] = PAGES.explain(RULES.view(new_game(), None), None, 0)
    assert setup.title == "Set-up" and setup.lines[0].startswith("A board of radius")


# ------------------------------------------------------------------ properties


def _check(explanations: list[Explanation]) -> None:
    assert explanations
    for e in explanations:
        assert isinstance(e.title, str) and e.title
        assert e.lines and all(isinstance(line, str) and line for line in e.lines)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31))
def test_explain_never_raises_and_replays_identically(seed: int) -> None:
    """Every entry of a random game (random moves, no-shows) is explained in non-empty
    lines, and a replay of its record explains each entry exactly as the live run did."""
    options: dict[str, Any] = {"radius": 2}
    _, entries = play_random_platform_game(seed, options)
    record = Record("spyorlie", seed, options, SEATS, tuple(entries))
    live = new_game(options)
    rng = Rng(seed)
    for entry, replayed in enumerate(replay(record)):
        orders = record.turns[entry - 1] if entry else None
        if entry:
            parsed = {s: None if o is None else RULES.parse_orders(live, s, o)
                      for s, o in orders.items()}
            live = RULES.resolve(live, parsed, rng)
        explained = PAGES.explain(RULES.view(live, None), orders, entry)
        _check(explained)
        assert explained == PAGES.explain(RULES.view(replayed, None), orders, entry)
