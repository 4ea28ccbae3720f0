"""Spy or Lie as the platform sees it: one ``GamePlugin`` (``core.plugin``)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from spyhouse.core.plugin import (
    BotSet,
    GamePlugin,
    GameWords,
    OptionField,
    QuickOffer,
    RulesPage,
)
from spyhouse.games.spyorlie import bots
from spyhouse.games.spyorlie.board import MAX_RADIUS, MIN_RADIUS
from spyhouse.games.spyorlie.pages import DIFFICULTIES, SpyOrLiePages
from spyhouse.games.spyorlie.ruleset import SpyOrLie

HERE = Path(__file__).resolve().parent
DEFAULT_RADIUS = 4
#: The board sizes (G4): radius 4 is the seed's board ("SECTOR 05").
RADII: tuple[tuple[str, str], ...] = tuple(
    (str(r), f"Radius {r}" + (" (the seed's board)" if r == DEFAULT_RADIUS else ""))
    for r in range(MIN_RADIUS, MAX_RADIUS + 1))


def with_computer(options: Mapping[str, Any], strategy: str) -> dict[str, Any]:
    """DF1: the one-click game, the person BLUE in ``s1``, the computer ``s2``; the board's
    size is written out (the seed's when not chosen), so NEW OPERATION keeps it."""
    return {"radius": DEFAULT_RADIUS, **options, "blue": "s1", "computer": {"s2": strategy}}


PLUGIN = GamePlugin(
    name="spyorlie",
    ruleset=SpyOrLie,
    words=GameWords(seat="agency", seats="agencies", seat_name_label="Agency name",
                    turn="move",
                    computer_names=("Nightjar Bureau", "Kestrel Office", "Heron Section",
                                    "Lantern Desk", "Magpie Unit", "Owl Directorate"),
                    secrets="your hidden cards",
                    blurb=("two players, a hex board and face-down cards: bluff, accuse and "
                          "capture, against a person or the computer")),
    bots=BotSet(tuple(sorted(bots.STRATEGIES)), bots.make_bot),
    options=(OptionField("radius", "Board", kind="number", default=str(DEFAULT_RADIUS),
                         choices=RADII, minimum=MIN_RADIUS, maximum=MAX_RADIUS),),
    pages=SpyOrLiePages(),
    templates=HERE / "templates",
    static=HERE / "static",
    quick=QuickOffer(label="Play Spy or Lie against the computer", bots=("operative",),
                     strategies=DIFFICULTIES, option_keys=("radius",),
                     with_computer=with_computer),
    # the board's own Field Manual (templates/spyorlie/_manual_body.html) on a page of its
    # own; orders are clicks on the board, so there is no list of choices to explain
    rules=RulesPage(template="rules.html"),
    encoding="spyhouse.games.spyorlie.encoding:ENCODING",
)
