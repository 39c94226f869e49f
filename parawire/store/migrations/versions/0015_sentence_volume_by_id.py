"""The overview counts a run's references and pairs by their sentences' day, outlet, topic
and language from an index: `ix_sentences_id_volume` holds (id, published, source, topic,
language), so joining a run's rows to their sentences reads that index (a twentieth of the
table's size) instead of every sentence row with its text and annotations.

Revision ID: 0015
Revises: 0011
"""

from alembic import op

revision = "0015"
down_revision = "0011"
INDEX = "ix_sentences_id_volume"
COLUMNS = ["id", "published", "source", "topic", "language"]


def upgrade() -> None:
    op.create_index(INDEX, "sentences", COLUMNS)


def downgrade() -> None:
    op.drop_index(INDEX, "sentences")
