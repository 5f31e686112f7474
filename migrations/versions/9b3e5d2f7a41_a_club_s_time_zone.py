"""a club's time zone

Revision ID: 9b3e5d2f7a41
Revises: 64c2d0aa27bd
Create Date: 2026-12-01 03:00:00.000000

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '9b3e5d2f7a41'
down_revision = '64c2d0aa27bd'
branch_labels = None
depends_on = None


def upgrade():
    # A nullable column added in place: clubs made before keep their days, which were UTC days.
    op.add_column('clubs', sa.Column('time_zone', sa.String(length=64), nullable=True))


def downgrade():
    # Dropped in place (SQLite 3.35 and later): a batch rebuild of clubs would cascade to its rosters.
    op.drop_column('clubs', 'time_zone')
