"""Spy or Lie's pure page builders (``core.plugin.GamePages``): views in, contexts out.

The seat page is the interactive SVG board (``board.html`` and ``static/board.js``): the
platform serves it at ``/games/{id}/seat`` and its script talks to the platform's routes
(``/state``, ``/orders``, ``/computer``, ``/rematch``). Everything here reads one view (a
seat's, the host's or the public one) and never a state: the board page holds only the
seat's own view (DF5, UI-19); the host page, which the platform opens to the players once
the game is over, draws every face.

Also here: the log lines of a view's events (spec DF6, UI-13) and a server-drawn board
(the same geometry as the script's) for the report and host pages, which need no script.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

from spyhouse.core.errors import OrderError
from spyhouse.core.plugin import Explanation, GamePages, GameResult, PublicTable, SeatFacts
from spyhouse.core.ruleset import SeatId
from spyhouse.games.spyorlie.changes import changes
from spyhouse.games.spyorlie.explain import explain_move

FACES = {"S": "Spy", "M": "Mole", "C": "Mole Catcher", "X": "Cyber Attack"}
FACE_ORDER = ("S", "M", "C", "X")
COLOURS = ("BLUE", "RED")
#: The computer's difficulties a person may choose (spec AI7; ``random`` is for tests).
DIFFICULTIES: tuple[tuple[str, str], ...] = (("operative", "Operative"),
                                              ("spymaster", "Spymaster"))
#: The longest move text the board's form may send (a move is about 90 characters).
MAX_MOVE_TEXT = 2000
NOT_A_MOVE = "A move must be a JSON object."
RESULTS = {"BLUE_WIN": "BLUE", "RED_WIN": "RED"}


# ---------------------------------------------------------------- log lines (DF6)


def cell_text(cell: Any) -> str:
    """``[1, -1]`` as the spec prints cells."""
    if isinstance(cell, Sequence) and not isinstance(cell, str) and len(cell) == 2:
        return f"[{cell[0]}, {cell[1]}]"
    return str(cell)


def face_name(face: Any) -> str:
    return FACES.get(str(face), "card") if face is not None else "card"


def _by(event: Mapping[str, Any]) -> str:
    by = event.get("by")
    return f" from {cell_text(by)}" if by is not None else ""


def _place_text(event: Mapping[str, Any]) -> str:
    colour = str(event.get("colour", ""))
    cell = cell_text(event.get("cell"))
    mode = event.get("mode")
    if mode == "ACCUSE":
        return (f"{colour} announces a Mole Catcher at {cell}, accusing "
                f"{cell_text(event.get('target'))}.")
    if mode == "CYBER":
        return f"{colour} launches a Cyber Attack at {cell} on {cell_text(event.get('target'))}."
    if event.get("face") is None:
        return f"{colour} places a face-down card at {cell}."
    return f"{colour} places a {face_name(event.get('face'))} at {cell}."


def _flip_text(event: Mapping[str, Any]) -> str:
    cell = cell_text(event.get("cell"))
    to = event.get("to")
    face = face_name(event.get("face"))
    cause = event.get("cause")
    if cause == "accusation":
        return f"The Mole at {cell} is captured by {to}."
    if cause == "cyber":
        return f"{cell} ({face}) becomes a point card of {to}."
    if cause == "catcher_lost":
        return f"The Mole Catcher at {cell} goes to {to}."
    if cause == "self":
        return f"Self-surrounded: {cell} ({face}) is taken by {to}{_by(event)}."
    return f"Wave {event.get('wave')}: {cell} ({face}) is captured by {to}{_by(event)}."


def event_text(event: Mapping[str, Any]) -> str:
    """One log line for one event (spec DF6), in the seat's own words."""
    kind = event.get("type")
    if kind == "place":
        return _place_text(event)
    if kind == "accuse":
        target = cell_text(event.get("target"))
        if event.get("correct"):
            return f"Correct accusation: {target} is a Mole."
        return f"Wrong accusation: {target} is a {face_name(event.get('face'))}."
    if kind == "flip":
        return _flip_text(event)
    if kind == "reversal":
        return (f"Wave {event.get('wave')}: the Mole at {cell_text(event.get('mole'))} turns "
                f"its captor {cell_text(event.get('cell'))} ({face_name(event.get('face'))}) "
                f"over to {event.get('to')}.")
    if kind == "pass":
        return f"{event.get('colour', '')} passes: no legal move."
    if kind == "end":
        points = event.get("points") or {}
        score = f"BLUE {points.get('BLUE', 0)}, RED {points.get('RED', 0)}"
        result = {"BLUE_WIN": "BLUE wins", "RED_WIN": "RED wins", "DRAW": "a draw"}.get(
            str(event.get("result")), str(event.get("result")))
        return f"Operation complete: {score}, {result}."
    return str(kind)


def event_cells(event: Mapping[str, Any]) -> list[Any]:
    """The cells an event is about, for the page to mark in order (UI-13)."""
    kind = event.get("type")
    if kind == "accuse":
        return [event.get("target")]
    if kind in ("place", "flip", "reversal"):
        return [event.get("cell")]
    return []


def log_lines(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The view's log as lines, one per event, oldest first (UI-13, UI-14)."""
    lines = []
    for entry in view.get("log") or ():
        ply = int(entry.get("ply", 0))
        for event in entry.get("events") or ():
            lines.append({"ply": ply, "round": ply // 2 + 1, "colour": entry.get("colour"),
                          "type": event.get("type"), "text": event_text(event),
                          "cells": [c for c in event_cells(event) if c is not None]})
    return lines


# ---------------------------------------------------------------- the board, drawn here

#: A hex's radius in SVG units (centre to corner), as in ``board.js``.
HEX = 30.0
SQ3 = math.sqrt(3)


def _corner(i: int, size: float) -> tuple[float, float]:
    angle = math.radians(60 * i - 30)
    return size * math.cos(angle), size * math.sin(angle)


def hex_points(size: float) -> str:
    return " ".join(f"{x:.2f},{y:.2f}" for x, y in (_corner(i, size) for i in range(6)))


def mark_lines(orientation: int) -> list[tuple[str, str, str, str]]:
    """The three marked edges of a card of ``orientation`` (edge d faces direction d)."""
    lines = []
    for d in range(6):
        if d % 2 != orientation:
            continue
        (x1, y1), (x2, y2) = _corner((6 - d) % 6, HEX * 0.8), _corner((7 - d) % 6, HEX * 0.8)
        lines.append((f"{x1:.2f}", f"{y1:.2f}", f"{x2:.2f}", f"{y2:.2f}"))
    return lines


def _card_label(card: Mapping[str, Any], cell: str) -> str:
    label = f"{cell}: {card.get('owner')}"
    face = card.get("face")
    if card.get("status") == "POINT":
        label += " point card (flag)"
        if face:
            label += f", {face_name(face)}"
    elif face:
        label += f" {face_name(face)}" + ("" if card.get("revealed") else " (face-down)")
    else:
        label += " face-down card"
    if card.get("announced"):
        label += ", announced"
    return label


def board_drawing(view: Mapping[str, Any]) -> dict[str, Any]:
    """The board of ``view`` for a page without script (``_board_svg.html``): every cell
    with its place, and each card with every face the view holds."""
    radius = int(view.get("radius") or 0)
    width = SQ3 * HEX * (2 * radius + 1) + 12
    height = 3 * HEX * radius + 2 * HEX + 12
    first = view.get("first_orientation")
    dead = None if first is None else 2 - int(first)
    cards = {tuple(c["cell"]): c for c in view.get("cells") or ()}
    last = {tuple(e["move"]["cell"]) for e in view.get("last") or ()
            if isinstance(e.get("move"), Mapping) and e["move"].get("cell")}
    cells = []
    for q in range(-radius, radius + 1):
        for r in range(max(-radius, -q - radius), min(radius, -q + radius) + 1):
            x, y = HEX * SQ3 * (q + r / 2), HEX * 1.5 * r
            is_dead = dead is not None and (q - r) % 3 == dead
            classes = ["sol-cell"] + (["sol-dead"] if is_dead else []) + \
                (["sol-last"] if (q, r) in last else [])
            text = cell_text([q, r])
            cell: dict[str, Any] = {
                "key": f"{q},{r}", "transform": f"translate({x:.2f} {y:.2f})",
                "classes": " ".join(classes), "card": None,
                "label": f"{text}: {'never playable' if is_dead else 'empty'}"}
            card = cards.get((q, r))
            if card is not None:
                owner = str(card.get("owner", "")).lower()
                point = card.get("status") == "POINT"
                cell["card"] = {
                    "classes": f"sol-card sol-{owner}" + (" sol-pointcard" if point else ""),
                    "marks": mark_lines(int(card.get("orientation") or 0)),
                    "face": card.get("face"), "point": point, "owner": owner,
                    "announced": bool(card.get("announced")),
                    "immune": bool(card.get("immune"))}
                cell["label"] = _card_label(card, text)
            cells.append(cell)
    return {"view_box": f"{-width / 2:.1f} {-height / 2:.1f} {width:.1f} {height:.1f}",
            "hex": hex_points(HEX - 1), "card": hex_points(HEX * 0.9),
            "back": hex_points(HEX * 0.55), "flag_y": f"{-HEX * 0.72:.2f}",
            "badge": (f"{HEX * 0.42:.2f}", f"{HEX * 0.55:.2f}"),
            "ring": f"{HEX * 0.72:.2f}", "cells": cells}


def faces_shown(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every card's face the view holds, by cell: the host page hands these to the board's
    script once the game is over (the platform opens that page to the players then)."""
    return [{"cell": c["cell"], "face": c["face"]}
            for c in view.get("cells") or () if c.get("face") is not None]


# ---------------------------------------------------------------- the game page


def _names(view: Mapping[str, Any], names: Mapping[SeatId, str]) -> dict[str, str]:
    """Colour -> agency name (the platform's names first, then the view's directory)."""
    seats = view.get("seats") or {}
    found = {str(row.get("colour")): str(row.get("name")) for row in view.get("directory") or ()}
    for colour in COLOURS:
        seat = seats.get(colour)
        if seat is not None and seat in names:
            found[colour] = names[seat]
    return found


def _cards_of(view: Mapping[str, Any], colour: str) -> list[Mapping[str, Any]]:
    return [c for c in view.get("cells") or () if c.get("placer") == colour]


def cards_summary(view: Mapping[str, Any], colour: str) -> str:
    """The cards ``colour`` placed, by face as the view shows them ("Spy 5, face-down 2")."""
    cards = _cards_of(view, colour)
    counts = [(FACES[f], sum(1 for c in cards if c.get("face") == f)) for f in FACE_ORDER]
    hidden = sum(1 for c in cards if c.get("face") is None)
    parts = [f"{name} {n}" for name, n in counts if n] + \
        ([f"face-down {hidden}"] if hidden else [])
    return ", ".join(parts) or "none"


def cards_line(view: Mapping[str, Any], colour: str) -> str:
    """Every card ``colour`` placed, cell by cell, with the face the view shows."""
    items = []
    for card in _cards_of(view, colour):
        face = face_name(card["face"]) if card.get("face") is not None else "face-down"
        owner = card.get("owner")
        if card.get("status") == "POINT":
            face += f" (point card of {owner})"
        elif owner != colour:
            face += f" (now {owner}'s)"
        items.append(f"{cell_text(card.get('cell'))} {face}")
    return f"{colour} placed: " + ("; ".join(items) if items else "no card") + "."


def result_line(view: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """"BLUE wins 21–19 (Alice Agency)", or "A draw, 20–20"."""
    points = view.get("points") or {}
    winner = RESULTS.get(str(view.get("result")))
    if winner is None:
        score = f"{points.get('BLUE', 0)}–{points.get('RED', 0)}"
        return f"A draw, {score}."
    loser = "RED" if winner == "BLUE" else "BLUE"
    name = f" ({names[winner]})" if names.get(winner) else ""
    return f"{winner} wins {points.get(winner, 0)}–{points.get(loser, 0)}{name}."


# ---------------------------------------------------------------- the pages


class SpyOrLiePages(GamePages):
    """The board as the seat page, a report page with the log, a host page with every
    face, the game page's table and the result."""

    seat_template = "board.html"
    report_template = "report.html"
    host_template = "host_board.html"

    def seat(self, view: Mapping[str, Any], facts: SeatFacts) -> dict[str, Any]:
        """What ``board.html`` needs: the seat's part of the page state (its own view, the
        log lines, the difficulties; the template adds the platform's game, players and
        computer, as ``/games/{id}/state`` has them) and the face names."""
        return {"faces": FACES, "over": bool(view.get("over")),
                "board": {"seat": facts.seat_id, "view": view, "lines": log_lines(view),
                          "difficulties": [{"id": key, "name": name}
                                           for key, name in DIFFICULTIES]}}

    def changes(self, before: Mapping[str, Any], after: Mapping[str, Any], entry: int) -> str:
        return changes(before, after, entry)

    def sheet_from_fields(self, view: Mapping[str, Any], fields: Mapping[str, str]) -> Any:
        """The board's form field ``move``: the DF2 move as JSON text (``null`` is left to
        the rules to refuse in their words)."""
        text = fields.get("move", "")
        if len(text) > MAX_MOVE_TEXT:
            raise OrderError(view.get("seat"), [NOT_A_MOVE])
        try:
            data = json.loads(text)
        except ValueError:
            raise OrderError(view.get("seat"), [NOT_A_MOVE]) from None
        return data

    def state(self, view: Mapping[str, Any]) -> dict[str, Any]:
        return {"lines": log_lines(view)}

    def explain(self, host_view: Mapping[str, Any], orders: Mapping[SeatId, Any] | None,
                entry: int) -> list[Explanation]:
        """The move, its direct effects, each capture chain wave by wave with its Mole
        reversals, a self-surround and the score (``explain.explain_move``)."""
        return explain_move(host_view, entry)

    def reveal(self, host_view: Mapping[str, Any]) -> dict[str, Any]:
        return {"reveal": faces_shown(host_view)}

    def report(self, view: Mapping[str, Any], entry: int) -> dict[str, Any]:
        return {"lines": log_lines(view), "drawing": board_drawing(view), "faces": FACES}

    def host(self, view: Mapping[str, Any], entry: int) -> dict[str, Any]:
        return {"lines": log_lines(view), "drawing": board_drawing(view), "faces": FACES}

    def public(self, view: Mapping[str, Any], names: Mapping[str, str]) -> PublicTable | None:
        names = _names(view, names)
        points = view.get("points") or {}
        hands = view.get("hand_sizes") or {}
        return PublicTable(
            columns=("Agency", "Colour", "Points", "Cards in hand"),
            rows=tuple((names.get(colour, colour), colour, points.get(colour, 0),
                        hands.get(colour, "")) for colour in COLOURS))

    def result(self, view: Mapping[str, Any], names: Mapping[SeatId, str]) -> GameResult | None:
        """Once over: the line, the standings with each side's cards, and every card's face
        as the public view shows it (revealed faces; the rest stay face-down)."""
        if not view.get("over"):
            return None
        agency = _names(view, names)
        points = view.get("points") or {}
        winner = RESULTS.get(str(view.get("result")))
        order = sorted(COLOURS, key=lambda c: c != winner) if winner else list(COLOURS)
        rows = tuple((1 if winner in (None, colour) else 2, agency.get(colour, colour), colour,
                      points.get(colour, 0), cards_summary(view, colour)) for colour in order)
        return GameResult(
            line=result_line(view, agency),
            standings=PublicTable(("Place", "Agency", "Colour", "Points", "Cards placed"),
                                  rows),
            notes=tuple(cards_line(view, colour) for colour in COLOURS))


__all__ = ["DIFFICULTIES", "FACES", "MAX_MOVE_TEXT", "SpyOrLiePages", "board_drawing",
           "cell_text", "event_cells", "event_text", "faces_shown", "log_lines"]
