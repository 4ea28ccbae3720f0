"""The demo of ``make run`` and the one-click game against the computer.

``ensure_demo`` makes (once) an account ``demo`` / ``demo-password`` holding one
seat of a started Spy vs Spy game against four bots, scheduled "as soon as all
orders are in": log in, give orders, and the turn resolves within a worker pass.
Calling it again changes nothing. ``quick_game`` starts the same kind of game
for any user. Like every service, nothing here commits.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from spyhouse.service import accounts, games
from spyhouse.store.tables import Game, User

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "demo-password"
DEMO_EMAIL = "demo@example.org"
DEMO_TITLE = "Demo: Spy vs Spy against four computer players"
DEMO_BROTHERHOOD = "Demo Brotherhood"
BOT_STRATEGIES: tuple[str, ...] = ("economist", "hunter", "shadow", "hunter")
GAME = "spyvsspy"
SCHEDULE = "all_submitted"


def _game_against_bots(db: Session, user: User, *, title: str, brotherhood: str,
                       now: datetime, seed: int | None = None) -> Game:
    game = games.create_game(db, user, game=GAME, title=title,
                             options={"base_choice": "random"}, schedule=SCHEDULE,
                             max_seats=1 + len(BOT_STRATEGIES), now=now, seed=seed)
    games.join_game(db, user, game.id, name=brotherhood, player=user.username,
                    show_email=user.email_public, now=now)
    for strategy in BOT_STRATEGIES:
        games.add_bot(db, user, game.id, strategy=strategy, now=now)
    return games.start_game(db, user, game.id, now)


def ensure_demo(db: Session, now: datetime) -> Game:
    """The demo account and its game, created on the first call only (idempotent)."""
    user = db.scalar(select(User).where(User.username_key == accounts.username_key(
        DEMO_USERNAME)))
    if user is None:
        user = accounts.sign_up(db, DEMO_USERNAME, DEMO_EMAIL, DEMO_PASSWORD, now)
        user.email_public = False
    existing = db.scalar(select(Game).where(Game.host_id == user.id, Game.title == DEMO_TITLE)
                         .order_by(Game.id).limit(1))
    if existing is not None:
        return existing
    return _game_against_bots(db, user, title=DEMO_TITLE, brotherhood=DEMO_BROTHERHOOD,
                              now=now)


def quick_game(db: Session, user: User, *, now: datetime, seed: int | None = None) -> Game:
    """A new started Spy vs Spy game: the user's seat against four bots, no deadline
    (``seed``: the game seed, random when left out)."""
    name = f"{user.username[:26]}'s Brotherhood"
    return _game_against_bots(db, user, title=f"{user.username} vs the computer",
                              brotherhood=name, now=now, seed=seed)


__all__ = ["BOT_STRATEGIES", "DEMO_PASSWORD", "DEMO_TITLE", "DEMO_USERNAME", "ensure_demo",
           "quick_game"]
