"""Accounts: sign-up, log-in (rate limited), passwords and server-side web sessions.

Passwords are hashed with argon2id (argon2-cffi's ``PasswordHasher``). A web
session's cookie holds only a random token (``secrets.token_urlsafe(32)``); the
``web_sessions`` row is keyed by the token's SHA-256 and holds the session's
CSRF token, so a stolen database gives no usable cookie. Log-out revokes the row.

Log-in throttling slows a guesser down without ever locking an account: user
names are public, so a limit per account would let an opponent lock a player out
before a deadline. A failed log-in is three rows of ``login_attempts``, keyed
``pair:<user>|<address>``, ``addr:<address>`` and ``user:<user>`` (an address is
its client's, an IPv6 address by its /64: ``client_bucket``). Once a pair has had
``settings.login_free_failures`` failures within ``settings.login_window_s``, or
an address ``settings.login_address_failures`` over all accounts, each further
attempt from there must wait 2, 4, 8 … seconds after the last failure (at most
``settings.login_max_delay_s``): sooner, it is refused with ``LoginDelayed`` (a
``TooManyAttempts`` that says when to try again) before any password is checked,
so the delays bound the argon2 work too. Another address is never slowed down by
a pair's failures, and a log-in that succeeds forgets its pair's failures. The
``user:`` rows only tell the owner: ``settings.login_notify_failures`` failures
of an account within an hour queue one mail to its owner (at most one an hour;
it never holds a password tried). Like every service, nothing here commits: the
caller owns the transaction (a failed log-in raises, so a caller that wants the
failure counted catches the error inside its transaction).
"""

from __future__ import annotations

import hashlib
import ipaddress
import math
import re
import secrets
import zoneinfo
from collections.abc import Sequence
from datetime import datetime, timedelta
from functools import lru_cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, func, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from spyhouse.mail import messages
from spyhouse.mail.messages import address_problem
from spyhouse.mail.outbox import queue_mail
from spyhouse.service.errors import Forbidden, Invalid, TooManyAttempts
from spyhouse.service.text import check_line
from spyhouse.settings import Settings
from spyhouse.store.tables import LoginAttempt, OutboxMail, User, WebSession

USERNAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{2,39}$")
EMAIL_RE = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
MIN_PASSWORD = 8
MAX_PASSWORD = 1024
LOGIN_FAILED = "wrong user name or password"
#: The failures of an account within this time that mail its owner, and the least
#: time between two such mails.
NOTICE_WINDOW = timedelta(hours=1)
NOTICE_KIND = "login_failures"


class LoginFailed(Forbidden):
    """Wrong user name or password (the message never says which)."""


class LoginDelayed(TooManyAttempts):
    """Too many recent failed log-ins from this address (for this account, or for all
    accounts): the next attempt may come in ``retry_after`` seconds, at ``until``. The
    password was not checked."""

    def __init__(self, message: str, retry_after: int, until: datetime) -> None:
        super().__init__(message)
        self.retry_after = retry_after
        self.until = until


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
    """One plain address (it becomes a mail's ``To:`` and its SMTP recipient): no line
    break or control character, no display name, list, comment or quoting."""
    email = check_line(email.strip(), "email", "the e-mail address")
    if len(email) > 254 or not EMAIL_RE.fullmatch(email):
        raise Invalid("that is not an e-mail address", {"email": ["not an e-mail address"]})
    problem = address_problem(email)
    if problem is not None:
        raise Invalid(f"that is {problem}", {"email": [problem]})
    return email


# ---------------------------------------------------------------- accounts


def sign_up(db: Session, username: str, email: str, password: str, now: datetime) -> User:
    """A new account; ``Invalid`` naming the field for a bad or taken user name."""
    username = username.strip()
    if not USERNAME_RE.fullmatch(username):  # ASCII letters etc.: no line break gets in
        raise Invalid("a user name is 3-40 letters, digits, '.', '_' or '-', "
                      "starting with a letter or digit",
                      {"username": ["3-40 letters, digits, '.', '_' or '-'"]})
    email = _check_email(email)
    check_password(password, "password")
    key = username_key(username)
    if db.scalar(select(User.id).where(User.username_key == key)) is not None:
        raise Invalid("that user name is taken", {"username": ["taken"]})
    user = User(username=username, username_key=key, email=email,
                password_hash=hasher().hash(password), email_public=False, created_at=now)
    try:
        with db.begin_nested():  # a concurrent sign-up may take the name after the check
            db.add(user)
            db.flush()
    except IntegrityError:
        raise Invalid("that user name is taken", {"username": ["taken"]}) from None
    return user


# ---------------------------------------------------------------- log-in throttling


def client_bucket(client: str) -> str:
    """The address the log-in limits count: an IPv4 address as it is, an IPv4-mapped
    IPv6 address as its IPv4, any other IPv6 address by its /64 (one subscriber's
    prefix: counting single IPv6 addresses would let one client rotate through 2^64 of
    them); anything else (no address known) as given, cut to 64 characters."""
    text = client.strip()
    try:
        address = ipaddress.ip_address(text.split("%", 1)[0])  # without a zone id
    except ValueError:
        return text[:64] or "unknown"
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def _key(kind: str, text: str) -> str:
    """A ``login_attempts`` key; one too long for the column (only a made-up user name
    can make one) is its text's SHA-256."""
    key = f"{kind}:{text}"
    if len(key) <= 120:
        return key
    return f"{kind}:#{hashlib.sha256(text.encode('utf-8')).hexdigest()}"


def _pair_prefix(user_key: str) -> str:
    return f"pair:{user_key}|"


def _user_attempts_key(user_key: str) -> str:
    return _key("user", user_key)


def _standing(db: Session, key: str, since: datetime) -> tuple[int, datetime | None]:
    """How many failures ``key`` has had since ``since``, and when the last was."""
    count, last = db.execute(
        select(func.count(), func.max(LoginAttempt.at))
        .where(LoginAttempt.key == key, LoginAttempt.at > since)).one()
    return int(count or 0), last


def delay_after(failures: int, free: int, settings: Settings) -> int:
    """The wait in seconds after the last of ``failures`` failures when ``free`` of them
    cost nothing: 0, then 2, 4, 8 … up to ``settings.login_max_delay_s``."""
    if failures < free:
        return 0
    return int(min(settings.login_max_delay_s, 2 ** min(failures - free + 1, 30)))


def _wait_words(seconds: int) -> str:
    if seconds < 60:
        return f"{seconds} second{'s' if seconds != 1 else ''}"
    minutes = math.ceil(seconds / 60)
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def _check_allowed(db: Session, pair_key: str, addr_key: str, now: datetime,
                   settings: Settings) -> None:
    """``LoginDelayed`` while the pair's or the address's delay runs."""
    since = now - timedelta(seconds=settings.login_window_s)
    waits: list[tuple[datetime, str]] = []
    for key, free, whose in (
            (pair_key, settings.login_free_failures, "for this account from your address"),
            (addr_key, settings.login_address_failures, "from your address")):
        count, last = _standing(db, key, since)
        delay = delay_after(count, free, settings)
        if delay and last is not None and last + timedelta(seconds=delay) > now:
            waits.append((last + timedelta(seconds=delay), whose))
    if not waits:
        return
    until, whose = max(waits)
    seconds = max(1, math.ceil((until - now).total_seconds()))
    shown = now + timedelta(seconds=seconds)
    raise LoginDelayed(
        f"Too many failed log-ins {whose}: try again in {_wait_words(seconds)} "
        f"(at {shown:%H:%M:%S} UTC). Each further failure doubles the wait; "
        "log-ins from other addresses are not slowed down.", seconds, shown)


def _one_at_a_time(db: Session, addr_key: str) -> None:
    """Judge the attempts from one address one at a time, so that concurrent requests
    cannot all pass one check before any failure is written. On PostgreSQL: a
    transaction advisory lock on the address (held until the caller's transaction
    ends); SQLite's single writer already does it, as the prune's ``DELETE`` that
    follows takes the write lock before the check reads."""
    if db.get_bind().dialect.name == "postgresql":
        lock = int.from_bytes(hashlib.sha256(addr_key.encode("utf-8")).digest()[:8], "big",
                              signed=True)
        db.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": lock})


def authenticate(db: Session, username: str, password: str, client: str, now: datetime,
                 settings: Settings) -> User:
    """The user with this name and password.

    Raises ``LoginDelayed`` (a ``TooManyAttempts``) while this (user name, address)
    pair or this address must wait after its failures, without checking the
    password; else ``LoginFailed`` (a ``Forbidden``) for a wrong name or password,
    after recording the failure (and, once an account has had
    ``settings.login_notify_failures`` within an hour, mailing its owner). A success
    forgets the pair's failures.
    """
    key = username_key(username)
    bucket = client_bucket(client)
    pair_key, addr_key = _key("pair", f"{key}|{bucket}"), _key("addr", bucket)
    user_key = _user_attempts_key(key)
    window = timedelta(seconds=settings.login_window_s)
    _one_at_a_time(db, addr_key)
    db.execute(delete(LoginAttempt).where(LoginAttempt.key.in_((pair_key, addr_key)),
                                          LoginAttempt.at <= now - window))
    db.execute(delete(LoginAttempt).where(LoginAttempt.key == user_key,
                                          LoginAttempt.at <= now - max(window, NOTICE_WINDOW)))
    _check_allowed(db, pair_key, addr_key, now, settings)
    user = db.scalar(select(User).where(User.username_key == key))
    if user is None:
        _verify(_dummy_hash(), password)
        ok = False
    else:
        ok = _verify(user.password_hash, password)
    if not ok or user is None:
        db.add_all([LoginAttempt(key=pair_key, at=now), LoginAttempt(key=addr_key, at=now),
                    LoginAttempt(key=user_key, at=now)])
        db.flush()
        if user is not None:
            _tell_owner(db, user, now, settings)
        raise LoginFailed(LOGIN_FAILED)
    db.execute(delete(LoginAttempt).where(LoginAttempt.key == pair_key))
    if hasher().check_needs_rehash(user.password_hash):
        user.password_hash = hasher().hash(password)
    return user


def _failed_addresses(db: Session, user: User, since: datetime) -> Sequence[tuple[str, int]]:
    """The addresses with failed log-ins to ``user`` since ``since``, most first."""
    prefix = _pair_prefix(user.username_key)
    count = func.count()
    rows = db.execute(select(LoginAttempt.key, count)
                      .where(LoginAttempt.key.startswith(prefix, autoescape=True),
                             LoginAttempt.at > since)
                      .group_by(LoginAttempt.key).order_by(count.desc(), LoginAttempt.key))
    return [(str(row_key)[len(prefix):], int(n)) for row_key, n in rows]


def _tell_owner(db: Session, user: User, now: datetime, settings: Settings) -> None:
    """Mail the owner once the account has had ``settings.login_notify_failures``
    failures within an hour, unless they were told within the hour."""
    since = now - NOTICE_WINDOW
    failures, _last = _standing(db, _user_attempts_key(user.username_key), since)
    if failures < settings.login_notify_failures:
        return
    told = db.scalar(select(func.count()).select_from(OutboxMail).where(
        OutboxMail.user_id == user.id, OutboxMail.kind == NOTICE_KIND,
        OutboxMail.created_at > since))
    if told:
        return
    message = messages.login_failures_message(
        username=user.username, failures=failures,
        addresses=_failed_addresses(db, user, since),
        account_url=f"{settings.base_url.rstrip('/')}/account")
    queue_mail(db, kind=NOTICE_KIND, to_addr=user.email, message=message, now=now,
               user_id=user.id)
    db.flush()


def clear_failed_logins(db: Session, user: User) -> None:
    """Forget the account's failed log-ins, from every address (a password reset proves
    the owner: they may log in at once). The addresses' own failures stay."""
    db.execute(delete(LoginAttempt).where(
        LoginAttempt.key == _user_attempts_key(user.username_key)))
    db.execute(delete(LoginAttempt).where(
        LoginAttempt.key.startswith(_pair_prefix(user.username_key), autoescape=True)))


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


def set_time_zone(db: Session, user: User, name: str) -> None:
    """The zone every page shows the user's times in: an IANA name this machine knows
    (``zoneinfo``), or blank for the browser's own (``NULL``)."""
    name = name.strip()
    if name and name not in zoneinfo.available_timezones():
        raise Invalid(f"unknown time zone {name[:64]!r}: choose one from the list",
                      {"time_zone": ["unknown"]})
    user.time_zone = name or None


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


__all__ = ["LOGIN_FAILED", "NOTICE_KIND", "NOTICE_WINDOW", "LoginDelayed", "LoginFailed",
           "authenticate", "change_password", "check_password", "clear_failed_logins",
           "client_bucket", "close_session", "delay_after", "open_session", "session_for",
           "set_email_public", "sign_up", "token_hash", "username_key"]
