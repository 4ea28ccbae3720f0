"""``GET /api/v1/games/{id}/record``: a game's record (``spyhouse-record/2``) as JSON.

After the end anyone may read a public game's record, without a token; a private game's
needs a token of one of its seats. A token that is sent is checked as everywhere in the
API (401 malformed, 403 unknown or revoked); a token of another game's seat is no
member's. Before the end the API answers 404 to everyone: the
record holds every order and the seed, and the one reader allowed then, the host who
holds no seat, has no token (it downloads ``/games/{id}/record.json`` with its session).
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Header, HTTPException
from fastapi.responses import JSONResponse

from spyhouse.service import archive, play
from spyhouse.service.errors import NotFound
from spyhouse.store.tables import Game
from spyhouse.web.api import ErrorOut
from spyhouse.web.deps import Db, GameId, Now, OneThreadRoute

router = APIRouter(prefix="/api/v1", tags=["archive"], route_class=OneThreadRoute)

#: The record as docs/record-format.md describes it (the server's own checks are
#: ``core.record``'s; this says what a reader can rely on).
RECORD_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["format", "game", "seed", "options", "seats", "turns", "head"],
    "properties": {
        "format": {"type": "string", "enum": ["spyhouse-record/2"]},
        "game": {"type": "string"},
        "seed": {"type": "integer", "minimum": 0},
        "options": {"type": "object"},
        "seats": {"type": "array", "items": {"type": "object"}},
        "turns": {"type": "array", "items": {
            "type": "object", "required": ["orders", "hash"],
            "properties": {"orders": {"type": "object"}, "hash": {"type": "string"}}}},
        "head": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
    },
}
RECORD_RESPONSES: dict[int | str, dict[str, Any]] = {
    200: {"description": "the record, exactly as `spyhouse simulate --out` writes one "
                         "(docs/record-format.md)",
          "content": {"application/json": {"schema": RECORD_SCHEMA}}},
    401: {"model": ErrorOut, "description": "an Authorization header that is not "
                                            "`Bearer TOKEN` (no header is fine)"},
    403: {"model": ErrorOut, "description": "unknown or revoked token"},
    404: {"model": ErrorOut, "description": "no such game, not over yet, or private and "
                                            "no token of its seats"},
    422: {"model": ErrorOut, "description": "a malformed path or header value "
                                            "(`errors` says which)"},
}


def _token_in_game(db: Db, authorization: str | None, when: Any, game_id: int) -> bool:
    """Whether ``authorization`` carries a live token of a seat of ``game_id``: no header,
    no; a malformed one 401 and an unknown or revoked token 403, as the API's."""
    if not authorization:
        return False
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise HTTPException(401, "use Authorization: Bearer TOKEN",
                            headers={"WWW-Authenticate": "Bearer"})
    return play.seat_of_token(db, token.strip(), when).game_id == game_id


@router.get("/games/{game_id}/record", response_class=JSONResponse,
            responses=RECORD_RESPONSES,
            summary="The game's record once it is over (a private game's: with a token of "
                    "one of its seats)")
def game_record(game_id: GameId, db: Db, when: Now,
                authorization: Annotated[str | None, Header()] = None) -> JSONResponse:
    seated = _token_in_game(db, authorization, when, game_id)
    game = db.get(Game, game_id)
    if game is None or game.status != "over":
        raise NotFound(archive.NO_GAME)
    record = archive.record_for(db, game_id, None, seat_game=seated)
    return JSONResponse(record.to_json())
