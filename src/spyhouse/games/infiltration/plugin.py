"""Infiltration as the platform sees it: one ``GamePlugin`` (``core.plugin``)."""

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
from spyhouse.games.infiltration import bots, guide, text
from spyhouse.games.infiltration.options import MAX_SECONDS, MIN_SECONDS
from spyhouse.games.infiltration.pages import InfiltrationPages
from spyhouse.games.infiltration.ruleset import Infiltration

HERE = Path(__file__).resolve().parent
MIN_MINUTES, MAX_MINUTES = MIN_SECONDS // 60, MAX_SECONDS // 60
YES_NO = (("yes", "Yes"), ("no", "No"))
CUSTOM = ("pace", ("custom",))

#: Handles for computer players (letters, digits and _, as §1 wants every handle).
HANDLES: tuple[str, ...] = (
    "Vasquez", "Okafor", "Lindqvist", "Haddad", "Moreau", "Tanaka", "Kowalski", "Adeyemi",
    "Novak", "Ferreira", "Sorensen", "Quigley", "Baptiste", "Ivanova", "Castellano",
    "Mbeki", "Oduya", "Petrakis", "Rinaldi", "Strand",
)


def _minutes(key: str, label: str) -> OptionField:
    return OptionField(key, label, kind="number", minimum=MIN_MINUTES, maximum=MAX_MINUTES,
                       scale=60, when=CUSTOM, required=True)


PLUGIN = GamePlugin(
    name="infiltration",
    ruleset=Infiltration,
    words=GameWords(seat="player", seats="players",
                    seat_name_label="Handle (letters, digits and _)", turn="phase",
                    computer_names=HANDLES, secrets="your team and class",
                    blurb=("Greens and hidden Reds in a 64-room facility: terminals, votes and "
                          "room combat, phase by phase")),
    bots=BotSet(tuple(sorted(bots.STRATEGIES)), bots.make_bot),
    options=(
        OptionField("pace", "Pace", default="forum", choices=(
            ("forum", "Forum speed (class 48 h, movement 24 h, decision 48 h)"),
            ("fast", "Quick evening game (class 5 min, movement 3 min, decision 8 min; "
                     "phases close early once everyone is ready)"),
            ("custom", "My own lengths (the minutes below)"))),
        _minutes("class_deadline", "Class selection (minutes, custom pace)"),
        _minutes("movement_deadline", "Movement phase (minutes, custom pace)"),
        _minutes("decision_deadline", "Decision phase (minutes, custom pace)"),
        OptionField("early_close", "Close a phase early once every player is READY "
                    "(custom pace)", kind="flag", default="no", choices=YES_NO, when=CUSTOM),
        OptionField("class_mode", "Classes", default="choose",
                    choices=(("choose", "Greens choose their class"),
                             ("random", "Classes are dealt at random"))),
        OptionField("reveal_red_count", "Tell everyone how many Reds there are", kind="flag",
                    default="yes", choices=YES_NO),
        OptionField("phantoms", "Phantom votes for players who do not vote", kind="flag",
                    default="yes", choices=YES_NO),
        OptionField("private_messages", "Players may send each other private messages",
                    kind="flag", default="yes", choices=YES_NO),
        OptionField("reds", "Reds (blank: one for every four players)", kind="number",
                    minimum=1, maximum=5),
    ),
    pages=InfiltrationPages(),
    pace_option="pace",
    templates=HERE / "templates",
    static=HERE / "static",
    quick=QuickOffer(label="Play Infiltration against five computer players",
                     title="Infiltration: {username} vs the computer",
                     options={"pace": "fast"},
                     bots=("operative", "vigilante", "operative", "vigilante", "operative")),
    text=TextRenderers(report=text.render_report, host=text.render_host,
                       standings=text.render_standings),
    rules=guide.RULES,
    encoding="spyhouse.games.infiltration.encoding:ENCODING",
)
