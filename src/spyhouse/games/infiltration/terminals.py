"""Terminals (spec §9, step R3; the Guard terminal's answers at R5).

``r3_terminals`` runs R3.1–R3.6 in strict order on the snapshot (the state right
after combat) and returns a ``TerminalRound`` holding every user's answer or
confirmation, the gassed rooms, the queued anonymous messages and the
Commander's orders; ``r5_guard_answers`` fills in the Guard terminal's answers
from the R4a plans.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from spyhouse.core.rng import Rng, Stream
from spyhouse.games.infiltration.model import (
    FEATURES,
    GUARD_IDS,
    ROOMS,
    Feature,
    NpcKind,
    State,
    floor_rooms,
)
from spyhouse.games.infiltration.orders import DecisionOrder, TerminalOrder
from spyhouse.games.infiltration.statements import evaluate

_EFFECT_KINDS: tuple[Feature, ...] = (
    Feature.COMMANDER, Feature.LOCK, Feature.GAS, Feature.MESSAGING, Feature.SWITCH)


@dataclass(slots=True)
class Use:
    """One player's terminal action at the snapshot."""

    seat: str
    room: str
    feature: Feature
    hacked: bool
    order: TerminalOrder
    lines: list[str] = field(default_factory=list)


@dataclass(slots=True)
class TerminalRound:
    """What R3 produced, for R4, R4a and R5."""

    initiative: tuple[str, ...] = ()
    uses: list[Use] = field(default_factory=list)
    gassed: list[str] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)
    commander: dict[str, str] = field(default_factory=dict)
    falsify: Stream | None = None


def _others(options: list[str], true: str) -> list[str]:
    return [o for o in options if o != true]


def r3_terminals(state: State, orders: Mapping[str, DecisionOrder], rng: Rng) -> TerminalRound:
    """R3.1–R3.6 (§9.4)."""
    t = state.turn
    alert = bool(state.alert)
    living = [p.seat for p in state.players if p.alive]
    out = TerminalRound(initiative=tuple(rng.stream(t, "initiative").ordering(living)))
    out.falsify = rng.stream(t, "falsify")
    for seat in out.initiative:  # R3.1, R3.3: only living actors; in Alert Mode Sneakers only
        order = orders.get(seat)
        player = state.player(seat)
        if order is None or order.terminal is None or (alert and not player.sneaker):
            continue
        room = player.room
        feature = state.feature(room)
        if not feature.is_terminal or state.is_destroyed(room):
            continue
        out.uses.append(Use(seat, room, feature, state.is_hacked(room), order.terminal))
    uses = [u for u in out.uses if u.order.action == "USE"]
    for use in uses:  # R3.4: information, in initiative order
        if use.feature in _INFO:
            use.lines = _INFO[use.feature](state, use, out.falsify)
    new_locks: list[str] = []
    for kind in _EFFECT_KINDS:  # R3.5: effects, kind by kind
        for use in uses:
            if use.feature is kind:
                use.lines = _effect(state, use, out, new_locks)
    state.locks = tuple(r for r in ROOMS if r in set(new_locks))
    r36_sabotage(state, out.uses, alert)
    return out


# ---------------------------------------------------------------- R3.4 information


def _seer(state: State, use: Use, falsify: Stream) -> list[str]:
    target = state.player(use.order.player or "")
    red = target.is_red != use.hacked
    return [f"{target.handle} is {'RED' if red else 'GREEN'}"]


def _psychic(state: State, use: Use, falsify: Stream) -> list[str]:
    k = state.reds_alive()
    if use.hacked:
        k = falsify.choice([n for n in range(state.starting_reds + 1) if n != k])
    return [f"Reds alive: {k}"]


def _locator(state: State, use: Use, falsify: Stream) -> list[str]:
    target = state.player(use.order.player or "")
    room = falsify.choice(_others(list(ROOMS), target.room)) if use.hacked else target.room
    return [f"{target.handle} is in {room}{'' if target.alive else ' (dead)'}"]


def _room_log(state: State, room: str) -> list[tuple[str, ...]]:
    return [tuple(seat for seat, where in turn.items() if where == room)
            for turn in state.presence_log]


def _history(state: State, use: Use, falsify: Stream) -> list[str]:
    asked = use.order.room or ""
    log = _room_log(state, asked)
    if use.hacked:
        decoys = [r for r in ROOMS if _room_log(state, r) != log]
        log = _room_log(state, falsify.choice(decoys))
    rank = state.index
    lines = [f"Turn {n}: " + ", ".join(state.handle(s) for s in sorted(seats, key=rank.__getitem__))
             for n, seats in enumerate(log) if seats]
    return lines or ["No one has been here."]


def _map_data(state: State, use: Use, falsify: Stream) -> list[str]:
    lines = []
    for room in use.order.rooms or ():
        feature = state.feature(room)
        if use.hacked:
            feature = falsify.choice([f for f in FEATURES if f is not feature])
        lines.append(f"{room}: {feature.value}")
    return lines


def _superlocator(state: State, use: Use, falsify: Stream) -> list[str]:
    lines = []
    for p in state.players:
        room = falsify.choice(_others(list(ROOMS), p.room)) if use.hacked else p.room
        lines.append(f"{p.handle}: {room}{'' if p.alive else ' (dead)'}")
    return lines


def _validity(state: State, use: Use, falsify: Stream) -> list[str]:
    statement = use.order.statement
    truth = statement is not None and evaluate(statement, state)
    return ["TRUE" if truth != use.hacked else "FALSE"]


_INFO = {
    Feature.SEER: _seer, Feature.PSYCHIC: _psychic, Feature.LOCATOR: _locator,
    Feature.HISTORY: _history, Feature.MAPDATA: _map_data,
    Feature.SUPERLOCATOR: _superlocator, Feature.VALIDITY: _validity,
}


# ---------------------------------------------------------------- R3.5 effects


def _effect(state: State, use: Use, out: TerminalRound, new_locks: list[str]) -> list[str]:
    order = use.order
    if use.feature is Feature.COMMANDER:
        pairs = order.guards or ()
        if not use.hacked:
            for guard, room in pairs:
                out.commander.setdefault(guard, room)
        names = ", ".join(g for g in GUARD_IDS if g in dict(pairs))
        return [f"Orders transmitted to {names}."]
    if use.feature is Feature.LOCK:
        if not use.hacked:
            new_locks.append(order.room or "")
        return [f"{order.room} will be electronically locked during next turn's movement."]
    if use.feature is Feature.GAS:
        if not use.hacked and order.room not in out.gassed:
            out.gassed.append(order.room or "")
        return [f"Gas released into {order.room}."]
    if use.feature is Feature.MESSAGING:
        if not use.hacked:
            out.messages.append(order.text or "")
        return ["Message transmitted."]
    return _switch(state, use)


def _switch(state: State, use: Use) -> list[str]:
    """§9.3: swap terminal types (not state) of the own room and the target."""
    own, target = use.room, use.order.room or ""
    if state.feature(own) is not Feature.SWITCH:
        return ["Switch failed: this terminal was reconfigured before your command ran."]
    other = state.feature(target)
    if not other.is_terminal:
        return [f"{target} holds no terminal. Nothing happened."]
    if not use.hacked:
        state.features[ROOMS.index(own)] = other
        state.features[ROOMS.index(target)] = Feature.SWITCH
    return [f"Switch executed: {target} now holds the Switch terminal; {own} now holds "
            f"{other.article} {other.value} terminal."]


# ---------------------------------------------------------------- R3.6 sabotage


def r36_sabotage(state: State, uses: list[Use], alert: bool) -> None:
    """R3.6: all DESTROYs, all HACKs, all RESTOREs, then Engineer upkeep (not in Alert)."""
    verbs = {"DESTROY": "destroyed", "HACK": "hacked", "RESTORE": "restored"}
    for action in ("DESTROY", "HACK", "RESTORE"):
        for use in uses:
            if use.order.action != action:
                continue
            i = ROOMS.index(use.room)
            if action == "DESTROY":
                state.destroyed[i] = True
                state.hacked[i] = False
            elif action == "HACK":
                if not state.destroyed[i]:
                    state.hacked[i] = True
            else:
                state.hacked[i] = False
            use.lines = [f"You {verbs[action]} the {use.feature.value} terminal in {use.room}."]
    if alert:
        return
    for npc in state.npcs:
        if npc.alive and npc.kind is NpcKind.ENGINEER and state.feature(npc.room).is_terminal:
            i = ROOMS.index(npc.room)
            state.destroyed[i] = False
            state.hacked[i] = False


# ---------------------------------------------------------------- R5 Guard terminal


def r5_guard_answers(state: State, out: TerminalRound) -> None:
    """The Guard terminal's answers from the R4a plans, for users alive at R5."""
    falsify = out.falsify
    for use in out.uses:
        if use.order.action != "USE" or use.feature is not Feature.GUARD:
            continue
        if not state.player(use.seat).alive:
            continue
        lines = []
        for npc in state.npcs:
            if npc.kind is not NpcKind.GUARD or not npc.alive:
                continue
            room = npc.plan
            if use.hacked and falsify is not None:
                room = falsify.choice(_others(list(floor_rooms(npc.home)), room))
            lines.append(f"{npc.id} → {room}")
        use.lines = lines
