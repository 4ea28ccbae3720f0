"""The mail settings page (``/account/mail``) and the one-click unsubscribe
(``/unsubscribe/{token}``).

The settings page is a form like any other (log-in, CSRF, redirect after a saved
POST). The unsubscribe routes are on a router of their own, the one page router
without the CSRF check: RFC 8058's one-click POST comes from the recipient's mail
client, with no cookie and no form token; the signed token in the path is its proof.
A GET only shows what the link would turn off and a button (mail scanners follow
links), a POST turns it off and answers the page itself, never a redirect (RFC 8058
§3.2). A malformed or tampered token answers 400 and changes nothing.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Depends, Form, Request
from fastapi.responses import RedirectResponse, Response

from spyhouse.mail import unsubscribe as links
from spyhouse.service import mail_settings
from spyhouse.service.errors import ServiceError
from spyhouse.service.reminders import MAX_HOURS, MIN_HOURS
from spyhouse.web.deps import CurrentUser, Db, Web, check_csrf
from spyhouse.web.render import error_status, render

router = APIRouter(dependencies=[Depends(check_csrf)], include_in_schema=False)
#: No CSRF check here: see the module's docstring. Only the two unsubscribe routes.
one_click = APIRouter(include_in_schema=False)

SAVED = "Your mail settings were saved."
BAD_LINK = ("This unsubscribe link is not valid: it may have been cut short or changed. "
            "Nothing was changed. Log in to choose your mails on the mail settings page.")

_ON = ("1", "on", "yes", "true")


def _page(request: Request, account: object, *, values: dict[str, object] | None = None,
          error: str | None = None, notice: str | None = None, status: int = 200) -> Response:
    return render(request, "mail_settings.html", {
        "account": account, "topics": list(links.TOPICS.values()), "values": values,
        "error": error, "notice": notice, "min_hours": MIN_HOURS, "max_hours": MAX_HOURS},
        status=status)


@router.get("/account/mail")
def mail_settings_page(request: Request, user: CurrentUser) -> Response:
    values: dict[str, object] = {topic.column: getattr(user, topic.column)
                                 for topic in links.TOPICS.values()}
    values.update(reminder_hours=str(user.reminder_hours), email_public=user.email_public)
    notice = SAVED if request.query_params.get("notice") == "saved" else None
    return _page(request, user, values=values, notice=notice)


@router.post("/account/mail")
def save_mail_settings(request: Request, db: Db, user: CurrentUser,
                       mail_turn: Annotated[str, Form()] = "",
                       mail_reminder: Annotated[str, Form()] = "",
                       mail_messages: Annotated[str, Form()] = "",
                       mail_game: Annotated[str, Form()] = "",
                       reminder_hours: Annotated[str, Form()] = "",
                       email_public: Annotated[str, Form()] = "") -> Response:
    given = {"mail_turn": mail_turn, "mail_reminder": mail_reminder,
             "mail_messages": mail_messages, "mail_game": mail_game}
    on = frozenset(topic.name for topic in links.TOPICS.values()
                   if given[topic.column] in _ON)
    choices = mail_settings.MailChoices(on=on, reminder_hours=reminder_hours,
                                        email_public=email_public in _ON)
    try:
        mail_settings.save(db, user, choices)
    except ServiceError as exc:
        db.rollback()
        values: dict[str, object] = {topic.column: topic.name in on
                                     for topic in links.TOPICS.values()}
        values.update(reminder_hours=reminder_hours, email_public=choices.email_public)
        return _page(request, user, values=values, error=exc.message,
                     status=error_status(exc))
    return RedirectResponse("/account/mail?notice=saved", 303)


def _bad_link(request: Request) -> Response:
    return render(request, "unsubscribe.html", {"error": BAD_LINK, "topic": None,
                                                "done": False, "token": ""}, status=400)


@one_click.get("/unsubscribe/{token}")
def unsubscribe_page(request: Request, web: Web, token: str) -> Response:
    """What the link turns off, and a button to do it: a GET changes nothing."""
    found = links.read_token(web.settings, token)
    if found is None:
        return _bad_link(request)
    _user_id, topic = found
    return render(request, "unsubscribe.html", {"error": None, "topic": topic,
                                                "done": False, "token": token})


@one_click.post("/unsubscribe/{token}")
def unsubscribe(request: Request, db: Db, web: Web, token: str) -> Response:
    """RFC 8058's one-click POST (any body; a mail client sends
    ``List-Unsubscribe=One-Click``), or the confirmation page's button."""
    found = links.read_token(web.settings, token)
    if found is None:
        return _bad_link(request)
    user_id, topic = found
    if mail_settings.unsubscribe(db, user_id, topic) is None:
        return _bad_link(request)
    return render(request, "unsubscribe.html", {"error": None, "topic": topic,
                                                "done": True, "token": token})
