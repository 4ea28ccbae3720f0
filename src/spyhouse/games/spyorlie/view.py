"""Views (DF5–DF7, §14), each built by allow-list from the state.

- seat view = Observation(P): own faces, own hand, public facts; never an opponent's
  face-down face or hand composition (OBS2);
- host view (``seat=None``): every face, both hands, ``ai`` notes; never the seed;
- public view (spectators; the spec is silent): the seat view's public keys with no hidden
  face and no hand, plus ``directory`` and ``game_over`` for the platform's mail.
"""

from __future__ import annotations

from typing import Any

from spyhouse.games.spyorlie.board import Cell
from spyhouse.games.spyorlie.game import GameState, LogEntry
from spyhouse.games.spyorlie.model import Colour, Face, Mode, Move, Place, cell_json
from spyhouse.games.spyorlie.rules import Position

#: Who looks: a colour, HOST (every face) or PUBLIC (revealed faces only).
HOST = -1
PUBLIC = -2


def _colours(values: tuple[int, int] | list[int]) -> dict[str, int]:
    return {"BLUE": values[0], "RED": values[1]}


def _counts(hand: tuple[int, int, int, int]) -> dict[str, int]:
    return {face.name: hand[face] for face in Face}


def _sees(viewer: int, placer: int, revealed: bool) -> bool:
    return viewer == HOST or revealed or placer == viewer


def cells_json(p: Position, viewer: int) -> list[dict[str, Any]]:
    """DF5 ``cells``: every occupied cell in axial order."""
    out = []
    cells = p.board.cells
    immune = p.immune_index()
    for i, owner in enumerate(p.own):
        if owner < 0:
            continue
        placer = p.placer[i]
        revealed = bool(p.rev[i])
        out.append({
            "cell": cell_json(cells[i]), "owner": Colour(owner).name,
            "placer": Colour(placer).name, "status": "POINT" if p.point[i] else "AGENT",
            "orientation": p.orientation_of(i), "revealed": revealed,
            "announced": bool(p.ann[i]), "immune": i == immune,
            "face": Face(p.face[i]).name if _sees(viewer, placer, revealed) else None,
        })
    return out


def move_json(move: Move, mover: int, viewer: int) -> dict[str, Any]:
    """A logged move: ``face`` null for another's PLAIN placement (DF5)."""
    out = move.to_json()
    if not (viewer in (HOST, mover) or move.mode != Mode.PLAIN):
        out["face"] = None
    return out


def entry_json(entry: LogEntry, viewer: int) -> dict[str, Any]:
    """DF5 ``log`` item: ply, colour, move (``{"pass": true}`` for a pass), events."""
    if entry.move is None:
        move: dict[str, Any] = {"pass": True}
    else:
        move = move_json(entry.move, entry.colour, viewer)
        if viewer == HOST and entry.ai is not None:
            move["ai"] = entry.ai.to_json()
    events = []
    for ev in entry.events:
        if isinstance(ev, Place):
            events.append(ev.to_json(viewer == HOST or viewer == ev.colour))
        else:
            events.append(ev.to_json())
    return {"ply": entry.ply, "colour": entry.colour.name, "move": move, "events": events}


def legal_json(p: Position) -> list[dict[str, Any]]:
    return [move.to_json() for move in p.legal_moves()]


def _common(state: GameState, viewer: int) -> dict[str, Any]:
    p = state.position
    over = p.over
    mover = None if over else p.to_move
    round_number = p.ply // 2 + 1
    return {
        "game": "spyorlie",
        "seat": state.seat_of(viewer) if viewer >= 0 else None,
        "colour": Colour(viewer).name if viewer >= 0 else None,
        "seats": {"BLUE": state.seats[0], "RED": state.seats[1]},
        "computer": dict(state.computer),
        "radius": p.radius,
        "first_orientation": p.first_orientation,
        "ply": p.ply,
        "round": round_number,
        "to_move": None if mover is None else mover.name,
        "awaiting": None if mover is None else state.seat_of(mover),
        "turns_taken": _colours(p.turns),
        "pass_streak": p.pass_streak,
        "cyber_window_open": p.cyber_window_open(),
        "points": _colours(p.points()),
        "cells": cells_json(p, viewer),
    }


def _tail(state: GameState, view: dict[str, Any], viewer: int) -> dict[str, Any]:
    view["log"] = [entry_json(entry, viewer) for entry in state.log]
    view["last"] = [entry_json(entry, viewer) for entry in state.last]
    view["over"] = state.position.over
    view["result"] = state.position.result
    return view


def seat_view(state: GameState, colour: Colour) -> dict[str, Any]:
    """DF5: Observation(P) for the seat playing ``colour``."""
    p = state.position
    view = _common(state, colour)
    view["hand"] = _counts(p.hand(colour))
    view["opponent_hand_size"] = p.hand_size(colour.other)
    view["unknown_pool"] = _counts(p.unknown_pool(colour))
    view["legal_moves"] = legal_json(p) if not p.over and p.to_move == colour else []
    return _tail(state, view, colour)


def host_view(state: GameState) -> dict[str, Any]:
    """DF7: every face, both hands, the side to move's legal moves, ``ai`` notes."""
    p = state.position
    view = _common(state, HOST)
    view["hands"] = {c.name: _counts(p.hand(c)) for c in Colour}
    view["legal_moves"] = legal_json(p)
    _tail(state, view, HOST)
    view["directory"] = directory(state)
    view["game_over"] = game_over(state)
    return view


def public_view(state: GameState) -> dict[str, Any]:
    """A spectator: revealed faces only, no hands, no legal moves."""
    view = _common(state, PUBLIC)
    view["hand_sizes"] = _colours([state.position.hand_size(c) for c in Colour])
    view["legal_moves"] = []
    _tail(state, view, PUBLIC)
    view["directory"] = directory(state)
    view["game_over"] = game_over(state)
    return view


def directory(state: GameState) -> list[dict[str, Any]]:
    return [{"seat": state.seats[c], "name": state.names[c], "colour": c.name} for c in Colour]


def game_over(state: GameState) -> dict[str, Any] | None:
    """The platform's end summary (winners and places), ``None`` while the game goes on."""
    p = state.position
    if not p.over:
        return None
    winners, standings = standings_of(state)
    return {"result": p.result, "points": _colours(p.points()), "winners": list(winners),
            "standings": [{"seat": seat, "place": place} for seat, place in standings]}


def standings_of(state: GameState) -> tuple[tuple[str, ...], tuple[tuple[str, int], ...]]:
    """E3 / DF3 outcome: the winner ranks 1, the loser 2; a draw ranks both 1, no winner."""
    blue, red = state.position.points()
    b, r = state.seats
    if blue > red:
        return (b,), ((b, 1), (r, 2))
    if red > blue:
        return (r,), ((r, 1), (b, 2))
    return (), ((b, 1), (r, 1))


def cell_of(data: Any) -> Cell:
    return (int(data[0]), int(data[1]))
