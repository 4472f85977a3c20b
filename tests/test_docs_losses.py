"""The documentation's example outputs show losses as the tool prints them: never negative."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MOVE_ROW = re.compile(r"^\s+\d+\s+\S.*?\s(-?\d+\.\d+)\s+(-?\d+\.\d+)\s*$")
"""A ranked move of `dicetree best`'s table: rank, move, value, loss."""


def _pages() -> list[Path]:
    return [page for page in [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))] if page.is_file()]


def test_no_example_shows_a_negative_loss():
    rows = 0
    for page in _pages():
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
            found = MOVE_ROW.match(line)
            if found:
                rows += 1
                assert float(found.group(2)) >= 0, f"{page.name}:{number}: {line.strip()}"
    assert rows  # the pattern still finds the examples' tables
