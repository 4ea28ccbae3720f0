"""Spec §10 E14–E25: GUARD (§6 T4), DISGUISE (T5) and FOLLOW (T6, S3.2)."""

from __future__ import annotations

from spyhouse.games.spyvsspy.model import State
from tests.games.spyvsspy.fixture import (
    DISGUISED,
    TASK_ROWS,
    labels,
    new_game,
    play,
    seen,
)

#: The Mr Egg FAQ's brotherhoods (E20–E25).
MOB_SEATS = (
    ("s1", "Toady's Mob", "Mr Egg", "C"),
    ("s2", "Greedy Gimps", "Mr Mauve", "E"),
    ("s3", "Hoodless Wonders", "Mr Rose", "F"),
)
TOADY, GIMPS, HOODLESS = "s1", "s2", "s3"


def test_e14_guard_protects_lowest_skill(game: State) -> None:
    """E14: in D Alpha has #1 (4), #4 (2) and #7 (1) WORKing, #8 (1) HUNTing and #9 (1)
    GUARDing; Bravo#2 (3) HUNTs in D. #9 guards the lowest-skill candidate: #7 and #8 tie at
    1, the lower number wins. Bravo#2 (skill 3) hunts before Alpha#8 (1); its eligible
    targets are #4 and #8 (the leader, the guarded #7 and the guard #9 are not), and the
    lowest skill, #8, dies before it can hunt. News: "Bravo killed a spy of Alpha"."""
    t = play(game, {"s1": {1: ("WORK", "D"), 4: ("WORK", "D"), 7: ("WORK", "D"),
                           8: ("HUNT", "D"), 9: ("GUARD", "D")},
                    "s2": {2: ("HUNT", "D")}},
             script={"hunt-reveal": [1, 2, 2, 2]})
    assert t.result("s1", 9) == "guarded spy #7"
    assert t.result("s2", 2) == "killed a spy of Alpha; Alpha's base is in B Beltram"
    line = t.spy("s1", 8)
    assert (line["killed"], line["at"]) == (True, "D")
    assert line["result"] == "killed by a hunter of Bravo"
    assert line["task"] == {"task": "HUNT", "region": "D"}
    assert [s["number"] for s in t.view("s1")["spies"] if s["killed"]] == [8]
    assert t.result("s1", 4) == "earned 6 gp"
    assert t.result("s1", 7) == "earned 5 gp"
    assert t.news == ["Bravo killed a spy of Alpha"]
    assert t.draws("hunt") == []
    assert t.view("s1")["me"]["nspies"] == 8


def test_e15_guards_equal_spies(game: State) -> None:
    """E15: in D Alpha#4 (2) and #7 (1) WORK, #8 and #9 GUARD; Bravo#2 (3) HUNTs there.
    Guards take the lowest skill first: #8 guards #7, #9 guards #4; as many guards as
    spies protect them all, so Bravo#2 "found no one to hunt"."""
    t = play(game, {"s1": {4: ("WORK", "D"), 7: ("WORK", "D"),
                           8: ("GUARD", "D"), 9: ("GUARD", "D")},
                    "s2": {2: ("HUNT", "D")}})
    assert t.result("s1", 8) == "guarded spy #7"
    assert t.result("s1", 9) == "guarded spy #4"
    assert t.result("s2", 2) == "found no one to hunt"
    assert t.news == []
    assert not any(s["killed"] for s in t.view("s1")["spies"])


def test_e16_guard_with_nobody(game: State) -> None:
    """E16: Alpha#9 (1) GUARDs in I, Alpha's only spy there; Bravo#2 (3) HUNTs in I and
    nobody else is there. The guard has "nobody to guard" but is still safe: Bravo#2
    "found no one to hunt" ("FAQ: guard with no one")."""
    t = play(game, {"s1": {9: ("GUARD", "I")}, "s2": {2: ("HUNT", "I")}})
    assert t.result("s1", 9) == "nobody to guard"
    assert t.spy("s1", 9)["killed"] is False
    assert t.result("s2", 2) == "found no one to hunt"
    assert t.news == []


def test_e17_guard_skips_leader_hider_follower(game: State) -> None:
    """E17: in E Alpha has its leader WORKing, #5 HIDing, #6 FOLLOWing Mr Orange (Bravo's
    leader WORKs in E) and #4 GUARDing. The leader, a hider and a follower are never
    guarded, so #4 has "nobody to guard"."""
    t = play(game, {"s1": {1: ("WORK", "E"), 5: ("HIDE", "E"), 6: ("FOLLOW", "Mr Orange"),
                           4: ("GUARD", "E")},
                    "s2": {1: ("WORK", "E")}})
    assert t.result("s1", 4) == "nobody to guard"
    assert t.result("s1", 6) == "followed Mr Orange to E Embassy; he was not disguised"
    assert t.spy("s1", 6)["at"] == "E"


def test_e18_disguise_changes_table(game: State) -> None:
    """E18: in F Alpha#4 DISGUISEs as Bravo, Bravo#3 and Charlie#3 WORK. Charlie sees two
    "Bravo" spies and no Alpha; Bravo sees one "Disguised as you"; Alpha sees Bravo 1,
    Charlie 1, WORK 2 (its own spies are never counted)."""
    t = play(game, {"s1": {4: ("DISGUISE", "F", "s2")},
                    "s2": {3: ("WORK", "F")}, "s3": {3: ("WORK", "F")}})
    assert t.result("s1", 4) == "disguised as Bravo"
    assert t.spy("s1", 4)["task"] == {"task": "DISGUISE", "region": "F", "brotherhood": "s2"}
    charlie = t.view("s3")
    assert labels(charlie) == ["Alpha", "Bravo", "Delta", DISGUISED, *TASK_ROWS,
                               "Mr Grey", "Mr Orange", "Mr Pink"]
    assert [row["kind"] for row in charlie["table"]["rows"]] == (
        ["brotherhood"] * 3 + ["disguised"] + ["task"] * 10 + ["leader"] * 3)
    assert charlie["table"]["columns"] == list("ABCDEFGHI")
    assert seen(charlie, "F") == {"Bravo": 2, "DISGUISE": 1, "WORK": 1}
    assert seen(t.view("s2"), "F") == {"Charlie": 1, DISGUISED: 1, "DISGUISE": 1, "WORK": 1}
    assert seen(t.view("s1"), "F") == {"Bravo": 1, "Charlie": 1, "WORK": 2}


def test_e19_disguise_random(game: State) -> None:
    """E19: Alpha#4 DISGUISEs in F without naming a brotherhood; the ``disguise`` draw
    roll(3) = 2 picks the second of Bravo, Charlie, Delta: Charlie. Bravo's observer in F
    counts a Charlie spy doing DISGUISE."""
    t = play(game, {"s1": {4: ("DISGUISE", "F")}, "s2": {3: ("WORK", "F")}},
             script={"disguise": [2]})
    assert t.draws("disguise") == [(3, 2)]
    assert t.result("s1", 4) == "disguised as Charlie"
    assert seen(t.view("s2"), "F") == {"Charlie": 1, "DISGUISE": 1}


def test_e20_mr_egg_undisguised() -> None:
    """E20 (FAQ Mr Egg): Toady's Mob's leader Mr Egg TRAINs in A, undisguised; Gimps#5
    WORKs in A; nobody else is there. Gimps' A column shows one Toady's Mob spy, TRAIN 1 and
    Mr Egg ticked: Mr Egg must lead Toady's Mob."""
    t = play(new_game(MOB_SEATS), {TOADY: {1: ("TRAIN", "A")}, GIMPS: {5: ("WORK", "A")}})
    gimps = t.view(GIMPS)
    assert labels(gimps)[:3] == ["Hoodless Wonders", "Toady's Mob", DISGUISED]
    assert labels(gimps)[-2:] == ["Mr Egg", "Mr Rose"]
    assert seen(gimps, "A") == {"Toady's Mob": 1, "TRAIN": 1, "Mr Egg": "✓"}
    assert t.result(TOADY, 1) == "skill +3 for 18 gp"


def test_e21_mr_egg_disguised() -> None:
    """E21 (FAQ Mr Egg): as E20 but Mr Egg DISGUISEs in A as Hoodless Wonders, and
    Hoodless#4 WORKs in A. Gimps now sees two Hoodless spies and no Toady's Mob; Hoodless
    sees one spy "Disguised as you"; both see Mr Egg."""
    t = play(new_game(MOB_SEATS), {TOADY: {1: ("DISGUISE", "A", HOODLESS)},
                                   GIMPS: {5: ("WORK", "A")}, HOODLESS: {4: ("WORK", "A")}})
    assert seen(t.view(GIMPS), "A") == {
        "Hoodless Wonders": 2, "DISGUISE": 1, "WORK": 1, "Mr Egg": "✓"}
    assert seen(t.view(HOODLESS), "A") == {
        "Greedy Gimps": 1, DISGUISED: 1, "DISGUISE": 1, "WORK": 1, "Mr Egg": "✓"}


def test_e22_disguised_escort() -> None:
    """E22 (FAQ why DISGUISE non-leaders): Mr Egg WORKs in A undisguised, but Toady#5
    DISGUISEs there as Hoodless Wonders; Gimps#5 WORKs in A. Gimps sees one Toady's Mob and
    one Hoodless spy with Mr Egg: he could lead either."""
    t = play(new_game(MOB_SEATS), {TOADY: {1: ("WORK", "A"), 5: ("DISGUISE", "A", HOODLESS)},
                                   GIMPS: {5: ("WORK", "A")}})
    assert seen(t.view(GIMPS), "A") == {
        "Toady's Mob": 1, "Hoodless Wonders": 1, "DISGUISE": 1, "WORK": 1, "Mr Egg": "✓"}


def test_e23_follow_disguised_leader() -> None:
    """E23: as E21, plus Gimps#6 FOLLOWs Mr Egg. #6 ends up in A and learns the disguise;
    Hoodless counts one more Greedy Gimps spy and FOLLOW 1. Followers are neither guarded nor
    hunted: with a Gimps guard and a Hoodless hunter (skill 3 > #6's 2) in A instead, the
    guard has nobody to guard and the hunter finds no one."""
    start = new_game(MOB_SEATS)
    t = play(start, {TOADY: {1: ("DISGUISE", "A", HOODLESS)},
                     GIMPS: {5: ("WORK", "A"), 6: ("FOLLOW", "Mr Egg")},
                     HOODLESS: {4: ("WORK", "A")}})
    assert t.result(GIMPS, 6) == (
        "followed Mr Egg to A Academy; he was disguised as Hoodless Wonders")
    assert t.spy(GIMPS, 6)["at"] == "A"
    assert t.spy(GIMPS, 6)["task"] == {"task": "FOLLOW", "leader": "Mr Egg"}
    assert seen(t.view(HOODLESS), "A") == {
        "Greedy Gimps": 2, DISGUISED: 1, "DISGUISE": 1, "FOLLOW": 1, "WORK": 1, "Mr Egg": "✓"}

    t = play(start, {TOADY: {1: ("DISGUISE", "A", HOODLESS)},
                     GIMPS: {6: ("FOLLOW", "Mr Egg"), 9: ("GUARD", "A")},
                     HOODLESS: {2: ("HUNT", "A")}})
    assert t.result(GIMPS, 9) == "nobody to guard"
    assert t.result(HOODLESS, 2) == "found no one to hunt"
    assert t.spy(GIMPS, 6)["killed"] is False
    assert t.news == []


def test_e24_follow_undisguised_leader() -> None:
    """E24: Gimps#6 FOLLOWs Mr Egg, who RECRUITs (so he is in G Ghetto, undisguised).
    #6 is in G, learns "he was not disguised", and Gimps observes G."""
    t = play(new_game(MOB_SEATS), {GIMPS: {6: ("FOLLOW", "Mr Egg")}, TOADY: {1: ("RECRUIT",)}},
             script={"recruit": [2]})
    assert t.result(GIMPS, 6) == "followed Mr Egg to G Ghetto; he was not disguised"
    assert t.spy(GIMPS, 6)["at"] == "G"
    assert seen(t.view(GIMPS), "G") == {"Toady's Mob": 1, "RECRUIT": 1, "Mr Egg": "✓"}


def test_e25_follow_target_eliminated() -> None:
    """E25: Gimps#6 FOLLOWs Mr Egg, but Hoodless declares Toady's Mob correctly and it is
    eliminated in S1. The FOLLOW becomes WORK in a random region: the Gimps'
    ``default:s2`` draw 8 is H Industrial (2 + 5 = 7 gp), with a notice."""
    t = play(new_game(MOB_SEATS), {GIMPS: {6: ("FOLLOW", "Mr Egg")}},
             declare={HOODLESS: [(TOADY, "Mr Egg", "C")]},
             script={"default:s2": [8]}, avoid="H")
    assert t.draws("default:s2") == [(9, 8)]
    assert t.spy(GIMPS, 6)["task"] == {"task": "WORK", "region": "H"}
    assert t.spy(GIMPS, 6)["at"] == "H"
    assert t.result(GIMPS, 6) == "earned 7 gp"
    assert t.notices(GIMPS) == [
        "spy 6: Mr Egg's brotherhood was eliminated; he worked in H Industrial instead"]
    assert t.gp(GIMPS) == 27
    assert t.news == ["Toady's Mob eliminated: correctly declared by Hoodless Wonders; "
                      "its leader was Mr Egg, its base C Cathedral"]
