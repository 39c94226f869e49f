"""Review labels with a grade and a direction: an operator reads a pair by the dev gold's
scheme (grade 0-5; for grade 3, which side covers the other), as the pair model grades it.
Labels given before carry neither (right or wrong only).

Revision ID: 0016
Revises: 0015
"""

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"


def upgrade() -> None:
    op.add_column("review_labels", sa.Column("grade", sa.Integer))
    op.add_column("review_labels", sa.Column("direction", sa.String(16)))


def downgrade() -> None:
    with op.batch_alter_table("review_labels") as batch:
        batch.drop_column("direction")
        batch.drop_column("grade")
