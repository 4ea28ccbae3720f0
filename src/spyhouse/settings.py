"""Platform settings, read once at the edge (``settings_from_env``) and passed down.

Nothing reads the environment at import time: ``create_app(settings)`` and the
worker receive a ``Settings``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

DEFAULT_DB_PATH = Path("var") / "spyhouse.db"


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
    demo: bool = True
    #: the game of ``make run``'s demo and the lobby's first offer (a registered game)
    demo_game: str = "spyvsspy"
    cookie_secure: bool = False
    session_days: int = 30
    login_attempts: int = 5
    login_window_s: int = 900
    max_extension_hours: int = 72
    max_pause_hours: int = 24 * 14

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
    values.update({k: v for k, v in overrides.items() if v is not None})
    return Settings(**values)
