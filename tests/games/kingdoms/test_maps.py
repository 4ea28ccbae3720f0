"""Maps as data (B.1, B.2): the default map, the custom map example, every validation check."""

from __future__ import annotations

import copy
import tomllib
from collections.abc import Callable
from typing import Any

import pytest

from spyhouse.core.errors import OptionsError
from spyhouse.games.kingdoms.maps import MapError, load_map, map_from_data
from spyhouse.games.kingdoms.ruleset import builtin_maps

ISTHMUS = '''
id = "isthmus"
name = "The Isthmus"
country = [
  {id = "red", name = "Redmark",   home = "r1"},
  {id = "blu", name = "Bluevale",  home = "b1"},
  {id = "grn", name = "Greenholt", home = "g1"},
]
area = [
  {id = "r1",  name = "Red Keep",   kind = "land", adj = ["mid"], seas = ["bay"], owner = "red"},
  {id = "b1",  name = "Blue Tower", kind = "land", adj = ["mid"], seas = ["bay"], owner = "blu"},
  {id = "g1",  name = "Green Hall", kind = "land", adj = ["mid", "g2"], owner = "grn"},
  {id = "g2",  name = "Fernmoss",   kind = "land", adj = ["g1"], owner = "grn"},
  {id = "mid", name = "Crossways",  kind = "land", adj = ["r1", "b1", "g1"], seas = ["bay"]},
  {id = "bay", name = "Grey Bay",   kind = "sea",  adj = []},
]
seating = {"3" = ["red", "blu", "grn"]}
'''


def isthmus() -> dict[str, Any]:
    return tomllib.loads(ISTHMUS)


def area(data: dict[str, Any], area_id: str) -> dict[str, Any]:
    return next(a for a in data["area"] if a["id"] == area_id)


def test_default_map_is_the_six_realms() -> None:
    """B.2: 24 land areas in a 6x4 grid, five seas, six countries, seating for 3 to 6."""
    m = builtin_maps()["default"]
    assert (m.id, m.name) == ("default", "The Six Realms")
    assert m.lands == tuple(f"a{i:02d}" for i in range(1, 25))
    assert [a.id for a in m.areas][24:] == ["s1", "s2", "s3", "s4", "s5"]
    assert [(c.id, c.name, c.home) for c in m.countries] == [
        ("k1", "Arden", "a01"), ("k2", "Brennor", "a04"), ("k3", "Calder", "a06"),
        ("k4", "Dunmere", "a24"), ("k5", "Eskar", "a21"), ("k6", "Fenwick", "a19")]
    for a in m.lands:
        n = int(a[1:]) - 1
        r, c = divmod(n, 6)
        expected = {f"a{6 * rr + cc + 1:02d}" for rr, cc in ((r - 1, c), (r + 1, c),
                                                             (r, c - 1), (r, c + 1))
                    if 0 <= rr < 4 and 0 <= cc < 6}
        assert set(m.area[a].adj) == expected, a
    assert m.seats_for(3) == ("k1", "k3", "k5")
    assert m.seats_for(4) == ("k1", "k3", "k4", "k6")
    assert m.seats_for(5) == ("k1", "k2", "k3", "k4", "k6")
    assert m.seats_for(6) == ("k1", "k2", "k3", "k4", "k5", "k6")
    owners = {a.id: a.owner for a in m.areas if a.land}
    assert [a for a, o in owners.items() if o == "k4"] == ["a18", "a23", "a24"]
    assert [a for a, o in owners.items() if o is None] == [
        "a08", "a09", "a11", "a14", "a16", "a17"]


@pytest.mark.parametrize(("frm", "to", "cost"), [
    ("a01", "a03", 1), ("a01", "a19", 1), ("a06", "a01", 1), ("a06", "a02", 1),
    ("a06", "a18", 1), ("a09", "a16", 1), ("a01", "a24", 2), ("a05", "a19", 2),
    ("a07", "a18", 3), ("a08", "a01", None), ("a09", "a01", None),
])
def test_sample_sea_costs(frm: str, to: str, cost: int | None) -> None:
    """B.2's sample sea costs."""
    assert builtin_maps()["default"].sea_cost(frm, to) == cost


def test_custom_map_isthmus() -> None:
    """B.1: the isthmus supports 3 seats; r1 → b1 is a SKIP of 1 BP; r1 → mid is a land move."""
    m = load_map(ISTHMUS)
    assert [n for n, _ in m.seating] == [3]
    assert m.sea_cost("r1", "b1") == 1
    assert m.adjacent("r1", "mid")
    assert map_from_data(m.to_json()).to_json() == m.to_json()


def test_custom_map_one_way_connection() -> None:
    """B.1: with b1's adj emptied the map is rejected, naming the one-way link."""
    data = isthmus()
    area(data, "b1")["adj"] = []
    with pytest.raises(MapError) as caught:
        map_from_data(data)
    assert str(caught.value) == "map isthmus: area mid lists b1 in adj but b1 does not list mid"
    assert isinstance(caught.value, OptionsError)


Edit = Callable[[dict[str, Any]], None]


def _target(data: dict[str, Any], path: str) -> tuple[dict[str, Any], str]:
    """``"name"`` a top-level key, ``"g2.kind"`` a key of area g2, ``"country.home"`` of the
    first country."""
    head, _, key = path.rpartition(".")
    if not head:
        return data, key
    return (data["country"][0] if head == "country" else area(data, head)), key


def _set(path: str, value: Any) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        target, key = _target(data, path)
        target[key] = value
    return edit


def _drop(path: str) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        target, key = _target(data, path)
        del target[key]
    return edit


def _country(index: int, key: str, value: Any) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        data["country"][index][key] = value
    return edit


def _add_area(entry: dict[str, Any]) -> Edit:
    def edit(data: dict[str, Any]) -> None:
        data["area"].append(entry)
    return edit


MAP_ERRORS: list[tuple[str, Edit, str]] = [
    ("missing_key", _drop("name"), 'map isthmus: missing key "name"'),
    ("missing_id", _drop("id"), 'map: missing key "id"'),
    ("unknown_key", _set("colour", "red"), 'map isthmus: unknown key "colour"'),
    ("country_not_tables", _set("country", ["red"]),
     'map isthmus: "country" must be a list of tables'),
    ("seating_not_table", _set("seating", []), 'map isthmus: "seating" must be a table'),
    ("entry_missing_key", _drop("country.home"), 'map isthmus: country red: missing key "home"'),
    ("entry_missing_id", _country(1, "id", 7), 'map isthmus: country #2: "id" must be text'),
    ("sea_takes_no_seas", _set("bay.seas", []), 'map isthmus: area bay: unknown key "seas"'),
    ("sea_takes_no_owner", _set("bay.owner", "red"),
     'map isthmus: area bay: unknown key "owner"'),
    ("name_not_text", _set("name", 3), 'map isthmus: "name" must be text'),
    ("kind", _set("g2.kind", "hill"), 'map isthmus: area g2: kind must be "land" or "sea"'),
    ("adj_not_ids", _set("g2.adj", "g1"), 'map isthmus: area g2: "adj" must be a list of ids'),
    ("seating_not_ids", _set("seating", {"3": "red"}),
     'map isthmus: seating "3" must be a list of ids'),
    ("bad_map_id", _set("id", "Isthmus"),
     'map: bad id "Isthmus" (use a-z and 0-9, starting with a letter)'),
    ("bad_area_id", _set("g2.id", "2g"),
     'map isthmus: bad id "2g" (use a-z and 0-9, starting with a letter)'),
    ("duplicate_id", _country(2, "id", "r1"), 'map isthmus: duplicate id "r1"'),
    ("unknown_area_adj", _set("g2.adj", ["g1", "g3"]),
     'map isthmus: area g2: unknown area "g3" in adj'),
    ("unknown_area_seas", _set("g2.seas", ["lake"]),
     'map isthmus: area g2: unknown area "lake" in seas'),
    ("unknown_owner", _set("g2.owner", "yel"),
     'map isthmus: area g2: unknown country "yel" as owner'),
    ("unknown_home", _country(0, "home", "r9"),
     'map isthmus: country red: unknown area "r9" as home'),
    ("seating_unknown_country", _set("seating", {"3": ["red", "blu", "yel"]}),
     'map isthmus: seating "3": unknown country "yel"'),
    ("lists_itself", _set("g2.adj", ["g1", "g2"]), "map isthmus: area g2: lists itself in adj"),
    ("listed_twice", _set("g2.adj", ["g1", "g1"]), "map isthmus: area g2: g1 listed twice in adj"),
    ("adj_holds_sea", _set("g2.adj", ["g1", "bay"]),
     "map isthmus: area g2: adj holds bay, a sea area"),
    ("seas_holds_land", _set("g2.seas", ["g1"]),
     "map isthmus: area g2: seas holds g1, a land area"),
    ("seas_twice", _set("r1.seas", ["bay", "bay"]),
     "map isthmus: area r1: bay listed twice in seas"),
    ("sea_adj_holds_land", _set("bay.adj", ["mid"]),
     "map isthmus: area bay: adj holds mid, a land area"),
    ("one_way", _set("g2.adj", []), "map isthmus: area g1 lists g2 in adj but g2 does not list g1"),
    ("sea_off_coast", _add_area({"id": "deep", "name": "Deep", "kind": "sea", "adj": []}),
     "map isthmus: sea deep borders no land area"),
    ("home_is_sea", _country(0, "home", "bay"), "map isthmus: country red: home bay is a sea area"),
    ("home_not_owned", _set("g1.owner", "red"),
     "map isthmus: country grn: home g1 is not owned by grn"),
    ("no_owner_for_home", _drop("r1.owner"),
     "map isthmus: country red: home r1 is not owned by red"),
    ("island", _add_area({"id": "isle", "name": "Isle", "kind": "land", "adj": [],
                          "seas": ["bay"]}),
     "map isthmus: land area isle cannot be reached by land from r1"),
    ("seating_key", _set("seating", {"3": ["red", "blu", "grn"], "7": []}),
     'map isthmus: seating: key "7" must be "3", "4", "5" or "6"'),
    ("seating_distinct", _set("seating", {"3": ["red", "blu", "blu"]}),
     'map isthmus: seating "3": needs 3 distinct countries'),
    ("no_seat_count", _set("seating", {}), "map isthmus: seating: no seat count given"),
]


@pytest.mark.parametrize(("case", "edit", "message"), MAP_ERRORS,
                         ids=[case for case, _, _ in MAP_ERRORS])
def test_map_validation_errors(case: str, edit: Edit, message: str) -> None:
    """B.1: the first failing check rejects the map with its message."""
    data = copy.deepcopy(isthmus())
    edit(data)
    with pytest.raises(MapError) as caught:
        map_from_data(data)
    assert str(caught.value) == message


def test_map_not_valid_toml() -> None:
    """B.1 check 1: the parser's own message."""
    with pytest.raises(MapError) as caught:
        load_map('id = "x"\nname = \n')
    assert str(caught.value).startswith("map: not valid TOML: ")


def test_checks_run_in_order() -> None:
    """An unknown adj area (check 5) is reported before a one-way link (check 7)."""
    data = isthmus()
    area(data, "b1")["adj"] = []
    area(data, "g2")["adj"] = ["g1", "nowhere"]
    with pytest.raises(MapError, match='unknown area "nowhere" in adj'):
        map_from_data(data)
