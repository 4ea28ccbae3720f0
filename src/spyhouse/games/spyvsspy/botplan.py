"""The bots' planner: one turn's order sheet in the making (spec §5.1, §5.3).

``Plan`` reads a seat's view (§8.5) and hands out its surviving spies one by one,
keeping every order valid: tasks the variant allows, FOLLOW only for non-leaders
and only of names in ``leaders``, RECRUIT only while the money left pays every
recruit (V10, and T10 after this turn's TRAINing), names only of surviving rivals.
It also knows where hunters and prey were seen last turn, spreads workers to spot
leaders, and builds the declarations the notebook justifies.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from spyhouse.core.rng import Stream
from spyhouse.games.spyvsspy.model import view_changes
from spyhouse.games.spyvsspy.notebook import LETTERS, Notebook

TRAIN_VALUE = dict(zip(LETTERS, (3, 2, 2, 1, 2, 1, 1, 1, 1), strict=True))
WORK_VALUE = dict(zip(LETTERS, (1, 3, 1, 4, 2, 3, 2, 5, 1), strict=True))
SPY2_REMOVED = frozenset({"HIDE", "DISGUISE", "FOLLOW", "FAKE"})
HUNTABLE_ROWS = ("COVERT", "DISGUISE", "FAKE", "HUNT", "RECRUIT", "SEARCH", "TRAIN", "WORK")
PRIOR_ACTIVITY = dict(zip(LETTERS, (2, 1, 1, 2, 1, 1, 3, 4, 0), strict=True))
PRIOR_DANGER = {"G": 1.0, "H": 1.0}
PAYING = "HDBF"
GUESS_CONFIDENCE = 0.75


def _prey(directory: Iterable[Mapping[str, Any]], seat: str) -> int:
    """The other surviving brotherhoods' spies but their leaders (who cannot be killed)."""
    prey = 0
    for row in directory:
        if row.get("status") == "surviving" and row.get("seat") != seat:
            spies = int(row.get("spies", 1))
            if spies > 1:  # not max(0, spies - 1): a call per row costs as much as the rest
                prey += spies - 1
    return prey


@dataclass(frozen=True, slots=True)
class SpyInfo:
    number: int
    skill: int
    leader: bool


def _task_rows(table: Any) -> list[Mapping[str, Any]]:
    """The task rows of the brotherhood report (a dozen among two thousand)."""
    if not isinstance(table, Mapping):
        return []
    return [row for row in table.get("rows") or () if row.get("kind") == "task"]


def _activity(task_rows: list[Mapping[str, Any]]) -> dict[str, float]:
    """Huntable foreign spies seen per region last turn (unobserved: a prior guess)."""
    out = {letter: float(PRIOR_ACTIVITY[letter]) for letter in LETTERS}
    seen: dict[str, float] = {}
    for row in task_rows:
        sign = -1.0 if row.get("label") == "GUARD" else 1.0
        if sign > 0 and row.get("label") not in HUNTABLE_ROWS:
            continue
        for letter, cell in (row.get("cells") or {}).items():
            if isinstance(cell, int):
                seen[letter] = seen.get(letter, 0.0) + sign * cell
    for letter, count in seen.items():
        out[letter] = max(0.0, count)
    return out


def _danger(view: Mapping[str, Any], task_rows: list[Mapping[str, Any]]) -> dict[str, float]:
    """Hunters seen per region last turn (unobserved: a prior), plus own spies killed there."""
    out = {letter: PRIOR_DANGER.get(letter, 0.3) for letter in LETTERS}
    for row in task_rows:
        if row.get("label") == "HUNT":
            for letter, cell in (row.get("cells") or {}).items():
                if isinstance(cell, int):
                    out[letter] = float(cell)
    for spy in view.get("spies") or ():
        if spy.get("killed") and spy.get("at") in out:
            out[spy["at"]] += 1.0
    return out


class Plan:
    """One turn's sheet in the making: free spies, money left, orders given."""

    def __init__(self, view: Mapping[str, Any], notebook: Notebook, rng: Stream,
                 rank: Mapping[str, int] | None = None) -> None:
        me = view["me"]
        self.view = view
        self.notebook = notebook
        self.rng = rng
        self.seat = str(view["seat"])
        self.turn = int(view.get("turn", 0)) + 1
        changes = view_changes(view)
        #: the Spy 2 changes the bot plays by: ``spy2`` is the tasks rule (no HIDE,
        #: DISGUISE, FOLLOW, FAKE), ``priced`` the declarations rule (a price, no Lives),
        #: ``sightings`` the leader-tick threshold
        self.spy2 = "tasks" in changes
        self.priced = "declarations" in changes
        self.sightings = "sightings" in changes
        self.gp = int(me["gp"])
        self.nspies = int(me["nspies"])
        self.life = int(me.get("life") or 0)
        self.covertness = int(me.get("covertness") or 1)
        self.base = str((view.get("secrets") or {}).get("base") or "")
        self.budget = self.gp
        self.leaders = frozenset(str(name) for name in view.get("leaders") or ())
        task_rows = _task_rows(view.get("table"))
        self.activity = _activity(task_rows)
        self.danger = _danger(view, task_rows)
        spies = [SpyInfo(int(s["number"]), int(s["skill"]), bool(s.get("leader")))
                 for s in view.get("spies") or () if not s.get("killed")]
        self.free = sorted(spies, key=lambda s: (-s.skill, s.number))
        self.all_spies = list(self.free)
        self.orders: dict[str, dict[str, str]] = {}
        self.used_regions: dict[str, set[str]] = {}
        #: the rivals' notes, for passes over every rival (read only): in the bot's own
        #: ``rank`` order when given, else ``bid`` order. A rank of the bot's own (a
        #: shuffle per bot) keeps every bot from preferring the same rival when its
        #: evidence ties: in ``bid`` order every bot hunted and declared on s1 first.
        notes = notebook.rival_notes()
        if rank is not None:
            notes.sort(key=lambda n: rank.get(n.seat, n.bid))
        self.notes = notes
        self.rivals = [notes.seat for notes in self.notes]
        self.prey = _prey(view.get("directory") or (), self.seat)
        self._rival_set = set(self.rivals)
        self._targets: list[str] | None = None

    # ------------------------------------------------------------ picking spies

    def take(self, *, best: bool = True, leader: bool | None = False,
             min_skill: int = 0, max_skill: int | None = None) -> SpyInfo | None:
        """A free spy (highest skill first, or lowest with ``best=False``), if one fits."""
        pool = self.free if best else list(reversed(self.free))
        for spy in pool:
            if leader is not None and spy.leader != leader:
                continue
            if spy.skill < min_skill or (max_skill is not None and spy.skill > max_skill):
                continue
            self.free.remove(spy)
            return spy
        return None

    def give_back(self, spy: SpyInfo) -> None:
        """Return an unused spy to the free list."""
        self.free.append(spy)
        self.free.sort(key=lambda s: (-s.skill, s.number))

    def leader(self) -> SpyInfo | None:
        return self.take(leader=True)

    # ------------------------------------------------------------ giving orders

    def order(self, spy: SpyInfo, task: str, region: str | None = None,
              brotherhood: str | None = None, leader: str | None = None) -> None:
        """Give ``spy`` an order, falling back to WORK where the order would be refused."""
        if (self.spy2 and task in SPY2_REMOVED) or (task == "FOLLOW" and (
                spy.leader or leader not in self.leaders)) or (task == "HIDE" and spy.leader):
            self.work(spy)
            return
        data = {"task": task}
        if region is not None and task not in ("RECRUIT", "FOLLOW"):
            data["region"] = region
        if brotherhood is not None and brotherhood != self.seat and task in (
                "DISGUISE", "HUNT", "SEARCH") and brotherhood in self._rival_set:
            data["brotherhood"] = brotherhood
        if leader is not None and task == "FOLLOW":
            data["leader"] = leader
        self.orders[str(spy.number)] = data
        if region is not None:
            self.used_regions.setdefault(task, set()).add(region)

    def work(self, spy: SpyInfo, region: str | None = None) -> None:
        """WORK in ``region``; by default the leader (never hunted) and strong spies in
        Industrial, the others where pay less danger is best (ties: random)."""
        if region is None:
            region = "H" if spy.leader or spy.skill >= 4 else self.safe_pay()
        self.orders[str(spy.number)] = {"task": "WORK", "region": region}

    def safe_pay(self, choices: str = PAYING) -> str:
        score = {r: WORK_VALUE[r] - 3.0 * self.danger[r] for r in choices}
        top = max(score.values())
        return self.rng.choice([r for r in choices if score[r] >= top - 0.5])

    def train(self, spy: SpyInfo, region: str = "A") -> bool:
        """TRAIN if the money left pays at least +1 (T3 trains as far as money allows)."""
        steps = TRAIN_VALUE[region]
        while steps and 2 * steps * steps > self.budget:
            steps -= 1
        if not steps:
            return False
        self.budget -= 2 * steps * steps
        self.order(spy, "TRAIN", region)
        return True

    def recruit(self, spy: SpyInfo) -> bool:
        """RECRUIT if this recruit and every earlier one stay paid (V10 and T10)."""
        if self.budget < self.nspies:
            return False
        self.budget -= self.nspies
        self.orders[str(spy.number)] = {"task": "RECRUIT"}
        return True

    # ------------------------------------------------------------ choosing places

    def busiest(self, exclude: set[str] | frozenset[str] = frozenset()) -> str:
        """The region with the most huntable foreign spies last turn (ties: random)."""
        options = [r for r in LETTERS if r not in exclude] or list(LETTERS)
        top = max(self.activity[r] for r in options)
        return self.rng.choice([r for r in options if self.activity[r] == top])

    def quiet(self, choices: str = LETTERS) -> str:
        """A region with few foreign spies last turn (ties: random)."""
        low = min(self.activity[r] for r in choices)
        return self.rng.choice([r for r in choices if self.activity[r] <= low + 1])

    def targets(self) -> list[str]:
        """Rivals not yet certain, most promising first (ties: ``bid`` order)."""
        if self._targets is None:
            self._targets = [notes.seat for notes in self.notebook.uncertain_ranked(self.notes)]
        return self._targets

    def search_spot(self, seat: str) -> str | None:
        """The heaviest candidate region of ``seat`` not yet searched this turn."""
        weights = self.notebook.base_weights(seat)
        if len(weights) <= 1:
            return None
        searched = self.used_regions.get("SEARCH", set())
        options = [r for r in sorted(weights) if r not in searched] or sorted(weights)
        top = max(weights[r] for r in options)
        return self.rng.choice([r for r in options if weights[r] == top])

    def follow_name(self, seat: str) -> str | None:
        names, _ = self.notebook.candidates(seat)
        return self.rng.choice(names) if len(names) > 1 else None

    # ------------------------------------------------------------ scouting

    def leaders_wanted(self) -> bool:
        """Some rival's base is known but not its leader, or few rivals are left."""
        few = len(self.rivals) <= 2
        for notes in self.notes:
            if notes.leaders.bit_count() > 1 and (few or notes.bases.bit_count() == 1):
                return True
        return False

    def coverage(self) -> dict[str, int]:
        """Skill of the seat's observing spies per region under the orders given so far."""
        skills = {s.number: s.skill for s in self.all_spies}
        out = dict.fromkeys(LETTERS, 0)
        for number, order in self.orders.items():
            region = "G" if order["task"] == "RECRUIT" else order.get("region")
            if region in out and order["task"] != "HIDE":
                out[region] += skills.get(int(number), 0)
        return out

    def spread_workers(self, limit: int) -> None:
        """Move up to ``limit`` non-leader workers into regions nobody of ours watches, so the
        report spots more leaders (spy2: a tick needs skills summing above the leader's)."""
        need = 5 if self.sightings else 1
        skills = {s.number: s for s in self.all_spies}
        workers = sorted((skills[int(n)].skill, int(n)) for n, o in self.orders.items()
                         if o["task"] == "WORK" and not skills[int(n)].leader)
        cover = self.coverage()
        for region in self.rng.ordering([r for r in LETTERS if cover[r] < need]):
            while cover[region] < need and workers and limit > 0:
                fits = [w for w in workers if w[0] >= need - cover[region]]
                skill, number = fits[0] if fits else workers[-1]
                workers.remove((skill, number))
                cover[self.orders[str(number)]["region"]] -= skill
                self.orders[str(number)] = {"task": "WORK", "region": region}
                cover[region] += skill
                limit -= 1

    # ------------------------------------------------------------ finishing

    def declarations(self) -> list[dict[str, str]]:
        """Proven declarations; with a Life (classic), one likely guess besides."""
        book = self.notebook
        out: list[dict[str, str]] = []
        price = int(self.view.get("price") or 10)
        spend = 0
        for notes in self.notes:
            sure = book.certain_of(notes)
            if sure is None or sure[0] not in self.leaders:
                continue
            seat = notes.seat
            if self.priced:
                if spend + price > self.gp:
                    break
                spend, price = spend + price, price + 5
            out.append({"brotherhood": seat, "leader": sure[0], "region": sure[1]})
        if not self.priced and self.life >= 1:
            guess = self._guess({d["brotherhood"] for d in out})
            if guess is not None:
                out.append(guess)
        self.budget -= spend
        return out

    def _guess(self, taken: set[str]) -> dict[str, str] | None:
        book = self.notebook
        best: tuple[float, str] | None = None
        for notes in self.notes:
            if notes.seat in taken:
                continue
            score = book.confidence_of(notes)
            if score >= GUESS_CONFIDENCE and (best is None or score > best[0]):
                best = (score, notes.seat)
        if best is None:
            return None
        guess = book.best_guess(best[1])
        if guess is None or guess[0] not in self.leaders:
            return None
        return {"brotherhood": best[1], "leader": guess[0], "region": guess[1]}

    def sheet(self, declarations: list[dict[str, str]]) -> dict[str, Any]:
        for spy in list(self.free):
            self.work(spy)
        self.free.clear()
        return {"spies": dict(sorted(self.orders.items(), key=lambda kv: int(kv[0]))),
                "declarations": declarations}
