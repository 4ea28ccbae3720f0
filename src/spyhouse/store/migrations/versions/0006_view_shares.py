"""view shares: an entry's views are stored as what they share once (``view_shares``)
plus each reader's own part (``reports``), so a 1,000-seat game stores megabytes a
turn, not a gigabyte; ``reports`` rows written before stay whole views

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02 06:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0006'
down_revision = '0005'
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        'view_shares',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('entry', sa.Integer(), nullable=False),
        sa.Column('data', sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('game_id', 'entry'),
    )
    with op.batch_alter_table('view_shares', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_view_shares_game_id'), ['game_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('view_shares', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_view_shares_game_id'))
    op.drop_table('view_shares')
