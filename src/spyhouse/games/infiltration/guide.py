"""Infiltration's rules for players (``core.plugin.RulesPage``): the rules page's template
and the one-line rule of each choice of the order forms: a class (class phase), a terminal
action (USE, HACK, DESTROY, RESTORE) and each terminal's USE, shown beside them.

The lines follow the spec (rules/infiltration.md §1.1, §9.2, §11); the page itself
(templates/infiltration/rules.html) gives the whole of each.
"""

from __future__ import annotations

from spyhouse.core.plugin import RulesPage
from spyhouse.games.infiltration.model import Feature

#: The classes a Green may choose (§1.1), in the form's order.
CLASS_HELP: dict[str, str] = {
    "Warrior": "Fights at priority 3, before Hackers, Sneakers and guards: kills a guard alone. "
               "Every Red is a Warrior.",
    "Hacker": "Sees on arrival whether the room's terminal is hacked, and may RESTORE a hacked "
              "one. Fights at priority 2.",
    "Sneaker": "Guards never shoot at you and you never set off ALERT MODE; you may use "
               "terminals during it. Fights at priority 2.",
}

#: The terminal actions (§9.1, §11).
ACTION_HELP: dict[str, str] = {
    "USE": "Use this room's terminal (what it does is below); your one terminal action this "
           "turn.",
    "HACK": "Reds only: from now on the terminal answers falsely; only Hackers can tell.",
    "DESTROY": "Reds only: nobody can use the terminal until an Engineer repairs it.",
    "RESTORE": "Hackers only: clears the hack of this room's terminal.",
}

#: What a USE of each terminal does (§9.2); a hacked one lies or does nothing.
TERMINAL_HELP: dict[str, str] = {
    Feature.COMMANDER: "Give 1 to 8 guards their next destination (any room).",
    Feature.SEER: "Name any player: told whether they are GREEN or RED.",
    Feature.PSYCHIC: "Told how many Reds are alive.",
    Feature.LOCATOR: "Name any player: told the room they (or their corpse) are in.",
    Feature.HISTORY: "Name a room: told who has been in it, turn by turn.",
    Feature.MAPDATA: "Name 1 to 5 rooms: told what each room holds.",
    Feature.SUPERLOCATOR: "Told every player's room (the dead marked as such).",
    Feature.MESSAGING: "Post a text to everyone as an ANONYMOUS TRANSMISSION.",
    Feature.GAS: "Name a room (yours too): everyone alive in it dies after combat.",
    Feature.GUARD: "Told where each living guard will move next turn.",
    Feature.VALIDITY: "Ask one statement about places, turns, Stingers, rooms or the code: "
                      "told TRUE or FALSE.",
    Feature.LOCK: "Name a room (yours too): nobody can enter or leave it in next turn's "
                  "movement.",
    Feature.SWITCH: "Name another room: its terminal and this Switch swap functions.",
}

RULES = RulesPage(template="rules.html",
                  order_help={**CLASS_HELP, **ACTION_HELP,
                              **{str(k): v for k, v in TERMINAL_HELP.items()}})

__all__ = ["ACTION_HELP", "CLASS_HELP", "RULES", "TERMINAL_HELP"]
