"""Two reader processes that load a table again and again while this process rewrites it: the
harness of the store's concurrent-reader tests (one-file tables and packs)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

_READER = textwrap.dedent(
    """
    import sys, time
    import numpy as np
    {setup}
    root, seconds = sys.argv[1], float(sys.argv[2])
    loads, versions = 0, set()
    print("ready", flush=True)
    end = time.monotonic() + seconds
    while time.monotonic() < end or ((len(versions) < 2 or loads <= 5) and time.monotonic() < end + 60):  # busy: slow
        values, version = load(root)
        assert values.shape == (100_000,), values.shape
        assert values[0] == version and np.all(values == version), version
        loads += 1
        versions.add(version)
    print(loads, len(versions))
    """
)


def read_while_rewriting(root: Path, setup: str, save: Callable[[float], None]) -> list[tuple[int, int]]:
    """Start two readers (``setup`` defines ``load(root) -> (values, version)``), then call
    ``save(version)`` with new versions until both have read for 1.5 s and seen two versions;
    each reader's (loads, versions seen)."""
    script = _READER.format(setup=textwrap.dedent(setup).strip())
    readers = [subprocess.Popen([sys.executable, "-c", script, str(root), "1.5"], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, cwd=REPO) for _ in range(2)]
    assert [reader.stdout.readline().strip() for reader in readers] == ["ready", "ready"]  # started, however busy
    version, deadline = 0.0, time.monotonic() + 1.7
    while time.monotonic() < deadline or any(r.poll() is None for r in readers) and time.monotonic() < deadline + 60:
        version += 1.0
        save(version)
    figures = []
    for reader in readers:
        out, err = reader.communicate(timeout=60)
        assert reader.returncode == 0, err
        loads, seen = map(int, out.split())
        figures.append((loads, seen))
    return figures
