"""Games against the computer that start with one click and answer at once.

The platform's seat routes (``web/pages_seat.py``) play a person against a
computer opponent, for any game whose plugin offers it:

- ``start_against_computer`` creates, seats and starts such a game in one
  transaction: the person takes the first seat, a computer player the second.
- ``play_move`` accepts the person's orders like any sheet
  (``service.play.submit_orders``, marked ready), then ``settle`` processes every
  entry that is due right away (``service.turns.process_turn``): the person's
  move, then the computer's reply, whose sheet the opening of its turn wrote.
  The worker would do the same on its next rounds; doing it in the request makes
  the reply come within the computer's thinking time.
- ``set_strategy`` changes the computer seats' strategy (a difficulty), which the
  platform reads when the computer's next turn opens: a turn already opened keeps
  the strategy it started with.
- ``restart`` calls off the person's game and starts a fresh one with the given
  options (a new seed).

Games are named by the caller: nothing here knows a game's rules, options or
move JSON. Like every service, nothing here commits.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from spyhouse.core import bots as bot_registry
from spyhouse.service import games, play, turns
from spyhouse.service import records as store
from spyhouse.service.errors import Conflict, Forbidden, Invalid
from spyhouse.service.notify import add_news
from spyhouse.store.tables import Game, OrderDraft, SeatRow, User

SCHEDULE = "all_submitted"
#: At most this many entries are processed in one request (a move, the reply, spare).
MAX_SETTLE = 4
CALLED_OFF = "The game was called off: its player started a new one."


def start_against_computer(db: Session, user: User, *, game: str, options: Mapping[str, Any],
                           strategy: str, now: datetime, seed: int | None = None) -> Game:
    """A new started two-seat ``game``: ``user`` in seat ``s1``, a computer player of
    ``strategy`` in ``s2``, no deadline (each entry resolves once its orders are in);
    ``seed`` is the game seed (fresh OS entropy when left out)."""
    row = games.create_game(db, user, game=game, title=f"{user.username} vs the computer",
                            options=options, schedule=SCHEDULE, max_seats=2, now=now,
                            seed=seed)
    games.join_game(db, user, row.id, name=user.username[:40], player=user.username,
                    show_email=False, now=now)
    games.add_bot(db, user, row.id, strategy=strategy, now=now)
    return games.start_game(db, user, row.id, now)


def computer_seats(db: Session, game_id: int) -> list[SeatRow]:
    """The game's computer seats, in seat order."""
    return [seat for seat in games.seats_of(db, game_id) if seat.bot is not None]


def set_strategy(db: Session, seat: SeatRow, strategy: str) -> list[SeatRow]:
    """Play the computer seats of ``seat``'s game with ``strategy`` from the next computer
    turn that opens. ``seat`` is the caller's own (human) seat; any time is fine."""
    if seat.user_id is None:
        raise Forbidden("a computer player's seat has no settings to change")
    game = games.get_game(db, seat.game_id)
    if strategy not in bot_registry.bot_names(game.game):
        raise Invalid(f"unknown computer player {strategy}",
                      {"strategy": [f"choose one of "
                                    f"{', '.join(bot_registry.bot_names(game.game))}"]})
    bots = computer_seats(db, seat.game_id)
    if not bots:
        raise Conflict("this game has no computer player")
    for bot in bots:
        bot.bot = strategy
        bot.player = f"Computer ({strategy})"
    db.flush()
    store.seats_changed(db, seat.game_id)
    return bots


def play_move(db: Session, seat: SeatRow, data: Any, *, now: datetime,
              entry: int | None = None, request_key: str | None = None) -> int:
    """Accept ``data`` as the seat's orders for the open entry (``entry``, when given,
    must be it), marked ready, and process everything due at once. Refusals are
    ``play.submit_orders``'s (``OrdersRefused`` with the rules' messages, ``Conflict``
    out of turn). Returns the number of entries processed."""
    play.submit_orders(db, seat, data, now=now, ready=True, request_key=request_key,
                       entry=entry)
    return settle(db, seat.game_id, now)


def settle(db: Session, game_id: int, now: datetime, *, limit: int = MAX_SETTLE) -> int:
    """Process the game's due entries now, one after another, until one is not due (or
    another process holds the game), the computer players giving their orders as each
    entry opens. Returns how many were processed."""
    done = 0
    turns.move_bots(db, game_id, now)
    while done < limit and turns.process_turn(db, game_id, now):
        done += 1
        turns.move_bots(db, game_id, now)
    return done


def call_off(db: Session, game: Game, now: datetime) -> None:
    """End a running or paused game without an outcome (its record stays as it was)."""
    if game.status not in ("running", "paused"):
        return
    game.status = "over"
    game.finished_at = now
    game.deadline = None
    game.awaiting = []
    for draft in db.scalars(select(OrderDraft).where(OrderDraft.game_id == game.id,
                                                     OrderDraft.entry > game.entry)):
        db.delete(draft)
    add_news(db, game, "over", CALLED_OFF, now)


def restart(db: Session, seat: SeatRow, *, options: Mapping[str, Any], now: datetime,
            seed: int | None = None) -> Game:
    """Call off ``seat``'s game against the computer and start a fresh one of the same
    game with ``options``, the computer playing its current strategy."""
    user = seat.user
    if seat.user_id is None or user is None:
        raise Forbidden("a computer player cannot start a new game")
    bots = computer_seats(db, seat.game_id)
    if not bots or bots[0].bot is None:
        raise Conflict("only a game against the computer can be started afresh; "
                       "create a new game in the lobby instead")
    old = games.get_game(db, seat.game_id)
    call_off(db, old, now)
    return start_against_computer(db, user, game=old.game, options=options,
                                  strategy=bots[0].bot, now=now, seed=seed)


def latest_against_computer(db: Session, user: User, game: str) -> Game | None:
    """The user's newest running ``game`` against the computer, if any."""
    for row in games.games_of(db, user):
        if row.game != game or row.status != "running":
            continue
        seats = games.seats_of(db, row.id)
        if any(s.user_id == user.id for s in seats) and any(s.bot for s in seats):
            return row
    return None


__all__ = ["call_off", "computer_seats", "latest_against_computer", "play_move", "restart",
           "set_strategy", "settle", "start_against_computer"]
