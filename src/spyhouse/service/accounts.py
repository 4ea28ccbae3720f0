"""Accounts: sign-up, log-in (rate limited), passwords and server-side web sessions.

Passwords are hashed with argon2id (argon2-cffi's ``PasswordHasher``). A web
session's cookie holds only a random token (``secrets.token_urlsafe(32)``); the
``web_sessions`` row is keyed by the token's SHA-256 and holds the session's
CSRF token, so a stolen database gives no usable cookie. Log-out revokes the row.

Failed log-ins are rows of ``login_attempts`` keyed by user name and by client
address; once either key has ``settings.login_attempts`` failures within
``settings.login_window_s`` seconds, log-in is refused (``TooManyAttempts``)
without checking the password. Like every service, nothing here commits: the
caller owns the transaction (a failed log-in raises, so a caller that wants the
failure counted catches the error inside its transaction).
"""

from __future__ import annotations

import hashlib
import re
import secrets
from datetime import datetime, timedelta
from functools import lru_cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from spyhouse.service.errors import Forbidden, Invalid, TooManyAttempts
from spyhouse.settings import Settings
from spyhouse.store.tables import LoginAttempt, User, WebSession

USERNAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{2,39}$")
EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
MIN_PASSWORD = 8
MAX_PASSWORD = 1024
LOGIN_FAILED = "wrong user name or password"


class LoginFailed(Forbidden):
    """Wrong user name or password (the message never says which)."""


@lru_cache(maxsize=1)
def hasher() -> PasswordHasher:
    """The password hasher (argon2id with argon2-cffi's default, RFC 9106 parameters)."""
    return PasswordHasher()


@lru_cache(maxsize=1)
def _dummy_hash() -> str:
    """A hash to verify against for unknown users, so timing does not tell who exists."""
    return hasher().hash(secrets.token_urlsafe(16))


def username_key(username: str) -> str:
    """User names are unique case-insensitively."""
    return username.strip().casefold()


def token_hash(token: str) -> str:
    """The SHA-256 (hex) stored in place of a raw cookie or API token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


# ---------------------------------------------------------------- validation


def check_password(password: str, field: str) -> None:
    """``Invalid`` naming ``field`` for a password too short or too long (every form
    that sets a password checks the same rule)."""
    if len(password) < MIN_PASSWORD:
        raise Invalid(f"the password must have at least {MIN_PASSWORD} characters",
                      {field: [f"at least {MIN_PASSWORD} characters"]})
    if len(password) > MAX_PASSWORD:
        raise Invalid("the password is too long", {field: ["too long"]})


def _check_email(email: str) -> str:
    email = email.strip()
    if len(email) > 254 or not EMAIL_RE.match(email):
        raise Invalid("that is not an e-mail address", {"email": ["not an e-mail address"]})
    return email


# ---------------------------------------------------------------- accounts


def sign_up(db: Session, username: str, email: str, password: str, now: datetime) -> User:
    """A new account; ``Invalid`` naming the field for a bad or taken user name."""
    username = username.strip()
    if not USERNAME_RE.match(username):
        raise Invalid("a user name is 3-40 letters, digits, '.', '_' or '-', "
                      "starting with a letter or digit",
                      {"username": ["3-40 letters, digits, '.', '_' or '-'"]})
    email = _check_email(email)
    check_password(password, "password")
    key = username_key(username)
    if db.scalar(select(User.id).where(User.username_key == key)) is not None:
        raise Invalid("that user name is taken", {"username": ["taken"]})
    user = User(username=username, username_key=key, email=email,
                password_hash=hasher().hash(password), email_public=True, created_at=now)
    try:
        with db.begin_nested():  # a concurrent sign-up may take the name after the check
            db.add(user)
            db.flush()
    except IntegrityError:
        raise Invalid("that user name is taken", {"username": ["taken"]}) from None
    return user


def _failures(db: Session, key: str, since: datetime) -> int:
    count = db.scalar(select(func.count()).select_from(LoginAttempt)
                      .where(LoginAttempt.key == key, LoginAttempt.at > since))
    return int(count or 0)


def authenticate(db: Session, username: str, password: str, client: str, now: datetime,
                 settings: Settings) -> User:
    """The user with this name and password.

    Raises ``TooManyAttempts`` when the user name or the client address has had
    ``settings.login_attempts`` failures in the window, else ``LoginFailed`` (a
    ``Forbidden``) for a wrong name or password, after recording the failure.
    """
    key = username_key(username)
    user_key, client_key = _user_attempts_key(key), f"addr:{client}"[:120]
    since = now - timedelta(seconds=settings.login_window_s)
    db.execute(delete(LoginAttempt).where(LoginAttempt.key.in_((user_key, client_key)),
                                          LoginAttempt.at <= since))
    if (_failures(db, user_key, since) >= settings.login_attempts
            or _failures(db, client_key, since) >= settings.login_attempts):
        minutes = max(1, settings.login_window_s // 60)
        raise TooManyAttempts(
            f"too many failed log-ins; try again in {minutes} minutes")
    user = db.scalar(select(User).where(User.username_key == key))
    if user is None:
        _verify(_dummy_hash(), password)
        ok = False
    else:
        ok = _verify(user.password_hash, password)
    if not ok or user is None:
        db.add_all([LoginAttempt(key=user_key, at=now), LoginAttempt(key=client_key, at=now)])
        db.flush()
        raise LoginFailed(LOGIN_FAILED)
    db.execute(delete(LoginAttempt).where(LoginAttempt.key == user_key))
    if hasher().check_needs_rehash(user.password_hash):
        user.password_hash = hasher().hash(password)
    return user


def _user_attempts_key(key: str) -> str:
    return f"user:{key}"[:120]


def clear_failed_logins(db: Session, user: User) -> None:
    """Forget the user name's failed log-ins (a password reset proves the owner: they
    may log in at once). The client address's failures stay."""
    db.execute(delete(LoginAttempt).where(
        LoginAttempt.key == _user_attempts_key(user.username_key)))


def _verify(password_hash: str, password: str) -> bool:
    try:
        return hasher().verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def change_password(db: Session, user: User, old: str, new: str, *,
                    keep: WebSession | None = None, now: datetime | None = None) -> None:
    """Set a new password after checking the old one (``Invalid`` naming the field).

    With ``now``, every other session of the user is revoked (``keep`` stays).
    """
    if not _verify(user.password_hash, old):
        raise Invalid("the current password is wrong", {"old_password": ["wrong password"]})
    check_password(new, "new_password")
    user.password_hash = hasher().hash(new)
    if now is not None:
        query = (update(WebSession)
                 .where(WebSession.user_id == user.id, WebSession.revoked_at.is_(None)))
        if keep is not None:
            query = query.where(WebSession.id != keep.id)
        db.execute(query.values(revoked_at=now))


def set_email_public(db: Session, user: User, public: bool) -> None:
    """Whether the user's e-mail is shown in game directories of games joined from now on."""
    user.email_public = public


# ---------------------------------------------------------------- web sessions


def open_session(db: Session, user: User, now: datetime,
                 settings: Settings) -> tuple[str, WebSession]:
    """A new log-in: the raw cookie token (never stored) and the session row."""
    token = secrets.token_urlsafe(32)
    session = WebSession(id=token_hash(token), user_id=user.id,
                         csrf_token=secrets.token_urlsafe(32), created_at=now,
                         expires_at=now + timedelta(days=settings.session_days),
                         revoked_at=None)
    db.add(session)
    db.flush()
    return token, session


def session_for(db: Session, token: str, now: datetime) -> WebSession | None:
    """The live session of a cookie token, or ``None`` (unknown, revoked or expired)."""
    if not token or len(token) > 200:
        return None
    session = db.get(WebSession, token_hash(token))
    if session is None or session.revoked_at is not None or session.expires_at <= now:
        return None
    return session


def close_session(db: Session, token: str, now: datetime) -> None:
    """Log out: revoke the session (a no-op for an unknown token)."""
    session = db.get(WebSession, token_hash(token)) if token else None
    if session is not None and session.revoked_at is None:
        session.revoked_at = now


__all__ = ["LOGIN_FAILED", "LoginFailed", "authenticate", "change_password", "check_password",
           "clear_failed_logins", "close_session", "open_session", "session_for",
           "set_email_public", "sign_up", "token_hash", "username_key"]
