"""Templates and the one ``render`` helper every page goes through.

``render`` adds what every page needs: the logged-in user, the CSRF token for
forms, the current time, and ``paging`` (``Pager``: a long table's rows a page at a
time, for every game's templates). Templates receive views (and rows of the store),
never a game state.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from fastapi import Request
from fastapi.templating import Jinja2Templates
from starlette.responses import Response

from spyhouse.core import registry
from spyhouse.service.errors import ServiceError
from spyhouse.web import times
from spyhouse.web.deps import Viewer, WebContext, expected_csrf
from spyhouse.web.times import iso_utc


def error_status(exc: ServiceError) -> int:
    """The HTTP status of a service error (docs/service.md): the error class says it."""
    return int(exc.status)


def iso(value: datetime | None) -> str:
    """A moment for scripts (``data-deadline``, a board's JSON): ISO 8601, UTC."""
    return iso_utc(value)


#: Rows a long table shows on one page: a table of at most this many rows is shown whole,
#: as it always was; a longer one a page at a time (``?rows=2``, ``?rows=all``).
PAGE_ROWS = 200
#: The query value that shows every row of a paged table.
ALL_ROWS = "all"


@dataclass(frozen=True, slots=True)
class PageLink:
    """A link of a table's page list: its text ("201–400"), where it goes, whether it
    is the page shown."""

    label: str
    href: str
    current: bool


@dataclass(frozen=True, slots=True)
class Page:
    """The rows of one page of a table, and the links to its other pages.

    ``rows`` are the rows to show, in their order: the page's slice of the paged rows
    and every kept row (one ``keep`` says stays on every page, in its place). ``total``
    counts the paged rows alone; ``first``..``last`` are the shown ones (1-based).
    ``paged`` is false for a table of at most ``size`` paged rows: it is shown whole
    and its template shows no page links."""

    rows: list[Any]
    total: int
    kept: int
    size: int
    number: int  # the page shown, from 1; 0: every row
    links: list[PageLink]
    all_href: str
    previous: str | None
    next: str | None

    @property
    def paged(self) -> bool:
        return self.total > self.size

    @property
    def everything(self) -> bool:
        return self.number == 0

    @property
    def first(self) -> int:
        return 1 if self.everything else (self.number - 1) * self.size + 1

    @property
    def last(self) -> int:
        return self.total if self.everything else min(self.total, self.number * self.size)


class Pager:
    """``paging(rows, keep=None, param="rows", anchor="")`` in every template: the
    ``Page`` of ``rows`` the request asks for (``?rows=N``, 1-based, or ``?rows=all``).

    It pages any long table of any game without script: the links are plain links to
    the same address with only ``param`` changed (the other query values kept) and
    ``#anchor`` (the table's id), so the browser lands on the table. An unknown or too
    large page number shows the nearest page. ``keep(row)`` true: the row is on every
    page (a game's summary rows)."""

    def __init__(self, request: Request, size: int = PAGE_ROWS) -> None:
        self.request = request
        self.size = size

    def _href(self, param: str, value: str, anchor: str) -> str:
        query = [(key, item) for key, item in self.request.query_params.multi_items()
                 if key != param]
        query.append((param, value))
        return f"{self.request.url.path}?{urlencode(query)}" + (f"#{anchor}" if anchor else "")

    def __call__(self, rows: Iterable[Any], keep: Callable[[Any], bool] | None = None,
                 param: str = "rows", anchor: str = "") -> Page:
        rows = list(rows)
        kept = [keep is not None and bool(keep(row)) for row in rows]
        total = len(rows) - sum(kept)
        size = self.size
        pages = max(1, -(-total // size))
        asked = self.request.query_params.get(param, "").strip().lower()
        if total <= size:
            number = 1
        elif asked == ALL_ROWS:
            number = 0
        else:
            number = min(pages, max(1, int(asked))) if asked.isdecimal() else 1
        if number == 0 or total <= size:
            shown = rows
        else:
            low, high = (number - 1) * size, number * size
            shown, index = [], 0
            for row, stays in zip(rows, kept, strict=True):
                if stays:
                    shown.append(row)
                    continue
                if low <= index < high:
                    shown.append(row)
                index += 1
        links = [] if total <= size else [
            PageLink(f"{(k - 1) * size + 1}–{min(total, k * size)}",
                     self._href(param, str(k), anchor), k == number)
            for k in range(1, pages + 1)]
        href = {k: self._href(param, str(k), anchor) for k in (number - 1, number + 1)
                if number and 1 <= k <= pages}
        return Page(rows=shown, total=total, kept=sum(kept), size=size, number=number,
                    links=links, all_href=self._href(param, ALL_ROWS, anchor),
                    previous=href.get(number - 1), next=href.get(number + 1))


def rules_href(game: Any) -> str | None:
    """Where the rules of ``game`` are (``/rules/<name>``), for a game's name or any row
    with a ``game`` name (a game row of the store); ``None`` when it has no rules page.
    Every template may call it, so one link in ``base.html`` serves every game's pages."""
    name = getattr(game, "game", game)
    if not isinstance(name, str):
        return None
    try:
        plugin = registry.plugin(name)
    except KeyError:
        return None
    return f"/rules/{name}" if plugin.rules is not None else None


def rules_links() -> list[tuple[str, str]]:
    """(title, href) of every game with a rules page, in the registry's order."""
    return [(plugin.ruleset().spec.title, f"/rules/{plugin.name}")
            for plugin in registry.plugins() if plugin.rules is not None]


def make_templates(directory: Path, *extra: Path) -> Jinja2Templates:
    """The templates: the platform's, then each game's own folder (its plugin's
    ``templates``, holding ``<game>/...`` pages that extend the platform's ``base.html``).
    A game's own filters and globals come with its page context, not from here."""
    templates = Jinja2Templates(directory=[str(directory), *(str(path) for path in extra)])
    env = templates.env
    env.autoescape = True
    env.trim_blocks = True
    env.lstrip_blocks = True
    times.install(env)  # ``when``: every moment as a ``<time>`` in the reader's zone
    env.filters["iso"] = iso
    env.globals["rules_href"] = rules_href
    env.globals["rules_links"] = rules_links
    return templates


def render(request: Request, name: str, context: Mapping[str, Any] | None = None, *,
           status: int = 200, headers: Mapping[str, str] | None = None) -> Response:
    """Render template ``name`` with the page basics added."""
    web: WebContext = request.app.state.web
    viewer: Viewer | None = getattr(request.state, "viewer", None)
    data: dict[str, Any] = {
        "user": viewer,
        "csrf_token": expected_csrf(request),
        "now": web.clock.now(),
        "settings": web.settings,
        "mail_page": not web.settings.smtp_configured,
        "paging": Pager(request),
    }
    data.update(context or {})
    return web.templates.TemplateResponse(request, name, data, status_code=status,
                                          headers=dict(headers) if headers else None)
