"""The reader's time in a real browser (issue 14 item 5): a visitor who chose no zone
reads every ``<time>`` in the browser's own zone (``app.js`` rewrites the server's UTC),
with the UTC time on hover."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from tests.browser.conftest import LiveServer, needs_chromium
from tests.browser.test_replay import finished_game

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = needs_chromium


def test_times_in_the_browsers_zone_with_utc_on_hover(chromium: Browser,
                                                       live_server: LiveServer) -> None:
    from playwright.sync_api import expect

    finished_game(live_server.settings.database_url, "spyvsspy")
    for zone, label in (("Europe/Paris", r"CES?T"), ("Asia/Tokyo", r"GMT\+9")):
        context = chromium.new_context(base_url=live_server.url, timezone_id=zone)
        try:
            page = context.new_page()
            page.goto("/archive")
            moment = page.locator("time[datetime]").first
            expect(moment).to_have_attribute("data-local", "done")
            expect(moment).to_have_text(
                re.compile(rf"^\w{{3}} \d{{2}} \w{{3}} \d{{4}} \d{{2}}:\d{{2}} {label}$"))
            expect(moment).to_have_attribute("title", re.compile(r" UTC$"))
            utc = moment.get_attribute("datetime") or ""
            shown = page.evaluate(
                "([iso, zone]) => new Intl.DateTimeFormat('en-GB', {hour: '2-digit', "
                "minute: '2-digit', hourCycle: 'h23', timeZone: zone}).format(new Date(iso))",
                [utc, zone])
            expect(moment).to_contain_text(shown)
        finally:
            context.close()
