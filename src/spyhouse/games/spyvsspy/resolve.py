"""Turn resolution (spec §6): S0 lock, S1 declarations, S2 game-over check, S3 orders and
placement, T1–T11 in strict order, S4 end of turn, S5 game over.

``resolve_turn`` clones the state, so the caller's state is never touched; each
step is a function named after the spec step it implements.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spyhouse.core.rng import Rng
from spyhouse.games.spyvsspy import declarations
from spyhouse.games.spyvsspy.hunt import t7_hunt
from spyhouse.games.spyvsspy.model import (
    LEADER_NUMBER,
    RECRUIT_REGION,
    TASKS,
    Brotherhood,
    DeclarationLine,
    LeaderSighting,
    Region,
    SeatLog,
    Sheet,
    Sighting,
    Spy,
    SpyLine,
    SpyOrder,
    State,
    Task,
    TurnLog,
)
from spyhouse.games.spyvsspy.search import t8_fake, t9_search
from spyhouse.games.spyvsspy.turn import Act, Turn

#: Tasks whose result is written before T7, so a killed spy keeps it (§8.2 item 5).
_BEFORE_HUNT = frozenset({Task.COVERT, Task.TRAIN, Task.DISGUISE})
#: How many acts of each task, and notices, the host's record lists (it counts them all).
LISTED = 20


def resolve_turn(state: State, sheets: Mapping[str, Sheet | None], rng: Rng) -> State:
    """Resolve turn ``state.turn + 1`` and return the new state."""
    if state.game_over is not None:
        raise ValueError("the game is over; no turn can be resolved")
    new = state.clone()
    t = state.turn + 1
    new.turn = t
    turn = Turn(new, t, rng)
    turn.n0 = {b.bid: len(b.spies) for b in new.brotherhoods}  # S0
    live_sheets = {b.seat: sheets.get(b.seat) for b in new.brotherhoods if b.eliminated is None}
    outcomes = (declarations.s1_spy2 if new.spy2_declarations else declarations.s1_classic)(
        new, live_sheets, t)
    for b in outcomes.eliminated:  # S1.5: the eliminated vanish
        b.spies = []
        b.gp = 0
        b.life = 0
    news = declarations.elimination_news(new, outcomes)
    survivors = new.surviving()
    if len(survivors) <= 1:  # S2 -> S5
        over, line = declarations.game_over(new, t)
        new.game_over = over
        news.append(line)
        new.log = _final_log(new, t, news, outcomes, live_sheets)
        return new
    s3_place(turn, live_sheets)
    t1_hide(turn)
    t2_covert(turn)
    t3_train(turn)
    t4_guard(turn)
    t5_disguise(turn)
    t6_follow(turn)
    t7_hunt(turn)
    t8_fake(turn)
    t9_search(turn)
    t10_recruit(turn)
    t11_work(turn)
    news.extend(f"{hunter} killed a spy of {victim}"
                for hunter, victim in sorted(turn.hunt_news,
                                             key=lambda p: (p[0].casefold(), p[1].casefold())))
    new.log = s4_end_of_turn(turn, news, outcomes, live_sheets)
    return new


def _label(order: SpyOrder) -> str:
    return order.region.label if order.region is not None else ""


def _finalise(turn: Turn, b: Brotherhood, sheet: Sheet | None,
              leaders: set[str]) -> list[tuple[Spy, SpyOrder]]:
    """S3.1–3: each spy's executed order, with the no-show and vanished-target defaults."""
    stream = turn.stream(f"default:{b.seat}")
    out: list[tuple[Spy, SpyOrder]] = []
    if sheet is None:
        turn.notice(b, "no orders received: all spies worked in random regions")
        for spy in b.spies:
            out.append((spy, SpyOrder(Task.WORK, Region.from_roll(stream.roll(9)))))
        return out
    given = dict(sheet.spies)
    state = turn.state
    for spy in b.spies:
        order = given.get(spy.number)
        n = spy.number
        if order is None:
            order = SpyOrder(Task.WORK, Region.from_roll(stream.roll(9)))
            turn.notice(b, f"spy {n} had no orders: he worked in {_label(order)}")
        elif order.task is Task.HIDE and n == LEADER_NUMBER and order.region is not None:
            order = SpyOrder(Task.WORK, order.region)
            turn.notice(b, f"spy {n}: Leaders cannot HIDE, he worked in {_label(order)}")
        elif order.task is Task.FOLLOW and order.leader not in leaders:
            leader = order.leader
            order = SpyOrder(Task.WORK, Region.from_roll(stream.roll(9)))
            turn.notice(b, f"spy {n}: {leader}'s brotherhood was eliminated; "
                           f"he worked in {_label(order)} instead")
        elif order.brotherhood is not None:
            named = state.by_seat(order.brotherhood)
            if named is None or named.eliminated is not None:
                turn.notice(b, f"spy {n}: {named.name if named else order.brotherhood} was "
                               f"eliminated; he did {order.task} without naming a brotherhood")
                order = SpyOrder(order.task, order.region)
        out.append((spy, order))
    return out


def s3_place(turn: Turn, sheets: Mapping[str, Sheet | None]) -> None:
    """S3: finalise every order, then send every spy to its region for the whole turn."""
    survivors = turn.state.surviving()
    leaders = {b.leader for b in survivors}
    finalised = [(b, _finalise(turn, b, sheets.get(b.seat), leaders)) for b in survivors]
    leader_region: dict[str, Region] = {}
    for b, orders in finalised:
        for spy, order in orders:
            if spy.number == LEADER_NUMBER and order.region is not None:
                leader_region[b.leader] = order.region
            elif spy.number == LEADER_NUMBER and order.task is Task.RECRUIT:
                leader_region[b.leader] = RECRUIT_REGION
    for b, orders in finalised:
        for spy, order in orders:
            if order.task is Task.RECRUIT:
                region = RECRUIT_REGION
            elif order.task is Task.FOLLOW:
                region = leader_region[order.leader or ""]
            else:
                region = order.region or RECRUIT_REGION
            turn.place(Act(b, spy, order, region))


def t1_hide(turn: Turn) -> None:
    """T1: the hider is safe from HUNT, invisible to others, and observes nothing."""
    for act in turn.alive_doing(Task.HIDE):
        act.result = f"hid in {act.region.label}"


def t2_covert(turn: Turn) -> None:
    """T2: covertness += skill, permanently."""
    for act in turn.alive_doing(Task.COVERT):
        act.b.covertness += act.spy.skill
        act.result = f"covertness +{act.spy.skill}"


def t3_train(turn: Turn) -> None:
    """T3: the largest affordable step up to the region's Train value; pay 2·n² gp."""
    for act in turn.alive_doing(Task.TRAIN):
        value = act.region.info.train
        n = next((k for k in range(value, 0, -1) if 2 * k * k <= act.b.gp), 0)
        if n == 0:
            act.result = "could not afford training"
            continue
        cost = 2 * n * n
        act.b.gp -= cost
        act.spy.skill += n
        act.result = f"skill +{n} for {cost} gp" + (" (short of money)" if n < value else "")


def t4_guard(turn: Turn) -> None:
    """T4: each guard protects its lowest-skill unguarded candidate (ties: lowest number)."""
    guards = turn.alive_doing(Task.GUARD)
    if not guards:
        return
    guarded_bids = {act.b.bid for act in guards}
    pools: dict[tuple[int, Region], list[Act]] = {}
    for act in turn.acts:
        if (act.b.bid in guarded_bids and not act.leader
                and act.task not in (Task.HIDE, Task.FOLLOW, Task.GUARD)):
            pools.setdefault((act.b.bid, act.region), []).append(act)
    for guard in guards:
        candidates = [a for a in pools.get((guard.b.bid, guard.region), []) if not a.guarded]
        if not candidates:
            guard.result = "nobody to guard"
            continue
        chosen = min(candidates, key=lambda a: (a.spy.skill, a.spy.number))
        chosen.guarded = True
        guard.result = f"guarded spy #{chosen.spy.number}"


def t5_disguise(turn: Turn) -> None:
    """T5: the named brotherhood, or a random other surviving one (stream ``disguise``)."""
    stream = turn.stream("disguise")
    bids = [b.bid for b in turn.state.surviving()]
    position = {bid: i for i, bid in enumerate(bids)}
    for act in turn.alive_doing(Task.DISGUISE):
        if act.order.brotherhood is not None:
            named = turn.state.by_seat(act.order.brotherhood)
            act.disguise = named.bid if named else None
        if act.disguise is None:
            index = stream.roll(len(bids) - 1) - 1
            if index >= position[act.b.bid]:
                index += 1
            act.disguise = bids[index]
        act.result = f"disguised as {turn.by_bid(act.disguise).name}"


def t6_follow(turn: Turn) -> None:
    """T6: the follower learns the leader's region and disguise, never his brotherhood."""
    followers = turn.alive_doing(Task.FOLLOW)
    if not followers:
        return
    leaders = {act.b.leader: act for act in turn.acts if act.leader}
    for act in followers:
        target = leaders[act.order.leader or ""]
        if target.task is Task.DISGUISE and target.disguise is not None:
            seen = f"he was disguised as {turn.by_bid(target.disguise).name}"
        else:
            seen = "he was not disguised"
        act.result = f"followed {act.order.leader} to {act.region.label}; {seen}"


def t10_recruit(turn: Turn) -> None:
    """T10: each recruit costs the spy count at the start of the turn (stream ``recruit``)."""
    stream = turn.stream("recruit")
    for act in turn.alive_doing(Task.RECRUIT):
        b = act.b
        cost = turn.n0[b.bid]
        if b.gp < cost:
            act.result = f"could not afford a recruit ({cost} gp)"
            continue
        b.gp -= cost
        skill = stream.roll(3)
        number = b.next_number
        b.next_number += 1
        b.spies.append(Spy(number, skill))
        act.result = f"recruited spy #{number} (skill {skill}) for {cost} gp"


def t11_work(turn: Turn) -> None:
    """T11: gp += skill + the region's Work value."""
    for act in turn.alive_doing(Task.WORK):
        pay = act.spy.skill + act.region.info.work
        act.b.gp += pay
        act.result = f"earned {pay} gp"


def _spy_lines(acts: list[Act], b: Brotherhood, alive_numbers: set[int]) -> tuple[SpyLine, ...]:
    lines = []
    placed = set()
    for act in acts:
        placed.add(act.spy.number)
        result = act.result
        if not act.alive:
            killed = f"killed by a hunter of {act.killed_by}"
            result = f"{result}; {killed}" if result and act.task in _BEFORE_HUNT else killed
        lines.append(SpyLine(act.spy.number, act.leader, act.spy.skill, act.region,
                             not act.alive, act.order, result))
    for spy in b.spies:
        if spy.number not in placed and spy.number in alive_numbers:
            lines.append(SpyLine(spy.number, False, spy.skill, None, False, None, None))
    return tuple(sorted(lines, key=lambda line: line.number))


def s4_end_of_turn(turn: Turn, news: list[str], outcomes: declarations.Outcomes,
                   sheets: Mapping[str, Sheet | None]) -> TurnLog:
    """S4: remove the killed, set each spy's At, and keep what the reports are built from."""
    apparent: dict[Region, dict[int, int]] = {}
    tasks: dict[Region, dict[Task, int]] = {}
    by_seat: dict[str, list[Act]] = {}
    for act in turn.acts:
        by_seat.setdefault(act.b.seat, []).append(act)
        if act.task is Task.HIDE:
            continue
        region_apparent = apparent.setdefault(act.region, {})
        region_apparent[act.apparent] = region_apparent.get(act.apparent, 0) + 1
        region_tasks = tasks.setdefault(act.region, {})
        region_tasks[act.task] = region_tasks.get(act.task, 0) + 1
    leaders = []
    seats: dict[str, SeatLog] = {}
    for b in turn.state.brotherhoods:
        acts = by_seat.get(b.seat, [])
        if b.eliminated is not None:
            if b.eliminated.turn == turn.t:
                seats[b.seat] = SeatLog(declarations=tuple(outcomes.lines.get(b.seat, ())))
            continue
        killed = {act.spy.number for act in acts if not act.alive}
        b.spies = [spy for spy in b.spies if spy.number not in killed]
        for act in acts:
            if act.alive:
                act.spy.at = act.region
        alive_numbers = {spy.number for spy in b.spies}
        seen = tuple(Sighting(act.region, act.apparent, act.task)
                     for act in acts if act.task is not Task.HIDE)
        seats[b.seat] = SeatLog(
            declarations=tuple(outcomes.lines.get(b.seat, ())),
            notices=tuple(turn.notices.get(b.seat, ())),
            spies=_spy_lines(acts, b, alive_numbers),
            seen=seen,
        )
        leader = next(act for act in acts if act.leader)
        leaders.append(LeaderSighting(b.bid, b.leader, leader.region, leader.spy.skill))
    leaders.sort(key=lambda sighting: sighting.name.casefold())
    return TurnLog(turn.t, tuple(news), seats, apparent, tasks, tuple(leaders), dict(sheets),
                   _explained(turn, outcomes))


def _final_log(state: State, t: int, news: list[str], outcomes: declarations.Outcomes,
               sheets: Mapping[str, Sheet | None]) -> TurnLog:
    """The log of a final turn: declarations and news only (S5: no task is run)."""
    seats = {b.seat: SeatLog(declarations=tuple(outcomes.lines.get(b.seat, ())))
             for b in state.brotherhoods if b.eliminated is None or b.eliminated.turn == t}
    explain = {"turn": t, "declarations": _declared(state, outcomes), "over": True}
    return TurnLog(t, tuple(news), seats, {}, {}, (), dict(sheets), explain)


def _declared(state: State, outcomes: declarations.Outcomes) -> list[list[Any]]:
    """S1 for the host: [declarer, target, leader, region, correct, outcome], declarers
    in ``bid`` order, each sheet's declarations in order."""
    out = []
    for b in state.brotherhoods:
        for line in outcomes.lines.get(b.seat, ()):
            d = line.declaration
            target = state.by_seat(d.brotherhood)
            correct = (target is not None and target.leader == d.leader
                       and target.base == d.region)
            out.append([b.seat, d.brotherhood, d.leader, d.region.value, correct, line.outcome])
    return out


def _explained(turn: Turn, outcomes: declarations.Outcomes) -> dict[str, Any]:
    """The host's record of a turn whose tasks ran: what each step decided, bounded (the
    first ``LISTED`` acts of each task and notices, with their numbers; T7 and T9 as
    ``hunt`` and ``search`` record them)."""
    notices = [[b.seat, text] for b in turn.state.brotherhoods
               for text in turn.notices.get(b.seat, ())]
    tasks: dict[str, Any] = {}
    for task in TASKS:
        acts = turn.by_task.get(task, [])
        if acts:
            tasks[task.value] = {
                "count": len(acts),
                "acts": [[a.b.seat, a.spy.number, a.spy.skill, a.region.value, a.result,
                          a.killed_by] for a in acts[:LISTED]]}
    return {"turn": turn.t, "declarations": _declared(turn.state, outcomes),
            "notices": len(notices), "listed_notices": notices[:LISTED], "tasks": tasks,
            "hunt": turn.explain_hunts,
            "search": [turn.explain_searches[r] for r in sorted(turn.explain_searches)]}


__all__ = ["DeclarationLine", "resolve_turn"]
