"""The rules pages on a 390 px phone (issue 14 item 4): every game's rules, and the list of
them, fit the screen with no sideways scrolling, read by a visitor who is not logged in;
each is screenshotted for a person to look at."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from spyhouse.core import registry
from tests.browser.conftest import Visitor, needs_chromium
from tests.browser.test_platform_pages import PHONE, fits

pytestmark = needs_chromium


def test_every_rules_page_fits_a_phone(new_visitor: Callable[[str], Visitor]) -> None:
    pytest.importorskip("playwright.sync_api")
    reader = new_visitor("reader")
    reader.page.set_viewport_size(PHONE)
    too_wide: list[tuple[str, int]] = []
    for path in ["/rules", *(f"/rules/{game}" for game in registry.names())]:
        reader.goto(path)
        reader.shot("rules" + path.removeprefix("/rules").replace("/", "-"))
        too_wide.append((path, fits(reader)))
    assert [(path, px) for path, px in too_wide if px > 0] == [], too_wide
