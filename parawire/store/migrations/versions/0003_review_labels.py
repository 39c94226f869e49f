"""Review labels: an operator's right/wrong verdict on a pair of an alignment run.

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"


def upgrade() -> None:
    op.create_table(
        "review_labels",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("run_id", sa.Integer, sa.ForeignKey("alignment_runs.id"), nullable=False,
                  index=True),
        sa.Column("pair_id", sa.Integer, sa.ForeignKey("pairs.id"), nullable=False,
                  unique=True),
        sa.Column("correct", sa.Boolean, nullable=False),
        sa.Column("labeled_at", sa.DateTime, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("review_labels")
