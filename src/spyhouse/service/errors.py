"""Service errors: each carries a ``message`` written for the player.

Pages and the JSON API show ``message`` as it is, and map the class to an HTTP
status (``status``), so a use case decides what the player reads and the web
layer never re-words it. Messages mention only what the caller may know: no
secret, and nothing about a game or seat the caller cannot see (``NotFound``
also covers "exists but not yours").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar


class ServiceError(Exception):
    """Base class: a refused use case (HTTP 400 unless a subclass says otherwise)."""

    status: ClassVar[int] = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotFound(ServiceError):
    """No such game, seat or report, or the caller may not know that it exists."""

    status = 404


class Forbidden(ServiceError):
    """The caller is known but may not do this."""

    status = 403


class Conflict(ServiceError):
    """The game is not in a state that allows this (e.g. "the turn is closed")."""

    status = 409


class Invalid(ServiceError):
    """A form field is wrong; ``fields`` maps each field name to its messages."""

    status = 422

    def __init__(self, message: str, fields: Mapping[str, Sequence[str]] | None = None) -> None:
        super().__init__(message)
        self.fields: dict[str, list[str]] = {k: list(v) for k, v in (fields or {}).items()}


class OrdersRefused(ServiceError):
    """``parse_orders`` refused a sheet: every message in the game's words; nothing saved."""

    status = 422

    def __init__(self, messages: Sequence[str]) -> None:
        self.messages: list[str] = list(messages) or ["malformed orders"]
        super().__init__("; ".join(self.messages))


class TooManyAttempts(ServiceError):
    """Log-in rate limit reached."""

    status = 429
