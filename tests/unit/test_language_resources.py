from types import SimpleNamespace

from parawire.nlp.entities import ArticleEntities, Mention, mention
from parawire.nlp.resources import language_resources


def test_english_and_french_lists_are_shipped():
    en, fr = language_resources("en"), language_resources("fr")
    assert {"mr", "sen", "defence minister"} <= en.titles
    assert {"monday", "july"} <= en.calendar_words
    assert {"m", "mme", "ministre"} <= fr.titles and "lundi" in fr.calendar_words
    assert en.longest_title >= 3  # "senate majority leader"


def test_keys_other_than_the_word_lists_are_left_alone(tmp_path):
    (tmp_path / "zz.toml").write_text('titles = ["Dr"]\n[topics]\neconomy = ["bank"]\n')
    assert language_resources("zz", tmp_path).titles == frozenset({"dr"})


def _tokens(text: str) -> list[SimpleNamespace]:
    return [SimpleNamespace(text=w, pos_="PROPN", tag_="POS" if w == "'s" else "NNP")
            for w in text.split()]


def test_mentions_drop_titles_possessives_dots_and_hyphens():
    en = language_resources("en")
    assert mention(_tokens("Defence Minister Ahmed Al-Ghozi 's"), "PERSON", en) == Mention(
        ("ahmed", "al", "ghozi"), "PERSON")
    assert mention(_tokens("U.S."), "GPE", en) == Mention(("us",), "GPE")
    assert mention(_tokens("Sen."), "", en) is None
    assert mention(_tokens("Monday"), "", en) is None
    # an organisation keeps a leading word that is also a title
    assert mention(_tokens("Director General Office"), "ORG", en).words == (
        "director", "general", "office")


def test_resolution_is_within_one_article_and_keys_people_by_family_name():
    article = ArticleEntities()
    assert article.keys([Mention(("carlton", "dotson"), "PERSON")]) == ["dotson"]
    assert article.keys([Mention(("kings", "county", "hospital", "center"), "ORG")]) == [
        "kings county hospital center"]
    assert article.keys([Mention(("kings", "county", "hospital"), "ORG"), None]) == [
        "kings county hospital center"]
    assert article.keys([Mention(("center",), "ORG")]) == ["center"]  # one word: people only
    assert ArticleEntities().keys([Mention(("kings", "county", "hospital"), "ORG")]) == [
        "kings county hospital"]
