"""Where the crawl's extraction runs: worker processes beside the Scrapy reactor, so that
downloading and extracting overlap and extraction uses every core.

`extraction_pool` is the one place that decides how those workers start (issue 19 runs
crawls inside Celery's prefork pool, whose daemonic processes may not start children).
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor


def _ready() -> None:
    """Nothing: submitted once to start the workers."""


def extraction_pool(processes: int) -> Executor:
    """An executor for `crawler.extraction.extract` calls: `processes` worker processes
    (0: one per core), started now, before the reactor's threads exist, so that forking
    them is safe. A daemonic process may not have children: there it is one worker thread,
    which still keeps extraction off the reactor's thread but shares the interpreter."""
    if multiprocessing.current_process().daemon:
        return ThreadPoolExecutor(1, thread_name_prefix="extract")
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    pool = ProcessPoolExecutor(processes or os.cpu_count() or 1, mp_context=context)
    pool.submit(_ready).result()  # a fork pool starts all its workers on the first task
    return pool
