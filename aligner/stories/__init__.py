"""Stories: the articles that several outlets write about one event, grouped online."""

from parawire.aligner.stories.grouping import StoryText, group_day, story_text, story_vectors
from parawire.aligner.stories.stage import STORIES, StoriesScope

__all__ = ["STORIES", "StoriesScope", "StoryText", "group_day", "story_text",
           "story_vectors"]
