"""Each game's line for the live notice (``GamePages.changes``): from the seat's own two
views, short, and empty when there is nothing to say."""

from __future__ import annotations

from typing import Any

from spyhouse.core import registry
from spyhouse.core.plugin import GamePages


def line(game: str, before: dict[str, Any], after: dict[str, Any], entry: int = 3) -> str:
    return registry.plugin(game).pages.changes(before, after, entry)


def test_the_default_says_nothing_more() -> None:
    assert GamePages().changes({}, {}, 1) == ""


def test_spy_vs_spy_spies_lost_and_gained_and_gp() -> None:
    def view(killed: list[int], nspies: int, gp: int) -> dict[str, Any]:
        return {"me": {"nspies": nspies, "gp": gp},
                "spies": [{"number": n, "killed": n in killed} for n in range(1, 10)]}

    assert line("spyvsspy", view([], 9, 20), view([4, 7], 7, 34)) == (
        "2 of your spies were killed; gp 20 → 34")
    assert line("spyvsspy", view([4], 8, 20), view([4, 5], 8, 20)) == (
        "1 of your spies was killed; 1 new spy")
    assert line("spyvsspy", view([], 9, 20), view([], 9, 20)) == ""


def test_kingdoms_areas_armies_and_bp() -> None:
    def view(areas: int, armies: int, bp: int) -> dict[str, Any]:
        owners = {f"a{n:02d}": "k3" if n < areas else None for n in range(10)}
        return {"owners": owners, "me": {"country": "k3", "bp": bp, "armies": {"a01": armies}}}

    assert line("kingdoms", view(3, 5, 6), view(4, 6, 9)) == "areas 3 → 4; armies 5 → 6; 9 bp"
    assert line("kingdoms", {}, {}) == ""


def test_infiltration_death_phase_and_log() -> None:
    alive = {"me": {"alive": True}, "phase": "movement", "private_log": [{}]}
    assert line("infiltration", alive, {**alive, "me": {"alive": False}}) == "you were killed"
    assert line("infiltration", alive, {**alive, "phase": "decision",
                                        "private_log": [{}, {}, {}]}) == (
        "now: Decision phase; 2 new lines in your log")


def test_spy_or_lie_the_move_and_points() -> None:
    before = {"seat": "s2", "awaiting": "s1", "points": {"BLUE": 0, "RED": 0}}
    after = {"seat": "s2", "awaiting": "s2", "points": {"BLUE": 1, "RED": 0}}
    assert line("spyorlie", before, after) == "your move; points BLUE 1 · RED 0"
    assert line("spyorlie", before, {**after, "over": True}) == "the operation is over"
