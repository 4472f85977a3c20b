"""MkDocs hooks (named in mkdocs.yml): what the site needs that is not under docs/.

* ``results/`` is served as it is (pictures, CSV tables and Markdown reports): the reports stay
  where the benchmarks and studies write them, beside their pictures, so their relative links work
  in the site too (``results/<folder>/`` is the folder's README).
* The docstrings are written for ``help()`` and doctest, not Markdown: a doctest's printed list
  (``[('roll a.d6', True, True), ...]``) reads to mkdocs-autorefs as a reference to nothing. Those
  notices are kept as information, not warnings, so ``--strict`` fails only on the site's own links.
* The API pages read the import root as it installs: pyproject.toml maps ``dicetree.solver``
  (``cli``, ``cache``) to the top-level folders, which mkdocstrings (griffe, reading source without
  importing it) cannot follow, so the build lays the package out in a temporary folder first
  (``scripts/import_root.py``, as for mypy).
"""

from __future__ import annotations

import logging
import shutil
import sys
import tempfile
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File, Files

sys.path.insert(0, str(Path(__file__).resolve().parent))  # import_root.py beside this file
from import_root import lay_out

SERVED = {".md", ".png", ".svg", ".csv"}
_laid_out: list[Path] = []


class _DoctestOutputIsNoReference(logging.Filter):
    """Turns autorefs' "could not find" for text out of a docstring (not a page) into information."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if record.levelno == logging.WARNING and "Could not find cross-reference target" in message \
                and "dicetree-api-" in message:
            record.levelno, record.levelname = logging.INFO, "INFO"
        return True


logging.getLogger("mkdocs.plugins.mkdocs_autorefs._internal.plugin").addFilter(_DoctestOutputIsNoReference())


def _top(config: MkDocsConfig) -> Path:
    return Path(config.config_file_path).parent


@event_priority(100)  # before mkdocstrings makes its handler, which reads the paths once
def on_config(config: MkDocsConfig) -> MkDocsConfig:
    root = lay_out(Path(tempfile.mkdtemp(prefix="dicetree-api-")))
    _laid_out.append(root)
    python = config.plugins["mkdocstrings"].config.handlers.setdefault("python", {})
    python["paths"] = [str(root), *python.get("paths", [])]
    return config


def on_files(files: Files, config: MkDocsConfig) -> Files:
    top = _top(config)
    for path in sorted((top / "results").rglob("*")):
        if path.is_file() and path.suffix in SERVED:
            files.append(File(path.relative_to(top).as_posix(), src_dir=str(top), dest_dir=config.site_dir,
                              use_directory_urls=config.use_directory_urls))
    return files


def on_shutdown() -> None:
    while _laid_out:
        shutil.rmtree(_laid_out.pop(), ignore_errors=True)
