"""Runs tell how they ended, and an alignment run's counts are kept with its batches.

Every crawl and alignment run gets a `reason` (why it failed or was interrupted); each
alignment batch stores its counts in the transaction that stores its pairs, so a run's
counts are summed from what is stored, across resumes and lost worker results.

Revision ID: 0009
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
RUN_TABLES = ("crawl_runs", "alignment_runs")


def upgrade() -> None:
    for table in RUN_TABLES:
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("reason", sa.Text))
    op.create_table(
        "alignment_batches",
        sa.Column("run_id", sa.Integer, sa.ForeignKey("alignment_runs.id"), primary_key=True),
        sa.Column("first_reference_id", sa.Integer, primary_key=True),
        sa.Column("counts", sa.JSON, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("alignment_batches")
    for table in RUN_TABLES:
        with op.batch_alter_table(table) as batch:
            batch.drop_column("reason")
