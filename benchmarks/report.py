"""What every benchmark does last: print its report and keep it under ``results/`` as Markdown and JSON."""

from __future__ import annotations

import json
from pathlib import Path


def write_report(stem: Path | str, markdown: str, data: dict) -> None:
    """Print ``markdown``, then write ``stem.md`` and ``stem.json`` (folders made as needed)."""
    print(markdown)
    stem = Path(stem)
    stem.parent.mkdir(parents=True, exist_ok=True)
    stem.with_suffix(".md").write_text(markdown.rstrip("\n") + "\n")
    stem.with_suffix(".json").write_text(json.dumps(data, indent=2) + "\n")
    print(f"wrote {stem.with_suffix('.md')} and {stem.with_suffix('.json')}")
