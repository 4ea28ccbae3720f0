"""Spy vs Spy acceptance tests (spec §10).

Makes ``spyhouse`` importable from the src layout when the package is not installed in
the virtualenv, and offers the spec's fixture game as the ``game`` fixture.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

if importlib.util.find_spec("spyhouse") is None:  # pragma: no cover - depends on the venv
    sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "src"))


@pytest.fixture
def game():  # type: ignore[no-untyped-def]
    """The §10 fixture: Alpha s1 (Mr Pink, B), Bravo s2 (Mr Orange, D), Charlie s3
    (Mr Green, D), Delta s4 (Mr Grey, I); classic, about to resolve turn 1."""
    from tests.games.spyvsspy.fixture import new_game

    return new_game()
