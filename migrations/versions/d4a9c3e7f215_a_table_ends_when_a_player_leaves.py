"""a table's match can end before its end when a player leaves, and the table says how

Revision ID: d4a9c3e7f215
Revises: b8e2f4c61d37
Create Date: 2026-12-09 14:00:00.000000

One nullable column, added in place: every table of a round stored before it plays on, as it did.

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'd4a9c3e7f215'
down_revision = 'b8e2f4c61d37'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('evening_tables', schema=None) as batch_op:
        batch_op.add_column(sa.Column('ended', sa.JSON(none_as_null=True), nullable=True))


def downgrade():
    # Dropped in place (SQLite 3.35 and later): the column is in no constraint.
    op.drop_column('evening_tables', 'ended')
