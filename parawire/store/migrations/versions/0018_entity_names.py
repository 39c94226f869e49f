"""Entity search on PostgreSQL through the distinct names, not every sentence's names.

The trigram index over each sentence's JSON list of names (0008) answered a name part by
intersecting the lists of sentences holding each of its trigrams; a trigram most names share
("nam", "ell", "son") is in most sentences, so a search read hundreds of index pages
(2.5 ms for "name1721" at 200k sentences). Now `entity_names` holds each name once, with
the trigram index, and `sentence_entity_names` which sentences hold it: a search matches
the few names first, then looks their sentences up by B-tree (0.5 ms).

Statement triggers on `sentences` keep both in step with `proper_nouns` (the sentences a
statement inserted, or whose names an update changed: PostgreSQL takes no column list
beside transition tables, so the update trigger fires on every UPDATE and compares the
names itself); a deleted sentence's links go with it (ON DELETE CASCADE). A name no
sentence holds any more stays in `entity_names`, where it matches nothing. SQLite keeps
its FTS5 trigram table (0008).

Revision ID: 0018
Revises: 0017
"""

from alembic import op

revision = "0018"
down_revision = "0017"

_LINK = """
    INSERT INTO entity_names (name) SELECT DISTINCT n.name {names} {stored}
        ORDER BY n.name ON CONFLICT (name) DO NOTHING;
    INSERT INTO sentence_entity_names (name_id, sentence_id)
        SELECT DISTINCT e.id, s.id {names} JOIN entity_names AS e ON e.name = n.name {stored}
        ON CONFLICT DO NOTHING;"""
_CHANGED = ("(SELECT new_rows.* FROM new_rows JOIN old_rows ON old_rows.id = new_rows.id "
            "WHERE old_rows.proper_nouns::jsonb IS DISTINCT FROM new_rows.proper_nouns::jsonb)")


def _link(rows: str) -> str:
    """Statements linking the sentences of `rows` to their stored names (a JSON list of
    strings each), adding the names not seen before."""
    return _LINK.format(
        names=f"FROM {rows} AS s, LATERAL json_array_elements_text(CASE WHEN "
              f"json_typeof(s.proper_nouns) = 'array' THEN s.proper_nouns END) AS n(name)",
        stored="WHERE n.name IS NOT NULL")


FUNCTIONS = {
    "sentence_entity_names_insert": _link("new_rows"),
    "sentence_entity_names_update": (
        "DELETE FROM sentence_entity_names AS l USING " + _CHANGED + " AS c "
        "WHERE l.sentence_id = c.id;" + _link(_CHANGED)),
}
TRIGGERS = {"sentence_entity_names_insert": ("INSERT", "NEW TABLE AS new_rows"),
            "sentence_entity_names_update": ("UPDATE", "OLD TABLE AS old_rows "
                                                       "NEW TABLE AS new_rows")}
OLD_INDEX = "ix_sentences_names_trgm"


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("CREATE TABLE entity_names (id serial PRIMARY KEY, name text NOT NULL UNIQUE)")
    op.execute("CREATE INDEX ix_entity_names_trgm ON entity_names USING gin (name gin_trgm_ops)")
    op.execute("CREATE TABLE sentence_entity_names ("
               "name_id integer NOT NULL REFERENCES entity_names (id), "
               "sentence_id integer NOT NULL REFERENCES sentences (id) ON DELETE CASCADE, "
               "PRIMARY KEY (name_id, sentence_id))")
    op.execute("CREATE INDEX ix_sentence_entity_names_sentence_id "
               "ON sentence_entity_names (sentence_id)")
    for name, body in FUNCTIONS.items():
        op.execute(f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$ "
                   f"BEGIN {body} RETURN NULL; END $$")
    for name, (event, transitions) in TRIGGERS.items():
        op.execute(f"CREATE TRIGGER {name} AFTER {event} ON sentences "
                   f"REFERENCING {transitions} FOR EACH STATEMENT EXECUTE FUNCTION {name}()")
    op.execute(_link("sentences"))
    op.execute(f"DROP INDEX {OLD_INDEX}")
    op.execute("ANALYZE entity_names")
    op.execute("ANALYZE sentence_entity_names")


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(f"CREATE INDEX {OLD_INDEX} ON sentences "
               f"USING gin ((CAST(proper_nouns AS TEXT)) gin_trgm_ops)")
    for name in TRIGGERS:
        op.execute(f"DROP TRIGGER {name} ON sentences")
    for name in FUNCTIONS:
        op.execute(f"DROP FUNCTION {name}()")
    op.execute("DROP TABLE sentence_entity_names")
    op.execute("DROP TABLE entity_names")
