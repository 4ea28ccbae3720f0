"""The archive of finished public games, a game's record as a file, and importing one.

Who reads what is ``service.archive``'s one rule (``check_watch``, ``record_for``): these
handlers only declare the user they have, if any.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import RedirectResponse, Response
from starlette.datastructures import UploadFile

from spyhouse.core import record as records
from spyhouse.core import registry
from spyhouse.service import archive
from spyhouse.service.errors import ServiceError
from spyhouse.web.deps import CurrentUser, Db, GameId, MaybeUser, Now, check_csrf
from spyhouse.web.render import Pager, error_status, render

router = APIRouter(dependencies=[Depends(check_csrf)], include_in_schema=False)

#: The longest filter text the archive takes (a player's name is at most 80).
MAX_FILTER = 80


@router.get("/archive")
def archive_page(request: Request, db: Db, user: MaybeUser, game: str = "",
                 player: str = "") -> Response:
    """Finished public games, newest first, ``?game=`` and ``?player=`` filters; 50 rows
    a page (``?rows=N``). Only the page's rows are read in full (``archive_rows``)."""
    game = game.strip() if game.strip() in registry.names() else ""
    player = player.strip()[:MAX_FILTER]
    ids = archive.archive_ids(db, game=game, player=player)
    page = Pager(request, size=archive.ARCHIVE_ROWS)(ids, anchor="archive-pages")
    rows = archive.archive_rows(db, page.rows)
    titles = [(plugin.name, plugin.ruleset().spec.title) for plugin in registry.plugins()]
    return render(request, "archive.html", {
        "page": page, "rows": rows, "game": game, "player": player, "game_titles": titles,
        "filtered": bool(game or player)})


@router.get("/games/{game_id}/record.json")
def record_file(game_id: GameId, db: Db, user: MaybeUser) -> Response:
    """The game's record as ``spyhouse simulate --out`` writes it, as a download: after
    the end for whoever may watch the game, before it for the host holding no seat;
    404 for anyone else."""
    record = archive.record_for(db, game_id, user)
    return Response(record.dumps(), media_type="application/json",
                    headers={"Content-Disposition":
                             f'attachment; filename="spyhouse-{game_id}.json"'})


# ---------------------------------------------------------------- import


@dataclass(frozen=True, slots=True)
class Upload:
    """The import form as posted: the file's text (``None`` with ``error`` when it cannot
    be read) and the title typed."""

    text: str | None
    title: str
    error: str | None = None


async def uploaded_record(request: Request) -> Upload:
    """The posted record file, read no further than ``core.record.MAX_BYTES`` (the
    form's field ``record``; the body limit lets this path carry that much)."""
    form = await request.form()
    title = form.get("title")
    title = title if isinstance(title, str) else ""
    file = form.get("record")
    if not isinstance(file, UploadFile) or not file.filename:
        return Upload(None, title, "Choose a record file (JSON) to import.")
    raw = await file.read(records.MAX_BYTES + 1)
    if len(raw) > records.MAX_BYTES:
        return Upload(None, title, records.TOO_BIG)
    try:
        return Upload(raw.decode("utf-8-sig"), title)
    except UnicodeDecodeError:
        return Upload(None, title, "not a record: the file is not UTF-8 text")


Uploaded = Annotated[Upload, Depends(uploaded_record)]


def _import_form(request: Request, *, title: str = "", error: str | None = None,
                 status: int = 200) -> Response:
    context: dict[str, Any] = {"title": title, "error": error,
                               "max_mib": records.MAX_BYTES // (1024 * 1024)}
    return render(request, "import.html", context, status=status)


@router.get("/import")
def import_page(request: Request, user: CurrentUser) -> Response:
    return _import_form(request)


@router.post("/import")
def import_upload(request: Request, db: Db, user: CurrentUser, when: Now,
                  upload: Uploaded) -> Response:
    """Import the uploaded record (``archive.import_record``, as ``spyhouse import``
    does): the new game's page, or the form again with the record's one line."""
    if upload.text is None:
        return _import_form(request, title=upload.title, error=upload.error, status=422)
    try:
        game = archive.import_record(db, upload.text, user, when, title=upload.title)
    except ServiceError as exc:
        db.rollback()  # nothing half-applied (the service's savepoint is gone already)
        return _import_form(request, title=upload.title, error=exc.message,
                            status=error_status(exc))
    return RedirectResponse(f"/games/{game.id}?notice=imported", 303)
