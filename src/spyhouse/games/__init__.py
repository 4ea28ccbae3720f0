"""The games: one package per game, each a ``Ruleset`` plugin."""
