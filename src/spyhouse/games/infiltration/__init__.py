"""Infiltration: a werewolf-like team game in a 64-room facility.

Rules: ``shared/rules/infiltration.md``; entry point: ``ruleset.Infiltration``.
"""
