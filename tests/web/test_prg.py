"""Post/redirect/get for refused page forms (issue 14 item 8): a refused order form
answers 303 to the seat page, which shows it with its messages once; a reload of that
page posts nothing; the carried form is this session's alone; JSON callers unchanged."""

from __future__ import annotations

from fastapi import FastAPI
from sqlalchemy.orm import Session, sessionmaker

from spyhouse.clock import FakeClock
from spyhouse.web import flash
from tests.web.helpers import (
    Browser,
    refused_page,
    row_html,
    run_worker,
    saved_orders,
    selected,
    started_game,
    visitor,
    work_orders,
)

COOKIE = flash.cookie_name("orders")
BAD = {**work_orders(), "spy-3-task": "WORK", "spy-3-region": ""}


def test_a_refused_order_form_redirects_and_a_reload_posts_nothing(
        alice: Browser, bob: Browser, sessions: sessionmaker[Session]) -> None:
    game_id = started_game(alice, bob)
    posted = alice.post(f"/games/{game_id}/orders", BAD)
    assert posted.status_code == 303
    assert posted.headers["location"] == f"/games/{game_id}/seat"
    cookie = posted.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE}=") and f"Path=/games/{game_id}/seat" in cookie
    assert "HttpOnly" in cookie and "Max-Age=300" in cookie
    page = alice.get(f"/games/{game_id}/seat")
    assert page.status_code == 200
    assert "Nothing was saved" in page.text
    assert "spy 3: WORK needs a region" in row_html(page.text, "spy-3")
    assert selected(page.text, "spy-3-task") == "WORK"  # the form as it was sent
    assert saved_orders(sessions, game_id, "s1") is None
    # shown once: the page cleared it, and a reload is a GET that posts nothing
    assert f'{COOKIE}=""' in page.headers["set-cookie"]
    again = alice.get(f"/games/{game_id}/seat")
    assert again.status_code == 200 and "Nothing was saved" not in again.text
    assert "spy 3: WORK needs a region" not in again.text
    assert saved_orders(sessions, game_id, "s1") is None


def test_the_carried_form_is_this_sessions_and_this_entrys(
        alice: Browser, bob: Browser, app: FastAPI, clock: FakeClock) -> None:
    game_id = started_game(alice, bob)
    posted = alice.post(f"/games/{game_id}/orders", BAD)
    value = alice.client.cookies.get(COOKIE)
    assert value
    # another session of the same player does not read it (signed with its CSRF token)
    other = visitor(app)
    other.log_in("alice")
    other.client.cookies.set(COOKIE, value, path=f"/games/{game_id}/seat")
    assert "Nothing was saved" not in other.get(f"/games/{game_id}/seat").text
    # a tampered cookie is ignored
    alice.client.cookies.delete(COOKIE)
    alice.client.cookies.set(COOKIE, value[:-4] + "AAAA", path=f"/games/{game_id}/seat")
    assert "Nothing was saved" not in alice.get(f"/games/{game_id}/seat").text
    # once the turn has moved on, the old refusal is not shown
    posted = alice.post(f"/games/{game_id}/orders", BAD)
    assert posted.status_code == 303
    alice.post(f"/games/{game_id}/process")
    run_worker(app, clock)
    assert "Nothing was saved" not in alice.get(f"/games/{game_id}/seat").text


def test_a_refused_ready_redirects_too(alice: Browser, bob: Browser) -> None:
    game_id = started_game(alice, bob)
    page = refused_page(alice, alice.post(f"/games/{game_id}/ready", {"ready": "1"}))
    assert "save your orders first" in page.text


def test_json_callers_still_get_the_refusal_as_json(alice: Browser, bob: Browser) -> None:
    game_id = started_game(alice, bob)
    answer = alice.client.post(f"/games/{game_id}/orders",
                               data={**BAD, "csrf_token": alice.csrf()},
                               headers={"Accept": "application/json"})
    assert answer.status_code == 422
    body = answer.json()
    assert body["ok"] is False and "spy 3: WORK needs a region" in body["messages"]
    assert COOKIE not in answer.headers.get("set-cookie", "")


def test_a_refused_new_game_and_a_refused_join_redirect_to_their_pages(
        alice: Browser, bob: Browser) -> None:
    form = {"game": "spyvsspy", "title": "Zoned", "schedule": "weekly",
            "weekday": "Wednesday", "time": "20:00", "zone": "Mars/Olympus"}
    posted = alice.post("/games", form)
    assert posted.status_code == 303 and posted.headers["location"] == "/games/new"
    page = alice.get("/games/new").text
    assert "unknown time zone" in page and 'value="Zoned"' in page
    assert 'value="Mars/Olympus"' in page  # the form as it was sent
    assert "unknown time zone" not in alice.get("/games/new").text  # shown once
    game_id = alice.create_game()
    alice.join(game_id, "Alpha")
    joined = bob.join(game_id, "alpha")
    assert joined.status_code == 303 and joined.headers["location"] == f"/games/{game_id}"
    page = bob.get(f"/games/{game_id}").text
    assert 'role="alert"' in page and 'value="alpha"' in page
    again = bob.get(f"/games/{game_id}").text  # shown once
    assert 'value="alpha"' not in again
