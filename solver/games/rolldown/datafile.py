"""RolldownBeta's versioned, checksummed JSON data files (beside the modules that read them): their
checksum and the checks every reader makes first, each failure one line of the reader's error class.

>>> import json, tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "d.json"
>>> payload = {"format": "demo", "version": 1, "values": [0.5]}
>>> _ = path.write_text(json.dumps({**payload, "sha256": payload_checksum(payload)}))
>>> read_payload(path, "demo", 1, ValueError, "demo data")["values"]
[0.5]
>>> _ = path.write_text(json.dumps({**payload, "values": [0.6], "sha256": payload_checksum(payload)}))
>>> read_payload(path, "demo", 1, ValueError, "demo data")
Traceback (most recent call last):
...
ValueError: demo data ...d.json: checksum mismatch (the file is damaged)
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path


def payload_checksum(payload: dict) -> str:
    """The SHA-256 of a data file's content less its ``sha256`` field (canonical JSON)."""
    body = {key: value for key, value in payload.items() if key != "sha256"}
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def read_payload(path: Path | str, fmt: str, version: int, error: type[Exception], what: str) -> dict:
    """The content of the data file at ``path``, once it reads as JSON of format ``fmt`` and ``version``
    with a matching checksum; else ``error`` with one line naming ``what`` and the path."""
    where = f"{what} {path}"
    try:
        payload = json.loads(Path(path).read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as failure:
        raise error(f"{where}: cannot be read ({failure.__class__.__name__})") from failure
    if not isinstance(payload, dict) or payload.get("format") != fmt:
        raise error(f"{where}: not a '{fmt}' file")
    if payload.get("version") != version:
        raise error(f"{where}: version {payload.get('version')!r}, this dicetree reads version {version}")
    if payload.get("sha256") != payload_checksum(payload):
        raise error(f"{where}: checksum mismatch (the file is damaged)")
    return payload


__all__ = ["payload_checksum", "read_payload"]
