"""A deduction notebook for one seat, kept across turns from that seat's own views only.

For every surviving rival brotherhood the notebook narrows two candidate sets:
the base regions (a 9-bit mask) and the leader names (a bit mask over the
game's leader names, so that a 1,000-brotherhood game costs O(n) big-integer
operations per turn). Every step is *sound*: a candidate is dropped only when
the seat's own reports prove it impossible (spec §8), so the true leader and
base of every surviving rival always stay among its candidates.

Evidence, in the words of the spec:

- HUNT results (§6 T7, "HUNT information is correct"): a base or a leader, certain.
- SEARCH results (§6 T9): certain only when the searched column shows FAKE 0
  (the FAKE row counts every foreign faker placed there, killed ones too), or
  under the Spy 2 ``tasks`` change (no FAKE) or ``search`` change (§9.2 never returns
  a fake). Then the count is exact, a named brotherhood that was
  not returned is not there, and no rival less covert than the one returned is
  there. With fakes about, a result is only a hint that weighs the guess.
- FOLLOW results (§6 T6): an undisguised leader is counted in his true
  brotherhood's row, so it is one of those with a count > 0 in that column; a
  leader disguised as Y is not Y's.
- Leader ticks (§8.2 item 6): in an observed column with DISGUISE 0 every spy is
  counted under its own brotherhood, so a ticked leader belongs to a brotherhood
  whose count there is > 0. (In spy2 there is no DISGUISE and a tick still means
  the leader was there.) An unticked leader says nothing about anyone.
- The own declarations' outcomes: an incorrect one rules out its (leader, base) pair.
- Constraint propagation: leader names are a bijection with the surviving
  rivals (``leaders`` of the view), so a certain name leaves every other rival,
  a rival with one name left is certain, and a name only one rival can hold is
  that rival's. Bases are not exclusive: several may share a region.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from itertools import compress
from operator import attrgetter, itemgetter
from typing import Any

from spyhouse.games.spyvsspy.model import view_changes

LETTERS = "ABCDEFGHI"
ALL_REGIONS = (1 << len(LETTERS)) - 1
HINT_WEIGHT = 1.0
"""How much one possibly-faked SEARCH report raises a region's weight (a region starts at 1)."""

_HUNT_BASE = re.compile(r"^killed a spy of (?P<y>.+); (?P=y)'s base is in (?P<r>[A-I]) \S+$")
_HUNT_LEADER = re.compile(r"^killed a spy of (?P<y>.+); (?P=y)'s leader is (?P<l>.+)$")
_FOLLOW = re.compile(
    r"^followed (?P<l>.+?) to (?P<r>[A-I]) \S+; he was "
    r"(?:not disguised|disguised as (?P<y>.+))$")
_SEARCH_FOUND = re.compile(r"^base of (?P<y>.+) reported here; bases here: (?P<n>\d+)$")
_SEARCH_OWN = re.compile(r"^only your own base is here; bases here: (?P<n>\d+)$")
_SEARCH_NONE = re.compile(r"^no base found; bases here: (?P<n>\d+)$")


def _bits(mask: int) -> Iterator[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _held_once(masks: list[int]) -> int:
    """The bits set in exactly one of ``masks``. Rivals mostly share one candidate set
    (every name not yet placed), so each distinct mask is counted once."""
    once = twice = 0
    for mask, count in Counter(masks).items():
        twice |= mask if count > 1 else once & mask
        once |= mask
    return once & ~twice


def region_bit(letter: str) -> int:
    return 1 << LETTERS.index(letter)


@dataclass(slots=True)
class RivalNotes:
    """What the seat knows about one surviving rival."""

    seat: str
    name: str
    bid: int
    covertness: int
    leaders: int
    bases: int = ALL_REGIONS
    hints: list[float] | None = None
    nogoods: tuple[tuple[int, int], ...] = ()


@dataclass(slots=True)
class _Table:
    """The parts of a view's brotherhood report the notebook reads (§8.5 ``table``).

    The brotherhood and leader rows (a thousand each in a big game) are kept as they
    are and read only when some evidence needs them: ``counts()`` once,
    ``uncounted(column)`` once a column, the leader rows for their ticks in the columns
    without DISGUISE (``Notebook._leader_ticks``).
    """

    observed: set[str]
    brotherhoods: list[Mapping[str, Any]]
    leaders: list[Mapping[str, Any]]
    disguise: dict[str, Any]
    fake: dict[str, Any]
    _counts: dict[str, Mapping[str, Any]] | None = None
    _uncounted: dict[str, list[str]] = field(default_factory=dict)

    def counts(self) -> dict[str, Mapping[str, Any]]:
        """Each brotherhood row's cells by seat (the last row of a seat wins)."""
        if self._counts is None:
            self._counts = {str(row.get("seat")): row.get("cells") or {}
                            for row in self.brotherhoods}
        return self._counts

    def uncounted(self, column: str) -> list[str]:
        """The seats whose count in ``column`` is 0, in ``counts()`` order."""
        seats = self._uncounted.get(column)
        if seats is None:
            seats = self._uncounted[column] = [
                seat for seat, cells in self.counts().items() if cells.get(column) == 0]
        return seats


class Notebook:
    """Deductions of one seat; feed it ``update(view)`` once per turn, in order."""

    def __init__(self) -> None:
        self.seat: str | None = None
        self.turn = -1
        #: SEARCH results ignore fakes (Spy 2 ``tasks``: there are none; ``search``: §9.2
        #: never returns one), and bases must be findable (``search``: skill × turn)
        self.no_fakes = False
        self.findable = False
        self.contradictions = 0
        self._index: dict[str, int] = {}
        self._names: list[str] = []
        self._rivals: dict[str, RivalNotes] = {}
        self._seat_of: dict[str, str] = {}
        self._pool = 0
        self._exact: list[tuple[int, int]] = []
        # the view's ``leaders`` as last read (the pool is the same while they are), and
        # whether ``_names`` is sorted (then a mask's names come out sorted, unsorted)
        self._leaders_read: list[Any] | None = None
        self._names_sorted = True

    # ------------------------------------------------------------ queries

    def rivals(self) -> list[str]:
        """Seat ids of the surviving rivals, in ``bid`` order."""
        return [r.seat for r in self.rival_notes()]

    def rival_notes(self) -> list[RivalNotes]:
        """The notes of the surviving rivals, in ``bid`` order (read them, never change
        them): a planner's pass over every rival needs no look-up by seat."""
        return sorted(self._rivals.values(), key=attrgetter("bid"))

    def notes(self, seat: str) -> RivalNotes | None:
        return self._rivals.get(seat)

    def leader_name(self, index: int) -> str:
        return self._names[index]

    def leader_index(self, name: str) -> int | None:
        return self._index.get(name)

    def candidates(self, seat: str) -> tuple[list[str], list[str]]:
        """Candidate leader names and base region letters of ``seat``, each sorted."""
        notes = self._rivals.get(seat)
        if notes is None:
            return [], []
        return self._sorted_names(notes.leaders), [LETTERS[i] for i in _bits(notes.bases)]

    def _sorted_names(self, mask: int) -> list[str]:
        """The names of the bits of ``mask``, sorted. A rival's mask may hold a thousand
        names: the bits are read from the mask's binary digits in one go, and the names
        come out sorted already while ``_names`` is (it is, unless a later view brought a
        name that sorts before an earlier one)."""
        if mask < 0:
            return sorted(self._names[i] for i in _bits(mask))
        names = list(compress(self._names, map("1".__eq__, bin(mask)[:1:-1])))
        return names if self._names_sorted else sorted(names)

    def certain(self, seat: str) -> tuple[str, str] | None:
        """(leader, base) of ``seat`` when both are proven, else ``None``."""
        notes = self._rivals.get(seat)
        return None if notes is None else self.certain_of(notes)

    def certain_of(self, notes: RivalNotes) -> tuple[str, str] | None:
        """``certain`` of the rival of ``notes``."""
        if notes.leaders.bit_count() != 1 or notes.bases.bit_count() != 1:
            return None
        return self._names[notes.leaders.bit_length() - 1], LETTERS[notes.bases.bit_length() - 1]

    def base_weights(self, seat: str) -> dict[str, float]:
        """Each candidate region's weight: 1, plus ``HINT_WEIGHT`` per possibly-faked report."""
        notes = self._rivals.get(seat)
        if notes is None:
            return {}
        hints = notes.hints or [0.0] * len(LETTERS)
        return {LETTERS[i]: 1.0 + HINT_WEIGHT * hints[i] for i in _bits(notes.bases)}

    def uncertain_ranked(self, rivals: list[RivalNotes]) -> list[RivalNotes]:
        """The notes of ``rivals`` whose leader and base are not both proven, by descending
        ``confidence`` (ties: in the given order). One pass: a big game has a thousand."""
        ranked: list[tuple[float, RivalNotes]] = []
        for notes in rivals:
            leaders, bases = notes.leaders, notes.bases
            nleaders, nbases = leaders.bit_count(), bases.bit_count()
            if nleaders == 1 and nbases == 1:  # certain
                continue
            if not leaders or not bases:
                score = 0.0
            elif notes.hints is None:
                score = 1.0 / nbases / nleaders
            else:
                score = self.confidence_of(notes)
            ranked.append((-score, notes))
        ranked.sort(key=itemgetter(0))  # stable: ties keep their order
        return [notes for _, notes in ranked]

    def best_guess(self, seat: str) -> tuple[str, str] | None:
        """The most likely (leader, base) of ``seat``: the heaviest region, and the candidate
        name the fewest other rivals could hold (ties: first in sorted order)."""
        notes = self._rivals.get(seat)
        weights = self.base_weights(seat)
        if notes is None or not notes.leaders or not weights:
            return None
        region = max(sorted(weights), key=lambda letter: weights[letter])
        names = self._sorted_names(notes.leaders)
        if len(names) > 1 and len(names) <= 8:
            owners = {name: sum(1 for other in self._rivals.values()
                                if other.leaders >> self._index[name] & 1) for name in names}
            names.sort(key=lambda name: owners[name])
        return names[0], region

    def confidence(self, seat: str) -> float:
        """Probability that ``best_guess`` is right (leaders uniform, bases weighted)."""
        notes = self._rivals.get(seat)
        return 0.0 if notes is None else self.confidence_of(notes)

    def confidence_of(self, notes: RivalNotes) -> float:
        """``confidence`` of the rival of ``notes``."""
        if not notes.leaders or not notes.bases:
            return 0.0
        if notes.hints is None:
            return 1.0 / notes.bases.bit_count() / notes.leaders.bit_count()
        weights = self.base_weights(notes.seat)
        return max(weights.values()) / sum(weights.values()) / notes.leaders.bit_count()

    # ------------------------------------------------------------ update

    def update(self, view: Mapping[str, Any]) -> None:
        """Read one turn's view of this seat (idempotent for a turn already read)."""
        turn = int(view.get("turn", 0))
        if turn <= self.turn or view.get("seat") is None:
            return
        self.turn = turn
        self.seat = str(view["seat"])
        changes = view_changes(view)
        self.no_fakes = bool(changes & {"tasks", "search"})
        self.findable = "search" in changes
        self._read_directory(view)
        self._read_leaders(view)
        if "spies" not in view:
            return
        table = self._read_table(view.get("table"))
        self._exact = []
        if table is not None:
            self._leader_ticks(table)
        for spy in view.get("spies") or ():
            self._spy_result(spy, table, turn)
        self._read_declarations(view.get("declarations") or ())
        self.propagate()

    def _read_directory(self, view: Mapping[str, Any]) -> None:
        """Every row: its name's seat; a surviving rival's notes (new, or its covertness)."""
        rivals, seat_of, me = self._rivals, self._seat_of, self.seat
        surviving: set[str] = set()
        for row in view.get("directory") or ():
            seat, name = str(row["seat"]), str(row["name"])
            seat_of[name] = seat
            if row.get("status") != "surviving" or seat == me:
                continue
            surviving.add(seat)
            notes = rivals.get(seat)
            if notes is None:  # every leader name possible until ``_read_leaders``
                rivals[seat] = RivalNotes(seat, name, int(row.get("bid", 0)),
                                          int(row.get("covertness", 1)), -1)
            else:
                notes.covertness = int(row.get("covertness", notes.covertness))
        if len(surviving) != len(rivals):  # every surviving rival has notes: some have gone
            for seat in [s for s in rivals if s not in surviving]:
                del rivals[seat]

    def _read_leaders(self, view: Mapping[str, Any]) -> None:
        if "leaders" not in view:
            return
        given = list(view.get("leaders") or ())
        if given != self._leaders_read:  # the same names make the same pool
            self._pool = self._leader_pool([str(name) for name in given])
            self._leaders_read = given
        pool = self._pool
        for notes in self._rivals.values():
            notes.leaders &= pool

    def _leader_pool(self, names: list[str]) -> int:
        """The mask of ``names``; names never seen before get the next indices, in sorted
        order."""
        index, known = self._index, self._names
        for name in sorted({name for name in names if name not in index}):
            if known and name < known[-1]:
                self._names_sorted = False
            index[name] = len(known)
            known.append(name)
        pool = 0
        for name in names:
            pool |= 1 << index[name]
        return pool

    def _read_table(self, table: Any) -> _Table | None:
        """One pass over the rows: task rows give the observed columns, DISGUISE and FAKE;
        brotherhood and leader rows are kept for later."""
        if not isinstance(table, Mapping):
            return None
        columns = [str(c) for c in table.get("columns") or LETTERS]
        out = _Table(set(), [], [], dict.fromkeys(columns, 0), dict.fromkeys(columns, 0))
        brotherhoods, leaders = out.brotherhoods, out.leaders
        for row in table.get("rows") or ():
            kind = row.get("kind")
            if kind == "brotherhood":
                brotherhoods.append(row)
            elif kind == "leader":
                leaders.append(row)
            elif kind == "task":
                cells = row.get("cells") or {}
                label = row.get("label")
                if label == "DISGUISE":
                    out.disguise = {c: cells.get(c) for c in columns}
                elif label == "FAKE":
                    out.fake = {c: cells.get(c) for c in columns}
                out.observed |= {c for c in columns if isinstance(cells.get(c), int)}
        return out

    # ------------------------------------------------------------ evidence

    def _leader_ticks(self, table: _Table) -> None:
        """A ticked leader in a column with DISGUISE 0 belongs to a brotherhood counted there."""
        clean = [c for c in sorted(table.observed) if table.disguise.get(c) == 0]
        if not clean:  # a DISGUISE everywhere observed (as in a big game): ticks prove nothing
            return
        ticked = self._ticks(table.leaders, clean)
        for column in clean:
            if ticked[column]:
                self._not_in(table.uncounted(column), ~ticked[column])

    def _ticks(self, rows: list[Mapping[str, Any]], columns: list[str]) -> dict[str, int]:
        """The mask of the known leaders ticked in each of ``columns``."""
        index = self._index
        ticked = dict.fromkeys(columns, 0)
        for row in rows:
            cells = row.get("cells") or {}
            if "✓" in cells.values() and row.get("label") in index:
                bit = 1 << index[row["label"]]
                for column in columns:
                    if cells.get(column) == "✓":
                        ticked[column] |= bit
        return ticked

    def _not_in(self, seats: list[str], keep: int) -> None:
        """Narrow the leaders of the rivals of ``seats`` to ``keep``."""
        rivals = self._rivals
        for seat in seats:
            notes = rivals.get(seat)
            if notes is not None:
                notes.leaders &= keep

    def _spy_result(self, spy: Mapping[str, Any], table: _Table | None, turn: int) -> None:
        task, result = spy.get("task"), spy.get("result")
        if spy.get("killed") or not isinstance(task, Mapping) or not isinstance(result, str):
            return
        kind = task.get("task")
        if kind == "HUNT":
            self._hunt(result)
        elif kind == "FOLLOW" and table is not None:
            self._follow(result, table)
        elif kind == "SEARCH" and table is not None:
            self._search(task, result, int(spy.get("skill", 0)), turn, table)

    def _hunt(self, result: str) -> None:
        match = _HUNT_BASE.match(result)
        if match:
            notes = self._rival_named(match["y"])
            if notes is not None:
                self._set_base(notes, region_bit(match["r"]))
            return
        match = _HUNT_LEADER.match(result)
        if match:
            notes = self._rival_named(match["y"])
            index = self._index.get(match["l"])
            if notes is not None and index is not None:
                self._set_leader(notes, 1 << index)

    def _follow(self, result: str, table: _Table) -> None:
        match = _FOLLOW.match(result)
        if not match or match["l"] not in self._index:
            return
        not_leader = ~(1 << self._index[match["l"]])
        if match["y"] is not None:
            notes = self._rival_named(match["y"])
            if notes is not None:
                notes.leaders &= not_leader
            return
        column = match["r"]
        if column not in table.observed:
            return
        self._not_in(table.uncounted(column), not_leader)

    def _search(self, task: Mapping[str, Any], result: str, skill: int, turn: int,
                table: _Table) -> None:
        letter = task.get("region")
        if not isinstance(letter, str) or letter not in LETTERS or letter not in table.observed:
            return
        bit = region_bit(letter)
        clean = self.no_fakes or table.fake.get(letter) == 0
        found = _SEARCH_FOUND.match(result)
        if found:
            notes = self._rival_named(found["y"])
            if notes is None:
                return
            if not clean:
                notes.hints = notes.hints or [0.0] * len(LETTERS)
                notes.hints[LETTERS.index(letter)] += 1
                return
            self._set_base(notes, bit)
            self._exact.append((bit, int(found["n"])))
            named = self._rivals.get(str(task.get("brotherhood")))
            if named is notes:
                return
            if named is not None and (not self.findable or skill * turn > named.covertness):
                named.bases &= ~bit
            self._exclude_below(bit, notes.covertness)
            return
        own = _SEARCH_OWN.match(result)
        if own:
            self._exact.append((bit, 0))
            return
        none = _SEARCH_NONE.match(result)
        if none and clean:
            self._exact.append((bit, int(none["n"])))
            if self.findable:
                self._exclude_below(bit, skill * turn)

    def _exclude_below(self, bit: int, covertness: int) -> None:
        """No rival less covert than ``covertness`` has its base in the searched region."""
        for notes in self._rivals.values():
            if notes.covertness < covertness:
                notes.bases &= ~bit

    def _read_declarations(self, declarations: Iterable[Mapping[str, Any]]) -> None:
        for line in declarations:
            outcome = str(line.get("outcome", ""))
            if not outcome.startswith("incorrect"):
                continue
            notes = self._rivals.get(str(line.get("brotherhood")))
            index = self._index.get(str(line.get("leader")))
            letter = str(line.get("region", ""))
            if notes is not None and index is not None and letter in LETTERS:
                pair = (index, LETTERS.index(letter))
                if pair not in notes.nogoods:
                    notes.nogoods = (*notes.nogoods, pair)

    # ------------------------------------------------------------ propagation

    def _rival_named(self, name: str) -> RivalNotes | None:
        seat = self._seat_of.get(name)
        return None if seat is None else self._rivals.get(seat)

    def _set_base(self, notes: RivalNotes, bit: int) -> None:
        if not notes.bases & bit:
            self.contradictions += 1
        notes.bases = bit

    def _set_leader(self, notes: RivalNotes, bit: int) -> None:
        if not notes.leaders & bit:
            self.contradictions += 1
        notes.leaders = bit

    def _apply_exact(self) -> bool:
        """A clean SEARCH count is the exact number of rival bases in its region this turn."""
        changed = False
        for bit, count in self._exact:
            possible = [n for n in self._rivals.values() if n.bases & bit]
            sure = [n for n in possible if n.bases == bit]
            if len(sure) > count or len(possible) < count:
                self.contradictions += 1
            elif len(sure) == count:
                for notes in possible:
                    if notes.bases != bit:
                        notes.bases &= ~bit
                        changed = True
            elif len(possible) == count:
                for notes in possible:
                    notes.bases = bit
                changed = changed or bool(possible)
        return changed

    def _apply_nogoods(self) -> None:
        for notes in self._rivals.values():
            for index, region in notes.nogoods:
                if notes.leaders == 1 << index:
                    notes.bases &= ~(1 << region)
                if notes.bases == 1 << region:
                    notes.leaders &= ~(1 << index)

    def _leader_singles(self) -> bool:
        """Naked singles leave every other rival; hidden singles (one owner) are assigned."""
        rivals = list(self._rivals.values())
        assigned = 0
        for notes in rivals:
            if notes.leaders.bit_count() == 1:
                if assigned & notes.leaders:
                    self.contradictions += 1
                assigned |= notes.leaders
        others = ~assigned
        changed = False
        if assigned:
            for notes in rivals:
                if notes.leaders & assigned and notes.leaders.bit_count() > 1:
                    notes.leaders &= others
                    changed = True
        hidden = _held_once([notes.leaders for notes in rivals]) & others
        if hidden:  # else no rival has a hidden single
            for notes in rivals:
                single = notes.leaders & hidden
                if notes.leaders.bit_count() > 1 and single.bit_count() == 1:
                    notes.leaders = single
                    changed = True
        return changed

    def _repair(self) -> None:
        """An emptied candidate set means a bug or a lie: count it and forget that rival's notes."""
        for notes in self._rivals.values():
            if not notes.leaders or not notes.bases:
                self.contradictions += 1
                notes.leaders = notes.leaders or self._pool
                notes.bases = notes.bases or ALL_REGIONS
                notes.nogoods = ()

    def propagate(self) -> None:
        """Run every rule to a fixed point (each pass is O(rivals) big-integer operations)."""
        for _ in range(4 * len(LETTERS)):
            self._apply_nogoods()
            changed = self._apply_exact()
            changed = self._leader_singles() or changed
            self._repair()
            if not changed:
                break
