"""A bounded schemathesis run over the JSON API: every operation of the OpenAPI document
gets its documented examples, schemathesis's coverage cases and a few generated ones
(valid and invalid), sent in-process (ASGI) with a seat's real Bearer token in a started
game, and every answer must be one the document describes: no server error, a documented
status code, the documented content type and body, and a 405 that names every method of
the path in ``Allow``.

Seeded (``SEED``) and without Hypothesis's example database, so a run is the same run
every time. schemathesis is the ``fuzz`` extra (``make test`` installs it); without it
this module skips.

Left out: ``positive_data_acceptance``. An order sheet is the game's JSON, judged by its
rules: a schema-valid sheet that breaks them is refused with 422 and the rules' messages,
as documented, so "every schema-valid request is accepted" cannot hold for orders.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi import FastAPI
from hypothesis import HealthCheck, settings

from spyhouse.settings import Settings
from spyhouse.web.app import create_app
from tests.web.helpers import Browser, started_game
from tests.web.test_api import make_token

schemathesis = pytest.importorskip("schemathesis",
                                   reason="the fuzz extra: pip install -e '.[fuzz]'")
from schemathesis import checks  # noqa: E402  (after the skip)
from schemathesis.config import SchemathesisConfig  # noqa: E402

SEED = 20261130
#: Generated cases per operation (on top of its examples and coverage cases).
EXAMPLES = 12

CHECKS = [
    checks.not_a_server_error,
    checks.status_code_conformance,
    checks.content_type_conformance,
    checks.response_schema_conformance,
    checks.response_headers_conformance,
    checks.negative_data_rejection,
    checks.unsupported_method,
    checks.allow_header_conformance,
]

# The document is the same for every app: it is read from one built for it alone (an
# in-memory database it never opens); the requests go to each test's own app.
schema = schemathesis.openapi.from_asgi(
    "/api/v1/openapi.json", create_app(Settings(database_url="sqlite://", demo=False)),
    config=SchemathesisConfig.from_dict({
        "seed": SEED,
        "generation": {"max-examples": EXAMPLES, "database": "none"},
    }))


@pytest.fixture
def token(alice: Browser, bob: Browser) -> str:
    """The API token of alice's seat (s1) in a started Spy vs Spy game with a bot."""
    game_id = started_game(alice, bob, bots=1)
    return make_token(alice, game_id)


@schema.parametrize()
@settings(database=None,
          # one game per operation, shared by its examples: the later ones meet the orders
          # and posts the earlier ones left, as a client would
          suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_the_api_answers_only_what_its_document_says(case: Any, token: str,
                                                      app: FastAPI) -> None:
    case.call_and_validate(app=app, headers={"Authorization": f"Bearer {token}"},
                           checks=CHECKS)


def test_the_run_covers_every_operation_of_the_document() -> None:
    operations = {f"{op.ok().method.upper()} {op.ok().path}"
                  for op in schema.get_all_operations()}
    assert len(operations) == 10, operations
