"""Errors with player-facing messages.

An ``OrderError`` names the seat and lists every failing order, each message
written for the player in the game's own words ("spy 4: Leaders cannot FOLLOW").
Messages mention only the sheet and public facts, never a secret.
"""

from __future__ import annotations

from collections.abc import Sequence


class OrderError(ValueError):
    """A sheet of orders was refused; nothing of it applies."""

    def __init__(self, seat: str | None, messages: Sequence[str]) -> None:
        self.seat = seat
        self.messages: tuple[str, ...] = tuple(messages) or ("malformed orders",)
        super().__init__("; ".join(self.messages))


class OrderSyntaxError(OrderError):
    """The sheet is not well-formed JSON of the game's order shape."""


class IllegalOrderError(OrderError):
    """The sheet is well-formed but breaks a rule."""


class OptionsError(ValueError):
    """Game options (or the seats they name) are invalid; the message names the key."""


class RecordError(ValueError):
    """A game record is invalid: one clear line naming where and why."""

    def __init__(
        self,
        reason: str,
        *,
        entry: int | None = None,
        seat: str | None = None,
    ) -> None:
        self.reason = reason
        self.entry = entry
        self.seat = seat
        where = []
        if entry is not None:
            where.append(f"turn {entry}")
        if seat is not None:
            where.append(f"seat {seat}")
        prefix = ", ".join(where)
        super().__init__(f"{prefix}: {reason}" if prefix else reason)
