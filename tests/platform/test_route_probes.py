"""Every route with an id in its path, given an id no database row can have: a 4xx, never
a 5xx. (A path id is a Python int of any size; the database's integers are 64-bit.)"""

from __future__ import annotations

import traceback

from fastapi import FastAPI

from tests.platform.test_conformance_routes import Route, app_routes
from tests.web.helpers import Browser

TOO_BIG = str(2**63)  # one past the largest 64-bit integer


def test_ids_past_the_database_range_are_refused_not_crashed(app: FastAPI,
                                                             alice: Browser) -> None:
    problems: list[str] = []
    csrf = alice.csrf()
    started = alice.post("/games/quick", {"game": "sealedbid"})  # alice's own running game
    assert started.status_code == 303
    real = started.headers["location"].split("/")[2]
    for game_id in (TOO_BIG, real):
        for route in app_routes(app):
            if not any(key in route.path for key in ("{game_id}", "{token_id}", "{entry}")):
                continue
            if route.path.endswith("/rematch"):
                continue  # it would start a new game: nothing to learn from it here
            if route.path.endswith("/events") and game_id == real:
                continue  # alice's live stream never ends; tests/web/test_events.py reads it
            path = (route.path.replace("{game_id}", game_id).replace("{token_id}", TOO_BIG)
                    .replace("{entry}", TOO_BIG))
            problem = _probe(alice, route, path, csrf)
            if problem:
                problems.append(problem)
    assert not problems, "\n".join(problems)


def _probe(alice: Browser, route: Route, path: str, csrf: str) -> str | None:
    """What went wrong with one request, or ``None`` for a 1xx-4xx answer."""
    try:
        if route.method == "GET":
            response = alice.client.get(path)
        elif route.api:
            response = alice.client.request(route.method, path, json={})
        else:
            response = alice.client.request(route.method, path, data={"csrf_token": csrf})
    except Exception:
        return f"{route.method} {path}: raised {traceback.format_exc().splitlines()[-1]}"
    return f"{route.method} {path}: {response.status_code}" if response.status_code >= 500 \
        else None
