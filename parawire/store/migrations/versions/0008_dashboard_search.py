"""The dashboard's search and counts on indexes, and the reviewer's name on review labels.

- Full-text search (words): on SQLite the FTS5 table `sentence_text_search` (unicode61
  words, case folded, accents kept), on PostgreSQL a GIN index on `to_tsvector('simple',
  ...)` of the text's letters and digits (the rest made spaces, as unicode61 reads it).
- Entity search (any part of a name): on SQLite the FTS5 table `sentence_name_search`
  (trigram tokenizer: a case-insensitive substring match) over the entity names, on
  PostgreSQL a trigram GIN index (pg_trgm) on their text, which answers `LIKE '%term%'`.
- Both FTS5 tables are contentless (rowid = sentence id) and kept in step with `sentences`
  by triggers.
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
down_revision = "0007"

# The sentence column entity search reads: the JSON list of the names as written (a user
# searches "Carlton Dotson" or "Dotson"; the canonical entity keys keep only what matching
# needs).
ENTITY_COLUMN = "proper_nouns"
# FTS5 table -> (sentence column it indexes, tokenizer)
FTS_TABLES = {"sentence_text_search": ("text", "unicode61 remove_diacritics 0"),
              "sentence_name_search": (ENTITY_COLUMN, "trigram")}
# PostgreSQL's words of a text: letters and digits, anything else a space (as SQLite's
# unicode61 reads them; the store's query uses the same expression).
PG_WORDS = "regexp_replace(text, '[^[:alnum:]]+', ' ', 'g')"
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


def _triggers(table: str, column: str) -> dict[str, tuple[str, str]]:
    """(trigger name -> (event, statements)) keeping an FTS5 table in step with `column`."""
    old = f"INSERT INTO {table}({table}, rowid, terms) VALUES ('delete', old.id, old.{column});"
    new = f"INSERT INTO {table}(rowid, terms) VALUES (new.id, new.{column});"
    return {f"{table}_insert": ("AFTER INSERT", new), f"{table}_delete": ("AFTER DELETE", old),
            f"{table}_update": (f"AFTER UPDATE OF {column}", old + " " + new)}


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
        op.execute(f"CREATE INDEX ix_sentences_text_words ON sentences "
                   f"USING gin (to_tsvector('simple', {PG_WORDS}))")
        op.execute(f"CREATE INDEX ix_sentences_names_trgm ON sentences "
                   f"USING gin ((CAST({ENTITY_COLUMN} AS TEXT)) gin_trgm_ops)")
    else:
        for table, (column, tokenizer) in FTS_TABLES.items():
            # Contentless: the index only (the text stays in `sentences`).
            op.execute(f"CREATE VIRTUAL TABLE {table} USING fts5(terms, content='', "
                       f"tokenize='{tokenizer}')")
            for trigger, (event, statements) in _triggers(table, column).items():
                op.execute(f"CREATE TRIGGER {trigger} {event} ON sentences "
                           f"BEGIN {statements} END")
            op.execute(f"INSERT INTO {table}(rowid, terms) SELECT id, {column} FROM sentences")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP INDEX ix_sentences_names_trgm")
        op.execute("DROP INDEX ix_sentences_text_words")
    else:
        for table, (column, _tokenizer) in FTS_TABLES.items():
            for trigger in _triggers(table, column):
                op.execute(f"DROP TRIGGER {trigger}")
            op.execute(f"DROP TABLE {table}")
    op.drop_table("dashboard_overview")
    for name, (table, _columns) in INDEXES.items():
        op.drop_index(name, table)
    with op.batch_alter_table("review_labels") as batch:
        batch.drop_column("reviewer")
