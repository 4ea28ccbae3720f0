"""Spy vs Spy's press: the seed publishes every player's address because "communication
between players is allowed and encouraged", so the platform's public thread and private
messages are open by default, under the brotherhoods' names; the ``press`` option turns
them off (a "gunboat" game). An eliminated brotherhood is "gone from the game" (§1): it
keeps reading what it could read but posts nothing and is sent nothing more."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spyhouse.core.plugin import OptionField, PressRules

#: The create form's flag: on unless the host chooses a gunboat game.
PRESS_OPTION = OptionField(
    "press", "Press", kind="flag", default="yes",
    choices=(("yes", "press: a public thread and private messages between brotherhoods"),
             ("no", "gunboat: no press, only orders")),
    help="Talk changes nothing in the rules: only who may write to whom.")


def surviving(view: Mapping[str, Any]) -> dict[str, bool]:
    """Seat id -> still in the game, from the directory every view holds (§8.1)."""
    return {str(row["seat"]): row.get("status") != "eliminated"
            for row in view.get("directory") or () if isinstance(row, Mapping) and "seat" in row}


PRESS = PressRules(
    option=PRESS_OPTION.key, living=surviving,
    out="Your brotherhood has been eliminated: you may read the press but not post.",
    addressee_out="{name} has been eliminated: it gets no more messages.",
    gunboat="No press in this game (gunboat).")
