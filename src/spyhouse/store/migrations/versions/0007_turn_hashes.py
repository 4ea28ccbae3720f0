"""turn hashes: each ``turns`` row keeps its entry's hash in the game's chain
(``turns.chain``), checked when the game's record is loaded; rows written before stay
``NULL`` and are not checked

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-09 06:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0007'
down_revision = '0006'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('turns', schema=None) as batch_op:
        batch_op.add_column(sa.Column('chain', sa.String(length=64), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('turns', schema=None) as batch_op:
        batch_op.drop_column('chain')
