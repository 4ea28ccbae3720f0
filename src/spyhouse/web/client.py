"""A client of the JSON API, and ``spyhouse bot``: a seat played by one of the engine's bots.

The bot sees exactly what a human in its seat sees: the seat's view from
``GET /api/v1/games/{id}/view`` (and, to catch up after a late start, the past
reports), fed to the bot once per record entry, in order. When the game awaits
the seat and no orders were sent for the open entry, it sends the bot's sheet with
``PUT /api/v1/games/{id}/orders`` (marked ready, with an Idempotency-Key so a
retried request changes nothing twice), then polls until the next entry. It stops
when the game's status is ``over``, whatever the game.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from typing import Any

import httpx2

from spyhouse.core import bots

API = "/api/v1"
DEFAULT_POLL_S = 10.0


class ApiError(Exception):
    """An API answer that is not a success: the status and the server's message(s)."""

    def __init__(self, status: int, detail: str, messages: list[str] | None = None) -> None:
        text = detail + (": " + "; ".join(messages) if messages else "")
        super().__init__(f"HTTP {status}: {text}")
        self.status = status
        self.detail = detail
        self.messages = messages or []


class ApiClient:
    """The seat-token API, one method per route."""

    def __init__(self, http: httpx2.Client) -> None:
        self.http = http

    @classmethod
    def connect(cls, url: str, token: str, *, transport: httpx2.BaseTransport | None = None,
                timeout: float = 30.0) -> ApiClient:
        http = httpx2.Client(base_url=url.rstrip("/"), transport=transport, timeout=timeout,
                            headers={"Authorization": f"Bearer {token}"})
        return cls(http)

    def _json(self, response: httpx2.Response) -> Any:
        if response.status_code >= 400:
            try:
                body = response.json()
            except ValueError:
                body = {"detail": response.text[:200]}
            detail = str(body.get("detail", "")) if isinstance(body, dict) else str(body)
            messages = body.get("messages") if isinstance(body, dict) else None
            raise ApiError(response.status_code, detail,
                           [str(m) for m in messages] if isinstance(messages, list) else None)
        return response.json()

    def seat(self) -> dict[str, Any]:
        result: dict[str, Any] = self._json(self.http.get(f"{API}/seat"))
        return result

    def view(self, game_id: int) -> dict[str, Any]:
        result: dict[str, Any] = self._json(self.http.get(f"{API}/games/{game_id}/view"))
        return result

    def report(self, game_id: int, entry: int) -> dict[str, Any]:
        result: dict[str, Any] = self._json(
            self.http.get(f"{API}/games/{game_id}/reports/{entry}"))
        return result

    def orders(self, game_id: int) -> dict[str, Any]:
        result: dict[str, Any] = self._json(self.http.get(f"{API}/games/{game_id}/orders"))
        return result

    def put_orders(self, game_id: int, orders: Any, *, ready: bool,
                   key: str | None = None) -> dict[str, Any]:
        headers = {"Idempotency-Key": key} if key else {}
        result: dict[str, Any] = self._json(self.http.put(
            f"{API}/games/{game_id}/orders", json={"orders": orders, "ready": ready},
            headers=headers))
        return result


def play_seat(api: ApiClient, strategy: str, *, once: bool = False,
              poll_s: float = DEFAULT_POLL_S, seed: int | None = None,
              say: Callable[[str], None] = print,
              sleep: Callable[[float], None] = time.sleep,
              max_polls: int | None = None) -> int:
    """Play the token's seat with bot ``strategy`` until the game ends (or once).

    Returns the number of order sheets sent. ``KeyError`` for an unknown strategy.
    """
    info = api.seat()
    game_id, seat = int(info["game_id"]), str(info["seat"])
    bot = bots.make_bot(str(info["game"]), strategy, seat,
                        seed if seed is not None else secrets.randbits(31))
    say(f"playing {info['name']} ({seat}) in game {game_id} as {strategy}")
    fed = -1  # the last record entry whose view the bot has read
    sent = 0
    polls = 0
    while True:
        if info["status"] == "open":  # no view before the start: wait for it
            info = api.seat()
            if info["status"] == "open":
                if polls == 0:
                    say("waiting for the host to start the game")
                polls += 1
                if once or (max_polls is not None and polls >= max_polls):
                    return sent
                sleep(poll_s)
                continue
        current = api.view(game_id)
        entry, view = int(current["entry"]), current["view"]
        if current["status"] == "over":  # every game ends the same way for the platform
            say(f"game over after record entry {entry}")
            return sent
        if current["status"] in ("running", "paused") and fed < entry \
                and current.get("awaited", True):
            for past in range(fed + 1, entry):  # catch up: the bot reads every report once
                bot.act(api.report(game_id, past)["view"])
            fed = entry
            sheet = bot.act(view)
            if api.orders(game_id).get("orders") is None and sheet is not None:
                try:
                    result = api.put_orders(game_id, sheet, ready=True,
                                            key=f"bot-{seat}-{entry}-{secrets.token_hex(8)}")
                except ApiError as exc:
                    say(f"entry {entry}: orders refused: {exc}")
                else:
                    sent += 1
                    warnings = len(result.get("warnings") or ())
                    say(f"orders sent for record entry {entry + 1}"
                        + (f" ({warnings} warnings)" if warnings else ""))
        polls += 1
        if once or (max_polls is not None and polls >= max_polls):
            return sent
        sleep(poll_s)


__all__ = ["ApiClient", "ApiError", "play_seat"]
