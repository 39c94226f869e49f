"""Near-duplicates are found by comparing a new fingerprint with every stored one in memory
(crawler.dedup.NearDuplicates), read by id: the SimHash band columns and their indexes,
which made each lookup fetch a share of the whole store, go.

Revision ID: 0010
Revises: 0009
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"

BANDS = tuple(f"simhash_b{i}" for i in range(8))


def upgrade() -> None:
    for band in BANDS:
        op.drop_index(f"ix_articles_{band}", "articles")
    for band in BANDS:  # ALTER TABLE … DROP COLUMN: SQLite 3.35 and later, PostgreSQL
        op.execute(f"ALTER TABLE articles DROP COLUMN {band}")


def downgrade() -> None:
    for band in BANDS:
        op.add_column("articles", sa.Column(band, sa.Integer, nullable=True))
    articles = sa.table("articles", sa.column("id"), sa.column("simhash"),
                        *(sa.column(band) for band in BANDS))
    bind = op.get_bind()
    rows = bind.execute(sa.select(articles.c.id, articles.c.simhash)
                        .where(articles.c.simhash.is_not(None))).all()
    for row in rows:
        value = int(row.simhash, 16)
        bind.execute(articles.update().where(articles.c.id == row.id).values(
            {band: value >> (8 * i) & 0xFF for i, band in enumerate(BANDS)}))
    for band in BANDS:
        op.create_index(f"ix_articles_{band}", "articles", [band])
