"""The dashboard's search and counts on indexes, and the reviewer's name on review labels.

- Text and entity search: on SQLite an FTS5 table `sentence_search` (trigram tokenizer:
  case-insensitive substring match) over each sentence's text and its entity names, kept
  in step with `sentences` by triggers; on PostgreSQL trigram GIN indexes (pg_trgm) on the
  text and the entity names, which answer `ILIKE '%term%'` and `LIKE '%term%'`.
- B-tree indexes for every filter and order the dashboard uses, and covering indexes for
  the overview's counts by day, outlet, topic and language.
- `dashboard_overview`: the last overview counted, with the fingerprint it was counted at,
  so a dashboard that starts answers at once from it while it recounts.

Revision ID: 0008
Revises: 0004
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0004"

# The sentence column entity search reads (the JSON list of entity names). When the
# sentences carry canonical entity keys, point this and the store's ENTITY_COLUMN at them.
ENTITY_COLUMN = "proper_nouns"
FTS_TABLE = "sentence_search"
VOLUME_COLUMNS = ["published", "source", "topic", "language"]
INDEXES = {
    "ix_pairs_run_id_id": ("pairs", ["run_id", "id"]),
    "ix_pairs_input_sentence_id": ("pairs", ["input_sentence_id"]),
    "ix_pairs_target_sentence_id": ("pairs", ["target_sentence_id"]),
    "ix_sentences_source": ("sentences", ["source"]),
    "ix_sentences_volume": ("sentences", VOLUME_COLUMNS),
    "ix_articles_volume": ("articles", VOLUME_COLUMNS),
    "ix_alignment_references_sentence_id": ("alignment_references", ["sentence_id"]),
}
# (trigger, event, statements run for it: deleting the old row's terms, adding the new's)
_OLD = (f"INSERT INTO {FTS_TABLE}({FTS_TABLE}, rowid, text, names) "
        f"VALUES ('delete', old.id, old.text, old.{ENTITY_COLUMN});")
_NEW = (f"INSERT INTO {FTS_TABLE}(rowid, text, names) "
        f"VALUES (new.id, new.text, new.{ENTITY_COLUMN});")
TRIGGERS = {
    "sentence_search_insert": ("AFTER INSERT", _NEW),
    "sentence_search_delete": ("AFTER DELETE", _OLD),
    "sentence_search_update": (f"AFTER UPDATE OF text, {ENTITY_COLUMN}", _OLD + " " + _NEW),
}


def upgrade() -> None:
    with op.batch_alter_table("review_labels") as batch:
        batch.add_column(sa.Column("reviewer", sa.String(100), nullable=False,
                                   server_default=""))
    for name, (table, columns) in INDEXES.items():
        op.create_index(name, table, columns)
    op.create_table(
        "dashboard_overview",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("fingerprint", sa.JSON, nullable=False),
        sa.Column("overview", sa.JSON, nullable=False),
        sa.Column("counted_at", sa.DateTime, nullable=False),
    )
    if op.get_bind().dialect.name == "postgresql":
        op.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        op.execute("CREATE INDEX ix_sentences_text_trgm ON sentences USING gin (text gin_trgm_ops)")
        op.execute(f"CREATE INDEX ix_sentences_names_trgm ON sentences "
                   f"USING gin ((CAST({ENTITY_COLUMN} AS TEXT)) gin_trgm_ops)")
    else:
        # Contentless: the index only (the text stays in `sentences`), rowid = sentence id.
        op.execute(f"CREATE VIRTUAL TABLE {FTS_TABLE} USING fts5(text, names, content='', "
                   f"tokenize='trigram')")
        for trigger, (event, statements) in TRIGGERS.items():
            op.execute(f"CREATE TRIGGER {trigger} {event} ON sentences BEGIN {statements} END")
        op.execute(f"INSERT INTO {FTS_TABLE}(rowid, text, names) "
                   f"SELECT id, text, {ENTITY_COLUMN} FROM sentences")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP INDEX ix_sentences_names_trgm")
        op.execute("DROP INDEX ix_sentences_text_trgm")
    else:
        for trigger in TRIGGERS:
            op.execute(f"DROP TRIGGER {trigger}")
        op.execute(f"DROP TABLE {FTS_TABLE}")
    op.drop_table("dashboard_overview")
    for name, (table, _columns) in INDEXES.items():
        op.drop_index(name, table)
    with op.batch_alter_table("review_labels") as batch:
        batch.drop_column("reviewer")
