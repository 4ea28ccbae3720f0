"""Spy vs Spy's pure page builders (``core.plugin.GamePages``): views in, contexts out.

The order form is ``ui``'s; this module gives the platform's seat, report and game
pages what their templates read: the form with each message beside its row, the
brotherhood names, and the report's helpers. Nothing here reads anything but views.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from spyhouse.core.plugin import Explanation, GamePages, GameResult, PublicTable, SeatFacts
from spyhouse.games.spyvsspy import notebook_page, ui
from spyhouse.games.spyvsspy.changes import changes
from spyhouse.games.spyvsspy.explain import explain_turn
from spyhouse.games.spyvsspy.model import REGION_INFO, Region
from spyhouse.games.spyvsspy.text import format_task


def region_label(letter: Any) -> str:
    """"H Industrial" for "H"."""
    if letter is None or letter == "":
        return ""
    text = str(letter)
    return f"{text} {REGION_INFO[Region(text)].name}" if text in Region.__members__ else text


def seat_names(view: Mapping[str, Any]) -> dict[str, str]:
    """Seat id -> brotherhood name, from a view's public directory."""
    return {str(row.get("seat")): str(row.get("name"))
            for row in view.get("directory") or () if isinstance(row, Mapping)}


def secret_lines(view: Mapping[str, Any]) -> list[str]:
    """The seat's own secrets for its mail (§4), one line each ("Your leader: Mr Pink"):
    the leader, the base (with its region's name), then any other key in name order."""
    secrets = view.get("secrets")
    if not isinstance(secrets, Mapping):
        return []
    first = {"leader": 0, "base": 1}
    lines = []
    for key in sorted(secrets, key=lambda k: (first.get(k, len(first)), k)):
        value = secrets[key]
        lines.append(f"Your {key}: {region_label(value) if key == 'base' else value}")
    return lines


#: The Brotherhood Report's rows that are paged when the table is long (one per other
#: brotherhood and one per other leader); the rest ("Disguised as you" and the task
#: rows) stay on every page.
PAGED_ROW_KINDS = frozenset({"brotherhood", "leader"})


def report_row_stays(row: Mapping[str, Any]) -> bool:
    """Whether a Brotherhood Report row is on every page of a paged report."""
    return row.get("kind") not in PAGED_ROW_KINDS


def orders_summary(sheet: Any, names: Mapping[str, str]) -> str:
    """A seat's resolved sheet in one line for the host page ("#1 WORK H; #2 HUNT D
    brotherhood Bravo; declare Charlie, Mr Green, D"), as the host text gives it."""
    if sheet is None:
        return "no orders (no-show)"
    if not isinstance(sheet, Mapping):
        return str(sheet)
    spies = sheet.get("spies") or {}
    numbers = sorted(spies, key=lambda key: (0, int(key), "") if str(key).isdecimal()
                     else (1, 0, str(key)))
    parts = [f"#{number} {format_task(spies[number], names)}" for number in numbers]
    for decl in sheet.get("declarations") or ():
        target = names.get(str(decl.get("brotherhood")), str(decl.get("brotherhood")))
        parts.append(f"declare {target}, {decl.get('leader')}, {decl.get('region')}")
    return "; ".join(parts) if parts else "empty sheet"


def _helpers(view: Mapping[str, Any]) -> dict[str, Any]:
    return {"names": seat_names(view), "region_label": region_label,
            "format_task": format_task, "report_row_stays": report_row_stays}


class SpyVsSpyPages(GamePages):
    """The order form of §5.1, the turn report like the seed's sample sheet."""

    notebook_template = "notebook.html"

    def seat(self, view: Mapping[str, Any], facts: SeatFacts) -> dict[str, Any]:
        form = None
        page_errors: list[str] = []
        refused = facts.refused
        if facts.can_order and "me" in view and view.get("game_over") is None:
            if refused is not None and refused.fields:
                form = ui.form_from_fields(view, refused.fields)
                ui.place_messages(form, errors=refused.messages)
            else:
                form = ui.form_from_sheet(view, facts.orders)
                ui.place_messages(form, warnings=facts.warnings)
                if refused is not None:
                    form.errors[:0] = list(refused.messages)
        elif refused is not None:
            page_errors = list(refused.messages)
        return {"form": form, "page_errors": page_errors, **_helpers(view)}

    def changes(self, before: Mapping[str, Any], after: Mapping[str, Any], entry: int) -> str:
        return changes(before, after, entry)

    def sheet_from_fields(self, view: Mapping[str, Any], fields: Mapping[str, str]) -> Any:
        return ui.sheet_from_fields(view, fields)

    def place(self, view: Mapping[str, Any], fields: Mapping[str, str],
              messages: Sequence[str]) -> dict[str, list[str]]:
        form = ui.place_messages(ui.form_from_fields(view, fields), errors=messages)
        places: dict[str, list[str]] = {}
        if form.errors:
            places[""] = list(form.errors)
        for row in form.spies:
            if row.errors:
                places[f"spy-{row.number}"] = list(row.errors)
        for decl in form.declarations:
            if decl.errors:
                places[f"declaration-{decl.k}"] = list(decl.errors)
        return places

    #: the platform's host page with its text of the whole game; past a page of
    #: brotherhoods, their secrets and sheets as a table a page at a time
    host_template = "host_view.html"

    def report(self, view: Mapping[str, Any], entry: int) -> dict[str, Any]:
        return _helpers(view)

    def host(self, view: Mapping[str, Any], entry: int) -> dict[str, Any]:
        return {**_helpers(view), "orders_summary": orders_summary}

    def public(self, view: Mapping[str, Any], names: Mapping[str, str]) -> PublicTable | None:
        rows = []
        for row in view.get("directory") or ():
            eliminated = row.get("eliminated")
            status = (f"eliminated turn {eliminated.get('turn')} ({eliminated.get('phase')})"
                      if isinstance(eliminated, Mapping) else row.get("status"))
            rows.append((row.get("bid"), row.get("name"), row.get("player"),
                         row.get("email") or "hidden", row.get("spies"), row.get("covertness"),
                         row.get("gp"), status))
        return PublicTable(("#", "Brotherhood", "Player", "E-mail", "Spies", "Covertness", "gp",
                            "Status"), tuple(rows))

    def news(self, view: Mapping[str, Any]) -> list[str]:
        return [str(line) for line in view.get("news") or ()]

    def explain(self, host_view: Mapping[str, Any], orders: Mapping[str, Any] | None,
                entry: int) -> list[Explanation]:
        """S1 to S4 and the eleven tasks in the spec's order (``explain.explain_turn``)."""
        return explain_turn(host_view, orders, entry)

    def result(self, view: Mapping[str, Any], names: Mapping[str, str]) -> GameResult | None:
        over = view.get("game_over")
        if not isinstance(over, Mapping):
            return None
        winners = [names.get(str(s), str(s)) for s in over.get("winners") or ()]
        line = (f"{winners[0]} wins." if len(winners) == 1 else
                f"{', '.join(winners)} are joint winners." if winners else "Nobody wins.")
        secrets = over.get("secrets") or {}
        rows = tuple((e.get("place"), names.get(str(e.get("seat")), e.get("seat")),
                      (secrets.get(e.get("seat")) or {}).get("leader"),
                      region_label((secrets.get(e.get("seat")) or {}).get("base")))
                     for e in over.get("standings") or ())
        notes = (f"Game seed: {over['seed']}",) if over.get("seed") is not None else ()
        return GameResult(line, PublicTable(("Place", "Brotherhood", "Leader", "Base"), rows),
                          notes)

    def notebook_read(self, notes: Any, views: Sequence[Mapping[str, Any]]) -> Any:
        return notebook_page.read(notes, views)

    def notebook(self, notes: Any) -> dict[str, Any]:
        return {"notebook": notebook_page.page(notes)}


__all__ = ["PAGED_ROW_KINDS", "SpyVsSpyPages", "orders_summary", "region_label",
           "report_row_stays", "seat_names", "secret_lines"]
