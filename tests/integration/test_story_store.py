"""Stories in the store, and the pair fields of graded pairs, on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import date

from parawire.records import TITLE_POSITION, Pair, Story
from tests.factories import make_article, make_sentence


def _articles(store, outlets: list[str]) -> list[int]:
    ids = []
    for n, outlet in enumerate(outlets):
        stored = make_article(n, source=outlet, url=f"http://{outlet}.test/{n}")
        store.add_article(stored)
        ids.append(stored.id)
    return ids


def test_a_story_keeps_its_articles_and_an_article_moves_between_stories(store):
    a, b, c = _articles(store, ["outlet-a", "outlet-b", "outlet-c"])
    first = Story("en", date(2026, 3, 1), date(2026, 3, 2), [a, b], ["outlet-a", "outlet-b"],
                  "Council passes the budget")
    second = Story("en", date(2026, 3, 2), date(2026, 3, 2), [c], ["outlet-c"], "Storm")
    assert store.save_stories([first, second]) == [first.id, second.id]
    assert store.story(first.id) == first
    assert store.stories_of_articles([a, b, c, 999]) == {a: first.id, b: first.id, c: second.id}

    second.article_ids, second.outlets = [b, c], ["outlet-b", "outlet-c"]
    first.article_ids, first.outlets = [a], ["outlet-a"]
    store.save_stories([second, first])
    assert store.stories_of_articles([a, b, c]) == {a: first.id, b: second.id, c: second.id}
    assert store.story(second.id).article_ids == [b, c]
    assert store.story(12345) is None


def test_stories_are_listed_by_language_and_overlapping_days(store):
    a, b, c = _articles(store, ["outlet-a", "outlet-b", "outlet-c"])
    early = Story("en", date(2026, 3, 1), date(2026, 3, 3), [a], ["outlet-a"], "early")
    late = Story("en", date(2026, 3, 5), date(2026, 3, 5), [b], ["outlet-b"], "late")
    french = Story("fr", date(2026, 3, 2), date(2026, 3, 2), [c], ["outlet-c"], "fr")
    store.save_stories([early, late, french])
    assert [s.headline for s in store.stories_between("en")] == ["early", "late"]
    assert [s.headline for s in store.stories_between("en", date(2026, 3, 3), date(2026, 3, 4))] \
        == ["early"]
    assert [s.headline for s in store.stories_between("en", since=date(2026, 3, 4))] == ["late"]
    assert [s.headline for s in store.stories_between("fr", until=date(2026, 3, 1))] == []


def test_story_partners_are_the_other_outlets_sentences_of_the_story(store):
    a, b, c, d = _articles(store, ["outlet-a", "outlet-b", "outlet-a", "outlet-c"])
    for article_id, source in ((a, "outlet-a"), (b, "outlet-b"), (c, "outlet-a"),
                               (d, "outlet-c")):
        store.save_annotations(article_id, [
            make_sentence(None, article_id, ["Paris"], ["budget"], source=source, position=p)
            for p in range(2)])
    sentences = {s.id: s for batch in store.iter_sentences() for s in batch}
    by_article: dict[int, list[int]] = {}
    for sid, sentence in sorted(sentences.items()):
        by_article.setdefault(sentence.article_id, []).append(sid)
    story = Story("en", date(2026, 3, 2), date(2026, 3, 2), [a, b, c],
                  ["outlet-a", "outlet-b"], "budget")
    store.save_stories([story])
    partners = store.story_partners([by_article[a][0], by_article[b][1], by_article[d][0]])
    assert partners == {by_article[a][0]: (story.id, by_article[b]),
                        by_article[b][1]: (story.id, sorted(by_article[a] + by_article[c]))}
    store.save_stories([Story("en", date(2026, 3, 2), date(2026, 3, 2), [d], ["outlet-c"],
                              "alone")])

    def told_by(outlets: int) -> list[int]:
        return [s.id for batch in store.iter_sentences(min_story_outlets=outlets, batch_size=3)
                for s in batch]

    assert told_by(2) == sorted(by_article[a] + by_article[b] + by_article[c])
    assert told_by(1) == sorted(sentences) and told_by(3) == []


def test_a_title_partners_the_other_outlets_titles_and_a_sentence_their_sentences(store):
    a, b = _articles(store, ["outlet-a", "outlet-b"])
    for article_id, source in ((a, "outlet-a"), (b, "outlet-b")):
        store.save_annotations(article_id, [
            make_sentence(None, article_id, ["Paris"], ["budget"], source=source, position=p)
            for p in (TITLE_POSITION, 0, 1)])
    ids = {(s.article_id, s.position): s.id for batch in store.iter_sentences() for s in batch}
    story = Story("en", date(2026, 3, 2), date(2026, 3, 2), [a, b], ["outlet-a", "outlet-b"],
                  "budget")
    store.save_stories([story])
    partners = store.story_partners([ids[a, TITLE_POSITION], ids[a, 0]])
    assert partners == {ids[a, TITLE_POSITION]: (story.id, [ids[b, TITLE_POSITION]]),
                        ids[a, 0]: (story.id, [ids[b, 0], ids[b, 1]])}


def test_pairs_keep_their_story_source_grade_and_direction(store):
    a, b = _articles(store, ["outlet-a", "outlet-b"])
    for article_id in (a, b):
        store.save_annotations(article_id, [make_sentence(None, article_id, ["Paris"], ["budget"])])
    first, second = sorted(s.id for batch in store.iter_sentences() for s in batch)
    story = Story("en", date(2026, 3, 2), date(2026, 3, 2), [a, b], ["outlet-a", "outlet-b"], "x")
    store.save_stories([story])
    run = store.find_or_start_alignment_run("key", {})
    pair = Pair(run.id, first, second, 0.9, 3.0, 1, 1, probability=0.8, features={"cosine": 0.7},
                story_id=story.id, source="dense", grade=3, direction="a_covers_b",
                grade_probabilities=[0.0, 0.05, 0.1, 0.6, 0.2, 0.05])
    store.record_references(run.id, [first], [pair])
    assert store.pairs(run.id) == [pair]
    better = Pair(run.id, first, second, 0.95, 3.0, 1, 1, source="hcsss", grade=4,
                  direction="equivalent", grade_probabilities=[0, 0, 0, 0.1, 0.8, 0.1])
    store.record_references(run.id, [second], [better])
    assert store.pairs(run.id) == [better]


def test_articles_without_story_inputs_deleting_and_counting_stories(store):
    a, b, c = _articles(store, ["outlet-a", "outlet-b", "outlet-c"])
    assert [x.id for x in store.articles_without_story(lead_chars=8)] == [a, b, c]
    both = Story("en", date(2026, 3, 2), date(2026, 3, 2), [a, b], ["outlet-a", "outlet-b"], "t")
    alone = Story("en", date(2026, 3, 2), date(2026, 3, 2), [c], ["outlet-c"], "u")
    store.save_stories([both, alone])
    assert store.articles_without_story(lead_chars=8) == []
    inputs = store.story_inputs([a, 999], lead_chars=8)
    assert list(inputs) == [a] and inputs[a].lead == "Body of " and inputs[a].source == "outlet-a"
    assert inputs[a].published == date(2026, 3, 2) and inputs[a].title == "Title 0"
    assert store.story_counts() == {"stories": 2, "multi_outlet_stories": 1,
                                    "single_article_stories": 1, "articles_in_no_story": 0}
    assert store.delete_stories([both.id, 12345]) == 1
    assert [x.id for x in store.articles_without_story(lead_chars=8)] == [a, b]
    assert store.story_counts()["articles_in_no_story"] == 2


def test_story_days_count_stories_several_outlets_and_articles_per_opening_day(store):
    """Counted in the database per day, newest first, `limit` days."""
    a, b, c, d = _articles(store, ["outlet-a", "outlet-b", "outlet-c", "outlet-a"])
    store.save_stories([
        Story("en", date(2026, 3, 1), date(2026, 3, 2), [a, b], ["outlet-a", "outlet-b"], "x"),
        Story("en", date(2026, 3, 1), date(2026, 3, 1), [c], ["outlet-c"], "y"),
        Story("fr", date(2026, 3, 4), date(2026, 3, 4), [d], ["outlet-a"], "z"),
        Story("en", None, None, [], [], "no day")])
    assert [tuple(day) for day in store.story_days()] == [
        (date(2026, 3, 4), 1, 0, 1), (date(2026, 3, 1), 2, 1, 3)]
    assert [day.day for day in store.story_days(limit=1)] == [date(2026, 3, 4)]
