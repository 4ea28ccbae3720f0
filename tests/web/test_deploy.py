"""Deployment settings (docs/deploying.md): ``SPYHOUSE_COOKIE_SECURE`` marks the cookies
``Secure`` and sends HSTS everywhere; ``SPYHOUSE_FORWARDED_ALLOW_IPS`` names the only
proxies whose ``X-Forwarded-*`` headers uvicorn trusts, checked against a real uvicorn on
loopback; ``spyhouse serve`` takes both as flags too."""

from __future__ import annotations

import http.client
import io
import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx2
import pytest
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient
from sqlalchemy.engine import Engine

import spyhouse
from spyhouse import cli
from spyhouse.clock import FakeClock
from spyhouse.settings import Settings, parse_forwarded_allow_ips, settings_from_env
from spyhouse.web.app import create_app
from spyhouse.web.deps import CSRF_COOKIE, SESSION_COOKIE, ClientAddress
from tests.serving import uvicorn_thread
from tests.web.helpers import PASSWORD, Browser

HSTS = "max-age=31536000; includeSubDomains"
CLIENT = "203.0.113.9"


def set_cookies(response: httpx2.Response, name: str) -> list[str]:
    return [value for value in response.headers.get_list("set-cookie")
            if value.startswith(f"{name}=")]


def answers_of_every_kind(client: TestClient) -> dict[str, httpx2.Response]:
    """A page, an error page, the API (an answer and a refusal), a static file, the
    health check, and a body refused before the app (``web/limits.py``: 413)."""
    too_big = Settings().body_max_bytes + 1
    answers = {"page": client.get("/login"), "error page": client.get("/no-such-page"),
               "api": client.get("/api/v1/openapi.json"),
               "api refusal": client.get("/api/v1/seat"),
               "static": client.get("/static/style.css"), "healthz": client.get("/healthz"),
               "refused body": client.post("/login", content=b"x" * too_big)}
    assert answers["refused body"].status_code == 413
    return answers


# ---------------------------------------------------------------- settings


def test_the_environment_sets_cookie_secure_and_the_trusted_proxies() -> None:
    assert settings_from_env({}).cookie_secure is False
    assert settings_from_env({}).forwarded_allow_ips == ()
    for yes in ("1", "true", "YES", "on"):
        assert settings_from_env({"SPYHOUSE_COOKIE_SECURE": yes}).cookie_secure is True
    for no in ("0", "", "false", "off"):
        assert settings_from_env({"SPYHOUSE_COOKIE_SECURE": no}).cookie_secure is False
    proxies = settings_from_env({"SPYHOUSE_FORWARDED_ALLOW_IPS": " 10.0.0.5, 10.1.0.0/16,::1 "})
    assert proxies.forwarded_allow_ips == ("10.0.0.5", "10.1.0.0/16", "::1")
    assert parse_forwarded_allow_ips("*") == ("*",)
    assert parse_forwarded_allow_ips(" , ") == ()


@pytest.mark.parametrize("bad", ["proxy.example.org", "10.0.0.5/24", "10.0.0.300", "*,10.0.0.1"])
def test_a_malformed_proxy_list_is_refused_not_silently_ignored(bad: str) -> None:
    with pytest.raises(ValueError, match="forwarded-allow-ips"):
        settings_from_env({"SPYHOUSE_FORWARDED_ALLOW_IPS": bad})


# ---------------------------------------------------------------- Secure cookies and HSTS


def test_cookie_secure_marks_both_cookies_secure_and_sends_hsts_everywhere(
        settings: Settings, clock: FakeClock, engine: Engine) -> None:
    app = create_app(settings.with_(cookie_secure=True), clock, engine=engine)
    client = TestClient(app, base_url="https://testserver", follow_redirects=False)
    login_page = client.get("/login")
    [csrf_cookie] = set_cookies(login_page, CSRF_COOKIE)
    assert "; Secure" in csrf_cookie and "HttpOnly" in csrf_cookie

    browser = Browser(client)
    signed_up = browser.sign_up("sally")
    [session_cookie] = set_cookies(signed_up, SESSION_COOKIE)
    assert "Secure" in session_cookie.split("; ")
    browser.log_out()
    logged_in = browser.log_in("sally", PASSWORD)
    assert logged_in.status_code == 303
    [session_cookie] = set_cookies(logged_in, SESSION_COOKIE)
    assert "Secure" in session_cookie.split("; ")
    assert browser.get("/lobby").status_code == 200  # the Secure cookie works over HTTPS

    for kind, response in {**answers_of_every_kind(client), "log-in": logged_in,
                           "sign-up": signed_up}.items():
        assert response.headers.get("strict-transport-security") == HSTS, kind


def test_by_default_cookies_are_not_secure_and_no_hsts_is_sent(anon: Browser) -> None:
    [csrf_cookie] = set_cookies(anon.get("/login"), CSRF_COOKIE)
    assert "secure" not in csrf_cookie.lower()
    signed_up = anon.sign_up("plain")
    [session_cookie] = set_cookies(signed_up, SESSION_COOKIE)
    assert "secure" not in session_cookie.lower()
    for kind, response in {**answers_of_every_kind(anon.client), "sign-up": signed_up}.items():
        assert "strict-transport-security" not in response.headers, kind


# ---------------------------------------------------------------- trusted proxies


def _whoami_app(settings: Settings, clock: FakeClock, engine: Engine) -> FastAPI:
    """The application with one extra test route: the client address and scheme the app
    sees, read through the app's one reader (``deps.ClientAddress``)."""
    app = create_app(settings, clock, engine=engine)

    @app.get("/api/v1/_whoami")
    def whoami(request: Request, client: ClientAddress) -> JSONResponse:
        return JSONResponse({"client": client, "scheme": request.url.scheme})

    return app


@contextmanager
def live_uvicorn(app: FastAPI, settings: Settings) -> Iterator[int]:
    """Uvicorn in a thread on a free loopback port, configured as ``spyhouse serve``
    configures it (``cli.proxy_options``); yields the port."""
    with uvicorn_thread(app, name="spyhouse-deploy-test-server",
                        **cli.proxy_options(settings)) as running:
        yield running.port


def seen_by_app(port: int, forwarded_for: str | None) -> dict[str, Any]:
    headers = {"X-Forwarded-Proto": "https"}
    if forwarded_for is not None:
        headers["X-Forwarded-For"] = forwarded_for
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", "/api/v1/_whoami", headers=headers)
        response = connection.getresponse()
        assert response.status == 200
        seen: dict[str, Any] = json.loads(response.read())
    finally:
        connection.close()
    return seen


@pytest.mark.parametrize(("trusted", "forwarded_for", "client", "scheme"), [
    # the default: no proxy header is trusted, not even from loopback
    ((), CLIENT, "127.0.0.1", "http"),
    # a proxy is named, but the peer (127.0.0.1) is not it
    (("10.0.0.5",), CLIENT, "127.0.0.1", "http"),
    # the peer is a named proxy: the address it forwarded, and its scheme
    (("127.0.0.1",), CLIENT, CLIENT, "https"),
    (("127.0.0.0/8",), CLIENT, CLIENT, "https"),
    # a client's own X-Forwarded-For in front is ignored: the last address the named
    # proxy appended (the one it saw) counts
    (("127.0.0.1",), f"198.51.100.7, {CLIENT}", CLIENT, "https"),
    # a named proxy that forwards nothing: its own address
    (("127.0.0.1",), None, "127.0.0.1", "https"),
])
def test_x_forwarded_for_is_trusted_only_from_the_named_proxies(
        settings: Settings, clock: FakeClock, engine: Engine, trusted: tuple[str, ...],
        forwarded_for: str | None, client: str, scheme: str) -> None:
    configured = settings.with_(forwarded_allow_ips=trusted)
    with live_uvicorn(_whoami_app(configured, clock, engine), configured) as port:
        assert seen_by_app(port, forwarded_for) == {"client": client, "scheme": scheme}


def test_uvicorn_environment_default_does_not_reopen_loopback_trust(
        settings: Settings, clock: FakeClock, engine: Engine,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Uvicorn's own ``FORWARDED_ALLOW_IPS`` variable changes nothing: only ours counts."""
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "*")
    with live_uvicorn(_whoami_app(settings, clock, engine), settings) as port:
        assert seen_by_app(port, CLIENT)["client"] == "127.0.0.1"


def test_the_app_reads_the_client_address_in_one_place() -> None:
    """``deps.client_address`` is the only reader of ``request.client`` / the ASGI
    ``client``, so every limit keys on the address uvicorn resolved, and only there."""
    reader = re.compile(r"request\.client|\[.client.\]|get\(.client.\)")
    root = Path(spyhouse.__file__).parent
    readers = {str(path.relative_to(root)) for path in root.rglob("*.py")
               if reader.search(path.read_text())}
    assert readers == {"web/deps.py"}


# ---------------------------------------------------------------- spyhouse serve


def _serve(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, *args: str,
           env: dict[str, str] | None = None) -> tuple[int, dict[str, Any], str]:
    import uvicorn

    seen: dict[str, Any] = {}

    def fake_run(app: FastAPI, **kwargs: Any) -> None:
        seen["settings"], seen["kwargs"] = app.state.web.settings, kwargs

    monkeypatch.setattr(uvicorn, "run", fake_run)
    for name in ("SPYHOUSE_COOKIE_SECURE", "SPYHOUSE_FORWARDED_ALLOW_IPS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("SPYHOUSE_DEMO", "0")
    for name, value in (env or {}).items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr("sys.stdout", io.StringIO())
    err = io.StringIO()
    monkeypatch.setattr("sys.stderr", err)
    status = cli.main(["serve", "--db", f"sqlite:///{tmp_path / 'served.db'}", *args])
    return status, seen, err.getvalue()


def test_serve_flags_set_cookie_secure_and_the_proxies_uvicorn_trusts(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    status, seen, _ = _serve(monkeypatch, tmp_path, "--cookie-secure",
                             "--forwarded-allow-ips", "10.0.0.5,10.1.0.0/16")
    assert status == 0
    assert seen["settings"].cookie_secure is True
    assert seen["kwargs"]["proxy_headers"] is True
    assert seen["kwargs"]["forwarded_allow_ips"] == ["10.0.0.5", "10.1.0.0/16"]

    status, seen, _ = _serve(monkeypatch, tmp_path, env={
        "SPYHOUSE_COOKIE_SECURE": "1", "SPYHOUSE_FORWARDED_ALLOW_IPS": "10.0.0.5"})
    assert status == 0 and seen["settings"].cookie_secure is True
    assert seen["kwargs"]["forwarded_allow_ips"] == ["10.0.0.5"]

    # the flag wins over the environment; an empty list trusts no proxy
    status, seen, _ = _serve(monkeypatch, tmp_path, "--forwarded-allow-ips", "",
                             env={"SPYHOUSE_FORWARDED_ALLOW_IPS": "10.0.0.5"})
    assert status == 0 and seen["kwargs"]["proxy_headers"] is False

    status, seen, _ = _serve(monkeypatch, tmp_path)
    assert status == 0 and seen["settings"].cookie_secure is False
    assert seen["kwargs"]["proxy_headers"] is False


def test_serve_refuses_a_malformed_proxy_list_in_one_line(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    status, seen, err = _serve(monkeypatch, tmp_path, "--forwarded-allow-ips", "proxy.local")
    assert status == 1 and not seen
    assert err.count("\n") == 1 and err.startswith("spyhouse: forwarded-allow-ips:")
    status, seen, err = _serve(monkeypatch, tmp_path,
                               env={"SPYHOUSE_FORWARDED_ALLOW_IPS": "10.0.0.5/8"})
    assert status == 1 and not seen and "10.0.0.5/8" in err


def test_serve_never_prints_the_database_password(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A PostgreSQL URL holds the password: the one line about a database that cannot be
    reached shows the URL with the password hidden."""
    url = "postgresql+psycopg://spyhouse:s3cret-pw@127.0.0.1:1/spyhouse?connect_timeout=2"
    monkeypatch.setenv("SPYHOUSE_DATABASE_URL", url)
    import uvicorn

    monkeypatch.setattr(uvicorn, "run", lambda *_args, **_kwargs: None)
    monkeypatch.setenv("SPYHOUSE_DEMO", "0")
    out, err = io.StringIO(), io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    monkeypatch.setattr("sys.stderr", err)
    assert cli.main(["serve"]) == 1
    assert "cannot prepare the database postgresql+psycopg://spyhouse:***@" in err.getvalue()
    assert "s3cret-pw" not in err.getvalue() + out.getvalue()


def test_worker_refuses_a_malformed_proxy_list_in_one_line(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The worker reads the same variables: a typo is one line there too, not a
    traceback."""
    monkeypatch.setenv("SPYHOUSE_FORWARDED_ALLOW_IPS", "proxy.local")
    err = io.StringIO()
    monkeypatch.setattr("sys.stderr", err)
    assert cli.main(["worker", "--db", "sqlite:///:memory:"]) == 1
    assert err.getvalue().startswith("spyhouse: forwarded-allow-ips:")
    assert err.getvalue().count("\n") == 1
