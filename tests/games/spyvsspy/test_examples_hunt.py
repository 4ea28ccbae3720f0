"""Spec §10 E26–E34: HUNT (§6 T7) and where spies stand (S3)."""

from __future__ import annotations

import json

from spyhouse.games.spyvsspy.model import State
from tests.games.spyvsspy.fixture import play, seen, unobserved


def _set(state: State, seat: str, **fields: int) -> None:
    b = state.by_seat(seat)
    assert b is not None
    for name, value in fields.items():
        setattr(b, name, value)


def test_e26_hunt_least_covert_first(game: State) -> None:
    """E26: Charlie has covertness 5. In D Alpha#2 (3) HUNTs, Bravo#4 (2) and Charlie#7 (1)
    WORK; ``hunt-reveal`` gives Bravo 1 (BASE). The least covert brotherhood is hunted first,
    even though Charlie#7 has the lower skill: Bravo#4 dies, earns nothing, and Alpha learns
    Bravo's base. Charlie#7 earns 1 + 4 = 5 gp. The reveal is drawn for every brotherhood
    in bid order."""
    _set(game, "s3", covertness=5)
    t = play(game, {"s1": {2: ("HUNT", "D")}, "s2": {4: ("WORK", "D")}, "s3": {7: ("WORK", "D")}},
             script={"hunt-reveal": [2, 1, 2, 2]})
    assert t.draws("hunt-reveal") == [(2, 2), (2, 1), (2, 2), (2, 2)]
    assert t.result("s1", 2) == "killed a spy of Bravo; Bravo's base is in D Docks"
    assert t.result("s2", 4) == "killed by a hunter of Alpha"
    assert t.spy("s2", 4)["killed"] is True
    assert t.gp("s2") == 20
    assert t.news == ["Alpha killed a spy of Bravo"]
    assert t.result("s3", 7) == "earned 5 gp"
    assert t.gp("s3") == 25
    assert t.spy("s3", 7)["killed"] is False


def test_e27_hunt_eligibility(game: State) -> None:
    """E27: Alpha#2 (3) HUNTs in E among Bravo#1 (the leader), Bravo#2 (3, equal skill),
    Bravo#3 (a GUARD), Charlie#4 (HIDE), Charlie#5 (FOLLOWing Mr Orange into E) and Delta#7
    (1) guarded by Delta#8: none is eligible, "found no one to hunt"."""
    t = play(game, {"s1": {2: ("HUNT", "E")},
                    "s2": {1: ("WORK", "E"), 2: ("WORK", "E"), 3: ("GUARD", "E")},
                    "s3": {4: ("HIDE", "E"), 5: ("FOLLOW", "Mr Orange")},
                    "s4": {7: ("WORK", "E"), 8: ("GUARD", "E")}})
    assert t.result("s1", 2) == "found no one to hunt"
    assert t.result("s4", 8) == "guarded spy #7"
    assert t.result("s2", 3) == "guarded spy #2"
    assert t.spy("s3", 5)["at"] == "E"
    assert t.news == []
    for seat in ("s2", "s3", "s4"):
        assert not any(s["killed"] for s in t.view(seat)["spies"])


def test_e28_hunt_named_absent(game: State) -> None:
    """E28: Alpha#2 (3) HUNTs in D naming Charlie, but only Bravo#7 (1) is there: with no
    eligible Charlie spy "it'll be another brotherhood", and Bravo#7 dies."""
    t = play(game, {"s1": {2: ("HUNT", "D", "s3")}, "s2": {7: ("WORK", "D")}},
             script={"hunt-reveal": [1, 2, 1, 1]})
    assert t.result("s2", 7) == "killed by a hunter of Alpha"
    assert t.result("s1", 2) == "killed a spy of Bravo; Bravo's leader is Mr Orange"
    assert t.news == ["Alpha killed a spy of Bravo"]


def test_e29_hunt_sees_through_disguise(game: State) -> None:
    """E29: Alpha#2 (3) HUNTs in D naming Bravo; there Charlie#7 (1) is DISGUISEd as Bravo and
    Bravo#3 (3) WORKs (equal skill: not eligible). HUNT uses true brotherhoods: no Bravo spy
    is eligible, so Charlie#7 dies and, with ``hunt-reveal`` 2 for Charlie, Alpha learns
    Charlie's leader. #7's DISGUISE (before HUNT) still shows in its result."""
    t = play(game, {"s1": {2: ("HUNT", "D", "s2")},
                    "s3": {7: ("DISGUISE", "D", "s2")}, "s2": {3: ("WORK", "D")}},
             script={"hunt-reveal": [1, 1, 2, 1]})
    assert t.result("s1", 2) == "killed a spy of Charlie; Charlie's leader is Mr Green"
    assert t.news == ["Alpha killed a spy of Charlie"]
    assert t.result("s3", 7) == "disguised as Bravo; killed by a hunter of Alpha"
    assert t.spy("s2", 3)["killed"] is False


def test_e30_hunt_order_kills_before_acting(game: State) -> None:
    """E30: Charlie has covertness 3. In D Alpha#2 (3) and Bravo#4 (2) HUNT, Charlie#7 (1)
    WORKs. The highest skill hunts first: Alpha#2 kills the least covert eligible spy,
    Bravo#4 (covertness 1 < 3), which never hunts. Charlie#7 survives and earns 5 gp."""
    _set(game, "s3", covertness=3)
    t = play(game, {"s1": {2: ("HUNT", "D")}, "s2": {4: ("HUNT", "D")}, "s3": {7: ("WORK", "D")}},
             script={"hunt-reveal": [1, 1, 1, 1]})
    assert t.result("s2", 4) == "killed by a hunter of Alpha"
    assert t.result("s1", 2) == "killed a spy of Bravo; Bravo's base is in D Docks"
    assert t.result("s3", 7) == "earned 5 gp"
    assert t.spy("s3", 7)["killed"] is False
    assert t.news == ["Alpha killed a spy of Bravo"]


def test_e31_hunt_order_ties(game: State) -> None:
    """E31: Alpha covertness 2, Bravo gp 50, Charlie gp 10; Alpha#2, Bravo#2 and Charlie#2
    (all skill 3) HUNT in D, where Delta#7 and #8 (1) WORK. Ties on skill go to the lowest
    covertness, then the lowest gp: Charlie#2, Bravo#2, Alpha#2. Charlie#2 draws between
    Delta#7 and #8 (roll(2) = 1: #7), Bravo#2 kills #8 without a draw, Alpha#2 finds no one.
    News sorted by hunter name. If Bravo also had 10 gp, an ordering draw between
    [Bravo#2, Charlie#2] would come first; 1 puts Bravo#2 first."""
    _set(game, "s1", covertness=2)
    _set(game, "s2", gp=50)
    _set(game, "s3", gp=10)
    hunters = {"s1": {2: ("HUNT", "D")}, "s2": {2: ("HUNT", "D")}, "s3": {2: ("HUNT", "D")},
               "s4": {7: ("WORK", "D"), 8: ("WORK", "D")}}
    t = play(game, hunters, script={"hunt": [1], "hunt-reveal": [1, 1, 1, 1]})
    assert t.draws("hunt") == [(2, 1)]
    assert t.result("s4", 7) == "killed by a hunter of Charlie"
    assert t.result("s4", 8) == "killed by a hunter of Bravo"
    assert t.result("s3", 2) == "killed a spy of Delta; Delta's base is in I PigSty"
    assert t.result("s2", 2) == "killed a spy of Delta; Delta's base is in I PigSty"
    assert t.result("s1", 2) == "found no one to hunt"
    assert t.news == ["Bravo killed a spy of Delta", "Charlie killed a spy of Delta"]

    _set(game, "s2", gp=10)
    t = play(game, hunters, script={"hunt": [1, 2], "hunt-reveal": [1, 1, 1, 1]})
    assert t.draws("hunt") == [(2, 1), (2, 2)]  # ordering draw first, then Bravo's target
    assert t.result("s4", 8) == "killed by a hunter of Bravo"
    assert t.result("s4", 7) == "killed by a hunter of Charlie"
    assert t.result("s1", 2) == "found no one to hunt"


def test_e32_hunt_same_info_per_brotherhood(game: State) -> None:
    """E32 (FAQ sharing): ``hunt-reveal`` for Bravo is 2 (LEADER). Alpha#2 (3) kills Bravo#7
    in D and Charlie#2 (3) kills Bravo#8 in F: both learn the same kind of secret, Bravo's
    leader."""
    t = play(game, {"s1": {2: ("HUNT", "D")}, "s3": {2: ("HUNT", "F")},
                    "s2": {7: ("WORK", "D"), 8: ("WORK", "F")}},
             script={"hunt-reveal": [1, 2, 1, 1]})
    assert t.result("s1", 2) == "killed a spy of Bravo; Bravo's leader is Mr Orange"
    assert t.result("s3", 2) == "killed a spy of Bravo; Bravo's leader is Mr Orange"
    assert t.news == ["Alpha killed a spy of Bravo", "Charlie killed a spy of Bravo"]


def test_e33_workers_hunted_where_they_work(game: State) -> None:
    """E33 (FAQ new recruits): Bravo (9 spies, 20 gp): #2 RECRUITs, #7 (1) WORKs in H, where
    Alpha#3 (3) HUNTs; ``recruit`` draws 1. Spies stand in their regions from the start of
    the turn, so #7 is killed in H before WORK and earns nothing; #2 pays 9 in G for #10
    (skill 1, blank At), who was in no region and is counted nowhere. Bravo ends with 9
    spies and 11 gp."""
    t = play(game, {"s2": {2: ("RECRUIT",), 7: ("WORK", "H")}, "s1": {3: ("HUNT", "H")},
                    "s3": {3: ("WORK", "G")}},
             script={"recruit": [1], "hunt-reveal": [1, 1, 1, 1]})
    assert t.spy("s2", 7)["at"] == "H"
    assert t.result("s2", 7) == "killed by a hunter of Alpha"
    assert t.result("s2", 2) == "recruited spy #10 (skill 1) for 9 gp"
    recruit = t.spy("s2", 10)
    assert (recruit["skill"], recruit["at"], recruit["task"], recruit["result"]) == (
        1, None, None, None)
    assert t.view("s2")["me"]["nspies"] == 9
    bravo = t.after.by_seat("s2")
    assert bravo is not None
    assert [(s.number, s.at) for s in bravo.spies if s.number in (2, 7, 10)] == [
        (2, "G"), (10, None)]
    assert t.gp("s2") == 11
    assert seen(t.view("s1"), "H") == {"Bravo": 1, "WORK": 1}
    charlie = t.view("s3")
    assert seen(charlie, "G") == {"Bravo": 1, "RECRUIT": 1}
    # Bravo's spies Charlie can see: the recruiter in G and the 7 fillers; never #10.
    bravo_row = next(r for r in charlie["table"]["rows"] if r["label"] == "Bravo")
    assert sum(v for v in bravo_row["cells"].values() if isinstance(v, int)) == 8


def test_e34_killed_spies_do_not_report(game: State) -> None:
    """E34 (FAQ squealed): Bravo#7 (1) WORKs in E, Bravo's only spy there, and is killed by
    Alpha#2 (3); ``hunt-reveal`` gives Bravo 1. Alpha reads Bravo's base; Bravo's E column
    is "?" (a dead spy gives no report) and Bravo learns only that #7 was killed by a
    hunter of Alpha, not what was revealed."""
    t = play(game, {"s2": {7: ("WORK", "E")}, "s1": {2: ("HUNT", "E")}},
             script={"hunt-reveal": [1, 1, 1, 1]})
    assert t.result("s1", 2) == "killed a spy of Bravo; Bravo's base is in D Docks"
    bravo = t.view("s2")
    assert unobserved(bravo, "E")
    assert t.result("s2", 7) == "killed by a hunter of Alpha"
    assert t.spy("s2", 7)["at"] == "E"
    assert bravo["me"]["notices"] == []
    text = json.dumps(bravo)
    assert "base is in" not in text and "D Docks" not in text
    assert t.news == ["Alpha killed a spy of Bravo"]
