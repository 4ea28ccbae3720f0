"""Spy vs Spy as the platform sees it: one ``GamePlugin`` (``core.plugin``)."""

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
    SeatSetup,
    TextRenderers,
)
from spyhouse.games.spyvsspy import bots, guide, press, text
from spyhouse.games.spyvsspy.pages import SpyVsSpyPages, secret_lines
from spyhouse.games.spyvsspy.ruleset import SpyVsSpy
from spyhouse.games.spyvsspy.setup import BROTHERHOOD_NAMES
from spyhouse.games.spyvsspy.ui import REGION_CHOICES

HERE = Path(__file__).resolve().parent


def _players_choose(options: Mapping[str, Any]) -> bool:
    return bool(options.get("base_choice", "choose") == "choose")


PLUGIN = GamePlugin(
    name="spyvsspy",
    ruleset=SpyVsSpy,
    words=GameWords(seat="brotherhood", seats="brotherhoods",
                    seat_name_label="Brotherhood name", turn="turn",
                    computer_names=BROTHERHOOD_NAMES,
                    secrets="your brotherhood's secrets (its leader's name and its base)",
                    blurb=("secret brotherhoods in nine regions: find out which leader heads which "
                          "brotherhood and where its base hides, before they find yours")),
    bots=BotSet(tuple(sorted(bots.STRATEGIES)), bots.make_bot),
    options=(
        OptionField("base_choice", "Bases", default="choose",
                    choices=(("choose", "players choose their base region"),
                             ("random", "bases are drawn at random"))),
        OptionField("variant", "Variant", default="classic",
                    choices=(("classic", "classic rules"),
                             ("spy2", "Spy 2 (no HIDE, DISGUISE, FOLLOW or FAKE; "
                                      "declarations cost)"))),
        press.PRESS_OPTION,
    ),
    pages=SpyVsSpyPages(),
    templates=HERE / "templates",
    static=HERE / "static",
    quick=QuickOffer(label="Play Spy vs Spy against the computer",
                     seat_name="{username}'s Brotherhood",
                     options={"base_choice": "random"},
                     bots=("economist", "hunter", "shadow", "hunter")),
    seat_setup=SeatSetup(key="base", label="Secret base region", choices=REGION_CHOICES,
                         applies=_players_choose,
                         not_chosen="bases are drawn at random in this game",
                         unknown="unknown region {value}"),
    text=TextRenderers(report=text.render_report, host=text.render_host,
                       standings=text.render_standings, secrets=secret_lines),
    rules=guide.RULES,
    press=press.PRESS,
    encoding="spyhouse.games.spyvsspy.encoding:ENCODING",
)
