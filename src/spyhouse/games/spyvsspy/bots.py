"""Computer players for Spy vs Spy: five strategies sharing one planner and one notebook.

``economist`` (grow first), ``hunter`` (information first) and ``shadow`` (hide and
outlast) are three styles of play; ``grower`` and ``informer`` are a matched pair for
the seed's balance question: the same play after an opening of 4 growth turns or none.

A bot reads only its seat's view (spec §8.5), keeps a ``Notebook`` of
deductions, and returns an order sheet (§5.1) that ``parse_orders`` accepts
(§5.3): only its own surviving spies, tasks the variant allows, FOLLOW only for
non-leaders and only of names in ``leaders``, RECRUIT within V10, no own seat
named (``botplan.Plan`` keeps every order valid). When a rival's base is known but not
its leader, workers are spread over unwatched regions to spot leaders (§8.2 item 6;
spy2: in pairs whose skills beat the leader's). The economist and the hunter cover
themselves as a careful player would (COVERT in the first turns; in classic a FAKE
planted on their own base, guarded, so that no search there is proof: kills and sure
searches are what end games, and with neither, 8-bot games last about as long as human
ones, a median of 10-12 turns rather than 6). Every bot breaks ties between rivals by
its own shuffle of the seats, never by seat order (else every bot hunts and declares on
``s1`` first). It declares only what its notebook proves, or, holding a Life
(classic), one best guess a turn when that guess is at least 75 % likely. Its randomness is
``Rng(seed).stream(turn, f"bot:{seat}:{name}")`` (and, once, the stream
``bot:{seat}:{name}:rank`` of turn 0 for its shuffle) and nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from spyhouse.core.rng import Rng
from spyhouse.games.spyvsspy.botplan import Plan, SpyInfo
from spyhouse.games.spyvsspy.notebook import LETTERS, Notebook


class SpyBot:
    """Shared life cycle: read the view, update the notebook, plan, declare."""

    name: ClassVar[str] = "base"

    def __init__(self, seat: str, seed: int) -> None:
        self.seat = seat
        self.seed = seed
        self.rng = Rng(seed)
        self.notebook = Notebook()
        self.rank: dict[str, int] = {}

    def _rank(self, view: Mapping[str, Any]) -> dict[str, int]:
        """The bot's own order of preference among rivals that its evidence cannot tell
        apart: a shuffle of the seats, drawn once from the bot's stream (a newcomer
        seat, which never happens in a started game, goes last)."""
        if not self.rank:
            seats = sorted(str(row["seat"]) for row in view.get("directory") or ()
                           if row.get("seat") != self.seat)
            stream = self.rng.stream(0, f"bot:{self.seat}:{self.name}:rank")
            self.rank = {seat: index for index, seat in enumerate(stream.ordering(seats))}
        return self.rank

    def act(self, view: Mapping[str, Any]) -> dict[str, Any] | None:
        if view.get("game_over") is not None or "spies" not in view or "me" not in view:
            return None
        self.notebook.update(view)
        turn = int(view.get("turn", 0))
        plan = Plan(view, self.notebook, self.rng.stream(turn, f"bot:{self.seat}:{self.name}"),
                    self._rank(view))
        declarations = plan.declarations()
        self.plan(plan)
        sheet = plan.sheet(declarations)
        if plan.leaders_wanted():
            plan.spread_workers(6 if plan.sightings else 4)
            sheet["spies"] = dict(sorted(plan.orders.items(), key=lambda kv: int(kv[0])))
        return sheet

    def plan(self, plan: Plan) -> None:
        """Give orders to the spies of ``plan`` (the rest WORK)."""
        raise NotImplementedError

    def cover(self, plan: Plan, covert_turns: int = 3) -> None:
        """What a careful player spends on not being found: in the first ``covert_turns``
        turns a middling spy raises covertness in a quiet region (hunters and unnamed
        searches take the least covert first), and while more than two rivals are left
        (classic) the weakest spy plants a FAKE on the base itself, guarded by the next
        weakest once the brotherhood has eight spies: a search of that region then
        proves nothing. With two rivals left the fake stops, so that games end."""
        if plan.turn <= covert_turns:
            spy = plan.take(best=False, min_skill=2, max_skill=3)
            if spy is not None:
                plan.order(spy, "COVERT", plan.quiet("ACEI"))
        if not plan.spy2 and len(plan.rivals) > 2 and plan.nspies > 3:
            faker = plan.take(best=False)
            if faker is not None:
                # the base is in ``secrets``, which a player's API view leaves out (it is
                # mailed): then the fake goes anywhere, the base itself by chance
                known = len(plan.base) == 1 and plan.base in LETTERS
                region = plan.base if known else plan.rng.choice(LETTERS)
                plan.order(faker, "FAKE", region)
                guard = plan.take(best=False) if plan.nspies >= 8 else None
                if guard is not None:
                    plan.order(guard, "GUARD", region)

    # helpers shared by strategies

    def hunt(self, plan: Plan, spy: SpyInfo, region: str | None = None) -> None:
        """HUNT where most prey was seen; with no rival spy but leaders left, SEARCH instead."""
        if not plan.prey:
            if not self.search(plan, spy, plan.rng.roll(3) - 1):
                plan.work(spy)
            return
        targets = plan.targets()
        region = region or plan.busiest(plan.used_regions.get("HUNT", set()))
        plan.order(spy, "HUNT", region, brotherhood=targets[0] if targets else None)

    def search(self, plan: Plan, spy: SpyInfo, index: int = 0) -> bool:
        for seat in plan.targets()[index:index + 3]:
            region = plan.search_spot(seat)
            if region is not None:
                plan.order(spy, "SEARCH", region, brotherhood=seat)
                return True
        return False

    def follow(self, plan: Plan, spy: SpyInfo, index: int = 0) -> bool:
        if plan.spy2 or spy.leader:
            return False
        for seat in plan.targets()[index:index + 3]:
            name = plan.follow_name(seat)
            if name is not None:
                plan.order(spy, "FOLLOW", leader=name)
                return True
        return False


    def grow(self, plan: Plan) -> None:
        """A growth turn: first one skill-2 or -3 spy TRAINs at the Academy (+3 for 18 gp:
        skill 5 or 6 is beyond every starting hunter, leaders included), then up to three
        RECRUITs (V10) with the money left, everyone else at guarded WORK. (Recruiting
        first and training weak spies only when rich won 0.06 against the informer's 0.19;
        training first, about 0.11 against 0.14.)"""
        if plan.budget >= 18 + plan.nspies:
            spy = plan.take(min_skill=2, max_skill=3)
            if spy is not None:
                plan.train(spy, "A")
        for _ in range(3):
            if not self.recruit(plan):
                break
        self._guarded_work(plan)

    def recruit(self, plan: Plan) -> bool:
        """RECRUIT with a skill-3 spy when one is free (the Ghetto is where hunters go, and
        only a leader or a trained spy can question him), else with the weakest, guarded
        by another weak spy when hunters were seen there."""
        spy = plan.take(min_skill=3, max_skill=3) or plan.take(best=False)
        if spy is None:
            return False
        if not plan.recruit(spy):
            plan.give_back(spy)
            return False
        if spy.skill <= 2 and plan.danger["G"] >= 1:
            guard = plan.take(best=False, max_skill=2)
            if guard is not None:
                plan.order(guard, "GUARD", "G")
        return True

    def _guarded_work(self, plan: Plan, kept: list[SpyInfo] | None = None) -> None:
        """Everyone left (and the ``kept`` spies) WORKs; in each region where hunters were
        seen, one weak worker in two gives up his pay to GUARD the others' weakest (one in
        four elsewhere): a guarded spy cannot be questioned, and kills are what end games."""
        for kept_spy in kept or ():
            plan.give_back(kept_spy)
        workers: dict[str, list[SpyInfo]] = {}
        while (spy := plan.take()) is not None:
            region = "H" if spy.skill >= 4 else plan.safe_pay()
            workers.setdefault(region, []).append(spy)
        for region, spies in sorted(workers.items()):
            weak = [s for s in spies if s.skill <= 2]
            guards = (len(weak) + 1) // 2 if plan.danger[region] >= 1 else len(weak) // 4
            for spy in spies:
                if guards and spy in weak:
                    plan.order(spy, "GUARD", region)
                    guards -= 1
                else:
                    plan.work(spy, region)


class Economist(SpyBot):
    """Grow first, then hunt. For its first six turns (or until it has 24 spies) the
    economist puts its leader (never hunted) and strong spies to WORK in Industrial and the
    rest where pay less the hunters seen last turn is best (the Docks, Beltram, Fairground);
    where hunters were seen, one weak worker in two stands GUARD. First a skill-2 or -3
    spy TRAINs at the Academy (+3 for 18 gp, beyond every starting hunter), then up to
    three spies RECRUIT in the Ghetto whenever the money left covers k recruits at k x
    spies (V10), skill-3 spies first (only a leader or a trained spy can question them
    there). Like the hunter it covers itself: COVERT
    in the first turns, a guarded FAKE on its own base each turn. After the growth phase
    the leader and one more spy HUNT in the busiest regions, about half the spies SEARCH
    the likeliest bases of its most promising targets and FOLLOW their candidate leaders,
    the rest keep working; it still recruits when rich (the leader himself when under four
    spies are left) and declares what its notebook proves."""

    name: ClassVar[str] = "economist"
    GROWTH_TURNS = 6
    GROWTH_SPIES = 24
    HUNTERS = 1

    def plan(self, plan: Plan) -> None:
        growing = plan.turn <= self.GROWTH_TURNS and plan.nspies < self.GROWTH_SPIES
        leader = plan.leader()
        self.cover(plan)
        if leader is not None and plan.nspies < 4 and plan.budget >= plan.nspies:
            plan.recruit(leader)
        elif leader is not None and growing:
            plan.work(leader, "H")
        elif leader is not None:
            self.hunt(plan, leader)
        if growing:
            self.grow(plan)
        else:
            self._gather(plan)

    def _gather(self, plan: Plan) -> None:
        active = max(2, len(plan.free) // 2)
        hunters = self.HUNTERS
        for index in range(active):
            spy = plan.take()
            if spy is None:
                break
            hunts = spy.skill >= 3 and index % 2 == 0 and hunters > 0
            if hunts or not (self.search(plan, spy, index // 3) or self.follow(plan, spy)):
                if hunters > 0:
                    hunters -= 1
                    self.hunt(plan, spy)
                else:
                    plan.give_back(spy)
                    break
        if plan.budget >= 2 * plan.nspies + 20:
            self.recruit(plan)
        self._guarded_work(plan)


class Hunter(SpyBot):
    """Information first. From turn 1 the hunter sends its leader (who can never die) and
    its best skill-3+ spy to HUNT in the regions busiest last turn (Industrial and the
    Ghetto at the start), naming its most promising target; its weakest spies FOLLOW
    candidate leaders of its targets to see through DISGUISE (in spy2, where FOLLOW is
    gone, they SEARCH); its middle spies SEARCH the likeliest base regions of its targets
    (and every hunter does once no rival has a spy but its leader left to question). Three
    or four spies WORK, guarded where hunters were seen, to pay for one TRAIN at the
    Academy a turn for a hunter; it covers itself like every bot (COVERT early, a guarded
    FAKE on its base) and recruits only when rich (two a turn from 100 gp, when a single
    worker is enough), with its leader once under five spies."""

    name: ClassVar[str] = "hunter"
    HUNTERS = 1
    RICH = 100

    def plan(self, plan: Plan) -> None:
        leader = plan.leader()
        if leader is not None and plan.nspies < 5 and plan.budget >= 2 * plan.nspies:
            plan.recruit(leader)
        elif leader is not None:
            self.hunt(plan, leader)
        self.cover(plan)
        rich = plan.gp >= self.RICH
        if rich:  # money is no use banked: more spies to question, and to be questioned
            for _ in range(2):
                self.recruit(plan)
        workers: list[SpyInfo] = []
        for _ in range(1 if rich else 3 if plan.gp >= 30 else 4):
            spy = plan.take(max_skill=2) or plan.take()
            if spy is not None:
                workers.append(spy)
        if plan.budget >= 30:
            spy = plan.take(min_skill=2, max_skill=3)
            if spy is not None:
                plan.train(spy, "A")
        for index in range(2):
            spy = plan.take(max_skill=2) or plan.take()
            if spy is None or not self.search(plan, spy, index):
                if spy is not None:
                    plan.give_back(spy)
                break
        for _ in range(self.HUNTERS):
            spy = plan.take(min_skill=3)
            if spy is None:
                break
            self.hunt(plan, spy)
        for index in range(2):
            spy = plan.take(best=False)
            if spy is not None and not self.follow(plan, spy, index):
                plan.give_back(spy)
                break
        spy = plan.take()
        if spy is not None and not self.search(plan, spy, 2):
            plan.give_back(spy)
        if plan.budget >= 3 * plan.nspies:
            spy = plan.take(best=False)
            if spy is not None and not plan.recruit(spy):
                plan.work(spy)
        self._guarded_work(plan, workers)


class Grower(Hunter):
    """Grow first, then gather information: the balance question's growth side, one half
    of a matched pair with ``informer``. For its first ``OPENING`` turns (4) the grower
    does only what builds the brotherhood: its leader WORKs in Industrial, a middle spy
    TRAINs at the Academy, up to three spies RECRUIT (V10), the rest WORK,
    guarded where hunters were seen, and it covers itself (COVERT, a FAKE on its base).
    From then on it plays exactly as the hunter (and the informer) do, so that a game
    between growers and informers measures the opening alone. Other opening lengths are
    a subclass away (``OPENING = k``), usable as a ``module:Class`` bot spec."""

    name: ClassVar[str] = "grower"
    OPENING: ClassVar[int] = 4

    def plan(self, plan: Plan) -> None:
        if plan.turn > self.OPENING:
            super().plan(plan)
            return
        leader = plan.leader()
        self.cover(plan)
        if leader is not None:
            plan.work(leader, "H")
        self.grow(plan)


class Informer(Grower):
    """Information from the start: the balance question's other side, the grower's twin
    with an opening of no turns. From turn 1 it plays the hunter's game: the leader and
    its best skill-3+ spy HUNT where rival spies were seen, weak spies FOLLOW candidate
    leaders and middle ones SEARCH candidate bases, a few WORK (guarded) to pay for a
    TRAIN a turn, and it recruits only when rich. It is the hunter under the name that
    pairs it with ``grower``: the two differ in their opening only, which is what the
    seed's question ("train and earn first, or gather information?") asks about."""

    name: ClassVar[str] = "informer"
    OPENING: ClassVar[int] = 0


class Shadow(SpyBot):
    """Hide and outlast. The shadow's leader goes about in DISGUISE (as a random rival) with a
    disguised escort; it raises covertness early (COVERT in quiet regions, then the leader in
    spy2), plants a FAKE base in a region that is not its own each turn, and pairs each worker
    with a GUARD in the less-hunted paying regions (the Docks, Fairground, Beltram), so hunters
    find nobody to question. It gathers information cautiously: followers (never hunted) trail
    candidate leaders of its targets, and one guarded searcher looks for their bases. In spy2,
    with DISGUISE, FAKE and FOLLOW gone, it leans on COVERT, GUARD and guarded SEARCHes."""

    name: ClassVar[str] = "shadow"
    PAY_REGIONS = "BDF"

    def plan(self, plan: Plan) -> None:
        leader = plan.leader()
        rivals = plan.rivals
        if leader is not None:
            if plan.spy2 and plan.covertness < 2 * plan.turn + 4:
                plan.order(leader, "COVERT", plan.quiet("ACEI"))
            elif plan.spy2:
                plan.work(leader, plan.quiet(self.PAY_REGIONS))
            else:
                plan.order(leader, "DISGUISE", plan.quiet(self.PAY_REGIONS),
                           brotherhood=plan.rng.choice(rivals) if rivals else None)
        if plan.turn <= 3 or plan.covertness < 4 * plan.turn // 3:
            spy = plan.take(min_skill=2)
            if spy is not None:
                plan.order(spy, "COVERT", plan.quiet("ACEI"))
        if not plan.spy2:
            self._decoys(plan, rivals)
        for index in range(2):
            spy = plan.take(best=False)
            if spy is not None and not self.follow(plan, spy, index):
                plan.give_back(spy)
                break
        searcher = plan.take()
        if searcher is not None and self.search(plan, searcher):
            self._guard(plan, plan.orders[str(searcher.number)]["region"])
        elif searcher is not None:
            plan.give_back(searcher)
        self._paired_work(plan)

    def _decoys(self, plan: Plan, rivals: list[str]) -> None:
        faker = plan.take(best=False)
        if faker is not None:
            regions = [r for r in LETTERS if r != plan.base]
            plan.order(faker, "FAKE", plan.rng.choice(regions))
        if len(plan.free) > 6 and rivals:
            escort = plan.take(best=False)
            if escort is not None:
                plan.order(escort, "DISGUISE", plan.busiest(), brotherhood=plan.rng.choice(rivals))

    def _guard(self, plan: Plan, region: str) -> None:
        guard = plan.take(best=False)
        if guard is not None:
            plan.order(guard, "GUARD", region)

    def _paired_work(self, plan: Plan) -> None:
        while plan.free:
            worker = plan.take()
            if worker is None:
                break
            region = plan.rng.choice(self.PAY_REGIONS)
            plan.work(worker, region)
            if len(plan.free) >= 1 and worker.skill <= 2:
                self._guard(plan, region)


STRATEGIES: dict[str, type[SpyBot]] = {
    cls.name: cls for cls in (Economist, Grower, Hunter, Informer, Shadow)
}


def make_bot(name: str, seat: str, seed: int) -> SpyBot:
    """A fresh bot of strategy ``name`` for ``seat``; ``KeyError`` for an unknown name."""
    try:
        cls = STRATEGIES[name]
    except KeyError:
        raise KeyError(f"unknown spyvsspy bot {name!r}; known: {', '.join(sorted(STRATEGIES))}"
                       ) from None
    return cls(seat, seed)


__all__ = ["STRATEGIES", "Economist", "Grower", "Hunter", "Informer", "Notebook", "Plan",
           "Shadow", "SpyBot", "make_bot"]
