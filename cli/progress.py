"""Progress of long commands (table builds, studies, duels) on stderr: a bar on a terminal, else a
line every few seconds (a log, a pipe, CI), with the time left where the total is known."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

from dicetree.solver.providers import Progress

LINE_EVERY = 5.0
"""Seconds between progress lines where stderr is not a terminal."""


def _quiet(done: int, total: int, label: str = "") -> None:
    """Progress that shows nothing."""


@contextmanager
def progress_bar(title: str, *, enabled: bool = True, transient: bool = True) -> Iterator[Progress]:
    """A ``progress(done, total, label)`` callback: a rich bar on a terminal while the block runs,
    a line every :data:`LINE_EVERY` seconds elsewhere, nothing when not ``enabled``."""
    if not enabled:
        yield _quiet
        return
    if not sys.stderr.isatty():
        yield ProgressLines(title)
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress as Bar, TextColumn, TimeElapsedColumn, \
        TimeRemainingColumn

    with Bar(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
             TextColumn("left"), TimeRemainingColumn(), console=Console(stderr=True), transient=transient) as bar:
        task = bar.add_task(title, total=None)

        def report(done: int, total: int, label: str = "") -> None:
            bar.update(task, completed=done, total=total or None, description=label or title)

        yield report


class ProgressLines:
    """Progress as lines on stderr, at most one every ``every`` seconds (and the last one)::

        army study: 120/630 (19%), 2m 31s, about 10m 42s left
    """

    def __init__(self, title: str, every: float = LINE_EVERY):
        self.title = title
        self.every = every
        self.started = time.monotonic()
        self.last = self.started

    def __call__(self, done: int, total: int, label: str = "") -> None:
        now = time.monotonic()
        finished = bool(total) and done >= total and now - self.started >= self.every  # short work: no line
        if now - self.last < self.every and not finished:
            return
        self.last = now
        spent = now - self.started
        line = f"{label or self.title}: {done:,}"
        if total:
            line += f"/{total:,} ({done / total:.0%}), {_duration(spent)}"
            if 0 < done < total:
                line += f", about {_duration(spent * (total - done) / done)} left"
        else:
            line += f", {_duration(spent)}"
        print(line, file=sys.stderr, flush=True)


def _duration(seconds: float) -> str:
    """``2m 31s``, ``1h 04m``, ``12s``."""
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m {seconds % 60:02d}s"
    return f"{seconds // 3600}h {seconds // 60 % 60:02d}m"
