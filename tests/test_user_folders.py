"""No test writes into the user's folders: the session's cache is a temporary one (tests/conftest.py)."""

from __future__ import annotations

import subprocess
import sys

from conftest import REAL_CACHE, SESSION_CACHE, cache_snapshot

from dicetree.cache.store import default_root


def test_tables_default_to_the_session_cache_here_and_in_subprocesses():
    assert default_root().is_relative_to(SESSION_CACHE)
    assert not default_root().is_relative_to(REAL_CACHE)
    child = subprocess.run([sys.executable, "-c", "from dicetree.cache.store import default_root; print(default_root())"],
                           capture_output=True, text=True, check=True)
    assert child.stdout.strip().startswith(str(SESSION_CACHE))


def test_a_command_that_stores_tables_writes_them_into_the_session_cache_only():
    from click.testing import CliRunner

    from dicetree.cli.main import main

    before = cache_snapshot(REAL_CACHE)
    result = CliRunner().invoke(main, ["tablebase", "build", "rolldown", "--dice", "1"])  # no --tables: the default folder
    assert result.exit_code == 0, result.output
    assert any("rolldown" in name for name in cache_snapshot(SESSION_CACHE))  # the tables were stored here
    assert cache_snapshot(REAL_CACHE) == before
