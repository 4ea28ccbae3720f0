"""The player's notebook page (``spyvsspy/notebook_page.py``, issue 14 item 7): worked
deductions in the page's words, and the property that a seat's notebook depends on
nothing that seat cannot know.

Scenarios use the §10 fixture: Alpha s1 (Mr Pink, B), Bravo s2 (Mr Orange, D), Charlie s3
(Mr Green, D), Delta s4 (Mr Grey, I). The notebook is Alpha's.
"""

from __future__ import annotations

import copy
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from spyhouse.games.spyvsspy.model import REGIONS, SeatLog, State, leader_pool
from spyhouse.games.spyvsspy.notebook_page import NAMES_SHOWN, NotebookPage, RivalRow, notebook
from tests.games.spyvsspy.fixture import RULES, new_game, play
from tests.games.spyvsspy.randomplay import play as random_game

THREE = ("Mr Green", "Mr Grey", "Mr Orange")


def _page(*states: State, seat: str = "s1") -> NotebookPage:
    page = notebook([RULES.view(state, seat) for state in states])
    assert page is not None and page.contradictions == 0
    return page


def _rival(page: NotebookPage, seat: str) -> RivalRow:
    rows = [row for row in page.rivals if row.seat == seat]
    assert rows, f"{seat} is not among the rivals the page details"
    return rows[0]


def test_at_the_start_nothing_is_known(game: State) -> None:
    page = _page(game)
    assert page.rivals == () and page.unknown == ("Bravo", "Charlie", "Delta")
    assert page.evidence == () and page.certain_count == 0


def test_a_follow_result_narrows_a_rivals_leaders(game: State) -> None:
    """E23: "followed Mr Green to A Academy; he was disguised as Bravo": not Bravo's."""
    played = play(game, {"s3": {1: ("DISGUISE", "A", "s2")}, "s2": {4: ("WORK", "A")},
                         "s1": {5: ("WORK", "A"), 6: ("FOLLOW", "Mr Green")}})
    page = _page(game, played.after)
    bravo = _rival(page, "s2")
    assert bravo.leaders == ("Mr Grey", "Mr Orange")
    assert bravo.leaders_text == "Mr Grey, Mr Orange"
    assert [e.line for e in bravo.evidence if e.spy] == [
        "Turn 1: spy #6 FOLLOW Mr Green: followed Mr Green to A Academy; "
        "he was disguised as Bravo"]
    assert _rival(page, "s3").leaders == THREE  # the follow says nothing about Charlie


def test_a_sighting_where_nobody_was_disguised(game: State) -> None:
    """E20: Mr Green ticked in A, where only Charlie is counted and DISGUISE is 0: he is
    Charlie's leader, and the page says why."""
    page = _page(game, play(game, {"s3": {1: ("TRAIN", "A")}, "s1": {5: ("WORK", "A")}}).after)
    charlie = _rival(page, "s3")
    assert charlie.leaders_text == "Mr Green"
    assert ("Turn 1: Mr Green was seen in A Academy, where no spy was disguised: he leads "
            "Charlie") in [e.line for e in charlie.evidence]
    assert _rival(page, "s2").leaders == ("Mr Grey", "Mr Orange")


def test_a_clean_search_fixes_a_base_and_excludes_the_rest(game: State) -> None:
    """One base in I, and it is Delta's: Delta's base is I, nobody else's is."""
    played = play(game, {"s1": {4: ("SEARCH", "I")}}, avoid="I")
    page = _page(game, played.after)
    delta = _rival(page, "s4")
    assert delta.bases == ("I PigSty",)
    assert delta.evidence[0].line == ("Turn 1: spy #4 SEARCH I: base of Delta reported here; "
                                      "bases here: 1")
    assert "I PigSty" not in _rival(page, "s2").bases


def test_a_named_search_not_returned_excludes_its_base(game: State) -> None:
    page = _page(game, play(game, {"s1": {4: ("SEARCH", "D", "s4")}}).after)
    assert "D Docks" not in _rival(page, "s4").bases
    assert any("SEARCH D brotherhood Delta" in e.line for e in _rival(page, "s4").evidence)


def test_a_hunt_answer_is_certain(game: State) -> None:
    """A HUNT naming Bravo's leader: certain, and it leaves every other rival's list."""
    played = play(game, {"s1": {2: ("HUNT", "H")}, "s2": {7: ("WORK", "H")}},
                  script={"hunt-reveal": [2, 2, 2, 2]})
    page = _page(game, played.after)
    bravo = _rival(page, "s2")
    assert bravo.leaders_text == "Mr Orange" and bravo.leader_count == 1
    assert "Mr Orange is" not in bravo.evidence[0].line
    assert bravo.evidence[0].line.endswith("Bravo's leader is Mr Orange")
    assert _rival(page, "s3").leaders == ("Mr Green", "Mr Grey")


def test_base_and_leader_make_it_certain(game: State) -> None:
    first = play(game, {"s1": {2: ("HUNT", "H")}, "s3": {7: ("WORK", "H")}},
                 script={"hunt-reveal": [1, 1, 1, 1]})
    second = play(first.after, {"s3": {1: ("TRAIN", "A")}, "s1": {5: ("WORK", "A")}})
    page = _page(game, first.after, second.after)
    charlie = _rival(page, "s3")
    assert charlie.certain == ("Mr Green", "D Docks") and page.certain_count == 1
    assert charlie.confidence == 1.0


def test_a_wrong_declaration_is_listed(game: State) -> None:
    played = play(game, {}, declare={"s1": [("s2", "Mr Grey", "A")]})
    page = _page(game, played.after)
    assert page.declarations and page.declarations[0].startswith(
        "Turn 1: you declared Bravo: Mr Grey in A Academy: ")


def test_a_reread_view_changes_nothing(game: State) -> None:
    after = play(game, {"s1": {4: ("SEARCH", "I")}}, avoid="I").after
    views = [RULES.view(game, "s1"), RULES.view(after, "s1")]
    assert notebook(views) == notebook([*views, views[-1], views[0]])


def test_many_candidates_are_counted_not_listed() -> None:
    """A big game: a rival with more than ``NAMES_SHOWN`` names left gets a count."""
    names = leader_pool(NAMES_SHOWN + 6)
    seats = tuple((f"s{n}", f"Band {n:02}", names[n], "ABCDEFGHI"[n % 9])
                  for n in range(1, NAMES_SHOWN + 6))
    state = new_game(seats)
    played = play(state, {"s1": {4: ("SEARCH", "I")}}, avoid="I")
    page = _page(state, played.after)
    assert any(row.leader_count > NAMES_SHOWN for row in page.rivals)
    for row in page.rivals:
        if row.leader_count > NAMES_SHOWN:
            assert row.leaders == () and row.leaders_text.startswith("any of ")


# ---------------------------------------------------------------- what the seat cannot know


def _hide_differently(state: State, seat: str, data: st.DataObject) -> State:
    """A copy of ``state`` changed only where ``seat`` cannot look: other brotherhoods'
    bases and leaders swapped or moved, their own turn logs and sheets wiped."""
    other = copy.deepcopy(state)
    rivals = [b for b in other.brotherhoods if b.seat != seat]
    if len(rivals) >= 2:
        first, second = data.draw(st.permutations(rivals))[:2]
        if data.draw(st.booleans(), label="swap leaders"):
            first.leader, second.leader = second.leader, first.leader
        if data.draw(st.booleans(), label="swap bases"):
            first.base, second.base = second.base, first.base
    for rival in rivals:
        if data.draw(st.booleans(), label=f"move {rival.seat}"):
            rival.base = data.draw(st.sampled_from(REGIONS))
    if other.log is not None:
        for rival in rivals:
            if rival.seat in other.log.seats and data.draw(st.booleans()):
                other.log.seats[rival.seat] = SeatLog()
            if rival.seat in other.log.sheets:
                other.log.sheets[rival.seat] = None
    return other


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(3, 6),
       variant=st.sampled_from(["classic", "spy2"]), data=st.data())
def test_the_notebook_ignores_what_the_seat_cannot_know(
        seed: int, players: int, variant: str, data: st.DataObject) -> None:
    """Two games differing only in what seat s1 cannot see (every other brotherhood's
    secrets, logs and orders) give s1 equal views, and so the same notebook; the views are
    read as the store hands them back (JSON), and the seat's own truth stays possible."""
    states = random_game(seed, players, 6, variant, declare=False)
    seat = "s1"
    views = [RULES.view(state, seat) for state in states]
    changed = [RULES.view(_hide_differently(state, seat, data), seat) for state in states]
    assert changed == views  # the change is invisible to the seat
    stored = [json.loads(json.dumps(view)) for view in changed]
    assert notebook(stored) == notebook(views)
    page = notebook(views)
    assert page is not None
    truth = RULES.view(states[-1], None)["seats"]
    for row in page.rivals:  # sound: the page never rules out the truth
        assert row.leader_count == 0 or not row.leaders or truth[row.seat]["leader"] in row.leaders
        assert row.bases == () or any(b.startswith(truth[row.seat]["base"]) for b in row.bases)
