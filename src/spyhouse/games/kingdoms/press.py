"""Kingdoms' press: a diplomacy game lives on talk, so the platform's public thread and
private messages between countries are open by default, under the courts' names; the
``press`` option turns them off (a "gunboat" game). An eliminated country is no longer
awaited and its orders are refused (B.7): it keeps reading what it could read but posts
nothing and is sent nothing more."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spyhouse.core.plugin import OptionField, PressRules

#: The create form's flag: on unless the host chooses a gunboat game.
PRESS_OPTION = OptionField(
    "press", "Press", kind="flag", default="yes",
    choices=(("yes", "press: a public thread and private messages between countries"),
             ("no", "gunboat: no press, only orders")),
    help="Talk changes nothing in the rules: only who may write to whom.",
    form_name="option-kingdoms-press")  # Spy vs Spy's option has the same key


def in_the_game(view: Mapping[str, Any]) -> dict[str, bool]:
    """Seat id -> not eliminated, from the countries every view lists (E)."""
    return {str(row["seat"]): row.get("eliminated") is None
            for row in view.get("countries") or () if isinstance(row, Mapping) and "seat" in row}


PRESS = PressRules(
    option=PRESS_OPTION.key, living=in_the_game,
    out="Your country has been eliminated: you may read the press but not post.",
    addressee_out="{name} has been eliminated: it gets no more messages.",
    gunboat="No press in this game (gunboat).")
