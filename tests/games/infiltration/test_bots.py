"""The bots: valid orders only, from views only, games that finish, and both teams able to win.

The balance tests play fixed seeds, so they are exact and reproducible: a change to the
bots that moves them past their margins is a change of balance to look at, not noise."""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from typing import Any

import pytest

from spyhouse.games.infiltration.bot_green import roles
from spyhouse.games.infiltration.bot_red import duty_post, guards_for
from spyhouse.games.infiltration.bots import STRATEGIES, make_bot
from spyhouse.games.infiltration.model import State
from spyhouse.games.infiltration.notebook import GENERALS, GHOST, LAB, Notebook
from spyhouse.games.infiltration.statements import parse_statement
from tests.games.infiltration.botplay import RULES, play

VARIANTS: list[tuple[int, dict[str, Any]]] = [
    (6, {}),
    (7, {"class_mode": "random", "renegades": 2, "engineers": 4}),
    (9, {"phantoms": False, "reveal_red_count": False, "message_max_chars": 50}),
    (12, {"classes_offered": ["Sneaker"], "max_turns": 10}),
    (15, {"reds": 5, "private_messages": False}),
    (20, {"facility_seed": 7, "phantom_limit": 0}),
    (8, {"class_mode": "random", "message_max_chars": 93}),  # just too short for MAP=
    (11, {"classes_offered": ["Hacker", "Sneaker"], "renegades": 1}),
]


@pytest.mark.parametrize(("players", "options"), VARIANTS,
                         ids=[f"{p}p-{'-'.join(o) or 'defaults'}" for p, o in VARIANTS])
def test_bots_finish_games_with_valid_orders(players: int, options: dict[str, Any]) -> None:
    """Every order a bot sends passes ``parse_orders`` (``play`` raises otherwise), and the
    game ends by a rule of §12.4 or L2 within max_turns."""
    for seed in (1, 2):
        game = play(seed, players, options)
        result = game.final.result
        assert result is not None
        assert game.final.turn <= int(options.get("max_turns", 30))


#: The fixed 8-player games the balance tests read (seeds 0..23, strategies alternating).
BALANCE_SEEDS = range(24)


@cache
def balance_games() -> tuple[State, ...]:
    """The final states of the fixed 8-player bot games (played once per test process)."""
    return tuple(play(seed, 8).final for seed in BALANCE_SEEDS)


def outcome(final: State) -> dict[str, Any]:
    assert final.result is not None
    return final.result


def test_greens_win_a_fair_share_at_8_players() -> None:
    """Deterministic balance check on fixed seeds: at 8 players the Greens win a fair share
    and the Reds still win plenty (24 games: 11 Green, 13 Red, no draw when written); the
    margins allow small tuning, a collapse of either team fails."""
    results = Counter(str(outcome(final)["result"]) for final in balance_games())
    assert results["greens"] >= 7
    assert results["reds"] >= 7
    assert results["draw"] <= 2


#: The fixed 12-player games (seeds 0..23): three Reds, one of them guarding a post.
BALANCE_SEEDS_12 = range(24)


def test_both_teams_win_a_fair_share_at_12_players() -> None:
    """Deterministic balance check at 12 players, where the Greens used to win three games
    in four: with a Red guarding the Greens' posts each team wins at least ~30 % (24 games:
    14 Green, 9 Red, 1 draw when written)."""
    results = Counter(str(outcome(play(seed, 12).final)["result"])
                      for seed in BALANCE_SEEDS_12)
    assert results["greens"] >= 7
    assert results["reds"] >= 7
    assert results["draw"] <= 2


def test_post_guards_grow_with_the_greens() -> None:
    """No post guard at 8 players (6 Greens), one at 12 (9 Greens), three of the five Reds
    at 20 (15 Greens); never more guards than living Reds."""
    agent = STRATEGIES["operative"]
    def guards(greens: int, reds: int) -> int:
        return guards_for(greens, reds, agent.guard_start, agent.guard_per)
    assert [guards(6, 2), guards(9, 3), guards(15, 5), guards(15, 2)] == [0, 1, 3, 2]


def test_reds_agree_on_the_post_guards_from_their_views() -> None:
    """Each Red computes the duty roster alone, from the Red list and the roster: the
    lowest-seated living Red guards, and dead Reds hand the duty on."""
    nb = Notebook()
    nb.reds = ("s2", "s4")
    nb.seen.update({"A-1": "Power generator", "C-3": "Power generator", "E-5": GHOST})
    roster = [{"seat": f"s{n}", "alive": n != 2} for n in range(1, 13)]
    view: dict[str, Any] = {"players": roster, "me": {"seat": "s4"}}
    assert duty_post(view, nb, 7, 4) == "A-1"
    roster[1]["alive"] = True
    assert duty_post(view, nb, 7, 4) is None  # s2 guards now
    view["me"]["seat"] = "s2"
    assert duty_post(view, nb, 7, 4) == "A-1"


def test_greens_win_by_the_ghost_room_and_lynch_reds_on_evidence() -> None:
    """Green wins are by destroying GHOST (code, Stingers, two generators); Greens lynch
    Reds more often than Greens, and name killers publicly (``ACCUSE x KILLED …``)."""
    finals = balance_games()
    reasons = Counter(str(outcome(final)["reason"]) for final in finals
                      if outcome(final)["result"] == "greens")
    assert set(reasons) == {"ghost_destroyed"}
    lynched = Counter(final.player(e["victim"]).team.value for final in finals
                      for e in final.public_log if e["kind"] == "lynch" and e["victim"])
    assert lynched["red"] > lynched["green"]
    texts = [e["message"] for final in finals for e in final.public_log
             if e["kind"] == "anonymous"]
    assert any(" KILLED " in t for t in texts)


def test_greens_share_and_reds_sabotage() -> None:
    """Greens broadcast INTEL (the whole known map when the limit allows); Reds hack
    terminals and gas the Greens' posts."""
    finals = balance_games()[:8]
    texts = [e["message"] for final in finals for e in final.public_log
             if e["kind"] == "anonymous"]
    hacked = sum(1 for final in finals for logs in final.private_logs.values() for e in logs
                 if e["kind"] == "terminal" and e["action"] == "HACK")
    gassed = sum(1 for final in finals for p in final.players
                 if p.death is not None and p.death.cause == "gas")
    assert any(t.startswith("INTEL ") and "MAP=" in t for t in texts)
    assert hacked > 0
    assert gassed > 0


def test_short_messages_carry_the_specials_only() -> None:
    """With a 50-character limit the INTEL falls back to ``GHOST=``/``LAB=``/``GEN=`` keys,
    and Greens still win some games."""
    finals = [play(seed, 8, {"message_max_chars": 50}).final for seed in range(6)]
    texts = [e["message"] for final in finals for e in final.public_log
             if e["kind"] == "anonymous"]
    assert texts and all(len(t) <= 50 for t in texts)
    assert not any("MAP=" in t for t in texts)
    assert any(t.startswith("INTEL ") for t in texts)
    assert any(outcome(final)["result"] == "greens" for final in finals)


def test_bots_read_only_what_the_view_serializes() -> None:
    """Bots given JSON round trips of their views answer exactly as bots given the views:
    they use nothing but the view's data (no object identity, no state behind it)."""
    seed, players = 5, 8
    plain = play(seed, players)
    names = sorted(STRATEGIES)
    twins = {f"s{n}": make_bot(names[(n - 1) % len(names)], f"s{n}", seed)
             for n in range(1, players + 1)}
    for state, resolved in zip(plain.states, plain.resolved, strict=False):
        for seat in sorted(RULES.awaiting(state)):
            view = json.loads(json.dumps(RULES.view(state, seat)))
            data = twins[seat].act(view)
            expected = resolved[seat]
            got = None if data is None else RULES.parse_orders(state, seat, data)
            assert got == expected, (state.turn, seat)


def test_bots_are_deterministic() -> None:
    """The same seed gives the same record."""
    assert play(99, 8).record.dumps() == play(99, 8).record.dumps()


def test_bots_answer_only_when_awaited() -> None:
    """No orders when the view does not await the seat or the game is over."""
    game = play(3, 8)
    bot = make_bot(sorted(STRATEGIES)[0], "s1", 3)
    final_view = RULES.view(game.final, "s1")
    assert bot.act(final_view) is None
    dead = next((p.seat for p in game.states[-2].players if not p.alive), None)
    if dead is not None:
        assert bot.act(RULES.view(game.states[-2], dead)) is None


def test_a_red_bot_sends_an_empty_class_order() -> None:
    """In the class phase a Red answers {} (P1 refuses any class) and a Green picks one."""
    game = play(4, 8, {}, limit=0)
    state = game.final
    for p in state.players:
        data = make_bot("operative", p.seat, 4).act(RULES.view(state, p.seat))
        if p.is_red:
            assert data == {}
        else:
            assert data is not None and data["class"] in ("Warrior", "Hacker", "Sneaker")


# ---------------------------------------------------------------- the notebook, by hand

ROSTER = [("s1", "Ann"), ("s2", "Bob"), ("s3", "Cat"), ("s4", "Rex")]


def view_of(private: list[dict[str, Any]], public: list[dict[str, Any]] | None = None,
            dead: tuple[str, ...] = ()) -> dict[str, Any]:
    """A minimal Green seat view for s1 (Ann): the keys ``Notebook.update`` reads."""
    return {
        "me": {"seat": "s1", "handle": "Ann", "alive": True, "team": "green", "reds": None},
        "players": [{"seat": seat, "handle": handle, "alive": seat not in dead, "phantoms": 0}
                    for seat, handle in ROSTER],
        "private_log": private,
        "public_log": public or [],
        "occupancy": None,
    }


def arrival(turn: int, room: str, feature: str, **extra: Any) -> dict[str, Any]:
    report = {"turn": turn, "step": "T10", "kind": "arrival", "room": room, "notice": None,
              "feature": feature, "destroyed": False, "hacked": None, "text": "",
              "players": [], "npcs": [], "corpses": [], "alert": False}
    report.update(extra)
    return report


def answer(turn: int, room: str, terminal: str, lines: list[str]) -> dict[str, Any]:
    return {"turn": turn, "step": "R5", "kind": "terminal", "room": room, "terminal": terminal,
            "action": "USE", "lines": lines, "text": "\n".join(lines)}


def test_map_data_with_a_control_room_catches_a_hacked_terminal() -> None:
    """A checked answer (the control room right) is kept as fact; a hacked one (every
    feature wrong, the control too) is dropped whole."""
    nb = Notebook()
    log = [arrival(1, "C-8", "Map data")]
    nb.update(view_of(log))
    nb.pending_map = ("C-8", "Map data")
    log.append(answer(1, "C-8", "Map data", ["C-8: Map data", "H-8: GHOST room"]))
    nb.update(view_of(log))
    assert nb.known_feature("H-8") == GHOST
    nb.pending_map = ("C-8", "Map data")
    log.append(answer(2, "C-8", "Map data", ["C-8: Seer", "A-1: GHOST room"]))
    nb.update(view_of(log))
    assert nb.known_feature("A-1") is None
    assert nb.hack_state["C-8"] == (2, True)


def test_intel_caught_in_a_lie_is_dropped_whole() -> None:
    """An INTEL message that contradicts a room this seat saw is ignored, its code too;
    one that contradicts nothing is believed, and a whole ``MAP=`` reads back."""
    writer = Notebook()
    writer.update(view_of([arrival(1, "B-2", "General's room", text="General's room — The code "
                                   "is 4071."), arrival(2, "H-8", "Weapons Lab")]))
    truth = writer.green_intel(500)
    assert truth is not None and "MAP=" in truth and "CODE=4071" in truth
    lie = "INTEL GHOST=H-8 CODE=1234"  # H-8 was seen: it is the Weapons Lab
    reader = Notebook()
    public = [{"turn": 2, "step": "R5", "kind": "anonymous", "message": text, "text": text}
              for text in (lie, truth)]
    reader.update(view_of([arrival(2, "H-8", "Weapons Lab")], public))
    assert reader.green_code() == "4071"
    assert reader.believed_rooms(GHOST) == []
    assert reader.believed_rooms(GENERALS) == ["B-2"]
    assert reader.believed_rooms(LAB) == ["H-8"]


def test_history_names_a_killer_only_from_the_true_log() -> None:
    """The true log of a corpse's room lists the victim on the death turn; a hacked History
    (another room's log) does not, and is ignored."""
    public = [{"turn": 3, "step": "R5", "kind": "deaths", "dead": ["s2"], "text": ""}]
    nb = Notebook()
    log = [arrival(4, "D-5", "Seer", corpses=["s2"])]
    nb.update(view_of(log, public, dead=("s2",)))
    nb.pending_history = "D-5"
    log.append(answer(4, "A-1", "History", ["Turn 3: Cat, Rex"]))  # no Bob: a decoy log
    nb.update(view_of(log, public, dead=("s2",)))
    assert nb.culprits == {}
    nb.pending_history = "D-5"
    log.append(answer(5, "A-1", "History", ["Turn 0: Rex", "Turn 3: Bob, Rex"]))
    nb.update(view_of(log, public, dead=("s2",)))
    assert set(nb.culprits) == {"s4"}
    assert nb.culprits["s4"].victim == "s2" and nb.culprits["s4"].turn == 3
    assert nb.suspicion["s4"] >= 6.0


def test_a_killing_claim_counts_only_when_it_fits_the_deaths() -> None:
    """``ACCUSE x KILLED v IN room ON TURN n`` weighs only if v was found dead on turn n."""
    deaths = {"turn": 3, "step": "R5", "kind": "deaths", "dead": ["s2"], "text": ""}
    claims = ["ACCUSE Rex KILLED Bob IN D-5 ON TURN 3", "ACCUSE Cat KILLED Bob IN D-5 ON TURN 2"]
    public = [deaths] + [{"turn": 4, "step": "R5", "kind": "anonymous", "message": text,
                          "text": text} for text in claims]
    nb = Notebook()
    nb.update(view_of([arrival(4, "A-1", "Seer")], public, dead=("s2",)))
    assert nb.suspicion.get("s4", 0.0) >= 3.0
    assert nb.suspicion.get("s3", 0.0) == 0.0


def test_rotation_always_staffs_the_ghost_room_and_two_generators() -> None:
    """Every living count gets at least two GHOST places and one place per generator."""
    for living in range(4, 21):
        slots = Counter(roles(living))
        assert slots["A"] >= 2 and slots["G0"] >= 1 and slots["G1"] >= 1, living


# ---------------------------------------------------------------- accusations put to the test

DEATH = {"turn": 3, "step": "R5", "kind": "deaths", "dead": ["s2"], "text": ""}
CLAIM = "ACCUSE Rex KILLED Bob IN D-5 ON TURN 3"


def posted(*texts: str) -> list[dict[str, Any]]:
    return [DEATH] + [{"turn": 4, "step": "R5", "kind": "anonymous", "message": text,
                       "text": text} for text in texts]


def test_a_validity_answer_on_an_accusation_is_weighed() -> None:
    """A fitting ``ACCUSE`` awaits a check; TRUE adds a little, FALSE takes back more than
    the claim gave, and an answer from a terminal known to be hacked is read flipped."""
    def checked(answer_line: str, hacked: bool) -> float:
        nb = Notebook()
        log = [arrival(4, "F-2", "Validity check", hacked=hacked)]
        nb.update(view_of(log, posted(CLAIM), dead=("s2",)))
        assert [c.accused for c in nb.unverified()] == ["s4"]
        nb.pending_claim = nb.unverified()[0]
        log.append(answer(4, "F-2", "Validity check", [answer_line]))
        nb.update(view_of(log, posted(CLAIM), dead=("s2",)))
        assert nb.unverified() == [] and nb.pending_claim is None
        return nb.suspicion["s4"]
    assert checked("TRUE", False) == 4.0
    assert checked("FALSE", False) == 0.0
    assert checked("TRUE", True) == 0.0  # a hacked terminal said TRUE: it is false
    assert checked("FALSE", True) == 4.0


def test_claims_naming_different_killers_of_one_death_count_half() -> None:
    """One killer per killing: a second fitting claim on the same death contradicts the
    first, so each accused keeps half a claim's weight until a check tells them apart."""
    nb = Notebook()
    nb.update(view_of([arrival(4, "A-1", "Seer")],
                      posted(CLAIM, "ACCUSE Cat KILLED Bob IN D-5 ON TURN 3"), dead=("s2",)))
    assert nb.suspicion["s4"] == nb.suspicion["s3"] == 1.5
    assert [c.accused for c in nb.unverified()] == ["s4", "s3"]


def decision_view(kind: str, public: list[dict[str, Any]]) -> dict[str, Any]:
    view = view_of([arrival(4, "F-2", kind)], public, dead=("s2",))
    view.update({"phase": "decision", "turn": 4, "awaited": True, "result": None,
                 "options": {"message_max_chars": 140}})
    view["me"].update({"room": "F-2", "stinger": False, "class": "Warrior"})
    view["choices"] = {"terminal": {"type": kind, "actions": ["USE"]},
                       "kill": [], "vote": ["NO LYNCH", "s3", "s4"]}
    return view


def test_a_green_at_a_validity_check_tests_a_pending_accusation() -> None:
    """A Green standing at a Validity check with a fitting, unchecked accusation asks the
    terminal whether the accused WAS IN the room ON the TURN of the killing (§10 Q2)."""
    bot = make_bot("operative", "s1", 1)
    order = bot.act(decision_view("Validity check", posted(CLAIM)))
    assert order is not None
    assert order["terminal"] == {"action": "USE", "statement": "Rex WAS IN D-5 ON TURN 3"}
    assert parse_statement(order["terminal"]["statement"], 4) is not None
    misfit = "ACCUSE Rex KILLED Bob IN D-5 ON TURN 2"  # Bob died on turn 3: not checked
    order = make_bot("operative", "s1", 1).act(decision_view("Validity check", posted(misfit)))
    assert order is not None and "terminal" not in order


def test_a_red_frames_a_green_seen_at_its_killing() -> None:
    """A Red pins its own kill on the Green it saw in the room, in the checkable form a
    Green weighs; the statement a Validity check would test is then TRUE."""
    bot = make_bot("operative", "s4", 1)
    view = decision_view("Anonymous messaging", posted())
    view["me"].update({"seat": "s4", "handle": "Rex", "team": "red", "reds": ["s4"]})
    view["private_log"] = [
        arrival(3, "D-5", "Seer", players=["s2", "s3"]),
        {"turn": 3, "step": "R2", "kind": "combat", "room": "D-5", "attacks": [["s4", "s2"]],
         "died": ["s2"], "text": ""},
    ]
    bot.notebook.update(view)
    framing = bot.frame(view)
    assert framing == ("s2", "ACCUSE Cat KILLED Bob IN D-5 ON TURN 3")
    reader = Notebook()
    reader.update(view_of([arrival(4, "A-1", "Seer")], posted(framing[1]), dead=("s2",)))
    assert reader.suspicion.get("s3", 0.0) >= 3.0


def test_greens_check_accusations_and_reds_frame_in_real_games() -> None:
    """In the fixed 12-player games Greens send ``x WAS IN room ON TURN n`` statements to
    Validity checks, and Reds post killing claims against Greens."""
    statements, framed = 0, 0
    for seed in range(4):
        game = play(seed, 12)
        reds = {p.seat for p in game.final.players if p.is_red}
        for entry in game.record.turns:
            for seat, order in entry.items():
                terminal = (order or {}).get("terminal") or {}
                statements += " WAS IN " in str(terminal.get("statement", ""))
                framed += seat in reds and " KILLED " in str(terminal.get("text", ""))
    assert statements > 0
    assert framed > 0
