"""What a turn changed for one brotherhood, in a few words, for the live notice.

From the seat's own views before and after the turn only (``GamePages.changes``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def _killed(view: Mapping[str, Any]) -> set[int]:
    return {int(spy.get("number", 0)) for spy in view.get("spies") or ()
            if isinstance(spy, Mapping) and spy.get("killed")}


def _me(view: Mapping[str, Any]) -> Mapping[str, Any]:
    me = view.get("me")
    return me if isinstance(me, Mapping) else {}


def _number(value: Any) -> int:
    return value if isinstance(value, int) else 0


def changes(before: Mapping[str, Any], after: Mapping[str, Any], entry: int) -> str:
    """"2 of your spies were killed; 1 new spy; gp 20 → 34" (empty when nothing did)."""
    parts: list[str] = []
    lost = len(_killed(after) - _killed(before))
    if lost:
        parts.append("1 of your spies was killed" if lost == 1
                     else f"{lost} of your spies were killed")
    gained = _number(_me(after).get("nspies")) - _number(_me(before).get("nspies")) + lost
    if gained > 0:
        parts.append(f"{gained} new {'spy' if gained == 1 else 'spies'}")
    gp_before, gp_after = _me(before).get("gp"), _me(after).get("gp")
    if isinstance(gp_before, int) and isinstance(gp_after, int) and gp_before != gp_after:
        parts.append(f"gp {gp_before} → {gp_after}")
    if after.get("game_over"):
        parts.append("the game is over")
    return "; ".join(parts)
