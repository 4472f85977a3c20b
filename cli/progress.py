"""One progress bar for long commands (table builds, studies, duels), on stderr and only on a terminal."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from solver.providers import Progress


@contextmanager
def progress_bar(title: str, *, enabled: bool = True, transient: bool = True) -> Iterator[Progress]:
    """A ``progress(done, total, label)`` callback drawing a rich bar while the block runs."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress as Bar, TextColumn, TimeElapsedColumn, \
        TimeRemainingColumn

    console = Console(stderr=True)
    with Bar(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
             TextColumn("left"), TimeRemainingColumn(), console=console,
             disable=not enabled or not console.is_terminal, transient=transient) as bar:
        task = bar.add_task(title, total=None)

        def report(done: int, total: int, label: str = "") -> None:
            bar.update(task, completed=done, total=total or None, description=label or title)

        yield report
