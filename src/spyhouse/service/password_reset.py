"""Password reset by e-mail: "Forgot your password?".

A request mails a link holding a random token (``secrets.token_urlsafe(32)``); the
``password_resets`` row keeps only its SHA-256 (as ``web_sessions`` and
``api_tokens`` do), so a stolen database opens no account. A link works once, for
``RESET_VALID``; using it sets the password, closes every other open link of the
account, ends the account's web sessions (whoever knew the old password is out)
and forgets the user name's failed log-ins.

Using a link also revokes every API token of the account's seats: a bot or script
set up by whoever knew the old password stops with it (the page and the mail say so).

The request answers the same whether or not an account matches (the page says
``REQUEST_ANSWER`` either way), so it does not tell who has an account here, and
each account gets at most ``RESETS_PER_HOUR`` mails an hour, quietly, so the form
cannot be used to flood somebody's mailbox. It also takes the same time either way:
whether a mail goes out (an account, not yet throttled), is dropped (throttled), or
there is nobody to mail, the request runs the same statements and does the same
work — draws and hashes a token, writes the mail, and inserts the link and the
mail with ``INSERT … SELECT … FROM users WHERE id = :target``, which inserts them
for an account that gets its mail and nothing for ``NOBODY`` (``_one_request``).
``tests/service/test_password_reset.py`` compares the statements;
``bench/reset_timing.py`` measures the times. Nothing here commits.

The mailed link is ``/reset/{token}``; the page it opens posts the token in its form
(``POST /reset/password``), and ``spyhouse serve`` redacts ``/reset/…`` in uvicorn's
access log (``web/access_log.py``), so a live token is never written to a log.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func, insert, literal, select, update
from sqlalchemy.orm import Session

from spyhouse.mail import messages
from spyhouse.service import accounts
from spyhouse.service.errors import Invalid
from spyhouse.settings import Settings
from spyhouse.store.tables import (
    ApiToken,
    OutboxMail,
    PasswordReset,
    SeatRow,
    User,
    UTCDateTime,
    WebSession,
)

RESET_VALID = timedelta(hours=1)
RESETS_PER_HOUR = 3
MAIL_KIND = "password_reset"
REQUEST_ANSWER = "If an account matches, we have sent a link to its e-mail address."
LINK_USED = "This link has expired or was already used: ask for a new one."
LINK_UNKNOWN = "This link is not valid (was it copied whole?): ask for a new one."
#: The user id no account has (ids start at 1): the target of a request that mails nobody.
NOBODY = 0


def reset_url(base_url: str, token: str) -> str:
    return f"{base_url.rstrip('/')}/reset/{token}"


def _matching(db: Session, username_or_email: str) -> list[User]:
    """The accounts named: by e-mail when it has an '@' (user names cannot), which may
    be several accounts, else by user name (case-insensitive)."""
    text = username_or_email.strip()
    if not text or len(text) > 254:
        return []
    if "@" in text:
        return list(db.scalars(select(User).where(func.lower(User.email) == text.lower())
                               .order_by(User.id)))
    user = db.scalar(select(User).where(User.username_key == accounts.username_key(text)))
    return [] if user is None else [user]


def request_reset(db: Session, username_or_email: str, now: datetime,
                  settings: Settings) -> None:
    """Mail a reset link to each matching account, unless it had ``RESETS_PER_HOUR``
    in the last hour. Returns nothing, so no caller can tell the cases apart; and when
    nothing matches, one request's work is done for ``NOBODY``, so it takes as long."""
    matching: list[User | None] = list(_matching(db, username_or_email))
    for user in matching or [None]:
        _one_request(db, user, username_or_email, now, settings)
    db.flush()


def _one_request(db: Session, user: User | None, typed: str, now: datetime,
                 settings: Settings) -> None:
    """One account's link and mail, or (no account, or throttled) the same work with
    nothing inserted: the same two queries, one token drawn and hashed, one mail
    written, and the same two ``INSERT … SELECT`` statements, for ``NOBODY``."""
    user_id = user.id if user is not None else NOBODY
    recent = db.scalar(select(func.count()).select_from(PasswordReset).where(
        PasswordReset.user_id == user_id,
        PasswordReset.created_at > now - timedelta(hours=1)))
    target = user_id if int(recent or 0) < RESETS_PER_HOUR else NOBODY
    token = secrets.token_urlsafe(32)
    message = messages.password_reset_message(
        username=user.username if user is not None else typed.strip()[:40],
        url=reset_url(settings.base_url, token),
        valid_minutes=int(RESET_VALID.total_seconds() // 60))
    account = select(User.id, User.email).where(User.id == target).subquery()
    db.execute(insert(PasswordReset).from_select(
        ["user_id", "token_hash", "created_at", "expires_at"],
        select(account.c.id, literal(accounts.token_hash(token)), _when(now),
               _when(now + RESET_VALID))))
    # the outbox row queue_mail would add (mail/outbox.py), for the target only
    db.execute(insert(OutboxMail).from_select(
        ["kind", "to_addr", "subject", "body", "created_at", "attempts", "next_attempt_at",
         "user_id"],
        select(literal(MAIL_KIND), account.c.email, literal(message.subject),
               literal(message.body), _when(now), literal(0), _when(now), account.c.id)))


def _when(moment: datetime) -> Any:
    return literal(moment, UTCDateTime())


def _open_reset(db: Session, token: str, now: datetime) -> PasswordReset:
    """The row of a link that may still be used, else ``Invalid`` (field ``token``)."""
    row = None
    if token and len(token) <= 200:
        row = db.scalar(select(PasswordReset)
                        .where(PasswordReset.token_hash == accounts.token_hash(token)))
    if row is None:
        raise Invalid(LINK_UNKNOWN, {"token": ["unknown"]})
    if row.used_at is not None or now >= row.expires_at:
        raise Invalid(LINK_USED, {"token": ["expired or used"]})
    return row


def check_reset(db: Session, token: str, now: datetime) -> User:
    """The account a link would reset (the form is shown only for a usable link);
    changes nothing."""
    row = _open_reset(db, token, now)
    user = db.get(User, row.user_id)
    assert user is not None  # the row cascades with its user
    return user


def reset_password(db: Session, token: str, new_password: str, now: datetime) -> User:
    """Set the password of the link's account: ``Invalid`` for an unusable link (field
    ``token``) or a refused password (field ``password``). Marks the link used, closes
    the account's other links, ends its web sessions, revokes the API tokens of its
    seats and clears its failed log-ins."""
    row = _open_reset(db, token, now)
    accounts.check_password(new_password, "password")
    # Claim the link with a conditional update: of two requests racing on one link,
    # only one sees it unused.
    claimed = db.execute(update(PasswordReset)
                         .where(PasswordReset.id == row.id, PasswordReset.used_at.is_(None))
                         .values(used_at=now))
    if getattr(claimed, "rowcount", 0) != 1:
        raise Invalid(LINK_USED, {"token": ["expired or used"]})
    user = db.get(User, row.user_id)
    assert user is not None  # the row cascades with its user
    user.password_hash = accounts.hasher().hash(new_password)
    db.execute(update(PasswordReset)
               .where(PasswordReset.user_id == user.id, PasswordReset.used_at.is_(None))
               .values(used_at=now))
    db.execute(update(WebSession)
               .where(WebSession.user_id == user.id, WebSession.revoked_at.is_(None))
               .values(revoked_at=now))
    db.execute(update(ApiToken)
               .where(ApiToken.revoked_at.is_(None),
                      ApiToken.seat_row_id.in_(select(SeatRow.id)
                                               .where(SeatRow.user_id == user.id)))
               .values(revoked_at=now))
    accounts.clear_failed_logins(db, user)
    return user


__all__ = ["LINK_UNKNOWN", "LINK_USED", "MAIL_KIND", "NOBODY", "REQUEST_ANSWER",
           "RESETS_PER_HOUR",
           "RESET_VALID", "check_reset", "request_reset", "reset_password", "reset_url"]
