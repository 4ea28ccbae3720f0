"""A refused form carried across the redirect after its POST (post/redirect/get).

A refused page form (orders, a new game, joining) saved nothing; its page answers
303 to the form's own page, which shows the typed fields again with their messages, so
the address bar never holds a POST address and a reload posts nothing. What the page
needs rides in one short-lived cookie (``spyhouse_form_<kind>``, one per kind of
form): JSON, compressed, signed with HMAC-SHA256 keyed by the session's CSRF token (a
server-side secret of this session: another session's or a forged cookie is ignored),
scoped to the page's path and read once. No table and no process memory holds it, so
it works behind several server processes. A form too big for a cookie is answered as
before, on the POST's own address (``stash`` says so).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
import zlib
from collections.abc import Mapping
from typing import Any

from fastapi import Request
from starlette.responses import Response

from spyhouse.web.deps import expected_csrf

COOKIE = "spyhouse_form"


def cookie_name(kind: str) -> str:
    """The cookie of one kind of form (``orders``, ``create``, ``join``): a pending form
    of one kind never hides another's on a page under the same path."""
    return f"{COOKIE}_{kind}"
#: Seconds the refused form waits for its page (the redirect follows at once).
MAX_AGE_S = 300
#: The largest cookie value sent; browsers keep at least 4,096 bytes a cookie.
MAX_BYTES = 3800


def _key(request: Request) -> bytes:
    return b"spyhouse-form:" + expected_csrf(request).encode()


def _sign(request: Request, body: bytes) -> str:
    return hmac.new(_key(request), body, hashlib.sha256).hexdigest()[:32]


def stash(request: Request, response: Response, *, path: str, kind: str,
          data: Mapping[str, Any], secure: bool) -> bool:
    """Set the cookie holding ``data`` for the page at ``path`` (``kind`` names the
    form, so another form's page ignores it); false when it is too big to carry."""
    payload = json.dumps({"k": kind, "p": path, "t": int(time.time()), "d": data},
                         separators=(",", ":"), ensure_ascii=False).encode()
    body = base64.urlsafe_b64encode(zlib.compress(payload, 9)).decode().rstrip("=")
    value = f"{_sign(request, body.encode())}.{body}"
    if len(value) > MAX_BYTES:
        return False
    response.set_cookie(cookie_name(kind), value, max_age=MAX_AGE_S, path=path, httponly=True,
                        samesite="lax", secure=secure)
    return True


def take(request: Request, *, path: str, kind: str) -> dict[str, Any] | None:
    """The form stashed for ``path`` and ``kind`` (signed by this session, not expired);
    ``None`` when there is none. The page clears it (``forget``): it is shown once."""
    raw = request.cookies.get(cookie_name(kind), "")
    signature, _, body = raw.partition(".")
    if not body or not hmac.compare_digest(signature, _sign(request, body.encode())):
        return None
    try:
        padded = body + "=" * (-len(body) % 4)
        payload = json.loads(zlib.decompress(base64.urlsafe_b64decode(padded)))
    except (ValueError, zlib.error):
        return None
    if (not isinstance(payload, dict) or payload.get("k") != kind or payload.get("p") != path
            or not isinstance(payload.get("t"), int)
            or time.time() - payload["t"] > MAX_AGE_S or not isinstance(payload.get("d"), dict)):
        return None
    data: dict[str, Any] = payload["d"]
    return data


def shown(request: Request, response: Response, path: str, kind: str) -> Response:
    """``response`` clearing the stashed form of ``path``, if the request carried one."""
    if cookie_name(kind) in request.cookies:
        forget(response, path, kind)
    return response


def forget(response: Response, path: str, kind: str) -> None:
    """Clear the cookie of ``path`` (read once, or no longer wanted)."""
    response.delete_cookie(cookie_name(kind), path=path)


__all__ = ["COOKIE", "MAX_AGE_S", "cookie_name", "forget", "shown", "stash", "take"]
