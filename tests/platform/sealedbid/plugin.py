"""Sealed Bid as the platform sees it: one ``GamePlugin``, registered by the tests only
(``registry.register(PLUGIN)``), never through an entry point."""

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
    TextRenderers,
)
from tests.platform.sealedbid.pages import SealedBidPages, host_text
from tests.platform.sealedbid.rules import SealedBid

HERE = Path(__file__).resolve().parent


class SteadyBot:
    """Bids a third of what is left, every round; decides from each view alone."""

    keeps_notes = False

    def __init__(self, seat: str) -> None:
        self.seat = seat

    def act(self, view: Mapping[str, Any]) -> Any:
        me = view.get("me")
        if not isinstance(me, Mapping) or view.get("game_over"):
            return None
        return {"bid": int(me["budget"]) // 3}


def make_bot(strategy: str, seat: str, seed: int) -> SteadyBot:
    if strategy != "steady":
        raise KeyError(f"unknown sealedbid bot {strategy!r}")
    return SteadyBot(seat)


PLUGIN = GamePlugin(
    name="sealedbid",
    ruleset=SealedBid,
    words=GameWords(seat="bidder", seats="bidders", seat_name_label="Bidder name",
                    turn="round", computer_names=("Steady Eddie", "Steady Betty",
                                                  "Steady Freddie"),
                    secrets="your budget"),
    bots=BotSet(("steady",), make_bot),
    options=(OptionField("rounds", "Rounds", kind="number", minimum=1, maximum=5,
                         default="3", help="how many prizes are auctioned"),),
    pages=SealedBidPages(),
    templates=HERE / "templates",
    quick=QuickOffer(label="Play Sealed Bid against the computer", bots=("steady",)),
    text=TextRenderers(host=host_text),
)
