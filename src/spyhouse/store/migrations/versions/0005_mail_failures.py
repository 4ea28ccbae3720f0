"""mail failures: an outbox row that will never go is marked failed (``failed_at``),
and a game's failed mail is found by an index (the host's page lists it)

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-08 10:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0005'
down_revision = '0004'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.add_column(sa.Column('failed_at', sa.DateTime(), nullable=True))
        batch_op.create_index('ix_outbox_game_failed', ['game_id', 'failed_at'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('outbox', schema=None) as batch_op:
        batch_op.drop_index('ix_outbox_game_failed')
        batch_op.drop_column('failed_at')
