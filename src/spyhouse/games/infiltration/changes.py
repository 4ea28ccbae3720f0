"""What a phase changed for one agent, in a few words, for the live notice.

From the seat's own views before and after the phase only (``GamePages.changes``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any


def _me(view: Mapping[str, Any]) -> Mapping[str, Any]:
    me = view.get("me")
    return me if isinstance(me, Mapping) else {}


def _count(view: Mapping[str, Any], key: str) -> int:
    items = view.get(key)
    return len(items) if isinstance(items, list) else 0


def changes(before: Mapping[str, Any], after: Mapping[str, Any], entry: int,
            phase_title: Callable[[Mapping[str, Any]], str]) -> str:
    """"you were killed" or "now: Movement; 2 new lines in your log"."""
    if _me(before).get("alive") is not False and _me(after).get("alive") is False:
        return "you were killed"
    parts: list[str] = []
    if after.get("phase"):
        parts.append(f"now: {phase_title(after)}")
    new = _count(after, "private_log") - _count(before, "private_log")
    if new > 0:
        parts.append(f"{new} new {'line' if new == 1 else 'lines'} in your log")
    return "; ".join(parts)
