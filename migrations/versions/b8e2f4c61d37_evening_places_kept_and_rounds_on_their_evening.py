"""an evening keeps its places when it closes; a round's matches are on the evening they were drawn for

Revision ID: b8e2f4c61d37
Revises: a3c7d91e5b10
Create Date: 2026-12-09 10:00:00.000000

One nullable column, added in place: evenings closed before it keep nothing and show their places as
computed, as they did. Each match of a round is then given the day of the evening its round was drawn
for (a round confirmed after midnight, or drawn the day before, was filed under the clock's day). The
downgrade drops the column and leaves the days as they are: they are days the older code reads alike.

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'b8e2f4c61d37'
down_revision = 'a3c7d91e5b10'
branch_labels = None
depends_on = None

DRAWN_FOR = sa.text(
    "UPDATE club_results SET day = (SELECT evenings.day FROM evening_tables"
    " JOIN evening_rounds ON evening_rounds.id = evening_tables.round_id"
    " JOIN evenings ON evenings.id = evening_rounds.evening_id"
    " WHERE evening_tables.match_id = club_results.match_id LIMIT 1)"
    " WHERE match_id IN (SELECT match_id FROM evening_tables WHERE match_id IS NOT NULL)")


def upgrade():
    with op.batch_alter_table('evenings', schema=None) as batch_op:
        batch_op.add_column(sa.Column('final', sa.JSON(none_as_null=True), nullable=True))
    op.execute(DRAWN_FOR)


def downgrade():
    # Dropped in place (SQLite 3.35 and later): the column is in no constraint.
    op.drop_column('evenings', 'final')
