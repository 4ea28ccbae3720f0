"""Telling players: the game's news timeline and the mail that goes with it.

Every change a host makes (pause, resume, extension, early close) and every
processed turn becomes a ``news`` row, which every player's pages show, and an
outbox mail to every player who wants that kind of mail (``unsubscribe.wants``: the
account's mail settings), written in the same transaction as the change. The news
stays on the pages whatever the mail settings say.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.orm import Session

from spyhouse.mail import messages
from spyhouse.mail.outbox import queue_mail
from spyhouse.mail.unsubscribe import wants
from spyhouse.settings import Settings
from spyhouse.store.tables import Game, News, SeatRow, User


def add_news(db: Session, game: Game, kind: str, text: str, now: datetime) -> News:
    news = News(game_id=game.id, entry=game.entry, kind=kind, text=text, at=now)
    db.add(news)
    return news


def players(db: Session, game_id: int) -> list[tuple[SeatRow, User]]:
    """The human seats of a game with their users, in seat order."""
    rows = db.execute(
        select(SeatRow, User).join(User, SeatRow.user_id == User.id)
        .where(SeatRow.game_id == game_id).order_by(SeatRow.position)).all()
    return [(seat, user) for seat, user in rows]


def announce(db: Session, game: Game, kind: str, text: str, now: datetime,
             settings: Settings) -> None:
    """Post ``text`` to the game's news and mail it to every player."""
    add_news(db, game, kind, text, now)
    message = messages.announcement_message(title=game.title, game_id=game.id, text=text,
                                            base_url=settings.base_url)
    for _seat, user in players(db, game.id):
        if not wants(user, "announcement"):
            continue
        queue_mail(db, kind="announcement", to_addr=user.email, message=message, now=now,
                   user_id=user.id, game_id=game.id)


def private_message(db: Session, game: Game, sender: SeatRow, addressee: SeatRow,
                    now: datetime, settings: Settings) -> None:
    """Tell the addressee's player (``channels.message_recipients``: a person who may read
    it) that a private message came (who from, where: never its text), if they want such
    mail."""
    user = addressee.user
    if user is None or not wants(user, "message"):
        return
    message = messages.private_message_message(title=game.title, game_id=game.id,
                                               sender=sender.name, base_url=settings.base_url)
    queue_mail(db, kind="message", to_addr=user.email, message=message, now=now,
               user_id=user.id, game_id=game.id)


def news_of(db: Session, game_id: int, *, limit: int = 100) -> list[News]:
    """A game's timeline, newest first."""
    return list(db.scalars(select(News).where(News.game_id == game_id)
                           .order_by(News.at.desc(), News.id.desc()).limit(limit)))
