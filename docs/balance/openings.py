"""Spy vs Spy bots for docs/balance.md: the built-in economist with and without its
growth turns, under labels of their own.

The balance question: does growing first (WORK, TRAIN, RECRUIT) beat gathering
information from the start? The built-in ``grower`` and ``informer`` answer it for the
hunter's way of playing (the same play after 4 growth turns or none). ``Eager`` does
the same for the economist's: it is the economist with ``GROWTH_TURNS = 0``, so from
turn 1 it plays the economist's gathering game (its leader and one spy HUNT, about half
its spies SEARCH and FOLLOW, the rest WORK guarded, it recruits when rich). Against the
built-in economist (six growth turns) only the opening differs. ``Patient`` is the
built-in economist itself (same name, same random stream, same play) under its own label,
so that it can be told apart from a field of economists in the lab's report.

Seated by the lab as custom bots: ``--bots docs/balance/openings.py:Patient,docs/balance/
openings.py:Eager,...``.
"""

from __future__ import annotations

from typing import ClassVar

from spyhouse.games.spyvsspy.bots import Economist


class Patient(Economist):
    """The built-in economist (six growth turns), labelled apart from a field of them."""


class Eager(Economist):
    """The economist, gathering information from turn 1 (no growth turns)."""

    name: ClassVar[str] = "eager"
    GROWTH_TURNS = 0
