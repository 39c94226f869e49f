"""Near-duplicate (syndicated) articles: SimHash bands and a pointer to the first copy.

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"

BANDS = tuple(f"simhash_b{i}" for i in range(8))


def upgrade() -> None:
    with op.batch_alter_table("articles") as batch:
        batch.add_column(sa.Column("simhash", sa.String(16), nullable=True))
        for band in BANDS:
            batch.add_column(sa.Column(band, sa.Integer, nullable=True))
        batch.add_column(sa.Column("syndicated_of", sa.Integer, nullable=True))
    for band in BANDS:
        op.create_index(f"ix_articles_{band}", "articles", [band])


def downgrade() -> None:
    for band in BANDS:
        op.drop_index(f"ix_articles_{band}", "articles")
    with op.batch_alter_table("articles") as batch:
        for column in ("syndicated_of", *BANDS, "simhash"):
            batch.drop_column(column)
