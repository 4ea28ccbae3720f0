"""Maps as data (spec B.1): load a map from TOML text or from a JSON object, validate it.

``load_map(text)`` parses TOML; ``map_from_data(data)`` takes the same structure as a
JSON object (the ``map`` option, B.3). Validation runs the eleven checks of B.1 in
order and raises ``MapError`` with the first failure, worded as the spec words it:
``map <id>: <message>`` (``map: <message>`` while the id is missing or bad).

Pure: this module reads no file. The ruleset layer reads the shipped maps
(``maps/*.toml``) as package data and hands their text to ``load_map``.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from spyhouse.core.errors import OptionsError

ID_PATTERN = re.compile(r"^[a-z][a-z0-9]*$")
SEAT_COUNTS = ("3", "4", "5", "6")
_TOP_KEYS = ("id", "name", "country", "area", "seating")
_COUNTRY_KEYS = ("id", "name", "home")
_AREA_KEYS = ("id", "name", "kind", "adj")
_AREA_OPTIONAL = ("seas", "owner")

Kind = Literal["land", "sea"]


class MapError(OptionsError):
    """A map was refused: the message names the map and the first problem (B.1)."""

    def __init__(self, map_id: str | None, detail: str) -> None:
        self.map_id = map_id
        self.detail = detail
        super().__init__(f"map {map_id}: {detail}" if map_id else f"map: {detail}")


@dataclass(frozen=True, slots=True)
class CountryDef:
    """A country slot of the map: id, display name and home area."""

    id: str
    name: str
    home: str


@dataclass(frozen=True, slots=True)
class AreaDef:
    """A map area as the file gives it; ``owner`` is the starting owner (land only)."""

    id: str
    name: str
    kind: Kind
    adj: tuple[str, ...]
    seas: tuple[str, ...] = ()
    owner: str | None = None

    @property
    def land(self) -> bool:
        return self.kind == "land"


@dataclass(frozen=True, eq=False)
class Map:
    """A validated map with its derived tables (area order, adjacency, sea costs)."""

    id: str
    name: str
    countries: tuple[CountryDef, ...]
    areas: tuple[AreaDef, ...]
    seating: tuple[tuple[int, tuple[str, ...]], ...]
    area: Mapping[str, AreaDef] = field(init=False, repr=False)
    country: Mapping[str, CountryDef] = field(init=False, repr=False)
    order: Mapping[str, int] = field(init=False, repr=False)
    country_order: Mapping[str, int] = field(init=False, repr=False)
    lands: tuple[str, ...] = field(init=False, repr=False)
    neighbours: Mapping[str, frozenset[str]] = field(init=False, repr=False)
    sea_costs: Mapping[tuple[str, str], int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        put = object.__setattr__
        put(self, "area", {a.id: a for a in self.areas})
        put(self, "country", {c.id: c for c in self.countries})
        put(self, "order", {a.id: i for i, a in enumerate(self.areas)})
        put(self, "country_order", {c.id: i for i, c in enumerate(self.countries)})
        put(self, "lands", tuple(a.id for a in self.areas if a.land))
        put(self, "neighbours", {a.id: frozenset(a.adj) for a in self.areas})
        put(self, "sea_costs", _sea_costs(self.areas))

    def is_land(self, area_id: str) -> bool:
        area = self.area.get(area_id)
        return area is not None and area.land

    def adjacent(self, a: str, b: str) -> bool:
        """``b`` is land-adjacent to ``a`` (both land areas)."""
        return b in self.neighbours.get(a, frozenset())

    def sea_cost(self, a: str, b: str) -> int | None:
        """The cheapest sea route's number of sea areas from land ``a`` to land ``b`` (A.3.2)."""
        return self.sea_costs.get((a, b))

    def seats_for(self, count: int) -> tuple[str, ...] | None:
        for n, countries in self.seating:
            if n == count:
                return countries
        return None

    def to_json(self) -> dict[str, Any]:
        """The B.1 structure as JSON (valid input for ``map_from_data``)."""
        areas: list[dict[str, Any]] = []
        for a in self.areas:
            entry: dict[str, Any] = {"id": a.id, "name": a.name, "kind": a.kind,
                                     "adj": list(a.adj)}
            if a.land:
                entry["seas"] = list(a.seas)
                if a.owner is not None:
                    entry["owner"] = a.owner
            areas.append(entry)
        return {
            "id": self.id,
            "name": self.name,
            "country": [{"id": c.id, "name": c.name, "home": c.home} for c in self.countries],
            "area": areas,
            "seating": {str(n): list(countries) for n, countries in self.seating},
        }


def _sea_costs(areas: Sequence[AreaDef]) -> dict[tuple[str, str], int]:
    """For every ordered pair of distinct land areas with a sea route: its smallest cost.

    Breadth-first over the sea graph from the seas on ``a``'s coast (each counts 1);
    the cost to ``b`` is the least distance of a sea on ``b``'s coast.
    """
    sea_adj = {a.id: a.adj for a in areas if not a.land}
    lands = [a for a in areas if a.land]
    costs: dict[tuple[str, str], int] = {}
    for start in lands:
        if not start.seas:
            continue
        dist: dict[str, int] = {s: 1 for s in start.seas}
        frontier = list(start.seas)
        while frontier:
            following: list[str] = []
            for sea in frontier:
                for nxt in sea_adj.get(sea, ()):
                    if nxt not in dist:
                        dist[nxt] = dist[sea] + 1
                        following.append(nxt)
            frontier = following
        for goal in lands:
            if goal.id == start.id:
                continue
            reached = [dist[s] for s in goal.seas if s in dist]
            if reached:
                costs[(start.id, goal.id)] = min(reached)
    return costs


# ---------------------------------------------------------------- loading


def load_map(text: str) -> Map:
    """A map from TOML text (B.1); ``MapError`` names the first problem."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise MapError(None, f"not valid TOML: {exc}") from None
    return map_from_data(data)


def map_from_data(data: Any) -> Map:
    """A map from the B.1 structure as a mapping (TOML-loaded or a JSON object)."""
    if not isinstance(data, Mapping):
        raise MapError(None, "a map must be a table of keys")
    return _Validator(data).run()


def _good_id(value: Any) -> bool:
    return isinstance(value, str) and bool(ID_PATTERN.match(value))


def _is_ids(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(x, str) for x in value)


class _Validator:
    """The checks of B.1, each a method, run in the spec's order."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        self.data = data
        map_id = data.get("id")
        self.map_id = map_id if _good_id(map_id) else None

    def fail(self, detail: str) -> MapError:
        return MapError(self.map_id, detail)

    @staticmethod
    def label(kind: str, index: int, entry: Mapping[str, Any]) -> str:
        value = entry.get("id")
        return f"{kind} {value}" if _good_id(value) else f"{kind} #{index + 1}"

    def run(self) -> Map:
        self.c2_shape()
        self.c3_types()
        self.c4_ids()
        self.c5_references()
        self.c6_lists()
        self.c7_symmetric()
        self.c8_seas()
        self.c9_homes()
        self.c10_connected()
        seating = self.c11_seating()
        return Map(
            id=self.data["id"],
            name=self.data["name"],
            countries=tuple(CountryDef(c["id"], c["name"], c["home"]) for c in self.countries),
            areas=tuple(AreaDef(a["id"], a["name"], a["kind"], tuple(a["adj"]),
                                tuple(a.get("seas", ())), a.get("owner"))
                        for a in self.areas),
            seating=seating,
        )

    # -- check 2: shape

    def c2_shape(self) -> None:
        data = self.data
        for key in _TOP_KEYS:
            if key not in data:
                raise self.fail(f'missing key "{key}"')
        for key in data:
            if key not in _TOP_KEYS:
                raise self.fail(f'unknown key "{key}"')
        for key in ("country", "area"):
            value = data[key]
            if not isinstance(value, list) or not all(isinstance(x, Mapping) for x in value):
                raise self.fail(f'"{key}" must be a list of tables')
        if not isinstance(data["seating"], Mapping):
            raise self.fail('"seating" must be a table')
        self.countries: list[Mapping[str, Any]] = list(data["country"])
        self.areas: list[Mapping[str, Any]] = list(data["area"])
        for i, entry in enumerate(self.countries):
            self._entry_keys(self.label("country", i, entry), entry, _COUNTRY_KEYS, ())
        for i, entry in enumerate(self.areas):
            optional = () if entry.get("kind") == "sea" else _AREA_OPTIONAL
            self._entry_keys(self.label("area", i, entry), entry, _AREA_KEYS, optional)

    def _entry_keys(self, label: str, entry: Mapping[str, Any], required: Sequence[str],
                    optional: Sequence[str]) -> None:
        for key in required:
            if key not in entry:
                raise self.fail(f'{label}: missing key "{key}"')
        for key in entry:
            if key not in required and key not in optional:
                raise self.fail(f'{label}: unknown key "{key}"')

    # -- check 3: types

    def c3_types(self) -> None:
        for key in ("id", "name"):
            if not isinstance(self.data[key], str):
                raise self.fail(f'"{key}" must be text')
        for i, entry in enumerate(self.countries):
            label = self.label("country", i, entry)
            for key in _COUNTRY_KEYS:
                if not isinstance(entry[key], str):
                    raise self.fail(f'{label}: "{key}" must be text')
        for i, entry in enumerate(self.areas):
            label = self.label("area", i, entry)
            for key in ("id", "name"):
                if not isinstance(entry[key], str):
                    raise self.fail(f'{label}: "{key}" must be text')
            if entry["kind"] not in ("land", "sea"):
                raise self.fail(f'{label}: kind must be "land" or "sea"')
            for key in ("adj", "seas"):
                if key in entry and not _is_ids(entry[key]):
                    raise self.fail(f'{label}: "{key}" must be a list of ids')
            if "owner" in entry and not isinstance(entry["owner"], str):
                raise self.fail(f'{label}: "owner" must be text')
        for key, value in self.data["seating"].items():
            if not _is_ids(value):
                raise self.fail(f'seating "{key}" must be a list of ids')

    # -- check 4: ids

    def c4_ids(self) -> None:
        if not _good_id(self.data["id"]):
            raise self.fail(f'bad id "{self.data["id"]}" (use a-z and 0-9, starting with a letter)')
        seen: set[str] = set()
        for entry in [*self.countries, *self.areas]:
            value = entry["id"]
            if not _good_id(value):
                raise self.fail(f'bad id "{value}" (use a-z and 0-9, starting with a letter)')
            if value in seen:
                raise self.fail(f'duplicate id "{value}"')
            seen.add(value)
        self.area_kind: dict[str, str] = {a["id"]: a["kind"] for a in self.areas}
        self.country_ids: list[str] = [c["id"] for c in self.countries]

    # -- check 5: references

    def c5_references(self) -> None:
        for entry in self.areas:
            a = entry["id"]
            for key in ("adj", "seas"):
                for x in entry.get(key, ()):
                    if x not in self.area_kind:
                        raise self.fail(f'area {a}: unknown area "{x}" in {key}')
            owner = entry.get("owner")
            if owner is not None and owner not in self.country_ids:
                raise self.fail(f'area {a}: unknown country "{owner}" as owner')
        for entry in self.countries:
            if entry["home"] not in self.area_kind:
                raise self.fail(f'country {entry["id"]}: unknown area "{entry["home"]}" as home')
        for key, value in self.data["seating"].items():
            for c in value:
                if c not in self.country_ids:
                    raise self.fail(f'seating "{key}": unknown country "{c}"')

    # -- check 6: lists

    def c6_lists(self) -> None:
        for entry in self.areas:
            a, land = entry["id"], entry["kind"] == "land"
            seen: set[str] = set()
            for x in entry["adj"]:
                if x == a:
                    raise self.fail(f"area {a}: lists itself in adj")
                if x in seen:
                    raise self.fail(f"area {a}: {x} listed twice in adj")
                seen.add(x)
                if land and self.area_kind[x] == "sea":
                    raise self.fail(f"area {a}: adj holds {x}, a sea area")
                if not land and self.area_kind[x] == "land":
                    raise self.fail(f"area {a}: adj holds {x}, a land area")
            seen = set()
            for x in entry.get("seas", ()):
                if x in seen:
                    raise self.fail(f"area {a}: {x} listed twice in seas")
                seen.add(x)
                if self.area_kind[x] == "land":
                    raise self.fail(f"area {a}: seas holds {x}, a land area")

    # -- checks 7 to 10

    def c7_symmetric(self) -> None:
        adj = {entry["id"]: entry["adj"] for entry in self.areas}
        for entry in self.areas:
            a = entry["id"]
            for b in entry["adj"]:
                if a not in adj[b]:
                    raise self.fail(f"area {a} lists {b} in adj but {b} does not list {a}")

    def c8_seas(self) -> None:
        coasts = {s for entry in self.areas if entry["kind"] == "land"
                  for s in entry.get("seas", ())}
        for entry in self.areas:
            if entry["kind"] == "sea" and entry["id"] not in coasts:
                raise self.fail(f"sea {entry['id']} borders no land area")

    def c9_homes(self) -> None:
        owner = {entry["id"]: entry.get("owner") for entry in self.areas}
        for entry in self.countries:
            c, home = entry["id"], entry["home"]
            if self.area_kind[home] == "sea":
                raise self.fail(f"country {c}: home {home} is a sea area")
            if owner[home] != c:
                raise self.fail(f"country {c}: home {home} is not owned by {c}")

    def c10_connected(self) -> None:
        lands = [entry for entry in self.areas if entry["kind"] == "land"]
        if not lands:
            return
        adj = {entry["id"]: entry["adj"] for entry in lands}
        first = lands[0]["id"]
        reached = {first}
        frontier = [first]
        while frontier:
            nxt: list[str] = []
            for a in frontier:
                for b in adj[a]:
                    if b not in reached:
                        reached.add(b)
                        nxt.append(b)
            frontier = nxt
        for entry in lands:
            if entry["id"] not in reached:
                raise self.fail(f"land area {entry['id']} cannot be reached by land from {first}")

    # -- check 11: seating

    def c11_seating(self) -> tuple[tuple[int, tuple[str, ...]], ...]:
        seating: list[tuple[int, tuple[str, ...]]] = []
        for key, value in self.data["seating"].items():
            if key not in SEAT_COUNTS:
                raise self.fail(f'seating: key "{key}" must be "3", "4", "5" or "6"')
            n = int(key)
            if len(value) != n or len(set(value)) != n:
                raise self.fail(f'seating "{key}": needs {n} distinct countries')
            seating.append((n, tuple(value)))
        if not seating:
            raise self.fail("seating: no seat count given")
        return tuple(sorted(seating))
