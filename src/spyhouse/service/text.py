"""One-line fields: what a user may type where a single line is expected.

A game's title goes into mail subjects, seat and player names into page headings,
directories and mail; none of them may hold a line break or another control
character, so each is refused where it is typed with one clear form error (post
bodies are several lines and are checked by ``service.channels`` instead). The mail
builders make a header safe anyway (``mail.messages.header_text``), for rows
stored before this check.
"""

from __future__ import annotations

import unicodedata

from spyhouse.service.errors import Invalid

#: Unicode categories refused in a one-line field: C0 and C1 controls (CR, LF, tab,
#: NUL, ESC, NEL …), lone surrogates (no encoding can carry them), line and paragraph
#: separators (U+2028, U+2029).
REFUSED_CATEGORIES = frozenset({"Cc", "Cs", "Zl", "Zp"})


def line_problem(text: str) -> str | None:
    """Why ``text`` cannot be a one-line field, or ``None`` if it can."""
    for char in text:
        if unicodedata.category(char) in REFUSED_CATEGORIES:
            if char in "\r\n\x85\u2028\u2029":
                return "may not hold a line break"
            return "may not hold control characters"
    return None


def check_line(text: str, field: str, label: str) -> str:
    """``text`` as it is, or ``Invalid`` naming ``field`` ("the title may not hold a
    line break")."""
    problem = line_problem(text)
    if problem is not None:
        raise Invalid(f"{label} {problem}", {field: [problem]})
    return text


__all__ = ["REFUSED_CATEGORIES", "check_line", "line_problem"]
