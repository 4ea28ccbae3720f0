"""Why a Spy or Lie move came out as it did, for the replay (``GamePages.explain``).

Read from the host view after the record entry: its ``last`` log entries (the move, then
any forced passes), whose events are the engine's own (spec DF6, in APPLY's order, §12):
the placement, an accusation and its flip, a Cyber Attack's flip, each capture chain wave
by wave with its resolvers, each Mole reversal, a self-surround, passes and the end.
Every face is the host's to see. Pure: a view in, sentences out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from spyhouse.core.plugin import Explanation

FACES = {"S": "Spy", "M": "Mole", "C": "Mole Catcher", "X": "Cyber Attack"}


def _cell(cell: Any) -> str:
    if isinstance(cell, Sequence) and not isinstance(cell, str) and len(cell) == 2:
        return f"[{cell[0]}, {cell[1]}]"
    return str(cell)


def _face(face: Any) -> str:
    return FACES.get(str(face), "card") if face is not None else "card"


def explain_move(view: Mapping[str, Any], entry: int) -> list[Explanation]:
    """The explanation of record entry ``entry`` from the host view after it."""
    if entry == 0:
        return [_setup(view)]
    out: list[Explanation] = []
    for logged in view.get("last") or ():
        out.extend(_turn(logged))
    points = view.get("points") or {}
    score = [f"Score: BLUE {points.get('BLUE', 0)}, RED {points.get('RED', 0)} "
             "(each side's point cards)."]
    if view.get("over"):
        score.append(f"The game is over: {_result(view.get('result'))}.")
    out.append(Explanation("Score", tuple(score)))
    return out


def _setup(view: Mapping[str, Any]) -> Explanation:
    hands = view.get("hands") or {}
    lines = [f"A board of radius {view.get('radius')}; BLUE moves first, at the centre."]
    for colour in ("BLUE", "RED"):
        hand = hands.get(colour) or {}
        cards = ", ".join(f"{hand[face]} {_face(face)}" for face in FACES if hand.get(face))
        lines.append(f"{colour}'s hand: {cards or 'empty'}.")
    return Explanation("Set-up", tuple(lines))


def _result(result: Any) -> str:
    return {"BLUE_WIN": "BLUE wins", "RED_WIN": "RED wins", "DRAW": "a draw"}.get(
        str(result), str(result))


def _turn(logged: Mapping[str, Any]) -> list[Explanation]:
    """One log entry: the move, its direct effects, its chains, a self-surround, the end."""
    colour = str(logged.get("colour"))
    ply = int(logged.get("ply") or 0)
    events: list[Mapping[str, Any]] = list(logged.get("events") or ())
    move = logged.get("move") or {}
    catcher = move.get("cell") if move.get("mode") == "ACCUSE" else None
    out: list[Explanation] = []
    chains: dict[str, list[str]] = {}
    current = "Capture chain"
    self_group: Any = None
    for event in events:
        kind = event.get("type")
        if kind == "pass":
            out.append(Explanation(f"Move {ply + 1}: {colour} passes", (
                f"{colour} had no legal move (or no card left), so passed.",)))
        elif kind == "place":
            out.append(Explanation(f"Move {ply + 1}: {colour} plays", (_placed(event),)))
        elif kind == "accuse":
            out.append(_accusation(event, colour))
        elif kind == "flip" and event.get("cause") in ("accusation", "catcher_lost", "cyber"):
            out.append(_direct(event))
        elif kind in ("flip", "reversal"):
            if kind == "flip" and event.get("cause") == "self":
                current, self_group = "Self-surround", event.get("cell")
            elif kind == "flip":
                group = event.get("group")
                current = ("Self-surround" if group == self_group and self_group is not None
                           else f"Capture chain of the group at {_cell(group)}")
            chains.setdefault(current, []).append(_chain_line(event, events, catcher))
        elif kind == "end":
            points = event.get("points") or {}
            out.append(Explanation("End of the game", (
                "Both sides passed in a row, or both hands are empty.",
                f"Final score BLUE {points.get('BLUE', 0)}, RED {points.get('RED', 0)}: "
                f"{_result(event.get('result'))}.")))
    for title, lines in chains.items():
        if title == "Self-surround":
            lead = (f"{colour}'s own group of the placed card had no free edge left after the "
                    "enemy captures, so the opponent takes it, starting with the placed card "
                    "(wave 0).")
        else:
            lead = ("The group had no free edge; the chain spreads wave by wave from the "
                    "closing card, each captured card attacking in the next wave like a Spy; a "
                    "target touching several attackers goes to the first in axial order; "
                    "Moles are resolved first in each wave.")
        insert = len(out) - (1 if out and out[-1].title == "End of the game" else 0)
        out.insert(insert, Explanation(title, (lead, *lines)))
    return out


def _placed(event: Mapping[str, Any]) -> str:
    colour = event.get("colour")
    cell = _cell(event.get("cell"))
    mode = event.get("mode")
    if mode == "ACCUSE":
        return (f"{colour} announced a Mole Catcher at {cell}, accusing "
                f"{_cell(event.get('target'))} of being a Mole.")
    if mode == "CYBER":
        return f"{colour} played a Cyber Attack at {cell} on {_cell(event.get('target'))}."
    return f"{colour} placed a {_face(event.get('face'))} face down at {cell}."


def _accusation(event: Mapping[str, Any], colour: str) -> Explanation:
    target = _cell(event.get("target"))
    if event.get("correct"):
        lines = (f"{target} is an active Mole: the accusation is correct. The Mole is "
                 f"captured at once, whatever its group's free edges, and the Catcher is "
                 "immune during the opponent's next turn.",)
    else:
        lines = (f"{target} is a {_face(event.get('face'))}, not an active Mole: the accusation "
                 f"is wrong. {target} is revealed and {colour}'s Catcher goes to the opponent; "
                 "no capture is checked this move.",)
    return Explanation("Mole Catcher accusation", lines)


def _direct(event: Mapping[str, Any]) -> Explanation:
    cell = _cell(event.get("cell"))
    to = event.get("to")
    cause = event.get("cause")
    if cause == "accusation":
        return Explanation("The accused Mole", (
            f"The Mole at {cell} becomes a point card of {to}; with the Catcher it starts the "
            "capture checks (a seed).",))
    if cause == "catcher_lost":
        return Explanation("The lost Catcher", (
            f"The Mole Catcher at {cell} becomes a point card of {to}.",))
    return Explanation("Cyber Attack", (
        f"{cell} ({_face(event.get('face'))}) becomes a point card of {to}, whatever its group's "
        "free edges (a Mole is taken without a reversal); with the Cyber Attack it starts the "
        "capture checks.",))


def _chain_line(event: Mapping[str, Any], events: Sequence[Mapping[str, Any]],
                catcher: Any) -> str:
    cell = _cell(event.get("cell"))
    face = _face(event.get("face"))
    wave = event.get("wave")
    if event.get("type") == "reversal":
        return (f"Wave {wave}: Mole reversal: the Mole at {_cell(event.get('mole'))} turns its "
                f"immediate captor {cell} ({face}) over to {event.get('to')}; that branch of "
                "the chain stops there.")
    by = event.get("by")
    resolver = f", resolved by {_cell(by)}" if by is not None else ", with no captor"
    line = f"Wave {wave}: {cell} ({face}) captured by {event.get('to')}{resolver}."
    if event.get("face") == "M":
        reversed_it = any(e.get("type") == "reversal" and e.get("mole") == event.get("cell")
                          for e in events)
        if reversed_it:
            line += " It was an active Mole."
        elif catcher is not None and by == catcher:
            line += " The announced Mole Catcher defeats the Mole: no reversal."
        else:
            line += (" No reversal (a point card's face does not act, and a captor is "
                     "reversed at most once and never while immune).")
    return line


__all__ = ["explain_move"]
