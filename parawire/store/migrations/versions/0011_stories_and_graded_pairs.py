"""Stories (the articles of one event, several outlets) and graded pairs: each pair's story,
the candidate source that found it, and the pair model's grade, direction and probability
per grade.

Columns are added in place (ALTER TABLE … ADD COLUMN), so a large store is not copied.

Revision ID: 0011
Revises: 0010
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"

PAIR_COLUMNS = ("story_id", "source", "grade", "direction", "grade_probabilities")


def upgrade() -> None:
    op.create_table(
        "stories",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("language", sa.String(16), nullable=False),
        sa.Column("first_day", sa.Date, index=True),
        sa.Column("last_day", sa.Date, index=True),
        sa.Column("headline", sa.Text, nullable=False),
        sa.Column("outlets", sa.JSON, nullable=False),
        sa.Column("article_count", sa.Integer, nullable=False),
    )
    op.create_index("ix_stories_language_last_day", "stories", ["language", "last_day"])
    op.create_table(
        "story_articles",
        sa.Column("article_id", sa.Integer, sa.ForeignKey("articles.id"), primary_key=True),
        sa.Column("story_id", sa.Integer, sa.ForeignKey("stories.id"), nullable=False,
                  index=True),
    )
    op.add_column("pairs", sa.Column("story_id", sa.Integer))
    op.add_column("pairs", sa.Column("source", sa.String(16), nullable=False,
                                     server_default="hcsss"))
    op.add_column("pairs", sa.Column("grade", sa.Integer))
    op.add_column("pairs", sa.Column("direction", sa.String(16)))
    op.add_column("pairs", sa.Column("grade_probabilities", sa.JSON))
    op.create_index("ix_pairs_story_id", "pairs", ["story_id"])


def downgrade() -> None:
    op.drop_index("ix_pairs_story_id", "pairs")
    with op.batch_alter_table("pairs") as batch:
        for column in reversed(PAIR_COLUMNS):
            batch.drop_column(column)
    op.drop_table("story_articles")
    op.drop_index("ix_stories_language_last_day", "stories")
    op.drop_table("stories")
