"""The create-game form's Infiltration options (spec §2): the pace of the phases'
deadlines, with the host's own lengths for a custom pace, and the table's choices a
moderator usually makes (Reds, classes, phantoms, private messages).

Blank or default answers leave the option out, so the engine's defaults apply (e.g. the
number of Reds follows the number of players). A bad answer is an ``OptionsError`` in the
form's own terms (minutes, not the record's seconds).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spyhouse.core.errors import OptionsError
from spyhouse.games.infiltration.options import MAX_SECONDS, MIN_SECONDS

PACES = (("forum", "Forum speed (class 48 h, movement 24 h, decision 48 h)"),
         ("fast", "Quick evening game (class 5 min, movement 3 min, decision 8 min; "
                  "phases close early once everyone is ready)"),
         ("custom", "My own lengths (the minutes below)"))
#: (option key, form key, label) of the custom pace's three lengths, in minutes
LENGTHS = (("class_deadline", "class_minutes", "Class selection (minutes, custom pace)"),
           ("movement_deadline", "movement_minutes", "Movement phase (minutes, custom pace)"),
           ("decision_deadline", "decision_minutes", "Decision phase (minutes, custom pace)"))
MIN_MINUTES, MAX_MINUTES = MIN_SECONDS // 60, MAX_SECONDS // 60
YES_NO = (("yes", "Yes"), ("no", "No"))
#: (option key, label, default, choices) of the yes/no and either/or choices
CHOICES: tuple[tuple[str, str, str, tuple[tuple[str, str], ...]], ...] = (
    ("early_close", "Close a phase early once every player is READY (custom pace)", "no",
     YES_NO),
    ("class_mode", "Classes", "choose",
     (("choose", "Greens choose their class"), ("random", "Classes are dealt at random"))),
    ("reveal_red_count", "Tell everyone how many Reds there are", "yes", YES_NO),
    ("phantoms", "Phantom votes for players who do not vote", "yes", YES_NO),
    ("private_messages", "Players may send each other private messages", "yes", YES_NO),
)
BOOLEAN = frozenset({"early_close", "reveal_red_count", "phantoms", "private_messages"})


def option_fields() -> list[dict[str, Any]]:
    """The options a host sets when creating a game."""
    fields: list[dict[str, Any]] = [
        {"key": "pace", "label": "Pace", "kind": "choice", "default": "forum",
         "choices": PACES}]
    fields += [{"key": form_key, "label": label, "kind": "number", "default": "",
                "min": MIN_MINUTES, "max": MAX_MINUTES} for _, form_key, label in LENGTHS]
    fields += [{"key": key, "label": label, "kind": "choice", "default": default,
                "choices": choices} for key, label, default, choices in CHOICES]
    fields.append({"key": "reds", "label": "Reds (blank: one for every four players)",
                   "kind": "number", "default": "", "min": 1, "max": 5})
    return fields


def _whole(fields: Mapping[str, str], form_key: str, label: str, low: int,
           high: int) -> int | None:
    text = fields.get(f"option-{form_key}", "").strip()
    if not text:
        return None
    if not text.isdecimal() or not low <= int(text) <= high:
        raise OptionsError(f"{label.split(' (')[0]}: a whole number from {low} to {high}")
    return int(text)


def options_from_fields(fields: Mapping[str, str]) -> dict[str, Any]:
    """The options JSON from the form; ``OptionsError`` names the field a host got wrong."""
    pace = fields.get("option-pace", "forum")
    pace = pace if pace in dict(PACES) else "forum"
    options: dict[str, Any] = {"pace": pace}
    if pace == "custom":
        for key, form_key, label in LENGTHS:
            minutes = _whole(fields, form_key, label, MIN_MINUTES, MAX_MINUTES)
            if minutes is None:
                raise OptionsError(f"{label.split(' (')[0]}: give its length in minutes "
                                   f"({MIN_MINUTES} to {MAX_MINUTES}) for a custom pace")
            options[key] = minutes * 60
    for key, _label, default, choices in CHOICES:
        if key == "early_close" and pace != "custom":
            continue  # forum and fast set it themselves (§2)
        answer = fields.get(f"option-{key}", default)
        if answer not in dict(choices) or answer == default:
            continue
        options[key] = answer == "yes" if key in BOOLEAN else answer
    reds = _whole(fields, "reds", "Reds", 1, 5)
    if reds is not None:
        options["reds"] = reds
    return options


#: The lobby's one-click game (``service.demo.QuickOffer``): the player and five
#: computer players, at the quick pace, so a whole turn takes minutes.
QUICK_GAME: dict[str, Any] = {
    "label": "Play Infiltration against five computer players",
    "title": "Infiltration: {username} vs the computer",
    "options": {"pace": "fast"},
    "bots": ("operative", "vigilante", "operative", "vigilante", "operative"),
}
