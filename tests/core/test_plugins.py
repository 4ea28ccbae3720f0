"""The plugin contract itself (``core.plugin``): every registered game declares a whole,
consistent plugin, and the platform names none of them (issue 10)."""

from __future__ import annotations

from pathlib import Path

import pytest

from spyhouse.core import bots, registry
from spyhouse.core.errors import OptionsError
from spyhouse.core.plugin import GamePlugin, OptionField, options_from_form

SRC = Path(__file__).resolve().parents[2] / "src" / "spyhouse"
PLATFORM = ("web", "service", "store", "worker", "mail")
GAMES = registry.names()


def _answers(plugin: GamePlugin, field: OptionField, value: str) -> dict[str, str]:
    """A create form's answers choosing ``value`` for ``field``, with whatever the field
    needs to apply (its ``when``) and every required number at its smallest."""
    answers = {field.form_key: value}
    if field.when is not None:
        other, values = field.when
        answers[f"option-{other}"] = values[0]
    for spec in plugin.options:
        if spec.required and spec.form_key not in answers:
            answers[spec.form_key] = str(spec.minimum or 1)
    return answers


@pytest.mark.parametrize("game", GAMES)
def test_every_declared_choice_is_one_the_rules_accept(game: str) -> None:
    """The create form and ``parse_options`` cannot drift: each value the form offers
    (every choice, both ends of every number's range) gives options the rules take."""
    plugin = registry.plugin(game)
    ruleset = plugin.ruleset()
    for field in plugin.options:
        if field.kind == "text":
            continue
        values = [v for v, _ in field.choices] or [
            str(v) for v in (field.minimum, field.maximum) if v is not None]
        for value in values:
            options = plugin.options_from_form(_answers(plugin, field, value))
            ruleset.parse_options(options)  # raises OptionsError if they drifted apart


@pytest.mark.parametrize("game", GAMES)
def test_a_value_outside_the_declaration_is_refused_in_the_forms_words(game: str) -> None:
    plugin = registry.plugin(game)
    for field in plugin.options:
        if field.kind == "text":
            continue
        bad = "not-a-choice" if field.choices else str((field.maximum or 10**6) + 1)
        with pytest.raises(OptionsError, match=f"^{field.name}:"):
            options_from_form(plugin.options, _answers(plugin, field, bad))


@pytest.mark.parametrize("game", GAMES)
def test_the_plugin_is_whole(game: str) -> None:
    plugin = registry.plugin(game)
    ruleset = plugin.ruleset()
    assert plugin.name == ruleset.name == game
    assert plugin.templates is not None and (
        plugin.templates / game / plugin.pages.seat_template).is_file()
    assert (plugin.templates / game / plugin.pages.report_template).is_file()
    if plugin.pages.host_template != "host.html":  # the platform's own, else the game's
        assert (plugin.templates / game / plugin.pages.host_template).is_file()
    assert plugin.words.computer_names and len(set(plugin.words.computer_names)) == len(
        plugin.words.computer_names)
    for name in plugin.words.computer_names:  # each a name the game takes
        assert ruleset.seat_name_problem(name, ()) is None, name
    assert bots.bot_names(game)
    if plugin.quick is not None:
        assert set(plugin.quick.bots) <= set(bots.bot_names(game))
        assert {key for key, _ in plugin.quick.strategies} <= set(bots.bot_names(game))
        declared = {field.key for field in plugin.options}
        assert set(plugin.quick.option_keys) <= declared


def test_no_platform_module_names_a_game() -> None:
    """A grep of the platform for every game's id and title finds nothing: games are
    reached through their plugins (import-linter keeps the imports so, this the words)."""
    words = {w.casefold() for g in GAMES for w in (g, registry.get(g).spec.title)}
    found = []
    for layer in PLATFORM:
        for path in sorted((SRC / layer).rglob("*")):
            if path.is_file() and path.suffix in (".py", ".html", ".js", ".css"):
                text = path.read_text(encoding="utf-8").casefold()
                found += [f"{path.relative_to(SRC)}: {w}" for w in sorted(words) if w in text]
    assert found == []
