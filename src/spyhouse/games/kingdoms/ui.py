"""The create-game form's Kingdoms options: a host may paste a map file (TOML, spec B.1)."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from typing import Any

from spyhouse.games.kingdoms.maps import MapError, map_from_data


def option_fields() -> list[dict[str, Any]]:
    """The options a host sets when creating a game: an optional map of their own."""
    return [
        {"key": "map", "label": "Map (paste a map file in TOML; blank: The Six Realms)",
         "kind": "text", "default": ""},
    ]


def options_from_fields(fields: Mapping[str, str]) -> dict[str, Any]:
    """The options JSON from the form; a pasted map is validated here, so the host reads
    the first problem (``MapError``, naming it) before any game exists."""
    text = fields.get("option-map", "").strip()
    if not text:
        return {}
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise MapError(None, f"not valid TOML: {exc}") from None
    map_from_data(data)
    return {"map": data}


#: The lobby's one-click game (``service.demo.QuickOffer``): the player's country against
#: three computer countries on The Six Realms; each turn resolves once the orders are in.
QUICK_GAME: dict[str, Any] = {
    "label": "Play Kingdoms against the computer",
    "title": "Kingdoms: {username} vs the computer",
    "seat_name": "{username}'s Kingdom",
    "options": {},
    "bots": ("warlord", "spymaster", "steward"),
}
