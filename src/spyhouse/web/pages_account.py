"""Account pages: home, sign up, log in, log out, password reset by e-mail, the account
page, the local mail page."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import RedirectResponse, Response

from spyhouse.core import registry
from spyhouse.mail import outbox, unsubscribe
from spyhouse.service import accounts, password_reset
from spyhouse.service.errors import Invalid, ServiceError
from spyhouse.web.deps import (
    SESSION_COOKIE,
    ClientAddress,
    CurrentUser,
    Db,
    MaybeSession,
    MaybeUser,
    Now,
    Web,
    check_csrf,
)
from spyhouse.web.render import error_status, render, rules_href

router = APIRouter(dependencies=[Depends(check_csrf)], include_in_schema=False)

NOTICES = {
    "password": "Your password was changed; your other sessions were logged out.",
    "privacy": "Your e-mail setting was saved.",
    "zone": "Your time zone was saved: every page shows times in it.",
    "welcome": "Welcome! Your account is ready.",
    "loggedout": "You are logged out.",
}


def safe_next(target: str | None) -> str:
    """Only a local path: never another site (open redirect)."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return "/lobby"
    return target


def _logged_in(response: Response, token: str, web: Web) -> Response:
    response.set_cookie(SESSION_COOKIE, token, max_age=web.settings.session_days * 86400,
                        path="/", httponly=True, samesite="lax",
                        secure=web.settings.cookie_secure)
    return response


@router.get("/")
def home(request: Request, user: MaybeUser) -> Response:
    if user is not None:
        return RedirectResponse("/lobby", 303)
    games = [{"title": plugin.ruleset().spec.title, "blurb": plugin.words.blurb,
              "rules": rules_href(plugin.name)} for plugin in registry.plugins()]
    return render(request, "home.html", {"games": games})


@router.get("/signup")
def signup_page(request: Request, user: MaybeUser) -> Response:
    if user is not None:
        return RedirectResponse("/lobby", 303)
    return render(request, "signup.html", {"values": {}, "error": None})


@router.post("/signup")
def signup(request: Request, db: Db, when: Now, web: Web,
           username: Annotated[str, Form()] = "", email: Annotated[str, Form()] = "",
           password: Annotated[str, Form()] = "",
           password2: Annotated[str, Form()] = "") -> Response:
    values = {"username": username, "email": email}
    try:
        if password != password2:
            raise Invalid("the two passwords differ", {"password2": ["differs"]})
        user = accounts.sign_up(db, username, email, password, when)
        token, _session = accounts.open_session(db, user, when, web.settings)
    except ServiceError as exc:
        db.rollback()
        return render(request, "signup.html", {"values": values, "error": exc.message},
                      status=error_status(exc))
    return _logged_in(RedirectResponse("/lobby?notice=welcome", 303), token, web)


@router.get("/login")
def login_page(request: Request, user: MaybeUser, next: str = "/lobby") -> Response:
    if user is not None:
        return RedirectResponse(safe_next(next), 303)
    return render(request, "login.html", {"next": safe_next(next), "username": "",
                                          "error": None,
                                          "notice": NOTICES.get(
                                              request.query_params.get("notice", ""))})


@router.post("/login")
def login(request: Request, db: Db, when: Now, web: Web, client: ClientAddress,
          username: Annotated[str, Form()] = "", password: Annotated[str, Form()] = "",
          next: Annotated[str, Form()] = "/lobby") -> Response:
    """Log in; throttled per (user name, client address) and per address with growing
    delays, never a lock-out (``accounts.authenticate``): a delayed attempt answers 429
    with ``Retry-After`` and says when to try again."""
    try:
        user = accounts.authenticate(db, username, password, client, when, web.settings)
        token, _session = accounts.open_session(db, user, when, web.settings)
    except ServiceError as exc:  # caught inside the transaction: the failure is counted
        headers = ({"Retry-After": str(exc.retry_after)}
                   if isinstance(exc, accounts.LoginDelayed) else None)
        return render(request, "login.html",
                      {"next": safe_next(next), "username": username, "error": exc.message,
                       "notice": None}, status=error_status(exc), headers=headers)
    return _logged_in(RedirectResponse(safe_next(next), 303), token, web)


@router.get("/reset")
def reset_request_page(request: Request) -> Response:
    return render(request, "reset_request.html", {"value": "", "error": None})


@router.post("/reset")
def reset_request(request: Request, db: Db, when: Now, web: Web,
                  username_or_email: Annotated[str, Form()] = "") -> Response:
    """The same answer whether or not an account matches (it tells nobody who is here)."""
    if not username_or_email.strip():
        return render(request, "reset_request.html",
                      {"value": username_or_email,
                       "error": "Give your user name or your e-mail address."}, status=422)
    password_reset.request_reset(db, username_or_email, when, web.settings)
    return render(request, "reset_request.html",
                  {"value": username_or_email, "error": None,
                   "notice": password_reset.REQUEST_ANSWER})


def _reset_form(request: Request, token: str, account_name: str, error: str | None,
                status: int = 200) -> Response:
    return render(request, "reset_password.html",
                  {"token": token, "account_name": account_name, "error": error},
                  status=status)


def _bad_link(request: Request, exc: ServiceError) -> Response:
    """An unusable link: the request form again, to ask for a new one."""
    return render(request, "reset_request.html", {"value": "", "error": exc.message},
                  status=error_status(exc))


# The token travels in the path of the mailed link's GET only (the access log redacts
# it: web/access_log.py); the form posts it in its body, to a path without it.
@router.post("/reset/password")
def reset_password(request: Request, db: Db, when: Now, web: Web,
                   token: Annotated[str, Form()] = "",
                   password: Annotated[str, Form()] = "",
                   password2: Annotated[str, Form()] = "") -> Response:
    """Set the password, then log in (every older session was ended by the reset, and
    the account's API tokens revoked)."""
    try:
        user = password_reset.check_reset(db, token, when)
    except ServiceError as exc:
        return _bad_link(request, exc)
    account_name = user.username
    try:
        if password != password2:
            raise Invalid("the two passwords differ", {"password2": ["differs"]})
        user = password_reset.reset_password(db, token, password, when)
        cookie, _session = accounts.open_session(db, user, when, web.settings)
    except ServiceError as exc:
        db.rollback()
        if isinstance(exc, Invalid) and "token" in exc.fields:
            return _bad_link(request, exc)
        return _reset_form(request, token, account_name, exc.message, error_status(exc))
    return _logged_in(RedirectResponse("/lobby?notice=reset", 303), cookie, web)


@router.get("/reset/{token}")
def reset_password_page(request: Request, db: Db, when: Now, token: str) -> Response:
    """The mailed link: the new-password form, the token in a hidden field (a used,
    expired or made-up link: the request form again, with the reason)."""
    try:
        user = password_reset.check_reset(db, token, when)
    except ServiceError as exc:
        return _bad_link(request, exc)
    return _reset_form(request, token, user.username, None)


@router.post("/logout")
def logout(request: Request, db: Db, when: Now, session: MaybeSession) -> Response:
    token = request.cookies.get(SESSION_COOKIE, "")
    if session is not None and token:
        accounts.close_session(db, token, when)
    response = RedirectResponse("/login?notice=loggedout", 303)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


@router.get("/account")
def account_page(request: Request, user: CurrentUser) -> Response:
    return render(request, "account.html", {
        "account": user, "error": None,
        "notice": NOTICES.get(request.query_params.get("notice", ""))})


@router.post("/account/password")
def change_password(request: Request, db: Db, when: Now, user: CurrentUser,
                    session: MaybeSession,
                    old_password: Annotated[str, Form()] = "",
                    new_password: Annotated[str, Form()] = "",
                    new_password2: Annotated[str, Form()] = "") -> Response:
    try:
        if new_password != new_password2:
            raise Invalid("the two new passwords differ", {"new_password2": ["differs"]})
        accounts.change_password(db, user, old_password, new_password, keep=session, now=when)
    except ServiceError as exc:
        db.rollback()
        return render(request, "account.html", {"account": user, "error": exc.message,
                                                "notice": None}, status=error_status(exc))
    return RedirectResponse("/account?notice=password", 303)


@router.post("/account/privacy")
def change_privacy(db: Db, user: CurrentUser,
                   email_public: Annotated[str, Form()] = "") -> Response:
    accounts.set_email_public(db, user, email_public in ("1", "on", "yes", "true"))
    return RedirectResponse("/account?notice=privacy", 303)


@router.post("/account/time-zone")
def change_time_zone(request: Request, db: Db, user: CurrentUser,
                     time_zone: Annotated[str, Form()] = "") -> Response:
    """The zone of every time on the pages (blank: the browser's); refused: the page
    again with the message and nothing saved."""
    try:
        accounts.set_time_zone(db, user, time_zone)
    except ServiceError as exc:
        db.rollback()
        return render(request, "account.html", {"account": user, "error": exc.message,
                                                "notice": None}, status=error_status(exc))
    return RedirectResponse("/account?notice=zone", 303)


@router.get("/mail")
def mail_page(request: Request, db: Db, user: CurrentUser, web: Web) -> Response:
    """The outbox rows addressed to the user, each game mail with the unsubscribe foot it
    is sent with (``mail/unsubscribe.py``)."""
    mails = outbox.mails_of(db, user.id, limit=100)
    footers = {mail.id: link.footer() for mail in mails
               if (link := unsubscribe.for_mail(web.settings, mail.kind, mail.user_id))}
    return render(request, "mail.html", {"mails": mails, "address": user.email,
                                         "footers": footers})
