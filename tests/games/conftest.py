"""The games' page tests (tests/games/<game>/test_web.py) use the platform's web fixtures:
the app on a fresh migrated database, a fake clock, signed-up browsers."""

from tests.web.conftest import (  # noqa: F401 - fixtures, shared by import
    alice,
    app,
    bob,
    carol,
    factory,
    sessions,
    settings,
)
