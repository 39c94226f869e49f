"""An outlet's verdict in a run, its record carried from run to run (failed days count days,
not runs), a run's verdict from its outlets, and the retry waits an unreachable outlet costs."""

from __future__ import annotations

from datetime import datetime

from parawire.crawler.reach import Tally, outlet_health, phrase, run_verdict
from parawire.crawler.retry import retry_wait
from parawire.records import Reach
from parawire.store.rows import health_record, health_values

DAY1, DAY1_LATER = datetime(2026, 11, 23, 3, 0), datetime(2026, 11, 23, 15, 0)
DAY2, DAY3 = datetime(2026, 11, 24, 3, 0), datetime(2026, 11, 25, 3, 0)


def dark() -> Tally:
    tally = Tally()
    tally.failed(True, "CannotResolveHostError", "https://feeds.example.org/rss.xml", tries=3)
    return tally


def reached() -> Tally:
    tally = Tally(listings=1, pages=4)
    tally.failed(False, "http_404", "https://example.org/gone.html")  # routine
    return tally


def test_the_verdict_on_an_outlet_follows_its_listings_and_pages():
    assert dark().state() is Reach.FAILED
    assert reached().state() is Reach.OK and reached().failure() == ("", "")
    moved = Tally(listings=1)
    moved.failed(True, "http_404", "https://example.org/feed.xml")
    assert moved.state() is Reach.PARTIAL
    assert moved.failure() == ("http_404", "https://example.org/feed.xml answered HTTP 404")
    blocked = Tally(listings=1)
    for n in range(3):
        blocked.failed(False, "http_403", f"https://example.org/{n}.html", tries=1)
    assert blocked.state() is Reach.FAILED
    assert blocked.failure()[1] == ("all 3 article page(s) failed, first: "
                                    "https://example.org/0.html answered HTTP 403")
    assert dark().failure()[1] == "host feeds.example.org could not be resolved (3 tries)"


def test_failed_days_count_days_with_a_failed_run_since_the_last_success():
    first = outlet_health("wire", dark(), None, DAY1)
    assert (first.state, first.failed_days, first.last_success) == (Reach.FAILED, 1, None)
    assert first.last_error == "wire: host feeds.example.org could not be resolved (3 tries)"
    again = outlet_health("wire", dark(), first, DAY1_LATER)
    assert again.failed_days == 1 and again.last_error_at == DAY1_LATER
    second_day = outlet_health("wire", dark(), again, DAY2)
    assert second_day.failed_days == 2  # an alert on "failed 2 days running" fires here
    back = outlet_health("wire", reached(), second_day, DAY3)
    assert (back.state, back.failed_days, back.last_success) == (Reach.OK, 0, DAY3)
    assert (back.last_error, back.last_error_at) == (second_day.last_error, DAY2)
    dark_again = outlet_health("wire", dark(), back, DAY3)
    assert (dark_again.failed_days, dark_again.last_success) == (1, DAY3)


def test_an_outlet_health_survives_the_store_json():
    health = outlet_health("wire", dark(), outlet_health("wire", reached(), None, DAY1), DAY2)
    assert health_record(health_values(health)) == health


def test_a_run_fails_when_every_outlet_failed_and_is_partial_when_some_did():
    failed = outlet_health("a", dark(), None, DAY1)
    ok = outlet_health("b", reached(), None, DAY1)
    assert run_verdict({"a": failed}, 0) == ("failed", failed.reason)
    assert run_verdict({"a": failed, "b": ok}, 3) == ("finished", f"partial: {failed.reason}")
    assert run_verdict({"b": ok}, 3) == ("finished", "")
    assert run_verdict({"b": ok}, 0) == (
        "finished", "quiet day: 1 listing(s) and 4 page(s) read, no new article in the window")


def test_failures_are_told_by_error_class():
    assert phrase("DownloadConnectionRefusedError", "http://127.0.0.1:9/feed.xml") == (
        "127.0.0.1:9 refused the connection")
    assert phrase("timeout", "http://a.example/feed.xml") == (
        "http://a.example/feed.xml did not answer within crawl.download_timeout")
    assert phrase("SomethingNew", "http://a.example/x", "odd") == (
        "http://a.example/x failed: SomethingNew (odd)")


def test_retry_waits_of_an_unreachable_request_are_bounded():
    assert retry_wait(2, 1.0, 60) == 3.0  # the shipped policy: 1 s, then 2 s
    assert retry_wait(0, 1.0, 60) == 0
    assert retry_wait(10, 1.0, 60) == 1 + 2 + 4 + 8 + 16 + 32 + 4 * 60
