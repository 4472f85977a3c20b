"""Many tables to a file: the packed layout of the table store, for builds of tens of thousands of tables.

One file per table (:class:`dicetree.cache.store.TableStore`'s ``save``/``load``) is right for a few
hundred tables; an endgame build writes tens of thousands, and a folder of that many files makes
every save, listing and start-up slow. A :class:`PackStore` keeps tables in *packs*: one file
holds every table a unit of work produced, with a directory of them at its end, under
``<root>/<game>/<shard>/<pack>.dtp``. The caller names the shard (a few hundred at most, e.g. one
per pair of dice sets) and finds a table by ``(game, shard, signature)``: only that shard's
directories are read, on first use, so opening costs the same however many tables are stored.

Usage::

    >>> import numpy as np, tempfile
    >>> packs = PackStore(tempfile.mkdtemp())
    >>> path = packs.save("game", "d6-d6", "batch-1",
    ...                   {"d6-d6": np.full((6, 6), 0.5), "d6-d6.K-": np.eye(6)},
    ...                   {"build_time": 0.25, "tolerance": 1e-12},
    ...                   statistics={"d6-d6": {"wins": 0}, "d6-d6.K-": {"wins": 6}})
    >>> float(packs.load("game", "d6-d6", "d6-d6.K-")[2, 2]), packs.load("game", "d6-d6", "d6-d8") is None
    (1.0, True)
    >>> packs.has("game", "d6-d6", "d6-d6"), packs.shards("game")
    (True, ['d6-d6'])
    >>> stats = packs.stats("game")
    >>> stats.tables, stats.positions, stats.statistics, stats.build_time
    (2, 72, {'wins': 6}, 0.25)

File format (version 3; version 2, the same without encodings, is still read), all integers little-endian::

    offset 0    magic            12 bytes  b"\\x89DTPACKS\\r\\n\\x1a\\n"
           12   format version   u32       3
           16   flags            u32       0 (reserved)
           20   data offset      u64       4096 (a page)
           28   data length      u64       bytes of every table's values and their padding
           36   directory offset u64       data offset + data length
           44   directory length u64       bytes of UTF-8 JSON
           52   directory SHA-256 32 bytes
           84   reserved         40 bytes  zero
           124  header CRC-32    u32       of bytes 0..123
           128  zero padding up to the data offset
                each table's values, C order, little-endian, starting at a multiple of 64
                the directory JSON: the pack's metadata and, per table, its offset, shape, dtype,
                positions, SHA-256, statistics and (version 3) its encoding: absent for plain
                values, "fixed32" for uint32 fixed point over [0, 1] (``k / (2**32 - 1)``: half the
                bytes of float64, within 1.2e-10 of the value), decoded where read

Fixed point is stored by passing a :class:`FixedPointTable` (:func:`encode_fixed`) and read back as one::

    >>> _ = packs.save("game", "d4-d4", "batch-2", {"d4-d4": FixedPointTable(encode_fixed(np.full((4, 4), 0.3)))})
    >>> table = packs.load("game", "d4-d4", "d4-d4")
    >>> type(table).__name__, abs(float(table[1, 2]) - 0.3) < 1.2e-10
    ('FixedPointTable', True)

Guarantees (those of one-file tables):

* **Atomic.** A pack is written to a hidden temporary file in its shard, fsynced, renamed over the
  pack and the folder fsynced (by a background thread with :class:`PackWriter`); its magic goes in last. A writer killed at any moment leaves the
  previous pack or the new one, never a loadable partial pack. :meth:`PackStore.clean` removes
  the temporary files of dead writers (once per build, not per pack).
* **Checked.** The header's CRC and the directory's SHA-256 on open; on the first access to a
  pack's values, every table's SHA-256, once per file: a successful check is remembered in a
  hidden ``.<pack>.verified`` stamp beside it, keyed by the file's inode, size, modification time
  and checksum (``verify="always"``: each table on every access, ``"never"``: not at all).
  Damage is a :class:`dicetree.cache.store.CorruptTableError` naming the file.
* **Memory-mapped, safe for concurrent readers.** Packs are never changed in place: a reader maps
  the version it opened and keeps it when a writer replaces the file.
"""

from __future__ import annotations

import hashlib
import json
import math
import mmap
import os
import struct
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from dicetree.cache.store import (
    _DTYPES,
    _HOST,
    SUFFIX as TABLE_SUFFIX,
    BadMagicError,
    ChecksumMismatchError,
    CorruptTableError,
    StoreStats,
    TableError,
    TableVersionError,
    TruncatedTableError,
    _check_name,
    _fsync_dir,
    _is_count,
    _json_default,
    _remove_if_orphan,
    _write_all,
    default_root,
)

__all__ = ["FIXED32", "PACK_MAGIC", "PACK_SUFFIX", "PACK_VERSION", "FixedPointTable", "PackInfo", "PackStore",
           "PackWriter", "encode_fixed"]

PACK_MAGIC = b"\x89DTPACKS\r\n\x1a\n"
PACK_VERSION = 3
#: Versions this reader opens: 2 (float values only) and 3 (values may be fixed point).
READABLE_VERSIONS = (2, 3)
#: The encoding of values stored as 32-bit fixed point over [0, 1]: ``k`` means ``k / (2**32 - 1)``.
FIXED32 = "fixed32"
FIXED_SCALE = 2**32 - 1
PACK_SUFFIX = ".dtp"
BUILD_LOG = "builds.jsonl"
_PREAMBLE = struct.Struct("<12sIIQQQQ32s40s")
_HEADER_SIZE = 128
_CRC_AT = _PREAMBLE.size
assert _CRC_AT == 124
_DATA_OFFSET = 4096
_ALIGN = 64
_CHUNK_BYTES = 16 << 20


def encode_fixed(values: np.ndarray) -> np.ndarray:
    """Values in [0, 1] as 32-bit fixed point (rounded to nearest: within 1.2e-10 of the value).

    >>> encode_fixed(np.array([0.0, 0.5, 1.0])).tolist()
    [0, 2147483648, 4294967295]
    """
    scaled = np.clip(values, 0.0, 1.0)
    np.multiply(scaled, FIXED_SCALE, out=scaled)
    return np.rint(scaled, out=scaled).astype(np.uint32)


class FixedPointTable:
    """A stored table of 32-bit fixed point (:data:`FIXED32`), decoded to float64 where it is read:
    indexing decodes only what it selects, so a probe of a memory-mapped table of 368 million
    positions reads one value; ``np.asarray`` decodes the whole table.

    >>> table = FixedPointTable(encode_fixed(np.array([[0.25, 1.0], [0.0, 0.75]])))
    >>> round(float(table[0, 0]), 9), table[1].round(9).tolist(), table.shape, round(float(table.mean()), 9)
    (0.25, [0.0, 0.75], (2, 2), 0.5)
    """

    dtype = np.dtype(np.float64)

    def __init__(self, raw: np.ndarray):
        self.raw = raw  # the stored integers (uint32)

    @property
    def shape(self) -> tuple[int, ...]:
        return self.raw.shape

    @property
    def ndim(self) -> int:
        return self.raw.ndim

    @property
    def size(self) -> int:
        return self.raw.size

    def __len__(self) -> int:
        return len(self.raw)

    def __getitem__(self, key) -> np.ndarray | float:
        return self.raw[key] / FIXED_SCALE

    def __array__(self, dtype=None, copy=None) -> np.ndarray:
        values = self.raw / FIXED_SCALE
        return values if dtype is None else values.astype(dtype, copy=False)

    def mean(self, axis=None, keepdims: bool = False):
        return self.raw.mean(axis=axis, dtype=np.float64, keepdims=keepdims) / FIXED_SCALE

    def transpose(self, *axes) -> FixedPointTable:
        return FixedPointTable(self.raw.transpose(*axes))


@dataclass(frozen=True)
class _Entry:
    """Where one table sits in its pack, and what it holds (``encoding``: None for plain values,
    :data:`FIXED32` for fixed point)."""

    offset: int
    shape: tuple[int, ...]
    dtype: str
    sha256: str
    positions: int
    encoding: str | None = None

    @property
    def nbytes(self) -> int:
        return math.prod(self.shape) * np.dtype(self.dtype).itemsize


class _Totals(NamedTuple):
    """A pack's totals, kept in its directory so that figures over many packs read no table entry."""

    tables: int
    positions: int
    statistics: dict[str, int]


@dataclass(frozen=True)
class PackInfo:
    """A pack's directory: its path, its metadata and its tables' statistics (no values read)."""

    path: Path
    metadata: dict[str, Any]
    entries: dict[str, _Entry]
    statistics: dict[str, dict[str, int]]
    file_size: int
    checksum: str  # SHA-256 of the directory, which holds every table's
    totals: _Totals


def _corrupt(path: Path, reason: str) -> CorruptTableError:
    return CorruptTableError(path, reason)


def _read_directory(path: Path, f, file_size: int, entries: bool = True) -> PackInfo:
    """The directory of the open pack ``f``; a specific :class:`CorruptTableError` if it is damaged.
    Without ``entries`` only the pack's metadata and totals are read (what :meth:`PackStore.stats` needs)."""
    head = f.read(_HEADER_SIZE)
    if head[: len(PACK_MAGIC)] != PACK_MAGIC[: len(head)]:
        raise BadMagicError(path, f"not a dicetree pack (starts with {head[:len(PACK_MAGIC)]!r})")
    if len(head) >= len(PACK_MAGIC) + 4:
        (version,) = struct.unpack_from("<I", head, len(PACK_MAGIC))
        if version not in READABLE_VERSIONS:
            raise TableVersionError(path, f"pack format version {version}, this dicetree reads "
                                          f"{' and '.join(map(str, READABLE_VERSIONS))}; rebuild the tables")
    if len(head) < _HEADER_SIZE:
        raise TruncatedTableError(path, f"truncated: {file_size} bytes, shorter than the header")
    (crc,) = struct.unpack_from("<I", head, _CRC_AT)
    if zlib.crc32(head[:_CRC_AT]) != crc:
        raise ChecksumMismatchError(path, "header checksum mismatch (the header is damaged)")
    _, _, flags, d_off, d_len, i_off, i_len, i_sha, reserved = _PREAMBLE.unpack_from(head)
    if flags or reserved != bytes(40) or d_off != _DATA_OFFSET or i_off != d_off + d_len or not i_len:
        raise _corrupt(path, "inconsistent header (written by an unknown writer?)")
    if file_size != i_off + i_len:
        kind = TruncatedTableError if file_size < i_off + i_len else CorruptTableError
        raise kind(path, f"{file_size} bytes, the header promises {i_off + i_len}")
    f.seek(i_off)
    raw = f.read(i_len)
    if len(raw) != i_len:
        raise TruncatedTableError(path, "truncated while reading its directory")
    if hashlib.sha256(raw).digest() != i_sha:
        raise ChecksumMismatchError(path, "directory checksum mismatch (the directory is damaged)")
    try:
        directory = json.loads(raw.decode("utf-8"))
        metadata = dict(directory["metadata"])
        summary = directory.get("summary")
        if not entries and isinstance(summary, dict):
            totals = _Totals(int(summary["tables"]), int(summary["positions"]), dict(summary["statistics"]))
            return PackInfo(path, metadata, {}, {}, file_size, i_sha.hex(), totals)
        listed: dict[str, _Entry] = {}
        statistics = {}
        for name, item in directory["tables"].items():
            entry = _Entry(int(item["offset"]), tuple(int(n) for n in item["shape"]), str(item["dtype"]),
                           str(item["sha256"]), int(item["positions"]), item.get("encoding"))
            if entry.dtype not in _DTYPES or entry.offset % _ALIGN or entry.offset < d_off \
                    or entry.offset + entry.nbytes > i_off:
                raise ValueError(f"table {name} lies outside the values")
            if entry.encoding not in (None, FIXED32) or (entry.encoding == FIXED32 and entry.dtype != "<u4"):
                raise ValueError(f"table {name} has an unknown encoding {entry.encoding!r}")
            listed[name] = entry
            statistics[name] = {k: v for k, v in item.get("statistics", {}).items() if _is_count(v)}
    except (KeyError, TypeError, ValueError, UnicodeDecodeError) as error:
        raise _corrupt(path, f"unreadable directory ({error})") from None
    totals = _Totals(len(listed), sum(e.positions for e in listed.values()), _summed(statistics.values()))
    return PackInfo(path, metadata, listed, statistics, file_size, i_sha.hex(), totals)


def _summed(counts: Iterable[Mapping[str, int]]) -> dict[str, int]:
    total: dict[str, int] = {}
    for named in counts:
        for name, value in named.items():
            if _is_count(value):
                total[name] = total.get(name, 0) + value
    return total


def _discard(tmp: Path) -> None:
    try:
        tmp.unlink()
    except OSError:
        pass


def _commit(tmp: Path, path: Path) -> None:
    """Make the written temporary file durable, then put it in place of the pack."""
    try:
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException as error:
        _discard(tmp)
        if isinstance(error, OSError):
            raise TableError(f"cannot write pack {path}: {error.strerror or error}") from None
        raise


class PackWriter:
    """Packs written in the caller's thread and committed (fsynced, renamed into place, their
    folders fsynced) by one background thread, so a builder goes on solving while the disk syncs.
    A pack becomes visible once committed: :meth:`flush` waits for every pack saved so far (and
    raises the first error), as does leaving the ``with`` block. Each pack is atomic as with
    :meth:`PackStore.save`; a process killed before a commit leaves only a temporary file.

    >>> import numpy as np, tempfile
    >>> packs = PackStore(tempfile.mkdtemp())
    >>> with packs.writer() as writer:
    ...     _ = writer.save("game", "d6-d6", "batch-1", {"d6-d6": np.zeros((6, 6))})
    >>> packs.has("game", "d6-d6", "d6-d6")
    True
    """

    def __init__(self, packs: PackStore):
        from concurrent.futures import ThreadPoolExecutor

        self.packs = packs
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pack-commit")
        self._pending: list = []
        self._folders: set[Path] = set()
        self._lock = threading.Lock()

    def save(self, game: str, shard: str, pack: str, tables: Mapping[str, np.ndarray | FixedPointTable],
             metadata: Mapping[str, Any] | None = None,
             statistics: Mapping[str, Mapping[str, int]] | None = None) -> Path:
        """Like :meth:`PackStore.save`, but the pack is in place only once committed (:meth:`flush`)."""
        tmp, path = self.packs._prepare(game, shard, pack, tables, metadata, statistics)
        with self._lock:
            self._pending.append(self._pool.submit(_commit, tmp, path))
            self._folders.add(path.parent)
        return path

    def flush(self) -> None:
        """Wait until every pack saved so far is committed and its folder synced."""
        with self._lock:
            pending, self._pending = self._pending, []
            folders, self._folders = self._folders, set()
        errors = [future.exception() for future in pending]
        for folder in sorted(folders):
            _fsync_dir(folder)
        for error in errors:
            if error is not None:
                raise error

    def close(self) -> None:
        try:
            self.flush()
        finally:
            self._pool.shutdown(wait=True)

    def __enter__(self) -> PackWriter:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class _OpenPack:
    """One pack opened for reading: its directory now, its values mapped on first access."""

    def __init__(self, path: Path, verify: str):
        self.path = path
        self.verify = verify
        self._lock = threading.Lock()
        self._checked: set[str] = set()
        try:
            with open(path, "rb", buffering=0) as f:
                self.stat = os.fstat(f.fileno())
                self.info = _read_directory(path, f, self.stat.st_size)
                self._map: mmap.mmap = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        except FileNotFoundError:
            raise
        except OSError as error:
            raise TableError(f"cannot read pack {path}: {error.strerror or error}") from None

    def array(self, name: str) -> np.ndarray | FixedPointTable:
        """Table ``name``'s values, read-only (fixed point decoded where read: :class:`FixedPointTable`). With ``verify="auto"`` the whole pack is checked on
        the first access, unless a stamp beside it says this very file was checked already."""
        entry = self.info.entries[name]
        view = self._view(entry)
        if self.verify == "always":
            self._check(name, view)
        elif self.verify == "auto" and name not in self._checked:
            with self._lock:
                if not self._checked:
                    self._check_all()
            if name not in self._checked:
                self._check(name, view)  # the one that failed: raises
        return FixedPointTable(view) if entry.encoding == FIXED32 else view

    def _view(self, entry: _Entry) -> np.ndarray:
        return np.frombuffer(self._map, dtype=np.dtype(entry.dtype), count=math.prod(entry.shape),
                             offset=entry.offset).reshape(entry.shape)

    def _check(self, name: str, view: np.ndarray) -> None:
        digest = hashlib.sha256()
        flat = view.reshape(-1).view(np.uint8)
        for at in range(0, flat.size, _CHUNK_BYTES):
            digest.update(flat[at : at + _CHUNK_BYTES].data)
        if digest.hexdigest() != self.info.entries[name].sha256:
            raise ChecksumMismatchError(self.path, f"values of table {name} do not match their checksum")

    def _stamp(self) -> tuple[Path, str]:
        st = self.stat
        identity = json.dumps([st.st_ino, st.st_size, st.st_mtime_ns, self.info.checksum])
        return self.path.with_name(f".{self.path.name[: -len(PACK_SUFFIX)]}.verified"), identity

    def _check_all(self) -> None:
        """Check every table (once per file: remembered in a stamp beside the pack)."""
        stamp, identity = self._stamp()
        try:
            if stamp.read_text("utf-8") == identity:
                self._checked.update(self.info.entries)
                return
        except OSError:
            pass
        for name, entry in self.info.entries.items():
            try:
                self._check(name, self._view(entry))
            except ChecksumMismatchError:
                continue
            self._checked.add(name)
        if len(self._checked) == len(self.info.entries):
            tmp = stamp.with_name(f"{stamp.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
            try:  # silently skipped where the folder is read-only
                tmp.write_text(identity, "utf-8")
                os.replace(tmp, stamp)
            except OSError:
                _discard(tmp)


class _Shard:
    """Which pack holds each table of one shard, read when first asked and read again on a miss
    when the folder has changed (or may have: a rename within the file system's clock tick
    leaves the folder's time as it was, so a folder changed within a second of its last reading
    is listed again)."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.mtime_ns = -1
        self.read_at = 0.0
        self.packs: dict[Path, tuple[float, list[str]]] = {}
        self.where: dict[str, Path] = {}

    def refresh(self, infos: Callable[[Path], PackInfo]) -> None:
        try:
            mtime = os.stat(self.folder).st_mtime_ns
        except FileNotFoundError:
            self.mtime_ns, self.packs, self.where = -1, {}, {}
            return
        if mtime == self.mtime_ns and self.read_at - mtime / 1e9 > 1.0:
            return
        self.read_at = time.time()
        packs = {}
        for path in self.folder.glob("*" + PACK_SUFFIX):
            known = self.packs.get(path)
            created = path.stat().st_mtime
            packs[path] = known if known is not None and known[0] == created else (created, list(infos(path).entries))
        where: dict[str, tuple[float, Path]] = {}
        for path, (created, names) in packs.items():
            for name in names:  # a table in two packs (built twice): the newer pack's
                if name not in where or where[name][0] < created:
                    where[name] = (created, path)
        self.mtime_ns, self.packs = mtime, packs
        self.where = {name: path for name, (_, path) in where.items()}


class PackStore:
    """Tables packed many to a file under ``root`` (default :func:`dicetree.cache.store.default_root`).

    ``verify`` is ``"auto"`` (each table's values checked on first access in this process),
    ``"always"`` or ``"never"``. Safe to share between threads.
    """

    def __init__(self, root: os.PathLike | str | None = None, *, verify: str = "auto"):
        self.root = Path(root).expanduser() if root is not None else default_root()
        self.verify = verify
        self._lock = threading.RLock()
        self._shards: dict[tuple[str, str], _Shard] = {}
        self._open: dict[Path, _OpenPack] = {}

    def __repr__(self) -> str:
        return f"PackStore({str(self.root)!r})"

    def folder(self, game: str, shard: str | None = None) -> Path:
        base = self.root / _check_name("game", game)
        return base if shard is None else base / _check_name("shard", shard)

    # --- writing ---
    def save(self, game: str, shard: str, pack: str, tables: Mapping[str, np.ndarray | FixedPointTable],
             metadata: Mapping[str, Any] | None = None,
             statistics: Mapping[str, Mapping[str, int]] | None = None) -> Path:
        """Write ``tables`` (name to array) as one pack, atomically replacing a pack of that name.

        ``metadata`` is the pack's (JSON; e.g. ``build_time``: the seconds the whole pack took, counted
        once by :meth:`stats`); ``statistics`` the tables' named counts (whole numbers from 0).
        """
        tmp, path = self._prepare(game, shard, pack, tables, metadata, statistics)
        _commit(tmp, path)
        _fsync_dir(path.parent)
        return path

    def writer(self) -> PackWriter:
        """A writer that fsyncs and renames packs in a background thread (see :class:`PackWriter`)."""
        return PackWriter(self)

    def _prepare(self, game: str, shard: str, pack: str, tables: Mapping[str, np.ndarray | FixedPointTable],
                 metadata: Mapping[str, Any] | None, statistics: Mapping[str, Mapping[str, int]] | None
                 ) -> tuple[Path, Path]:
        """Write the pack to a temporary file beside it (not yet synced); the temporary and final paths."""
        folder = self.folder(game, shard)
        names = [_check_name("signature", name) for name in tables]
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise TableError(f"cannot create the table folder {folder}: {error.strerror or error}") from None
        path = folder / (_check_name("pack", pack) + PACK_SUFFIX)
        tmp = folder / f".{pack}.{_HOST}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
        try:
            self._write(tmp, names, tables, metadata or {}, statistics or {})
        except BaseException as error:
            _discard(tmp)
            if isinstance(error, OSError):
                raise TableError(f"cannot write pack {path}: {error.strerror or error}") from None
            raise
        return tmp, path

    @staticmethod
    def _write(tmp: Path, names: list[str], tables: Mapping[str, np.ndarray | FixedPointTable], metadata: Mapping[str, Any],
               statistics: Mapping[str, Mapping[str, int]]) -> None:
        entries: dict[str, dict[str, Any]] = {}
        with open(tmp, "xb") as f:
            f.write(bytes(_DATA_OFFSET))
            at = _DATA_OFFSET
            for name in names:
                item = tables[name]
                encoding = FIXED32 if isinstance(item, FixedPointTable) else None
                values = item.raw if isinstance(item, FixedPointTable) else np.asarray(item)
                values = np.ascontiguousarray(values, dtype=values.dtype.newbyteorder("<"))
                if values.dtype.str not in _DTYPES:
                    raise TypeError(f"cannot store table {name} of dtype {values.dtype}")
                pad = -at % _ALIGN
                f.write(bytes(pad))
                at += pad
                flat = values.reshape(-1).view(np.uint8)
                digest = hashlib.sha256()
                for start in range(0, flat.size, _CHUNK_BYTES):
                    with flat[start : start + _CHUNK_BYTES].data as view:
                        digest.update(view)
                        _write_all(f, view)
                counts = {k: int(v) for k, v in statistics.get(name, {}).items()}
                if not all(_is_count(v) for v in counts.values()):
                    raise ValueError(f"statistics of {name} must be whole numbers from 0: {counts}")
                positions = values.size - (int(np.count_nonzero(np.isnan(values))) if values.dtype.kind == "f" else 0)
                entries[name] = {"offset": at, "shape": list(values.shape), "dtype": values.dtype.str,
                                 "sha256": digest.hexdigest(), "positions": positions, "statistics": counts}
                if encoding:
                    entries[name]["encoding"] = encoding
                at += values.nbytes
            meta = dict(metadata)
            meta["created"] = datetime.now(timezone.utc).isoformat(timespec="seconds")
            summary = {"tables": len(entries), "positions": sum(e["positions"] for e in entries.values()),
                       "statistics": _summed(e["statistics"] for e in entries.values())}
            try:
                raw = json.dumps({"metadata": meta, "summary": summary, "tables": entries}, sort_keys=True,
                                 default=_json_default).encode("utf-8")
            except (TypeError, ValueError) as error:
                raise TypeError(f"pack metadata is not JSON-serializable: {error}") from None
            f.write(raw)
            body = _PREAMBLE.pack(PACK_MAGIC, PACK_VERSION, 0, _DATA_OFFSET, at - _DATA_OFFSET, at, len(raw),
                                  hashlib.sha256(raw).digest(), bytes(40))
            f.seek(0)
            f.write(body + struct.pack("<I", zlib.crc32(body)))  # the magic last: a partial file is no pack

    def clean(self, game: str | None = None) -> int:
        """Remove temporary files of killed writers in every shard (of ``game``, or of all games)."""
        removed = 0
        now = time.time()
        games = [self.folder(game)] if game else list(self._children(self.root))
        for game_folder in games:
            for shard in self._children(game_folder):
                removed += sum(_remove_if_orphan(tmp, now) for tmp in shard.glob(".*.tmp"))
        return removed

    def record_build(self, game: str, record: Mapping[str, Any]) -> None:
        """Append one finished build's figures (JSON, e.g. ``{"seconds": 153.9, "batches": 1207}``) to the
        game's log of builds, one line each (``<game>/builds.jsonl``), for :meth:`builds`."""
        folder = self.folder(game)
        line = json.dumps(dict(record), sort_keys=True, default=_json_default) + "\n"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            with open(folder / BUILD_LOG, "a", encoding="utf-8") as f:  # one short append: whole lines
                f.write(line)
        except OSError as error:
            raise TableError(f"cannot write the build log in {folder}: {error.strerror or error}") from None

    def builds(self, game: str) -> list[dict[str, Any]]:
        """The builds recorded by :meth:`record_build`, oldest first (unreadable lines skipped)."""
        try:
            text = (self.folder(game) / BUILD_LOG).read_text("utf-8")
        except OSError:
            return []
        records = []
        for line in text.splitlines():
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict):
                records.append(record)
        return records

    # --- reading ---
    @staticmethod
    def _child_names(folder: Path) -> list[str]:
        """The folders in ``folder``, sorted by name (one listing: no stat per entry where the file
        system tells the kind of each entry, as most do)."""
        try:
            with os.scandir(folder) as entries:
                return sorted(e.name for e in entries if e.is_dir() and not e.name.startswith("."))
        except OSError:
            return []

    @classmethod
    def _children(cls, folder: Path) -> list[Path]:
        return [folder / name for name in cls._child_names(folder)]

    def shards(self, game: str) -> list[str]:
        """The shards of ``game`` that hold at least a folder (a directory listing, no file read)."""
        return self._child_names(self.folder(game))

    def legacy_tables(self, game: str) -> list[str]:
        """Names of tables stored one file each (``<game>/<name>.dtt``, the layout before packs)."""
        try:
            with os.scandir(self.folder(game)) as entries:
                return [e.name[: -len(TABLE_SUFFIX)] for e in entries
                        if e.name.endswith(TABLE_SUFFIX) and not e.name.startswith(".")]
        except OSError:
            return []

    def _info(self, path: Path) -> PackInfo:
        return self._pack(path).info

    def _pack(self, path: Path) -> _OpenPack:
        with self._lock:
            known = self._open.get(path)
        if known is not None:
            try:
                st = os.stat(path)
            except OSError:
                st = None
            if st is not None and (st.st_ino, st.st_mtime_ns, st.st_size) == (
                    known.stat.st_ino, known.stat.st_mtime_ns, known.stat.st_size):
                return known
        opened = _OpenPack(path, self.verify)
        with self._lock:
            self._open[path] = opened
        return opened

    def _shard(self, game: str, shard: str) -> _Shard:
        """The listing of ``shard`` (called with the lock held)."""
        known = self._shards.get((game, shard))
        if known is None:
            known = self._shards[(game, shard)] = _Shard(self.folder(game, shard))
        return known

    def _where(self, game: str, shard: str, name: str) -> Path | None:
        with self._lock:
            known = self._shard(game, shard)
            if name not in known.where:  # a miss: the folder may have gained packs since
                known.refresh(self._info)
            return known.where.get(name)

    def names(self, game: str, shard: str) -> AbstractSet[str]:
        """Every table stored in ``shard`` (its packs' directories read again when the folder changed), as
        they are now: for callers that look up many names of one shard at once."""
        with self._lock:
            known = self._shard(game, shard)
            known.refresh(self._info)
            return known.where.keys()  # a refresh makes a new dict: this view stays as it is

    def has(self, game: str, shard: str, name: str) -> bool:
        """Whether a pack of ``shard`` holds table ``name`` (its directory checked, not its values)."""
        return self._where(game, shard, name) is not None

    def metadata(self, game: str, shard: str, name: str) -> dict[str, Any] | None:
        """The metadata of the pack that holds table ``name`` (its directory read, not its values), or None."""
        path = self._where(game, shard, name)
        return None if path is None else self._info(path).metadata

    def load(self, game: str, shard: str, name: str) -> np.ndarray | FixedPointTable | None:
        """Table ``name`` of ``shard`` as a read-only memory-mapped array, or None if none holds it."""
        path = self._where(game, shard, name)
        if path is None:
            return None
        try:
            return self._pack(path).array(name)
        except FileNotFoundError:  # removed since the shard was read: read the shard again
            with self._lock:
                self._shards.pop((game, shard), None)
            path = self._where(game, shard, name)
            return None if path is None else self._pack(path).array(name)

    def packs(self, game: str) -> Iterator[PackInfo]:
        """The directory of every pack of ``game`` (values not read); damaged packs raise."""
        for shard in self._children(self.folder(game)):
            for path in sorted(shard.glob("*" + PACK_SUFFIX)):
                try:
                    with open(path, "rb", buffering=0) as f:
                        yield _read_directory(path, f, os.fstat(f.fileno()).st_size)
                except OSError as error:
                    raise TableError(f"cannot read pack {path}: {error.strerror or error}") from None

    def stats(self, game: str) -> StoreStats:
        """Totals of ``game``'s packs: tables, positions, statistics, build time (each pack's
        ``build_time`` once), bytes on disk; damaged packs are listed in ``corrupt``."""
        stats = StoreStats()
        for shard in self._children(self.folder(game)):
            for path in sorted(shard.glob("*" + PACK_SUFFIX)):
                try:
                    with open(path, "rb", buffering=0) as f:
                        info = _read_directory(path, f, os.fstat(f.fileno()).st_size, entries=False)
                except (OSError, CorruptTableError) as error:
                    stats.corrupt.append((str(path), str(error)))
                    continue
                stats.tables += info.totals.tables
                stats.positions += info.totals.positions
                stats.add_counts(info.metadata)
                stats.add_statistics(info.totals.statistics)
                build_time = info.metadata.get("build_time")
                if isinstance(build_time, (int, float)) and math.isfinite(build_time):
                    stats.build_time += float(build_time)
                stats.bytes += info.file_size
        return stats

    def check(self, game: str) -> list[tuple[str, str]]:
        """Read every table of ``game`` and check it against its checksum; ``(path, message)`` per damaged pack."""
        problems = []
        for shard in self._children(self.folder(game)):
            for path in sorted(shard.glob("*" + PACK_SUFFIX)):
                try:
                    pack = _OpenPack(path, "always")
                    for name in pack.info.entries:
                        pack.array(name)
                except TableError as error:
                    problems.append((str(path), str(error)))
        return problems
