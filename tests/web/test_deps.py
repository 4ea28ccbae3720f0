"""The API's route class: a handler and its in-thread dependencies in one worker thread."""

from __future__ import annotations

import threading

import pytest
from fastapi import APIRouter, Depends, FastAPI
from fastapi.testclient import TestClient

from spyhouse.web.deps import InThread, OneThreadRoute, TokenSeat, in_thread


@in_thread
async def _where() -> InThread:
    return InThread(lambda: threading.get_ident())


def test_an_in_thread_dependency_is_worked_out_in_the_handlers_own_thread() -> None:
    router = APIRouter(route_class=OneThreadRoute)

    @router.get("/t")
    def handler(dependency_thread: int = Depends(_where)) -> dict[str, bool]:
        return {"same": dependency_thread == threading.get_ident(),
                "worker": threading.get_ident() != threading.main_thread().ident}

    app = FastAPI()
    app.include_router(router)
    with TestClient(app) as client:
        assert client.get("/t").json() == {"same": True, "worker": True}


def test_an_async_handler_may_not_declare_an_in_thread_dependency() -> None:
    router = APIRouter(route_class=OneThreadRoute)
    with pytest.raises(TypeError, match="plain def handler"):
        @router.get("/games/{game_id}/x")
        async def handler(game_id: int, seat: TokenSeat) -> None:
            return None
