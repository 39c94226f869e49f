"""Entity keys per sentence (Algorithm 1's PN), and each pair's probability and signals.

Sentences annotated before this revision get their surface proper nouns as keys, so that
runs behave as before until `parawire annotate --redo` recomputes them.

Revision ID: 0005
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"


def upgrade() -> None:
    with op.batch_alter_table("sentences") as batch:
        batch.add_column(sa.Column("entity_keys", sa.JSON, nullable=True))
    op.execute("UPDATE sentences SET entity_keys = proper_nouns")
    with op.batch_alter_table("sentences") as batch:
        batch.alter_column("entity_keys", existing_type=sa.JSON, nullable=False)
    with op.batch_alter_table("pairs") as batch:
        batch.add_column(sa.Column("probability", sa.Float))
        batch.add_column(sa.Column("features", sa.JSON))


def downgrade() -> None:
    with op.batch_alter_table("pairs") as batch:
        batch.drop_column("features")
        batch.drop_column("probability")
    with op.batch_alter_table("sentences") as batch:
        batch.drop_column("entity_keys")
