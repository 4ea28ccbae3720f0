"""The Reds' shared convention: who guards the Greens' posts, and where.

Reds cannot chat (the Red channel is for people), but every Red's view carries the
same Red list and the same public roster, so each Red computes the same duty roster
alone, as the Greens compute their rotation in ``bot_green``. The more Greens are
alive, the more Reds become *post guards* (``guards_for``): the lowest-seated living
Reds camp at the rooms the Greens must hold to win (two Power generators and the
GHOST room, as the Greens' INTEL names them) and strike down every Green who walks
in. One emptied post spoils a strike, and with many Greens a strike is the only
moment they crowd where the Reds can reach them; small games keep the old, roaming
Reds, whose few kills already matter.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spyhouse.games.infiltration.notebook import GENERATOR, GHOST, Notebook


def living_reds(view: Mapping[str, Any], nb: Notebook) -> list[str]:
    """The living Reds in seat order (the Red list is in every Red's view)."""
    reds = set(nb.reds)
    return [row["seat"] for row in view["players"] if row["alive"] and row["seat"] in reds]


def living_greens(view: Mapping[str, Any], nb: Notebook) -> int:
    reds = set(nb.reds)
    return sum(1 for row in view["players"] if row["alive"] and row["seat"] not in reds)


def guards_for(greens: int, reds: int, start: int, per: int) -> int:
    """How many Reds guard posts: none below ``start`` living Greens, then one more for
    every ``per`` Greens, never more than the living Reds."""
    if greens < start:
        return 0
    return min(reds, 1 + (greens - start) // per)


def posts(nb: Notebook) -> list[str]:
    """The Greens' posts as this Red believes them: the first two generators (the
    rotation's G0 and G1), then the GHOST room; empty until two generators are known."""
    generators = nb.believed_rooms(GENERATOR)
    if len(generators) < 2:
        return []
    ghost = nb.believed_rooms(GHOST)
    return generators[:2] + ghost[:1]


def duty_post(view: Mapping[str, Any], nb: Notebook, start: int, per: int) -> str | None:
    """The post this Red guards under the convention, or ``None`` when it roams."""
    reds = living_reds(view, nb)
    seat = view["me"]["seat"]
    if seat not in reds:
        return None
    rank = reds.index(seat)
    if rank >= guards_for(living_greens(view, nb), len(reds), start, per):
        return None
    known = posts(nb)
    if not known:
        return None
    # The GHOST room only once its door is open or the code is known: else wait at a generator.
    if len(known) == 3 and not (nb.door_known_open() or nb.green_code() is not None):
        known = known[:2]
    return known[rank % len(known)]
