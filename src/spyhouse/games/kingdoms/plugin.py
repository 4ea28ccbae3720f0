"""Kingdoms as the platform sees it: one ``GamePlugin`` (``core.plugin``)."""

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
    options_from_form,
)
from spyhouse.games.kingdoms import bots, guide, press, text
from spyhouse.games.kingdoms.pages import KingdomsPages
from spyhouse.games.kingdoms.pages import options_from_form as map_from_form
from spyhouse.games.kingdoms.ruleset import Kingdoms

HERE = Path(__file__).resolve().parent

#: Names computer players take: a court, as a person's seat is named ("Arden Court"); the
#: country it rules is the map's (k1 Arden), so none of these is a map's country name.
COUNTRY_NAMES: tuple[str, ...] = (
    "Court of Ashmark", "Court of Brightwater", "Court of Coldharbour", "Court of Dunmere",
    "Court of Eastfold", "Court of Fernhollow", "Court of Greywatch", "Court of Highmoor",
    "Court of Ironvale", "Court of Juniper Reach", "Court of Kestrel Isles",
    "Court of Lowmarch",
)


def _options_from_form(fields: Mapping[str, str]) -> dict[str, Any]:
    """The pasted map (``pages.options_from_form``) and the declared press flag."""
    return {**map_from_form(fields), **options_from_form((press.PRESS_OPTION,), fields)}


PLUGIN = GamePlugin(
    name="kingdoms",
    ruleset=Kingdoms,
    words=GameWords(seat="country", seats="countries",
                    seat_name_label="Name of your court (the map names your country)",
                    turn="turn", computer_names=COUNTRY_NAMES, secrets="your country's secrets",
                    blurb="3 to 6 countries on a map: armies, spies, catchers, moles and watchers"),
    bots=BotSet(tuple(sorted(bots.STRATEGIES)), bots.make_bot),
    options=(OptionField("map", "Map (paste a map file in TOML; blank: The Six Realms)",
                         kind="text"), press.PRESS_OPTION),
    options_form=_options_from_form,
    pages=KingdomsPages(),
    templates=HERE / "templates",
    static=HERE / "static",
    quick=QuickOffer(label="Play Kingdoms against the computer",
                     title="Kingdoms: {username} vs the computer",
                     seat_name="{username}'s Kingdom",
                     bots=("warlord", "spymaster", "steward")),
    text=TextRenderers(report=text.render_report, host=text.render_host,
                       standings=text.render_standings),
    rules=guide.RULES,
    press=press.PRESS,
    encoding="spyhouse.games.kingdoms.encoding:ENCODING",
)
