"""Collocation counts kept per language, and which articles they cover.

Articles annotated before this revision are not covered yet: the next annotate run counts
their sentences once.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
# Each count table's key columns (after the language).
COUNT_TABLES = {"collocation_words": ("word",), "collocation_pairs": ("first_word", "second_word"),
                "collocation_totals": ()}


def upgrade() -> None:
    with op.batch_alter_table("articles") as batch:
        batch.add_column(sa.Column("collocations_counted", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
    op.create_index("ix_articles_collocations_counted", "articles", ["collocations_counted"])
    for table, key in COUNT_TABLES.items():
        op.create_table(
            table,
            sa.Column("language", sa.String(16), primary_key=True),
            *(sa.Column(column, sa.Text, primary_key=True) for column in key),
            sa.Column("occurrences", sa.BigInteger, nullable=False),
        )


def downgrade() -> None:
    for table in COUNT_TABLES:
        op.drop_table(table)
    op.drop_index("ix_articles_collocations_counted", "articles")
    with op.batch_alter_table("articles") as batch:
        batch.drop_column("collocations_counted")
