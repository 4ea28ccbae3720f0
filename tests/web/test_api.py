"""The JSON API under /api/v1: token auth, the OpenAPI document, views, orders (422 with
the rules' messages), ready, and refusal of tokens for another seat or game."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from spyhouse.clock import FakeClock
from tests.web.helpers import Browser, run_worker, started_game, work_orders

WORK_H = {"spies": {str(n): {"task": "WORK", "region": "H"} for n in range(1, 10)},
          "declarations": []}


def make_token(browser: Browser, game_id: int, label: str = "bot") -> str:
    page = browser.post(f"/games/{game_id}/tokens", {"label": label}).text
    return page.split('<pre id="new-token">')[1].split("</pre>")[0]


def api(app: FastAPI, token: str | None) -> TestClient:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return TestClient(app, headers=headers)


def test_openapi_document_lists_the_routes(app: FastAPI) -> None:
    doc = TestClient(app).get("/api/v1/openapi.json").json()
    paths = doc["paths"]
    assert set(paths) == {"/api/v1/seat", "/api/v1/games/{game_id}",
                          "/api/v1/games/{game_id}/view",
                          "/api/v1/games/{game_id}/reports/{entry}",
                          "/api/v1/games/{game_id}/orders",
                          "/api/v1/games/{game_id}/ready", "/api/v1/games/{game_id}/posts",
                          "/api/v1/games/{game_id}/record"}
    assert set(paths["/api/v1/games/{game_id}/orders"]) == {"get", "put"}
    assert "422" in paths["/api/v1/games/{game_id}/orders"]["put"]["responses"]
    assert TestClient(app).get("/api/v1/docs").status_code == 200


def test_token_auth(alice: Browser, bob: Browser, app: FastAPI) -> None:
    game_id = started_game(alice, bob)
    assert api(app, None).get(f"/api/v1/games/{game_id}/view").status_code == 401
    assert api(app, "shs_nonsense").get(f"/api/v1/games/{game_id}/view").status_code == 403
    basic = TestClient(app, headers={"Authorization": "Basic abc"})
    assert basic.get(f"/api/v1/games/{game_id}/view").status_code == 401
    # a session cookie is no API credential
    assert alice.client.get(f"/api/v1/games/{game_id}/view").status_code == 401
    token = make_token(alice, game_id)
    seat = api(app, token).get("/api/v1/seat").json()
    assert seat == {"game_id": game_id, "game": "spyvsspy", "seat": "s1",
                    "name": "Alpha Brotherhood", "status": "running"}


def test_views_and_reports(alice: Browser, bob: Browser, app: FastAPI,
                           clock: FakeClock) -> None:
    game_id = started_game(alice, bob, bots=1)
    client = api(app, make_token(alice, game_id))
    game = client.get(f"/api/v1/games/{game_id}").json()
    assert game["status"] == "running" and game["entry"] == 0
    assert [s["seat"] for s in game["seats"]] == ["s1", "s2", "s3"]
    assert game["public"]["directory"][0]["name"] == "Alpha Brotherhood"
    view = client.get(f"/api/v1/games/{game_id}/view").json()
    assert view["seat"] == "s1" and view["entry"] == 0 and view["deadline"]
    assert "secrets" not in view["view"] and view["view"]["me"]["gp"] == 20
    assert len(view["view"]["leaders"]) == 2
    client.put(f"/api/v1/games/{game_id}/orders", json={"orders": WORK_H, "ready": True})
    bob.post(f"/games/{game_id}/orders", {**work_orders(), "ready": "1"})
    run_worker(app, clock)
    after = client.get(f"/api/v1/games/{game_id}/view").json()
    assert after["entry"] == 1 and after["view"]["table"]["columns"][0] == "A"
    first = client.get(f"/api/v1/games/{game_id}/reports/0").json()
    assert first["view"]["turn"] == 0 and "secrets" not in first["view"]
    assert client.get(f"/api/v1/games/{game_id}/reports/7").status_code == 404


def test_put_orders_warnings_and_422(alice: Browser, bob: Browser, app: FastAPI) -> None:
    game_id = started_game(alice, bob)
    client = api(app, make_token(alice, game_id))
    empty = client.get(f"/api/v1/games/{game_id}/orders").json()
    assert empty == {"entry": 1, "orders": None, "ready": False, "warnings": []}
    partial: dict[str, Any] = {"spies": {"1": {"task": "work", "region": "h"}}}
    saved = client.put(f"/api/v1/games/{game_id}/orders", json={"orders": partial})
    assert saved.status_code == 200
    body = saved.json()
    assert body["orders"]["spies"]["1"] == {"task": "WORK", "region": "H"}
    assert "spy 2 has no orders: it will WORK in a random region" in body["warnings"]
    bad = {"spies": {"4": {"task": "WORK", "region": "Z"}, "12": {"task": "HIDE"}},
           "declarations": [{"brotherhood": "s1", "leader": "Mr Pink", "region": "A"}]}
    refused = client.put(f"/api/v1/games/{game_id}/orders", json={"orders": bad})
    assert refused.status_code == 422
    assert refused.json()["messages"] == ["spy 4: unknown region Z", "spy 12: you have no spy 12",
                                          "declaration 1: you cannot declare on yourself"]
    assert client.get(f"/api/v1/games/{game_id}/orders").json()["orders"] == body["orders"]
    malformed = client.put(f"/api/v1/games/{game_id}/orders", json={"orders": [1, 2]})
    assert malformed.status_code == 422
    assert malformed.json()["messages"] == ["sheet: malformed orders"]
    no_body = client.put(f"/api/v1/games/{game_id}/orders", content=b"not json",
                         headers={"Content-Type": "application/json"})
    assert no_body.status_code == 422


def test_idempotency_key_and_ready(alice: Browser, bob: Browser, app: FastAPI) -> None:
    game_id = started_game(alice, bob)
    client = api(app, make_token(alice, game_id))
    url = f"/api/v1/games/{game_id}/orders"
    assert client.post(f"/api/v1/games/{game_id}/ready", json={"ready": True}).status_code == 409
    client.put(url, json={"orders": WORK_H}, headers={"Idempotency-Key": "k1"})
    other = {"spies": {"1": {"task": "WORK", "region": "A"}}}
    retry = client.put(url, json={"orders": other}, headers={"Idempotency-Key": "k1"})
    assert retry.json()["orders"]["spies"]["1"]["region"] == "H"
    ready = client.post(f"/api/v1/games/{game_id}/ready", json={"ready": True}).json()
    assert ready["ready"] is True and ready["orders"]["spies"]["1"]["region"] == "H"


def test_orders_after_the_deadline_409(alice: Browser, bob: Browser, app: FastAPI,
                                       clock: FakeClock) -> None:
    game_id = started_game(alice, bob)
    client = api(app, make_token(alice, game_id))
    clock.advance(days=30)
    refused = client.put(f"/api/v1/games/{game_id}/orders", json={"orders": WORK_H})
    assert refused.status_code == 409 and refused.json()["detail"] == "the turn is closed"


def test_another_seats_token_is_refused(alice: Browser, bob: Browser, app: FastAPI) -> None:
    first = started_game(alice, bob)
    carol = Browser(TestClient(app, follow_redirects=False))
    carol.sign_up("carol")
    second = started_game(carol, bob)
    carol_token = make_token(carol, second)
    client = api(app, carol_token)
    for path in (f"/api/v1/games/{first}", f"/api/v1/games/{first}/view",
                 f"/api/v1/games/{first}/reports/0", f"/api/v1/games/{first}/orders"):
        response = client.get(path)
        assert response.status_code == 404, path
        assert "Alpha Brotherhood" not in response.text
    put = client.put(f"/api/v1/games/{first}/orders", json={"orders": WORK_H})
    assert put.status_code == 404
    assert client.post(f"/api/v1/games/{first}/ready", json={"ready": True}).status_code == 404
    # her own game works, and shows her seat only
    mine = client.get(f"/api/v1/games/{second}/view").json()
    assert mine["seat"] == "s1" and mine["view"]["me"]["name"] == "Alpha Brotherhood"


# ---------------------------------------------------------------- the document says it all


def test_every_refusal_is_the_documented_error_body(alice: Browser, bob: Browser,
                                                    app: FastAPI) -> None:
    """422 (a malformed request, refused orders), 400 (an unreadable body) and the rest:
    one body, ``ErrorOut``, documented on every route (no FastAPI HTTPValidationError)."""
    doc = TestClient(app).get("/api/v1/openapi.json").json()
    assert "HTTPValidationError" not in doc["components"]["schemas"]
    error = doc["components"]["schemas"]["ErrorOut"]
    assert set(error["properties"]) == {"detail", "messages", "fields", "errors"}
    for path, operations in doc["paths"].items():
        for method, operation in operations.items():
            refusals = {code for code in operation["responses"] if code >= "400"}
            assert {"401", "403", "404", "422"} <= refusals, (method, path)
            if method in ("put", "post"):
                assert {"400", "408", "413"} <= refusals, (method, path)
            for code in refusals:
                schema = operation["responses"][code]["content"]["application/json"]["schema"]
                assert schema == {"$ref": "#/components/schemas/ErrorOut"}, (method, path)
    game_id = started_game(alice, bob)
    client = api(app, make_token(alice, game_id))
    malformed = client.get(f"/api/v1/games/{game_id}/reports/-1")
    assert malformed.status_code == 422
    assert malformed.json() == {"detail": "invalid request", "errors": [
        {"loc": ["path", "entry"], "msg": "Input should be greater than or equal to 0"}]}
    unreadable = client.post(f"/api/v1/games/{game_id}/ready", content=b"\xff",
                             headers={"Content-Type": "application/json"})
    assert unreadable.status_code == 400 and set(unreadable.json()) == {"detail"}


def test_the_document_refuses_what_the_server_refuses(alice: Browser, bob: Browser,
                                                      app: FastAPI) -> None:
    """``{"orders": null}`` and ``{"body": ""}`` were schema-valid, and refused: now the
    schema refuses them too."""
    doc = TestClient(app).get("/api/v1/openapi.json").json()["components"]["schemas"]
    assert doc["OrdersIn"]["properties"]["orders"]["not"] == {"type": "null"}
    body = doc["PostIn"]["properties"]["body"]
    assert (body["minLength"], body["maxLength"]) == (1, 2000) and "pattern" in body
    assert doc["PostIn"]["properties"]["channel"]["enum"] == ["public", "red", "private"]
    game_id = started_game(alice, bob)
    client = api(app, make_token(alice, game_id))
    refused = client.put(f"/api/v1/games/{game_id}/orders", json={"orders": None})
    assert refused.status_code == 422


def test_a_405_names_every_method_of_the_path(app: FastAPI) -> None:
    client = TestClient(app)
    for method, path, allowed in (("OPTIONS", "/api/v1/games/1/orders", "GET, PUT"),
                                  ("DELETE", "/api/v1/games/1/posts", "GET, POST"),
                                  ("PATCH", "/api/v1/seat", "GET"),
                                  ("PUT", "/login", "GET, POST")):
        answer = client.request(method, path)
        assert answer.status_code == 405, (method, path)
        assert answer.headers["allow"] == allowed, (method, path)
