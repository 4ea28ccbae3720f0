"""Spy vs Spy's rules for players (``core.plugin.RulesPage``): the rules page's template and
each task's rule in one line, which the order form shows beside the task select.

The lines follow the spec (rules/spy-vs-spy.md §5.2, §6 T1-T11) in resolution order, so the
rules page can list them as they run; the page itself (templates/spyvsspy/rules.html)
gives the whole of each task.
"""

from __future__ import annotations

from spyhouse.core.plugin import RulesPage
from spyhouse.games.spyvsspy.model import Task

#: Each task's rule in one line, in the order the tasks are carried out (§5.2).
TASK_HELP: dict[str, str] = {
    Task.HIDE: "Lie low in a region: never hunted and unseen by rivals, but sees and earns "
               "nothing. A leader cannot hide: he WORKs there instead.",
    Task.COVERT: "Add this spy's skill to your brotherhood's covertness, for good: hunters "
                 "and searchers pick the least covert brotherhood first.",
    Task.TRAIN: "Raise the spy's skill by the region's Train value (Academy +3) for 2 gp "
                "× n²; a spy short of gold trains less.",
    Task.GUARD: "Shield your lowest-skill spy in the region (not the leader, a hider, a "
                "follower or a guard) from HUNT; the guard is safe too.",
    Task.DISGUISE: "Be counted as another brotherhood (the one you name, or a random one) "
                   "in rivals' reports this turn.",
    Task.FOLLOW: "Go wherever a rival leader goes this turn and learn whether he was "
                 "disguised, and as whom. Leaders cannot FOLLOW.",
    Task.HUNT: "Kill the least covert rival spy of lower skill in the region and learn its "
               "brotherhood's base or leader. Highest skill hunts first.",
    Task.FAKE: "Plant a fake base in the region for this turn: rivals' SEARCHes there may "
               "report it as yours.",
    Task.SEARCH: "Count the bases in the region (rivals' fakes included) and name one: the "
                 "least covert, or the brotherhood you name if it is there.",
    Task.RECRUIT: "In the Ghetto: pay as many gp as you have spies for a new spy of skill 1 "
                  "to 3, who takes orders from next turn.",
    Task.WORK: "Earn the spy's skill plus the region's Work value in gp (Industrial pays "
               "most). Spies without orders WORK in a random region.",
}

RULES = RulesPage(template="rules.html", order_help=TASK_HELP)

__all__ = ["RULES", "TASK_HELP"]
