"""channels: players' posts, and each entry's early-close rule

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30 13:20:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('close_when', sa.String(length=16), nullable=True))

    op.create_table('posts',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('game_id', sa.Integer(), nullable=False),
    sa.Column('entry', sa.Integer(), nullable=False),
    sa.Column('channel', sa.String(length=16), nullable=False),
    sa.Column('seat_id', sa.String(length=16), nullable=False),
    sa.Column('to_seat', sa.String(length=16), nullable=True),
    sa.Column('body', sa.Text(), nullable=False),
    sa.Column('at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('posts', schema=None) as batch_op:
        batch_op.create_index('ix_posts_game_channel', ['game_id', 'channel', 'id'],
                              unique=False)


def downgrade() -> None:
    with op.batch_alter_table('posts', schema=None) as batch_op:
        batch_op.drop_index('ix_posts_game_channel')
    op.drop_table('posts')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('close_when')
