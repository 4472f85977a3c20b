"""The import root laid out as it installs, for tools that read source without importing it.

pyproject.toml maps ``dicetree.solver`` (``cli``, ``cache``) to the top-level folders; Python's
import system follows that mapping (the install, or the editable install's finder), but static
tools do not: mypy and griffe (the documentation's API pages) look for ``dicetree/solver/`` on disk.
:func:`lay_out` copies the package there (Python files only, times kept), without links.

Usage, from the checkout's top folder::

    .venv/bin/python scripts/import_root.py mypy        # mypy as configured in pyproject.toml

which runs mypy in ``build/import-root/`` (its cache kept in ``.mypy_cache/``), with every path it
prints turned back into the source folders' (``solver/game.py``, not ``dicetree/solver/game.py``).
The MkDocs hooks (``scripts/mkdocs_hooks.py``) lay the root out the same way for the API pages.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SUBPACKAGES = ("solver", "cli", "cache")
LAID_OUT = ROOT / "build" / "import-root"


def lay_out(dest: Path) -> Path:
    """``dest/dicetree/`` as the install has it (``dest/dicetree/solver/game.py``, ...); returns ``dest``."""
    package = dest / "dicetree"
    shutil.rmtree(package, ignore_errors=True)
    python_only = shutil.ignore_patterns("__pycache__", "web", "*.json")
    shutil.copytree(ROOT / "dicetree", package, ignore=python_only)
    for name in SUBPACKAGES:
        shutil.copytree(ROOT / name, package / name, ignore=python_only)
    return dest


def run_mypy(arguments: list[str]) -> int:
    """mypy on the laid-out root, configured by the checkout's pyproject.toml; its exit status."""
    lay_out(LAID_OUT)
    command = [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
               "--cache-dir", str(ROOT / ".mypy_cache"), *arguments]
    result = subprocess.run(command, cwd=LAID_OUT, capture_output=True, text=True)
    source_path = re.compile(rf"(?<![\w/])dicetree/({'|'.join(SUBPACKAGES)})/")
    sys.stdout.write(source_path.sub(r"\1/", result.stdout))
    sys.stderr.write(result.stderr)
    return result.returncode


if __name__ == "__main__":
    if sys.argv[1:2] != ["mypy"]:
        sys.exit("usage: python scripts/import_root.py mypy [MYPY OPTIONS]")
    sys.exit(run_mypy(sys.argv[2:]))
