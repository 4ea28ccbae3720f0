"""The platform tests: the web fixtures of ``tests/web/conftest.py`` with the test-only
fifth game (Sealed Bid) registered first, since ``create_app`` reads the plugins."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi import FastAPI
from sqlalchemy.engine import Engine

from spyhouse.clock import FakeClock
from spyhouse.core import registry
from spyhouse.core.plugin import GamePlugin
from spyhouse.settings import Settings
from spyhouse.web.app import create_app
from tests.platform.sealedbid.plugin import PLUGIN
from tests.web.conftest import (  # noqa: F401 - fixtures, shared by import
    alice,
    anon,
    bob,
    carol,
    factory,
    sessions,
    settings,
)


@pytest.fixture
def sealedbid() -> Iterator[GamePlugin]:
    """The fifth game, registered for this test only."""
    registry.register(PLUGIN)
    try:
        yield PLUGIN
    finally:
        registry.unregister(PLUGIN.name)


@pytest.fixture
def app(sealedbid: GamePlugin, settings: Settings, clock: FakeClock,  # noqa: F811
        engine: Engine) -> FastAPI:
    """The app, made after the fifth game is registered."""
    return create_app(settings, clock, engine=engine)
