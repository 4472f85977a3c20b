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
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterator
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

        cluster = None
        try:
            if self.scheduler is not None:
                client = Client(self.scheduler, timeout=10)
            else:
                with warnings.catch_warnings():  # another cluster on the default port is no news to the user
                    warnings.filterwarnings("ignore", message="Port .* is already in use")
                    cluster = LocalCluster(n_workers=self.workers, threads_per_worker=1, processes=True,
                                           dashboard_address=None)
                client = Client(cluster)
        except (OSError, ValueError, TimeoutError) as error:
            if cluster is not None:
                cluster.close()
            raise GameError(f"cannot reach the dask cluster {self.scheduler or ''}: {error}") from None
        try:
            yield client
        finally:
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
            with ProcessPoolExecutor(max_workers=self.jobs) as pool:
                yield pool
        else:
            yield None


_made_here: dict[str, Any] = {}


def made_once(key: str, make: Callable[[], T]) -> T:
    """``make()`` the first time ``key`` is asked for in this process, the same object after: what a
    worker process builds once and reuses for every cell it is sent (e.g. a duel's strategies,
    which keep their caches between deals). Keys are unique per run (the caller's choice)."""
    if key not in _made_here:
        _made_here[key] = make()
    return _made_here[key]


__all__ = ["CLUSTER_OPTIONS", "Workers", "made_once"]
