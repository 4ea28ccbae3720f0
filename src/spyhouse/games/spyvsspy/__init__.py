"""Spy vs Spy: brotherhoods, nine regions, weekly turns, declarations.

Rules: ``shared/rules/spy-vs-spy.md``. ``ruleset.SpyVsSpy`` is the platform's
entry point; ``model`` holds the typed domain, ``orders`` the sheet parser and
validator, ``resolve`` the turn resolution, ``view`` the information model,
``text`` the terminal report and ``bots`` the computer players.
"""
