"""Error answers (issue 14 item 8): a browser gets a page in the site's layout for 404,
405, 422, a service's refusal and a bug (500); the API, and a script that asks only for
JSON, get JSON exactly as before."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.testclient import TestClient

from tests.web.helpers import Browser

HTML = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}


def test_a_browser_gets_an_html_404_in_the_sites_layout(anon: Browser, alice: Browser) -> None:
    page = anon.get("/no/such/page", headers=HTML)
    assert page.status_code == 404
    assert page.headers["content-type"].startswith("text/html")
    assert '<header class="top">' in page.text and "<h1>Not found</h1>" in page.text
    assert "There is no such page." in page.text
    assert 'href="/"' in page.text and 'href="/lobby"' not in page.text.split("<main>")[1]
    assert page.headers["content-security-policy"].startswith("default-src 'self'")
    mine = alice.get("/games/999", headers=HTML)  # a service's NotFound, logged in
    assert mine.status_code == 404 and "<h1>Not found</h1>" in mine.text
    assert '<a href="/lobby">Back to the lobby</a>' in mine.text


def test_the_api_keeps_json(anon: Browser) -> None:
    answer = anon.get("/api/v1/no/such/thing", headers=HTML)
    assert answer.status_code == 404 and answer.json() == {"detail": "Not Found"}
    # a page's script asking only for JSON gets JSON too
    script = anon.get("/no/such/page", headers={"Accept": "application/json"})
    assert script.status_code == 404 and script.json() == {"detail": "Not Found"}


def test_405_and_422_pages(anon: Browser) -> None:
    wrong = anon.get("/logout", headers=HTML)
    assert wrong.status_code == 405 and "<h1>Not here</h1>" in wrong.text
    assert "POST" in wrong.headers["allow"]
    malformed = anon.get("/games/not-a-number", headers=HTML)
    assert malformed.status_code == 422 and "<h1>Not accepted</h1>" in malformed.text


def test_a_bug_is_a_page_for_a_browser_and_json_for_the_api(app: FastAPI) -> None:
    def boom() -> None:
        raise RuntimeError("secret detail of the bug")

    app.add_api_route("/boom", boom, methods=["GET"])
    app.add_api_route("/api/v1/boom", boom, methods=["GET"])
    client = TestClient(app, raise_server_exceptions=False)
    page = client.get("/boom", headers=HTML)
    assert page.status_code == 500 and "<h1>Something went wrong</h1>" in page.text
    assert "secret detail" not in page.text
    assert page.headers["cache-control"] == "no-store"
    answer = client.get("/api/v1/boom")
    assert answer.status_code == 500 and answer.json() == {"detail": "Internal Server Error"}
