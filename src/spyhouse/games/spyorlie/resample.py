"""``resample``: a Spy or Lie state that a seat cannot tell from the true one (§14, AI2).

A seat sees every face but those of the opponent's face-down agents, and the opponent's
hand only as a size; Cyber Attacks are public once placed, so the opponent's unseen
Spies, Moles and Mole Catchers are exactly the unknown pool less its Cyber Attacks in
hand. A resampled world deals that list, shuffled, over the face-down agents (axial
order) and the hand, as AI2 does from the view; every face a card ever showed is set by
a reveal, so no event in the log depends on a face that changes. The log's hidden
placements and the KO keys are rewritten to the new faces, so the state is one the game
could have reached: the seat's view is unchanged and play goes on from it.
"""

from __future__ import annotations

from spyhouse.core.rng import Rng
from spyhouse.core.ruleset import SeatId
from spyhouse.games.spyorlie.game import GameState, LogEntry
from spyhouse.games.spyorlie.model import Colour, Event, Face, Place
from spyhouse.games.spyorlie.rules import Key, Position

#: The stream purpose of a resample's shuffle.
PURPOSE = "resample"


def resample(state: GameState, seat: SeatId, rng: Rng) -> GameState:
    """A state drawn uniformly among the deals of the opponent's unseen faces (see the
    module's docstring); ``state`` is untouched. ``ValueError`` for a seat not playing."""
    colour = state.colour_of(seat)
    if colour is None:
        raise ValueError(f"seat {seat} does not play this game")
    other = colour.other
    p = state.position
    hidden = [p.board.index[cell] for cell in p.hidden_cells(other)]
    base = 4 * other
    unseen = sorted([Face(p.face[i]) for i in hidden]
                    + [face for face in (Face.S, Face.M, Face.C)
                       for _ in range(p.hands[base + face])])
    faces = rng.stream(state.entries, f"{PURPOSE}:{seat}").ordering(unseen)
    position = p.copy()
    position.reassign(other, faces)
    new_face = {i: position.face[i] for i in hidden if position.face[i] != p.face[i]}
    if not new_face and position.hands == p.hands:
        return state
    cells = {p.board.cells[i]: Face(face) for i, face in new_face.items()}
    log = tuple(_entry(entry, other, cells) for entry in state.log)
    keys = tuple(_key(key, p, position, other, new_face) for key in state.keys)
    return GameState(options=state.options, seats=state.seats, names=state.names,
                     position=position, log=log, last_from=state.last_from, keys=keys,
                     computer=state.computer, entries=state.entries)


def _entry(entry: LogEntry, other: Colour, cells: dict[tuple[int, int], Face]) -> LogEntry:
    """``entry`` with ``other``'s placements on re-dealt cells showing their new faces."""
    move = entry.move
    if entry.colour != other or move is None or move.cell not in cells:
        return entry
    face = cells[move.cell]
    events: list[Event] = [event._replace(face=face)
                           if isinstance(event, Place) and event.cell == move.cell else event
                           for event in entry.events]
    return LogEntry(entry.ply, entry.colour, move._replace(face=face), tuple(events), entry.ai)


def _key(key: Key, before: Position, after: Position, other: Colour,
         new_face: dict[int, int]) -> Key:
    """A KO key (``Position.key``) of an earlier turn, rewritten to the new deal: the
    re-dealt cards placed by then show their new faces, and ``other``'s hand then is its
    hand now plus the cards it has placed since, at their new faces."""
    radius, o1, to_move, hands, immune, packed = key
    board = bytearray(packed)
    hand = list(hands)
    base = 4 * other
    for face in range(4):
        hand[base + face] += after.hands[base + face] - before.hands[base + face]
    for i, face in new_face.items():
        if board[i]:
            board[i] += 4 * (face - before.face[i])
        else:  # placed after this key: it was in the hand then, at its new face
            hand[base + face] += 1
            hand[base + before.face[i]] -= 1
    return (radius, o1, to_move, tuple(hand), immune, bytes(board))
