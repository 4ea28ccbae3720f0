"""What a turn changed for one country, in a few words, for the live notice.

From the seat's own views before and after the turn only (``GamePages.changes``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def _me(view: Mapping[str, Any]) -> Mapping[str, Any]:
    me = view.get("me")
    return me if isinstance(me, Mapping) else {}


def _areas(view: Mapping[str, Any]) -> int:
    mine = _me(view).get("country")
    owners = view.get("owners")
    if not isinstance(owners, Mapping):
        return 0
    return sum(1 for owner in owners.values() if owner == mine)


def _armies(view: Mapping[str, Any]) -> int:
    armies = _me(view).get("armies")
    if not isinstance(armies, Mapping):
        return 0
    return sum(n for n in armies.values() if isinstance(n, int))


def changes(before: Mapping[str, Any], after: Mapping[str, Any], entry: int) -> str:
    """"areas 3 → 4; armies 5 → 6; 9 bp" (empty when the view has no country)."""
    if not _me(after):
        return ""
    parts: list[str] = []
    for label, count in (("areas", _areas), ("armies", _armies)):
        old, new = count(before), count(after)
        if old != new:
            parts.append(f"{label} {old} → {new}")
    bp = _me(after).get("bp")
    if isinstance(bp, int):
        parts.append(f"{bp} bp")
    if after.get("outcome"):
        parts.append("the game is over")
    return "; ".join(parts)
