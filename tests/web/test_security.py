"""Every page route: anonymous visitors are sent to log in; every POST route refuses a
form without the right CSRF token; another user's seat, reports, orders and tokens
answer 404 and never the data."""

from __future__ import annotations

import re

from fastapi import FastAPI
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.clock import FakeClock
from spyhouse.service import play
from spyhouse.web import pages_account, pages_games, pages_seat
from spyhouse.web.deps import SESSION_COOKIE
from tests.web.helpers import Browser, run_worker, started_game, work_orders
from tests.web.test_seat import _seat

PUBLIC_GETS = {"/", "/login", "/signup", "/reset",
               "/games/{game_id}"}  # a public game's page: anyone may watch
#: a made-up reset link: refused (422) for anyone, never a log-in redirect
PUBLIC_LINKS = {"/reset/{token}"}
PUBLIC_POSTS = {"/login", "/signup", "/logout", "/reset", "/reset/password"}


def page_routes(app: FastAPI, method: str) -> list[str]:
    """Every page route (the routers of ``spyhouse.web.pages_*``) answering ``method``."""
    routes = [*pages_account.router.routes, *pages_games.router.routes,
              *pages_seat.router.routes]
    return sorted(route.path for route in routes
                  if isinstance(route, APIRoute) and method in (route.methods or ()))


def fill(path: str, game_id: int, token_id: int = 1) -> str:
    return (path.replace("{game_id}", str(game_id)).replace("{entry}", "0")
            .replace("{token_id}", str(token_id)).replace("{game}", "spyvsspy"))


def _game_with_token(alice: Browser, bob: Browser, app: FastAPI,
                     clock: FakeClock) -> tuple[int, str]:
    game_id = started_game(alice, bob)
    covert = {f"spy-{n}-task": "COVERT" for n in range(1, 10)}
    covert.update({f"spy-{n}-region": "C" for n in range(1, 10)})
    alice.post(f"/games/{game_id}/orders", {**covert, "ready": "1"})
    bob.post(f"/games/{game_id}/orders", {**work_orders(region="D"), "ready": "1"})
    run_worker(app, clock)
    created = alice.post(f"/games/{game_id}/tokens", {"label": "alice-private-label"})
    token = created.text.split('<pre id="new-token">')[1].split("</pre>")[0]
    return game_id, token


def test_the_route_lists_are_what_these_tests_cover(app: FastAPI) -> None:
    """A new page route shows up here and in every loop below."""
    assert len(page_routes(app, "GET")) == 18
    assert len(page_routes(app, "POST")) == 27


def test_anonymous_visitors_are_sent_to_log_in(anon: Browser, alice: Browser, bob: Browser,
                                               app: FastAPI) -> None:
    game_id = started_game(alice, bob)
    for path in page_routes(app, "GET"):
        url = fill(path, game_id)
        response = anon.get(url)
        if path in PUBLIC_GETS:
            assert response.status_code == 200, url
            continue
        if path in PUBLIC_LINKS:
            assert response.status_code == 422, url
            continue
        assert response.status_code == 303, url
        assert response.headers["location"].startswith("/login?next=/"), url
    for path in page_routes(app, "POST"):
        if path in PUBLIC_POSTS:
            continue
        response = anon.post(fill(path, game_id))  # with the pre-session CSRF token
        assert response.status_code == 303, path
        assert response.headers["location"].startswith("/login"), path


def test_login_redirect_comes_back(anon: Browser, alice: Browser, bob: Browser) -> None:
    game_id = started_game(alice, bob)
    response = anon.get(f"/games/{game_id}/report?entry=0")
    assert response.headers["location"] == f"/login?next=/games/{game_id}/report%3Fentry%3D0"
    page = anon.get(response.headers["location"]).text
    target = re.search(r'name="next" value="([^"]*)"', page)
    assert target and target.group(1) == f"/games/{game_id}/report?entry=0"


def test_every_post_route_refuses_a_missing_or_wrong_csrf_token(alice: Browser, bob: Browser,
                                                                 anon: Browser,
                                                                 app: FastAPI) -> None:
    game_id = started_game(alice, bob)
    for path in page_routes(app, "POST"):
        url = fill(path, game_id)
        for extra in ({}, {"csrf_token": "forged"}, {"csrf_token": anon.csrf()}):
            response = alice.client.post(url, data={"name": "X", **extra})
            assert response.status_code == 403, (url, extra)
            assert "CSRF" in response.text
    # an anonymous form without the cookie's token is refused too (log-in CSRF)
    response = anon.client.post("/login", data={"username": "alice", "password": "x"})
    assert response.status_code == 403
    # nothing happened: alice is still logged in, the game is still running
    assert alice.get("/lobby").status_code == 200
    assert "running" in alice.get(f"/games/{game_id}").text


def test_another_users_seat_pages_are_404_without_data(alice: Browser, bob: Browser,
                                                       app: FastAPI, clock: FakeClock,
                                                       factory: sessionmaker[Session]) -> None:
    game_id, token = _game_with_token(alice, bob, app, clock)
    carol = Browser(TestClient(app, follow_redirects=False))
    carol.sign_up("carol")
    with factory() as db:
        token_id = play.tokens_of(db, _seat(factory, game_id, "s1"))[0].id
    private = ("alice-private-label", "covertness +", "COVERT C", "Nspies", "Your spies",
               token)
    for path in ("/games/{game_id}/seat", "/games/{game_id}/report",
                 "/games/{game_id}/report/0", "/games/{game_id}/report/1",
                 "/games/{game_id}/tokens", "/games/{game_id}/state",
                 "/games/{game_id}/host", "/games/{game_id}/host/0"):
        response = carol.get(fill(path, game_id))
        assert response.status_code == 404, path
        for text in private:
            assert text not in response.text, (path, text)
    for path, data in (("/games/{game_id}/orders", work_orders()),
                       ("/games/{game_id}/check", work_orders()),
                       ("/games/{game_id}/ready", {"ready": "1"}),
                       ("/games/{game_id}/play", {}),
                       ("/games/{game_id}/computer", {"strategy": "hunter"}),
                       ("/games/{game_id}/rematch", {}),
                       ("/games/{game_id}/secrets", {}),
                       ("/games/{game_id}/tokens", {"label": "x"}),
                       ("/games/{game_id}/tokens/{token_id}/revoke", {})):
        response = carol.post(fill(path, game_id, token_id), data)
        assert response.status_code == 404, path
        for text in private:
            assert text not in response.text, (path, text)
    # the seat's other player (bob, same game) cannot reach alice's token or results
    revoke = bob.post(f"/games/{game_id}/tokens/{token_id}/revoke")
    assert revoke.status_code == 404
    assert "alice-private-label" not in bob.get(f"/games/{game_id}/tokens").text
    bob_report = bob.get(f"/games/{game_id}/report").text
    assert "covertness +" not in bob_report and "COVERT C" not in bob_report
    assert alice.client.get(f"/api/v1/games/{game_id}/view",
                            headers={"Authorization": f"Bearer {token}"}).status_code == 200
    with factory() as db:
        assert play.get_orders(db, _seat(factory, game_id, "s1")).data is None


def test_cookie_flags_on_every_session_cookie(anon: Browser) -> None:
    response = anon.sign_up("harry")
    cookies = response.headers.get_list("set-cookie")
    session = [c for c in cookies if c.startswith(SESSION_COOKIE)]
    assert session and all("HttpOnly" in c and "SameSite=lax" in c for c in session)


def test_pages_carry_security_headers_and_the_api_does_not_set_cookies(
        anon: Browser, alice: Browser) -> None:
    for browser, path in ((anon, "/login"), (alice, "/lobby"), (alice, "/account")):
        headers = browser.get(path).headers
        assert headers["x-frame-options"] == "DENY"
        assert headers["cache-control"] == "no-store"
        assert "script-src 'self'" in headers["content-security-policy"]
    api = anon.get("/api/v1/openapi.json")
    assert "set-cookie" not in api.headers and "content-security-policy" not in api.headers
    health = anon.get("/healthz")
    assert health.text == "ok" and "set-cookie" not in health.headers
