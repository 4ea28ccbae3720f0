"""Sealed Bid's pure page builders (``core.plugin.GamePages``): views in, contexts out."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from spyhouse.core.errors import OrderError
from spyhouse.core.plugin import GamePages, GameResult, PublicTable, SeatFacts


def names_of(view: Mapping[str, Any]) -> dict[str, str]:
    """Seat id -> bidder name, from the view's public seat list."""
    return {str(row["seat"]): str(row["name"]) for row in view.get("seats") or ()}


def results(view: Mapping[str, Any]) -> list[tuple[int, int, str]]:
    """(round, prize, winner's name or "nobody (a tie)") of every round played."""
    names = names_of(view)
    return [(row["round"], row["prize"],
             names.get(str(row["winner"]), "?") if row["winner"] else "nobody (a tie)")
            for row in view.get("results") or ()]


def host_text(view: Mapping[str, Any]) -> str:
    """The generic host page's text: every bid and every budget."""
    names = names_of(view)
    lines = [f"Round {view.get('round')} of {view.get('rounds')} played."]
    lines += [f"{names.get(seat, seat)}: {left} left"
              for seat, left in (view.get("budgets") or {}).items()]
    return "\n".join([*lines, *(view.get("ledger") or ())])


class SealedBidPages(GamePages):
    """One field, ``bid``: every message the rules give is about it."""

    def seat(self, view: Mapping[str, Any], facts: SeatFacts) -> dict[str, Any]:
        refused = facts.refused
        if refused is not None:
            value = refused.fields.get("bid", "")
            errors = list(refused.messages)
            warnings: list[str] = []
        else:
            value = str(facts.orders["bid"]) if isinstance(facts.orders, Mapping) else ""
            errors, warnings = [], list(facts.warnings)
        return {"bid_value": value, "bid_errors": errors, "bid_warnings": warnings,
                "names": names_of(view), "results": results(view)}

    def sheet_from_fields(self, view: Mapping[str, Any], fields: Mapping[str, str]) -> Any:
        text = fields.get("bid", "").strip()
        if not text.isdecimal():
            raise OrderError(None, ["bid: a whole number of at least 0"])
        return {"bid": int(text)}

    def place(self, view: Mapping[str, Any], fields: Mapping[str, str],
              messages: Sequence[str]) -> dict[str, list[str]]:
        places: dict[str, list[str]] = {}
        for message in messages:
            places.setdefault("bid" if message.startswith("bid:") else "", []).append(message)
        return places

    def report(self, view: Mapping[str, Any], entry: int) -> dict[str, Any]:
        return {"names": names_of(view), "results": results(view)}

    def host(self, view: Mapping[str, Any], entry: int) -> dict[str, Any]:
        return {"names": names_of(view)}

    def public(self, view: Mapping[str, Any], names: Mapping[str, str]) -> PublicTable | None:
        points = view.get("points") or {}
        won = [row["winner"] for row in view.get("results") or ()]
        return PublicTable(("Bidder", "Player", "Rounds won", "Points"), tuple(
            (row["name"], row["player"], won.count(row["seat"]), points.get(row["seat"], 0))
            for row in view.get("seats") or ()))

    def result(self, view: Mapping[str, Any], names: Mapping[str, str]) -> GameResult | None:
        over = view.get("game_over")
        if not isinstance(over, Mapping):
            return None
        winners = [names.get(str(s), str(s)) for s in over.get("winners") or ()]
        points = view.get("points") or {}
        best = max(points.values(), default=0)
        line = (f"{winners[0]} wins with {best} points." if len(winners) == 1 else
                f"{' and '.join(winners)} share the win with {best} points each.")
        spent = {seat: sum(b.get(seat, 0) for b in over.get("bids") or ()) for seat in names}
        rows = tuple((e["place"], names.get(e["seat"], e["seat"]), points.get(e["seat"], 0),
                      spent.get(e["seat"], 0)) for e in over.get("standings") or ())
        return GameResult(line, PublicTable(("Place", "Bidder", "Points", "Spent"), rows))
