"""The create-game form's Spy or Lie options: the board's radius (G4).

Radius 4 is the seed's board ("SECTOR 05"), the one that exactly fills with the two
hands; smaller boards are quick games that end with cards left, larger ones end with
empty cells (spec G4).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spyhouse.games.spyorlie.board import MAX_RADIUS, MIN_RADIUS

DEFAULT_RADIUS = 4
RADII = tuple((str(radius), f"Radius {radius}" + (" (the seed's board)"
                                                 if radius == DEFAULT_RADIUS else ""))
              for radius in range(MIN_RADIUS, MAX_RADIUS + 1))


def option_fields() -> list[dict[str, Any]]:
    """The options a host sets when creating a game: the board's radius."""
    return [{"key": "radius", "label": "Board", "kind": "choice",
             "default": str(DEFAULT_RADIUS), "choices": RADII}]


def options_from_fields(fields: Mapping[str, str]) -> dict[str, Any]:
    """The options JSON from the form (an unknown radius falls back to the seed's 4)."""
    text = fields.get("option-radius", str(DEFAULT_RADIUS))
    radius = int(text) if text in dict(RADII) else DEFAULT_RADIUS
    return {"radius": radius}
