"""Password reset by e-mail: "Forgot your password?".

A request mails a link holding a random token (``secrets.token_urlsafe(32)``); the
``password_resets`` row keeps only its SHA-256 (as ``web_sessions`` and
``api_tokens`` do), so a stolen database opens no account. A link works once, for
``RESET_VALID``; using it sets the password, closes every other open link of the
account, ends the account's web sessions (whoever knew the old password is out)
and forgets the user name's failed log-ins.

The request answers the same whether or not an account matches (the page says
``REQUEST_ANSWER`` either way), so it does not tell who has an account here, and
each account gets at most ``RESETS_PER_HOUR`` mails an hour, quietly, so the form
cannot be used to flood somebody's mailbox. Nothing here commits.
"""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from spyhouse.mail import messages
from spyhouse.mail.outbox import queue_mail
from spyhouse.service import accounts
from spyhouse.service.errors import Invalid
from spyhouse.settings import Settings
from spyhouse.store.tables import PasswordReset, User, WebSession

RESET_VALID = timedelta(hours=1)
RESETS_PER_HOUR = 3
MAIL_KIND = "password_reset"
REQUEST_ANSWER = "If an account matches, we have sent a link to its e-mail address."
LINK_USED = "This link has expired or was already used: ask for a new one."
LINK_UNKNOWN = "This link is not valid (was it copied whole?): ask for a new one."


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
    in the last hour. Returns nothing, so no caller can tell the cases apart."""
    for user in _matching(db, username_or_email):
        recent = db.scalar(select(func.count()).select_from(PasswordReset).where(
            PasswordReset.user_id == user.id,
            PasswordReset.created_at > now - timedelta(hours=1)))
        if int(recent or 0) >= RESETS_PER_HOUR:
            continue
        token = secrets.token_urlsafe(32)
        db.add(PasswordReset(user_id=user.id, token_hash=accounts.token_hash(token),
                             created_at=now, expires_at=now + RESET_VALID, used_at=None))
        message = messages.password_reset_message(
            username=user.username, url=reset_url(settings.base_url, token),
            valid_minutes=int(RESET_VALID.total_seconds() // 60))
        queue_mail(db, kind=MAIL_KIND, to_addr=user.email, message=message, now=now,
                   user_id=user.id)
    db.flush()


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
    the account's other links, ends its web sessions and clears its failed log-ins."""
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
    accounts.clear_failed_logins(db, user)
    return user


__all__ = ["LINK_UNKNOWN", "LINK_USED", "MAIL_KIND", "REQUEST_ANSWER", "RESETS_PER_HOUR",
           "RESET_VALID", "check_reset", "request_reset", "reset_password", "reset_url"]
