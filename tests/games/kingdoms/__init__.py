"""Kingdoms (spec shared/rules/kingdoms.md): rules, maps, bots, views and text."""
