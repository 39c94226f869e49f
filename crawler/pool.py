"""Where the crawl's extraction runs: worker processes beside the Scrapy reactor, so that
downloading and extracting overlap and extraction uses every core.

`extraction_pool` is the one place that decides how those workers start (issue 19 runs
crawls inside Celery's prefork pool, whose daemonic processes may not start children).
"""

from __future__ import annotations

import gc
import multiprocessing
import os
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor

from parawire.crawler.extraction import warm_up


def _ready() -> None:
    """Nothing: submitted once to start the workers."""


def extraction_pool(processes: int) -> Executor:
    """An executor for `crawler.extraction.extract` calls: `processes` worker processes
    (0: one per core), started now, before the reactor's threads exist, so that forking
    them is safe. A daemonic process may not have children: there it is one worker thread,
    which still keeps extraction off the reactor's thread but shares the interpreter.

    Extraction is warmed up (crawler.extraction.warm_up) before the workers are forked, so
    that they start with it loaded rather than each loading it on its first pages, inside
    the crawl; where processes cannot be forked, each spawned worker warms up as it starts.
    The objects loaded so far are frozen out of the garbage collector first: the workers'
    collections then leave the memory they share with this process alone."""
    if multiprocessing.current_process().daemon:
        warm_up()
        return ThreadPoolExecutor(1, thread_name_prefix="extract")
    workers = processes or os.cpu_count() or 1
    if "fork" in multiprocessing.get_all_start_methods():
        warm_up()
        gc.freeze()
        pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"))
    else:
        pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=warm_up)
    pool.submit(_ready).result()  # a fork pool starts all its workers on the first task
    return pool
