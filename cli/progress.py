"""Progress of long commands (table builds, studies, duels) on stderr: a bar on a terminal, else a
line every few seconds (a log, a pipe, CI), with the time left once it can be told.

The time left is not guessed from the first cells (a build solves its smallest tables first, a
study its largest cells): it reads ``ETA: estimating...`` until :data:`ETA_AFTER_SHARE` of the work
and :data:`ETA_AFTER_SECONDS` have passed, and each new estimate then moves only part of the way
from the last one (:class:`TimeLeft`), so that it does not jump with every cell.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

from dicetree.solver.providers import Progress

LINE_EVERY = 5.0
"""Seconds between progress lines where stderr is not a terminal."""
ETA_AFTER_SHARE = 0.05
"""No time left is told before this share of the work is done..."""
ETA_AFTER_SECONDS = 10.0
"""...nor before this many seconds."""
ETA_SMOOTHING = 0.3
"""How far each new estimate of the time left moves from the previous one (1: no smoothing)."""
ESTIMATING = "ETA: estimating..."


class TimeLeft:
    """Seconds left of a computation started at ``started``, or None while not yet known.

        >>> left = TimeLeft(started=0.0)
        >>> left(1, 100, now=2.0) is None, left(10, 100, now=20.0)  # 1%: too early; then 20 s a 10%
        (True, 180.0)
        >>> round(left(30, 100, now=40.0), 1)  # 93.3 s at this rate, moved 30% of the way from 160
        140.0
    """

    def __init__(self, started: float | None = None):
        self.started = time.monotonic() if started is None else started
        self.estimate: float | None = None
        self.at = self.started

    def __call__(self, done: int, total: int, now: float | None = None) -> float | None:
        now = time.monotonic() if now is None else now
        spent = now - self.started
        if not total or done <= 0 or done >= total or done / total < ETA_AFTER_SHARE or spent < ETA_AFTER_SECONDS:
            return None
        measured = spent * (total - done) / done
        if self.estimate is None:
            self.estimate = measured
        else:
            projected = max(0.0, self.estimate - (now - self.at))
            self.estimate = projected + ETA_SMOOTHING * (measured - projected)
        self.at = now
        return self.estimate

    def text(self, done: int, total: int, now: float | None = None) -> str:
        """``about 2m 31s left``, or ``ETA: estimating...`` while not known."""
        left = self(done, total, now)
        return ESTIMATING if left is None else f"about {duration(left)} left"


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
    from rich.progress import BarColumn, MofNCompleteColumn, Progress as Bar, TextColumn, TimeElapsedColumn

    left = TimeLeft()
    with Bar(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
             TextColumn("{task.fields[left]}"), console=Console(stderr=True), transient=transient) as bar:
        task = bar.add_task(title, total=None, left=ESTIMATING)

        def report(done: int, total: int, label: str = "") -> None:
            bar.update(task, completed=done, total=total or None, description=label or title,
                       left=left.text(done, total) if total else "")

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
        self.left = TimeLeft(self.started)

    def __call__(self, done: int, total: int, label: str = "") -> None:
        now = time.monotonic()
        finished = bool(total) and done >= total and now - self.started >= self.every  # short work: no line
        if now - self.last < self.every and not finished:
            return
        self.last = now
        spent = now - self.started
        line = f"{label or self.title}: {done:,}"
        if total:
            line += f"/{total:,} ({done / total:.0%}), {duration(spent)}"
            if 0 < done < total:
                line += f", {self.left.text(done, total, now)}"
        else:
            line += f", {duration(spent)}"
        print(line, file=sys.stderr, flush=True)


def duration(seconds: float) -> str:
    """``2m 31s``, ``1h 04m``, ``12s``."""
    seconds = round(seconds)
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m {seconds % 60:02d}s"
    return f"{seconds // 3600}h {seconds // 60 % 60:02d}m"
