"""The demo of ``make run`` and the one-click game against the computer.

``ensure_demo`` makes (once) an account ``demo`` / ``demo-password`` holding one
seat of a started Spy vs Spy game against four bots, scheduled "as soon as all
orders are in": log in, give orders, and the turn resolves within a worker pass.
Calling it again changes nothing. ``quick_game`` starts the same kind of game
for any user, or the one-click game another game offers (``QuickOffer``: a game's
``ui.QUICK_GAME``, e.g. Infiltration against five computer players at the quick pace).
Like every service, nothing here commits.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from spyhouse.core import registry
from spyhouse.games.spyvsspy import ui as spyvsspy_ui
from spyhouse.service import accounts, games
from spyhouse.store.tables import Game, User

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "demo-password"
DEMO_EMAIL = "demo@example.org"
DEMO_TITLE = "Demo: Spy vs Spy against four computer players"
DEMO_BROTHERHOOD = "Demo Brotherhood"
GAME = "spyvsspy"
SCHEDULE = "all_submitted"


TITLE = "{username} vs the computer"


@dataclass(frozen=True, slots=True)
class QuickOffer:
    """A one-click game against computer players, as a game's web forms module offers it
    (``QUICK_GAME`` in ``games/<game>/ui.py``): ``title`` and ``seat_name`` may name the
    player as ``{username}``."""

    game: str
    label: str
    options: Mapping[str, Any]
    bots: tuple[str, ...]
    title: str = TITLE
    seat_name: str = "{username}"




def offer_of(game: str, data: Mapping[str, Any]) -> QuickOffer:
    """The offer a game's ``QUICK_GAME`` describes."""
    return QuickOffer(game=game, label=str(data["label"]), options=dict(data["options"]),
                      bots=tuple(data["bots"]),
                      title=str(data.get("title", TITLE)),
                      seat_name=str(data.get("seat_name", "{username}")))


#: The demo's game (``make run``) and the lobby's first offer.
SPY_VS_SPY = offer_of(GAME, spyvsspy_ui.QUICK_GAME)


def _game_against_bots(db: Session, user: User, offer: QuickOffer, *, title: str,
                       seat_name: str, now: datetime, seed: int | None = None) -> Game:
    game = games.create_game(db, user, game=offer.game, title=title,
                             options=dict(offer.options), schedule=SCHEDULE,
                             max_seats=1 + len(offer.bots), now=now, seed=seed)
    games.join_game(db, user, game.id, name=seat_name[:40], player=user.username,
                    show_email=user.email_public, now=now)
    for strategy in offer.bots:
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
    return _game_against_bots(db, user, SPY_VS_SPY, title=DEMO_TITLE,
                              seat_name=DEMO_BROTHERHOOD, now=now)


def quick_game(db: Session, user: User, *, now: datetime, seed: int | None = None,
               offer: QuickOffer = SPY_VS_SPY) -> Game:
    """A new started game of ``offer`` (Spy vs Spy against four bots unless told): the
    user's seat against the offer's computer players, no deadline of the platform's own
    (``seed``: the game seed, random when left out)."""
    name = user.username[:26]
    return _game_against_bots(db, user, offer, title=offer.title.format(username=name),
                              seat_name=_seat_name(offer, name), now=now, seed=seed)


def _seat_name(offer: QuickOffer, username: str) -> str:
    """The offer's seat name for the user, made acceptable to the game if it is not (a
    user name may hold '.' or '-', which e.g. an Infiltration handle may not)."""
    problem = registry.get(offer.game).seat_name_problem
    name = offer.seat_name.format(username=username)[:40]
    return next((form for form in games.seat_name_forms(name) if problem(form, ()) is None),
                name)  # refused both ways by the game: join_game says why


__all__ = ["DEMO_PASSWORD", "DEMO_TITLE", "DEMO_USERNAME", "SPY_VS_SPY",
           "QuickOffer", "ensure_demo", "offer_of", "quick_game"]
