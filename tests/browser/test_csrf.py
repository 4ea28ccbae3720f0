"""Forms posted from a real browser without their CSRF token are refused.

The page's own forms carry a hidden ``csrf_token``; here the test removes it (or
forges it) in the live page with ``page.evaluate`` and then submits the form by
clicking, as a cross-site form would arrive: the server answers 403 and
changes nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.browser.conftest import PASSWORD, Visitor, needs_chromium

pytestmark = needs_chromium

REFUSED = "missing or wrong CSRF token"


def drop_token(page: Page, form: str) -> None:
    """Remove the hidden CSRF input of the form matching ``form`` (a CSS selector)."""
    removed = page.evaluate(
        """selector => {
            const input = document.querySelector(selector + ' input[name="csrf_token"]');
            if (!input) return false;
            input.remove();
            return true;
        }""", form)
    assert removed, f"no CSRF input in {form}"


def submit(page: Page, button: str, status: int) -> None:
    with page.expect_navigation() as navigation:
        page.get_by_role("button", name=button, exact=True).click()
    response = navigation.value
    assert response is not None and response.status == status, (
        page.url, response.status if response else None)


def submit_privacy(page: Page, status: int) -> None:
    """Save the account page's privacy form (the page has other Save buttons)."""
    with page.expect_navigation() as navigation:
        page.locator('form[action="/account/privacy"]').get_by_role(
            "button", name="Save", exact=True).click()
    response = navigation.value
    assert response is not None and response.status == status, (
        page.url, response.status if response else None)


def fill_sign_up(page: Page, username: str) -> None:
    page.get_by_label("User name").fill(username)
    page.get_by_label("E-mail").fill(f"{username}@example.org")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password again").fill(PASSWORD)


def test_forms_without_a_csrf_token_are_refused(
        new_visitor: Callable[[str], Visitor]) -> None:
    cleo = new_visitor("cleo")
    page = cleo.page

    # before log-in: the sign-up form (its token is the pre-session cookie's)
    cleo.goto("/signup")
    fill_sign_up(page, "cleo")
    drop_token(page, 'form[action="/signup"]')
    submit(page, "Sign up", 403)
    expect(page.get_by_role("heading", level=1)).to_have_text("Refused")
    expect(page.get_by_role("alert")).to_contain_text(REFUSED)
    cleo.shot("signup-refused")

    # nothing was made: the same name signs up fine with the page's own token
    cleo.goto("/signup")
    fill_sign_up(page, "cleo")
    submit(page, "Sign up", 200)
    expect(page).to_have_url(re.compile(r"/lobby\?notice=welcome$"))

    # logged in: the privacy form (private by default), token removed, then forged:
    # the address stays private
    cleo.goto("/account")
    checkbox = page.get_by_label("Show my e-mail address")
    expect(checkbox).not_to_be_checked()
    checkbox.check()
    drop_token(page, 'form[action="/account/privacy"]')
    submit_privacy(page, 403)
    expect(page.get_by_role("alert")).to_contain_text(REFUSED)
    cleo.shot("privacy-refused")
    cleo.goto("/account")
    expect(page.get_by_label("Show my e-mail address")).not_to_be_checked()

    page.get_by_label("Show my e-mail address").check()
    page.evaluate("""() => {
        document.querySelector('form[action="/account/privacy"] input[name="csrf_token"]')
            .value = 'forged-token';
    }""")
    submit_privacy(page, 403)
    cleo.goto("/account")
    expect(page.get_by_label("Show my e-mail address")).not_to_be_checked()

    # with the page's own token the same form works
    page.get_by_label("Show my e-mail address").check()
    submit_privacy(page, 200)
    expect(page.get_by_role("status")).to_contain_text("saved")
    expect(page.get_by_label("Show my e-mail address")).to_be_checked()

    # the lobby's one-click game against the computer: refused, no game made
    cleo.goto("/lobby")
    drop_token(page, 'form[action="/games/quick"]')
    submit(page, "Play Spy vs Spy against the computer", 403)
    cleo.goto("/lobby")
    expect(page.get_by_text("You are in no game yet")).to_be_visible()

    # and with its token the same form works (the refusals were the token's doing)
    submit(page, "Play Spy vs Spy against the computer", 200)
    expect(page).to_have_url(re.compile(r"/games/\d+/seat\?notice=quick$"))
    cleo.shot("quick-game")
