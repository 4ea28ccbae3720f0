"""Kingdoms' rules for players (``core.plugin.RulesPage``): the rules page's template and
each action's rule in one line, which the order form shows beside the action select.

The lines follow the spec (rules/kingdoms.md Part A and B.4-B.5), in the order the form
offers the actions (``pages.ACTIONS`` is built from them); the page itself
(templates/kingdoms/rules.html) gives the whole of each action.
"""

from __future__ import annotations

from spyhouse.core.plugin import RulesPage

#: Each action's rule in one line, in the order the order form offers them.
ACTION_HELP: dict[str, str] = {
    "SPY": "Move your spy to a neighbouring land area (free); with FROM and no spy yet, "
           "recruit one there first (2 BP).",
    "SKIP": "Move your spy by sea to a land area that is not a neighbour: 1 BP per sea "
            "area crossed.",
    "FIND": "Free: FROM an area lists the rival spies and watchers there; TO a country says "
            "where its spy is.",
    "KILL": "Free: remove one agent or watcher of a rival (TO) in an area (FROM) that you own "
            "or where your catcher or mole stands.",
    "WAIT": "Free: your agent (EXTRA; the spy if blank), in an area you own, ambushes the next "
            "agent it hunts that the country (TO) sends in.",
    "SABOTAGE": "1 BP: your spy, in an area you do not own, sends one army there back to its "
                "reserve, and is caught.",
    "WATCH": "Free: your spy goes underground as a watcher where it stands: it reports every "
             "turn and you may recruit there.",
    "SPYCAT": "Move or recruit (5 BP) your spy catcher, which hunts rival spies; by sea 1 BP "
              "per sea area.",
    "MOLE": "Move or recruit (5 BP) your mole, which hunts rival spy catchers.",
    "MOLECAT": "Move or recruit (5 BP) your mole catcher, which hunts rival moles and is never "
               "caught.",
    "RAISE": "Put armies (EXTRA, 1 if blank) from your reserve into an area you own: 2 BP each.",
    "MOVE": "Move armies (EXTRA, 1 if blank) from an area you own to a neighbouring land area: "
            "join, capture or battle.",
}

RULES = RulesPage(template="rules.html", order_help=ACTION_HELP)

__all__ = ["ACTION_HELP", "RULES"]
