"""Setup S1–S10 (spec §3): seats, teams, classes, facility, guards, starts, code, plans."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from spyhouse.core.errors import OptionsError
from spyhouse.core.rng import Rng
from spyhouse.core.ruleset import Seat
from spyhouse.games.infiltration import facility, guards, reports
from spyhouse.games.infiltration.model import (
    FLOORS,
    ROOMS,
    Klass,
    Npc,
    NpcKind,
    Phase,
    Player,
    State,
    Team,
    bracket_of,
    composition,
    event,
    npc_ids,
)
from spyhouse.games.infiltration.options import (
    Options,
    handle_problem,
    parse_options,
    resolve_options,
)


def check_handles(seats: Sequence[Seat]) -> None:
    """§1: every seat's name must be a valid, unique handle."""
    taken: list[str] = []
    for seat in seats:
        problem = handle_problem(seat.name, taken)
        if problem is not None:
            raise OptionsError(f"seat {seat.id}: {problem}")
        taken.append(seat.name)


def _teams(options: Options, seat_ids: list[str], rng: Rng) -> set[str]:
    """S2: the first ``reds`` of a shuffle of the seats are Red."""
    if options.setup.reds is not None:
        return set(options.setup.reds)
    order = rng.stream(0, "teams").ordering(seat_ids)
    return set(order[: options.reds or 0])


def _classes(options: Options, greens: list[str], rng: Rng) -> dict[str, Klass]:
    """S3: ``setup.classes``, or in ``random`` mode a uniform class per Green."""
    if options.setup.classes is not None:
        return dict(options.setup.classes)
    if options.class_mode == "random":
        stream = rng.stream(0, "classes")
        return {seat: stream.choice(options.classes_offered) for seat in greens}
    return {}


def start_state(seats: Sequence[Seat], raw: Mapping[str, Any], rng: Rng) -> State:
    """S1–S10, then T1–T2 of turn 1 when there is no class phase."""
    check_handles(seats)
    seat_ids = [seat.id for seat in seats]
    options = resolve_options(parse_options(raw), seat_ids, rng.seed)
    bracket = bracket_of(len(seats))
    reds = _teams(options, seat_ids, rng)
    greens = [s for s in seat_ids if s not in reds]
    classes = _classes(options, greens, rng)
    site = Rng(options.facility_seed if options.facility_seed is not None else rng.seed)
    features = (list(options.setup.map) if options.setup.map is not None
                else facility.generate_map(site, bracket))
    code = options.setup.code if options.setup.code is not None else facility.draw_code(site)
    ids = npc_ids(options.engineers or 0, options.renegades)
    if options.setup.positions is not None:
        placed = dict(options.setup.positions)
        lookup = {key.casefold(): room for key, room in placed.items()}
        player_rooms = [placed[s] for s in seat_ids]
        npc_rooms = [lookup[i.casefold()] for i in ids]
        for seat, room in zip(seat_ids, player_rooms, strict=True):
            if not features[ROOMS.index(room)].is_terminal:
                raise OptionsError(f"option 'setup.positions': {seat} may not start in a "
                                   "special room")
    else:
        guard_rooms = facility.guard_starts(rng)
        starts = facility.starting_rooms(rng, features, guard_rooms,
                                         len(seat_ids) + len(ids) - len(FLOORS))
        player_rooms = starts[: len(seat_ids)]
        npc_rooms = guard_rooms + starts[len(seat_ids):]
    players = [
        Player(seat.id, seat.name, Team.RED if seat.id in reds else Team.GREEN,
               Klass.WARRIOR if seat.id in reds else classes.get(seat.id), room)
        for seat, room in zip(seats, player_rooms, strict=True)
    ]
    npcs = []
    for npc_id, room in zip(ids, npc_rooms, strict=True):
        kind = (NpcKind.GUARD if npc_id.startswith("Guard-") else
                NpcKind.ENGINEER if npc_id.startswith("Engineer-") else NpcKind.RENEGADE)
        home = npc_id[-1] if kind is NpcKind.GUARD else ""
        npcs.append(Npc(npc_id, kind, room, room, True, home))
    state = State(
        options=options, phase=Phase.CLASS if options.class_phase else Phase.MOVEMENT,
        turn=0, players=players, npcs=npcs, features=features,
        destroyed=[False] * len(ROOMS), hacked=[False] * len(ROOMS), code=code,
        starting_reds=len(reds),
    )
    state.presence_log = [{p.seat: p.room for p in players}]  # S7: turn 0
    guards.r4a_plan(state, rng.stream(0, "plan"), {})  # S9
    s10_notifications(state, bracket)
    if state.phase is Phase.MOVEMENT:
        begin_turn(state, 1)
    return state


def s10_notifications(state: State, bracket: str) -> None:
    """S10: the public setup post; each player's team, class and starting arrival report."""
    options = state.options
    table = {feature.value: count for feature, count in composition(bracket).items()}
    red_count = state.starting_reds if options.reveal_red_count else None
    state.log_public(event(0, "S10", "setup", "The game begins.", red_count=red_count,
                           composition=table))
    for p in state.players:
        reports.secret_notice(state, p)
        if p.klass is not None:
            reports.class_notice(state, p, "S10")
        reports.deliver_arrival(state, p, None, "S10")


def begin_turn(state: State, turn: int) -> None:
    """T1–T2 of ``turn``: the public turn post and the Reds' occupancy report."""
    state.turn = turn
    state.phase = Phase.MOVEMENT
    state.alert = None
    reports.t1_turn_post(state)
    reports.t2_occupancy(state)
