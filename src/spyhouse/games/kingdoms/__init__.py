"""Kingdoms: a play-by-email map wargame with the seed's complete spy chapter.

Spec: ``shared/rules/kingdoms.md`` (Part A the spies, Part B the host game).
"""
