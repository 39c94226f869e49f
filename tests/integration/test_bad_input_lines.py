"""Every class of bad input an operator can give ends in one line naming the file, key or URL
and a non-zero exit; nothing prints a traceback, nothing succeeds in silence."""

from __future__ import annotations

import shutil
import socket
import subprocess
import threading
import time

import pytest
import sqlalchemy as sa
from click.testing import CliRunner

from parawire.config import load_settings
from parawire.roof.cli import main
from parawire.store import _store, store_of
from tests.factories import store_synthetic_groups as fill
from tests.integration.test_align_resume import wait_for


def run(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(main, list(args), env=env, catch_exceptions=False)


def one_line(result, *needles: str) -> str:
    lines = result.stderr.strip().splitlines()
    assert result.exit_code != 0 and len(lines) == 1, result.output
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def test_files_that_are_not_utf8_name_the_byte_and_its_offset(tmp_path):
    config = tmp_path / "user.toml"
    config.write_bytes(b'[crawl]\nuser_agent = "caf\xe9"\n')
    one_line(run("--config", str(config), "status"), str(config), "not UTF-8",
             "byte 0xe9 at offset 25")
    sources = tmp_path / "sources.toml"
    sources.write_bytes(b'[[outlet]]\nname = "\xff"\n')
    one_line(run("crawl", "--sources", str(sources)), str(sources), "not UTF-8", "offset 19")


def test_a_data_dir_that_is_a_file(tmp_path):
    (tmp_path / "plain").write_text("not a folder")
    one_line(run("status", env={"PARAWIRE_DATA_DIR": str(tmp_path / "plain")}),
             "'data_dir'", "not a directory")


@pytest.mark.parametrize(("url", "backend", "needle"), [
    ("notaurl", "", "'broker.url': 'notaurl'"),
    ("foo://", "", "'broker.url': 'foo://'"),
    ("amqp://", "", "'broker.result_backend'"),
    ("redis://127.0.0.1:6379/0", "nosuch://x", "'broker.result_backend': 'nosuch://x'"),
])
def test_broker_urls_are_checked_when_settings_load(url, backend, needle):
    env = {"PARAWIRE_BROKER__URL": url, "PARAWIRE_BROKER__RESULT_BACKEND": backend}
    one_line(run("status", env=env), needle)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_a_broker_down_or_refusing_the_password_is_one_line(tmp_path):
    fill(load_settings(), 8)
    down = f"redis://127.0.0.1:{_free_port()}/0"
    one_line(run("align", env={"PARAWIRE_BROKER__URL": down}), "cannot reach the broker",
             down)
    server = shutil.which("redis-server")
    if server is None:
        pytest.skip("redis-server is not installed")
    port = _free_port()
    redis = subprocess.Popen([server, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                              "--requirepass", "right", "--dir", str(tmp_path)],
                             stdout=subprocess.DEVNULL)
    try:
        time.sleep(0.5)
        wrong = f"redis://:wrong@127.0.0.1:{port}/0"
        line = one_line(run("align", env={"PARAWIRE_BROKER__URL": wrong}),
                        "cannot reach the broker")
        assert "wrong" not in line  # the password is not shown
    finally:
        redis.terminate()
        redis.wait()
    (run_left,) = store_of(load_settings()).alignment_runs() or [None]
    assert run_left is None  # no run was opened for a broker that cannot be reached


def _damage(path, how: str) -> None:
    data = bytearray(path.read_bytes())
    if how == "text":
        path.write_text("these are notes, not a database\n")
    elif how == "truncated":
        path.write_bytes(bytes(data[: len(data) // 3]))
    elif how == "header":
        path.write_bytes(b"\0" * 100 + bytes(data[100:]))
    else:  # pages in the middle overwritten
        middle = len(data) // 2
        data[middle: middle + 8192] = b"\xa5" * 8192
        path.write_bytes(bytes(data))


@pytest.mark.parametrize("how", ["text", "truncated", "header", "pages"])
def test_a_damaged_sqlite_store_is_detected_on_open(tmp_path, how):
    settings = load_settings()
    fill(settings, 150)
    store = store_of(settings)
    with store.engine.connect() as conn:
        conn.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
    store.engine.dispose()
    path = settings.data_dir / "parawire.db"
    _damage(path, how)
    _store.cache_clear()  # open the store again, as a new command does
    for command in (["status"], ["annotate"], ["store", "check"]):
        one_line(run(*command), "is damaged", "restore it from a backup")
    assert path.stat().st_size > 0  # nothing a user owns is deleted


def test_store_check_reads_every_page(tmp_path):
    settings = load_settings()
    fill(settings, 20)
    result = run("store", "check")
    assert result.exit_code == 0 and result.output.strip() == "integrity_check: ok"


def test_an_unknown_parawire_variable_is_warned_about(tmp_path):
    result = run("config", "show", env={"PARAWIRE_DATADIR": "x", "PARAWIRE_STOER__URL": "x",
                                          "PARAWIRE_ALIGN__BATCH_SIZE": "5"})
    assert result.exit_code == 0, result.output
    warnings = result.stderr.strip().splitlines()
    assert warnings == [
        "parawire: warning: PARAWIRE_DATADIR names no setting; it is ignored",
        "parawire: warning: PARAWIRE_STOER__URL names no setting; it is ignored"]
    one_line(run("status", env={"PARAWIRE_BROKER__URLL": "x"}), "unknown config key 'broker.urll'")


def test_a_store_that_fills_up_fails_the_run_with_the_reason(tmp_path):
    settings = load_settings()
    fill(settings, 300)
    assert run("index").exit_code == 0
    store = store_of(settings)
    with store.engine.connect() as conn:
        pages = conn.exec_driver_sql("PRAGMA page_count").scalar_one()
    store.engine.dispose()
    full = f"PRAGMA max_page_count = {pages}"
    sa.event.listen(store.engine, "connect",
                    lambda dbapi, _record: dbapi.execute(full))
    # The synthetic sentences differ by a word or two: keep their pairs, so the run writes.
    keep_pairs = {"PARAWIRE_ALIGN__MAX_COPY_EDITS": "0", "PARAWIRE_ALIGN__MIN_STORED_GRADE": "0"}
    line = one_line(run("align", env=keep_pairs), "database or disk is full")
    (failed,) = store.alignment_runs()
    assert failed.status == "failed" and "database or disk is full" in failed.reason, line
    store.engine.dispose()


@pytest.mark.timeout(120)
def test_a_broker_lost_while_a_client_waits_is_one_line(tmp_path):
    server = shutil.which("redis-server")
    if server is None:
        pytest.skip("redis-server is not installed")
    fill(load_settings(), 40)
    port = _free_port()
    redis = subprocess.Popen([server, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                              "--dir", str(tmp_path)], stdout=subprocess.DEVNULL)
    time.sleep(0.5)
    results = []
    client = threading.Thread(target=lambda: results.append(
        run("align", env={"PARAWIRE_BROKER__URL": f"redis://127.0.0.1:{port}/0"})))
    client.start()  # no worker: the client waits
    assert wait_for(lambda: bool(store_of(load_settings()).alignment_runs()), 60)
    time.sleep(1)
    redis.terminate()
    redis.wait()
    client.join(timeout=90)
    assert not client.is_alive(), "the client hangs on a lost broker"
    one_line(results[0], "lost the broker", f"127.0.0.1:{port}")
    (failed,) = store_of(load_settings()).alignment_runs()
    assert failed.status == "failed" and failed.reason.startswith("lost the broker")
