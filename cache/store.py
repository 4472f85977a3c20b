"""The on-disk store of solved positions: named numpy tables with JSON metadata (endgame tables).

A :class:`TableStore` keeps one file per ``(game, signature)`` pair, ``<root>/<game>/<signature>.dtt``.
It knows nothing about any game: a table is a numpy array (float64 values, any shape) plus a JSON
object of metadata. A game's own figures about a table travel in that metadata as ``statistics``,
named counts the game computes and labels; the store only checks and sums them
(:meth:`TableStore.stats`). It suits up to a few hundred tables a game; builders that write tens
of thousands (endgame tables, one per material signature) use the packed layout instead
(:mod:`dicetree.cache.packs`: many tables to a file, in folders the caller names).

Where the tables live (first that applies):

1. the ``root`` passed to :class:`TableStore` (the command line's option);
2. the environment variable ``DICETREE_TABLES``;
3. ``$XDG_CACHE_HOME/dicetree/tables``, else ``~/.cache/dicetree/tables``.

Usage::

    >>> import numpy as np, tempfile
    >>> store = TableStore(tempfile.mkdtemp())
    >>> values = np.array([[0.5, 1.0], [0.0, 0.25]])
    >>> table = store.save("game", "d6-d6", values,
    ...                    {"build_time": 0.01, "tolerance": 1e-12, "residual": 0.0,
    ...                     "options": {"ace": "online"}, "statistics": {"wins": 1}})
    >>> table = store.load("game", "d6-d6")
    >>> table.metadata["options"], table.shape, float(table.array[0, 1])
    ({'ace': 'online'}, (2, 2), 1.0)
    >>> store.load("game", "d8-d8") is None
    True
    >>> [entry["signature"] for entry in store.list("game")]
    ['d6-d6']
    >>> stats = store.stats()
    >>> stats.tables, stats.positions, stats.statistics
    (1, 4, {'wins': 1})
    >>> store.remove("game", "d6-d6")
    True

File format (version 1), all integers little-endian::

    offset 0    magic           12 bytes  b"\\x89DTTABLE\\r\\n\\x1a\\n"
           12   format version  u32       1
           16   flags           u32       0 (reserved)
           20   data offset     u64       128 for small tables, 4096 (a page) for large ones
           28   data length     u64       bytes of array values
           36   meta offset     u64       data offset + data length
           44   meta length     u64       bytes of UTF-8 JSON
           52   data SHA-256    32 bytes  of the array values
           84   meta SHA-256    32 bytes  of the JSON
           116  reserved        8 bytes   zero
           124  header CRC-32   u32       of bytes 0..123
           128  zero padding up to the data offset
                the array values, C order, little-endian (the metadata's ``dtype``)
                the metadata JSON

The values sit at a fixed, aligned offset, so a large table is memory-mapped rather than read;
the metadata (game, signature, shape, dtype, build time, tolerance, residual, rule options, ...)
follows them, so a writer streams the values once, hashing and counting as it goes.

Safety:

* **Atomic writes.** :meth:`TableStore.save` writes a hidden temporary file in the table's
  directory, flushes and fsyncs it, and only then renames it over the table (``os.replace``) and
  fsyncs the directory. A writer killed at any moment leaves either the previous table or the new
  one, never a partial file under the table's name; orphaned temporary files are never loaded and
  are removed by the next save of that table or by :meth:`TableStore.clean`.
* **Several readers at once.** Readers only ever open complete files. A table replaced while a
  reader holds it keeps serving the reader the version it opened (the reader's descriptor and
  mapping belong to the old file).
* **Damage is reported, not crashed on.** Every check names the file and what is wrong, as a
  :class:`CorruptTableError` subclass (a :class:`~dicetree.solver.game.GameError`): :class:`BadMagicError`,
  :class:`TableVersionError`, :class:`TruncatedTableError`, :class:`ChecksumMismatchError`. The
  header, its layout and the metadata are checked on every load; the values are checked against
  their SHA-256 on load for small tables, and for large (memory-mapped) ones on first access, once
  per file: a successful check is remembered in a hidden ``.<signature>.verified`` stamp beside the
  table, keyed by the file's inode, size, modification time and checksum. ``verify="always"``
  checks every time, :meth:`Table.verify` and :meth:`TableStore.check` check on request.
"""

from __future__ import annotations

import builtins
import hashlib
import json
import math
import mmap
import os
import re
import shlex
import socket
import struct
import threading
import time
import weakref
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from dicetree.solver.game import GameError

__all__ = [
    "cache_home",
    "ENV_VAR",
    "FORMAT_VERSION",
    "MAGIC",
    "BadMagicError",
    "ChecksumMismatchError",
    "CorruptTableError",
    "InvalidTableNameError",
    "StoreStats",
    "Table",
    "TableError",
    "TableStore",
    "TableVersionError",
    "TruncatedTableError",
    "default_root",
]

MAGIC = b"\x89DTTABLE\r\n\x1a\n"
FORMAT_VERSION = 1
ENV_VAR = "DICETREE_TABLES"
SUFFIX = ".dtt"

_PREAMBLE = struct.Struct("<12sIIQQQQ32s32s8s")  # everything before the header CRC
_HEADER_SIZE = 128
_CRC_AT = _PREAMBLE.size  # 124
assert _CRC_AT == 124 and _HEADER_SIZE == _CRC_AT + 4
_SMALL_DATA_OFFSET = _HEADER_SIZE
_LARGE_DATA_OFFSET = 4096
_DATA_ALIGN = 64
_CHUNK_BYTES = 16 << 20
_DEFAULT_MMAP_THRESHOLD = 1 << 20
_ORPHAN_AGE = 24 * 3600.0

#: dtypes a table may hold, as stored (little-endian); values are float64 unless a builder chooses otherwise.
_DTYPES = frozenset(
    np.dtype(code).newbyteorder("<").str
    for code in ("f8", "f4", "f2", "i8", "i4", "i2", "i1", "u8", "u4", "u2", "u1", "b1")
)
#: Metadata keys the store computes and writes itself.
STORE_KEYS = ("format_version", "game", "signature", "shape", "dtype", "positions", "created")
#: The metadata key of a table's own named counts (the game's, summed by :meth:`TableStore.stats`).
STATISTICS_KEY = "statistics"
_NAME = re.compile(r"[A-Za-z0-9_+=,@-][A-Za-z0-9._+=,@-]{0,199}")


# ----- errors -----------------------------------------------------------------------------------
class TableError(GameError):
    """A problem with the store of solved positions (a bad name, an unreadable or unwritable file)."""


class InvalidTableNameError(TableError):
    """A game name or table signature that cannot be used as a file name."""


class CorruptTableError(TableError):
    """A table file that must not be used: the message names the file and what is wrong.

    ``path`` and ``reason`` are also available as attributes. Remove the file (or rebuild the
    table, which replaces it); every other table keeps working.
    """

    def __init__(self, path: os.PathLike | str, reason: str):
        self.path = Path(path)
        self.reason = reason
        super().__init__(f"table {self.path}: {reason}")


class BadMagicError(CorruptTableError):
    """The file does not start with the table magic bytes: it is not a dicetree table."""


class TableVersionError(CorruptTableError):
    """The file is a dicetree table in a format version this dicetree does not read."""


class TruncatedTableError(CorruptTableError):
    """The file is shorter than its header says (cut off by a copy, a full disk, ...)."""


class ChecksumMismatchError(CorruptTableError):
    """The header, the metadata or the values do not match their stored checksum."""


# ----- locations --------------------------------------------------------------------------------
def tables_flag(root: Path | str) -> str:
    """What a suggested command must add to reach the tables in ``root``: `` --tables ROOT``, or
    nothing where ``root`` is where the command looks anyway (:func:`default_root`).

    >>> tables_flag("/data/my tables")
    " --tables '/data/my tables'"
    """
    if Path(root).expanduser().resolve() == default_root().expanduser().resolve():
        return ""
    return f" --tables {shlex.quote(str(root))}"


def default_root() -> Path:
    """Where tables live when no root is passed: ``$DICETREE_TABLES``, else the user's cache directory.

    The cache directory is ``$XDG_CACHE_HOME/dicetree/tables`` where ``XDG_CACHE_HOME`` is an absolute
    path, else ``~/.cache/dicetree/tables``. Nothing is created until a table is saved.
    """
    override = os.environ.get(ENV_VAR, "").strip()
    if override:
        return Path(override).expanduser()
    return cache_home() / "tables"


def cache_home() -> Path:
    """dicetree's folder in the user's cache: ``$XDG_CACHE_HOME/dicetree`` where ``XDG_CACHE_HOME`` is an
    absolute path, else ``~/.cache/dicetree`` (tables, and numba's compiled code, live under it)."""
    xdg = os.environ.get("XDG_CACHE_HOME", "").strip()
    base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache"
    return base / "dicetree"


def _check_name(kind: str, name: Any) -> str:
    if not isinstance(name, str) or not _NAME.fullmatch(name):
        raise InvalidTableNameError(
            f"invalid table {kind} {name!r}: use 1 to 200 characters from letters, digits and "
            "'._+=,@-', not starting with '.'"
        )
    return name


# ----- the file's header ------------------------------------------------------------------------
@dataclass(frozen=True)
class _Header:
    data_offset: int
    data_nbytes: int
    meta_offset: int
    meta_nbytes: int
    data_sha256: bytes
    meta_sha256: bytes

    def pack(self) -> bytes:
        body = _PREAMBLE.pack(
            MAGIC, FORMAT_VERSION, 0, self.data_offset, self.data_nbytes, self.meta_offset,
            self.meta_nbytes, self.data_sha256, self.meta_sha256, bytes(8),
        )
        return body + struct.pack("<I", zlib.crc32(body))

    @property
    def file_size(self) -> int:
        return self.meta_offset + self.meta_nbytes


def _parse_header(path: Path, head: bytes, file_size: int) -> _Header:
    """The header of a table file whose first bytes are ``head``; a specific error if it is damaged."""
    if head[: len(MAGIC)] != MAGIC[: len(head)]:
        raise BadMagicError(path, f"not a dicetree table (starts with {head[:len(MAGIC)]!r}, expected {MAGIC!r})")
    if len(head) >= len(MAGIC) + 4:
        (version,) = struct.unpack_from("<I", head, len(MAGIC))
        if version != FORMAT_VERSION:
            age = "newer" if version > FORMAT_VERSION else "older"
            raise TableVersionError(
                path, f"format version {version} ({age} than this dicetree's version {FORMAT_VERSION}); "
                "rebuild the table"
            )
    if len(head) < _HEADER_SIZE:
        raise TruncatedTableError(path, f"truncated: {file_size} bytes, shorter than the {_HEADER_SIZE}-byte header")
    (crc,) = struct.unpack_from("<I", head, _CRC_AT)
    if zlib.crc32(head[:_CRC_AT]) != crc:
        raise ChecksumMismatchError(path, "header checksum mismatch (the header is damaged)")
    _, _, flags, d_off, d_len, m_off, m_len, d_sha, m_sha, reserved = _PREAMBLE.unpack_from(head)
    if flags != 0 or reserved != bytes(8):
        raise CorruptTableError(path, "reserved header fields are set (written by an unknown writer)")
    if d_off < _HEADER_SIZE or d_off % _DATA_ALIGN or m_off != d_off + d_len or m_len == 0:
        raise CorruptTableError(
            path, f"inconsistent layout (values at {d_off}+{d_len}, metadata at {m_off}+{m_len})"
        )
    header = _Header(d_off, d_len, m_off, m_len, d_sha, m_sha)
    if file_size < header.file_size:
        raise TruncatedTableError(
            path, f"truncated: {file_size} bytes, the header promises {header.file_size}"
        )
    if file_size > header.file_size:
        raise CorruptTableError(
            path, f"{file_size - header.file_size} unexpected bytes after the end the header gives"
        )
    return header


def _parse_meta(path: Path, header: _Header, raw: bytes, game: str, signature: str) -> dict[str, Any]:
    if hashlib.sha256(raw).digest() != header.meta_sha256:
        raise ChecksumMismatchError(path, "metadata checksum mismatch (the metadata is damaged)")
    try:
        meta = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise CorruptTableError(path, f"unreadable metadata ({error})") from None
    if not isinstance(meta, dict):
        raise CorruptTableError(path, "metadata is not a JSON object")
    shape, dtype = meta.get("shape"), meta.get("dtype")
    if not (isinstance(shape, list) and all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in shape)):
        raise CorruptTableError(path, f"metadata has an invalid shape {shape!r}")
    if dtype not in _DTYPES:
        raise CorruptTableError(path, f"metadata has an unsupported dtype {dtype!r}")
    expected = math.prod(shape) * np.dtype(dtype).itemsize
    if expected != header.data_nbytes:
        raise CorruptTableError(
            path, f"shape {tuple(shape)} of {dtype} needs {expected} bytes, the file holds {header.data_nbytes}"
        )
    if (meta.get("game"), meta.get("signature")) != (game, signature):
        raise CorruptTableError(
            path, f"holds table {meta.get('game')}/{meta.get('signature')}, not {game}/{signature} (renamed?)"
        )
    return meta


def _read_exact(f, offset: int, size: int) -> bytes:
    f.seek(offset)
    data = f.read(size)
    return data if data is not None else b""


# ----- verification memory ------------------------------------------------------------------------
_verified_lock = threading.Lock()
_verified: set[tuple[int, int, int, int, bytes]] = set()


def _identity(st: os.stat_result, header: _Header) -> tuple[int, int, int, int, bytes]:
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, header.data_sha256)


def _same_file(a: os.stat_result, b: os.stat_result) -> bool:
    return (a.st_dev, a.st_ino, a.st_size, a.st_mtime_ns, a.st_ctime_ns) == (
        b.st_dev, b.st_ino, b.st_size, b.st_mtime_ns, b.st_ctime_ns)


def _stamp_path(path: Path) -> Path:
    return path.with_name(f".{path.name[: -len(SUFFIX)]}.verified")


def _stamp_matches(path: Path, st: os.stat_result, header: _Header) -> bool:
    try:
        stamp = json.loads(_stamp_path(path).read_text("utf-8"))
    except (OSError, ValueError):
        return False
    return stamp == _stamp_content(st, header)


def _stamp_content(st: os.stat_result, header: _Header) -> dict[str, Any]:
    return {"ino": st.st_ino, "size": st.st_size, "mtime_ns": st.st_mtime_ns, "sha256": header.data_sha256.hex()}


def _write_stamp(path: Path, st: os.stat_result, header: _Header) -> None:
    """Remember a successful check beside the table; silently skipped where the store is read-only."""
    stamp = _stamp_path(path)
    tmp = stamp.with_name(f"{stamp.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    try:
        tmp.write_text(json.dumps(_stamp_content(st, header)), "utf-8")
        os.replace(tmp, stamp)
    except OSError:
        try:
            tmp.unlink()
        except OSError:
            pass


# ----- a stored table ---------------------------------------------------------------------------------
class Table:
    """One stored table: metadata read at load, values read or memory-mapped on first access.

    Obtain one from :meth:`TableStore.load` (or :meth:`TableStore.save`). ``table.array`` is a
    read-only numpy array (a memory map for large tables); ``table[index]`` is ``table.array[index]``.

    >>> import numpy as np, tempfile
    >>> store = TableStore(tempfile.mkdtemp(), mmap_threshold=0)
    >>> _ = store.save("g", "s", np.arange(6.0).reshape(2, 3), {"tolerance": 1e-12})
    >>> with store.load("g", "s") as table:
    ...     table.is_loaded, float(table[1, 2]), table.is_mapped, table.metadata["tolerance"]
    (False, 5.0, True, 1e-12)
    """

    def __init__(self, path: Path, game: str, signature: str, header: _Header, metadata: dict[str, Any],
                 stat: os.stat_result, *, array: np.ndarray | None = None, buffer: bytes | None = None,
                 fd: int | None = None, verify: str = "auto"):
        self.path = path
        self.game = game
        self.signature = signature
        self.metadata = metadata
        self.shape: tuple[int, ...] = tuple(metadata["shape"])
        self.dtype = np.dtype(metadata["dtype"])
        self.checksum = "sha256:" + header.data_sha256.hex()
        self._header = header
        self._stat = stat
        self._verify_mode = verify
        self._array = array
        self._buffer: Any = buffer  # the whole file's bytes (read, or mapped on first access)
        self._mapped = False
        self._lock = threading.Lock()
        self._fd = fd
        self._finalizer = weakref.finalize(self, os.close, fd) if fd is not None else None

    # metadata shortcuts
    @property
    def positions(self) -> int:
        """Cells holding a position (every cell but NaN ones)."""
        return int(self.metadata.get("positions", math.prod(self.shape)))

    @property
    def nbytes(self) -> int:
        return self._header.data_nbytes

    @property
    def file_size(self) -> int:
        return self._header.file_size

    @property
    def is_loaded(self) -> bool:
        """Whether the values have been read or mapped yet."""
        return self._array is not None

    @property
    def is_mapped(self) -> bool:
        """Whether the values are memory-mapped (large tables) rather than read into memory."""
        return self._mapped

    @property
    def array(self) -> np.ndarray:
        """The values, read-only: mapped (and checked once, see the module notes) on first access."""
        if self._array is None:
            with self._lock:
                if self._array is None:
                    self._array = self._map()
        return self._array

    def __getitem__(self, index):
        return self.array[index]

    def _map(self) -> np.ndarray:
        if self._fd is None:
            raise TableError(f"table {self.path} was closed before its values were read")
        header = self._header
        try:
            mapped = mmap.mmap(self._fd, 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError) as error:
            raise TableError(f"table {self.path}: cannot map: {error}") from None
        if self._verify_mode != "never":
            identity = _identity(self._stat, header)
            with _verified_lock:
                known = identity in _verified
            if self._verify_mode == "always" or not (known or _stamp_matches(self.path, self._stat, header)):
                _check_data(self.path, header, memoryview(mapped))
                if self._verify_mode == "auto":
                    _write_stamp(self.path, self._stat, header)
            with _verified_lock:
                _verified.add(identity)
        array = np.frombuffer(mapped, dtype=self.dtype, count=math.prod(self.shape), offset=header.data_offset)
        array = array.reshape(self.shape)
        self._buffer = mapped
        self._mapped = True
        self._release_fd()
        return array

    def verify(self) -> None:
        """Check the values against the stored SHA-256 now; :class:`ChecksumMismatchError` if they differ."""
        self.array  # noqa: B018 - maps the file if that has not happened yet
        _check_data(self.path, self._header, memoryview(self._buffer))

    def _release_fd(self) -> None:
        if self._finalizer is not None:
            self._finalizer()
        self._fd = None

    def close(self) -> None:
        """Release the file (the values stay usable if they were already accessed)."""
        with self._lock:
            self._release_fd()

    def __enter__(self) -> Table:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "mapped" if self.is_mapped else "loaded" if self.is_loaded else "not loaded"
        return f"<Table {self.game}/{self.signature} shape={self.shape} dtype={self.dtype.str} {state}>"


def _check_data(path: Path, header: _Header, view: memoryview) -> None:
    with view:
        start, end = header.data_offset, header.data_offset + header.data_nbytes
        if view[_HEADER_SIZE:start].tobytes() != bytes(start - _HEADER_SIZE):
            raise CorruptTableError(path, "damaged padding between the header and the values")
        digest = hashlib.sha256()
        for at in range(start, end, _CHUNK_BYTES):
            digest.update(view[at : min(end, at + _CHUNK_BYTES)])
        if digest.digest() != header.data_sha256:
            raise ChecksumMismatchError(path, "values checksum mismatch (the values are damaged)")


# ----- statistics --------------------------------------------------------------------------------
class MetadataCount(NamedTuple):
    """One whole-number metadata value over the files: how many hold it, how many above zero, its sum."""

    files: int = 0
    nonzero: int = 0
    total: int = 0


@dataclass
class StoreStats:
    """Totals over the stored tables (of one game or all).

    ``statistics`` sums each named count the tables' games stored with them (their metadata's
    ``statistics``; what a count means is the game's to say); ``build_time`` sums the metadata's
    ``build_time`` (seconds); ``bytes`` is the size on disk of the table files; ``corrupt`` lists
    unreadable files as ``(path, message)``; ``files`` counts the files read and ``counts`` each
    whole-number value of their own metadata (what it means is the game's to say).
    """

    tables: int = 0
    positions: int = 0
    build_time: float = 0.0
    bytes: int = 0
    corrupt: list[tuple[str, str]] = field(default_factory=list)
    statistics: dict[str, int] = field(default_factory=dict)
    files: int = 0
    counts: dict[str, MetadataCount] = field(default_factory=dict)

    def add_counts(self, metadata: Mapping[str, Any]) -> None:
        """Count one file's whole-number metadata values (anything else is skipped)."""
        self.files += 1
        for name, value in metadata.items():
            if isinstance(name, str) and _is_count(value):
                known = self.counts.get(name, MetadataCount())
                self.counts[name] = MetadataCount(known.files + 1, known.nonzero + (value > 0), known.total + value)

    def add_statistics(self, counts: Mapping[str, Any]) -> None:
        """Add one table's named counts (anything but a whole number is not a count and is skipped)."""
        for name, value in counts.items():
            if isinstance(name, str) and _is_count(value):
                self.statistics[name] = self.statistics.get(name, 0) + value

    def as_dict(self) -> dict[str, Any]:
        return {
            "tables": self.tables, "positions": self.positions, "build_time": self.build_time,
            "bytes": self.bytes, "corrupt": [list(c) for c in self.corrupt], "statistics": dict(self.statistics),
        }


def _is_count(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _own_statistics(metadata: Mapping[str, Any]) -> Mapping[str, Any]:
    counts = metadata.get(STATISTICS_KEY)
    return counts if isinstance(counts, Mapping) else {}


def _json_default(value: Any) -> Any:
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    if isinstance(value, Path):
        return str(value)
    raise TypeError(f"metadata value {value!r} of type {type(value).__name__} is not JSON-serializable")


def _same(key: str, given: Any, actual: Any) -> bool:
    try:
        if key == "shape":
            return [int(n) for n in given] == actual
        if key == "dtype":
            return np.dtype(given).newbyteorder("<").str == actual
    except (TypeError, ValueError):
        return False
    return given == actual


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return  # not possible on this platform (Windows); the rename itself is still atomic
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _write_all(f, view: memoryview) -> None:
    """Write ``view`` to ``f`` (a separate function so tests can stop a writer in mid-write)."""
    f.write(view)


_HOST = hashlib.sha256(socket.gethostname().encode()).hexdigest()[:8]


def _remove_if_orphan(tmp: Path, now: float) -> bool:
    """Delete ``tmp`` (``.<name>.<host>.<pid>.<random>.tmp``) if its writer is dead: a process of
    this host that no longer runs, or, from another host, a day without change. Whether it did."""
    parts = tmp.name[1:-4].rsplit(".", 3)
    try:
        if len(parts) == 4 and parts[1] == _HOST:
            orphan = not _pid_alive(int(parts[2]))
        else:
            orphan = now - tmp.stat().st_mtime > _ORPHAN_AGE
        if orphan:
            tmp.unlink()
        return orphan
    except (OSError, ValueError):
        return False


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True
    return True


# ----- the store -----------------------------------------------------------------------------------
class TableStore:
    """Named numpy tables with metadata on disk, one file per ``(game, signature)``.

    ``root`` overrides the location (default: :func:`default_root`). Tables whose values take at
    least ``mmap_threshold`` bytes are memory-mapped on first access; smaller ones are read (and
    checked) whole at load. ``verify`` is ``"auto"`` (small tables checked on every load, large
    ones once per file, remembered by a stamp beside the table), ``"always"`` or ``"never"``
    (header and metadata checks only).

    Loaded tables are kept and handed out again while their file is unchanged; :meth:`close`
    forgets them.
    """

    def __init__(self, root: os.PathLike | str | None = None, *, mmap_threshold: int = _DEFAULT_MMAP_THRESHOLD,
                 verify: str = "auto"):
        if verify not in ("auto", "always", "never"):
            raise ValueError(f"verify must be 'auto', 'always' or 'never', not {verify!r}")
        self.root = Path(root).expanduser() if root is not None else default_root()
        self.mmap_threshold = int(mmap_threshold)
        self.verify = verify
        self._open: dict[Path, Table] = {}
        self._open_lock = threading.Lock()

    def __repr__(self) -> str:
        return f"TableStore({str(self.root)!r})"

    # --- names ---
    def path(self, game: str, signature: str) -> Path:
        """The file of table ``(game, signature)`` (whether or not it exists); validates both names."""
        return self.root / _check_name("game", game) / (_check_name("signature", signature) + SUFFIX)

    def has(self, game: str, signature: str) -> bool:
        """Whether a table file exists under that name (:meth:`load` checks that it is sound)."""
        return self.path(game, signature).is_file()

    # --- writing ---
    def save(self, game: str, signature: str, array: np.ndarray, metadata: Mapping[str, Any] | None = None) -> Table:
        """Store ``array`` with ``metadata`` as table ``(game, signature)``, atomically replacing any old one.

        ``metadata`` is a JSON-serializable mapping (numpy scalars and arrays are converted);
        recommended keys: ``build_time`` (seconds), ``tolerance``, ``residual``, ``iterations``,
        ``options`` (rule options, e.g. ``{"ace": "online"}``) and ``statistics`` (the game's named
        counts, whole numbers from 0, e.g. ``{"wins": 12}``: :meth:`stats` sums them). The store adds
        ``format_version``, ``game``, ``signature``, ``shape``, ``dtype``, ``positions`` (cells that
        are not NaN) and ``created`` (UTC, ISO 8601). Returns the stored :class:`Table`.
        """
        path = self.path(game, signature)
        values = np.asarray(array)
        if values.dtype.kind not in "fiub" or values.dtype.newbyteorder("<").str not in _DTYPES:
            raise TypeError(f"cannot store an array of dtype {values.dtype} (use float64)")
        values = np.asarray(values, dtype=values.dtype.newbyteorder("<"), order="C")  # keeps 0-d arrays 0-d
        meta = self._metadata(game, signature, values, metadata)

        directory = path.parent
        try:
            created_dir = not directory.is_dir()
            directory.mkdir(parents=True, exist_ok=True)
            if created_dir:
                _fsync_dir(directory.parent)
        except OSError as error:
            raise TableError(f"cannot create the table directory {directory}: {error.strerror or error}") from None
        self._remove_orphans(directory, signature)

        tmp = directory / f".{signature}.{_HOST}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
        try:
            self._write(tmp, values, meta)
            os.replace(tmp, path)
            _fsync_dir(directory)
        except BaseException as error:
            try:
                tmp.unlink()
            except OSError:
                pass
            if isinstance(error, OSError):
                raise TableError(f"cannot write table {path}: {error.strerror or error}") from None
            raise
        table = self.load(game, signature)
        assert table is not None
        return table

    @staticmethod
    def _metadata(game: str, signature: str, values: np.ndarray, metadata: Mapping[str, Any] | None) -> dict[str, Any]:
        meta = dict(metadata or {})
        if not all(isinstance(key, str) for key in meta):
            raise TypeError("metadata keys must be strings")
        if STATISTICS_KEY in meta:
            counts = meta[STATISTICS_KEY]
            if not isinstance(counts, Mapping) or not all(
                isinstance(name, str) and _is_count(int(value) if isinstance(value, np.integer) else value)
                for name, value in counts.items()
            ):
                raise ValueError(f"metadata statistics must map names to whole numbers from 0, not {counts!r}")
            meta[STATISTICS_KEY] = {name: int(value) for name, value in counts.items()}
        own = {"game": game, "signature": signature, "shape": list(values.shape), "dtype": values.dtype.str}
        for key, value in own.items():
            if key in meta and not _same(key, meta[key], value):
                raise ValueError(f"metadata {key}={meta[key]!r} disagrees with the table's {value!r}")
        meta.update(own)
        meta["format_version"] = FORMAT_VERSION
        meta["created"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
        return meta

    def _write(self, tmp: Path, values: np.ndarray, meta: dict[str, Any]) -> _Header:
        nbytes = values.nbytes
        data_offset = _LARGE_DATA_OFFSET if nbytes >= self.mmap_threshold else _SMALL_DATA_OFFSET
        flat = values.reshape(-1)
        is_float = values.dtype.kind == "f"
        digest = hashlib.sha256()
        positions = 0
        step = max(1, _CHUNK_BYTES // max(1, values.itemsize))
        with open(tmp, "xb") as f:
            f.write(bytes(data_offset))
            for at in range(0, flat.size, step):
                chunk = flat[at : at + step]
                if is_float:
                    nans = int(np.count_nonzero(np.isnan(chunk)))
                    positions += chunk.size - nans
                else:
                    positions += chunk.size
                with chunk.view(np.uint8).data as view:
                    digest.update(view)
                    _write_all(f, view)
            meta["positions"] = positions
            try:
                raw = json.dumps(meta, sort_keys=True, default=_json_default).encode("utf-8")
            except (TypeError, ValueError) as error:
                raise TypeError(f"table metadata is not JSON-serializable: {error}") from None
            f.write(raw)
            header = _Header(data_offset, nbytes, data_offset + nbytes, len(raw), digest.digest(),
                             hashlib.sha256(raw).digest())
            f.seek(0)
            f.write(header.pack())  # the magic goes in last: an unfinished file never even looks like a table
            f.flush()
            os.fsync(f.fileno())
        return header

    def _remove_orphans(self, directory: Path, signature: str | None) -> int:
        """Delete temporary files left by killed writers (of one signature, or all in ``directory``)."""
        removed = 0
        pattern = f".{signature}.*.tmp" if signature else ".*.tmp"
        now = time.time()
        for tmp in directory.glob(pattern):
            if signature and tmp.name[1:-4].rsplit(".", 3)[0] != signature:
                continue
            removed += _remove_if_orphan(tmp, now)
        return removed

    def clean(self) -> int:
        """Remove temporary files left behind by killed writers; returns how many were removed."""
        return sum(self._remove_orphans(directory, None) for directory in self._game_dirs(None))

    def remove(self, game: str, signature: str) -> bool:
        """Delete table ``(game, signature)``; whether there was one. Open readers keep their copy."""
        path = self.path(game, signature)
        with self._open_lock:
            self._open.pop(path, None)
        try:
            _stamp_path(path).unlink()
        except OSError:
            pass
        try:
            path.unlink()
        except FileNotFoundError:
            return False
        except OSError as error:
            raise TableError(f"cannot remove table {path}: {error.strerror or error}") from None
        return True

    # --- reading ---
    def load(self, game: str, signature: str) -> Table | None:
        """Table ``(game, signature)``, or None if there is none; :class:`CorruptTableError` if it is damaged.

        The header and metadata are read and checked now; small tables' values are read and
        checked now too, large tables' values are memory-mapped on first ``table.array`` access.
        """
        path = self.path(game, signature)
        try:
            st = os.stat(path)
        except FileNotFoundError:
            with self._open_lock:
                self._open.pop(path, None)
            return None
        except OSError as error:
            raise TableError(f"cannot read table {path}: {error.strerror or error}") from None
        with self._open_lock:
            cached = self._open.get(path)
        if cached is not None and (cached.is_loaded or cached._fd is not None) and _same_file(cached._stat, st):
            return cached
        table = self._read(path, game, signature)
        if table is not None:
            with self._open_lock:
                self._open[path] = table
        return table

    def _read(self, path: Path, game: str, signature: str, verify: str | None = None) -> Table | None:
        verify = verify or self.verify
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0))
        except FileNotFoundError:
            return None
        except OSError as error:
            raise TableError(f"cannot read table {path}: {error.strerror or error}") from None
        keep_fd = False
        try:
            st = os.fstat(fd)
            with open(fd, "rb", buffering=0, closefd=False) as f:
                head = _read_exact(f, 0, _HEADER_SIZE)
                header = _parse_header(path, head, st.st_size)
                small = header.data_nbytes < self.mmap_threshold
                if small:
                    whole = head + _read_exact(f, _HEADER_SIZE, header.file_size - _HEADER_SIZE)
                    if len(whole) != header.file_size:
                        raise TruncatedTableError(path, f"truncated while reading ({len(whole)} of {header.file_size} bytes)")
                    raw_meta = whole[header.meta_offset :]
                else:
                    raw_meta = _read_exact(f, header.meta_offset, header.meta_nbytes)
                    if len(raw_meta) != header.meta_nbytes:
                        raise TruncatedTableError(path, "truncated while reading its metadata")
                meta = _parse_meta(path, header, raw_meta, game, signature)
                if small:
                    if verify != "never":
                        _check_data(path, header, memoryview(whole))
                    values = np.frombuffer(whole, dtype=np.dtype(meta["dtype"]), count=math.prod(meta["shape"]),
                                           offset=header.data_offset).reshape(meta["shape"])
                    return Table(path, game, signature, header, meta, st, array=values, buffer=whole, verify=verify)
            keep_fd = True
            return Table(path, game, signature, header, meta, st, fd=fd, verify=verify)
        except OSError as error:
            raise TableError(f"cannot read table {path}: {error.strerror or error}") from None
        finally:
            if not keep_fd:
                os.close(fd)

    def read_metadata(self, game: str, signature: str) -> dict[str, Any] | None:
        """The metadata of table ``(game, signature)`` (header and metadata checked, values not read)."""
        path = self.path(game, signature)
        try:
            with open(path, "rb", buffering=0) as f:
                st = os.fstat(f.fileno())
                header = _parse_header(path, _read_exact(f, 0, _HEADER_SIZE), st.st_size)
                raw = _read_exact(f, header.meta_offset, header.meta_nbytes)
        except FileNotFoundError:
            return None
        except OSError as error:
            raise TableError(f"cannot read table {path}: {error.strerror or error}") from None
        if len(raw) != header.meta_nbytes:
            raise TruncatedTableError(path, "truncated while reading its metadata")
        meta = _parse_meta(path, header, raw, game, signature)
        meta["path"] = str(path)
        meta["file_size"] = st.st_size
        meta["sha256"] = header.data_sha256.hex()
        return meta

    # --- listing ---
    def _game_dirs(self, game: str | None) -> list[Path]:
        if game is not None:
            directory = self.root / _check_name("game", game)
            return [directory] if directory.is_dir() else []
        try:
            return sorted(d for d in self.root.iterdir() if d.is_dir() and _NAME.fullmatch(d.name))
        except OSError:
            return []

    def _entries(self, game: str | None) -> list[tuple[str, str]]:
        entries = []
        for directory in self._game_dirs(game):
            for path in sorted(directory.glob("*" + SUFFIX)):
                signature = path.name[: -len(SUFFIX)]
                if _NAME.fullmatch(signature) and path.is_file():
                    entries.append((directory.name, signature))
        return entries

    def _scan(self, game: str | None) -> tuple[list[dict[str, Any]], list[tuple[str, str]]]:
        tables, problems = [], []
        for game_name, signature in self._entries(game):
            try:
                meta = self.read_metadata(game_name, signature)
            except TableError as error:
                problems.append((str(self.path(game_name, signature)), str(error)))
                continue
            if meta is not None:
                tables.append(meta)
        return tables, problems

    def list(self, game: str | None = None) -> list[dict[str, Any]]:
        """The metadata of every stored table (of ``game``, or of all games), by game and signature.

        Each entry also has ``path``, ``file_size`` and ``sha256``. Damaged files are left out
        (:meth:`stats` and :meth:`check` report them).
        """
        return self._scan(game)[0]

    def stats(self, game: str | None = None,
              statistics: Callable[[dict[str, Any]], Mapping[str, Any]] | None = None) -> StoreStats:
        """Totals: tables, positions, the games' named counts, build time, bytes on disk.

        Reads only headers and metadata (the counts are taken when a table is saved).
        ``statistics(metadata)`` reads one table's named counts (default: its ``statistics``), so a
        game can read tables written before it kept them there.
        """
        tables, problems = self._scan(game)
        stats = StoreStats(corrupt=problems)
        for meta in tables:
            stats.tables += 1
            stats.positions += int(meta.get("positions") or 0)
            stats.add_statistics((statistics or _own_statistics)(meta))
            build_time = meta.get("build_time")
            if isinstance(build_time, (int, float)) and not isinstance(build_time, bool) and math.isfinite(build_time):
                stats.build_time += float(build_time)
            stats.bytes += int(meta["file_size"])
        return stats

    def check(self, game: str | None = None) -> builtins.list[tuple[str, str]]:  # `list` is a method here
        """Read and check every table in full (values included); ``(path, message)`` for each damaged one."""
        problems = []
        for game_name, signature in self._entries(game):
            try:
                table = self._read(self.path(game_name, signature), game_name, signature, verify="never")
                if table is not None:
                    with table:
                        table.verify()
            except TableError as error:
                problems.append((str(self.path(game_name, signature)), str(error)))
        return problems

    def close(self) -> None:
        """Forget the tables handed out so far (they stay usable by whoever holds them; each releases
        its file when it is closed or garbage-collected)."""
        with self._open_lock:
            self._open = {}
