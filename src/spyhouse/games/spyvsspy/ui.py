"""Spy vs Spy's web forms: the order form <-> the order sheet (spec §5.1), pure.

Everything here reads a seat's view (§8.5) and form fields, nothing else. The
server computes the choices a player may click (tasks of the variant, the other
surviving brotherhoods, the leader names of the view's ``leaders``, regions);
pages only show them. A parameter the chosen task does not take (a region on
RECRUIT, say) is dropped when the form becomes a sheet, so a stray click is not
an error; everything else is left to ``parse_orders``, whose messages are mapped
back to the form row they concern ("spy N: …" to spy N's row, "declaration K: …"
to the K-th filled declaration row, anything else to the top of the form).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from spyhouse.games.spyvsspy.model import (
    REGIONS,
    SPY2_REMOVED,
    TAKES_BROTHERHOOD,
    TAKES_REGION,
    TASKS,
    Task,
    view_changes,
)

#: Declaration rows shown on the form (filled rows beyond the sheet's are added).
DECLARATION_ROWS = 3
#: The brotherhood and leader choices of a row are a select of every name while there are
#: at most this many names; past it (a game of hundreds of brotherhoods) each is a text
#: field offering one shared list of the names (a datalist), so the form does not carry
#: a thousand options in each of its two dozen choices. The field takes the name.
LIST_CHOICES = 200
#: Declaration rows read from a form at most (a sheet may hold more than the rows shown).
MAX_DECLARATION_ROWS = 50

_SPY_MESSAGE = re.compile(r"^spy (\S+?)(?::| has no orders)")
_DECLARATION_MESSAGE = re.compile(r"^declaration (\d+):")

REGION_CHOICES: tuple[tuple[str, str], ...] = tuple((r.value, r.info.name) for r in REGIONS)


@dataclass(slots=True)
class SpyRow:
    """One spy's row of the order form."""

    number: int
    leader: bool
    skill: int
    at: str | None
    tasks: list[str]
    task: str = ""
    region: str = ""
    brotherhood: str = ""
    follow: str = ""
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


@dataclass(slots=True)
class DeclarationRow:
    """One declaration row (``k`` counts the form's rows from 1)."""

    k: int
    brotherhood: str = ""
    leader: str = ""
    region: str = ""
    errors: list[str] = field(default_factory=list)


@dataclass(slots=True)
class OrderForm:
    """The order form of one seat for the open turn, with messages placed on rows."""

    spies: list[SpyRow]
    declarations: list[DeclarationRow]
    brotherhoods: list[tuple[str, str]]
    leaders: list[str]
    regions: Sequence[tuple[str, str]] = REGION_CHOICES
    takes_region: frozenset[str] = frozenset(t.value for t in TAKES_REGION)
    takes_brotherhood: frozenset[str] = frozenset(t.value for t in TAKES_BROTHERHOOD)
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    #: form row of the K-th declaration of the sheet made from this form
    declaration_rows: list[int] = field(default_factory=list)
    #: past ``LIST_CHOICES`` names: typed fields with a list of names, not selects
    brotherhood_list: bool = False
    leader_list: bool = False

    @property
    def has_errors(self) -> bool:
        return bool(self.errors or any(r.errors for r in self.spies)
                    or any(d.errors for d in self.declarations))


def _tasks(view: Mapping[str, Any], leader: bool) -> list[str]:
    removed = SPY2_REMOVED if "tasks" in view_changes(view) else frozenset()
    return [t.value for t in TASKS
            if t not in removed and not (leader and t is Task.FOLLOW)]


def _brotherhoods(view: Mapping[str, Any]) -> list[tuple[str, str]]:
    """The other surviving brotherhoods (seat id, name), by name."""
    own = view.get("seat")
    rows = [(str(r["seat"]), str(r["name"])) for r in view.get("directory") or ()
            if isinstance(r, Mapping) and r.get("seat") != own
            and r.get("status") == "surviving"]
    return sorted(rows, key=lambda row: row[1].casefold())


def empty_form(view: Mapping[str, Any]) -> OrderForm:
    """The form with one row per surviving spy of the seat and blank declarations."""
    spies = [
        SpyRow(number=int(s["number"]), leader=bool(s.get("leader")), skill=int(s["skill"]),
               at=s.get("at"), tasks=_tasks(view, bool(s.get("leader"))))
        for s in view.get("spies") or ()
        if isinstance(s, Mapping) and not s.get("killed")
    ]
    brotherhoods = _brotherhoods(view)
    leaders = [str(name) for name in view.get("leaders") or ()]
    return OrderForm(spies=spies, declarations=[], brotherhoods=brotherhoods, leaders=leaders,
                     brotherhood_list=len(brotherhoods) > LIST_CHOICES,
                     leader_list=len(leaders) > LIST_CHOICES)


def _seat_of_name(view: Mapping[str, Any]) -> dict[str, str]:
    """Brotherhood name (case-folded) -> seat id, for every brotherhood of the directory
    (a typed name of an eliminated or of the own brotherhood is left to ``parse_orders``
    to refuse, as a select's seat id would be)."""
    return {str(r["name"]).strip().casefold(): str(r["seat"]) for r in view.get("directory") or ()
            if isinstance(r, Mapping) and "name" in r and "seat" in r}


def _pad(form: OrderForm) -> OrderForm:
    """Rows as the player laid them out, then one blank row more (at least
    ``DECLARATION_ROWS``): trailing blank rows are trimmed first, so a form shown again
    does not grow."""
    last = max((d.k for d in form.declarations if d.brotherhood or d.leader or d.region),
               default=0)
    count = max(DECLARATION_ROWS, last + 1)
    del form.declarations[count:]
    while len(form.declarations) < count:
        form.declarations.append(DeclarationRow(k=len(form.declarations) + 1))
    return form


def form_from_sheet(view: Mapping[str, Any], sheet: Mapping[str, Any] | None) -> OrderForm:
    """The form filled with an accepted sheet (or blank when there is none)."""
    form = empty_form(view)
    sheet = sheet or {}
    orders = sheet.get("spies") or {}
    for row in form.spies:
        order = orders.get(str(row.number))
        if isinstance(order, Mapping):
            row.task = str(order.get("task") or "")
            row.region = str(order.get("region") or "")
            row.brotherhood = str(order.get("brotherhood") or "")
            row.follow = str(order.get("leader") or "")
    for k, decl in enumerate(sheet.get("declarations") or (), start=1):
        if isinstance(decl, Mapping):
            form.declarations.append(DeclarationRow(
                k=k, brotherhood=str(decl.get("brotherhood") or ""),
                leader=str(decl.get("leader") or ""), region=str(decl.get("region") or "")))
    return _pad(form)


def form_from_fields(view: Mapping[str, Any], fields: Mapping[str, str]) -> OrderForm:
    """The form as submitted (to show it again with its messages)."""
    form = empty_form(view)
    for row in form.spies:
        prefix = f"spy-{row.number}-"
        row.task = fields.get(prefix + "task", "").strip()
        row.region = fields.get(prefix + "region", "").strip()
        row.brotherhood = fields.get(prefix + "brotherhood", "").strip()
        row.follow = fields.get(prefix + "leader", "").strip()
    for k in range(1, MAX_DECLARATION_ROWS + 1):
        prefix = f"decl-{k}-"
        if k > DECLARATION_ROWS and prefix + "brotherhood" not in fields:
            break
        form.declarations.append(DeclarationRow(
            k, brotherhood=fields.get(prefix + "brotherhood", "").strip(),
            leader=fields.get(prefix + "leader", "").strip(),
            region=fields.get(prefix + "region", "").strip()))
    if form.brotherhood_list:  # typed names: each the seat it names (a seat id stays)
        seats = _seat_of_name(view)
        for row in form.spies:
            row.brotherhood = seats.get(row.brotherhood.casefold(), row.brotherhood)
        for decl in form.declarations:
            decl.brotherhood = seats.get(decl.brotherhood.casefold(), decl.brotherhood)
    form.declaration_rows = [d.k for d in form.declarations
                             if d.brotherhood or d.leader or d.region]
    return _pad(form)


def sheet_from_fields(view: Mapping[str, Any], fields: Mapping[str, str]) -> dict[str, Any]:
    """The order sheet JSON (§5.1) a submitted form stands for.

    A spy whose task is left blank has no order (V14: it will WORK at random).
    Parameters the chosen task does not take are dropped; an unknown task keeps
    everything, so ``parse_orders`` names the fault.
    """
    form = form_from_fields(view, fields)
    spies: dict[str, dict[str, str]] = {}
    for row in form.spies:
        if not row.task:
            continue
        task = row.task.upper()
        known = task in Task.__members__
        order = {"task": row.task}
        if row.region and (not known or Task(task) in TAKES_REGION):
            order["region"] = row.region
        if row.brotherhood and (not known or Task(task) in TAKES_BROTHERHOOD):
            order["brotherhood"] = row.brotherhood
        if row.follow and (not known or task == Task.FOLLOW.value):
            order["leader"] = row.follow
        spies[str(row.number)] = order
    declarations = [
        {"brotherhood": d.brotherhood, "leader": d.leader, "region": d.region}
        for d in form.declarations if d.brotherhood or d.leader or d.region
    ]
    return {"spies": spies, "declarations": declarations}


def place_messages(form: OrderForm, errors: Iterable[str] = (),
                   warnings: Iterable[str] = ()) -> OrderForm:
    """Put each message next to the row it concerns; the rest at the top of the form."""
    rows = {str(row.number): row for row in form.spies}
    by_k = {d.k: d for d in form.declarations}
    for message, is_error in [*((m, True) for m in errors), *((m, False) for m in warnings)]:
        spy = _SPY_MESSAGE.match(message)
        decl = _DECLARATION_MESSAGE.match(message)
        if spy and spy.group(1) in rows:
            row = rows[spy.group(1)]
            (row.errors if is_error else row.warnings).append(message)
        elif decl and is_error:
            k = int(decl.group(1))
            form_k = (form.declaration_rows[k - 1] if 0 < k <= len(form.declaration_rows)
                      else k)
            target = by_k.get(form_k)
            if target is not None:
                target.errors.append(message)
            else:
                form.errors.append(message)
        else:
            (form.errors if is_error else form.warnings).append(message)
    return form


def option_fields() -> list[dict[str, Any]]:
    """The game options a host picks when creating a game (§2), as radio groups."""
    return [
        {"key": "base_choice", "label": "Bases",
         "choices": [("choose", "players choose their base region"),
                     ("random", "bases are drawn at random")], "default": "choose"},
        {"key": "variant", "label": "Variant",
         "choices": [("classic", "classic rules"),
                     ("spy2", "Spy 2 (no HIDE, DISGUISE, FOLLOW or FAKE; declarations cost)")],
         "default": "classic"},
    ]


def options_from_fields(fields: Mapping[str, str]) -> dict[str, Any]:
    """The options JSON from the create-game form (only the keys it shows)."""
    options: dict[str, Any] = {}
    for spec in option_fields():
        value = fields.get(f"option-{spec['key']}", "").strip()
        if value:
            options[str(spec["key"])] = value
    return options


__all__ = ["DECLARATION_ROWS", "LIST_CHOICES", "REGION_CHOICES", "DeclarationRow", "OrderForm",
           "SpyRow", "empty_form", "form_from_fields", "form_from_sheet", "option_fields",
           "options_from_fields", "place_messages", "sheet_from_fields"]


#: The lobby's one-click game and ``make run``'s demo (``service.demo.QuickOffer``): the
#: player's brotherhood against four computer brotherhoods, bases drawn at random.
QUICK_GAME: dict[str, Any] = {
    "label": "Play Spy vs Spy against the computer",
    "seat_name": "{username}'s Brotherhood",
    "options": {"base_choice": "random"},
    "bots": ("economist", "hunter", "shadow", "hunter"),
}
