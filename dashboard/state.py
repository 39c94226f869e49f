"""What every request of the dashboard shares: settings, store, token, overview cache,
index statistics, Prometheus metrics, the stories per day."""

from __future__ import annotations

from dataclasses import dataclass

from fastapi import Request

from parawire.config import Settings
from parawire.dashboard.overview import OverviewCache
from parawire.dashboard.runs import IndexStatsCache
from parawire.dashboard.throttle import Throttled
from parawire.records import StoryDay
from parawire.store import Store


@dataclass(slots=True)
class DashboardState:
    """The dashboard's shared parts, kept on app.state.dashboard."""

    settings: Settings
    store: Store
    token: str
    overview: OverviewCache
    index: IndexStatsCache
    metrics: Throttled[bytes]
    story_days: Throttled[list[StoryDay]]  # newest first, MAX_STORY_DAYS of them


async def state_of(request: Request) -> DashboardState:
    """The state of the app serving this request (a FastAPI dependency; async, so that it
    runs on the event loop instead of taking a worker thread of its own)."""
    return request.app.state.dashboard
