"""A seat's notebook notes, kept between requests so that a new entry costs one view.

A game's notebook (``GamePages.notebook_read``) folds the seat's own views, oldest first,
into notes. Reading every view again on each request would cost a big game's whole
history (one view of a game of a thousand seats is half a megabyte of JSON); the notes after entry N
never change (a record entry and its reports are written once), so the latest notes of a
seat are memoised here, per database and game and seat, and the next request reads only
the views of the entries since. The game's ``notebook_read`` returns new notes and leaves
the given ones as they were, so notes shared between requests are never changed.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlalchemy.orm import Session

from spyhouse.service import play
from spyhouse.service.gamelocks import database_token
from spyhouse.store.tables import SeatRow

#: Seats whose notes are kept (least recently used out): a big game's notes weigh about
#: a megabyte.
MEMO_SIZE = 64

Reader = Callable[[Any, Sequence[Mapping[str, Any]]], Any]

_memo: OrderedDict[tuple[int, int, str], tuple[int, Any]] = OrderedDict()
_lock = threading.Lock()


def notes_of(db: Session, seat: SeatRow, read: Reader) -> Any:
    """The seat's notes after the game's latest entry: the kept ones with the views of the
    entries since read, or every view from the start."""
    game = seat.game_row
    key = (database_token(db), game.id, seat.seat_id)
    with _lock:
        held = _memo.get(key)
    upto, notes = (-1, None) if held is None or held[0] > game.entry else held
    if upto == game.entry:
        return notes
    notes = read(notes, play.own_views(db, seat, after=upto))
    with _lock:
        _memo[key] = (game.entry, notes)
        _memo.move_to_end(key)
        while len(_memo) > MEMO_SIZE:
            _memo.popitem(last=False)
    return notes


def forget() -> None:
    """Drop every kept note (tests)."""
    with _lock:
        _memo.clear()


__all__ = ["MEMO_SIZE", "Reader", "forget", "notes_of"]
