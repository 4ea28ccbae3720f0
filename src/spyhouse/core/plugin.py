"""The game plugin contract: everything the platform knows about a game, as one typed value.

A game registers once, as a frozen ``GamePlugin`` (the entry-point group
``spyhouse.games``, or ``registry.register`` for a game a test defines): its
ruleset, its computer players, its words, its options, its pure page builders
(``GamePages``), its templates and static folder, its one-click offer and its
text renderers. The platform reads nothing else about a game: no module is
imported by name, no attribute is probed, no template's existence decides
anything. Every optional part is a typed field with a default.

Everything here is pure data and pure functions of views (JSON mappings): no
I/O, no clock, no global randomness. Page builders receive a seat's view and
the platform's plain facts (``SeatFacts``), never a state or a database row.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from spyhouse.core.errors import OptionsError
from spyhouse.core.ruleset import Ruleset, SeatId

# ---------------------------------------------------------------- options


OptionKind = Literal["choice", "number", "text", "flag"]


@dataclass(frozen=True, slots=True)
class OptionField:
    """One game option as the create form offers it, declared once with its type.

    ``key`` is the options JSON key (``parse_options`` reads it); the form field is
    ``option-<key>``. A blank or default answer leaves the key out, so the rules'
    own default applies. ``minimum``/``maximum`` bound a number; ``choices`` are
    (value, label) pairs of a choice; a flag's value is ``True`` or ``False``.
    ``scale`` multiplies a number on its way into the options (minutes -> seconds).
    ``when`` names another option and the values of it under which this one applies
    (the create form greys it out otherwise, and it is left out).
    """

    key: str
    label: str
    kind: OptionKind = "choice"
    default: str = ""
    choices: tuple[tuple[str, str], ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    scale: int = 1
    help: str = ""
    when: tuple[str, tuple[str, ...]] | None = None
    #: a number a rule needs under ``when`` (e.g. a custom pace's lengths)
    required: bool = False
    #: the form field's own name where another game's option has the same key: the create
    #: form holds every game's group, and radios of one form with one name are one group
    #: (checking one unchecks the other game's); "" = ``option-<key>``
    form_name: str = ""

    @property
    def form_key(self) -> str:
        return self.form_name or f"option-{self.key}"

    @property
    def name(self) -> str:
        """The label without its parenthesis, for messages ("Reds: ...")."""
        return self.label.split(" (")[0]

    def applies(self, answers: Mapping[str, str]) -> bool:
        if self.when is None:
            return True
        other, values = self.when
        return answers.get(other, "") in values

    def value(self, text: str) -> Any:
        """The option's JSON value for the form's ``text``; ``None`` leaves it out.
        ``OptionsError`` in the form's own terms for a bad answer."""
        text = text.strip()
        if self.kind == "flag":
            if text in ("", self.default):
                return None
            if self.choices and text not in dict(self.choices):
                raise OptionsError(f"{self.name}: choose one of "
                                   f"{', '.join(value for value, _ in self.choices)}")
            return text in ("yes", "1", "on", "true")
        if not text:
            if self.required:
                raise OptionsError(f"{self.name}: give it{self._span()}")
            return None
        if self.choices:
            if text not in dict(self.choices):
                known = ", ".join(value for value, _ in self.choices)
                raise OptionsError(f"{self.name}: choose one of {known}")
            if text == self.default:
                return None
            return int(text) * self.scale if self.kind == "number" else text
        if self.kind == "number":
            low = self.minimum if self.minimum is not None else 0
            high = self.maximum
            if not text.isdecimal() or int(text) < low or (high is not None and int(text) > high):
                raise OptionsError(f"{self.name}:{self._span()}")
            if text == self.default:
                return None
            return int(text) * self.scale
        return text

    def _span(self) -> str:
        """" a whole number from 1 to 5" (empty for other kinds)."""
        if self.kind != "number" or self.choices:
            return ""
        low = self.minimum if self.minimum is not None else 0
        if self.maximum is None:
            return f" a whole number of at least {low}"
        return f" a whole number from {low} to {self.maximum}"


def options_from_form(fields: Sequence[OptionField], answers: Mapping[str, str]
                      ) -> dict[str, Any]:
    """The options JSON a create form's answers stand for (``option-<key>`` fields).

    Each field's declared type decides: choices must be one of theirs, numbers lie
    in their range, flags are yes or no; blank or default answers are left out."""
    plain = {f.key: answers.get(f.form_key, f.default) for f in fields}
    options: dict[str, Any] = {}
    for spec in fields:
        if not spec.applies(plain):
            continue
        value = spec.value(plain[spec.key])
        if value is not None:
            options[spec.key] = value
    return options


# ---------------------------------------------------------------- words


@dataclass(frozen=True, slots=True)
class GameWords:
    """What the game calls things, for the platform's pages and mails."""

    #: what one seat is ("brotherhood", "country", "agent", "player")
    seat: str = "player"
    seats: str = "players"
    #: the join form's label for the seat's public name
    seat_name_label: str = "Name players see"
    #: one resolution step ("turn", "phase", "move")
    turn: str = "turn"
    #: the names computer players take, in order (each game's own kind of name)
    computer_names: tuple[str, ...] = ("Agent Ash", "Agent Birch", "Agent Cedar",
                                       "Agent Dogwood", "Agent Elm", "Agent Fir")
    #: the secrets mail's line naming what it holds ("your brotherhood's secrets")
    secrets: str = "your secrets"
    #: one line about the game for the welcome page
    blurb: str = ""


# ---------------------------------------------------------------- one-click games


@dataclass(frozen=True, slots=True)
class QuickOffer:
    """A one-click game against computer players, as the lobby offers it.

    ``title`` and ``seat_name`` may name the player as ``{username}``. ``strategies``,
    when given, lets the player choose the computer's strategy (every computer seat
    plays it); ``option_keys`` names declared options the player may also set there
    (Spy or Lie's board size). ``with_computer`` writes the chosen strategy into the
    options when the rules record it (Spy or Lie's ``computer`` option)."""

    label: str
    bots: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    title: str = "{username} vs the computer"
    seat_name: str = "{username}"
    strategies: tuple[tuple[str, str], ...] = ()
    option_keys: tuple[str, ...] = ()
    with_computer: Callable[[Mapping[str, Any], str], dict[str, Any]] | None = None


# ---------------------------------------------------------------- seat set-up


@dataclass(frozen=True, slots=True)
class SeatSetup:
    """A player's own secret choice before the start (Spy vs Spy's base region).

    ``key`` is the form field and the key of the seat's ``setup``; ``choices`` are
    (value, label) pairs; a blank answer leaves the choice to the rules. ``applies``
    says from the game's options whether players choose at all."""

    key: str
    label: str
    choices: tuple[tuple[str, str], ...]
    applies: Callable[[Mapping[str, Any]], bool] = lambda options: True
    blank_label: str = "random"
    not_chosen: str = "this is drawn at random in this game"
    #: the refusal of a value that is not a choice, with ``{value}``
    unknown: str = "unknown choice {value}"


# ---------------------------------------------------------------- pages


@dataclass(frozen=True, slots=True)
class Refusal:
    """A sheet the rules (or the platform) refused: the form as sent, the sheet it stood
    for and the messages, to show beside their rows with nothing saved."""

    fields: Mapping[str, str]
    sheet: Any
    messages: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SeatFacts:
    """The platform's plain facts about a seat's page, beside its view.

    ``can_order``: the game runs and awaits this seat now; ``orders``: the accepted
    sheet for the open entry (``None`` when none); ``tally``: for each public order
    field, seat id -> its current value in every seat's accepted orders."""

    game_id: int
    seat_id: SeatId
    entry: int
    status: str
    can_order: bool
    orders: Any = None
    ready: bool = False
    warnings: tuple[str, ...] = ()
    refused: Refusal | None = None
    tally: Mapping[str, Mapping[SeatId, Any]] = field(default_factory=dict)
    names: Mapping[SeatId, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class PublicTable:
    """A table of public facts for the game page: column titles and rows of cells."""

    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a game ended, in the game's words: ``line`` ("Buttmans Brigade wins."), and a
    standings table (which may reveal what the rules reveal at the end)."""

    line: str
    standings: PublicTable | None = None
    notes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Explanation:
    """One step of a resolution, explained in the game's words for the replay: what ran
    and what decided each outcome (a HUNT's eligible targets and who was chosen, a
    vote's count), from the engine's own events. ``lines`` are plain sentences."""

    title: str
    lines: tuple[str, ...] = ()


class GamePages:
    """A game's pure page builders: views and plain facts in, template contexts out.

    The platform owns every route; it renders ``seat_template`` with its own context
    (``game``, ``seat``, ``view``, ``facts``, ``entry``, ``entries``, ``notice``, ...)
    plus what ``seat`` returns. Subclass and override what the game needs."""

    #: templates, relative to the game's template folder ("<game>/seat.html")
    seat_template: str = "seat.html"
    report_template: str = "report.html"
    #: the platform's generic host page unless the game has its own
    host_template: str = "host.html"
    #: the view key of the game's public event thread, among which the platform places
    #: the players' public posts (Infiltration's ``public_log``); ``None``: posts stand alone
    thread_key: str | None = None
    #: the player's notebook page (``<game>/notebook.html``, extending the platform's
    #: ``notebook_layout.html``) at ``/games/<id>/notebook``; ``None``: no notebook
    notebook_template: str | None = None

    def seat(self, view: Mapping[str, Any], facts: SeatFacts) -> dict[str, Any]:
        """The seat page's own context (the order form filled from ``facts.orders``, or
        from ``facts.refused`` with its messages beside their rows)."""
        return {}

    def sheet_from_fields(self, view: Mapping[str, Any], fields: Mapping[str, str]) -> Any:
        """The order JSON a submitted form stands for (left to ``parse_orders`` to judge);
        may raise ``OrderError`` for a form it cannot read at all (refused as a sheet)."""
        return dict(fields)

    def place(self, view: Mapping[str, Any], fields: Mapping[str, str],
              messages: Sequence[str]) -> dict[str, list[str]]:
        """Where on the form each message belongs: place key -> messages; key ``""`` is
        the top of the form. The page's script shows them at ``[data-place=KEY]``."""
        return {"": list(messages)} if messages else {}

    def report(self, view: Mapping[str, Any], entry: int) -> dict[str, Any]:
        """A past report page's own context (the seat's view after record entry ``entry``)."""
        return {}

    def host(self, view: Mapping[str, Any], entry: int) -> dict[str, Any]:
        """The host (moderator) page's own context, from the host view."""
        return {}

    def public(self, view: Mapping[str, Any], names: Mapping[SeatId, str]) -> PublicTable | None:
        """The game page's table of the players from the public view and the seats' names
        (``None``: the platform lists the seats)."""
        return None

    def result(self, view: Mapping[str, Any], names: Mapping[SeatId, str]) -> GameResult | None:
        """The end of the game from the public view, once it is over (``None`` before): a
        line for pages and the game-over mail, and the standings table."""
        return None

    def news(self, view: Mapping[str, Any]) -> list[str]:
        """The latest public news as lines for the game page, from the public view."""
        return []

    def state(self, view: Mapping[str, Any]) -> dict[str, Any]:
        """Extra JSON a live board page reads beside the view (e.g. log lines)."""
        return {}

    def explain(self, host_view: Mapping[str, Any], orders: Mapping[SeatId, Any] | None,
                entry: int) -> list[Explanation]:
        """Why record entry ``entry`` came out as it did, step by step, from the host view
        after it (the engine's events of that resolution) and the orders the record holds
        for it (``None`` for entry 0, the set-up). Shown on the replay after the end, and
        to the host at any time; ``[]``: the game explains nothing."""
        return []

    def changes(self, before: Mapping[str, Any], after: Mapping[str, Any], entry: int) -> str:
        """What changed for this seat between its own view ``before`` and ``after`` record
        entry ``entry``, in a few words ("2 of your spies were killed"), for the live
        notice the platform shows when the entry is processed ("Turn 3 processed: ...").
        Only the seat's own two views: never anything it cannot read. ``""``: the
        platform's "Turn N processed." alone."""
        return ""

    def notebook_read(self, notes: Any, views: Sequence[Mapping[str, Any]]) -> Any:
        """``notes`` (``None``: nothing read yet) with ``views`` read: the seat's own views
        after its next record entries, oldest first (the platform loads that seat's rows
        only), by the same engine its computer players use. New notes: the given ones
        stay as they were, for the platform keeps them and the next entry costs one view.
        Only a game that sets ``notebook_template`` is asked."""
        return None

    def notebook(self, notes: Any) -> dict[str, Any]:
        """The notebook page's own context from ``notes`` (``notebook_read``): what the
        seat can deduce from its own views alone."""
        return {}

    def reveal(self, host_view: Mapping[str, Any]) -> dict[str, Any]:
        """What the end reveals, as a live board reads it, from the host view: the
        platform adds it to the board's data once the game is over (every face of Spy or
        Lie's cards), for the readers the host page is open to."""
        return {}


# ---------------------------------------------------------------- the rules page


@dataclass(frozen=True, slots=True)
class RulesPage:
    """A game's rules written for players, and the one-line rule of each order choice.

    The platform serves ``template`` (a page of the game's own template folder, so
    ``<game>/rules.html``, extending the platform's ``rules_layout.html``) at
    ``/rules/<game>`` to anyone, logged in or not, and links to it from every page of a
    game, the create form and the lobby. It is a field of the plugin, not a ``GamePages``
    builder: the page reads no view and no seat, it is the same text for every reader.

    ``order_help`` maps each choice of the game's order form (a task, an action, a class,
    a terminal) to its rule in one line. The platform hands it to the seat page and to the
    rules page alike, so the line beside a choice and the rules never drift apart; a game
    whose orders are not chosen from a list (a board's clicks) leaves it empty."""

    template: str = "rules.html"
    order_help: Mapping[str, str] = field(default_factory=dict)


# ---------------------------------------------------------------- press


def _nobody_out(view: Mapping[str, Any]) -> Mapping[SeatId, bool]:
    return {}


@dataclass(frozen=True, slots=True)
class PressRules:
    """Players' talk the platform provides for a game whose views declare no channels of
    their own (a view's ``channels`` key, as Infiltration's, always wins).

    ``public``: a thread every seat reads; ``private``: messages between two seats. A
    seat still in the game posts in both; one out of it (``living(view)`` maps its seat id
    to ``False``, from that seat's own view) only reads, and gets no more private
    messages. ``option`` is the key of a flag option (declared among the plugin's
    ``options``) whose ``False`` turns press off: a "gunboat" game, with no channels at
    all; a game with fewer than two people in it has none either, and computer players
    are never sent a message. The texts are the refusals and notes in the game's words
    (``{name}``: the seat an out addressee is named by)."""

    public: bool = True
    private: bool = True
    option: str | None = "press"
    living: Callable[[Mapping[str, Any]], Mapping[SeatId, bool]] = _nobody_out
    #: a seat out of the game trying to post
    out: str = "You are out of the game: you may read the press but not post."
    #: a private message to a seat out of the game
    addressee_out: str = "{name} is out of the game and gets no more messages."
    #: the page's note, and the refusal of any post, in a game without press
    gunboat: str = "No press in this game (gunboat)."
    #: the same in a game of one person against computer players, who read nothing
    alone: str = "No press in a game against the computer: nobody else would read it."

    def on(self, options: Mapping[str, Any] | None) -> bool:
        """Whether a game with these ``options`` has press (the flag left out: yes)."""
        if self.option is None or not options:
            return True
        return options.get(self.option, True) is not False

    @property
    def channels(self) -> tuple[str, ...]:
        """The platform channels press opens, in the order pages show them."""
        return tuple(name for name, has in (("public", self.public),
                                            ("private", self.private)) if has)


# ---------------------------------------------------------------- the plugin


@dataclass(frozen=True, slots=True)
class TextRenderers:
    """Plain-text renderers for ``spyhouse replay`` and ``simulate`` (``None``: JSON), the
    generic host page, and the secrets mail."""

    report: Callable[[Mapping[str, Any]], str] | None = None
    host: Callable[[Mapping[str, Any]], str] | None = None
    standings: Callable[[Mapping[str, Any]], str] | None = None
    #: the lines of the secrets mail, from the seat's own view (its mailed-only keys)
    secrets: Callable[[Mapping[str, Any]], list[str]] | None = None


@dataclass(frozen=True, slots=True)
class BotSet:
    """A game's computer players: strategy names and the factory
    ``make(strategy, seat, seed)`` (see ``core.bots``)."""

    strategies: tuple[str, ...]
    make: Callable[[str, str, int], Any]


@dataclass(frozen=True, slots=True)
class GamePlugin:
    """One game, as the platform sees it. Registered once (``core.registry``)."""

    name: str
    ruleset: Callable[[], Ruleset[Any, Any]]
    words: GameWords = field(default_factory=GameWords)
    bots: BotSet | None = None
    #: the create form's options, declared once (``options_from_form``)
    options: tuple[OptionField, ...] = ()
    #: a conversion of its own where the declaration alone cannot say it (Kingdoms'
    #: pasted map file); ``None`` derives the options from ``options``
    options_form: Callable[[Mapping[str, str]], dict[str, Any]] | None = None
    pages: GamePages = field(default_factory=GamePages)
    templates: Path | None = None
    static: Path | None = None
    quick: QuickOffer | None = None
    seat_setup: SeatSetup | None = None
    #: the option that sets the lengths of the phases, named in the schedule's words
    #: (Infiltration's ``pace``), for games whose spec has ``phase_deadlines``
    pace_option: str | None = None
    text: TextRenderers = field(default_factory=TextRenderers)
    #: the rules for players at ``/rules/<game>`` (``None``: no rules page, no link)
    rules: RulesPage | None = None
    #: the public thread and private messages the platform provides (``None``: none,
    #: unless the game's views declare channels of their own)
    press: PressRules | None = None
    #: the fixed action and observation encoding of ``spyhouse.rl``'s environments, as a
    #: dotted path "package.module:NAME" imported only when an environment is made (so
    #: the game needs numpy only with the ``rl`` extra); ``None``: no environment
    encoding: str | None = None

    def options_from_form(self, answers: Mapping[str, str]) -> dict[str, Any]:
        """The options JSON of a create form's answers (``OptionsError`` names the field)."""
        if self.options_form is not None:
            return self.options_form(answers)
        return options_from_form(self.options, answers)

    def template(self, name: str) -> str:
        """A template of this game's folder, as the platform's loader names it; a name
        without a folder of its own is the platform's (e.g. the generic ``host.html``)."""
        return name if name in PLATFORM_TEMPLATES else f"{self.name}/{name}"


#: Templates the platform itself provides for games that bring none of their own.
PLATFORM_TEMPLATES = frozenset({"host.html", "seat_generic.html", "report_generic.html"})


__all__ = [
    "PLATFORM_TEMPLATES",
    "BotSet",
    "Explanation",
    "GamePages",
    "GamePlugin",
    "GameResult",
    "GameWords",
    "OptionField",
    "PressRules",
    "PublicTable",
    "QuickOffer",
    "Refusal",
    "RulesPage",
    "SeatFacts",
    "SeatSetup",
    "TextRenderers",
    "options_from_form",
]
