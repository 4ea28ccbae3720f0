"""How the Infiltration bots play Green: learn the facility, share it, vote on evidence, win.

The Greens' one shared plan is a convention every Green bot computes alike from
public facts (the living roster and the turn number), never a private channel:
once a Green knows the GHOST room, two Power generators and the code and carries a
Stinger, it is *ready*, and every ready Green takes the post its rotating role
names this turn (``post``). Roles cycle GHOST, generator 1, generator 2 over the
living players in seat order, shifted by one each turn, so an attempt spoiled by
Reds in the wrong places is followed by a different split next turn, and nobody
camps where the Reds' occupancy report would find them alone.

Until it is ready a Green explores: a Stinger first, then the code, Map data with a
control room (so a hacked answer is caught), and shares what it knows for certain
at Anonymous messaging (``INTEL`` and ``ACCUSE x KILLED v IN room ON TURN n``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from spyhouse.core.rng import Rng, Stream
from spyhouse.games.infiltration.model import ROOMS
from spyhouse.games.infiltration.notebook import GENERALS, GENERATOR, GHOST, LAB, Notebook

NO_LYNCH, NO_REDS_LEFT = "NO LYNCH", "NO REDS LEFT"
SPECIALS = (GHOST, GENERALS, LAB, GENERATOR)
#: The rotating roles: "A" storms the GHOST room, "G0"/"G1" man the first two generators.
_ROLES = ("A", "G0", "G1")


def roles(living: int) -> list[str]:
    """The role of each place in the rotation for ``living`` players."""
    return [_ROLES[i % len(_ROLES)] for i in range(living)]


class GreenPlay:
    """The Green half of an agent, and the helpers both halves share."""

    name: ClassVar[str] = "agent"
    #: Greens (Warriors): chance to strike first at a stranger who walks in on them.
    aggression: ClassVar[float] = 0.0
    #: Suspicion at which a Green votes to lynch / attacks on sight.
    lynch_at: ClassVar[float] = 4.0
    kill_at: ClassVar[float] = 6.0
    #: Greens: strike only on rooms seen or read from a checked Map data, not on hearsay.
    cautious: ClassVar[bool] = True
    #: Greens: chance to head for a Validity check to test a fitting accusation.
    check_rate: ClassVar[float] = 0.5

    def __init__(self, seat: str, seed: int) -> None:
        self.seat = seat
        self.rng = Rng(seed)
        self.notebook = Notebook()
        self._turn = -1
        self._stream: Stream | None = None
        self.shared = ""
        self.shared_turn = -99  # the turn of this seat's last message
        self.accused: set[str] = set()
        self.last_room: str | None = None
        self.company: set[str] = set()

    def stream(self, turn: int) -> Stream:
        if self._stream is None or self._turn != turn:
            self._turn = turn
            self._stream = self.rng.stream(turn, f"bot:{self.seat}:{self.name}")
        return self._stream

    def chance(self, turn: int, p: float) -> bool:
        return self.stream(turn).roll(1000) <= int(p * 1000)

    def rank(self, view: Mapping[str, Any]) -> int:
        """This seat's place among the living players (seat order)."""
        return [row["seat"] for row in view["players"] if row["alive"]].index(self.seat)

    def go(self, here: str, room: str, code: str | None = None) -> dict[str, Any]:
        if room == here:
            return {"ready": True}
        order: dict[str, Any] = {"move": room, "ready": True}
        if code is not None:
            order["code"] = code
        return order

    # ------------------------------------------------------------ movement

    def move_green(self, view: Mapping[str, Any]) -> dict[str, Any]:
        here, turn = view["me"]["room"], int(view["turn"])
        relays = self.usable(view, "Anonymous messaging")
        # A message can fail (alert, a hacked terminal): try again only after a pause.
        if relays and turn - self.shared_turn >= 3 and self.has_news(view):
            return self.go(here, self.spread(view, relays))
        checks = [r for r in self.usable(view, "Validity check") if not self.known_hacked(r, turn)]
        if checks and self.notebook.unverified() and self.chance(turn, self.check_rate):
            return self.go(here, self.spread(view, checks))  # test an accusation before voting
        post = self.post(view)
        if post is not None and self.chance(turn, 0.3):
            lead = self.investigate(view, seer=False)
            if lead is not None:
                return self.go(here, lead)
        if post is not None:
            return self.go(here, *post)
        return self.explore_green(view)

    def post(self, view: Mapping[str, Any]) -> tuple[str, str | None] | None:
        """This turn's post under the rotation, once this seat is ready to strike."""
        nb, me, turn = self.notebook, view["me"], int(view["turn"])
        have = nb.sure_of if self.cautious else nb.believed_rooms
        ghost, generators = have(GHOST), have(GENERATOR)
        code = nb.green_code()
        if not ghost or len(generators) < 2 or not me["stinger"]:
            return None
        if code is None and not nb.door_known_open():
            return None
        living = [row["seat"] for row in view["players"] if row["alive"]]
        role = roles(len(living))[(living.index(self.seat) + turn) % len(living)]
        if role == "A":
            return ghost[0], None if nb.door_open else code
        return generators[0 if role == "G0" else 1], None

    def explore_green(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """Not ready yet: fetch a Stinger, then the code, share news, read Map data."""
        nb, me, turn, here = self.notebook, view["me"], int(view["turn"]), view["me"]["room"]
        stream = self.stream(turn)
        lab = nb.believed_rooms(LAB)
        if lab and not me["stinger"]:
            return self.go(here, lab[0])
        generals = nb.believed_rooms(GENERALS)
        if nb.green_code() is None and not nb.door_known_open() and generals:
            return self.go(here, generals[0])
        missing = self.missing_specials(view)
        for feature in missing:  # go and see a special only heard of
            for room in nb.believed_rooms(feature)[:2]:
                if nb.known_feature(room) is None:
                    return self.go(here, room)
        # A guard forecast read last turn says where guards stand after this move.
        guarded = set(nb.guard_plan.values()) if nb.guard_plan_turn == turn - 1 else set()
        maps = [r for r in self.usable(view, "Map data")
                if not self.known_hacked(r, turn) and r not in guarded]
        if maps and missing and self.unknown_rooms():
            return self.go(here, self.spread(view, maps))
        if self.chance(turn, 0.5):
            lead = self.investigate(view)
            if lead is not None:
                return self.go(here, lead)
        unknown = [r for r in self.unknown_rooms() if r not in guarded]
        if unknown:
            return self.go(here, stream.choice(unknown))
        return self.go(here, stream.choice([r for r in ROOMS if r not in guarded] or list(ROOMS)))

    def usable(self, view: Mapping[str, Any], kind: str) -> list[str]:
        """Rooms this seat knows hold a working ``kind`` terminal, canonical order."""
        nb = self.notebook
        return [r for r in nb.believed_rooms(kind) if r not in nb.broken]

    def known_hacked(self, room: str, turn: int) -> bool:
        known = self.notebook.hack_state.get(room)
        return known is not None and known[1] and known[0] >= turn - 3

    def spread(self, view: Mapping[str, Any], rooms: list[str]) -> str:
        """One of ``rooms``, spread over the Greens by seat and turn, not where this seat is."""
        here = view["me"]["room"]
        others = [r for r in rooms if r != here] or rooms
        return others[(self.rank(view) + int(view["turn"])) % len(others)]

    def missing_specials(self, view: Mapping[str, Any]) -> list[str]:
        """The specials this seat still lacks for a strike: unknown ones, and for a
        cautious seat also those it has only heard of."""
        nb = self.notebook
        wanted = [(GHOST, 1), (LAB, 1), (GENERATOR, 2)]
        if nb.green_code() is None:
            wanted.append((GENERALS, 1))
        have = nb.sure_of if self.cautious else nb.believed_rooms
        return [f for f, count in wanted if len(have(f)) < count]

    def unknown_rooms(self) -> list[str]:
        """Rooms nobody has told this seat about (else rooms it only heard of), on floors
        with no special first: specials are on different floors (S5)."""
        nb = self.notebook
        special_floors = {r[0] for r in ROOMS if nb.believed(r) in SPECIALS}
        pool = ([r for r in ROOMS if nb.believed(r) is None]
                or [r for r in ROOMS if nb.known_feature(r) is None])
        return [r for r in pool if r[0] not in special_floors] or pool

    def has_news(self, view: Mapping[str, Any]) -> bool:
        """Whether this seat knows something for certain that no credible message said:
        a killer, the code, a special room, or a handful of other rooms."""
        nb = self.notebook
        if self.pending_accusation(view) is not None:
            return True
        said = [c for c in nb.claims if nb.credible(c)]
        if nb.code is not None and not any(c.code == nb.code for c in said):
            return True
        told = {pair for c in said for pair in c.rooms}
        fresh = [(r, f) for r in ROOMS if (f := nb.known_feature(r)) is not None
                 and (r, f) not in told]
        whole_map = nb.carries_map(int(view["options"]["message_max_chars"]))
        return any(f in SPECIALS for _, f in fresh) or (whole_map and len(fresh) >= 4)

    def pending_accusation(self, view: Mapping[str, Any]) -> tuple[str, str] | None:
        """The next killer this seat can name and has not named yet, with the message
        ``ACCUSE x KILLED v IN room ON TURN n``."""
        nb = self.notebook
        for seat, claim in sorted(nb.culprits.items()):
            if seat not in self.accused and nb.alive.get(seat, False) and seat in nb.names:
                return seat, (f"ACCUSE {nb.names[seat]} KILLED {nb.names[claim.victim]} "
                              f"IN {claim.room} ON TURN {claim.turn}")
        return None

    def investigate(self, view: Mapping[str, Any], *, seer: bool = True) -> str | None:
        """A terminal that can tell who killed whom (or, with ``seer``, who is Red)."""
        nb, turn = self.notebook, int(view["turn"])
        if nb.unsolved_rooms():
            history = self.usable(view, "History")
            if history:
                return self.spread(view, history)
        lost = [s for s in nb.death_turn if s not in nb.corpse_room]
        if lost:
            finders = self.usable(view, "Locator") + self.usable(view, "Superlocator")
            if finders:
                return self.spread(view, finders)
        unchecked = [row["seat"] for row in view["players"] if row["alive"]
                     and row["seat"] != self.seat and row["seat"] not in nb.colour]
        seers = [r for r in self.usable(view, "Seer") if not self.known_hacked(r, turn)]
        if unchecked and seers and seer:
            return self.spread(view, seers)
        return None

    # ------------------------------------------------------------ decision

    def decide_green(self, view: Mapping[str, Any]) -> dict[str, Any]:
        nb, me, turn = self.notebook, view["me"], int(view["turn"])
        choices = view["choices"]
        kill = []
        people = [x for x in choices["kill"] if x in nb.names]
        for target in choices["kill"]:
            guard = target.startswith("Guard-") and me["class"] != "Sneaker"
            evidence = target in nb.names and (nb.colour.get(target) == "RED"
                                               or nb.suspicion.get(target, 0.0) >= self.kill_at)
            if guard or evidence:
                kill.append(target)
        arrival = view.get("arrival") or {}
        newcomers = [x for x in people if x not in self.company]
        nerve = self.aggression if me["class"] == "Warrior" else 0.0
        stayed = arrival.get("room") == self.last_room
        if (len(people) == 1 and newcomers and stayed and people[0] not in kill
                and not nb.trusted(people[0]) and self.chance(turn, nerve)):
            kill.append(people[0])  # a stranger walked in on me: strike first
        return decision_order(self.green_vote(view), kill, self.green_terminal(view))

    def green_vote(self, view: Mapping[str, Any]) -> str:
        nb, turn = self.notebook, int(view["turn"])
        options: list[str] = [str(x) for x in view["choices"]["vote"]
                              if x not in (NO_LYNCH, NO_REDS_LEFT)]
        red_count = view.get("red_count")
        dead_reds = sum(1 for seat, colour in nb.colour.items()
                        if colour == "RED" and not nb.alive.get(seat, True))
        psychic = nb.reds_alive_estimate(turn)
        if (red_count is not None and dead_reds >= red_count) or (
                psychic == 0 and not any(nb.colour.get(x) == "RED" for x in options)):
            return NO_REDS_LEFT
        scored = sorted(options, key=lambda s: (-nb.suspicion.get(s, 0.0), s))
        if scored and nb.suspicion.get(scored[0], 0.0) >= self.lynch_at:
            return scored[0]
        backed: dict[str, int] = {}
        for _, choice in nb.last_votes:
            if choice is not None and choice in options:
                backed[choice] = backed.get(choice, 0) + 1
        wagon = sorted(backed, key=lambda s: (-backed[s], s))
        if wagon and backed[wagon[0]] >= 2 and nb.suspicion.get(wagon[0], 0.0) >= 2.0 \
                and not nb.trusted(wagon[0]):
            return wagon[0]
        return NO_LYNCH

    def green_terminal(self, view: Mapping[str, Any]) -> dict[str, Any] | None:
        nb, turn = self.notebook, int(view["turn"])
        info = view["choices"]["terminal"]
        actions, kind = info["actions"], info["type"]
        if "RESTORE" in actions:
            return {"action": "RESTORE"}
        if "USE" not in actions:
            return None
        if kind == "Seer" and not nb.seer_checked(view["me"]["room"], turn) \
                and self.chance(turn, 0.5):
            return {"action": "USE", "player": self.seat}  # test the terminal on oneself
        if kind == "Seer":
            return {"action": "USE", "player": self.seer_target(view)}
        if kind == "Map data":
            return self.read_map(view)
        if kind == "Anonymous messaging":
            return self.share(view)
        if kind == "Validity check":
            return self.verify(view)
        if kind == "History":
            rooms = nb.unsolved_rooms()
            if rooms:
                nb.pending_history = rooms[0]
                return {"action": "USE", "room": rooms[0]}
            return None
        if kind == "Locator":
            lost = [s for s in sorted(nb.death_turn) if s not in nb.corpse_room]
            if lost:
                return {"action": "USE", "player": lost[-1]}
            return None
        if kind in ("Psychic", "Superlocator", "Guard"):
            return {"action": "USE"}
        return None

    def seer_target(self, view: Mapping[str, Any]) -> str:
        """The most suspect unchecked living player; or, when every Red may already be
        dead, an unchecked corpse (counting dead Reds is what makes NO REDS LEFT safe)."""
        nb, turn = self.notebook, int(view["turn"])
        living = [str(row["seat"]) for row in view["players"]
                  if row["alive"] and row["seat"] != self.seat]
        dead = [str(row["seat"]) for row in view["players"]
                if not row["alive"] and row["seat"] not in nb.colour]
        reds = view.get("red_count")
        dead_reds = sum(1 for s, c in nb.colour.items() if c == "RED" and not nb.alive.get(s))
        if dead and reds is not None and dead_reds + len(dead) >= reds \
                and self.chance(turn, 0.5):
            return max(dead, key=lambda s: (nb.suspicion.get(s, 0.0), s in nb.struck_down))
        unchecked = [s for s in living if s not in nb.colour] or living
        return max(sorted(unchecked), key=lambda s: nb.suspicion.get(s, 0.0))

    def read_map(self, view: Mapping[str, Any]) -> dict[str, Any] | None:
        """Four unknown rooms and this room as the control: a hacked terminal names a
        wrong feature for every room, so a right control proves the whole answer."""
        nb, turn, here = self.notebook, int(view["turn"]), view["me"]["room"]
        unknown = [r for r in self.unknown_rooms() if r != here]
        if not unknown:
            return None
        rooms = self.stream(turn).ordering(unknown)[:4]
        nb.pending_map = (here, "Map data")
        return {"action": "USE", "rooms": [here, *rooms]}

    def share(self, view: Mapping[str, Any]) -> dict[str, Any] | None:
        limit = int(view["options"]["message_max_chars"])
        text = self.message(view, limit)
        if text is None:
            return None
        self.shared_turn = int(view["turn"])
        return {"action": "USE", "text": text}

    def message(self, view: Mapping[str, Any], limit: int) -> str | None:
        """What to broadcast: a killer this seat can name, news, or Seer-found Reds."""
        nb = self.notebook
        accusation = self.pending_accusation(view)
        if accusation is not None and len(accusation[1]) <= limit:
            self.accused.add(accusation[0])
            return accusation[1]
        news = nb.green_intel(limit)
        if news and news != self.shared and self.has_news(view):
            self.shared = news
            return news
        reds = [nb.names[s] for s in sorted(nb.colour) if nb.colour[s] == "RED"
                and nb.alive.get(s, False) and s not in self.accused]
        self.accused.update(s for s in nb.colour if nb.colour[s] == "RED")
        if reds:
            return ("ACCUSE " + " ".join(reds))[:limit].strip()
        return None

    def verify(self, view: Mapping[str, Any]) -> dict[str, Any] | None:
        """Test a traded code, else the latest unchecked accusation that fits: the
        accused WAS IN the room ON the TURN of the killing (§10 Q2)."""
        nb = self.notebook
        code = nb.green_code()
        if code is not None and nb.code is None and code not in nb.code_checks:
            nb.pending_statement = f"CODE IS {code}"
            return {"action": "USE", "statement": nb.pending_statement}
        claims = nb.unverified()
        if claims and self.check_rate:
            claim = claims[-1]
            nb.pending_claim = claim
            return {"action": "USE", "statement": f"{nb.names[claim.accused]} WAS IN "
                                                  f"{claim.room} ON TURN {claim.turn}"}
        return None


def decision_order(vote: str, kill: list[str],
                   terminal: dict[str, Any] | None) -> dict[str, Any]:
    """A bot's Decision order, READY, with only the parts it uses (§15.1)."""
    order: dict[str, Any] = {"vote": vote, "ready": True}
    if kill:
        order["kill"] = kill
    if terminal is not None:
        order["terminal"] = terminal
    return order
