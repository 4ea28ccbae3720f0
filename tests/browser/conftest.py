"""Browser tests: a real server on 127.0.0.1 driven by headless Debian chromium.

``live_server`` runs the application of ``spyhouse serve`` (``create_app`` with
the in-process worker) under uvicorn in a background thread, on a socket bound
to a free loopback port, with a fresh SQLite file under ``tmp_path``, the demo
off, no SMTP (mail lands on the local ``/mail`` page) and a worker that looks
for due turns every 0.1 s. Playwright drives Debian's ``/usr/bin/chromium``
(never a downloaded browser); every module here skips when it is missing.

Screenshots of each step land in the test's ``tmp_path``; with
``SPYHOUSE_UPDATE_SCREENSHOTS=1`` the ones the README shows are also copied to
``docs/screenshots/``.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from spyhouse.clock import SystemClock
from spyhouse.settings import Settings

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page, Playwright
    from sqlalchemy.orm import Session, sessionmaker

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
ROOT = Path(__file__).resolve().parents[2]
README_SCREENSHOTS = ROOT / "docs" / "screenshots"
UPDATE_SCREENSHOTS = os.environ.get("SPYHOUSE_UPDATE_SCREENSHOTS") == "1"
PASSWORD = "correct horse battery"
VIEWPORT = {"width": 1280, "height": 900}
#: How long a page waits for an element, a navigation or an ``expect`` (ms): generous,
#: since ``make test`` runs the browser next to every other test process.
TIMEOUT_MS = 20_000

needs_chromium = pytest.mark.skipif(
    not CHROMIUM.exists(),
    reason=f"browser tests need Debian's chromium at {CHROMIUM} (apt-get install chromium); "
           "a browser is never downloaded")


@dataclass(frozen=True, slots=True)
class LiveServer:
    url: str
    settings: Settings


@pytest.fixture
def live_server(database_url: str) -> Iterator[LiveServer]:
    """``spyhouse serve`` in a thread: uvicorn, the app and its worker, on a free port."""
    from spyhouse.store.db import make_engine
    from spyhouse.web.app import create_app
    from tests.serving import bound_socket, uvicorn_thread

    sock = bound_socket()  # the URL is the app's base URL, so it is known first
    url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    settings = Settings(database_url=database_url, base_url=url, demo=False,
                        smtp_host=None, worker_interval_s=0.1)
    engine = make_engine(database_url)
    app = create_app(settings, SystemClock(), start_worker=True, engine=engine)
    try:
        with uvicorn_thread(app, name="spyhouse-live-server", sock=sock):
            yield LiveServer(url=url, settings=settings)
    finally:
        engine.dispose()


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    sync_api.expect.set_options(timeout=TIMEOUT_MS)
    with sync_api.sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def chromium(playwright: Playwright) -> Iterator[Browser]:
    browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS,
                                         headless=True)
    yield browser
    browser.close()


@dataclass(slots=True)
class Album:
    """The test's screenshots, numbered in the order they were taken."""

    folder: Path
    count: int = 0

    def next_path(self, visitor: str, step: str) -> Path:
        self.count += 1
        return self.folder / f"{self.count:02d}-{visitor}-{step}.png"


@dataclass(slots=True)
class Visitor:
    """One person at a browser: a page of its own context (cookies), the test's album,
    and the HTML of every page it was shown (to look for secrets afterwards)."""

    name: str
    page: Page
    album: Album
    pages: list[tuple[str, str]] = field(default_factory=list)

    def goto(self, url: str) -> Any:
        response = self.page.goto(url)
        self.seen()
        return response

    def seen(self) -> None:
        """Record the page now shown (its path and HTML)."""
        self.page.wait_for_load_state()
        path = self.page.url.split("://", 1)[-1].partition("/")[2]
        self.pages.append(("/" + path, self.page.content()))

    def shot(self, step: str, *, full_page: bool = True) -> Path:
        """Screenshot the page as ``NN-visitor-step.png`` and record its HTML."""
        self.seen()
        path = self.album.next_path(self.name, step)
        self.page.screenshot(path=str(path), full_page=full_page)
        return path


@pytest.fixture
def album(tmp_path: Path) -> Album:
    """This test's screenshots: ``tmp_path/screenshots/NN-visitor-step.png``."""
    folder = tmp_path / "screenshots"
    folder.mkdir()
    return Album(folder)


@pytest.fixture
def new_visitor(chromium: Browser, live_server: LiveServer,
                album: Album) -> Iterator[Callable[[str], Visitor]]:
    """Makes a visitor (its own browser context: cookies, session) for a name."""
    contexts: list[BrowserContext] = []

    def make(name: str) -> Visitor:
        context = chromium.new_context(base_url=live_server.url, viewport=VIEWPORT)
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        return Visitor(name, context.new_page(), album)

    yield make
    for context in contexts:
        context.close()


def keep_for_readme(shot: Path, name: str) -> None:
    """Copy a screenshot into docs/screenshots/ when SPYHOUSE_UPDATE_SCREENSHOTS=1."""
    if UPDATE_SCREENSHOTS:
        README_SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shot, README_SCREENSHOTS / name)


@pytest.fixture
def live_factory(live_server: LiveServer) -> Iterator[sessionmaker[Session]]:
    """Sessions on the live server's database, with its settings (as the server's own)."""
    from spyhouse.store.db import make_engine, session_factory

    engine = make_engine(live_server.settings.database_url)
    made = session_factory(engine)
    made.configure(info={"settings": live_server.settings})
    yield made
    engine.dispose()
