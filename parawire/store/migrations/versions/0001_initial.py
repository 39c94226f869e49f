"""Initial schema: crawl runs, articles, sentences, alignment runs, references, pairs.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None


def upgrade() -> None:
    op.create_table(
        "crawl_runs",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("started_at", sa.DateTime, nullable=False),
        sa.Column("finished_at", sa.DateTime),
        sa.Column("status", sa.String(32), nullable=False),
        sa.Column("parameters", sa.JSON, nullable=False),
        sa.Column("counts", sa.JSON, nullable=False),
    )
    op.create_table(
        "articles",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("url", sa.String(2048), nullable=False, unique=True),
        sa.Column("canonical_url", sa.String(2048), nullable=False, index=True),
        sa.Column("source", sa.String(200), nullable=False, index=True),
        sa.Column("language", sa.String(16), nullable=False),
        sa.Column("topic", sa.String(64), nullable=False, index=True),
        sa.Column("published", sa.Date, index=True),
        sa.Column("crawled_at", sa.DateTime, nullable=False),
        sa.Column("title", sa.Text, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("author", sa.String(500), nullable=False),
        sa.Column("content_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("annotated", sa.Boolean, nullable=False, index=True),
        sa.Column("crawl_run_id", sa.Integer, sa.ForeignKey("crawl_runs.id")),
    )
    op.create_table(
        "sentences",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("article_id", sa.Integer, sa.ForeignKey("articles.id"), nullable=False,
                  index=True),
        sa.Column("position", sa.Integer, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        *(sa.Column(name, sa.JSON, nullable=False) for name in (
            "tokens", "lemmas", "pos", "entities", "proper_nouns", "common_nouns",
            "collocations")),
        sa.Column("language", sa.String(16), nullable=False, index=True),
        sa.Column("topic", sa.String(64), nullable=False),
        sa.Column("published", sa.Date),
        sa.Column("source", sa.String(200), nullable=False),
        sa.UniqueConstraint("article_id", "position", name="uq_sentence_position"),
    )
    op.create_table(
        "alignment_runs",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("run_key", sa.String(64), nullable=False, index=True),
        sa.Column("parameters", sa.JSON, nullable=False),
        sa.Column("started_at", sa.DateTime, nullable=False),
        sa.Column("finished_at", sa.DateTime),
        sa.Column("status", sa.String(32), nullable=False),
        sa.Column("counts", sa.JSON, nullable=False),
    )
    op.create_table(
        "alignment_references",
        sa.Column("run_id", sa.Integer, sa.ForeignKey("alignment_runs.id"), primary_key=True),
        sa.Column("sentence_id", sa.Integer, sa.ForeignKey("sentences.id"), primary_key=True),
    )
    op.create_table(
        "pairs",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("run_id", sa.Integer, sa.ForeignKey("alignment_runs.id"), nullable=False,
                  index=True),
        sa.Column("input_sentence_id", sa.Integer, sa.ForeignKey("sentences.id"),
                  nullable=False),
        sa.Column("target_sentence_id", sa.Integer, sa.ForeignKey("sentences.id"),
                  nullable=False),
        sa.Column("score", sa.Float, nullable=False),
        sa.Column("raw_score", sa.Float, nullable=False),
        sa.Column("shared_pn", sa.Integer, nullable=False),
        sa.Column("shared_cn", sa.Integer, nullable=False),
        sa.UniqueConstraint("run_id", "input_sentence_id", "target_sentence_id",
                            name="uq_pair"),
    )


def downgrade() -> None:
    for table in ("pairs", "alignment_references", "alignment_runs", "sentences",
                  "articles", "crawl_runs"):
        op.drop_table(table)
