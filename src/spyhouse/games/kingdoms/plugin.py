"""Kingdoms as the platform sees it: one ``GamePlugin`` (``core.plugin``)."""

from __future__ import annotations

from pathlib import Path

from spyhouse.core.plugin import (
    BotSet,
    GamePlugin,
    GameWords,
    OptionField,
    QuickOffer,
    TextRenderers,
)
from spyhouse.games.kingdoms import bots, text
from spyhouse.games.kingdoms.pages import KingdomsPages, options_from_form
from spyhouse.games.kingdoms.ruleset import Kingdoms

HERE = Path(__file__).resolve().parent

#: Names for computer countries (each a realm of its own, none a map's country name).
COUNTRY_NAMES: tuple[str, ...] = (
    "Ashmark", "Brightwater", "Coldharbour", "Dunmere", "Eastfold", "Fernhollow",
    "Greywatch", "Highmoor", "Ironvale", "Juniper Reach", "Kestrel Isles", "Lowmarch",
)

PLUGIN = GamePlugin(
    name="kingdoms",
    ruleset=Kingdoms,
    words=GameWords(seat="country", seats="countries", seat_name_label="Country name",
                    turn="turn", computer_names=COUNTRY_NAMES, secrets="your country's secrets"),
    bots=BotSet(tuple(sorted(bots.STRATEGIES)), bots.make_bot),
    options=(OptionField("map", "Map (paste a map file in TOML; blank: The Six Realms)",
                         kind="text"),),
    options_form=options_from_form,
    pages=KingdomsPages(),
    templates=HERE / "templates",
    static=HERE / "static",
    quick=QuickOffer(label="Play Kingdoms against the computer",
                     title="Kingdoms: {username} vs the computer",
                     seat_name="{username}'s Kingdom",
                     bots=("warlord", "spymaster", "steward")),
    text=TextRenderers(report=text.render_report, host=text.render_host,
                       standings=text.render_standings),
)
