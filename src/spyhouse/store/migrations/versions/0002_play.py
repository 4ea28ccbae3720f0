"""play: pause accounting, awaited seats, the news timeline

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30 14:00:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('paused_s', sa.Integer(), nullable=False, server_default='0'))
        batch_op.add_column(sa.Column('paused_at', sa.DateTime(), nullable=True))
        batch_op.add_column(sa.Column('awaiting', sa.JSON(), nullable=False, server_default='[]'))

    op.create_table('news',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('entry', sa.Integer(), nullable=False),
    sa.Column('kind', sa.String(length=32), nullable=False),
    sa.Column('text', sa.Text(), nullable=False),
    sa.Column('at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('news', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_news_game_id'), ['game_id'], unique=False)


def downgrade() -> None:
    with op.batch_alter_table('news', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_news_game_id'))
    op.drop_table('news')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('awaiting')
        batch_op.drop_column('paused_at')
        batch_op.drop_column('paused_s')
