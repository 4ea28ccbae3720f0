"""The order form mapping (games/spyvsspy/ui.py): what the page shows again after a refusal."""

from __future__ import annotations

from spyhouse.core.rng import Rng
from spyhouse.games.spyvsspy.ui import DECLARATION_ROWS, form_from_fields
from tests.games.spyvsspy.randomplay import RULES, seats


def _view() -> dict[str, object]:
    return RULES.view(RULES.setup(seats(3), {}, Rng(3)), "s1")


def test_a_form_shown_again_keeps_its_layout_and_does_not_grow() -> None:
    """Rows stay where the player put them; trailing blank rows are not multiplied."""
    fields = {f"decl-{k}-{key}": "" for k in range(1, DECLARATION_ROWS + 3)
              for key in ("brotherhood", "leader", "region")}
    fields.update({"decl-1-brotherhood": "s2", "decl-3-brotherhood": "s3"})
    form = form_from_fields(_view(), fields)
    assert [row.k for row in form.declarations] == [1, 2, 3, 4]
    assert form.declaration_rows == [1, 3]
    again = form_from_fields(_view(), {f"decl-{row.k}-brotherhood": row.brotherhood
                                       for row in form.declarations})
    assert len(again.declarations) == 4


def test_an_empty_form_has_the_standard_rows() -> None:
    assert len(form_from_fields(_view(), {}).declarations) == DECLARATION_ROWS
