"""Spy or Lie: the two-player hex card game of ``shared/rules/spy-or-lie.md``.

Search code uses ``rules.Position`` (mutable, fast) and ``observe`` (views to positions);
the platform uses ``ruleset.SpyOrLie``. See ``docs/spyorlie.md``.
"""
