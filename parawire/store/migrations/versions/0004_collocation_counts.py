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


def upgrade() -> None:
    with op.batch_alter_table("articles") as batch:
        batch.add_column(sa.Column("collocations_counted", sa.Boolean, nullable=False,
                                   server_default=sa.false()))
    op.create_index("ix_articles_collocations_counted", "articles", ["collocations_counted"])
    op.create_table(
        "collocation_words",
        sa.Column("language", sa.String(16), primary_key=True),
        sa.Column("word", sa.Text, primary_key=True),
        sa.Column("occurrences", sa.Integer, nullable=False),
    )
    op.create_table(
        "collocation_pairs",
        sa.Column("language", sa.String(16), primary_key=True),
        sa.Column("first_word", sa.Text, primary_key=True),
        sa.Column("second_word", sa.Text, primary_key=True),
        sa.Column("occurrences", sa.Integer, nullable=False),
    )
    op.create_table(
        "collocation_totals",
        sa.Column("language", sa.String(16), primary_key=True),
        sa.Column("occurrences", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    for table in ("collocation_totals", "collocation_pairs", "collocation_words"):
        op.drop_table(table)
    op.drop_index("ix_articles_collocations_counted", "articles")
    with op.batch_alter_table("articles") as batch:
        batch.drop_column("collocations_counted")
