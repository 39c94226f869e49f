"""The store's tables (SQLAlchemy Core). Alembic migrations create and evolve them."""

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Date,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
)

metadata = MetaData()
crawl_runs = Table(
    "crawl_runs",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("started_at", DateTime, nullable=False),
    Column("finished_at", DateTime),
    Column("status", String(32), nullable=False),
    Column("parameters", JSON, nullable=False),
    Column("counts", JSON, nullable=False),
    # Why a run failed or was interrupted (empty while running and once finished).
    Column("reason", Text),
)

articles = Table(
    "articles",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("url", String(2048), nullable=False, unique=True),
    Column("canonical_url", String(2048), nullable=False, index=True),
    Column("source", String(200), nullable=False, index=True),
    Column("language", String(16), nullable=False),
    Column("topic", String(64), nullable=False, index=True),
    Column("published", Date, index=True),
    Column("crawled_at", DateTime, nullable=False),
    Column("title", Text, nullable=False),
    Column("text", Text, nullable=False),
    Column("author", String(500), nullable=False),
    Column("content_hash", String(64), nullable=False, unique=True),
    Column("annotated", Boolean, nullable=False, default=False, index=True),
    Column("crawl_run_id", Integer, ForeignKey("crawl_runs.id")),
    # The text's 64-bit fingerprint (hex; the crawler's SimHash).
    Column("simhash", String(16)),
    # Set on a syndicated (near-duplicate) copy: the id of the original.
    Column("syndicated_of", Integer),
    # Whether the collocation counts below include this article's sentences.
    Column("collocations_counted", Boolean, nullable=False, default=False,
           server_default=false(), index=True),
)

sentences = Table(
    "sentences",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("article_id", Integer, ForeignKey("articles.id"), nullable=False, index=True),
    Column("position", Integer, nullable=False),
    Column("text", Text, nullable=False),
    Column("tokens", JSON, nullable=False),
    Column("lemmas", JSON, nullable=False),
    Column("pos", JSON, nullable=False),
    Column("entities", JSON, nullable=False),
    Column("proper_nouns", JSON, nullable=False),
    Column("common_nouns", JSON, nullable=False),
    Column("collocations", JSON, nullable=False),
    Column("language", String(16), nullable=False, index=True),
    Column("topic", String(64), nullable=False),
    Column("published", Date),
    Column("source", String(200), nullable=False),
    # The canonical keys of its names (Algorithm 1's PN); proper_nouns keeps the surface forms.
    Column("entity_keys", JSON, nullable=False),
    UniqueConstraint("article_id", "position", name="uq_sentence_position"),
)

# Stories (revision 0011): the articles of one event, each article in at most one story.
stories = Table(
    "stories",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("language", String(16), nullable=False),
    Column("first_day", Date, index=True),
    Column("last_day", Date, index=True),
    Column("headline", Text, nullable=False),
    Column("outlets", JSON, nullable=False),
    Column("article_count", Integer, nullable=False),
)

story_articles = Table(
    "story_articles",
    metadata,
    Column("article_id", Integer, ForeignKey("articles.id"), primary_key=True),
    Column("story_id", Integer, ForeignKey("stories.id"), nullable=False, index=True),
)

alignment_runs = Table(
    "alignment_runs",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("run_key", String(64), nullable=False, index=True),
    Column("parameters", JSON, nullable=False),
    Column("started_at", DateTime, nullable=False),
    Column("finished_at", DateTime),
    Column("status", String(32), nullable=False),
    Column("counts", JSON, nullable=False),
    Column("reason", Text),
)

alignment_references = Table(
    "alignment_references",
    metadata,
    Column("run_id", Integer, ForeignKey("alignment_runs.id"), primary_key=True),
    Column("sentence_id", Integer, ForeignKey("sentences.id"), primary_key=True),
)

# The counts of each stored batch of an alignment run (keyed by its first reference), written
# with the batch's pairs: a run's counts are their sum.
alignment_batches = Table(
    "alignment_batches",
    metadata,
    Column("run_id", Integer, ForeignKey("alignment_runs.id"), primary_key=True),
    Column("first_reference_id", Integer, primary_key=True),
    Column("counts", JSON, nullable=False),
)

pairs = Table(
    "pairs",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("run_id", Integer, ForeignKey("alignment_runs.id"), nullable=False, index=True),
    Column("input_sentence_id", Integer, ForeignKey("sentences.id"), nullable=False),
    Column("target_sentence_id", Integer, ForeignKey("sentences.id"), nullable=False),
    Column("score", Float, nullable=False),
    Column("raw_score", Float, nullable=False),
    Column("shared_pn", Integer, nullable=False),
    Column("shared_cn", Integer, nullable=False),
    # The pair scorer's probability and the signals it read (None/{} before revision 0005).
    Column("probability", Float),
    Column("features", JSON),
    # Graded pairs (revision 0011): the story, the candidate source, the pair model's grade,
    # direction and probability per grade.
    Column("story_id", Integer),
    Column("source", String(16), nullable=False, server_default="hcsss"),
    Column("grade", Integer),
    Column("direction", String(16)),
    Column("grade_probabilities", JSON),
    UniqueConstraint("run_id", "input_sentence_id", "target_sentence_id", name="uq_pair"),
)

# An operator's verdict on one pair (the dashboard's review page); one label per pair.
review_labels = Table(
    "review_labels",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("run_id", Integer, ForeignKey("alignment_runs.id"), nullable=False, index=True),
    Column("pair_id", Integer, ForeignKey("pairs.id"), nullable=False, unique=True),
    Column("correct", Boolean, nullable=False),
    Column("labeled_at", DateTime, nullable=False),
    Column("reviewer", String(100), nullable=False, server_default=""),
    # The reader's grade (0-5) and direction, the input as side a (migration 0016); labels
    # given as right or wrong only carry neither.
    Column("grade", Integer),
    Column("direction", String(16)),
)

# The dashboard's indexes (migration 0008): every filter and order of its queries, and the
# overview's counts by (day, outlet, topic, language) read from covering indexes.
VOLUME_COLUMNS = ("published", "source", "topic", "language")
Index("ix_pairs_run_id_id", pairs.c.run_id, pairs.c.id)
Index("ix_pairs_input_sentence_id", pairs.c.input_sentence_id)
Index("ix_pairs_target_sentence_id", pairs.c.target_sentence_id)
Index("ix_pairs_story_id", pairs.c.story_id)
# The pair browser's grade/direction filters (with extended statistics on PostgreSQL: 0017).
Index("ix_pairs_direction_grade_id", pairs.c.direction, pairs.c.grade, pairs.c.id)
Index("ix_stories_language_last_day", stories.c.language, stories.c.last_day)
Index("ix_sentences_source", sentences.c.source)
Index("ix_sentences_volume", *(sentences.c[name] for name in VOLUME_COLUMNS))
Index("ix_articles_volume", *(articles.c[name] for name in VOLUME_COLUMNS))
Index("ix_alignment_references_sentence_id", alignment_references.c.sentence_id)
# Migration 0015: a run's references and pairs counted by their sentences' volume columns
# from this index alone (the join reads no sentence row).
Index("ix_sentences_id_volume", sentences.c.id, *(sentences.c[name] for name in VOLUME_COLUMNS))
# The dashboard's last overview (one row) and the fingerprint of the store it counted.
dashboard_overview = Table(
    "dashboard_overview",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("fingerprint", JSON, nullable=False),
    Column("overview", JSON, nullable=False),
    Column("counted_at", DateTime, nullable=False),
)
# Text and entity search (migrations 0008, 0018), outside SQLAlchemy's tables. On SQLite two
# contentless FTS5 tables (column `terms`, rowid = sentence id) kept in step with `sentences`
# by triggers: TEXT_SEARCH over the text (unicode61 words), NAME_SEARCH over ENTITY_COLUMN
# (trigram: substrings). On PostgreSQL a GIN index on to_tsvector('simple', text), and
# ENTITY_NAMES (id, name: each name of ENTITY_COLUMN once, pg_trgm GIN index on name) with
# SENTENCE_ENTITY_NAMES (name_id, sentence_id), kept in step by triggers.
TEXT_SEARCH = "sentence_text_search"
NAME_SEARCH = "sentence_name_search"
ENTITY_NAMES = "entity_names"
SENTENCE_ENTITY_NAMES = "sentence_entity_names"
ENTITY_COLUMN = "proper_nouns"


# The statistics of PMI collocations per language, kept up to date as articles are annotated:
# how often each lemma and each candidate pair of adjacent lemmas occurs, and how many lemmas
# were counted in all.
def _occurrences(name: str, *key: str, scope: Column | None = None,
                 count: str = "occurrences") -> Table:
    """A table of how often each key occurs within a scope (default: a language's sentences)."""
    return Table(
        name,
        metadata,
        scope if scope is not None else Column("language", String(16), primary_key=True),
        *(Column(column, Text, primary_key=True) for column in key),
        Column(count, BigInteger, nullable=False),
    )


collocation_words = _occurrences("collocation_words", "word")
collocation_pairs = _occurrences("collocation_pairs", "first_word", "second_word")
collocation_totals = _occurrences("collocation_totals")


# What the crawler learns of each outlet's pages (crawler.outlets): how many pages it has
# seen, and on how many of them each body line (by key) and each title prefix/suffix came.
def _outlet_counts(name: str, *key: str) -> Table:
    return _occurrences(name, *key, scope=Column("outlet", String(255), primary_key=True),
                        count="pages")


outlet_pages = _outlet_counts("outlet_pages")
outlet_lines = _outlet_counts("outlet_lines", "line_key")
outlet_affixes = _outlet_counts("outlet_affixes", "affix")
