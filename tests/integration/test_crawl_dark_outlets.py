"""Outlets that cannot be reached, for real: a port that refuses connections, a server that
answers 503 to everything, a host under .invalid (never resolves), a feed that moved (404)
while the sitemap works. Each gives the run's state and reason, `parawire crawl`'s exit
code, the outlet's health and its metrics."""

from __future__ import annotations

import json
import socket
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from parawire.config import load_settings
from parawire.crawler.loopback import Page, serve_pages
from parawire.crawler.retry import retry_wait
from parawire.dashboard import create_app
from parawire.dashboard.health import metrics_text
from parawire.records import Reach
from parawire.roof.cli import main
from parawire.roof.status import status_report
from parawire.store import store_of
from tests.integration.test_crawl_bad_input import article
from tests.integration.test_dashboard_api import LOCAL, TOKEN

TODAY = datetime.now(UTC).date()
RETRIES, BACKOFF = 1, 0.2
CONFIG = (f"[crawl]\nobey_robots = false\nautothrottle = false\nretry_times = {RETRIES}\n"
          f"retry_backoff = {BACKOFF}\ndownload_timeout = 5\n")
XML = {"Content-Type": "application/xml"}


def sitemap(base: str) -> bytes:
    return ("<?xml version='1.0'?><urlset xmlns='http://www.sitemaps.org/schemas/sitemap/0.9'>"
            f"<url><loc>{base}/story.html</loc><lastmod>{TODAY.isoformat()}</lastmod></url>"
            "</urlset>").encode()


def site_of(seed: str):
    """A site whose feed is gone (404, as every unknown path) and whose sitemap lists one
    article (its text drawn from `seed`)."""
    def build(base: str) -> dict[str, Page]:
        return {"/sitemap.xml": Page(200, XML, sitemap(base)),
                "/story.html": Page(200, {"Content-Type": "text/html; charset=utf-8"},
                                    article(seed).encode())}
    return build


def outlet(name: str, feeds: list[str], sitemaps: list[str] = (), domain: str = "127.0.0.1") -> str:
    return (f'[[outlet]]\nname = "{name}"\nlanguage = "en"\ndomains = ["{domain}"]\n'
            f"feeds = {json.dumps(feeds)}\nsitemaps = {json.dumps(list(sitemaps))}\n")


def closed_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (connections are refused)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Crawls:
    """`parawire crawl` in one data folder, each with a sources file of its own."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        (folder / "parawire.toml").write_text(CONFIG)
        self.env = {"PARAWIRE_DATA_DIR": str(folder / "data")}

    def crawl(self, name: str, sources: str) -> tuple[int, dict, str]:
        path = self.folder / f"{name}.toml"
        path.write_text(sources)
        result = CliRunner().invoke(main, [
            "--config", str(self.folder / "parawire.toml"), "crawl", "--sources", str(path),
            "--since", TODAY.isoformat(), "--until", TODAY.isoformat()], env=self.env)
        report = json.loads(result.stdout) if result.stdout.strip() else {}
        return result.exit_code, report, result.stderr.strip()

    @property
    def store(self):
        return store_of(load_settings(data_dir=self.folder / "data"))

    def metrics(self) -> str:
        return metrics_text(self.store).decode()


@pytest.fixture(scope="module")
def crawls(tmp_path_factory):
    return Crawls(tmp_path_factory.mktemp("dark"))


def _failed_alone(crawls, name, code, report, stderr, words):
    assert code == 3, stderr
    assert report["status"] == "failed" and report["failed_outlets"] == [name]
    assert report["reason"] == f"{name}: {words} ({RETRIES + 1} tries)"
    assert stderr.splitlines() == [f"parawire: error: the crawl reached no outlet: "
                                   f"run {report['run_id']}: {report['reason']}"]
    run = crawls.store.crawl_run(report["run_id"])
    assert (run.status, run.reason, run.partial) == ("failed", report["reason"], False)
    health = crawls.store.outlet_health()[name]
    assert (health.state, health.failed_days, health.last_success) == (Reach.FAILED, 1, None)
    assert health.last_error == report["reason"]
    text = crawls.metrics()
    assert f'parawire_outlet_up{{outlet="{name}"}} 0.0' in text
    assert f'parawire_outlet_failed_days{{outlet="{name}"}} 1.0' in text
    assert f'parawire_outlet_last_success_timestamp_seconds{{outlet="{name}"}}' not in text
    return health


def test_an_outlet_that_refuses_connections_fails_the_run(crawls):
    port = closed_port()
    code, report, stderr = crawls.crawl("refusing", outlet(
        "refusing", [f"http://127.0.0.1:{port}/feed.xml"]))
    health = _failed_alone(crawls, "refusing", code, report, stderr,
                           f"127.0.0.1:{port} refused the connection")
    assert report.get(f"errors/{health.error}") == 1 and "Refused" in health.error
    assert f'parawire_crawl_failures_total{{error="{health.error}"}}' in crawls.metrics()


def test_an_outlet_that_answers_503_to_everything_fails_the_run(crawls):
    with serve_pages(lambda base: {}, Page(503, {}, b"down for maintenance")) as base:
        code, report, stderr = crawls.crawl("overloaded", outlet(
            "overloaded", [f"{base}/feed.xml"]))
    health = _failed_alone(crawls, "overloaded", code, report, stderr,
                           f"{base}/feed.xml answered HTTP 503")
    assert health.error == "http_503" and report["errors/http_503"] == 1
    assert report["retries"] == RETRIES
    assert 'parawire_crawl_failures_total{error="http_503"} 1.0' in crawls.metrics()


def test_an_outlet_whose_host_does_not_resolve_fails_within_its_retry_waits(crawls):
    code, report, stderr = crawls.crawl("nowhere", outlet(
        "nowhere", ["http://news.parawire.invalid/feed.xml"], domain="parawire.invalid"))
    health = _failed_alone(crawls, "nowhere", code, report, stderr,
                           "host news.parawire.invalid could not be resolved")
    assert health.error == "CannotResolveHostError"
    # The crawl waited between its tries as the policy says (robots.txt is off here).
    assert report["elapsed_ms"] >= 1000 * retry_wait(RETRIES, BACKOFF, 60)
    assert 'parawire_crawl_failures_total{error="CannotResolveHostError"} 1.0' in crawls.metrics()


def test_a_moved_feed_beside_a_working_sitemap_is_partial(crawls):
    with serve_pages(site_of("moved")) as base:
        code, report, stderr = crawls.crawl("moved", outlet(
            "moved", [f"{base}/feed.xml"], [f"{base}/sitemap.xml"]))
    assert code == 4, stderr
    reason = f"partial: moved: {base}/feed.xml answered HTTP 404"
    assert (report["status"], report["partial"], report["reason"]) == ("finished", True, reason)
    assert report["failed_outlets"] == ["moved"] and report["stored"] == 1
    assert stderr.splitlines() == [f"parawire: error: some outlets failed (moved): "
                                   f"run {report['run_id']}: {reason}"]
    run = crawls.store.crawl_run(report["run_id"])
    assert (run.status, run.partial, run.failed_outlets) == ("finished", True, ["moved"])
    health = crawls.store.outlet_health()["moved"]
    assert (health.state, health.failed_days, health.listings, health.listings_failed) == (
        Reach.PARTIAL, 0, 1, 1)
    assert health.last_success == run.finished_at
    text = crawls.metrics()
    assert 'parawire_outlet_up{outlet="moved"} 1.0' in text
    assert 'parawire_outlet_partial{outlet="moved"} 1.0' in text
    assert 'parawire_crawl_failures_total{error="http_404"} 1.0' in text


def test_one_dark_outlet_of_two_is_a_partial_run_then_a_quiet_day_is_fine(crawls):
    port = closed_port()
    with serve_pages(site_of("steady")) as base:
        both = (outlet("refusing", [f"http://127.0.0.1:{port}/feed.xml"])
                + outlet("steady", [], [f"{base}/sitemap.xml"]))
        code, report, stderr = crawls.crawl("both", both)
        assert code == 4, stderr
        assert (report["status"], report["partial"]) == ("finished", True)
        assert report["failed_outlets"] == ["refusing"]
        assert report["reason"].startswith("partial: refusing: 127.0.0.1:")
        health = crawls.store.outlet_health()
        assert health["refusing"].failed_days == 1  # failed twice today: one day
        assert health["steady"].state is Reach.OK and health["steady"].last_success is not None

        code, report, stderr = crawls.crawl("steady", outlet("steady", [], [f"{base}/sitemap.xml"]))
    assert code == 0 and stderr == ""
    assert (report["status"], report["partial"], report["failed_outlets"]) == ("finished", False, [])
    assert report["reason"] == ("quiet day: 1 listing(s) and 0 page(s) read, no new article "
                                "in the window")
    assert report["skipped/known_url"] == 1


def test_status_lists_each_outlet_with_its_last_success_failed_days_and_error(crawls):
    settings = load_settings(data_dir=crawls.folder / "data")
    report = status_report(settings)
    lines = {line.split()[0]: line for line in report.split("outlets (as their latest crawl "
                                                            "left them):\n")[1].splitlines()
             if line.startswith("  ")}
    assert "failed  last success never, failed days 1, last error" in lines["nowhere"]
    assert "could not be resolved (2 tries)" in lines["nowhere"]
    assert lines["steady"].split()[1] == "ok" and "failed days 0" in lines["steady"]


def test_the_dashboard_shows_each_outlet_on_its_crawl_page_and_api(crawls):
    settings = load_settings(data_dir=crawls.folder / "data")
    client = TestClient(create_app(settings, token=TOKEN, store=crawls.store), base_url=LOCAL)
    outlets = {o["outlet"]: o for o in client.get("/api/outlets").json()}
    assert outlets["nowhere"]["state"] == "failed" and outlets["nowhere"]["failed_days"] == 1
    assert outlets["nowhere"]["last_success"] is None
    assert "could not be resolved" in outlets["nowhere"]["last_error"]
    assert outlets["moved"]["state"] == "partial" and outlets["moved"]["last_success"]
    page = client.get("/crawl").text
    assert '<tr class="status-failed" data-outlet="nowhere">' in page
    assert "host news.parawire.invalid could not be resolved (2 tries)" in page


def test_a_pipeline_whose_crawl_reaches_no_outlet_stops_there_with_exit_code_3(crawls):
    path = crawls.folder / "pipeline.toml"
    path.write_text(outlet("refusing", [f"http://127.0.0.1:{closed_port()}/feed.xml"]))
    result = CliRunner().invoke(main, [
        "--config", str(crawls.folder / "parawire.toml"), "pipeline", "--sources", str(path),
        "--since", TODAY.isoformat(), "--until", TODAY.isoformat()], env=crawls.env)
    assert result.exit_code == 3, result.output
    report = json.loads(result.stdout)
    assert list(report) == ["crawl"] and report["crawl"]["status"] == "failed"
    assert "the crawl reached no outlet" in result.stderr
