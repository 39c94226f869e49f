"""The titles source: a title's candidates are the other outlets' titles of its story.

A story holds a few titles, so each is read by the pair model rather than searched for:
outlets' headlines of one event restate each other in other words ("Supreme Court rules
states can penalize 'faithless electors'" / "... Can Punish 'Faithless Electors' Who Violate
Electoral Pledge") that share too few names and nouns for the HCSSS query. Titles are
aligned only within stories; the sentence sources leave them to this one."""

from __future__ import annotations

from collections.abc import Sequence

from parawire.aligner.candidates import CANDIDATE_SOURCES, Candidate, SearchContext, story_of
from parawire.aligner.oracle import within_filters
from parawire.records import Sentence


class StoryTitlesSource:
    """Every other outlet's title of a title's story that passes the search's filters (date
    window, topic, not a verbatim copy), all alike (score 1)."""

    name = "titles"

    def candidates(self, references: Sequence[Sentence],
                   context: SearchContext) -> list[Candidate]:
        """The story partners of the batch's titles (none when the run searches the window)."""
        if context.partners is None:
            return []
        titles = [r for r in references if r.is_title and r.id in context.partners]
        context.counts["title_references"] += len(titles)
        partners = context.store.sentences_by_id(
            {other for r in titles for other in context.partners[r.id][1]})
        found = [Candidate(title, partners[other], self.name, 1.0, 1.0,
                           story_id=story_of(title.id, context))
                 for title in titles for other in context.partners[title.id][1]
                 if other in partners
                 and within_filters(title, partners[other], context.params)]
        context.counts["title_candidates"] += len(found)
        return found


CANDIDATE_SOURCES[StoryTitlesSource.name] = StoryTitlesSource()
