"""Why a Spy vs Spy turn came out as it did, step by step, for the replay (``GamePages.explain``).

Read from the host view after the turn: its ``explain`` key (the engine's own record of
S1, S3, each task and T7's and T9's choices, ``resolve._explained``), its directory,
news and secrets. Nothing is computed again that the engine decided: each line says
what the engine recorded, in the game's words (brotherhood, spy, region, covertness).
Pure: views in, sentences out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from spyhouse.core.plugin import Explanation
from spyhouse.games.spyvsspy.model import (
    REGION_INFO,
    SPY2_REMOVED,
    TASKS,
    Region,
    Task,
    view_changes,
)

#: How many brotherhoods the set-up's explanation lists.
SETUP_LISTED = 40

_TASK_STEP = {task: f"T{i}" for i, task in enumerate(TASKS, start=1)}

_WHY_NOT = {
    "leader": "a leader, never hunted",
    "guard": "guarding, never hunted",
    "hide": "hiding, never hunted",
    "follow": "following a leader, never hunted",
    "guarded": "guarded, never hunted",
    "huntable": "huntable",
}


def _region(letter: Any) -> str:
    """"D Docks" for "D"."""
    text = str(letter)
    return f"{text} {REGION_INFO[Region(text)].name}" if text in Region.__members__ else text


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n} {one if n == 1 else (many or one + 's')}"


class _Names:
    """Brotherhood names by seat id, from the view's directory."""

    def __init__(self, view: Mapping[str, Any]) -> None:
        self.names = {str(row.get("seat")): str(row.get("name"))
                      for row in view.get("directory") or () if isinstance(row, Mapping)}

    def __call__(self, seat: Any) -> str:
        return self.names.get(str(seat), str(seat))

    def spy(self, seat: Any, number: Any, skill: Any = None) -> str:
        ref = f"{self(seat)}#{number}"
        return ref if skill is None else f"{ref} (skill {skill})"


def explain_turn(view: Mapping[str, Any], orders: Mapping[str, Any] | None,
                 entry: int) -> list[Explanation]:
    """The explanation of record entry ``entry`` from the host view after it."""
    names = _Names(view)
    record = view.get("explain")
    if entry == 0 or not isinstance(record, Mapping):
        return _setup(view, names)
    changes = view_changes(view)
    out = [_declarations(view, record, names)]
    if record.get("over"):
        out.append(Explanation("S2 Game over", tuple(
            [*(str(line) for line in view.get("news") or () if str(line).startswith("game over")),
             "One or no brotherhood survived the declarations, so no task was run."])))
        return out
    out.append(_placement(view, record, orders, names))
    tasks: Mapping[str, Any] = record.get("tasks") or {}
    for task in TASKS:
        if "tasks" in changes and task in SPY2_REMOVED:
            continue
        title = f"{_TASK_STEP[task]} {task.value}"
        if task is Task.HUNT:
            out.append(Explanation(title, tuple(_hunt(record, names, "guard" in changes))))
        elif task is Task.SEARCH:
            out.append(Explanation(title, tuple(
                _search(record, names, "search" in changes, view))))
        else:
            out.append(Explanation(title, tuple(_acts(task, tasks.get(task.value), names))))
    news = [str(line) for line in view.get("news") or ()]
    out.append(Explanation("S4 End of turn", tuple(
        news or ["No news this turn: nobody was eliminated or killed."])))
    return out


# ------------------------------------------------------------------ set-up, S1, S3


def _setup(view: Mapping[str, Any], names: _Names) -> list[Explanation]:
    """Entry 0: each brotherhood's leader and base, as the set-up gave them (§4)."""
    seats: Mapping[str, Any] = view.get("seats") or {}
    options = view.get("options") or {}
    chosen = (options.get("setup") or {}).get("bases") or {}
    how = "chosen" if options.get("base_choice", "choose") == "choose" else "drawn"
    lines = []
    for seat in list(seats)[:SETUP_LISTED]:
        info = seats[seat] or {}
        base = _region(info.get("base"))
        source = "chosen" if how == "chosen" and seat in chosen else "drawn at random"
        lines.append(f"{names(seat)}: leader {info.get('leader')}, base {base} ({source}).")
    if len(seats) > SETUP_LISTED:
        lines.append(f"… and {_plural(len(seats) - SETUP_LISTED, 'more brotherhood')}.")
    lines.append("Every brotherhood starts with 20 gp, covertness 1 and nine spies "
                 "(skills 4 3 3 2 2 2 1 1 1; #1 is the leader).")
    return [Explanation("Set-up: leaders and bases", tuple(lines))]


def _declarations(view: Mapping[str, Any], record: Mapping[str, Any],
                  names: _Names) -> Explanation:
    """S1: each declaration, right or wrong, its outcome, and who fell in D1 or D2."""
    lines = []
    for declarer, target, leader, region, correct, outcome in record.get("declarations") or ():
        verdict = "correct" if correct else "incorrect"
        lines.append(f"{names(declarer)} declared {names(target)}: {leader}, base "
                     f"{_region(region)}: {verdict}. {names(declarer)} was told \"{outcome}\".")
    turn = record.get("turn")
    for row in view.get("directory") or ():
        fell = row.get("eliminated")
        if isinstance(fell, Mapping) and fell.get("turn") == turn:
            why = ("more incorrect declarations than Lives (D1)" if fell.get("phase") == "D1"
                   else "a valid correct declaration on it (D2)")
            lines.append(f"{row.get('name')} was eliminated: {why}.")
    return Explanation("S1 Declarations", tuple(lines or ["No declarations this turn."]))


def _placement(view: Mapping[str, Any], record: Mapping[str, Any],
               orders: Mapping[str, Any] | None, names: _Names) -> Explanation:
    """S3: no-shows, defaults and conversions (the notices), then every spy is placed."""
    lines = []
    if orders is not None:
        missing = sorted((seat for seat, sheet in orders.items() if sheet is None),
                         key=lambda seat: names(seat).casefold())
        if missing:
            lines.append("No orders received from " + ", ".join(names(s) for s in missing)
                         + ": every spy of theirs worked in a random region.")
    listed = record.get("listed_notices") or ()
    for seat, text in listed:
        lines.append(f"{names(seat)}: {text}.")
    more = int(record.get("notices") or 0) - len(listed)
    if more > 0:
        lines.append(f"… and {_plural(more, 'more notice')}.")
    lines.append("Every spy then went to its region for the whole turn (RECRUIT to G Ghetto, "
                 "FOLLOW to the followed leader's region).")
    return Explanation("S3 Orders and placement", tuple(lines))


def _acts(task: Task, acts: Mapping[str, Any] | None, names: _Names) -> list[str]:
    """A task's acts in canonical order, each with its result (the first few of many)."""
    if not acts:
        return [f"No spy did {task.value} this turn."]
    lines = []
    listed = acts.get("acts") or ()
    for seat, number, skill, region, result, killed_by in listed:
        where = "" if task is Task.RECRUIT else f" in {_region(region)}"
        text = result or "did nothing"
        if killed_by:
            text = (f"{text}; then killed by a hunter of {killed_by}" if result
                    else f"killed by a hunter of {killed_by} before acting")
        lines.append(f"{names.spy(seat, number, skill)}{where}: {text}.")
    more = int(acts.get("count") or 0) - len(listed)
    if more > 0:
        lines.append(f"… and {_plural(more, 'more spy', 'more spies')} did {task.value}.")
    return lines


# ------------------------------------------------------------------ T7 HUNT


def _target(names: _Names, ref: Sequence[Any], spy2: bool) -> str:
    seat, number, skill, covertness, guarded = ref
    defence = f", defence {skill * 2} (guarded)" if spy2 and guarded else ""
    return (f"{names.spy(seat, number)} (skill {skill}{defence}, "
            f"{names(seat)} covertness {covertness})")


def _hunt(record: Mapping[str, Any], names: _Names, spy2: bool) -> list[str]:
    """T7, region by region: who was there, the hunting order, and each hunter's target
    and why (the named brotherhood, else the least covert, then lowest skill, then drawn)."""
    regions = record.get("hunt") or ()
    if not regions:
        return ["No spy did HUNT this turn."]
    lines = []
    for region in regions:
        lines.extend(_hunt_region(region, names, spy2))
    return lines


def _hunt_region(region: Mapping[str, Any], names: _Names, spy2: bool) -> list[str]:
    where = _region(region.get("region"))
    levels = ", ".join(f"covertness {c}: {_plural(n, 'spy', 'spies')}"
                       for c, n in region.get("covertness") or ())
    lines = [f"In {where}: {_plural(int(region.get('spies') or 0), 'spy', 'spies')} present; "
             f"huntable by their brotherhood's covertness: {levels or 'none'}."]
    listed = region.get("listed")
    if listed is not None:
        for seat, number, skill, covertness, guarded, task, why in listed:
            reason = _WHY_NOT.get(why, why)
            if spy2 and why == "huntable" and guarded:
                reason = f"huntable, guarded (defence {skill * 2})"
            lines.append(f"  {names.spy(seat, number)} (skill {skill}, covertness "
                         f"{covertness}) {task}: {reason}.")
    else:
        reasons = region.get("reasons") or {}
        lines.append("  Never hunted here: " + (", ".join(
            f"{n} {_WHY_NOT.get(why, why).split(',')[0]}" for why, n in reasons.items()
            if why != "huntable") or "none") + ".")
    hunters = region.get("hunters") or ()
    order = ", ".join(
        f"{names.spy(h['seat'], h['spy'])} (skill {h['skill']}, covertness {h['covertness']}, "
        f"{h['gp']} gp{'; place drawn' if h.get('drawn') else ''})" for h in hunters)
    lines.append("  Hunting order (highest skill first, then least covert brotherhood, then "
                 f"poorest, remaining ties drawn): {order}.")
    for h in hunters:
        lines.append("  " + _hunter_line(h, names, spy2))
    unlisted = region.get("unlisted") or {}
    more = int(unlisted.get("hunters") or 0)
    if more:
        lines.append(f"  … and {_plural(more, 'more hunter')} later in the order: "
                     f"{int(unlisted.get('kills') or 0)} killed a spy, "
                     f"{int(unlisted.get('none') or 0)} found no one to hunt, "
                     f"{int(unlisted.get('dead') or 0)} were killed before their turn.")
    return lines


def _hunter_line(h: Mapping[str, Any], names: _Names, spy2: bool) -> str:
    who = names.spy(h["seat"], h["spy"], h["skill"])
    if h.get("killed"):
        return f"{who} was killed by an earlier hunter before its turn and did not hunt."
    named = h.get("named")
    eligible = h.get("eligible")
    listed = ""
    if eligible is not None:
        listed = (" Eligible: " + ", ".join(names.spy(s, n) for s, n in eligible) + "."
                  if eligible else " Eligible: none.")
    target = h.get("target")
    lower = "defence" if spy2 else "skill"
    if target is None:
        why = (f"no spy of another brotherhood here was eligible (not a leader, not guarding, "
               f"hiding or following{'' if spy2 else ', not guarded'}, {lower} lower than "
               f"{h['skill']})")
        return f"{who} found no one to hunt: {why}.{listed}"
    victim = _target(names, target, spy2)
    seat, _, skill, covertness, guarded = target
    value = skill * 2 if spy2 and guarded else skill
    if h.get("how") == "named":
        why = (f"it named {names(named)}, which had eligible spies here; {lower} {value} is "
               f"the lowest of them")
    else:
        why = ("" if named is None else
               f"it named {names(named)}, which had no eligible spy here, so any brotherhood; ")
        why += (f"{names(seat)}'s covertness {covertness} is the lowest among the eligible, "
                f"and {lower} {value} the lowest of those")
    tied = int(h.get("tied") or 0)
    if tied > 1:
        why += f", drawn at random among {tied} tied"
    return f"{who} killed {victim}: {why}.{listed} Result: \"{h.get('result')}\"."


# ------------------------------------------------------------------ T9 SEARCH


_HOW = {
    "fake": "a fake entry planted here by another brotherhood, drawn at random among {tied} "
            "(fakes are drawn, not chosen by covertness; real bases are not returned while "
            "one is here)",
    "named faking": "the named brotherhood's base is here and it planted a fake here",
    "named": "the named brotherhood's base is here{spy2}",
    "least covert": "the least covert base here other than its own{spy2}",
    "own": "no other base{fake} here, so only its own base",
    "none": "no{findable} base other than its own here",
}


#: Each T9 rule in a few words, for counts of searchers that are not listed.
_RULE = {"fake": "a foreign fake entry", "named faking": "the named base, faking",
         "named": "the named base", "least covert": "the least covert base",
         "own": "only their own base", "none": "no base found"}


def _search(record: Mapping[str, Any], names: _Names, spy2: bool,
            view: Mapping[str, Any]) -> list[str]:
    """T9, region by region: the bases and fakes a searcher saw, and what each was told."""
    regions = record.get("search") or ()
    if not regions:
        return ["No spy did SEARCH this turn."]
    turn = int(record.get("turn") or 0)
    lines = []
    for region in regions:
        where = _region(region.get("region"))
        bases = ", ".join(f"{names(seat)} (covertness {c})"
                          for seat, c in region.get("listed_bases") or ())
        more = int(region.get("bases") or 0) - len(region.get("listed_bases") or ())
        if more > 0:
            bases += f", … and {more} more"
        line = f"In {where}: bases here, least covert first: {bases or 'none'}"
        if not spy2:
            fakes = ", ".join(names.spy(s, n) for s, n in region.get("listed_fakes") or ())
            more = int(region.get("fakes") or 0) - len(region.get("listed_fakes") or ())
            if more > 0:
                fakes += f", … and {more} more"
            line += f"; fake entries planted (T8): {fakes or 'none'}"
        lines.append(line + ".")
        for s in region.get("searchers") or ():
            lines.append("  " + _searcher_line(s, names, spy2, turn))
        unlisted: Mapping[str, int] = region.get("unlisted") or {}
        if unlisted:
            counts = ", ".join(f"{n} by the rule \"{_RULE.get(how, how)}\""
                               for how, n in sorted(unlisted.items()))
            lines.append(f"  … and {_plural(sum(unlisted.values()), 'more searcher')}: "
                         f"{counts}.")
    if spy2:
        lines.append("A base is findable when the searcher's skill × the turn number exceeds "
                     "its brotherhood's covertness; \"bases here\" counts the real bases other "
                     "than the searcher's own.")
    else:
        lines.append("\"bases here\" counts the other brotherhoods' bases and every fake entry "
                     "of another brotherhood (one per FAKE); the searcher's own are left out.")
    return lines


def _searcher_line(s: Mapping[str, Any], names: _Names, spy2: bool, turn: int) -> str:
    who = names.spy(s["seat"], s["spy"], s["skill"])
    named = s.get("named")
    how = str(s.get("how"))
    tied = int(s.get("tied") or 0)
    power = f" and findable (skill × turn = {int(s['skill']) * turn})" if spy2 else ""
    why = _HOW.get(how, how).format(tied=tied, spy2=power, fake="" if spy2 else " and no fake",
                                    findable=" findable" if spy2 else "")
    if how == "fake" and tied == 1:
        why = ("the only fake entry planted here by another brotherhood (real bases are not "
               "returned while one is here)")
    if how == "least covert" and tied > 1:
        why += f", drawn at random among {tied} tied"
    if named is not None and how == "fake":
        why = (f"it named {names(named)}, but while another brotherhood's fake is here a named "
               f"base is returned only if that brotherhood also faked here; so {why}")
    elif named is not None and how not in ("named", "named faking"):
        base = " findable" if spy2 else ""
        why = f"it named {names(named)}, which has no{base} base here; so {why}"
    elif named is not None:
        why = f"it named {names(named)}: {why}"
    return f"{who} was told \"{s.get('result')}\": {why}."


__all__ = ["explain_turn"]
