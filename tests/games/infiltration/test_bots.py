"""The bots: valid orders only, from views only, games that finish, and both teams able to win."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from spyhouse.games.infiltration.bots import STRATEGIES, make_bot
from tests.games.infiltration.botplay import RULES, play

VARIANTS: list[tuple[int, dict[str, Any]]] = [
    (6, {}),
    (7, {"class_mode": "random", "renegades": 2, "engineers": 4}),
    (9, {"phantoms": False, "reveal_red_count": False, "message_max_chars": 50}),
    (12, {"classes_offered": ["Sneaker"], "max_turns": 10}),
    (15, {"reds": 5, "private_messages": False}),
    (20, {"facility_seed": 7, "phantom_limit": 0}),
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


def test_both_teams_win_sometimes() -> None:
    """Over a handful of seeded 10-player games the Greens destroy GHOST at least once and
    the Reds thin the Greens out at least once."""
    results = Counter(play(seed, 10).final.result["result"]  # type: ignore[index]
                      for seed in range(8))
    assert results["greens"] >= 1
    assert results["reds"] >= 1


def test_greens_share_and_reds_sabotage() -> None:
    """Greens broadcast INTEL; Reds hack terminals; someone is lynched on evidence."""
    texts: list[str] = []
    hacked = 0
    lynched = 0
    for seed in range(4):
        final = play(seed, 10).final
        texts += [e["message"] for e in final.public_log if e["kind"] == "anonymous"]
        hacked += sum(1 for logs in final.private_logs.values() for e in logs
                      if e["kind"] == "terminal" and e["action"] == "HACK")
        lynched += sum(1 for e in final.public_log if e["kind"] == "lynch" and e["victim"])
    assert any(t.startswith("INTEL ") for t in texts)
    assert hacked > 0
    assert lynched > 0


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
