"""Computer players for Kingdoms: three strategies sharing one planner (``botplan.Plan``).

A bot reads only its seat's view (E.4), remembers its reports in an ``Intel``
notebook and returns order JSON (C.1) that ``parse_orders`` accepts. Its only
randomness is ``Rng(seed).stream(turn, f"bot:{seat}:{name}")``.

Every bot, each turn and in this row order: kills what its reports showed in
reach (enemy spies and watchers in its own areas, prey beside its catchers),
sabotages with a spy standing in a rival's garrison, raises and moves armies
(neutral land first, then rivals' areas it expects to win), moves its catchers
after their prey or sets them waiting at the border, moves or recruits its spy
toward a rival's front, and fills the rows left with FINDs. The strategies differ
in how much they spend on spies and how boldly they attack:

- ``warlord``: armies first; a spy only for sabotage on the front; attacks with a
  margin of one army;
- ``spymaster``: a spy, a spy catcher and a mole in the field, watchers deep in
  rival land, sabotage wherever it finds a garrison; attacks with a margin of two;
- ``steward``: holds and grows: fortifies the border, takes neutral land, hunts
  intruders with a waiting spy catcher and FIND where on its own border; attacks only
  with a margin of three.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from spyhouse.core.rng import Rng
from spyhouse.games.kingdoms.botplan import PREY, RECRUIT, Intel, Plan

#: Defenders assumed in a rival's area no report has shown lately.
UNKNOWN_DEFENCE = 2


class KingdomsBot:
    """Shared life cycle and the steps every strategy uses, tuned by class constants."""

    name: ClassVar[str] = "base"
    #: BP kept back from raising armies for the spy chapter.
    SPY_FUND: ClassVar[int] = 2
    #: Attack when the attackers exceed the expected defenders by this many.
    MARGIN: ClassVar[int] = 1
    #: Catcher types this strategy keeps in the field.
    CATCHERS: ClassVar[tuple[str, ...]] = ()
    #: Whether the spy goes underground deep in rival land (A.9).
    WATCHES: ClassVar[bool] = False
    #: Whether the spy sabotages only next to own land (False: anywhere).
    SABOTAGE_FRONT_ONLY: ClassVar[bool] = True

    def __init__(self, seat: str, seed: int) -> None:
        self.seat = seat
        self.seed = seed
        self.rng = Rng(seed)
        self.intel = Intel()

    def act(self, view: Mapping[str, Any]) -> dict[str, Any] | None:
        if view.get("outcome") is not None or not isinstance(view.get("me"), Mapping):
            return None
        me = view["me"]["country"]
        if any(c["id"] == me and c["eliminated"] is not None for c in view["countries"]):
            return None
        self.intel.read(view)
        turn = int(view["turn"])
        plan = Plan(view, self.intel, self.rng.stream(turn, f"bot:{self.seat}:{self.name}"))
        self.counter_intelligence(plan)
        self.sabotage(plan)
        self.recruit_catchers(plan)
        self.armies(plan)
        self.hunt(plan)
        self.spy(plan)
        self.scout(plan)
        return plan.orders()

    # -- A.6 KILL what the reports showed in reach

    def counter_intelligence(self, plan: Plan) -> None:
        kills = 0
        for (country, kind), (area, seen) in sorted(plan.intel.agents.items()):
            if kills >= 3 or country not in plan.rivals or plan.turn - seen > 1:
                continue
            mine = {k for k, a in plan.agents.items() if a == area}
            if ((kind == "SPY" and (plan.own(area) or "SPYCAT" in mine))
                    or (kind == "SPYCAT" and "MOLE" in mine)
                    or (kind == "MOLE" and "MOLECAT" in mine)) and plan.kill(area, country):
                kills += 1
        for (country, area) in sorted(plan.intel.watchers):
            if kills < 4 and plan.own(area) and plan.kill(area, country):
                kills += 1

    # -- A.8 SABOTAGE

    def sabotage(self, plan: Plan) -> None:
        area = plan.agents.get("SPY")
        if area is None or plan.rival_of(area) is None:
            return
        if not plan.known_armies(area):
            return
        if self.SABOTAGE_FRONT_ONLY and not any(plan.own(b) for b in plan.neighbours(area)):
            return
        plan.sabotage()

    # -- A.2 recruiting catchers where an own agent or watcher stands

    def recruit_catchers(self, plan: Plan) -> None:
        for kind in self.CATCHERS:
            if kind in plan.agents or plan.bp < RECRUIT[kind] + 2:
                continue
            points = plan.recruit_points(kind)
            front = [a for a in points if plan.own(a)] or points
            where = plan.pick(front)
            if where is not None:
                plan.recruit(kind, where)

    # -- B.4, B.5 armies

    def armies(self, plan: Plan) -> None:
        budget = max(0, plan.bp - self.SPY_FUND)
        front = plan.enemy_front() or plan.frontier()
        if budget >= 2 and front and plan.reserve:
            stage = max(front, key=lambda a: (self._pressure(plan, a), plan.armies.get(a, 0),
                                              -plan.map.order[a]))
            plan.raise_in(stage, min(budget // 2, 4))
        self.take_neutral(plan)
        self.attack(plan)
        self.reinforce(plan)

    def _pressure(self, plan: Plan, area: str) -> int:
        return sum(1 for b in plan.neighbours(area) if plan.rival_of(b))

    def take_neutral(self, plan: Plan) -> None:
        for area in sorted(plan.mine(), key=lambda a: -plan.armies.get(a, 0)):
            for target in plan.neighbours(area):
                if plan.owners.get(target) is None and target not in plan.moved:
                    spare = plan.armies.get(area, 0) - (1 if plan.enemy_front() else 0)
                    if spare >= 1:
                        plan.move(area, target, 1, capture=True)

    def attack(self, plan: Plan) -> None:
        for area in sorted(plan.mine(), key=lambda a: -plan.armies.get(a, 0)):
            for target in plan.neighbours(area):
                if plan.rival_of(target) is None or target in plan.moved:
                    continue
                known = plan.known_armies(target)
                defence = UNKNOWN_DEFENCE if known is None else known
                force = plan.armies.get(area, 0) - 1
                if defence == 0 and known is not None and plan.armies.get(area, 0) >= 1:
                    plan.move(area, target, 1, capture=True)
                elif force >= defence + self.MARGIN:
                    plan.move(area, target, force, capture=False)

    def reinforce(self, plan: Plan) -> None:
        front = set(plan.frontier())
        for area in plan.mine():
            if area in front or plan.armies.get(area, 0) < 1:
                continue
            step = plan.path_step(area, front)
            if step is not None and plan.own(step):
                plan.move(area, step, plan.armies[area], capture=False)

    # -- A.3, A.6, A.7 catchers hunt their prey or lie in wait

    def hunt(self, plan: Plan) -> None:
        for kind, prey in PREY.items():
            here = plan.agents.get(kind)
            if here is None:
                continue
            spotted = [a for a in (plan.intel.spotted(c, prey, plan.turn) for c in plan.rivals)
                       if a is not None]
            if spotted:
                area = spotted[0]
                if area != here and not plan.agent_to(kind, area):
                    step = plan.path_step(here, [area])
                    if step is not None:
                        plan.agent_to(kind, step)
                continue
            if plan.own(here):
                target = self._likely_intruder(plan)
                if target is not None:
                    plan.wait_for(kind, target)
                continue
            step = plan.path_step(here, plan.enemy_front() or plan.mine())
            if step is not None:
                plan.agent_to(kind, step)

    def _likely_intruder(self, plan: Plan) -> str | None:
        """The rival owning most areas next to ours (ties: country order)."""
        scores = {c: 0 for c in plan.rivals}
        for area in plan.mine():
            for b in plan.neighbours(area):
                rival = plan.rival_of(b)
                if rival is not None:
                    scores[rival] += 1
        if not scores:
            return None
        return max(plan.rivals, key=lambda c: (scores[c], plan.areas_of.get(c, 0)))

    # -- A.2, A.3, A.9 the ordinary spy

    def spy(self, plan: Plan) -> None:
        here = plan.agents.get("SPY")
        targets = self._spy_targets(plan)
        if here is None:
            if plan.bp < RECRUIT["SPY"] + 1 or not targets:
                return
            for base in plan.enemy_front() or plan.frontier():
                near = [b for b in plan.neighbours(base) if b in targets]
                if near:
                    plan.recruit("SPY", base, near[0])
                    return
            return
        if (self.WATCHES and plan.rival_of(here) and here not in plan.watchers
                and not any(plan.own(b) for b in plan.neighbours(here))
                and plan.rng.roll(3) == 1 and plan.watch()):
            return
        if here in targets:
            return  # stay and sabotage next turn
        step = plan.path_step(here, targets)
        if step is not None:
            plan.agent_to("SPY", step)

    def _spy_targets(self, plan: Plan) -> list[str]:
        """Rival areas next to own land (for ``SABOTAGE_FRONT_ONLY``) or any rival area."""
        rival = [a for a in plan.map.lands if plan.rival_of(a)]
        if self.SABOTAGE_FRONT_ONLY:
            rival = [a for a in rival if any(plan.own(b) for b in plan.neighbours(a))]
        return rival

    # -- A.5 FIND with the rows left

    def scout(self, plan: Plan) -> None:
        if plan.rivals:
            plan.find_whose(plan.rivals[(plan.turn - 1) % len(plan.rivals)])
        for area in plan.enemy_front():
            if plan.full:
                break
            if plan.rng.roll(2) == 1:
                plan.find_where(area)


class Warlord(KingdomsBot):
    """Armies first: raises and attacks with a margin of one; one spy sabotaging the front."""

    name: ClassVar[str] = "warlord"
    SPY_FUND = 2
    MARGIN = 1


class Spymaster(KingdomsBot):
    """A spy, a spy catcher and a mole in the field; watchers deep in rival land."""

    name: ClassVar[str] = "spymaster"
    SPY_FUND = 7
    MARGIN = 2
    CATCHERS = ("SPYCAT", "MOLE")
    WATCHES = True
    SABOTAGE_FRONT_ONLY = False


class Steward(KingdomsBot):
    """Holds and grows: fortifies, takes neutral land, waits for intruders, rarely attacks."""

    name: ClassVar[str] = "steward"
    SPY_FUND = 6
    MARGIN = 3
    CATCHERS = ("SPYCAT",)

    def scout(self, plan: Plan) -> None:
        for area in plan.frontier():
            if plan.full:
                break
            plan.find_where(area)


class RandomOrders(KingdomsBot):
    """The yardstick: raises all it can afford in a random own area, then up to
    ``max_moves`` random MOVEs of a random count to a random adjacent area; no spies."""

    name: ClassVar[str] = "random"

    def act(self, view: Mapping[str, Any]) -> dict[str, Any] | None:
        if view.get("outcome") is not None or not isinstance(view.get("me"), Mapping):
            return None
        me = view["me"]["country"]
        if any(c["id"] == me and c["eliminated"] is not None for c in view["countries"]):
            return None
        turn = int(view["turn"])
        plan = Plan(view, self.intel, self.rng.stream(turn, f"bot:{self.seat}:{self.name}"))
        own = plan.mine()
        if own:
            plan.raise_in(plan.rng.choice(own), plan.reserve)
        for _ in range(plan.max_moves):
            sources = [a for a in plan.mine() if plan.armies.get(a, 0) >= 1]
            if not sources:
                break
            frm = plan.rng.choice(sources)
            to = plan.rng.choice(plan.neighbours(frm))
            plan.move(frm, to, plan.rng.roll(min(plan.armies[frm], 12)),
                      capture=plan.owners.get(to) is None)
        return plan.orders()


STRATEGIES: dict[str, type[KingdomsBot]] = {
    cls.name: cls for cls in (Warlord, Spymaster, Steward, RandomOrders)
}


def make_bot(name: str, seat: str, seed: int) -> KingdomsBot:
    """A fresh bot of strategy ``name`` for ``seat`` (``KeyError`` for an unknown name)."""
    return STRATEGIES[name](seat, seed)
