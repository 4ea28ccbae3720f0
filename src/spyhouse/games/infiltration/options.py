"""Host options (spec §2, §15.3): typed parsing, defaults resolved against the seats.

``parse_options`` checks what it can without the seats (the web form calls it);
``resolve_options`` fills every default once the number of seats N and the game
seed are known and checks the rest (``reds``, ``players``, the ``setup`` maps).
Every refusal is one ``OptionsError`` line: "option '<key>': <what is allowed>".
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from spyhouse.core.errors import OptionsError
from spyhouse.games.infiltration.model import (
    CLASSES,
    ROOMS,
    SPECIALS,
    Feature,
    Klass,
    bracket_of,
    canonical_npc,
    composition,
    npc_ids,
    parse_class,
    parse_feature,
    parse_room,
)

MIN_PLAYERS, MAX_PLAYERS = 6, 20
MIN_SECONDS, MAX_SECONDS = 60, 604_800
PACES: dict[str, tuple[int, int, int, bool]] = {
    "forum": (172_800, 86_400, 172_800, False),
    "fast": (300, 180, 480, True),
}
_DEADLINES = ("class_deadline", "movement_deadline", "decision_deadline")
_KEYS = (
    "players", "reds", "reveal_red_count", "class_mode", "classes_offered", "default_class",
    "engineers", "renegades", "facility_seed", "pace", *_DEADLINES, "early_close", "phantoms",
    "phantom_limit", "max_turns", "private_messages", "message_max_chars", "setup",
)
_SETUP_KEYS = ("reds", "classes", "map", "code", "positions")
_CODE = re.compile(r"^[0-9]{4}$")
_HANDLE = re.compile(r"^[A-Za-z0-9_]{1,20}$")


@dataclass(frozen=True, slots=True)
class SetupOverrides:
    """``setup``: host and test overrides of the setup draws (§15.3), as given."""

    reds: tuple[str, ...] | None = None
    classes: tuple[tuple[str, Klass], ...] | None = None
    map: tuple[Feature, ...] | None = None
    code: str | None = None
    positions: tuple[tuple[str, str], ...] | None = None
    raw: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return dict(self.raw)


@dataclass(frozen=True, slots=True)
class Options:
    """The options; after ``resolve_options`` every field holds its concrete value."""

    players: int | None = None
    reds: int | None = None
    reveal_red_count: bool = True
    class_mode: str = "choose"
    classes_offered: tuple[Klass, ...] = CLASSES
    default_class: Klass | None = None
    engineers: int | None = None
    renegades: int = 0
    facility_seed: int | None = None
    pace: str = "forum"
    class_deadline: int | None = None
    movement_deadline: int | None = None
    decision_deadline: int | None = None
    early_close: bool | None = None
    phantoms: bool = True
    phantom_limit: int = 3
    max_turns: int = 30
    private_messages: bool = True
    message_max_chars: int = 500
    setup: SetupOverrides = field(default_factory=SetupOverrides)

    @property
    def min_players(self) -> int:
        return self.players if self.players is not None else MIN_PLAYERS

    @property
    def max_players(self) -> int:
        return self.players if self.players is not None else MAX_PLAYERS

    @property
    def class_phase(self) -> bool:
        """S3: a class selection phase only in ``choose`` mode without ``setup.classes``."""
        return self.class_mode == "choose" and self.setup.classes is None

    def to_json(self, *, full: bool) -> dict[str, Any]:
        """The options JSON; without ``facility_seed`` and ``setup`` unless ``full``."""
        out: dict[str, Any] = {
            "players": self.players, "reds": self.reds,
            "reveal_red_count": self.reveal_red_count, "class_mode": self.class_mode,
            "classes_offered": [k.value for k in self.classes_offered],
            "default_class": None if self.default_class is None else self.default_class.value,
            "engineers": self.engineers, "renegades": self.renegades,
        }
        if full:
            out["facility_seed"] = self.facility_seed
        out.update({
            "pace": self.pace, "class_deadline": self.class_deadline,
            "movement_deadline": self.movement_deadline,
            "decision_deadline": self.decision_deadline, "early_close": self.early_close,
            "phantoms": self.phantoms, "phantom_limit": self.phantom_limit,
            "max_turns": self.max_turns, "private_messages": self.private_messages,
            "message_max_chars": self.message_max_chars,
        })
        if full:
            out["setup"] = self.setup.to_json()
        return out


def _fail(key: str, allowed: str) -> OptionsError:
    return OptionsError(f"option '{key}': {allowed}")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int(data: Mapping[str, Any], key: str, low: int, high: int, allowed: str) -> int | None:
    value = data.get(key)
    if value is None:
        return None
    if not _is_int(value) or not low <= value <= high:
        raise _fail(key, allowed)
    return int(value)


def _bool(data: Mapping[str, Any], key: str, default: bool) -> bool:
    value = data.get(key)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise _fail(key, "true or false")
    return value


def max_reds(players: int) -> int:
    return min(players // 3, players - 5)


def parse_options(data: Mapping[str, Any]) -> Options:
    """Typed options from JSON, checked as far as they can be without the seats."""
    if not isinstance(data, Mapping):
        raise OptionsError("options must be an object")
    for key in data:
        if key not in _KEYS:
            raise _fail(str(key), "unknown option")
    players = _int(data, "players", MIN_PLAYERS, MAX_PLAYERS,
                   f"an integer from {MIN_PLAYERS} to {MAX_PLAYERS}")
    top = max_reds(players) if players is not None else max_reds(MAX_PLAYERS)
    reds = _int(data, "reds", 1, top, f"an integer from 1 to {top}")
    reveal = _bool(data, "reveal_red_count", True)
    mode = data.get("class_mode") or "choose"
    if mode not in ("choose", "random"):
        raise _fail("class_mode", "choose or random")
    offered = _classes_offered(data.get("classes_offered"))
    default_class = _default_class(data.get("default_class"), offered)
    engineers = _int(data, "engineers", 0, 4, "an integer from 0 to 4")
    renegades = _int(data, "renegades", 0, 2, "an integer from 0 to 2")
    facility_seed = data.get("facility_seed")
    if facility_seed is not None and (not _is_int(facility_seed) or facility_seed < 0):
        raise _fail("facility_seed", "a whole number >= 0 or null")
    pace = data.get("pace") or "forum"
    if pace not in ("forum", "fast", "custom"):
        raise _fail("pace", "forum, fast or custom")
    deadlines = [_int(data, key, MIN_SECONDS, MAX_SECONDS,
                      f"a number of seconds from {MIN_SECONDS} to {MAX_SECONDS}")
                 for key in _DEADLINES]
    early = data.get("early_close")
    if early is not None and not isinstance(early, bool):
        raise _fail("early_close", "true or false")
    if pace == "custom":
        for key, value in zip(_DEADLINES, deadlines, strict=True):
            if value is None:
                raise _fail(key, f"required with pace custom: {MIN_SECONDS} to "
                                 f"{MAX_SECONDS} seconds")
        early_close = bool(early)
    else:
        for key in (*_DEADLINES, "early_close"):
            if data.get(key) is not None:
                raise _fail(key, "must be null unless pace is custom")
        class_s, move_s, decide_s, early_close = PACES[pace]
        deadlines = [class_s, move_s, decide_s]
    phantom_limit = data.get("phantom_limit")
    if phantom_limit is None:
        phantom_limit = 3
    elif not _is_int(phantom_limit) or not (phantom_limit == 0 or 2 <= phantom_limit <= 5):
        raise _fail("phantom_limit", "0 or an integer from 2 to 5")
    max_turns = data.get("max_turns")
    if max_turns is None:
        max_turns = 30
    elif not _is_int(max_turns) or not (max_turns == 0 or 10 <= max_turns <= 99):
        raise _fail("max_turns", "0 or an integer from 10 to 99")
    chars = _int(data, "message_max_chars", 50, 1000, "an integer from 50 to 1000")
    setup = _parse_setup(data.get("setup"))
    return Options(
        players=players, reds=reds, reveal_red_count=reveal, class_mode=str(mode),
        classes_offered=offered, default_class=default_class, engineers=engineers,
        renegades=renegades if renegades is not None else 0, facility_seed=facility_seed,
        pace=str(pace), class_deadline=deadlines[0], movement_deadline=deadlines[1],
        decision_deadline=deadlines[2], early_close=early_close,
        phantoms=_bool(data, "phantoms", True), phantom_limit=int(phantom_limit),
        max_turns=int(max_turns), private_messages=_bool(data, "private_messages", True),
        message_max_chars=chars if chars is not None else 500, setup=setup,
    )


def _classes_offered(value: Any) -> tuple[Klass, ...]:
    if value is None:
        return CLASSES
    allowed = "a non-empty list of Warrior, Hacker, Sneaker"
    if not isinstance(value, list) or not value:
        raise _fail("classes_offered", allowed)
    chosen: set[Klass] = set()
    for item in value:
        klass = parse_class(item)
        if klass is None:
            raise _fail("classes_offered", allowed)
        chosen.add(klass)
    return tuple(k for k in CLASSES if k in chosen)


def _default_class(value: Any, offered: tuple[Klass, ...]) -> Klass:
    if value is None:
        return Klass.WARRIOR if Klass.WARRIOR in offered else offered[0]
    klass = parse_class(value)
    if klass is None or klass not in offered:
        raise _fail("default_class",
                    f"one of the offered classes: {', '.join(k.value for k in offered)}")
    return klass


def _parse_setup(value: Any) -> SetupOverrides:
    """The shape of ``setup``; what depends on the seats is checked in ``resolve_options``."""
    if value is None:
        return SetupOverrides()
    if not isinstance(value, Mapping):
        raise _fail("setup", "an object")
    for key in value:
        if key not in _SETUP_KEYS:
            raise _fail(f"setup.{key}", "unknown option")
    reds = value.get("reds")
    if reds is not None and (not isinstance(reds, list)
                             or not all(isinstance(s, str) for s in reds)):
        raise _fail("setup.reds", "a list of seat ids")
    classes = value.get("classes")
    parsed_classes: tuple[tuple[str, Klass], ...] | None = None
    if classes is not None:
        if not isinstance(classes, Mapping):
            raise _fail("setup.classes", "an object: seat id -> Warrior, Hacker or Sneaker")
        pairs = []
        for seat, name in classes.items():
            klass = parse_class(name)
            if klass is None:
                raise _fail("setup.classes", f"'{name}' is not a class")
            pairs.append((str(seat), klass))
        parsed_classes = tuple(pairs)
    code = value.get("code")
    if code is not None and (not isinstance(code, str) or not _CODE.match(code)):
        raise _fail("setup.code", "a string of four digits")
    return SetupOverrides(
        reds=tuple(reds) if reds is not None else None, classes=parsed_classes,
        map=_parse_map(value.get("map")), code=code,
        positions=_parse_positions(value.get("positions")), raw=dict(value),
    )


def _parse_map(value: Any) -> tuple[Feature, ...] | None:
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise _fail("setup.map", "an object: room -> feature")
    by_room: dict[str, Feature] = {}
    for key, name in value.items():
        room = parse_room(key)
        if room is None:
            raise _fail("setup.map", f"'{key}' is not a room")
        if room in by_room:
            raise _fail("setup.map", f"{room} is given twice")
        feature = parse_feature(name)
        if feature is None:
            raise _fail("setup.map", f"'{name}' is not a feature")
        by_room[room] = feature
    for room in ROOMS:
        if room not in by_room:
            raise _fail("setup.map", f"{room} is missing")
    return tuple(by_room[room] for room in ROOMS)


def _parse_positions(value: Any) -> tuple[tuple[str, str], ...] | None:
    if value is None:
        return None
    if not isinstance(value, Mapping):
        raise _fail("setup.positions", "an object: seat id or NPC id -> room")
    pairs = []
    for key, text in value.items():
        room = parse_room(text)
        if room is None:
            raise _fail("setup.positions", f"'{text}' is not a room")
        pairs.append((str(key), room))
    return tuple(pairs)


def handle_problem(name: str, taken: Sequence[str]) -> str | None:
    """§1: a handle is 1–20 letters, digits or _, unique case-insensitively."""
    if not _HANDLE.match(name):
        return f"'{name}' is not a valid handle: use 1 to 20 letters, digits or _"
    if name.casefold() in {t.casefold() for t in taken}:
        return f"the handle '{name}' is already taken"
    return None


def resolve_options(options: Options, seat_ids: Sequence[str], seed: int) -> Options:
    """Every default filled for N = len(seat_ids) seats and the game ``seed``; §15.3 checks."""
    n = len(seat_ids)
    if not MIN_PLAYERS <= n <= MAX_PLAYERS:
        raise _fail("players", f"an integer from {MIN_PLAYERS} to {MAX_PLAYERS} "
                               f"(this game has {n} seats)")
    if options.players is not None and options.players != n:
        raise _fail("players", f"must equal the number of seats ({n})")
    top = max_reds(n)
    reds = options.reds if options.reds is not None else (n + 1) // 4
    if not 1 <= reds <= top:
        raise _fail("reds", f"an integer from 1 to {top}")
    bracket = bracket_of(n)
    engineers = options.engineers
    if engineers is None:
        engineers = 1 if bracket == "S" else 2
    facility_seed = options.facility_seed if options.facility_seed is not None else seed
    resolved = replace(options, players=n, reds=reds, engineers=engineers,
                       facility_seed=facility_seed)
    _check_setup(resolved, list(seat_ids))
    return resolved


def _check_setup(options: Options, seat_ids: list[str]) -> None:
    setup = options.setup
    reds = set(setup.reds or ())
    if setup.reds is not None:
        if len(setup.reds) != options.reds or len(reds) != len(setup.reds):
            raise _fail("setup.reds", f"a list of exactly {options.reds} different seat ids")
        for seat in setup.reds:
            if seat not in seat_ids:
                raise _fail("setup.reds", f"there is no seat {seat}")
    if setup.classes is not None:
        if setup.reds is None:
            raise _fail("setup.classes", "requires setup.reds")
        given = dict(setup.classes)
        for seat in given:
            if seat not in seat_ids:
                raise _fail("setup.classes", f"there is no seat {seat}")
            if seat in reds:
                raise _fail("setup.classes", f"{seat} is Red; Reds are always Warriors")
        for seat in seat_ids:
            if seat not in reds and seat not in given:
                raise _fail("setup.classes", f"{seat} is missing")
    if setup.map is not None:
        wanted = composition(bracket_of(len(seat_ids)))
        for feature, count in wanted.items():
            have = sum(1 for f in setup.map if f is feature)
            if have != count:
                raise _fail("setup.map", f"{feature.value} appears {have} times; "
                                         f"this game needs {count}")
    if setup.positions is not None:
        ids = npc_ids(options.engineers or 0, options.renegades)
        placed: dict[str, str] = {}
        for key, room in setup.positions:
            name = key if key in seat_ids else canonical_npc(key, ids)
            if name is None:
                raise _fail("setup.positions", f"there is no seat or NPC {key}")
            placed[name] = room
        for name in (*seat_ids, *ids):
            if name not in placed:
                raise _fail("setup.positions", f"{name} is missing")
        if setup.map is not None:
            for seat in seat_ids:
                if setup.map[ROOMS.index(placed[seat])] in SPECIALS:
                    raise _fail("setup.positions",
                                f"{seat} may not start in a special room")
