"""receipts of match starts made under an idempotency key

Revision ID: 7e4c2b9d1a05
Revises: 5d8e1f3a9c20
Create Date: 2026-12-06 10:20:00.000000

A new table only: nothing that exists changes, and a downgrade drops it (starts sent again after a
downgrade start a second match, as before this release).

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '7e4c2b9d1a05'
down_revision = '5d8e1f3a9c20'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('start_receipts',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('key_hash', sa.String(length=64), nullable=False),
    sa.Column('fingerprint', sa.String(length=64), nullable=False),
    sa.Column('match_id', sa.Integer(), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('key_hash')
    )
    with op.batch_alter_table('start_receipts', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_start_receipts_match_id'), ['match_id'], unique=False)


def downgrade():
    with op.batch_alter_table('start_receipts', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_start_receipts_match_id'))
    op.drop_table('start_receipts')
