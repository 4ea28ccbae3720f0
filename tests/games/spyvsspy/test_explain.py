"""Spy vs Spy's "why it happened" (issue 13 item 6): the replay's explanation of a turn.

Each worked example of spec §10 that shows a HUNT or SEARCH outcome is built, resolved,
and its explanation must name the outcome the spec states: who was chosen and why.
Properties: explain never raises on random games, its titles and lines are non-empty
strings, and a replayed record (views stored in parts and joined, as the platform keeps
them) explains every entry exactly as the live run did.
"""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spyhouse.core.plugin import Explanation
from spyhouse.core.record import Record, replay
from spyhouse.games.spyvsspy.model import State
from spyhouse.games.spyvsspy.plugin import PLUGIN
from tests.games.spyvsspy.fixture import FIXTURE_SEATS, Played, new_game, play
from tests.games.spyvsspy.randomplay import RULES, seats, sheets_of
from tests.games.spyvsspy.randomplay import play as random_play

PAGES = PLUGIN.pages
GAMES = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _explain(t: Played) -> dict[str, list[str]]:
    """Title -> lines of the turn's explanation."""
    return {e.title: list(e.lines) for e in PAGES.explain(t.view(None), None, t.after.turn)}


def _set(state: State, seat: str, **fields: int) -> None:
    b = state.by_seat(seat)
    assert b is not None
    for name, value in fields.items():
        setattr(b, name, value)


def _line(lines: list[str], start: str) -> str:
    """The one line that starts (after its indent) with ``start``."""
    found = [line.strip() for line in lines if line.strip().startswith(start)]
    assert len(found) == 1, (start, lines)
    return found[0]


def test_titles_follow_the_spec_order(game: State) -> None:
    """S1, S3, the eleven tasks T1–T11 in the spec's order, then S4 (spy2: its seven)."""
    titles = [e.title for e in PAGES.explain(play(game).view(None), None, 1)]
    assert titles == ["S1 Declarations", "S3 Orders and placement", "T1 HIDE", "T2 COVERT",
                      "T3 TRAIN", "T4 GUARD", "T5 DISGUISE", "T6 FOLLOW", "T7 HUNT",
                      "T8 FAKE", "T9 SEARCH", "T10 RECRUIT", "T11 WORK", "S4 End of turn"]
    spy2 = [e.title for e in PAGES.explain(play(new_game(variant="spy2")).view(None), None, 1)]
    assert [t for t in spy2 if t.startswith("T")] == [
        "T2 COVERT", "T3 TRAIN", "T4 GUARD", "T7 HUNT", "T9 SEARCH", "T10 RECRUIT", "T11 WORK"]


def test_setup_entry_names_leaders_and_bases(game: State) -> None:
    """Entry 0: each brotherhood's leader and base, and whether its base was chosen."""
    [setup] = PAGES.explain(RULES.view(game, None), None, 0)
    assert setup.lines[0] == "Alpha: leader Mr Pink, base B Beltram (chosen)."


# ------------------------------------------------------------------ HUNT (§10 E09–E34)


def test_e09_hide_safe_and_silent(game: State) -> None:
    """E09: the hider is listed as hiding, never hunted; Bravo#2 found no one to hunt."""
    t = play(game, {"s1": {5: ("HIDE", "D")}, "s2": {2: ("HUNT", "D")}})
    hunt = _explain(t)["T7 HUNT"]
    assert "Alpha#5 (skill 2, covertness 1) HIDE: hiding, never hunted." in _line(hunt, "Alpha#5")
    assert _line(hunt, "Bravo#2 (skill 3) found no one").endswith("Eligible: none.")


def test_e14_guard_protects_lowest_skill(game: State) -> None:
    """E14: Bravo#2 hunts first; of Alpha's eligible #4 and #8 the lowest skill, #8, dies;
    Alpha#8 was killed before its turn."""
    t = play(game, {"s1": {1: ("WORK", "D"), 4: ("WORK", "D"), 7: ("WORK", "D"),
                           8: ("HUNT", "D"), 9: ("GUARD", "D")}, "s2": {2: ("HUNT", "D")}},
             script={"hunt-reveal": [1, 2, 2, 2]})
    hunt = _explain(t)["T7 HUNT"]
    assert any("Alpha#7 (skill 1, covertness 1) WORK: guarded" in line for line in hunt)
    assert any("Alpha#1 (skill 4, covertness 1) WORK: a leader" in line for line in hunt)
    assert any("Alpha#9 (skill 1, covertness 1) GUARD: guarding" in line for line in hunt)
    order = _line(hunt, "Hunting order")
    assert order.index("Bravo#2") < order.index("Alpha#8")
    kill = _line(hunt, "Bravo#2 (skill 3) killed Alpha#8")
    assert "skill 1 the lowest of those" in kill
    assert kill.endswith('Eligible: Alpha#4, Alpha#8. Result: "killed a spy of Alpha; '
                         'Alpha\'s base is in B Beltram".')
    assert "was killed by an earlier hunter before its turn" in _line(hunt, "Alpha#8 (skill 1)")


def test_e15_guards_equal_spies(game: State) -> None:
    """E15: both of Alpha's workers are guarded: Bravo#2 found no one to hunt."""
    t = play(game, {"s1": {4: ("WORK", "D"), 7: ("WORK", "D"), 8: ("GUARD", "D"),
                           9: ("GUARD", "D")}, "s2": {2: ("HUNT", "D")}})
    hunt = _explain(t)["T7 HUNT"]
    assert "found no one to hunt" in _line(hunt, "Bravo#2 (skill 3)")
    assert _explain(t)["T4 GUARD"] == ["Alpha#8 (skill 1) in D Docks: guarded spy #7.",
                                       "Alpha#9 (skill 1) in D Docks: guarded spy #4."]


def test_e16_guard_with_nobody(game: State) -> None:
    """E16: the idle guard is still never hunted; Bravo#2 found no one to hunt."""
    t = play(game, {"s1": {9: ("GUARD", "I")}, "s2": {2: ("HUNT", "I")}})
    hunt = _explain(t)["T7 HUNT"]
    assert any("Alpha#9 (skill 1, covertness 1) GUARD: guarding, never hunted." in line
               for line in hunt)
    assert "found no one to hunt" in _line(hunt, "Bravo#2 (skill 3)")


def test_e26_hunt_least_covert_first(game: State) -> None:
    """E26: Bravo#4 dies because Bravo's covertness 1 beats Charlie's 5, although
    Charlie#7 has the lower skill."""
    _set(game, "s3", covertness=5)
    t = play(game, {"s1": {2: ("HUNT", "D")}, "s2": {4: ("WORK", "D")}, "s3": {7: ("WORK", "D")}},
             script={"hunt-reveal": [2, 1, 2, 2]})
    hunt = _explain(t)["T7 HUNT"]
    assert "covertness 1: 2 spies, covertness 5: 1 spy" in hunt[0]
    kill = _line(hunt, "Alpha#2 (skill 3) killed")
    assert kill.startswith("Alpha#2 (skill 3) killed Bravo#4 (skill 2, Bravo covertness 1): "
                           "Bravo's covertness 1 is the lowest among the eligible")
    assert "Eligible: Bravo#4, Charlie#7." in kill
    assert "Bravo's base is in D Docks" in kill


def test_e27_hunt_eligibility(game: State) -> None:
    """E27: each spy in E says why it cannot be hunted: leader, equal skill, guard, hider,
    follower, guarded; Alpha#2 found no one to hunt."""
    t = play(game, {"s1": {2: ("HUNT", "E")},
                    "s2": {1: ("WORK", "E"), 2: ("WORK", "E"), 3: ("GUARD", "E")},
                    "s3": {4: ("HIDE", "E"), 5: ("FOLLOW", "Mr Orange")},
                    "s4": {7: ("WORK", "E"), 8: ("GUARD", "E")}})
    hunt = _explain(t)["T7 HUNT"]
    why = {line.strip().split(" ")[0]: line.strip().rsplit(": ", 1)[1] for line in hunt
           if line.startswith("  ") and "(skill" in line and "covertness" in line
           and ": " in line and "Hunting" not in line and "found" not in line}
    assert why["Bravo#1"] == "a leader, never hunted."
    # Bravo#2 has Alpha#2's skill, and Bravo#3 guards it besides (T4)
    assert why["Bravo#2"] == "guarded, never hunted."
    assert why["Bravo#3"] == "guarding, never hunted."
    assert why["Charlie#4"] == "hiding, never hunted."
    assert why["Charlie#5"] == "following a leader, never hunted."
    assert why["Delta#7"] == "guarded, never hunted."
    assert why["Delta#8"] == "guarding, never hunted."
    line = _line(hunt, "Alpha#2 (skill 3) found no one to hunt")
    assert "skill lower than 3" in line and line.endswith("Eligible: none.")


def test_e28_hunt_named_absent(game: State) -> None:
    """E28: Alpha#2 named Charlie, which had no eligible spy in D, so Bravo#7 died."""
    t = play(game, {"s1": {2: ("HUNT", "D", "s3")}, "s2": {7: ("WORK", "D")}},
             script={"hunt-reveal": [1, 2, 1, 1]})
    kill = _line(_explain(t)["T7 HUNT"], "Alpha#2 (skill 3) killed Bravo#7")
    assert "it named Charlie, which had no eligible spy here, so any brotherhood" in kill


def test_e29_hunt_sees_through_disguise(game: State) -> None:
    """E29: Alpha#2 named Bravo; no true Bravo spy is eligible (Bravo#3 has equal skill),
    so the disguised Charlie#7 dies and Alpha learns Charlie's leader."""
    t = play(game, {"s1": {2: ("HUNT", "D", "s2")},
                    "s3": {7: ("DISGUISE", "D", "s2")}, "s2": {3: ("WORK", "D")}},
             script={"hunt-reveal": [1, 1, 2, 1]})
    kill = _line(_explain(t)["T7 HUNT"], "Alpha#2 (skill 3) killed Charlie#7")
    assert "it named Bravo, which had no eligible spy here" in kill
    assert "Eligible: Charlie#7." in kill
    assert "Charlie's leader is Mr Green" in kill


def test_e30_hunt_order_kills_before_acting(game: State) -> None:
    """E30: Alpha#2 (skill 3) hunts first and kills Bravo#4, which never hunts."""
    _set(game, "s3", covertness=3)
    t = play(game, {"s1": {2: ("HUNT", "D")}, "s2": {4: ("HUNT", "D")}, "s3": {7: ("WORK", "D")}},
             script={"hunt-reveal": [1, 1, 1, 1]})
    hunt = _explain(t)["T7 HUNT"]
    assert "Bravo's covertness 1 is the lowest" in _line(hunt, "Alpha#2 (skill 3) killed Bravo#4")
    assert "before its turn and did not hunt" in _line(hunt, "Bravo#4 (skill 2)")


def test_e31_hunt_order_ties(game: State) -> None:
    """E31: the order Charlie#2, Bravo#2, Alpha#2 (covertness, then gp); Charlie#2 draws
    between Delta#7 and #8; Bravo#2 takes #8 with no draw; Alpha#2 finds no one."""
    _set(game, "s1", covertness=2)
    _set(game, "s2", gp=50)
    _set(game, "s3", gp=10)
    t = play(game, {"s1": {2: ("HUNT", "D")}, "s2": {2: ("HUNT", "D")}, "s3": {2: ("HUNT", "D")},
                    "s4": {7: ("WORK", "D"), 8: ("WORK", "D")}},
             script={"hunt": [1], "hunt-reveal": [1, 1, 1, 1]})
    hunt = _explain(t)["T7 HUNT"]
    assert _line(hunt, "Hunting order").endswith(
        "Charlie#2 (skill 3, covertness 1, 10 gp), Bravo#2 (skill 3, covertness 1, 50 gp), "
        "Alpha#2 (skill 3, covertness 2, 20 gp).")
    charlie = _line(hunt, "Charlie#2 (skill 3) killed Delta#7")
    assert "drawn at random among 2 tied" in charlie
    bravo = _line(hunt, "Bravo#2 (skill 3) killed Delta#8")
    assert "drawn" not in bravo
    assert "found no one to hunt" in _line(hunt, "Alpha#2 (skill 3)")


def test_e31_hunt_order_tie_drawn(game: State) -> None:
    """E31, second half: Bravo and Charlie both at 10 gp: their places were drawn."""
    _set(game, "s1", covertness=2)
    _set(game, "s2", gp=10)
    _set(game, "s3", gp=10)
    t = play(game, {"s1": {2: ("HUNT", "D")}, "s2": {2: ("HUNT", "D")}, "s3": {2: ("HUNT", "D")},
                    "s4": {7: ("WORK", "D"), 8: ("WORK", "D")}},
             script={"hunt": [1, 2], "hunt-reveal": [1, 1, 1, 1]})
    order = _line(_explain(t)["T7 HUNT"], "Hunting order")
    assert ("Bravo#2 (skill 3, covertness 1, 10 gp; place drawn), Charlie#2 (skill 3, "
            "covertness 1, 10 gp; place drawn), Alpha#2 (skill 3, covertness 2, 20 gp)") in order


def test_e32_hunt_same_info_per_brotherhood(game: State) -> None:
    """E32: two hunters in two regions both learn Bravo's leader."""
    t = play(game, {"s1": {2: ("HUNT", "D")}, "s3": {2: ("HUNT", "F")},
                    "s2": {7: ("WORK", "D"), 8: ("WORK", "F")}},
             script={"hunt-reveal": [1, 2, 1, 1]})
    hunt = _explain(t)["T7 HUNT"]
    assert "Bravo's leader is Mr Orange" in _line(hunt, "Alpha#2 (skill 3) killed Bravo#7")
    assert "Bravo's leader is Mr Orange" in _line(hunt, "Charlie#2 (skill 3) killed Bravo#8")


def test_e33_workers_hunted_where_they_work(game: State) -> None:
    """E33: Bravo#7 is killed in H before WORK; the recruit of G is in no region."""
    t = play(game, {"s2": {2: ("RECRUIT",), 7: ("WORK", "H")}, "s1": {3: ("HUNT", "H")},
                    "s3": {3: ("WORK", "G")}},
             script={"recruit": [1], "hunt-reveal": [1, 1, 1, 1]})
    why = _explain(t)
    assert "killed Bravo#7" in _line(why["T7 HUNT"], "Alpha#3 (skill 3)")
    assert "Bravo#2 (skill 3): recruited spy #10 (skill 1) for 9 gp." in why["T10 RECRUIT"]


def test_e34_killed_spies_do_not_report(game: State) -> None:
    """E34: Alpha reads Bravo's base; the explanation (host only) says so."""
    t = play(game, {"s2": {7: ("WORK", "E")}, "s1": {2: ("HUNT", "E")}},
             script={"hunt-reveal": [1, 1, 1, 1]})
    kill = _line(_explain(t)["T7 HUNT"], "Alpha#2 (skill 3) killed Bravo#7")
    assert kill.endswith('Result: "killed a spy of Bravo; Bravo\'s base is in D Docks".')


# ------------------------------------------------------------------ SEARCH (§10 E35–E45)


def _searchable(game: State) -> State:
    _set(game, "s2", covertness=3)
    _set(game, "s3", covertness=1)
    return game


def _search(t: Played, who: str) -> str:
    return _line(_explain(t)["T9 SEARCH"], who)


def test_e35_search_least_covert(game: State) -> None:
    """E35: Charlie, the least covert base in D, 2 bases."""
    t = play(_searchable(game), {"s1": {4: ("SEARCH", "D")}})
    search = _explain(t)["T9 SEARCH"]
    assert search[0] == ("In D Docks: bases here, least covert first: Charlie (covertness 1), "
                         "Bravo (covertness 3); fake entries planted (T8): none.")
    assert _search(t, "Alpha#4") == ('Alpha#4 (skill 2) was told "base of Charlie reported '
                                     'here; bases here: 2": the least covert base here other '
                                     'than its own.')


def test_e36_search_named(game: State) -> None:
    """E36: naming Bravo gives Bravo; naming Delta (based in I) gives Charlie."""
    t = play(_searchable(game), {"s1": {4: ("SEARCH", "D", "s2")}})
    assert _search(t, "Alpha#4").endswith(
        "it named Bravo: the named brotherhood's base is here.")
    t = play(game, {"s1": {4: ("SEARCH", "D", "s4")}})
    line = _search(t, "Alpha#4")
    assert '"base of Charlie reported here; bases here: 2"' in line
    assert "it named Delta, which has no base here; so the least covert base" in line


def test_e37_search_fake_unnamed(game: State) -> None:
    """E37: Delta's fake is returned, and counted: 3."""
    t = play(_searchable(game), {"s4": {5: ("FAKE", "D")}, "s1": {4: ("SEARCH", "D")}})
    assert "fake entries planted (T8): Delta#5." in _explain(t)["T9 SEARCH"][0]
    line = _search(t, "Alpha#4")
    assert '"base of Delta reported here; bases here: 3"' in line
    assert "the only fake entry planted here by another brotherhood" in line


def test_e38_search_fake_named_real(game: State) -> None:
    """E38: Bravo named, but Bravo is not faking: the fake masks its base."""
    t = play(_searchable(game), {"s4": {5: ("FAKE", "D")}, "s1": {4: ("SEARCH", "D", "s2")}})
    line = _search(t, "Alpha#4")
    assert '"base of Delta reported here; bases here: 3"' in line
    assert "it named Bravo, but while another brotherhood's fake is here" in line


def test_e39_search_fake_in_own_region(game: State) -> None:
    """E39: #4 named Bravo, which fakes in its own region: Bravo; #5 draws Delta among 2."""
    t = play(_searchable(game), {"s2": {5: ("FAKE", "D")}, "s4": {5: ("FAKE", "D")},
                                 "s1": {4: ("SEARCH", "D", "s2"), 5: ("SEARCH", "D")}},
             script={"search": [2]})
    four = _search(t, "Alpha#4")
    assert '"base of Bravo reported here; bases here: 4"' in four
    assert "it named Bravo: the named brotherhood's base is here and it planted a fake" in four
    five = _search(t, "Alpha#5")
    assert '"base of Delta reported here; bases here: 4"' in five
    assert "drawn at random among 2" in five


def test_e40_search_own_fake_ignored(game: State) -> None:
    """E40: Alpha#4 ignores its own fake (Charlie); Bravo#6 gets Alpha's fake."""
    t = play(_searchable(game), {"s1": {5: ("FAKE", "D"), 4: ("SEARCH", "D")},
                                 "s2": {6: ("SEARCH", "D")}})
    assert "the least covert base here other than its own" in _search(t, "Alpha#4")
    assert '"base of Charlie reported here; bases here: 2"' in _search(t, "Alpha#4")
    bravo = _search(t, "Bravo#6")
    assert '"base of Alpha reported here; bases here: 2"' in bravo
    assert "the only fake entry planted here by another brotherhood" in bravo


def test_e41_search_own_base_unavoidable(game: State) -> None:
    """E41: only Alpha's own base in B."""
    t = play(_searchable(game), {"s1": {4: ("SEARCH", "B")}})
    assert _search(t, "Alpha#4").endswith(
        "no other base and no fake here, so only its own base.")


def test_e42_search_two_fakes_random(game: State) -> None:
    """E42: two fakes in C: drawn at random (not by covertness) among 2: Bravo."""
    t = play(_searchable(game), {"s2": {5: ("FAKE", "C")}, "s3": {5: ("FAKE", "C")},
                                 "s1": {4: ("SEARCH", "C")}}, script={"search": [1]})
    line = _search(t, "Alpha#4")
    assert '"base of Bravo reported here; bases here: 2"' in line
    assert "drawn at random among 2 (fakes are drawn, not chosen by covertness" in line


def test_e43_two_searches_one_fake(game: State) -> None:
    """E43: both searchers read Delta, 3; no draw."""
    t = play(_searchable(game), {"s4": {5: ("FAKE", "D")},
                                 "s1": {4: ("SEARCH", "D"), 5: ("SEARCH", "D")}})
    for who in ("Alpha#4", "Alpha#5"):
        line = _search(t, who)
        assert '"base of Delta reported here; bases here: 3"' in line
        assert "the only fake entry" in line


def test_e44_search_count_pigsty() -> None:
    """E44: 7 = 6 real bases + 1 fake in I; the count rule is stated."""
    eight = [*FIXTURE_SEATS[:2],
             ("s3", "Charlie", "Mr Green", "I"), ("s4", "Delta", "Mr Grey", "I"),
             ("s5", "Echo", "Mr Navy", "I"), ("s6", "Foxtrot", "Mr Ochre", "I"),
             ("s7", "Golf", "Mr Aqua", "I"), ("s8", "Hotel", "Mr Yellow", "I")]
    state = new_game(eight)
    _set(state, "s2", covertness=3)
    t = play(state, {"s2": {5: ("FAKE", "I")}, "s1": {4: ("SEARCH", "I")}})
    search = _explain(t)["T9 SEARCH"]
    assert search[0].startswith("In I PigSty: bases here, least covert first: Charlie "
                                "(covertness 1), Delta (covertness 1)")
    assert '"base of Bravo reported here; bases here: 7"' in _search(t, "Alpha#4")
    assert search[-1].startswith('"bases here" counts the other brotherhoods\' bases and every '
                                 "fake entry")


def test_e45_killed_faker_plants_nothing(game: State) -> None:
    """E45: Delta#5 is killed in T7 and plants nothing: Charlie, 2."""
    t = play(_searchable(game), {"s4": {5: ("FAKE", "D")},
                                 "s1": {2: ("HUNT", "D"), 4: ("SEARCH", "D")}},
             script={"hunt-reveal": [1, 1, 1, 1]})
    why = _explain(t)
    assert "killed Delta#5" in _line(why["T7 HUNT"], "Alpha#2 (skill 3)")
    assert why["T8 FAKE"] == ["Delta#5 (skill 2) in D Docks: killed by a hunter of Alpha "
                              "before acting."]
    assert "fake entries planted (T8): none." in why["T9 SEARCH"][0]
    assert '"base of Charlie reported here; bases here: 2"' in _search(t, "Alpha#4")


# ------------------------------------------------------------------ spy2 (§10 E62, E63)


def test_e62_spy2_search_threshold() -> None:
    """E62: skill × turn must exceed covertness: 6 finds nothing, 9 finds Bravo."""
    spy2 = new_game(variant="spy2")
    spy2.turn = 2
    _set(spy2, "s2", covertness=6)
    _set(spy2, "s3", covertness=7)
    t = play(spy2, {"s1": {4: ("SEARCH", "D"), 2: ("SEARCH", "D")}})
    four = _search(t, "Alpha#4")
    assert '"no base found; bases here: 2": no findable base other than its own here.' in four
    two = _search(t, "Alpha#2")
    assert '"base of Bravo reported here; bases here: 2"' in two
    assert "findable (skill × turn = 9)" in two


def test_e63_spy2_guard_doubles() -> None:
    """E63: guarded Alpha#7 defends with 2: a skill-2 hunter finds no one, skill 3 kills it."""
    alpha = {7: ("WORK", "D"), 9: ("GUARD", "D")}
    t = play(new_game(variant="spy2"), {"s1": alpha, "s2": {4: ("HUNT", "D")}})
    hunt = _explain(t)["T7 HUNT"]
    assert any("Alpha#7 (skill 1, covertness 1) WORK: huntable, guarded (defence 2)." in line
               for line in hunt)
    assert "defence lower than 2" in _line(hunt, "Bravo#4 (skill 2) found no one to hunt")
    t = play(new_game(variant="spy2"), {"s1": alpha, "s2": {2: ("HUNT", "D")}},
             script={"hunt-reveal": [1, 1, 1, 1]})
    kill = _line(_explain(t)["T7 HUNT"], "Bravo#2 (skill 3) killed Alpha#7")
    assert "(skill 1, defence 2 (guarded), Alpha covertness 1)" in kill
    assert "defence 2 the lowest of those" in kill


# ------------------------------------------------------------------ S1 (§10 E49)


def test_e49_declaration_correct(game: State) -> None:
    """E49: the declaration is judged correct and Bravo falls in D2."""
    _set(game, "s2", gp=30)
    t = play(game, declare={"s1": [("s2", "Mr Orange", "D")]})
    assert _explain(t)["S1 Declarations"] == [
        'Alpha declared Bravo: Mr Orange, base D Docks: correct. Alpha was told "correct: '
        'you receive 30 gp and a Life".',
        "Bravo was eliminated: a valid correct declaration on it (D2)."]


# ------------------------------------------------------------------ properties


def _check(explanations: list[Explanation]) -> None:
    assert explanations
    for e in explanations:
        assert isinstance(e, Explanation)
        assert isinstance(e.title, str) and e.title
        assert e.lines and all(isinstance(line, str) and line for line in e.lines)


@GAMES
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6),
       variant=st.sampled_from(["classic", "spy2"]))
def test_explain_never_raises_on_random_games(seed: int, players: int, variant: str) -> None:
    """Every entry of a random game is explained in non-empty titles and lines."""
    states = random_play(seed, players, 8, variant)
    for entry, state in enumerate(states):
        orders = sheets_of(state) if entry else None
        _check(PAGES.explain(RULES.view(state, None), orders, entry))


def _stored_host(state: State) -> dict[str, Any]:
    """The host view as the platform keeps it: stored in parts, JSON round trip, joined."""
    stored = RULES.stored_views(state, [b.seat for b in state.brotherhoods])
    shared = json.loads(json.dumps(stored.shared))
    part = json.loads(json.dumps(stored.parts[None]))
    return RULES.joined_view(shared, part)


@GAMES
@given(seed=st.integers(0, 2**32), players=st.integers(2, 6),
       variant=st.sampled_from(["classic", "spy2"]))
def test_replayed_record_explains_as_the_live_run(seed: int, players: int, variant: str) -> None:
    """The explanation of every entry of a replayed record (its host view stored and
    joined) equals the live run's."""
    states = random_play(seed, players, 6, variant)
    record = Record("spyvsspy", seed, {"variant": variant}, tuple(seats(players)),
                    tuple(sheets_of(s) for s in states[1:]))
    for entry, (live, replayed) in enumerate(zip(states, replay(record), strict=True)):
        orders = record.turns[entry - 1] if entry else None
        assert (PAGES.explain(RULES.view(live, None), orders, entry)
                == PAGES.explain(_stored_host(replayed), orders, entry))


def test_big_game_record_stays_bounded() -> None:
    """At many hunters in one region the record lists the first 25 and counts the rest."""
    names = ("Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf", "Hotel")
    many = [(f"s{i}", f"{names[(i - 1) % 8]} {i}", f"Mr {c}", "I")
            for i, c in enumerate(("Pink", "Orange", "Green", "Grey", "Navy", "Ochre", "Aqua",
                                   "Yellow", "Black", "Mauve", "Rose", "Egg"), start=1)]
    state = new_game(many)
    orders = {seat: {n: ("HUNT", "D") for n in range(2, 6)} for seat, *_ in many}
    t = play(state, orders)
    [region] = t.view(None)["explain"]["hunt"]
    assert len(region["hunters"]) == 25 and region["unlisted"]["hunters"] == 48 - 25
    assert "reasons" in region and "listed" not in region
    hunt = _explain(t)["T7 HUNT"]
    assert any(line.strip().startswith("… and 23 more hunters") for line in hunt)
