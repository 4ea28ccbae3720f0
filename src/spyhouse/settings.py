"""Platform settings, read once at the edge (``settings_from_env``) and passed down.

Nothing reads the environment at import time: ``create_app(settings)`` and the
worker receive a ``Settings``.
"""

from __future__ import annotations

import ipaddress
import os
import secrets
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

DEFAULT_DB_PATH = Path("var") / "spyhouse.db"
DEFAULT_SECRET_KEY_PATH = Path("var") / "secret_key"


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the server, the worker and the mailer need to know."""

    database_url: str = f"sqlite:///{DEFAULT_DB_PATH}"
    base_url: str = "http://127.0.0.1:8000"
    smtp_host: str | None = None
    smtp_port: int = 25
    smtp_sender: str = "spyhouse@localhost"
    worker_interval_s: float = 2.0
    mail_retry_s: float = 30.0
    #: attempts of a mail that fails for a passing reason before it is given up (failed)
    mail_max_attempts: int = 20
    demo: bool = True
    #: the game of ``make run``'s demo and the lobby's first offer (a registered game)
    demo_game: str = "spyvsspy"
    #: ``SPYHOUSE_COOKIE_SECURE=1`` / ``serve --cookie-secure``: cookies ``Secure`` and HSTS
    cookie_secure: bool = False
    #: ``SPYHOUSE_FORWARDED_ALLOW_IPS`` / ``serve --forwarded-allow-ips``: the proxies
    #: (addresses, networks, or ``*``) whose ``X-Forwarded-For``/``-Proto`` are trusted
    forwarded_allow_ips: tuple[str, ...] = ()
    session_days: int = 30
    #: log-in throttling (service/accounts.py; never a lock-out): the failures of one
    #: (account, address) pair, and of one address over all accounts, after which each
    #: further attempt from there waits 2, 4, 8 … s after the last failure, at most
    #: ``login_max_delay_s``
    login_free_failures: int = 5
    login_address_failures: int = 30
    login_max_delay_s: int = 900
    #: how long a failed log-in counts (a success from the same address forgets its pair's)
    login_window_s: int = 86400
    #: failures of one account within an hour that mail its owner (at most once an hour)
    login_notify_failures: int = 10
    max_extension_hours: int = 72
    max_pause_hours: int = 24 * 14
    #: request bodies (``web/limits.py``, read before admission): at most this many
    #: bytes (else 413), all within ``body_timeout_s`` of the headers and with no gap
    #: over ``body_idle_s`` between chunks (else 408)
    body_max_bytes: int = 1024 * 1024
    body_timeout_s: float = 10.0
    body_idle_s: float = 5.0
    #: the key that signs the one-click unsubscribe links (``mail/unsubscribe.py``):
    #: ``SPYHOUSE_SECRET_KEY``, else the file ``SPYHOUSE_SECRET_KEY_FILE`` (default
    #: ``var/secret_key``, made on first use), so the server and the worker agree; empty:
    #: a key of this process alone (tests, one-process runs)
    secret_key: str = field(default="", repr=False)

    @property
    def smtp_configured(self) -> bool:
        return bool(self.smtp_host)

    def with_(self, **changes: Any) -> Settings:
        return replace(self, **changes)


def settings_from_env(env: dict[str, str] | None = None, **overrides: Any) -> Settings:
    """Settings from ``SPYHOUSE_*`` variables, then explicit overrides (e.g. ``--db``)."""
    env = dict(os.environ if env is None else env)
    values: dict[str, Any] = {}
    if url := env.get("SPYHOUSE_DATABASE_URL"):
        values["database_url"] = url
    if base := env.get("SPYHOUSE_BASE_URL"):
        values["base_url"] = base.rstrip("/")
    if host := env.get("SPYHOUSE_SMTP_HOST"):
        values["smtp_host"] = host
    if port := env.get("SPYHOUSE_SMTP_PORT"):
        values["smtp_port"] = int(port)
    if sender := env.get("SPYHOUSE_SMTP_SENDER"):
        values["smtp_sender"] = sender
    if env.get("SPYHOUSE_DEMO", "").lower() in ("0", "false", "no"):
        values["demo"] = False
    if demo_game := env.get("SPYHOUSE_DEMO_GAME"):
        values["demo_game"] = demo_game
    if env.get("SPYHOUSE_COOKIE_SECURE", "").lower() in ("1", "true", "yes", "on"):
        values["cookie_secure"] = True
    if proxies := env.get("SPYHOUSE_FORWARDED_ALLOW_IPS"):
        values["forwarded_allow_ips"] = parse_forwarded_allow_ips(proxies)
    values["secret_key"] = env.get("SPYHOUSE_SECRET_KEY") or secret_key_from_file(
        Path(env.get("SPYHOUSE_SECRET_KEY_FILE") or DEFAULT_SECRET_KEY_PATH))
    values.update({k: v for k, v in overrides.items() if v is not None})
    return Settings(**values)


def secret_key_from_file(path: Path) -> str:
    """The server's signing key kept in ``path``, made (random, readable by its owner
    only) when there is none yet; ``""`` when the file can be neither read nor made, so
    that a read-only checkout still starts (its links then last as long as the process)."""
    try:
        if path.exists():
            return path.read_text(encoding="ascii").strip()
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:  # another process made it meanwhile
            return path.read_text(encoding="ascii").strip()
        key = secrets.token_urlsafe(32)
        with os.fdopen(fd, "w", encoding="ascii") as out:
            out.write(key + "\n")
        return key
    except (OSError, UnicodeError):
        return ""


def parse_forwarded_allow_ips(text: str) -> tuple[str, ...]:
    """``"10.0.0.5, 192.168.1.0/24"`` → the trusted proxies; ``*`` trusts every peer.

    Each entry must be an IP address or network: uvicorn would take anything else as a
    literal that never matches, so a typo would silently trust no proxy. Raises
    ``ValueError`` with a one-line reason.
    """
    entries = tuple(item.strip() for item in text.split(",") if item.strip())
    if "*" in entries:
        if len(entries) > 1:
            raise ValueError("forwarded-allow-ips: '*' trusts every peer; give it alone")
        return entries
    for entry in entries:
        try:
            ipaddress.ip_network(entry)  # strict, as uvicorn reads it: 10.0.0.5/24 is a typo
        except ValueError:
            raise ValueError(f"forwarded-allow-ips: {entry!r} is not an IP address or "
                             "network (e.g. 10.0.0.5 or 10.0.0.0/24)") from None
    return entries
