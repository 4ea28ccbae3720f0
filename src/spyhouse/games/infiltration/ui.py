"""The create-game form's Infiltration options: the pace of the phases' deadlines."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

PACES = (("forum", "Forum speed (class 48 h, movement 24 h, decision 48 h)"),
         ("fast", "Quick evening game (class 5 min, movement 3 min, decision 8 min; "
                  "phases close early once everyone is ready)"))


def option_fields() -> list[dict[str, Any]]:
    """The options a host sets when creating a game: the pace of the deadlines."""
    return [{"key": "pace", "label": "Pace", "kind": "choice", "default": "forum",
             "choices": PACES}]


def options_from_fields(fields: Mapping[str, str]) -> dict[str, Any]:
    """The options JSON from the form (an unknown pace falls back to forum speed)."""
    pace = fields.get("option-pace", "forum")
    return {"pace": pace if pace in dict(PACES) else "forum"}
