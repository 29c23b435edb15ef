"""Documents done in worker processes, each result given as it completes.

Workers are recycled after ``per_child`` documents, so memory a document left behind (a
fragmented heap, a page cache at its high-water mark) is returned to the system and a long
batch keeps the footprint of a short one. Python 3.11+ does that in the pool itself
(``max_tasks_per_child``, which needs the ``spawn`` start method); on 3.10 the pool is
replaced by a new one after ``jobs * per_child`` documents, which bounds memory the same way.

A worker that dies (killed for memory, a crash in native code) breaks a process pool: every
document it was running at that moment is recorded as an ``internal`` failure (the pool
cannot tell which one killed it), and the rest of the batch goes on in a new pool.
"""

from __future__ import annotations

import multiprocessing
import sys
from collections.abc import Generator, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from itertools import islice

from pdfthin.batch.records import DocumentError, DocumentResult
from pdfthin.batch.work import Task, process

#: Documents a worker does before it is replaced by a fresh process.
DEFAULT_PER_CHILD = 20
#: Tasks submitted ahead per worker: enough to keep every worker busy, few enough that a
#: batch of a million files never holds a million futures.
AHEAD = 2
#: Whether the pool recycles its workers itself (``max_tasks_per_child``, Python 3.11+).
RECYCLES = sys.version_info >= (3, 11)


def run_tasks(
    tasks: Iterable[Task], jobs: int, per_child: int = DEFAULT_PER_CHILD
) -> Iterator[DocumentResult]:
    """Each task's result, in the order they complete, from ``jobs`` worker processes."""
    if jobs < 1:
        raise ValueError("jobs must be at least 1")
    pending = iter(tasks)
    while True:
        # 3.10: each pool does one generation of documents (every worker about per_child).
        batch = pending if RECYCLES else iter(list(islice(pending, jobs * per_child)))
        with _pool(jobs, per_child) as pool:
            broken, unsent = yield from _stream(pool, batch, jobs)
        if broken:  # the documents not started go on in a new pool
            pending = (
                _chain(iter(unsent), batch) if RECYCLES else _chain(iter(unsent), batch, pending)
            )
            continue
        if RECYCLES:
            return
        first = next(pending, None)
        if first is None:
            return
        pending = _chain(iter([first]), pending)


def _chain(*parts: Iterator[Task]) -> Iterator[Task]:
    for part in parts:
        yield from part


def _pool(jobs: int, per_child: int) -> ProcessPoolExecutor:
    # spawn: a worker inherits no thread, lock or open file of the parent (and
    # max_tasks_per_child refuses fork).
    context = multiprocessing.get_context("spawn")
    if sys.version_info >= (3, 11):  # spelled out, so the type checker knows the keyword
        return ProcessPoolExecutor(jobs, mp_context=context, max_tasks_per_child=per_child)
    return ProcessPoolExecutor(jobs, mp_context=context)


def _stream(
    pool: ProcessPoolExecutor, tasks: Iterator[Task], jobs: int
) -> Generator[DocumentResult, None, tuple[bool, list[Task]]]:
    """The results of ``tasks`` on ``pool``; returns whether the pool broke, and the task
    it refused then (the tasks not submitted yet are left in ``tasks``)."""
    running: dict[Future[DocumentResult], Task] = {}
    broken = False

    def submit(count: int) -> None:
        nonlocal broken
        for task in islice(tasks, count):
            try:
                running[pool.submit(process, task)] = task
            except BrokenProcessPool:
                broken = True
                unsent.append(task)
                return

    unsent: list[Task] = []
    submit(jobs * AHEAD)
    while running:
        done, _ = wait(running, return_when=FIRST_COMPLETED)
        for future in sorted(done, key=lambda f: running[f].source):
            task = running.pop(future)
            try:
                yield future.result()
            except BrokenProcessPool:
                broken = True
                yield _died(task)
        if not broken:
            submit(len(done))
    return broken, unsent


def _died(task: Task) -> DocumentResult:
    error = DocumentError("internal", "the worker process reading it stopped (it was killed)")
    return DocumentResult(task.source.name, task.source.path, "failed", error=error)
