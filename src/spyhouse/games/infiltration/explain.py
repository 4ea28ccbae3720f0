"""Why an Infiltration phase came out as it did, for the replay (``GamePages.explain``).

Read from the host view after the record entry: the public log (the vote count, the
lynch, phantoms, deaths, the end), the private logs (movement notices, class notices)
and the host-only ``explain`` record the engine writes while resolving a Decision phase
(``phases._explained``): each room's combat tier by tier, each terminal use with its
snapshot's hack state and its answer, the dropped actions and the gassed rooms. Steps
follow the spec's turn algorithm (§4). Pure: a view in, sentences out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from spyhouse.core.plugin import Explanation

#: Terminals whose use is an effect (a hacked one only sends its confirmation, §9.2).
EFFECT_TERMINALS = frozenset({"Anonymous messaging", "Gas", "Commander's", "Electronic lock",
                              "Switch"})
#: Who acts at each combat priority (§1.1).
_PRIORITY = {4: "Renegade", 3: "Warrior", 2: "Hacker, Sneaker, guard", 1: "Engineer"}


class _Names:
    """Handles by seat id (NPCs by their id), and the host's classes and teams."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        self.seats: dict[str, Mapping[str, Any]] = {
            str(s.get("seat")): s for s in view.get("seats") or () if isinstance(s, Mapping)}

    def __call__(self, name: Any) -> str:
        seat = self.seats.get(str(name))
        return str(seat.get("handle")) if seat is not None else str(name)

    def role(self, name: Any) -> str:
        seat = self.seats.get(str(name))
        if seat is None:
            return str(name).split("-")[0].lower() or "NPC"
        klass = seat.get("class")
        team = str(seat.get("team", "")).capitalize()
        return f"{team} {klass}" if klass else team


def _events(view: Mapping[str, Any], turn: int, steps: Sequence[str]) -> list[Mapping[str, Any]]:
    return [e for e in view.get("public_log") or ()
            if e.get("turn") == turn and e.get("step") in steps]


def explain_phase(view: Mapping[str, Any], entry: int) -> list[Explanation]:
    """The explanation of record entry ``entry`` from the host view after it."""
    names = _Names(view)
    phase, turn = view.get("phase"), int(view.get("turn") or 0)
    if entry == 0:
        return [_setup(view, names)]
    if phase == "decision":
        return _movement(view, names, turn)
    if phase == "movement" and turn == 1:
        return [_classes(view, names)]
    decided = turn if phase == "over" else turn - 1
    return _decision(view, names, decided)


def _setup(view: Mapping[str, Any], names: _Names) -> Explanation:
    lines = [f"{names(s)}: {names.role(s)}, starting in {names.seats[s].get('room')}."
             for s in names.seats]
    return Explanation("Set-up", tuple(lines or ["No players."]))


def _classes(view: Mapping[str, Any], names: _Names) -> Explanation:
    logs = view.get("private_logs") or {}
    lines = [f"{names(seat)}: {e.get('text')}" for seat in names.seats
             for e in logs.get(seat) or () if e.get("kind") == "class" and e.get("step") == "S3"]
    lines.append("A Green who chose nothing got the default class; Reds have none.")
    return Explanation("S3 Class selection", tuple(lines))


def _movement(view: Mapping[str, Any], names: _Names, turn: int) -> list[Explanation]:
    """T4–T10: guards then players moved; failed moves; the alert; arrivals."""
    logs = view.get("private_logs") or {}
    moves = [f"{names(seat)}: {e.get('notice')}" for seat in names.seats
             for e in logs.get(seat) or () if e.get("kind") == "arrival"
             and e.get("turn") == turn and e.get("step") == "T10" and e.get("notice")]
    rooms = [f"{names(s)} is in {names.seats[s].get('room')}." for s in names.seats
             if names.seats[s].get("alive")]
    alert = [str(e.get("text")) for e in _events(view, turn, ("T8",))]
    return [
        Explanation("T4–T7 Movement", tuple(
            ["Every living guard moved to its planned room, and every living player's move "
             "was resolved at the same moment (locks, then the GHOST room's door).",
             *(moves or ["No move failed."]), *rooms])),
        Explanation("T8 Alert", tuple(alert or ["No alert post."])),
    ]


def _decision(view: Mapping[str, Any], names: _Names, turn: int) -> list[Explanation]:
    record = view.get("explain") or {}
    out = [_lynch(view, turn)]
    if record.get("turn") == turn and record.get("ended") == "R1":
        out.append(Explanation("R1 End of the game", (
            "Every living player voted NO REDS LEFT: the game ends at R1, Greens winning if no "
            "Red is alive and Reds otherwise; no combat, terminal or gas happened.",)))
    if record.get("turn") == turn and "combat" in record:
        out.append(_combat(record, names))
        out.append(_terminals(view, record, names, turn))
        out.append(_gas(record, names, turn))
    info = [str(e.get("text")) for e in _events(view, turn, ("R5",))]
    if record.get("turn") == turn and "combat" in record:
        out.append(Explanation("R5 Information", tuple(
            info or ["Nobody was found dead and no anonymous message was sent."])))
    end = [str(e.get("text")) for e in _events(view, turn, ("R6",)) if e.get("kind") == "end"]
    result = view.get("result") or {}
    if end:
        out.append(Explanation("R6 End check", (*end, f"Reason: {result.get('reason')}.")))
    elif record.get("ended") != "R1":
        out.append(Explanation("R6 End check", ("The game goes on.",)))
    return out


def _lynch(view: Mapping[str, Any], turn: int) -> Explanation:
    lines = [str(e.get("text")) for e in _events(view, turn, ("R1",))]
    lines.append("Each vote adds 1000 points to its choice (NO REDS LEFT counts for NO LYNCH "
                 "unless every living player chose it); phantoms add 1 point (two or more: "
                 "1001) against their holder; the strictly highest total wins, and a tie or "
                 "NO LYNCH on top means no lynch.")
    return Explanation("R1 Lynch: the vote count", tuple(lines))


def _combat(record: Mapping[str, Any], names: _Names) -> Explanation:
    fights = record.get("combat") or ()
    if not fights:
        return Explanation("R2 Combat", ("No attack in any room.",))
    lines = []
    for fight in fights:
        who = ", ".join(f"{names(n)} ({names.role(n)}, priority {p})"
                        for n, p in fight.get("participants") or ())
        attacks = "; ".join(f"{names(x)} → {names(y)}" for x, y in fight.get("attacks") or ())
        lines.append(f"In {fight.get('room')}: {who}. Attacks: {attacks}.")
        for tier, acting, died in fight.get("tiers") or ():
            shots = "; ".join(f"{names(x)} → {names(y)}" for x, y in acting)
            dead = ", ".join(names(n) for n in died) or "nobody"
            lines.append(f"  Priority {tier} ({_PRIORITY.get(tier, tier)}): {shots}; died: "
                         f"{dead}.")
        dead = ", ".join(names(n) for n in fight.get("died") or ()) or "nobody"
        lines.append(f"  Dead in {fight.get('room')}: {dead}.")
    lines.append("Tiers run from priority 4 down to 1; the dead take no part in lower tiers. A "
                 "target dies unless it parries every attacker by attacking it back in the "
                 "same tier, and two attackers that do not attack each other overwhelm it.")
    return Explanation("R2 Combat, by priority", tuple(lines))


def _terminals(view: Mapping[str, Any], record: Mapping[str, Any], names: _Names,
               turn: int) -> Explanation:
    lines = []
    alert = [e for e in _events(view, turn, ("T8",)) if e.get("alert")]
    if alert:
        lines.append("Alert Mode was on: only Sneakers' terminal actions ran, and Engineers "
                     "did no maintenance.")
    order = ", ".join(names(s) for s in record.get("initiative") or ())
    lines.append(f"Initiative order (drawn): {order or 'nobody'}.")
    for use in record.get("terminals") or ():
        terminal, action = use.get("terminal"), use.get("action")
        if action != "USE":
            state = "hacked" if use.get("hacked") else "clean"
        elif use.get("hacked"):
            state = ("hacked: nothing happened, the confirmation was sent anyway"
                     if terminal in EFFECT_TERMINALS else "hacked: the answer is false")
        else:
            state = "clean: the answer is true" if terminal not in EFFECT_TERMINALS else "clean"
        answer = " / ".join(str(line) for line in use.get("lines") or ()) or "no answer"
        lines.append(f"{names(use.get('seat'))} in {use.get('room')}: {action} the {terminal} "
                     f"terminal ({state}). Told: {answer}")
    for seat, action in record.get("dropped") or ():
        lines.append(f"{names(seat)}'s {action} did not run (dead before R3, the terminal "
                     "destroyed, or Alert Mode).")
    if len(lines) == 1 + bool(alert):
        lines.append("No terminal action this turn.")
    return Explanation("R3 Terminals", tuple(lines))


def _gas(record: Mapping[str, Any], names: _Names, turn: int) -> Explanation:
    rooms = record.get("gassed") or ()
    if not rooms:
        return Explanation("R4 Gas", ("No room was gassed.",))
    dead = [names(s) for s, info in names.seats.items()
            if isinstance(info.get("death"), Mapping) and info["death"].get("turn") == turn
            and info["death"].get("cause") == "gas"]
    return Explanation("R4 Gas", (f"Gassed: {', '.join(rooms)}.",
                                  f"Died of gas: {', '.join(dead) or 'no player'}."))


__all__ = ["explain_phase"]
