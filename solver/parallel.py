"""Where independent pieces of work run: in this process, in local worker processes, or on a Dask cluster.

Duels, studies and table builds are many independent cells (a deal, a matrix cell, a batch of
tables). :class:`Workers` says where they run, once for every command:

* ``Workers(jobs=N)``: ``N`` local processes (``concurrent.futures``), the default ``jobs=1`` in
  this process;
* ``Workers(workers=N)``: a ``dask.distributed`` ``LocalCluster`` of ``N`` worker processes
  started for the command and closed after it;
* ``Workers(scheduler="tcp://host:8786")``: an existing Dask cluster. Its workers run the same
  dicetree (and, for a table build, see the same table folder: a shared file system).

Usage::

    >>> Workers().where, Workers(jobs=2).where, Workers(workers=4).where
    ('in this process', '2 local processes', 'a dask LocalCluster of 4 workers')
    >>> with Workers().executor() as pool:
    ...     pool is None  # serial: the caller runs the cells itself
    True
    >>> Workers(workers=2, scheduler="tcp://h:8786")
    Traceback (most recent call last):
    ...
    dicetree.solver.game.GameError: choose one of --workers (a local dask cluster) and --scheduler (an existing one), not both

Dask loads only when a cluster is asked for; with a cluster, :meth:`Workers.executor` gives the
client's ``concurrent.futures`` executor, so callers submit and collect the same way everywhere.

**Stopping.** Ctrl-C (SIGINT) and SIGTERM stop a command within a second or two, with no worker
process left: local workers ignore SIGINT (a terminal sends it to the whole process group; only the
parent decides), SIGTERM to the parent is raised as :class:`KeyboardInterrupt` while workers run, and
on any exception the queued cells are cancelled and the workers terminated instead of
``concurrent.futures``' default of waiting for every queued cell. Cells already finished were handed
to the caller as they came, so a command that records them (a duel's ``--log``, a study's log)
resumes from them.
"""

from __future__ import annotations

import contextlib
import logging
import signal
import threading
import warnings
from collections.abc import Callable, Collection, Iterable, Iterator
from concurrent.futures import Executor, ProcessPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from dicetree.solver.game import GameError
from dicetree.solver.rule_options import RuleOption

T = TypeVar("T")

CLUSTER_OPTIONS = (
    RuleOption("workers", "int", None, "run on a dask LocalCluster of this many worker processes", low=1, high=256),
    RuleOption("scheduler", "text", None, "run on the dask cluster at this address (e.g. tcp://host:8786; its "
               "workers must run this dicetree and see the same files)"),
)
"""The two options every command with many cells declares (``--workers N``, ``--scheduler ADDRESS``)."""


@dataclass(frozen=True)
class Workers:
    """Where a command's independent cells run (see the module's docstring)."""

    jobs: int = 1
    workers: int | None = None
    scheduler: str | None = None

    def __post_init__(self) -> None:
        if self.jobs < 1:
            raise GameError(f"--jobs must be at least 1, not {self.jobs}")
        if self.workers is not None and self.workers < 1:
            raise GameError(f"--workers must be at least 1, not {self.workers}")
        if self.workers is not None and self.scheduler is not None:
            raise GameError("choose one of --workers (a local dask cluster) and --scheduler (an existing one), not both")
        if self.jobs > 1 and self.on_dask:
            raise GameError("give --jobs N (local processes) or a dask cluster (--workers, --scheduler), not both")

    @classmethod
    def of(cls, values: dict[str, Any] | Any, jobs: int = 1) -> Workers:
        """From a command's option values (``workers``, ``scheduler`` as :data:`CLUSTER_OPTIONS` name them)."""
        workers = values.get("workers")
        return cls(jobs=int(jobs), workers=None if workers is None else int(workers),
                   scheduler=values.get("scheduler") or None)

    @property
    def on_dask(self) -> bool:
        return self.workers is not None or self.scheduler is not None

    @property
    def parallel(self) -> bool:
        return self.on_dask or self.jobs > 1

    @property
    def processes(self) -> int:
        """How many processes share the cells: for splitting work into chunks (an existing cluster's
        size is not known here: taken as 8)."""
        return 8 if self.scheduler is not None else self.workers or self.jobs

    @property
    def where(self) -> str:
        """Where the cells run, in words (for reports and records)."""
        if self.scheduler is not None:
            return f"the dask cluster at {self.scheduler}"
        if self.workers is not None:
            return f"a dask LocalCluster of {self.workers} worker{'s' if self.workers != 1 else ''}"
        return f"{self.jobs} local processes" if self.jobs > 1 else "in this process"

    @contextmanager
    def client(self) -> Iterator[Any]:
        """A ``distributed.Client`` on the cluster asked for (a LocalCluster is started and closed
        here). An unreachable scheduler is a one-line :class:`GameError`."""
        if not self.on_dask:
            raise GameError("no dask cluster was asked for (--workers N or --scheduler ADDRESS)")
        from distributed import Client, LocalCluster

        already = {process.pid for process in cluster_processes()}
        cluster = None
        try:
            with interrupted_by_sigterm():  # a SIGTERM while the cluster starts ends it too
                if self.scheduler is not None:
                    client = Client(self.scheduler, timeout=10)
                else:
                    with warnings.catch_warnings():  # another cluster on the default port is no news to the user
                        warnings.filterwarnings("ignore", message="Port .* is already in use")
                        cluster = LocalCluster(n_workers=self.workers, threads_per_worker=1, processes=True,
                                               dashboard_address=None, silence_logs=logging.ERROR)
                    client = Client(cluster)
        except (OSError, ValueError, TimeoutError) as error:
            if cluster is not None:
                cluster.close()
            raise GameError(f"cannot reach the dask cluster {self.scheduler or ''}: {error}") from None
        except BaseException:
            stop_processes(cluster_processes(already))
            raise
        try:
            with interrupted_by_sigterm():
                yield client
        except BaseException:
            # a LocalCluster's graceful close takes seconds (and its workers may have had the Ctrl-C):
            # its processes are ended first; an existing cluster drops this run's cells as the client leaves
            logging.getLogger("distributed").setLevel(logging.CRITICAL + 1)  # its complaints as it is ended
            if cluster is not None:
                for nanny in cluster.workers.values():
                    nanny.auto_restart = False  # the nannies (in this process) must not start new workers
                cluster.shutdown_on_close = False  # else dask closes it again at exit, waiting up to 10 s
            stop_processes(cluster_processes(already), wait=0.0)  # a worker's own SIGTERM handling takes seconds
            with contextlib.suppress(Exception):  # what was ended cannot say goodbye: short waits, nothing left to lose
                client.close(timeout=STOP_WAIT)
                if cluster is not None:
                    cluster.close(timeout=0.2)  # it waits for its killed workers' farewells, in vain
            raise
        client.close()
        if cluster is not None:
            cluster.close()

    @contextmanager
    def executor(self) -> Iterator[Executor | None]:
        """A ``concurrent.futures`` executor for the cells, or ``None`` to run them in this process.
        Futures it gives work with ``concurrent.futures.as_completed`` whichever it is."""
        if self.on_dask:
            with self.client() as client:
                yield client.get_executor()
        elif self.jobs > 1:
            with local_processes(self.jobs) as pool:
                yield pool
        else:
            yield None


STOP_WAIT = 1.0
"""Seconds a stopped worker (or cluster) is given to end before it is killed."""


@contextmanager
def local_processes(count: int) -> Iterator[ProcessPoolExecutor]:
    """A ``ProcessPoolExecutor`` of ``count`` workers that stops at once when the block ends with an
    exception (Ctrl-C, SIGTERM, an error): queued cells are cancelled and the workers terminated,
    none left behind. A block that ends normally waits for what it submitted, as usual."""
    pool = ProcessPoolExecutor(max_workers=count, initializer=worker_started)
    try:
        with interrupted_by_sigterm():
            with signals_held():  # each worker is born with them held, until it has set its own handlers
                pool.submit(int)  # starts the workers now (a no-op cell)
            yield pool
    except BaseException:
        stop_at_once(pool)
        raise
    pool.shutdown(wait=True)


STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


@contextmanager
def main_thread_setting(change: Callable[[], T], restore: Callable[[T], object]) -> Iterator[None]:
    """``change()`` for the block, undone by ``restore(what it returned)`` after; nothing elsewhere
    than in the main thread (where no signal handler can be set)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = change()
    try:
        yield
    finally:
        restore(before)


def signals_held():
    """Hold SIGINT and SIGTERM until the block ends (they are delivered then): a worker forked
    meanwhile inherits them held, so neither reaches it before :func:`worker_started` has set its
    handlers (else a Ctrl-C at that moment prints a worker's traceback)."""
    return main_thread_setting(lambda: signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS),
                               lambda held: signal.pthread_sigmask(signal.SIG_SETMASK, held))


def worker_started() -> None:
    """In a new worker process: leave SIGINT to the parent (a terminal's Ctrl-C reaches the whole
    process group; the parent stops the workers itself) and die by SIGTERM, as by default; then
    let the signals held at its birth (:func:`signals_held`) through."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)


_workers_stopped: list[bool] = []


def workers_were_stopped() -> bool:
    """Whether this process stopped worker processes in the middle of their work (then its own exit
    should not wait on the pool's threads: see ``dicetree.cli.main``)."""
    return bool(_workers_stopped)


def stop_at_once(pool: ProcessPoolExecutor) -> None:
    """Cancel what ``pool`` has queued and end its workers now (terminated, killed after
    :data:`STOP_WAIT` seconds), rather than letting them finish every queued cell."""
    _workers_stopped.append(True)
    processes = list((getattr(pool, "_processes", None) or {}).values())  # no public handle before Python 3.14
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    for process in processes:
        process.join(timeout=STOP_WAIT)
        if process.is_alive():
            process.kill()
            process.join(timeout=STOP_WAIT)


def cluster_processes(already: Collection[int] = frozenset()) -> list[Any]:
    """This process's descendants (``psutil.Process``) but those of ``already`` and multiprocessing's
    resource tracker (which outlives every pool and cleans up after them)."""
    import psutil
    from multiprocessing import resource_tracker

    tracker = getattr(resource_tracker._resource_tracker, "_pid", None)
    return [child for child in psutil.Process().children(recursive=True) if child.pid not in already
            and child.pid != tracker]


def stop_processes(processes: Iterable[Any], wait: float = STOP_WAIT) -> None:
    """End ``processes`` (``psutil.Process``): terminated, killed if alive after ``wait`` seconds."""
    import psutil

    _workers_stopped.append(True)

    alive = []
    for process in processes:
        with contextlib.suppress(psutil.NoSuchProcess):
            process.terminate()
            alive.append(process)
    _, still = psutil.wait_procs(alive, timeout=wait)
    for process in still:
        with contextlib.suppress(psutil.NoSuchProcess):
            process.kill()
    psutil.wait_procs(still, timeout=STOP_WAIT)


def _raise_interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt(f"stopped by signal {signum}")


def interrupted_by_sigterm():
    """While the block runs, SIGTERM raises :class:`KeyboardInterrupt` in the main thread (as Ctrl-C
    does) instead of ending the process at once, so the workers are stopped and what is finished
    is kept. Elsewhere than in the main thread, nothing changes."""
    return main_thread_setting(lambda: signal.signal(signal.SIGTERM, _raise_interrupt),
                               lambda previous: signal.signal(signal.SIGTERM, previous))


_made_here: dict[str, Any] = {}


def made_once(key: str, make: Callable[[], T]) -> T:
    """``make()`` the first time ``key`` is asked for in this process, the same object after: what a
    worker process builds once and reuses for every cell it is sent (e.g. a duel's strategies,
    which keep their caches between deals). Keys are unique per run (the caller's choice)."""
    if key not in _made_here:
        _made_here[key] = make()
    return _made_here[key]


__all__ = ["CLUSTER_OPTIONS", "STOP_WAIT", "Workers", "interrupted_by_sigterm", "local_processes", "made_once",
           "stop_at_once", "stop_processes", "worker_started", "workers_were_stopped"]
