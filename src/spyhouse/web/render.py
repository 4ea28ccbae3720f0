"""Templates and the one ``render`` helper every page goes through.

``render`` adds what every page needs: the logged-in user, the CSRF token for
forms and the current time. Templates receive views (and rows of the store),
never a game state.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.templating import Jinja2Templates
from starlette.responses import Response

from spyhouse.service.errors import ServiceError
from spyhouse.web.deps import Viewer, WebContext, expected_csrf


def error_status(exc: ServiceError) -> int:
    """The HTTP status of a service error (docs/service.md): the error class says it."""
    return int(exc.status)


def when(value: datetime | None) -> str:
    """A time as pages print it (UTC; the countdown script shows local time too)."""
    if value is None:
        return ""
    return value.strftime("%a %d %b %Y %H:%M UTC")


def iso(value: datetime | None) -> str:
    return "" if value is None else value.isoformat()


def make_templates(directory: Path, *extra: Path) -> Jinja2Templates:
    """The templates: the platform's, then each game's own folder (its plugin's
    ``templates``, holding ``<game>/...`` pages that extend the platform's ``base.html``).
    A game's own filters and globals come with its page context, not from here."""
    templates = Jinja2Templates(directory=[str(directory), *(str(path) for path in extra)])
    env = templates.env
    env.autoescape = True
    env.trim_blocks = True
    env.lstrip_blocks = True
    env.filters["when"] = when
    env.filters["iso"] = iso
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
    }
    data.update(context or {})
    return web.templates.TemplateResponse(request, name, data, status_code=status,
                                          headers=dict(headers) if headers else None)
