"""Long work for the explorer (a deep search, a tree, a table probe), each job in a process of its own.

A web page asks; the server must stay free for every other tab, show how far a job is, and stop one
that is no longer wanted. So :class:`Jobs` runs each job in a worker process forked from a clean
server (multiprocessing's *forkserver*, with the solver preloaded, so a job starts in milliseconds),
and awaits its answer without blocking the event loop. A job has an id chosen by the page (one per
tab): starting a job under an id that is still running cancels the old one, :meth:`Jobs.cancel`
stops it (the process is terminated: nothing in the solver needs to cooperate), and the job's
progress lines (``report(text)``) are kept for :meth:`Jobs.progress`. At most ``workers`` jobs run
at once; the others wait their turn, say so in their progress, and can be cancelled while waiting.

A job function is a module-level function ``fn(*args, report=callback)`` whose arguments and answer
pickle; a :class:`~dicetree.solver.game.GameError` it raises comes back as the same one-line error.

    >>> import asyncio
    >>> jobs = Jobs()
    >>> asyncio.run(jobs.run("tab-1", pow, 2, 10))
    1024
    >>> jobs.close()
"""

from __future__ import annotations

import asyncio
import multiprocessing
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from dicetree.solver.game import GameError
from dicetree.solver.parallel import worker_started

POLL = 0.02
"""Seconds between looks at a running job (its answer, its progress, the page gone away)."""


class Cancelled(GameError):
    """The job was cancelled (by the page, by a newer job of the same tab, or by the page going away)."""


@dataclass
class _Waiting:
    """A job waiting for a free worker."""

    cancelled: bool = False


@dataclass
class _Running:
    process: Any
    connection: Any
    progress: str = ""
    cancelled: bool = False


def _work(connection, fn: Callable[..., Any], args: tuple, with_report: bool) -> None:
    """In the worker: run ``fn`` and send ("progress", text)... then ("done", answer) or ("error", text)."""
    worker_started()  # Ctrl-C is the server's to handle: it stops the jobs
    def report(text: str) -> None:
        connection.send(("progress", text))

    try:
        answer = fn(*args, report=report) if with_report else fn(*args)
        connection.send(("done", answer))
    except GameError as error:
        connection.send(("error", " ".join(str(error).split())))
    except Exception as error:  # noqa: BLE001 - a failed job is reported in one line, never kills the server
        connection.send(("error", f"internal error: {type(error).__name__}: {' '.join(str(error).split())}"[:300]))
    finally:
        connection.close()


class Jobs:
    """Worker processes for long work, one per job, at most ``workers`` at once (the rest wait)."""

    def __init__(self, workers: int = 2, preload: tuple[str, ...] = ()):
        self._context = multiprocessing.get_context("forkserver")
        if preload:
            self._context.set_forkserver_preload(list(preload))
        self._running: dict[str, _Running] = {}
        self._waiting: dict[str, _Waiting] = {}
        self._workers = workers
        self._slots: asyncio.Semaphore | None = None
        self._closed = False

    async def run(self, job: str, fn: Callable[..., Any], *args: Any,
                  gone: Callable[[], Awaitable[bool]] | None = None, report: bool = False) -> Any:
        """``fn(*args)`` (with ``report=`` a progress callback where ``report``) in a worker; its
        answer, or its :class:`GameError`; :class:`Cancelled` where it was stopped (``gone()``
        returning True, e.g. the page closed the request, stops it too)."""
        self.cancel(job)
        if self._closed:
            raise Cancelled("cancelled: the server is stopping")
        if self._slots is None:
            self._slots = asyncio.Semaphore(self._workers)
        await self._queue(job, gone)
        try:
            receiving, sending = self._context.Pipe(duplex=False)
            process = self._context.Process(target=_work, args=(sending, fn, args, report), daemon=True)
            process.start()
            sending.close()
            running = self._running[job] = _Running(process, receiving)
            try:
                return await self._wait(running, gone)
            finally:
                if self._running.get(job) is running:
                    del self._running[job]
                receiving.close()
                if process.is_alive():
                    process.terminate()
                process.join(timeout=1)
        finally:
            self._slots.release()

    async def _queue(self, job: str, gone: Callable[[], Awaitable[bool]] | None) -> None:
        """Wait for a free worker (and take it); :class:`Cancelled` if the job is cancelled meanwhile."""
        waiting = self._waiting[job] = _Waiting()
        assert self._slots is not None  # made by run() before it queues a job
        try:
            while self._slots.locked():  # every worker busy
                if waiting.cancelled or (gone is not None and await gone()):
                    raise Cancelled("cancelled")
                await asyncio.sleep(POLL)
            if waiting.cancelled:
                raise Cancelled("cancelled")
            await self._slots.acquire()  # free: taken at once (nothing runs between the look and this)
        finally:
            if self._waiting.get(job) is waiting:
                del self._waiting[job]

    async def _wait(self, running: _Running, gone: Callable[[], Awaitable[bool]] | None) -> Any:
        while True:
            if running.cancelled or (gone is not None and await gone()):
                running.process.terminate()
                raise Cancelled("cancelled")
            while running.connection.poll():
                try:
                    kind, payload = running.connection.recv()
                except EOFError:
                    raise GameError("the worker stopped without an answer") from None
                if kind == "progress":
                    running.progress = payload
                elif kind == "done":
                    return payload
                else:
                    raise GameError(payload)
            if not running.process.is_alive() and not running.connection.poll():
                if running.cancelled:
                    raise Cancelled("cancelled")
                raise GameError(f"the worker stopped without an answer (exit code {running.process.exitcode})")
            await asyncio.sleep(POLL)

    def cancel(self, job: str) -> bool:
        """Stop job ``job`` if it runs or waits; whether it did."""
        if job in self._waiting:
            self._waiting[job].cancelled = True
            return True
        running = self._running.get(job)
        if running is None:
            return False
        running.cancelled = True
        running.process.terminate()
        return True

    def progress(self, job: str) -> dict[str, Any]:
        """Whether ``job`` runs (or waits for a free worker), and its last progress line."""
        if job in self._waiting:
            return {"job": job, "running": False, "waiting": True,
                    "progress": f"waiting for a free worker ({len(self._running)} jobs running)"}
        running = self._running.get(job)
        return {"job": job, "running": running is not None, "waiting": False,
                "progress": running.progress if running else ""}

    def close(self) -> None:
        """Stop every job, and refuse new ones (the server is shutting down)."""
        self._closed = True
        for job in [*self._waiting, *self._running]:
            self.cancel(job)


__all__ = ["Cancelled", "Jobs"]
