"""Sealed Bid: the platform's test-only fifth game (never installed as an entry point)."""
