"""Which outlets a crawl reached: each outlet's listings and pages fetched or failed, the
one-line reason of its first failure, and the verdict on the outlet and on the run."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from urllib.parse import urlsplit

from parawire.records import OutletHealth, Reach

# How a failure is told to operators, by error class (the name the crawl counts it under);
# `{host}`, `{url}` and `{detail}` are filled in, the outlet's name and the tries added.
PHRASES: dict[str, str] = {
    "CannotResolveHostError": "host {host} could not be resolved",
    "DNSLookupError": "host {host} could not be resolved",
    "DownloadConnectionRefusedError": "{host} refused the connection",
    "ConnectionRefusedError": "{host} refused the connection",
    "TCPTimedOutError": "{host} did not accept the connection in time",
    "timeout": "{url} did not answer within crawl.download_timeout",
    "DownloadFailedError": "{url} could not be downloaded ({detail})",
    "ResponseDataLossError": "{url} was cut off before its end",
    "ResponseNeverReceived": "{host} closed the connection without an answer ({detail})",
    "robots_txt": "{url} is forbidden by the site's robots.txt",
    "bad_listing": "{url} is not a feed, sitemap or section page that can be read ({detail})",
}
HTTP_PHRASE = "{url} answered HTTP {status}"
OTHER_PHRASE = "{url} failed: {error} ({detail})"


def phrase(error: str, url: str, detail: str = "") -> str:
    """A failed fetch of `url`, in words."""
    if error.startswith("http_"):
        return HTTP_PHRASE.format(url=url, status=error.removeprefix("http_"))
    parts = urlsplit(url)
    host = parts.hostname or url
    if parts.port:
        host = f"{host}:{parts.port}"
    template = PHRASES.get(error, OTHER_PHRASE)
    return template.format(host=host, url=url, error=error, detail=detail or "no detail")


@dataclass(slots=True)
class Tally:
    """One outlet's listings and article pages in a run so far, with the first failure of
    each kind: (error class, in words)."""

    listings: int = 0
    listings_failed: int = 0
    pages: int = 0
    pages_failed: int = 0
    listing_failure: tuple[str, str] | None = None
    page_failure: tuple[str, str] | None = None

    def failed(self, listing: bool, error: str, url: str, tries: int = 1,
               detail: str = "") -> None:
        """Count a listing or an article page that failed (after `tries` tries)."""
        told = (error, phrase(error, url, detail) + (f" ({tries} tries)" if tries > 1 else ""))
        if listing:
            self.listings_failed += 1
            self.listing_failure = self.listing_failure or told
        else:
            self.pages_failed += 1
            self.page_failure = self.page_failure or told

    def state(self) -> Reach:
        """The verdict: failed when no listing could be read, or when every article page
        requested failed; partial when some listings failed; ok otherwise (a page that
        failed among others that came is routine, counted but no verdict)."""
        if self.listings == 0 and self.listings_failed > 0:
            return Reach.FAILED
        if self.pages == 0 and self.pages_failed > 0:
            return Reach.FAILED
        return Reach.PARTIAL if self.listings_failed else Reach.OK

    def failure(self) -> tuple[str, str]:
        """The error class and the words of what made the verdict (empty when ok)."""
        state = self.state()
        if state is Reach.OK:
            return "", ""
        if self.listing_failure is not None and (state is Reach.PARTIAL or self.listings == 0):
            error, words = self.listing_failure
            more = self.listings_failed - 1
            return error, words + (f" and {more} more listing(s) failed" if more else "")
        assert self.page_failure is not None
        error, words = self.page_failure
        return error, f"all {self.pages_failed} article page(s) failed, first: {words}"


def outlet_health(name: str, tally: Tally, previous: OutletHealth | None,
                  when: datetime) -> OutletHealth:
    """How an outlet fared in a run that ended at `when`, with its record carried on from
    its previous run: failed days count the days (UTC) with a failed run since the last run
    that reached it (a second failed run on the same day adds none)."""
    state = tally.state()
    error, words = tally.failure()
    reason = f"{name}: {words}" if words else ""
    health = OutletHealth(state=state, reason=reason, error=error,
                          listings=tally.listings, listings_failed=tally.listings_failed,
                          pages=tally.pages, pages_failed=tally.pages_failed)
    if previous is not None:
        health.last_success, health.failed_days = previous.last_success, previous.failed_days
        health.last_error, health.last_error_at = previous.last_error, previous.last_error_at
    if reason:
        health.last_error, health.last_error_at = reason, when
    if state is not Reach.FAILED:
        health.last_success, health.failed_days = when, 0
    elif not (previous is not None and previous.state is Reach.FAILED
              and previous.last_error_at is not None
              and previous.last_error_at.date() == when.date()):
        health.failed_days += 1
    return health


def run_verdict(outlets: dict[str, OutletHealth], stored: int) -> tuple[str, str]:
    """A crawl run's state and reason from its outlets: failed when every outlet failed;
    finished, with the failures, when some did; a quiet day when all were reached and no new
    article was stored."""
    failing = [health.reason for health in outlets.values() if health.state is not Reach.OK]
    if outlets and all(health.state is Reach.FAILED for health in outlets.values()):
        return "failed", "; ".join(failing)
    if failing:
        return "finished", "partial: " + "; ".join(failing)
    if stored == 0:
        listings = sum(health.listings for health in outlets.values())
        pages = sum(health.pages for health in outlets.values())
        return "finished", (f"quiet day: {listings} listing(s) and {pages} page(s) read, "
                            "no new article in the window")
    return "finished", ""
