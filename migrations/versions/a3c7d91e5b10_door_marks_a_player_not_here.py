"""the door marks a player not here

Revision ID: a3c7d91e5b10
Revises: 7e4c2b9d1a05
Create Date: 2026-12-08 18:00:00.000000

One column with a server default, added in place: answers from before carry no such mark, and a
player who said "I'm in" counts as there until the door marks them not here.

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'a3c7d91e5b10'
down_revision = '7e4c2b9d1a05'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('attendances', schema=None) as batch_op:
        batch_op.add_column(sa.Column('absent', sa.Boolean(), server_default='0', nullable=False))


def downgrade():
    # Dropped in place (SQLite 3.35 and later): the column is in no constraint.
    op.drop_column('attendances', 'absent')
