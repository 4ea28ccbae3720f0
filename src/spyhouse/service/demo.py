"""The demo of ``make run`` and the one-click games against the computer.

``ensure_demo`` makes (once) an account ``demo`` / ``demo-password`` holding one
seat of a started game of the demo game (``Settings.demo_game``) against its
offer's computer players, on the ``all_submitted`` schedule: log in, mark your
orders final, and the turn resolves at once. Calling it again changes nothing.
``quick_game`` starts such a game for any user: a game's plugin offers it
(``core.plugin.QuickOffer``), perhaps with the player's choice of the computer's
strategy and of some options. Like every service, nothing here commits.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from spyhouse.core import registry
from spyhouse.core.plugin import QuickOffer
from spyhouse.service import accounts, games
from spyhouse.service import records as store
from spyhouse.service.errors import Invalid
from spyhouse.settings import Settings
from spyhouse.store.tables import Game, User

DEMO_USERNAME = "demo"
DEMO_PASSWORD = "demo-password"
DEMO_EMAIL = "demo@example.org"
DEMO_TITLE = "Demo: {title} against the computer"
SCHEDULE = "all_submitted"
#: The lobby's first offer when no settings say otherwise.
GAME = Settings().demo_game


@dataclass(frozen=True, slots=True)
class Offer:
    """A game's one-click offer, with the game it belongs to."""

    game: str
    quick: QuickOffer

    @property
    def label(self) -> str:
        return self.quick.label


def offer_for(game: str) -> Offer:
    """The offer of ``game`` (``Invalid`` when it has none)."""
    quick = registry.plugin(game).quick
    if quick is None:
        raise Invalid(f"{game} has no game against the computer", {"game": ["no such offer"]})
    return Offer(game, quick)


def _game_against_bots(db: Session, user: User, offer: Offer, *, title: str, seat_name: str,
                       now: datetime, options: Mapping[str, Any] | None = None,
                       strategy: str | None = None, seed: int | None = None) -> Game:
    quick = offer.quick
    bots = quick.bots
    chosen = dict(quick.options if options is None else options)
    if strategy is not None:
        if strategy not in dict(quick.strategies):
            known = ", ".join(name for name, _ in quick.strategies) or "none to choose"
            raise Invalid(f"unknown computer player {strategy}", {"strategy": [known]})
        bots = tuple(strategy for _ in bots)
    elif quick.strategies:
        strategy = bots[0]
    if quick.with_computer is not None and strategy is not None:
        chosen = quick.with_computer(chosen, strategy)
    game = games.create_game(db, user, game=offer.game, title=title, options=chosen,
                             schedule=SCHEDULE, max_seats=1 + len(bots), now=now, seed=seed)
    games.join_game(db, user, game.id, name=seat_name[:40], player=user.username,
                    show_email=False, now=now)
    for bot in bots:
        games.add_bot(db, user, game.id, strategy=bot, now=now)
    return games.start_game(db, user, game.id, now)


def ensure_demo(db: Session, now: datetime, *, settings: Settings | None = None) -> Game:
    """The demo account and its game, created on the first call only (idempotent)."""
    settings = store.settings_of(db, settings)
    user = db.scalar(select(User).where(User.username_key == accounts.username_key(
        DEMO_USERNAME)))
    if user is None:
        user = accounts.sign_up(db, DEMO_USERNAME, DEMO_EMAIL, DEMO_PASSWORD, now)
        user.email_public = False
    offer = offer_for(settings.demo_game)
    title = DEMO_TITLE.format(title=registry.get(offer.game).spec.title)
    existing = db.scalar(select(Game).where(Game.host_id == user.id, Game.title == title)
                         .order_by(Game.id).limit(1))
    if existing is not None:
        return existing
    return _game_against_bots(db, user, offer, title=title,
                              seat_name=_seat_name(offer, "Demo"), now=now)


def quick_game(db: Session, user: User, *, now: datetime, seed: int | None = None,
               offer: Offer | None = None, options: Mapping[str, Any] | None = None,
               strategy: str | None = None) -> Game:
    """A new started game of ``offer`` (the demo game's unless told): the user's seat
    against the offer's computer players, no deadline of the platform's own. ``options``
    replace the offer's; ``strategy`` (one of the offer's ``strategies``) plays every
    computer seat; ``seed`` is the game seed (random when left out)."""
    offer = offer or offer_for(store.settings_of(db, None).demo_game)
    name = user.username[:26]
    return _game_against_bots(db, user, offer, title=offer.quick.title.format(username=name),
                              seat_name=_seat_name(offer, name), now=now, options=options,
                              strategy=strategy, seed=seed)


def _seat_name(offer: Offer, username: str) -> str:
    """The offer's seat name for the user, made acceptable to the game if it is not (a
    user name may hold '.' or '-', which e.g. a handle may not)."""
    problem = registry.get(offer.game).seat_name_problem
    name = offer.quick.seat_name.format(username=username)[:40]
    return next((form for form in games.seat_name_forms(name) if problem(form, ()) is None),
                name)  # refused both ways by the game: join_game says why


__all__ = ["DEMO_PASSWORD", "DEMO_TITLE", "DEMO_USERNAME", "Offer", "ensure_demo",
           "offer_for", "quick_game"]
