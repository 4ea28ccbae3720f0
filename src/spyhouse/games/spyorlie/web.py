"""Spy or Lie's web page: the board as interactive SVG, a game against the computer that
starts with one click, and a small page API (spec §16, UI-01 … UI-19).

Routes (all through ``deps.check_csrf``; a seat's routes through ``deps.UserSeat``, so
only the seat's holder reads or acts, and anybody else gets 404):

| method and path | what |
|---|---|
| ``GET /spyorlie`` | the operation desk: NEW OPERATION (difficulty, sector), the running one |
| ``POST /spyorlie/new`` | start a game against the computer (form: ``difficulty``, ``radius``) |
| ``GET /spyorlie/games/{id}`` | the board page of the caller's seat |
| ``GET /spyorlie/games/{id}/state`` | the page's data (JSON): the seat's view and the settings |
| ``POST /spyorlie/games/{id}/move`` | form ``move`` (DF2 JSON), ``entry``, ``request_key``: play |
| ``POST /spyorlie/games/{id}/difficulty`` | form ``difficulty``: Operative or Spymaster (D37) |
| ``POST /spyorlie/games/{id}/new`` | NEW OPERATION: a fresh game against the computer (UI-16) |

Writes are forms carrying the session's ``csrf_token`` (the page's script posts them with
``fetch``); the move and difficulty answers are JSON (``{"ok", "state"}``, or
``{"ok": false, "error", "messages", "state"}`` with the rules' DF9 message). The page's
only game data is the seat's own view (DF5) plus public platform settings (seat names,
the computer's difficulty): it never holds an opponent's hidden face or hand (UI-19).
The server computes every legal choice (``legal_moves``); the script only shows them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import JSONResponse, RedirectResponse, Response
from sqlalchemy.orm import Session

from spyhouse.service import games, play, quick
from spyhouse.service.errors import Invalid, OrdersRefused, ServiceError
from spyhouse.store.tables import Game, SeatRow
from spyhouse.web.deps import CurrentUser, Db, Now, UserSeat, check_csrf, seat_in_game
from spyhouse.web.render import error_status, render

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"
GAME = "spyorlie"
BASE = "/spyorlie"
LOBBY_LINKS = ((BASE, "Play Spy or Lie against the computer"),)

#: The difficulties the page offers (spec AI7; ``random`` is for tests only).
DIFFICULTIES: tuple[tuple[str, str], ...] = (("operative", "Operative"),
                                              ("spymaster", "Spymaster"))
DEFAULT_DIFFICULTY = "operative"
#: Board radii the desk offers (spec G5: 4 is the standard "SECTOR 05").
RADII: tuple[int, ...] = (2, 3, 4, 5)
DEFAULT_RADIUS = 4
FACES = {"S": "Spy", "M": "Mole", "C": "Mole Catcher", "X": "Cyber Attack"}
MAX_MOVE_TEXT = 2000

router = APIRouter(dependencies=[Depends(check_csrf)], include_in_schema=False)


# ---------------------------------------------------------------- helpers


def _difficulty(text: str) -> str | None:
    known = dict(DIFFICULTIES)
    return text if text in known else None


def _radius(text: str) -> int:
    text = text.strip()
    return int(text) if text.isdecimal() and int(text) in RADII else DEFAULT_RADIUS


def computer_options(radius: int, difficulty: str) -> dict[str, Any]:
    """Spec DF1: the page's one-click game, the person BLUE in ``s1``."""
    return {"radius": radius, "blue": "s1", "computer": {"s2": difficulty}}




def cell_text(cell: Any) -> str:
    """``[1, -1]`` as the spec prints cells."""
    if isinstance(cell, Sequence) and not isinstance(cell, str) and len(cell) == 2:
        return f"[{cell[0]}, {cell[1]}]"
    return str(cell)


def _face(face: Any) -> str:
    return FACES.get(str(face), "card") if face is not None else "card"


def _by(event: Mapping[str, Any]) -> str:
    by = event.get("by")
    return f" from {cell_text(by)}" if by is not None else ""


def event_text(event: Mapping[str, Any]) -> str:
    """One log line for one event (spec DF6), in the seat's own words."""
    kind = event.get("type")
    colour = str(event.get("colour", ""))
    if kind == "place":
        cell = cell_text(event.get("cell"))
        mode = event.get("mode")
        if mode == "ACCUSE":
            return (f"{colour} announces a Mole Catcher at {cell}, accusing "
                    f"{cell_text(event.get('target'))}.")
        if mode == "CYBER":
            return (f"{colour} launches a Cyber Attack at {cell} on "
                    f"{cell_text(event.get('target'))}.")
        if event.get("face") is None:
            return f"{colour} places a face-down card at {cell}."
        return f"{colour} places a {_face(event.get('face'))} at {cell}."
    if kind == "accuse":
        target = cell_text(event.get("target"))
        if event.get("correct"):
            return f"Correct accusation: {target} is a Mole."
        return f"Wrong accusation: {target} is a {_face(event.get('face'))}."
    if kind == "flip":
        cell = cell_text(event.get("cell"))
        to = event.get("to")
        face = _face(event.get("face"))
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
    if kind == "reversal":
        return (f"Wave {event.get('wave')}: the Mole at {cell_text(event.get('mole'))} turns "
                f"its captor {cell_text(event.get('cell'))} ({_face(event.get('face'))}) "
                f"over to {event.get('to')}.")
    if kind == "pass":
        return f"{colour} passes: no legal move."
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


def page_state(db: Session, seat: SeatRow) -> dict[str, Any]:
    """Everything the page shows: the seat's own view (DF5), its log as lines, and the
    public settings of the game (names, status, the computer's difficulty)."""
    game: Game = seat.game_row
    seats = games.seats_of(db, game.id)
    view = play.current_view(db, seat) if game.status != "open" else None
    in_effect = (view or {}).get("computer") or {}
    computer = {}
    for row in seats:
        if row.bot is not None:
            now_playing = str(in_effect.get(row.seat_id) or row.bot)
            computer[row.seat_id] = {"difficulty": now_playing, "next": row.bot}
    return {
        "game": {"id": game.id, "title": game.title, "status": game.status,
                 "entry": game.entry, "open_entry": game.entry + 1},
        "seat": seat.seat_id,
        "players": {row.seat_id: {"name": row.name, "player": row.player,
                                  "computer": row.bot is not None} for row in seats},
        "computer": computer,
        "difficulties": [{"id": key, "name": name} for key, name in DIFFICULTIES],
        "view": view,
        "lines": log_lines(view) if view is not None else [],
    }


def _json_state(db: Session, seat: SeatRow, *, status: int = 200,
                error: ServiceError | None = None) -> JSONResponse:
    db.expire_all()  # the rows as processing left them
    body: dict[str, Any] = {"ok": error is None, "state": page_state(db, seat)}
    if error is not None:
        body["error"] = error.message
        body["messages"] = list(getattr(error, "messages", None) or [error.message])
    return JSONResponse(body, status)


def _refused(db: Session, seat: SeatRow, exc: ServiceError) -> JSONResponse:
    db.rollback()  # a refused move leaves nothing behind
    return _json_state(db, seat, status=error_status(exc), error=exc)


# ---------------------------------------------------------------- the desk


@router.get(BASE)
def desk_page(request: Request, db: Db, user: CurrentUser) -> Response:
    running = quick.latest_against_computer(db, user, GAME)
    return render(request, "spyorlie/desk.html", {
        "running": running, "difficulties": DIFFICULTIES, "default": DEFAULT_DIFFICULTY,
        "radii": RADII, "default_radius": DEFAULT_RADIUS, "error": None})


@router.post(f"{BASE}/new")
def start_route(db: Db, user: CurrentUser, when: Now, difficulty: Annotated[str, Form()] = "",
          radius: Annotated[str, Form()] = "") -> Response:
    """NEW OPERATION from the desk: one click, a started game, BLUE to move."""
    chosen = _difficulty(difficulty) or DEFAULT_DIFFICULTY
    game = quick.start_against_computer(
        db, user, game=GAME, options=computer_options(_radius(radius), chosen),
        strategy=chosen, now=when)
    return RedirectResponse(f"{BASE}/games/{game.id}", 303)


# ---------------------------------------------------------------- the board


@router.get(BASE + "/games/{game_id}")
def board_page(request: Request, db: Db, seat: UserSeat) -> Response:
    seat = seat_in_game(seat, GAME, "Spy or Lie board")
    state = page_state(db, seat)
    return render(request, "spyorlie/board.html", {
        "game": seat.game_row, "seat": seat, "state": state,
        "against_computer": bool(state["computer"]), "faces": FACES})


@router.get(BASE + "/games/{game_id}/state")
def state_route(db: Db, seat: UserSeat) -> JSONResponse:
    return _json_state(db, seat_in_game(seat, GAME, "Spy or Lie board"))


@router.post(BASE + "/games/{game_id}/move")
def move_route(db: Db, seat: UserSeat, when: Now, move: Annotated[str, Form()] = "",
         entry: Annotated[str, Form()] = "",
         request_key: Annotated[str, Form()] = "") -> JSONResponse:
    """Play the seat's move (DF2 JSON in the form field ``move``), then the computer's
    reply at once; answers the new page state, or the rules' message (DF9)."""
    seat = seat_in_game(seat, GAME, "Spy or Lie board")
    try:
        data = json.loads(move) if len(move) <= MAX_MOVE_TEXT else None
    except ValueError:
        data = None
    if data is None and move.strip() != "null":
        exc = OrdersRefused(["A move must be a JSON object."])
        return _refused(db, seat, exc)
    try:
        quick.play_move(db, seat, data, now=when,
                        entry=int(entry) if entry.isdecimal() else None,
                        request_key=request_key.strip()[:80] or None)
    except ServiceError as exc:
        return _refused(db, seat, exc)
    return _json_state(db, seat)


@router.post(BASE + "/games/{game_id}/difficulty")
def difficulty_route(request: Request, db: Db, seat: UserSeat,
               difficulty: Annotated[str, Form()] = "") -> Response:
    """The computer's difficulty from its next turn (UI-15, D37)."""
    seat = seat_in_game(seat, GAME, "Spy or Lie board")
    chosen = _difficulty(difficulty)
    try:
        if chosen is None:
            raise Invalid("choose Operative or Spymaster",
                          {"difficulty": ["operative or spymaster"]})
        quick.set_strategy(db, seat, chosen)
    except ServiceError as exc:
        return _refused(db, seat, exc)
    if "application/json" not in request.headers.get("accept", ""):
        return RedirectResponse(f"{BASE}/games/{seat.game_id}", 303)
    return _json_state(db, seat)


@router.post(BASE + "/games/{game_id}/new")
def new_operation_route(db: Db, seat: UserSeat, when: Now) -> Response:
    """NEW OPERATION confirmed (UI-16): a fresh game, the same sector, the person BLUE,
    the computer at its current difficulty."""
    seat = seat_in_game(seat, GAME, "Spy or Lie board")
    bots = quick.computer_seats(db, seat.game_id)
    strategy = (bots[0].bot if bots else None) or DEFAULT_DIFFICULTY
    radius = seat.game_row.options.get("radius", DEFAULT_RADIUS)
    if not isinstance(radius, int) or isinstance(radius, bool):
        radius = DEFAULT_RADIUS
    game = quick.restart(db, seat, options=computer_options(radius, strategy), now=when)
    return RedirectResponse(f"{BASE}/games/{game.id}", 303)


__all__ = ["LOBBY_LINKS", "STATIC", "TEMPLATES", "computer_options", "event_text",
           "log_lines", "page_state", "router"]
