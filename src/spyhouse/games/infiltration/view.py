"""Seat views, the host view and the public view (spec §15.4), built by allow-list.

Every key is constructed from what the seat may know; nothing is copied from the
state and pruned. Logged events are deep-copied, so no caller can change the
state through a view.
"""

from __future__ import annotations

import json
from typing import Any

from spyhouse.games.infiltration.model import (
    ROOMS,
    Klass,
    Phase,
    Player,
    State,
    Team,
    bracket_of,
    composition,
    fresh,
    load_events,
)
from spyhouse.games.infiltration.orders import NO_LYNCH, NO_REDS_LEFT, USE_KEYS


def _players(state: State) -> list[dict[str, Any]]:
    return [{"seat": p.seat, "handle": p.handle, "alive": p.alive, "phantoms": p.phantoms}
            for p in state.players]


def _composition(state: State) -> dict[str, int]:
    table = composition(bracket_of(len(state.players)))
    return {feature.value: count for feature, count in table.items()}


def public_view(state: State) -> dict[str, Any]:
    """What a spectator may know: the keys every seat's view shares."""
    return {
        "game": "infiltration",
        "phase": state.phase.value,
        "turn": state.turn,
        "alert": state.alert if state.phase is Phase.DECISION else None,
        "players": _players(state),
        "npcs": list(state.npc_id_list),
        "options": state.options.to_json(full=False),
        "composition": _composition(state),
        "red_count": state.starting_reds if state.options.reveal_red_count else None,
        "public_log": load_events(state.public_json),
        "result": result_view(state),
    }


def awaiting(state: State) -> frozenset[str]:
    """§15.2: every seat in the class phase, the living players otherwise, nobody at the end."""
    if state.phase is Phase.OVER:
        return frozenset()
    if state.phase is Phase.CLASS:
        return frozenset(p.seat for p in state.players)
    return frozenset(p.seat for p in state.players if p.alive)


def seat_view(state: State, seat: str) -> dict[str, Any]:
    """§15.4: the seat view, exactly its keys."""
    me = state.player(seat)
    base = public_view(state)
    awaited = seat in awaiting(state)
    reds = [p.seat for p in state.players if p.team is Team.RED] if me.is_red else None
    occupancy = None
    if me.is_red and me.alive and state.phase is Phase.MOVEMENT:
        occupancy = [[room, count] for room, count in state.occupancy]
    channels = {"public": "post" if me.alive else "read"}
    if me.is_red and me.alive:
        channels["red"] = "post"
    if state.options.private_messages:
        channels["private"] = "post" if me.alive else "read"
    return {
        "game": base["game"],
        "phase": base["phase"],
        "turn": base["turn"],
        "alert": base["alert"],
        "me": {
            "seat": me.seat, "handle": me.handle, "alive": me.alive, "team": me.team.value,
            "class": me.klass.value if me.klass is not None else None, "room": me.room,
            "stinger": me.stinger, "phantoms": me.phantoms, "reds": reds,
        },
        "players": base["players"],
        "npcs": base["npcs"],
        "options": base["options"],
        "composition": base["composition"],
        "red_count": base["red_count"],
        "awaited": awaited,
        "choices": choices(state, me) if awaited else {},
        "arrival": fresh(state.arrivals.get(seat)) if me.alive else None,
        "occupancy": occupancy,
        "public_log": base["public_log"],
        "private_log": load_events(state.private_json.get(seat, [])),
        "channels": channels,
        "result": base["result"],
    }


def terminal_actions(state: State, me: Player) -> list[str]:
    """The terminal actions that pass U1, U2, U3, U11, U12 and U13 for ``me`` now."""
    feature = state.feature(me.room)
    if not feature.is_terminal or state.is_destroyed(me.room):
        return []
    if state.alert and not me.sneaker:
        return []
    actions = ["USE"]
    if me.is_red:
        actions += ["HACK", "DESTROY"]
    if me.klass is Klass.HACKER and state.is_hacked(me.room):
        actions.append("RESTORE")
    return actions


def choices(state: State, me: Player) -> dict[str, Any]:
    """What the awaited seat may choose now (§15.4 ``choices``)."""
    if state.phase is Phase.CLASS:
        return {"classes": [] if me.is_red else
                [k.value for k in state.options.classes_offered]}
    if state.phase is Phase.MOVEMENT:
        return {"rooms": list(ROOMS)}
    others = [p.seat for p in state.players if p.alive and p is not me]
    here = [p.seat for p in state.players if p.alive and p is not me and p.room == me.room]
    here += [n.id for n in state.npcs if n.alive and n.room == me.room]
    feature = state.feature(me.room)
    return {
        "vote": [*others, NO_LYNCH, NO_REDS_LEFT],
        "kill": here,
        "terminal": {
            "type": feature.value if feature.is_terminal else None,
            "actions": terminal_actions(state, me),
            "keys": list(USE_KEYS.get(feature, ())),
        },
    }


def result_view(state: State) -> dict[str, Any] | None:
    """Null while the game goes on; then the outcome with the full reveal."""
    if state.result is None:
        return None
    out = dict(state.result)
    out["winners"] = list(state.result["winners"])
    host = host_view(state, with_result=False)
    out["reveal"] = {key: host[key] for key in (
        "options", "seats", "rooms", "npc_state", "locks", "ghost_door_open", "code",
        "presence_log", "private_logs")}
    return out


def host_view(state: State, *, with_result: bool = True) -> dict[str, Any]:
    """§15.4: the whole state for the host (``view(state, None)``)."""
    view: dict[str, Any] = {
        "game": "infiltration",
        "phase": state.phase.value,
        "turn": state.turn,
        "alert": state.alert if state.phase is Phase.DECISION else None,
        "players": _players(state),
        "npcs": list(state.npc_id_list),
        "composition": _composition(state),
        "red_count": state.starting_reds if state.options.reveal_red_count else None,
        "public_log": load_events(state.public_json),
        "options": state.options.to_json(full=True),
        "awaiting": sorted(awaiting(state), key=state.index.__getitem__),
        "seats": [{
            "seat": p.seat, "handle": p.handle, "team": p.team.value,
            "class": p.klass.value if p.klass is not None else None, "alive": p.alive,
            "room": p.room, "stinger": p.stinger, "phantoms": p.phantoms,
            "death": p.death.to_json() if p.death is not None else None,
        } for p in state.players],
        "rooms": [{
            "room": room, "feature": feature.value,
            "destroyed": destroyed if feature.is_terminal else None,
            "hacked": hacked if feature.is_terminal else None,
        } for room, feature, destroyed, hacked in zip(
            ROOMS, state.features, state.destroyed, state.hacked, strict=True)],
        "npc_state": [{"id": n.id, "room": n.room, "alive": n.alive,
                       "plan": n.plan if n.alive else None} for n in state.npcs],
        "locks": list(state.locks),
        "ghost_door_open": state.ghost_door_open,
        "code": state.code,
        "presence_log": [dict(turn) for turn in state.presence_log],
        "commander_orders": dict(state.commander_orders),
        "initiative": list(state.initiative),
        "private_logs": {p.seat: load_events(state.private_json.get(p.seat, []))
                         for p in state.players},
        # Not a §15.4 key: the host's record of the latest resolution, for the replay's
        # "why it happened" (docs/infiltration.md); never in a seat's view or the reveal.
        "explain": json.loads(state.explain) if state.explain else None,
    }
    if with_result:
        view["result"] = result_view(state)
        # Not a §15.4 key: the platform's generic "is it over" flag (docs/infiltration.md).
        view["game_over"] = fresh(state.result) if state.result is not None else None
    return view
