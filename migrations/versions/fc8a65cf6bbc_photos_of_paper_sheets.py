"""photos of paper sheets read back, kept with their match

Revision ID: fc8a65cf6bbc
Revises: cc753a4be4c1
Create Date: 2026-12-12 10:00:00.000000

A new table only: nothing that exists changes, and a downgrade drops it (the photos kept as evidence go;
the hands read from them stay, as any hand does).

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = 'fc8a65cf6bbc'
down_revision = 'cc753a4be4c1'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('paper_photos',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('match_id', sa.Integer(), nullable=False),
    sa.Column('page', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(timezone=True), nullable=False),
    sa.Column('jpeg', sa.LargeBinary(), nullable=False),
    sa.Column('digest', sa.String(length=64), nullable=False),
    sa.Column('rows', sa.JSON(), nullable=False),
    sa.Column('crops', sa.JSON(), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )
    with op.batch_alter_table('paper_photos', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_paper_photos_match_id'), ['match_id'], unique=False)


def downgrade():
    with op.batch_alter_table('paper_photos', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_paper_photos_match_id'))
    op.drop_table('paper_photos')
