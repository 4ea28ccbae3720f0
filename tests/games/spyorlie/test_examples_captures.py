"""Acceptance examples AE-09 … AE-34 (spec §17): groups, chains, Moles, Catchers, Cyber, self."""

from __future__ import annotations

from spyhouse.games.spyorlie.model import Face
from tests.games.spyorlie.fixture import accuse, brief, cards, cyber, position, spy

AE12 = "(-1,-1)=Bs (0,0)=Bs (1,0)=Bs (1,-2)=Rs (2,-2)=Rs (2,-1)=Rs"
AE13 = "(-1,-1)=Bs (1,1)=Bs (0,-1)=Rs (1,-2)=Rs (1,0)=Rs (2,-2)=Rs (2,-1)=Rs"


def test_ae_09_merge_first() -> None:
    """(2,-1) lost its last free edge but merged with (1,-2), which keeps (0,-1)."""
    p = position("(0,0)=Bs (1,-2)=Bs (1,0)=Rs (2,-1)=Bs", radius=2, to_move="B", turns=(4, 4))
    events = p.apply(spy((2, -2)))
    assert brief(events) == ["place S (2,-2) B"]
    assert p.points() == (0, 0)


def test_ae_10_one_free_edge_protects() -> None:
    p = position("(-1,-1)=Bs (0,0)=Bs (1,-2)=Rs (2,-2)=Rs (2,-1)=Rs", radius=2, to_move="B",
                 turns=(3, 3))
    assert brief(p.apply(spy((1, 0)))) == ["place S (1,0) B"]
    red = [g for g in p.groups() if g.owner == 1 and (1, -2) in g.cells]
    assert red[0].liberties == ((0, -1),)


def test_ae_11_single_capture_boundary_closes() -> None:
    p = position("(0,0)=Bs (1,0)=Rs (2,-1)=Bs (2,-2)=Rs", radius=2, to_move="B", turns=(2, 2))
    assert brief(p.apply(spy((1, -2)))) == ["place S (1,-2) B",
                                            "chain w1 S (2,-2)->B by (1,-2)"]
    assert cards(p, [(1, -2), (2, -2), (1, 0)]) == "(1,-2)=Bs (2,-2)=B!s (1,0)=Rs"
    assert p.points() == (1, 0)
    assert any((1, 1) in g.liberties for g in p.groups() if (1, 0) in g.cells)


def test_ae_12_multi_wave_chain() -> None:
    p = position(AE12, radius=2, to_move="B", turns=(3, 3))
    assert brief(p.apply(spy((0, -1)))) == [
        "place S (0,-1) B",
        "chain w1 S (1,-2)->B by (0,-1)",
        "chain w2 S (2,-2)->B by (1,-2)",
        "chain w3 S (2,-1)->B by (2,-2)",
    ]
    assert cards(p, [(0, -1), (1, -2), (2, -2), (2, -1)]) == \
        "(0,-1)=Bs (1,-2)=B!s (2,-2)=B!s (2,-1)=B!s"
    assert p.points() == (3, 0)


def test_ae_13_two_branches_axial_tie() -> None:
    p = position(AE13, radius=2, to_move="B", turns=(4, 4))
    assert brief(p.apply(spy((0, 0)))) == [
        "place S (0,0) B",
        "chain w1 S (0,-1)->B by (0,0)",
        "chain w1 S (1,0)->B by (0,0)",
        "chain w2 S (1,-2)->B by (0,-1)",
        "chain w2 S (2,-1)->B by (1,0)",
        "chain w3 S (2,-2)->B by (1,-2)",
    ]
    assert p.points() == (5, 0)


def test_ae_14_point_cards_are_recaptured_and_never_reverse() -> None:
    p = position("(0,0)=Bs (1,0)=Rs (2,-2)=B!m (2,-1)=Bs", radius=2, to_move="R",
                 turns=(4, 3))
    assert p.points() == (1, 0)
    assert brief(p.apply(spy((1, -2)))) == [
        "place S (1,-2) R",
        "chain w1 M (2,-2)->R by (1,-2)",
        "chain w2 S (2,-1)->R by (2,-2)",
    ]
    assert cards(p, [(1, -2), (2, -2), (2, -1)]) == "(1,-2)=Rs (2,-2)=R!m (2,-1)=R!s"
    assert p.points() == (0, 2)


def test_ae_15_mole_in_wave_1() -> None:
    p = position(AE12.replace("(1,-2)=Rs", "(1,-2)=Rm"), radius=2, to_move="B", turns=(3, 3))
    assert brief(p.apply(spy((0, -1)))) == [
        "place S (0,-1) B",
        "chain w1 M (1,-2)->B by (0,-1)",
        "rev w1 (0,-1)->R",
    ]
    assert cards(p, [(0, -1), (1, -2), (2, -2), (2, -1)]) == \
        "(0,-1)=R!s (1,-2)=B!m (2,-2)=Rs (2,-1)=Rs"
    trapped = [g for g in p.groups() if (2, -2) in g.cells]
    assert trapped[0].liberties == ()  # F5: left trapped
    assert p.points() == (1, 1)


def test_ae_16_mole_in_wave_2() -> None:
    p = position(AE12.replace("(2,-2)=Rs", "(2,-2)=Rm"), radius=2, to_move="B", turns=(3, 3))
    assert brief(p.apply(spy((0, -1)))) == [
        "place S (0,-1) B",
        "chain w1 S (1,-2)->B by (0,-1)",
        "chain w2 M (2,-2)->B by (1,-2)",
        "rev w2 (1,-2)->R",
    ]
    assert cards(p, [(0, -1), (1, -2), (2, -2), (2, -1)]) == \
        "(0,-1)=Bs (1,-2)=R!s (2,-2)=B!m (2,-1)=Rs"
    assert p.points() == (1, 1)


def test_ae_17_tie_rule_picks_the_reversed_captor() -> None:
    p = position(AE13.replace("(2,-2)=Rs", "(2,-2)=Rm"), radius=2, to_move="B", turns=(4, 4))
    assert brief(p.apply(spy((0, 0)))) == [
        "place S (0,0) B",
        "chain w1 S (0,-1)->B by (0,0)",
        "chain w1 S (1,0)->B by (0,0)",
        "chain w2 S (1,-2)->B by (0,-1)",
        "chain w2 S (2,-1)->B by (1,0)",
        "chain w3 M (2,-2)->B by (1,-2)",
        "rev w3 (1,-2)->R",
    ]
    assert cards(p, [(0, -1), (1, 0), (2, -1), (1, -2)]) == \
        "(0,-1)=B!s (1,0)=B!s (2,-1)=B!s (1,-2)=R!s"
    assert p.points() == (4, 1)


def test_ae_18_reversal_priority_the_captors_other_target_waits() -> None:
    p = position(AE13.replace("(1,0)=Rs", "(1,0)=Rm"), radius=2, to_move="B", turns=(4, 4))
    assert brief(p.apply(spy((0, 0)))) == [
        "place S (0,0) B",
        "chain w1 M (1,0)->B by (0,0)",
        "rev w1 (0,0)->R",
    ]
    assert cards(p, [(0, 0), (1, 0), (0, -1)]) == "(0,0)=R!s (1,0)=B!m (0,-1)=Rs"
    assert p.points() == (1, 1)


def test_ae_19_reversal_priority_another_attacker_takes_over() -> None:
    p = position("(-1,-1)=Bs (0,-3)=Bs (1,1)=Bs (3,-1)=Bs (3,-3)=Bs (0,-1)=Rs (1,0)=Rs "
                 "(1,-2)=Rs (2,-1)=Rs (2,-2)=Rs (1,-3)=Rm", radius=3, to_move="B", turns=(6, 6))
    assert brief(p.apply(spy((0, 0)))) == [
        "place S (0,0) B",
        "chain w1 S (0,-1)->B by (0,0)",
        "chain w1 S (1,0)->B by (0,0)",
        "chain w2 S (1,-2)->B by (0,-1)",
        "chain w2 S (2,-1)->B by (1,0)",
        "chain w3 M (1,-3)->B by (1,-2)",
        "rev w3 (1,-2)->R",
        "chain w3 S (2,-2)->B by (2,-1)",
    ]
    assert p.points() == (5, 1)


def test_ae_20_two_moles_one_captor() -> None:
    p = position(AE13.replace("(0,-1)=Rs", "(0,-1)=Rm").replace("(1,0)=Rs", "(1,0)=Rm"),
                 radius=2, to_move="B", turns=(4, 4))
    assert brief(p.apply(spy((0, 0)))) == [
        "place S (0,0) B",
        "chain w1 M (0,-1)->B by (0,0)",
        "rev w1 (0,0)->R",
    ]
    assert cards(p, [(0, -1), (0, 0), (1, 0)]) == "(0,-1)=B!m (0,0)=R!s (1,0)=Rm"
    assert p.points() == (1, 1)


def test_ae_21_two_trapped_groups_merged_recheck() -> None:
    p = position("(-1,-1)=Bs (1,-2)=Bs (1,1)=Bs (2,-1)=Bs (0,-1)=Rm (1,0)=Rs", radius=3,
                 to_move="B", turns=(4, 4))
    assert brief(p.apply(spy((0, 0)))) == [
        "place S (0,0) B",
        "chain w1 M (0,-1)->B by (0,0)",
        "rev w1 (0,0)->R",
    ]
    assert cards(p, [(0, -1), (0, 0), (1, 0)]) == "(0,-1)=B!m (0,0)=R!s (1,0)=Rs"
    group = next(g for g in p.groups() if (1, 0) in g.cells)
    assert group.cells == ((0, 0), (1, 0)) and group.liberties == ((-1, 1),)
    assert p.points() == (1, 1)


def test_ae_22_two_trapped_groups_order() -> None:
    p = position("(-1,-1)=Bs (1,-2)=Bs (1,1)=Bs (2,-1)=Bs (0,-1)=Rs (1,0)=Rm", radius=3,
                 to_move="B", turns=(4, 4))
    assert brief(p.apply(spy((0, 0)))) == [
        "place S (0,0) B",
        "chain w1 S (0,-1)->B by (0,0)",
        "chain w1 M (1,0)->B by (0,0)",
        "rev w1 (0,0)->R",
    ]
    assert cards(p, [(0, -1), (0, 0), (1, 0)]) == "(0,-1)=B!s (0,0)=R!s (1,0)=B!m"
    assert p.points() == (2, 1)


def test_ae_23_correct_accusation_ignores_free_edges() -> None:
    p = position("(0,0)=Bs (1,0)=Rm (2,-1)=Rs", radius=4, to_move="B", turns=(5, 5))
    assert brief(p.apply(accuse((1, 1), (1, 0)))) == [
        "place C (1,1) B",
        "accuse (1,0) right M",
        "accusation w0 M (1,0)->B by (1,1)",
    ]
    assert cards(p, [(1, 0), (1, 1)]) == "(1,0)=B!m (1,1)=BC#"
    assert (p.to_move, p.turns_taken) == (1, (6, 5))
    assert p.points() == (1, 0)


def test_ae_24_wrong_accusation() -> None:
    p = position("(1,0)=Bs (1,-2)=Rs (2,-2)=Rs (2,-1)=Rs", radius=2, to_move="B", turns=(4, 4))
    assert brief(p.apply(accuse((0, -1), (1, -2)))) == [
        "place C (0,-1) B",
        "accuse (1,-2) wrong S",
        "catcher_lost w0 C (0,-1)->R by none",
    ]
    assert cards(p, [(0, -1), (1, -2), (2, -2), (2, -1)]) == \
        "(0,-1)=R!c (1,-2)=RS (2,-2)=Rs (2,-1)=Rs"
    assert p.points() == (0, 1)


def test_ae_26_immune_catcher_inside_a_trapped_group() -> None:
    p = position("(-1,-1)=Rs (-1,1)=Rs (1,-2)=Rs (2,-1)=Rs (0,-1)=Bs (0,0)=BC# (1,0)=Bs",
                 radius=2, to_move="R", turns=(5, 4))
    assert brief(p.apply(spy((1, 1)))) == ["place S (1,1) R", "chain w1 S (1,0)->R by (1,1)"]
    assert cards(p, [(0, -1), (0, 0), (1, 0)]) == "(0,-1)=Bs (0,0)=BC (1,0)=R!s"
    assert p.points() == (0, 1)


def test_ae_27_same_without_immunity() -> None:
    p = position("(-1,-1)=Rs (-1,1)=Rs (1,-2)=Rs (2,-1)=Rs (0,-1)=Bs (0,0)=BC (1,0)=Bs",
                 radius=2, to_move="R", turns=(6, 5))
    assert brief(p.apply(spy((1, 1)))) == [
        "place S (1,1) R",
        "chain w1 S (1,0)->R by (1,1)",
        "chain w2 C (0,0)->R by (1,0)",
        "chain w3 S (0,-1)->R by (0,0)",
    ]
    assert p.points() == (0, 3)


def test_ae_28_announced_catcher_defeats_a_mole_it_captures() -> None:
    p = position("(-1,-1)=Bs (1,1)=Bs (0,-1)=Rm (1,0)=Rm (1,-2)=Rs (2,-2)=Rs (2,-1)=Rs",
                 radius=2, to_move="B", turns=(4, 4))
    assert brief(p.apply(accuse((0, 0), (0, -1)))) == [
        "place C (0,0) B",
        "accuse (0,-1) right M",
        "accusation w0 M (0,-1)->B by (0,0)",
        "chain w1 M (1,0)->B by (0,0)",
        "chain w1 S (1,-2)->B by (0,-1)",
        "chain w2 S (2,-2)->B by (1,-2)",
        "chain w2 S (2,-1)->B by (1,0)",
    ]
    assert p.points() == (5, 0)
    assert cards(p, [(0, 0)]) == "(0,0)=BC#"


def test_ae_29_cyber_attack_takes_a_mole() -> None:
    p = position("(0,0)=Bs (1,0)=Rm (2,-1)=Rs", radius=4, to_move="B", turns=(5, 5))
    assert brief(p.apply(cyber((1, 1), (1, 0)))) == [
        "place X (1,1) B",
        "cyber w0 M (1,0)->B by (1,1)",
    ]
    assert cards(p, [(1, 0), (1, 1), (2, -1)]) == "(1,0)=B!m (1,1)=BX (2,-1)=Rs"
    assert p.points() == (1, 0)


def test_ae_30_cyber_attack_then_ordinary_capture() -> None:
    p = position("(0,0)=Bs (1,0)=Rm (2,-1)=Rs (2,-2)=Bs (3,-1)=Bs", radius=4, to_move="B",
                 turns=(5, 5))
    assert brief(p.apply(cyber((1, 1), (1, 0)))) == [
        "place X (1,1) B",
        "cyber w0 M (1,0)->B by (1,1)",
        "chain w1 S (2,-1)->B by (1,0)",
    ]
    assert p.points() == (2, 0)


def test_ae_31_several_targets() -> None:
    p = position("(0,0)=Rs (1,-2)=Rs (1,0)=Bs", radius=4, to_move="B", turns=(5, 5))
    cyber_moves = [(m.cell, m.target) for m in p.legal_moves() if m.face == Face.X]
    assert cyber_moves == [((-1, 1), (0, 0)), ((0, -1), (0, 0)), ((0, -1), (1, -2)),
                           ((1, -3), (1, -2)), ((2, -2), (1, -2))]
    assert brief(p.apply(cyber((0, -1), (1, -2)))) == [
        "place X (0,-1) B",
        "cyber w0 S (1,-2)->B by (0,-1)",
    ]
    assert cards(p, [(0, 0), (1, -2)]) == "(0,0)=Rs (1,-2)=B!s"
    assert p.points() == (1, 0)


def test_ae_32_self_surround() -> None:
    p = position("(0,0)=Bs (1,-2)=Rs (1,0)=Rs (2,-1)=Bs", radius=2, to_move="B", turns=(4, 4))
    assert brief(p.apply(spy((2, -2)))) == [
        "place S (2,-2) B",
        "self w0 S (2,-2)->R by (1,-2)",
        "self w1 S (2,-1)->R by (2,-2)",
    ]
    assert p.points() == (0, 2)


def test_ae_33_self_surround_with_a_mole() -> None:
    p = position("(0,0)=Bs (1,-2)=Rs (1,0)=Rs (2,-1)=Bs", radius=2, to_move="B", turns=(4, 4))
    assert brief(p.apply(spy((2, -2), Face.M))) == [
        "place M (2,-2) B",
        "self w0 M (2,-2)->R by (1,-2)",
        "rev w0 (1,-2)->B",
    ]
    assert cards(p, [(1, -2), (2, -2), (2, -1)]) == "(1,-2)=B!s (2,-2)=R!m (2,-1)=Bs"
    assert p.points() == (1, 1)


def test_ae_34_enemy_captures_first_then_self_check_with_locked_captures() -> None:
    p = position("(-1,-1)=Rs (0,0)=Rs (1,-2)=Rs (1,0)=Rs (0,-1)=Bs (2,-1)=Bs", radius=2,
                 to_move="B", turns=(4, 4))
    assert brief(p.apply(spy((2, -2)))) == [
        "place S (2,-2) B",
        "chain w1 S (1,-2)->B by (2,-2)",
        "self w0 S (2,-2)->R by none",
        "self w1 S (2,-1)->R by (2,-2)",
    ]
    assert cards(p, [(1, -2), (2, -2), (2, -1), (0, -1)]) == \
        "(1,-2)=B!s (2,-2)=R!s (2,-1)=R!s (0,-1)=Bs"
    assert p.points() == (1, 2)
