"""Secrets out of the access log: ``spyhouse serve`` puts ``RedactSecrets`` on uvicorn's
access logger (``redact_access_log``), so a mailed password-reset link's token is never
written to a log, not even in the one request that carries it in its path.

The reset link is ``/reset/{token}``; the page it opens posts the token in its form's
body (``POST /reset/password``, a path without it), so ``GET /reset/{token}`` is the
only request line that holds a token, and this filter writes it as
``GET /reset/[redacted]``. A reverse proxy keeps its own access log: docs/deploying.md
shows how to redact the same paths there.
"""

from __future__ import annotations

import logging
import re
from typing import Final

#: The logger uvicorn writes one line per request to ('%s - "%s %s HTTP/%s" %d').
ACCESS_LOGGER: Final = "uvicorn.access"
REDACTED: Final = "[redacted]"
#: Whatever follows ``/reset/`` in a path, up to its query, fragment or the end of the
#: request target, except the form's own ``/reset/password`` (which holds no token);
#: and a one-click unsubscribe link's token (``/unsubscribe/<token>``: it names the
#: account, and anyone holding it could turn that account's mail off).
_SECRET_PATH = re.compile(
    r"(/reset/(?!password(?:[?#\s\"']|$))|/unsubscribe/)[^?#\s\"']+")


def redact(text: str) -> str:
    """``text`` with every ``/reset/<token>`` written ``/reset/[redacted]`` (and each
    ``/unsubscribe/<token>`` likewise)."""
    return _SECRET_PATH.sub(rf"\g<1>{REDACTED}", text)


class RedactSecrets(logging.Filter):
    """Rewrites a record's message and its string arguments with ``redact`` before any
    handler formats it; the arguments keep their number and order (uvicorn's access
    formatter unpacks them)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(arg) if isinstance(arg, str) else arg
                                for arg in record.args)
        elif isinstance(record.args, dict):
            record.args = {key: redact(value) if isinstance(value, str) else value
                           for key, value in record.args.items()}
        return True


def redact_access_log(name: str = ACCESS_LOGGER) -> RedactSecrets:
    """Put ``RedactSecrets`` on the logger ``name`` (once; it is returned). A logger's
    filters survive uvicorn's ``dictConfig`` of its logging at start-up."""
    logger = logging.getLogger(name)
    for existing in logger.filters:
        if isinstance(existing, RedactSecrets):
            return existing
    added = RedactSecrets()
    logger.addFilter(added)
    return added


__all__ = ["ACCESS_LOGGER", "REDACTED", "RedactSecrets", "redact", "redact_access_log"]
