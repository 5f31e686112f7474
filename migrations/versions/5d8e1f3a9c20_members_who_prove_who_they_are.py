"""members who prove who they are: member links, guests, proven answers and agreements, who started a match

Revision ID: 5d8e1f3a9c20
Revises: 2f1a5e0d4ce2
Create Date: 2026-12-06 09:40:00.000000

Every new column is nullable or carries a server default, added in place. Players from before are
members without a link yet (the admin issues one from the roster); answers from before came from
phones that proved nothing and no longer count for a draw until the member or the admin answers again;
agreements from before stay as they were given; matches from before have no recorded starter.

"""
from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision = '5d8e1f3a9c20'
down_revision = '2f1a5e0d4ce2'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('club_players', schema=None) as batch_op:
        batch_op.add_column(sa.Column('member_key_hash', sa.String(length=64), nullable=True))
        batch_op.add_column(sa.Column('guest', sa.Boolean(), server_default='0', nullable=False))
    with op.batch_alter_table('attendances', schema=None) as batch_op:
        batch_op.add_column(sa.Column('proven', sa.Boolean(), server_default='0', nullable=False))
    with op.batch_alter_table('agreements', schema=None) as batch_op:
        batch_op.add_column(sa.Column('player_id', sa.Integer(), nullable=True))
        batch_op.create_foreign_key('fk_agreements_player_id', 'club_players', ['player_id'], ['id'],
                                    ondelete='SET NULL')
    with op.batch_alter_table('matches', schema=None) as batch_op:
        batch_op.add_column(sa.Column('started_by', sa.String(length=8), nullable=True))


def downgrade():
    # Plain drops where the column is in no constraint: a batch would rebuild the table on SQLite, and the
    # rebuilt matches table would then refuse an older downgrade's own plain drop of club_id.
    op.drop_column('matches', 'started_by')
    with op.batch_alter_table('agreements', schema=None) as batch_op:
        batch_op.drop_constraint('fk_agreements_player_id', type_='foreignkey')
        batch_op.drop_column('player_id')
    op.drop_column('attendances', 'proven')
    op.drop_column('club_players', 'guest')
    op.drop_column('club_players', 'member_key_hash')
