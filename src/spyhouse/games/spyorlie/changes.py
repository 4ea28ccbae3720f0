"""What a move changed for one player, in a few words, for the live notice.

From the seat's own views before and after the move only (``GamePages.changes``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def changes(before: Mapping[str, Any], after: Mapping[str, Any], entry: int) -> str:
    """"your move; points BLUE 1 · RED 0" or "the operation is over"."""
    if after.get("over"):
        return "the operation is over"
    parts: list[str] = []
    if after.get("awaiting") and after.get("awaiting") == after.get("seat"):
        parts.append("your move")
    points = after.get("points")
    if isinstance(points, Mapping) and points != before.get("points"):
        parts.append("points " + " · ".join(f"{k} {v}" for k, v in sorted(points.items())))
    return "; ".join(parts)
