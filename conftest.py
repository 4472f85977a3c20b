"""Settings for every test and doctest of the checkout (tests/ and the package's doctests).

numba's compiled code (RolldownBeta's compiled search) goes to a temporary folder, never the user's cache:
one shared by test runs, so that only the first run compiles. The suite searches in Python unless a test
asks for the compiled search (``Searcher(compiled=True)``: tests/test_rolldown_compiled.py).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

os.environ.setdefault("NUMBA_CACHE_DIR", str(Path(tempfile.gettempdir()) / "dicetree-tests-numba"))
os.environ.setdefault("DICETREE_SEARCH", "python")
