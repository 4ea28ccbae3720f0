"""the reader's settings (issue 14): ``users.time_zone`` (an IANA name; ``NULL``: the
browser's), which mails the player wants (``mail_turn``, ``mail_reminder`` with
``reminder_hours`` before a deadline, ``mail_messages``, ``mail_game``: start and end),
e-mail addresses private by default (``users.email_public`` now defaults to false), and
``seats.reminded_entry``: the open entry a seat was last reminded of (sent once)

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-02 09:30:00.000000
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = '0009'
down_revision = '0008'
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table('users', schema=None) as batch_op:
        batch_op.add_column(sa.Column('time_zone', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('mail_turn', sa.Boolean(), nullable=False,
                                      server_default=sa.true()))
        batch_op.add_column(sa.Column('mail_reminder', sa.Boolean(), nullable=False,
                                      server_default=sa.true()))
        batch_op.add_column(sa.Column('reminder_hours', sa.Integer(), nullable=False,
                                      server_default='12'))
        batch_op.add_column(sa.Column('mail_messages', sa.Boolean(), nullable=False,
                                      server_default=sa.true()))
        batch_op.add_column(sa.Column('mail_game', sa.Boolean(), nullable=False,
                                      server_default=sa.true()))
    # every account had "show my e-mail address" ticked without choosing it: private now,
    # until its player opts in again (seats of games already joined keep their choice)
    op.execute(sa.text("UPDATE users SET email_public = :private").bindparams(private=False))
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.add_column(sa.Column('reminded_entry', sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table('seats', schema=None) as batch_op:
        batch_op.drop_column('reminded_entry')
    with op.batch_alter_table('users', schema=None) as batch_op:
        for name in ('mail_game', 'mail_messages', 'reminder_hours', 'mail_reminder',
                     'mail_turn', 'time_zone'):
            batch_op.drop_column(name)
