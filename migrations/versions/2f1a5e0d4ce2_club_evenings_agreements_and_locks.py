"""club evenings: plans, attendance, rounds and tables; agreements and locks

Revision ID: 2f1a5e0d4ce2
Revises: 9b3e5d2f7a41
Create Date: 2026-12-03 13:35:34.399944

All new columns are nullable or carry a server default, added in place: existing clubs keep today's
behaviour (no lock, no per-hand confirmation), evenings and seasons stay open, no change has a reason.

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '2f1a5e0d4ce2'
down_revision = '9b3e5d2f7a41'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('agreements',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('match_id', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('phone', sa.String(length=64), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('match_id', 'phone', name='uq_agreement_match_phone'),
    sa.UniqueConstraint('match_id', 'seat', name='uq_agreement_match_seat')
    )
    with op.batch_alter_table('agreements', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_agreements_match_id'), ['match_id'], unique=False)

    op.create_table('attendances',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('evening_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('answer', sa.String(length=8), nullable=False),
    sa.Column('present', sa.Boolean(), nullable=False),
    sa.Column('key_hash', sa.String(length=64), nullable=True),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['evening_id'], ['evenings.id'], ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['player_id'], ['club_players.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('evening_id', 'player_id', name='uq_attendance_evening_player')
    )
    with op.batch_alter_table('attendances', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_attendances_evening_id'), ['evening_id'], unique=False)

    op.create_table('evening_rounds',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('evening_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('sat_out', sa.JSON(), nullable=False),
    sa.Column('seed', sa.BigInteger(), nullable=False),
    sa.Column('at', sa.DateTime(timezone=True), nullable=False),
    sa.ForeignKeyConstraint(['evening_id'], ['evenings.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('evening_id', 'number', name='uq_evening_round_number')
    )
    with op.batch_alter_table('evening_rounds', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_evening_rounds_evening_id'), ['evening_id'], unique=False)

    op.create_table('evening_tables',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('round_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('game', sa.String(length=16), nullable=False),
    sa.Column('seat_ids', sa.JSON(), nullable=False),
    sa.Column('match_id', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['match_id'], ['matches.id'], ondelete='SET NULL'),
    sa.ForeignKeyConstraint(['round_id'], ['evening_rounds.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('round_id', 'number', name='uq_evening_table_number')
    )
    with op.batch_alter_table('evening_tables', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_evening_tables_round_id'), ['round_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_evening_tables_match_id'), ['match_id'], unique=False)

    op.add_column('clubs', sa.Column('agree_to_lock', sa.Integer(), server_default='0', nullable=False))
    op.add_column('clubs', sa.Column('confirm_hands', sa.Boolean(), server_default='0', nullable=False))

    op.add_column('evenings', sa.Column('starts_at', sa.Time(), nullable=True))
    op.add_column('evenings', sa.Column('place', sa.String(length=80), server_default='', nullable=False))
    op.add_column('evenings', sa.Column('note', sa.String(length=200), server_default='', nullable=False))
    op.add_column('evenings', sa.Column('closed_at', sa.DateTime(timezone=True), nullable=True))

    op.add_column('hand_changes', sa.Column('reason', sa.String(length=200), server_default='', nullable=False))

    op.add_column('hands', sa.Column('confirmed_seat', sa.Integer(), nullable=True))
    op.add_column('hands', sa.Column('confirmed_at', sa.DateTime(timezone=True), nullable=True))

    op.add_column('seasons', sa.Column('closed_at', sa.DateTime(timezone=True), nullable=True))
    op.add_column('seasons', sa.Column('final', sa.JSON(), nullable=True))


def downgrade():
    # Columns dropped in place (SQLite 3.35 and later): a batch rebuild of clubs would cascade to its rosters.
    op.drop_column('seasons', 'final')
    op.drop_column('seasons', 'closed_at')

    op.drop_column('hands', 'confirmed_at')
    op.drop_column('hands', 'confirmed_seat')

    op.drop_column('hand_changes', 'reason')

    op.drop_column('evenings', 'closed_at')
    op.drop_column('evenings', 'note')
    op.drop_column('evenings', 'place')
    op.drop_column('evenings', 'starts_at')

    op.drop_column('clubs', 'confirm_hands')
    op.drop_column('clubs', 'agree_to_lock')

    with op.batch_alter_table('evening_tables', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_evening_tables_match_id'))
        batch_op.drop_index(batch_op.f('ix_evening_tables_round_id'))

    op.drop_table('evening_tables')
    with op.batch_alter_table('evening_rounds', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_evening_rounds_evening_id'))

    op.drop_table('evening_rounds')
    with op.batch_alter_table('attendances', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_attendances_evening_id'))

    op.drop_table('attendances')
    with op.batch_alter_table('agreements', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_agreements_match_id'))

    op.drop_table('agreements')
