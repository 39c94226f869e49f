"""Story grouping on real headlines and leads (NeuS train, stories train-0, train-112 and
train-22): the same story, another story, and the same topic but another event."""

from __future__ import annotations

from datetime import date

import numpy as np

from parawire.aligner.stories import StoryText, group_day, story_text, story_vectors
from parawire.config import StoriesConfig

# train-0: Trump criticises Kerry's "shadow diplomacy" on the Iran deal
KERRY = [
    ("Trump slams John Kerry for 'shadow diplomacy' on Iran deal",
     'President Trump on Monday slammed former Secretary of State John Kerry for reportedly working to save'
     ' the Iran nuclear deal.'),
    ('Trump castigates Kerry for ‘Shadow Diplomacy’ to save Iran nuclear deal',
     'President Trump on Monday castigated John F. Kerry following a report that the former secretary of '
     'state was engaged in unusual shadow diplomacy in a bid to preserve the pact he helped negotiate to '
     'limit Iran’s nuclear program.'),
]
# train-112: Iran abandons its nuclear deal limits (the same topic, another event)
NUCLEAR_DEAL = [
    ('Iran rolls back nuclear deal commitments',
     'Iran has declared it will no longer abide by any of the restrictions imposed by the 2015 nuclear '
     'deal. In a statement it said it would no longer observe limitations on its capacity for enrichment, '
     'the level of enrichment, the stock of enriched material, or research and development. The statement '
     'came after a meeting of the Iranian cabinet in Tehran.'),
    ('Iran to abandon nuclear deal and step up uranium enrichment',
     'Iran announced it would no longer abide by any limits on its enrichment of uranium in what could be '
     "the final blow to the country's 2015 nuclear deal. According to Iranian state TV, the Iranian "
     'government said Sunday that the country would not comply with any elements of the unraveling 2015 '
     'nuclear deal with world powers, which was negotiated by the Obama administration.'),
    ('Iran pulling out of nuclear deal commitment after U.S. strike that killed Soleimani',
     'Iran said Sunday that it was ending its commitment to limit enrichment of uranium as part of its 2015'
     ' nuclear deal with world powers, more fallout from the U.S. strike that killed Gen. Qassem Soleimani.'
     ' President Donald Trump unilaterally withdrew from the deal last May, renewing tensions between the '
     'two countries that reached new heights after Friday’s air strike.'),
]
# train-22: Trump's UN speech on North Korea (another story)
NORTH_KOREA = [
    ('Trump to rail against North Korea at U.N., seek united front against nuclear and missile programs',
     'President Trump will turn up the heat on North Korea and call out countries that coddle the rogue '
     'regime Tuesday in his first address to the United Nations General Assembly, said a senior White House'
     ' official who recognized that the threat of war loomed over the speech.'),
    ("Trump to UN: confront North Korea and Iran or risk being 'bystanders in history'",
     'Donald Trump will use his first address to the UN general assembly on Tuesday to call for '
     'international action to confront North Korea and Iran, which he will portray as twin threats to '
     'global security, the White House said.'),
]

CONFIG = StoriesConfig()  # the defaults


def _text(article_id: int, outlet: str, article: tuple[str, str]) -> StoryText:
    return StoryText(article_id, outlet, date(2020, 1, 6), story_text(*article, lead_words=60))


def test_the_same_story_joins_and_another_event_on_the_same_topic_opens_its_own():
    open_stories = [[_text(1, "outlet-a", KERRY[0])]]
    new = [_text(2, "outlet-b", KERRY[1]),
           *(_text(3 + k, f"outlet-{k}", article) for k, article in enumerate(NUCLEAR_DEAL)),
           _text(6, "outlet-a", NORTH_KOREA[0]), _text(7, "outlet-b", NORTH_KOREA[1])]
    assert group_day(open_stories, new, CONFIG) == [0, 1, 1, 1, 2, 2]


def test_a_story_opened_by_the_day_is_joined_later_the_same_day():
    new = [_text(1, "outlet-a", NUCLEAR_DEAL[0]), _text(2, "outlet-b", NORTH_KOREA[0]),
           _text(3, "outlet-c", NUCLEAR_DEAL[1])]
    assert group_day([], new, CONFIG) == [0, 1, 0]


def test_a_higher_threshold_splits_what_a_lower_one_groups():
    new = [_text(1, "outlet-a", KERRY[0]), _text(2, "outlet-b", KERRY[1])]
    assert group_day([], new, CONFIG) == [0, 0]
    assert group_day([], new, CONFIG.model_copy(update={"threshold": 0.99})) == [0, 1]


def test_no_new_article_and_texts_without_words():
    assert group_day([[_text(1, "outlet-a", KERRY[0])]], [], CONFIG) == []
    empty = [StoryText(1, "a", date(2020, 1, 6), "!"), StoryText(2, "b", date(2020, 1, 6), "?")]
    assert group_day([], empty, CONFIG) == [0, 1]


def test_words_of_one_text_only_would_split_a_story_at_full_weight():
    """In this window of seven texts the third Iran article shares its story's words, but
    its own words (Soleimani, the strike) lengthen its vector: at full weight it opens a
    story of its own at the tuned threshold; at the configured weight it joins its story."""
    open_stories = [[_text(1, "outlet-a", KERRY[0])]]
    new = [_text(2, "outlet-b", KERRY[1]),
           *(_text(3 + k, f"outlet-{k}", article) for k, article in enumerate(NUCLEAR_DEAL)),
           _text(6, "outlet-a", NORTH_KOREA[0]), _text(7, "outlet-b", NORTH_KOREA[1])]
    full_weight = CONFIG.model_copy(update={"lone_word_weight": 1.0})
    assert group_day(open_stories, new, full_weight) == [0, 1, 1, 2, 3, 3]
    assert group_day(open_stories, new, CONFIG) == [0, 1, 1, 1, 2, 2]


def test_in_a_window_of_few_texts_lone_words_keep_their_weight():
    """Two articles alone in their window: nearly every word is in one of them only, and
    weighing those down would join Iran's nuclear deal with North Korea at the UN."""
    new = [_text(1, "outlet-a", NUCLEAR_DEAL[0]), _text(2, "outlet-a", NORTH_KOREA[0])]
    assert group_day([], new, CONFIG) == [0, 1]
    assert group_day([], new, CONFIG.model_copy(update={"lone_word_min_texts": 1})) == [0, 0]


def test_words_of_one_text_weigh_less_and_rows_stay_unit_length():
    texts = ["iran deal kerry", "iran deal enrichment", "storm power"]
    plain, weighted = story_vectors(texts, 1.0, 1), story_vectors(texts, 0.5, 1)
    assert np.allclose(np.linalg.norm(weighted.toarray(), axis=1), 1.0)
    assert (weighted @ weighted.T)[0, 1] > (plain @ plain.T)[0, 1]
    assert (weighted @ weighted.T)[0, 2] == 0.0
    few = story_vectors(texts, 0.5, 4)
    assert np.allclose((few @ few.T).toarray(), (plain @ plain.T).toarray())


def test_story_text_is_the_title_and_the_first_words():
    assert story_text("Title", "one two three four", lead_words=2) == "Title Title one two"
    assert story_text("", "", lead_words=5) == ""
