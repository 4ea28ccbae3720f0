"""Options (§2), brotherhood names (§3.3) and the start of the game (§4)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from spyhouse.core.errors import OptionsError
from spyhouse.core.rng import Rng
from spyhouse.core.ruleset import Seat
from spyhouse.games.spyvsspy.model import (
    DISGUISED_AS_YOU,
    REGIONS,
    SPY2_CHANGES,
    STARTING_SKILLS,
    TASKS,
    Brotherhood,
    Options,
    Region,
    Spy,
    State,
    leader_pool,
)

#: Brotherhood-like names for computer players: the seed's sample sheet and FAQ first,
#: then more in the same spirit. None is a task name, a leader name or "Disguised as you"
#: (§3.3).
BROTHERHOOD_NAMES: tuple[str, ...] = (
    "Buttmans Brigade", "Cannibal Island Republican Army", "Da Magoo's",
    "Damascene Techniques", "Greedy Gimps", "Hoodless Wonders", "Houdini's Hoodlums",
    "I.R.D.", "Mad Bobs", "Midsummer Knights Scream", "Red Gold Holdings", "Stormreaver",
    "Temple of Gapp", "The Cheerful Reapers", "The Silk Slippers", "Toady's Mob",
    "The Poignant Immaculates", "The Hounds of Sigmar", "Lantern Street Irregulars",
    "The Quiet Cartographers", "Order of the Bent Key", "Velvet Glove Society",
    "The Dockside Whisperers", "Ministry of Loose Ends", "The Pickled Herrings",
    "Brass Monkey Club", "The Nightjar Circle", "Fog and Mirror", "The Tallow Chandlers",
    "Sons of the Second Drawer", "The Ledger Keepers", "Cobblestone Cabal",
    "The Unremarkables", "Gaslight Syndicate", "The Patient Owls", "League of Odd Socks",
    "The Crooked Steeple", "Whitewash and Co", "The Buttoned Lips", "Garret Fellowship",
)

#: ``press`` is the platform's talk (``press.PRESS``): the rules accept it and never read it.
_OPTION_KEYS = {"min_players", "max_players", "base_choice", "variant", "spy2_changes", "setup",
                "press"}
_SETUP_KEYS = {"bases", "leaders"}
_RESERVED_NAMES = {t.value.casefold() for t in TASKS} | {DISGUISED_AS_YOU.casefold()}


def _int_option(data: Mapping[str, Any], key: str, default: int | None) -> int | None:
    value = data.get(key, default)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise OptionsError(f"{key} must be a whole number")
    return value


def parse_options(data: Mapping[str, Any]) -> Options:
    """Typed options from the record's JSON, refusing anything unknown or ill-typed."""
    if not isinstance(data, Mapping):
        raise OptionsError("options must be an object")
    for key in sorted(data):
        if key not in _OPTION_KEYS:
            raise OptionsError(f"unknown option {key}")
    if not isinstance(data.get("press", True), bool):
        raise OptionsError("press must be true or false")
    min_players = _int_option(data, "min_players", 2)
    max_players = _int_option(data, "max_players", None)
    if min_players is None or min_players < 2:
        raise OptionsError("min_players must be at least 2")
    if max_players is not None and max_players < min_players:
        raise OptionsError("max_players must be null or at least min_players")
    base_choice = data.get("base_choice", "choose")
    if base_choice not in ("choose", "random"):
        raise OptionsError('base_choice must be "choose" or "random"')
    variant = data.get("variant", "classic")
    if variant not in ("classic", "spy2"):
        raise OptionsError('variant must be "classic" or "spy2"')
    spy2_changes = _spy2_changes(data.get("spy2_changes"), variant)
    setup = data.get("setup", {})
    if setup is None:
        setup = {}
    if not isinstance(setup, Mapping):
        raise OptionsError("setup must be an object")
    for key in sorted(setup):
        if key not in _SETUP_KEYS:
            raise OptionsError(f"unknown option setup.{key}")
    bases = setup.get("bases")
    leaders = setup.get("leaders")
    bases = {} if bases is None else bases  # null counts as left out
    leaders = {} if leaders is None else leaders
    if not isinstance(bases, Mapping):
        raise OptionsError("setup.bases must be an object of seat ids")
    if not isinstance(leaders, Mapping):
        raise OptionsError("setup.leaders must be an object of seat ids")
    parsed_bases: list[tuple[str, Region]] = []
    for seat, region in bases.items():
        if not isinstance(region, str) or region.strip().upper() not in Region.__members__:
            raise OptionsError(f"setup.bases.{seat}: unknown region {region}")
        parsed_bases.append((str(seat), Region(region.strip().upper())))
    pool_names = {name.casefold(): name for name in leader_pool(1000)}
    parsed_leaders: list[tuple[str, str]] = []
    for seat, name in leaders.items():
        if not isinstance(name, str) or name.strip().casefold() not in pool_names:
            raise OptionsError(f"setup.leaders.{seat}: unknown leader name {name}")
        proper = pool_names[name.strip().casefold()]
        if any(proper == other for _, other in parsed_leaders):
            raise OptionsError(f"setup.leaders.{seat}: {proper} is given twice")
        parsed_leaders.append((str(seat), proper))
    return Options(
        min_players=min_players,
        max_players=max_players,
        base_choice=base_choice,
        variant=variant,
        setup_bases=tuple(sorted(parsed_bases)),
        setup_leaders=tuple(sorted(parsed_leaders)),
        spy2_changes=spy2_changes,
    )


def _spy2_changes(value: Any, variant: str) -> frozenset[str]:
    """The option ``spy2_changes``: a list of distinct names of ``SPY2_CHANGES``, only in a
    classic game (variant "spy2" has them all); null or left out is none."""
    if value is None:
        return frozenset()
    known = ", ".join(SPY2_CHANGES)
    if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
        raise OptionsError(f"spy2_changes must be a list of names among: {known}")
    if value and variant != "classic":
        raise OptionsError('spy2_changes applies to the classic variant only '
                           '("spy2" has every change)')
    seen: set[str] = set()
    for name in value:
        if name not in SPY2_CHANGES:
            raise OptionsError(f"spy2_changes: unknown change {name!r} (known: {known})")
        if name in seen:
            raise OptionsError(f"spy2_changes: {name} is given twice")
        seen.add(name)
    return frozenset(seen)


_POOL = frozenset(name.casefold() for name in leader_pool(1))
_ROMAN = re.compile(r"^[ivxlcdm]+$")


def _is_pool_name(folded: str) -> bool:
    """A pool name, also with the Roman suffix of games past 40 seats ("Mr Pink II")."""
    head, _, last = folded.rpartition(" ")
    return folded in _POOL or (head in _POOL and bool(_ROMAN.match(last)))


def brotherhood_name_problem(name: str, taken: Sequence[str] = ()) -> str | None:
    """Why ``name`` cannot be a brotherhood's name (§3.3), or ``None`` if it can."""
    name = name.strip()
    if not 1 <= len(name) <= 40:
        return "a brotherhood name has 1 to 40 characters"
    if not name.isprintable():
        return "a brotherhood name may hold only printable characters"
    folded = name.casefold()
    if folded in _RESERVED_NAMES:
        return f"{name} is a word of the turn report and cannot be a brotherhood name"
    if _is_pool_name(folded):
        return f"{name} is a leader name and cannot be a brotherhood name"
    if folded in {other.strip().casefold() for other in taken}:
        return f"the name {name} is taken in this game"
    return None


def start_state(seats: Sequence[Seat], options: Options, rng: Rng) -> State:
    """Turn 0 (§4 step 2–3): leaders, then bases, then the starting brotherhoods."""
    if len(seats) < options.min_players:
        raise OptionsError(f"min_players: the game needs at least {options.min_players} seats")
    if options.max_players is not None and len(seats) > options.max_players:
        raise OptionsError(f"max_players: the game takes at most {options.max_players} seats")
    ids = [seat.id for seat in seats]
    names: list[str] = []
    for seat in seats:
        problem = brotherhood_name_problem(seat.name, names)
        if problem:
            raise OptionsError(f"seat {seat.id}: {problem}")
        names.append(seat.name)
    for key, pairs in (("bases", options.setup_bases), ("leaders", options.setup_leaders)):
        for seat_id, _ in pairs:
            if seat_id not in ids:
                raise OptionsError(f"setup.{key}.{seat_id}: no such seat in this game")
    pool = list(leader_pool(len(seats)))
    given = dict(options.setup_leaders)
    for name in given.values():
        if name not in pool:
            raise OptionsError(f"setup.leaders: {name} is not in this game's pool")
        pool.remove(name)
    leaders_stream = rng.stream(0, "setup-leaders")
    leaders: dict[str, str] = {}
    for seat_id in ids:
        if seat_id in given:
            leaders[seat_id] = given[seat_id]
        else:
            name = leaders_stream.choice(pool)
            pool.remove(name)
            leaders[seat_id] = name
    chosen = dict(options.setup_bases) if options.base_choice == "choose" else {}
    bases_stream = rng.stream(0, "setup-bases")
    bases = {
        seat_id: chosen[seat_id] if seat_id in chosen else Region.from_roll(bases_stream.roll(9))
        for seat_id in ids
    }
    brotherhoods = [
        Brotherhood(
            seat=seat.id, bid=bid, name=seat.name.strip(), player=seat.player, email=seat.email,
            leader=leaders[seat.id], base=bases[seat.id],
            spies=[Spy(number, skill) for number, skill in enumerate(STARTING_SKILLS, start=1)],
            next_number=len(STARTING_SKILLS) + 1,
        )
        for bid, seat in enumerate(seats, start=1)
    ]
    return State(options=options, seed=rng.seed, turn=0, brotherhoods=brotherhoods)


__all__ = ["REGIONS", "brotherhood_name_problem", "parse_options", "start_state"]
