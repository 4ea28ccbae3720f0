"""The turn algorithm (spec §4, §15.2): one ``resolve`` per phase.

- class selection → the end of S3, then T1–T2 of turn 1;
- Movement → T4–T10 (NPC and player movement, presence log, locks lapse, alert,
  Stingers, arrival reports);
- Decision → R1–R6 (lynch, combat, terminals, gas, NPC plans, information, end
  check), then T1–T2 of the next turn.

``resolve`` clones the state first, so the caller's state is never touched.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

from spyhouse.core.rng import Rng
from spyhouse.games.infiltration import guards, reports
from spyhouse.games.infiltration.combat import RoomFight, combat_text, r2_combat
from spyhouse.games.infiltration.ending import r6_end_check
from spyhouse.games.infiltration.model import Death, Feature, Phase, State, event
from spyhouse.games.infiltration.orders import (
    ClassOrder,
    DecisionOrder,
    MoveOrder,
    Orders,
)
from spyhouse.games.infiltration.setup import begin_turn
from spyhouse.games.infiltration.terminals import TerminalRound, r3_terminals, r5_guard_answers
from spyhouse.games.infiltration.vote import r1_lynch


def resolve(state: State, orders: Mapping[str, Orders | None], rng: Rng) -> State:
    """Resolve the current phase with the awaited seats' final orders (None = no-show)."""
    if state.phase is Phase.OVER:
        raise ValueError("the game is over; nothing can be resolved")
    new = state.clone()
    new.explain = ""
    living = {p.seat for p in new.players if p.alive}
    if new.phase is Phase.CLASS:
        resolve_class(new, {s: o for s, o in orders.items() if isinstance(o, ClassOrder)})
    elif new.phase is Phase.MOVEMENT:
        resolve_movement(new, {s: o for s, o in orders.items()
                               if isinstance(o, MoveOrder) and s in living})
    else:
        resolve_decision(new, {s: o for s, o in orders.items()
                               if isinstance(o, DecisionOrder) and s in living}, rng)
    return new


# ---------------------------------------------------------------- class selection


def resolve_class(state: State, orders: Mapping[str, ClassOrder]) -> None:
    """S3 ends: each Green's choice, or ``default_class``; then turn 1 begins."""
    default = state.options.default_class
    for p in state.players:
        if p.is_red:
            continue
        order = orders.get(p.seat)
        p.klass = order.klass if order is not None and order.klass is not None else default
        reports.class_notice(state, p, "S3")
    begin_turn(state, 1)


# ---------------------------------------------------------------- movement


def resolve_movement(state: State, orders: Mapping[str, MoveOrder]) -> None:
    """T4–T10."""
    guards.t4_move_npcs(state)
    notices = t5_move_players(state, orders)
    state.presence_log.append({p.seat: p.room for p in state.players if p.alive})  # T6
    state.locks = ()  # T7
    state.alert = guards.t8_alert(state)
    reports.alert_post(state)
    t9_stingers(state)
    for p in state.players:  # T10
        if p.alive:
            reports.deliver_arrival(state, p, notices.get(p.seat), "T10")
    state.phase = Phase.DECISION


def t5_move_players(state: State, orders: Mapping[str, MoveOrder]) -> dict[str, str]:
    """§5.1: locks, then the GHOST room's mechanical door; returns the N1–N3 notices."""
    locked = set(state.locks)
    notices: dict[str, str] = {}
    at_door: list[tuple[str, str, str, str | None]] = []  # seat, from, to, code
    for p in state.players:
        if not p.alive:
            continue
        order = orders.get(p.seat)
        here, there = p.room, order.move if order is not None else None
        if there is None or there == here:
            continue
        if here in locked:
            notices[p.seat] = f"{here} was electronically locked. You could not leave."
        elif there in locked:
            notices[p.seat] = f"{there} was electronically locked. You remain in {here}."
        elif state.feature(there) is Feature.GHOST and not state.ghost_door_open:
            at_door.append((p.seat, here, there, order.code if order else None))
        else:
            p.room = there
    if at_door:
        if any(code == state.code for _, _, _, code in at_door):
            state.ghost_door_open = True
            for seat, _, there, _ in at_door:
                state.player(seat).room = there
        else:
            for seat, here, there, code in at_door:
                why = "no code given" if code is None else f"code {code} rejected"
                notices[seat] = (f"The outer door of {there} has a mechanical lock and did "
                                 f"not open ({why}). You remain in {here}.")
    return notices


def t9_stingers(state: State) -> None:
    """T9: every living player in the Weapons Lab carries a Stinger from now on."""
    labs = set(state.rooms_with(Feature.LAB))
    for p in state.players:
        if p.alive and p.room in labs and not p.stinger:
            p.stinger = True
            p.stinger_turn = state.turn


# ---------------------------------------------------------------- decision


def resolve_decision(state: State, orders: Mapping[str, DecisionOrder], rng: Rng) -> None:
    """R1–R6, then T1–T2 of the next turn if the game goes on."""
    t = state.turn
    if r1_lynch(state, {seat: o.vote for seat, o in orders.items()}):
        state.explain = json.dumps({"turn": t, "ended": "R1"})
        return
    before = {p.seat for p in state.players if p.alive}
    fights = r2_combat(state, {seat: o.kill for seat, o in orders.items()})
    rounds = r3_terminals(state, orders, rng)
    state.initiative = rounds.initiative
    r4_gas(state, rounds.gassed)
    guards.r4a_plan(state, rng.stream(t, "plan"), rounds.commander)
    state.commander_orders = dict(rounds.commander)
    r5_information(state, before, fights, rounds)
    state.explain = _explained(state, orders, fights, rounds)
    if not r6_end_check(state):
        begin_turn(state, t + 1)


def _explained(state: State, orders: Mapping[str, DecisionOrder], fights: list[RoomFight],
               rounds: TerminalRound) -> str:
    """The host's record of R2–R4 as JSON text: each room's combat tier by tier, every
    terminal use in initiative order with its snapshot's hack state and its answer, the
    terminal orders dropped (actor dead, or Alert Mode), the gassed rooms."""
    used = {u.seat for u in rounds.uses}
    dropped = [[p.seat, orders[p.seat].terminal.action]  # type: ignore[union-attr]
               for p in state.players if p.seat in orders
               and orders[p.seat].terminal is not None and p.seat not in used]
    return json.dumps({
        "turn": state.turn,
        "combat": [{"room": f.room, "participants": [list(pair) for pair in f.priority],
                    "attacks": [list(a) for a in f.attacks],
                    "tiers": [[tier, [list(a) for a in attacks], list(died)]
                              for tier, attacks, died in f.tiers],
                    "died": list(f.died)} for f in fights],
        "initiative": list(rounds.initiative),
        "terminals": [{"seat": u.seat, "room": u.room, "terminal": u.feature.value,
                       "action": u.order.action, "hacked": u.hacked, "lines": list(u.lines)}
                      for u in rounds.uses],
        "dropped": dropped,
        "gassed": sorted(set(rounds.gassed)),
    }, ensure_ascii=False)


def r4_gas(state: State, rooms: list[str]) -> None:
    """R4: every living player and NPC in a gassed room dies."""
    gassed = set(rooms)
    for p in state.players:
        if p.alive and p.room in gassed:
            p.alive = False
            p.stinger = False
            p.death = Death(state.turn, "R4", "gas")
    for npc in state.npcs:
        if npc.alive and npc.room in gassed:
            npc.alive = False


def r5_information(state: State, before: set[str], fights: list[RoomFight],
                   rounds: TerminalRound) -> None:
    """R5: the deaths post and anonymous messages; combat reports and terminal results."""
    t = state.turn
    dead = sorted((state.player(s) for s in before if not state.player(s).alive),
                  key=lambda p: (p.handle.casefold(), p.handle))
    if dead:
        state.log_public(event(t, "R5", "deaths",
                               "Found dead this turn: " + ", ".join(p.handle for p in dead),
                               dead=[p.seat for p in dead]))
    for message in rounds.messages:
        state.log_public(event(t, "R5", "anonymous", f"ANONYMOUS TRANSMISSION: {message}",
                               message=message))
    for fight in fights:
        text = combat_text(state, fight)
        for seat in fight.present:
            if state.player(seat).alive:
                state.log_private(seat, event(
                    t, "R5", "combat", text, room=fight.room,
                    attacks=[[x, y] for x, y in fight.attacks], died=list(fight.died)))
    r5_guard_answers(state, rounds)
    for use in rounds.uses:
        if state.player(use.seat).alive:
            state.log_private(use.seat, event(
                t, "R5", "terminal", "\n".join(use.lines), room=use.room,
                terminal=use.feature.value, action=use.order.action, lines=list(use.lines)))
