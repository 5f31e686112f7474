"""player names in one spelling: rosters in NFC, told apart by the look-alike key, with room for 40 letters

Revision ID: cc753a4be4c1
Revises: d4a9c3e7f215
Create Date: 2026-12-06 16:00:00.000000

A name now holds at most 40 letters as a reader counts them (grapheme clusters), which can be more than
40 code points: on PostgreSQL the roster's name column widens to 200 and its key (folded) to 800. SQLite
keeps a text of any length whatever its column declares, so its club_players table is not rebuilt (a
rebuild drops the table, and with it every attendance and agreement that refers to a player).

Every live roster entry's key becomes games.base.same_name of its name (the look-alike key the app
compares names by from this revision on), and every roster name is rewritten in NFC. Left as they are:
a live name whose NFC spelling another live entry of its club already has; the key of live entries whose names now
look alike (two spellings of one name, such as ឧត្តម and ឧត្ដម, both on one roster: both keep the key
they had, and the admin tells them apart by renaming or merging one); and a whole club whose new keys
would clash with one kept. Matches are not rewritten: their players and hands keep their spellings, and
a hand names a player by the same comparison (games.base.player_named), so the lookup alone finds them.

The downgrade gives live entries the key the older code computes (NFC and case folding) and leaves the
names in NFC and the columns wide: the older code reads both alike.

"""
from collections import Counter, defaultdict
import unicodedata

from alembic import op
import sqlalchemy as sa

from scorekeeper.games.base import same_name


# revision identifiers, used by Alembic.
revision = 'cc753a4be4c1'
down_revision = 'd4a9c3e7f215'
branch_labels = None
depends_on = None

PLAYERS = sa.table('club_players', sa.column('id', sa.Integer), sa.column('club_id', sa.Integer),
                   sa.column('name', sa.String), sa.column('folded', sa.String),
                   sa.column('merged_into', sa.Integer))


def nfc(name):
    return unicodedata.normalize('NFC', name)


def older_key(name):
    """The key before this revision: NFC and case folding, every kind of space a space."""
    spaced = ''.join(' ' if unicodedata.category(char) == 'Zs' else char for char in name)
    return nfc(spaced).casefold()


def respelt(rows, key):
    """Each entry of one club -> (name, folded) after this revision; None when the club's keys would clash."""
    live = [row for row in rows if row.merged_into is None]
    spelt = Counter(nfc(row.name) for row in live)
    keys = Counter(key(nfc(row.name)) for row in live)
    out = {}
    for row in rows:
        name = nfc(row.name) if row.merged_into is not None or spelt[nfc(row.name)] == 1 else row.name
        folded = row.folded
        if row.merged_into is None and keys[key(nfc(row.name))] == 1:
            folded = key(nfc(row.name))
        out[row.id] = (name, folded)
    kept = [out[row.id][1] for row in live]
    return out if len(set(kept)) == len(kept) else None


def refold(key):
    connection = op.get_bind()
    clubs = defaultdict(list)
    for row in connection.execute(sa.select(PLAYERS.c.id, PLAYERS.c.club_id, PLAYERS.c.name, PLAYERS.c.folded,
                                            PLAYERS.c.merged_into)):
        clubs[row.club_id].append(row)
    for rows in clubs.values():
        out = respelt(rows, key)
        changed = [row for row in rows if out is not None and out[row.id] != (row.name, row.folded)]
        # Keys cleared first, so that no key is held twice between two rows' updates (the unique constraint).
        for row in changed:
            connection.execute(sa.update(PLAYERS).where(PLAYERS.c.id == row.id).values(folded=None))
        for row in changed:
            name, folded = out[row.id]
            connection.execute(sa.update(PLAYERS).where(PLAYERS.c.id == row.id).values(name=name, folded=folded))


def upgrade():
    if op.get_bind().dialect.name != 'sqlite':
        op.alter_column('club_players', 'name', type_=sa.String(length=200), existing_type=sa.String(length=40),
                        existing_nullable=False)
        op.alter_column('club_players', 'folded', type_=sa.String(length=800), existing_type=sa.String(length=160),
                        existing_nullable=True)
    refold(same_name)


def downgrade():
    refold(older_key)
