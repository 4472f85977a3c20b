"""The on-disk table store: exact round trips, memory maps, metadata, locations, atomic writes under
SIGKILL, specific errors for damaged files, several readers at once, and the stats figures."""

from __future__ import annotations

import doctest
import hashlib
import json
import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

import dicetree.cache.store as store_module
from dicetree.cache.store import (
    FORMAT_VERSION,
    MAGIC,
    BadMagicError,
    ChecksumMismatchError,
    CorruptTableError,
    InvalidTableNameError,
    TableStore,
    TableVersionError,
    TruncatedTableError,
    default_root,
)
from dicetree.solver.game import GameError
from concurrent_readers import read_while_rewriting

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _forget_verified(monkeypatch):
    """Each test starts as a fresh process would: no table remembered as checked."""
    monkeypatch.setattr(store_module, "_verified", set())


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


def tricky_values(shape, seed=0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    values = np.asarray(rng.random(shape), dtype=np.float64)
    flat = values.reshape(-1)
    specials = [0.0, -0.0, 1.0, 0.5, np.nextafter(0.5, 1), 5e-324, np.inf, -np.inf, np.nan, 1 / 3]
    flat[: min(len(specials), flat.size)] = specials[: flat.size]
    return values


# ----- round trips ------------------------------------------------------------------------------
@pytest.mark.parametrize("threshold", [1 << 20, 0], ids=["read", "mapped"])
@pytest.mark.parametrize("shape", [(), (0,), (1,), (7,), (6, 8), (4, 6, 8, 3), (2, 1, 3, 1, 2)])
def test_round_trip_is_bit_exact(tmp_path, shape, threshold):
    store = TableStore(tmp_path, mmap_threshold=threshold)
    values = tricky_values(shape)
    store.save("rolldown", "sig", values, {"build_time": 0.1})
    table = TableStore(tmp_path, mmap_threshold=threshold).load("rolldown", "sig")
    assert table.shape == shape and table.dtype == np.float64
    assert same_bits(np.asarray(table.array), values)
    assert table.is_mapped == (threshold == 0)


def test_round_trip_of_non_contiguous_and_big_endian_arrays(tmp_path):
    store = TableStore(tmp_path)
    base = tricky_values((6, 10))
    store.save("g", "strided", base[:, ::3], {})
    store.save("g", "transposed", base.T, {})
    store.save("g", "big-endian", base.astype(">f8"), {})
    assert same_bits(np.asarray(store.load("g", "strided").array), np.ascontiguousarray(base[:, ::3]))
    assert same_bits(np.asarray(store.load("g", "transposed").array), np.ascontiguousarray(base.T))
    big = store.load("g", "big-endian")
    assert big.metadata["dtype"] == "<f8" and np.array_equal(big.array, base, equal_nan=True)


def test_other_numeric_dtypes_round_trip_and_odd_ones_are_refused(tmp_path):
    store = TableStore(tmp_path)
    for name, values in {"f4": np.float32([0.25, 0.75]), "u2": np.arange(5, dtype=np.uint16),
                         "b1": np.array([True, False, True])}.items():
        store.save("g", name, values, {})
        assert same_bits(np.asarray(store.load("g", name).array), values)
    assert "statistics" not in store.load("g", "f4").metadata  # a game's counts are the game's to give
    for bad in (np.array([1 + 2j]), np.array(["text"]), np.array([object()])):
        with pytest.raises(TypeError):
            store.save("g", "bad", bad, {})
    assert not store.has("g", "bad")


# ----- laziness and memory maps -------------------------------------------------------------------
def test_large_tables_are_mapped_on_first_access_and_small_ones_read(tmp_path):
    store = TableStore(tmp_path, mmap_threshold=64 * 1024)
    big = tricky_values((16, 16, 40))  # 80 KiB
    small = tricky_values((8, 8))
    store.save("g", "big", big, {})
    store.save("g", "small", small, {})
    fresh = TableStore(tmp_path, mmap_threshold=64 * 1024)
    table = fresh.load("g", "big")
    assert not table.is_loaded and table.metadata["shape"] == [16, 16, 40]  # metadata without the values
    assert same_bits(np.asarray(table.array), big)
    assert table.is_mapped
    assert table.path.stat().st_size == 4096 + big.nbytes + table._header.meta_nbytes  # page-aligned values
    with pytest.raises(ValueError):
        table.array[0, 0, 0] = 1.0  # read-only
    small_table = fresh.load("g", "small")
    assert small_table.is_loaded and not small_table.is_mapped
    with pytest.raises(ValueError):
        small_table.array[0, 0] = 1.0
    assert fresh.load("g", "big") is table  # handed out again while the file is unchanged
    table.close()
    assert same_bits(np.asarray(table.array), big)  # closing a mapped table keeps its values usable
    closed2 = TableStore(tmp_path, mmap_threshold=64 * 1024)
    with closed2.load("g", "big") as unread:
        assert not unread.is_loaded
    assert same_bits(np.asarray(closed2.load("g", "big").array), big)  # a closed, unread table is not reused


def test_a_reader_keeps_the_version_it_opened_when_the_table_is_replaced(tmp_path):
    store = TableStore(tmp_path, mmap_threshold=0)
    store.save("g", "s", np.full(1000, 0.25), {"version": 1})
    held = TableStore(tmp_path, mmap_threshold=0).load("g", "s")  # not yet mapped
    store.save("g", "s", np.full(1000, 0.75), {"version": 2})
    assert held.metadata["version"] == 1 and np.all(held.array == 0.25)
    again = TableStore(tmp_path, mmap_threshold=0).load("g", "s")
    assert again.metadata["version"] == 2 and np.all(again.array == 0.75)


# ----- metadata -------------------------------------------------------------------------------------
def test_metadata_round_trips_with_the_store_fields(tmp_path):
    store = TableStore(tmp_path)
    values = np.array([[0.0, 0.5, 0.75], [1.0, np.nan, 0.6]])
    meta = {"build_time": np.float64(2.5), "tolerance": 1e-12, "residual": 3.1e-13, "iterations": np.int64(41),
            "options": {"ace": "printed", "cards": ["Q", "K"]}, "note": "héllo", "statistics": {"wins": np.int64(3)}}
    store.save("rolldown", "d6d8-d4d6_QK", values, meta)
    got = TableStore(tmp_path).load("rolldown", "d6d8-d4d6_QK").metadata
    assert {k: got[k] for k in meta} == {"build_time": 2.5, "tolerance": 1e-12, "residual": 3.1e-13,
                                          "iterations": 41, "options": {"ace": "printed", "cards": ["Q", "K"]},
                                          "note": "héllo", "statistics": {"wins": 3}}
    assert got["game"] == "rolldown" and got["signature"] == "d6d8-d4d6_QK"
    assert got["shape"] == [2, 3] and got["dtype"] == "<f8" and got["format_version"] == FORMAT_VERSION
    assert got["positions"] == 5 and "above_half" not in got  # NaN marks a cell that is no position
    assert got["created"].endswith("+00:00")


def test_metadata_that_contradicts_the_table_or_is_not_json_is_refused(tmp_path):
    store = TableStore(tmp_path)
    with pytest.raises(ValueError, match="shape"):
        store.save("g", "s", np.zeros((2, 2)), {"shape": [4]})
    with pytest.raises(ValueError, match="game"):
        store.save("g", "s", np.zeros(2), {"game": "other"})
    store.save("g", "s", np.zeros((2, 2)), {"shape": (2, 2), "dtype": "float64", "game": "g"})  # agreeing is fine
    with pytest.raises(TypeError, match="JSON"):
        store.save("g", "t", np.zeros(2), {"when": object()})
    assert not store.has("g", "t") and not list((tmp_path / "g").glob(".*.tmp"))


# ----- locations and names ---------------------------------------------------------------------------
def test_location_explicit_then_environment_then_cache_directory(tmp_path, monkeypatch):
    monkeypatch.delenv("DICETREE_TABLES", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert TableStore().root == tmp_path / "xdg" / "dicetree" / "tables"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_root() == tmp_path / "home" / ".cache" / "dicetree" / "tables"
    monkeypatch.setenv("DICETREE_TABLES", str(tmp_path / "env"))
    assert TableStore().root == tmp_path / "env"
    assert TableStore(tmp_path / "explicit").root == tmp_path / "explicit"

    TableStore().save("g", "s", np.ones(3), {})
    assert (tmp_path / "env" / "g" / "s.dtt").is_file()
    assert TableStore(tmp_path / "env").load("g", "s") is not None
    assert TableStore(tmp_path / "explicit").load("g", "s") is None
    assert not (tmp_path / "explicit").exists()  # reading creates nothing


@pytest.mark.parametrize("name", ["", ".hidden", "../up", "a/b", "a\\b", "a b", "a:b", "x" * 201, "é", None, 3])
def test_unsafe_names_are_refused(tmp_path, name):
    store = TableStore(tmp_path)
    for call in (lambda: store.save("g", name, np.ones(1), {}), lambda: store.load("g", name),
                 lambda: store.has(name, "s"), lambda: store.remove("g", name)):
        with pytest.raises(InvalidTableNameError) as info:
            call()
        assert isinstance(info.value, GameError) and "invalid table" in str(info.value)
    assert not any(tmp_path.iterdir())


def test_has_list_remove(tmp_path):
    store = TableStore(tmp_path)
    assert store.list() == [] and not store.has("g", "a") and store.remove("g", "a") is False
    store.save("g", "b", np.ones(2), {"build_time": 1.0})
    store.save("g", "a", np.ones(3), {})
    store.save("h", "a", np.ones(4), {})
    (tmp_path / "g" / "notes.txt").write_text("not a table")
    assert [(m["game"], m["signature"]) for m in store.list()] == [("g", "a"), ("g", "b"), ("h", "a")]
    assert [m["shape"] for m in store.list("h")] == [[4]] and store.list("nothing") == []
    assert store.has("g", "a") and store.remove("g", "a") and not store.has("g", "a")
    assert store.load("g", "a") is None and store.has("h", "a")


# ----- stats ------------------------------------------------------------------------------------------
def test_stats_figures(tmp_path):
    store = TableStore(tmp_path, mmap_threshold=1024)
    a = np.array([[0.2, 0.5, 0.51], [1.0, 0.0, 0.9]])                       # 6 positions, 3 above 1/2
    b = np.linspace(0.0, 1.0, 201)                                         # 201 positions, 100 above (mapped)
    c = np.array([np.nan, 0.7, np.nan, 0.3])                               # 2 positions, 1 above
    store.save("rolldown", "a", a, {"build_time": 1.25, "statistics": {"wins": 3}})
    store.save("rolldown", "b", b, {"build_time": 2.5, "statistics": {"wins": 100, "draws": 1}})
    store.save("other", "c", c, {})
    stats = store.stats()
    assert (stats.tables, stats.positions, stats.statistics) == (3, 209, {"wins": 103, "draws": 1})
    assert stats.build_time == pytest.approx(3.75)
    assert stats.bytes == sum(p.stat().st_size for p in tmp_path.rglob("*.dtt"))
    assert stats.corrupt == []
    rolldown = store.stats("rolldown")
    assert (rolldown.tables, rolldown.positions, rolldown.statistics, rolldown.build_time) == (
        2, 207, {"wins": 103, "draws": 1}, 3.75)
    assert store.stats("absent").as_dict() == {"tables": 0, "positions": 0, "build_time": 0.0, "bytes": 0,
                                               "corrupt": [], "statistics": {}}
    json.dumps(stats.as_dict())


def test_a_game_reads_its_statistics_from_older_tables_its_own_way(tmp_path):
    store = TableStore(tmp_path)
    store.save("g", "old", np.array([0.9, 0.1]), {"above_half": 1})  # as tables kept it before statistics
    store.save("g", "new", np.array([0.9, 0.8]), {"statistics": {"above_half": 2}})
    assert store.stats("g").statistics == {"above_half": 2}  # the store reads only ``statistics``
    legacy = store.stats("g", statistics=lambda meta: meta.get("statistics") or {"above_half": meta["above_half"]})
    assert legacy.statistics == {"above_half": 3}


@pytest.mark.parametrize("bad", [{"wins": -1}, {"wins": 1.5}, {"wins": True}, {3: 1}, [1, 2], "many"])
def test_statistics_are_named_whole_counts(tmp_path, bad):
    store = TableStore(tmp_path)
    with pytest.raises(ValueError, match="statistics must map names to whole numbers"):
        store.save("g", "s", np.array([0.5]), {"statistics": bad})
    assert not store.has("g", "s")


# ----- damaged files ------------------------------------------------------------------------------
def saved(tmp_path, values=None, threshold=1 << 20, signature="s"):
    store = TableStore(tmp_path, mmap_threshold=threshold)
    table = store.save("g", signature, tricky_values((3, 5)) if values is None else values, {"build_time": 1.0})
    return table.path, table


def fresh_load(tmp_path, threshold=1 << 20, signature="s", **kw):
    table = TableStore(tmp_path, mmap_threshold=threshold, **kw).load("g", signature)
    if table is not None:
        table.array  # noqa: B018 - reading it maps the file
    return table


def patch(path: Path, offset: int, new: bytes) -> None:
    data = bytearray(path.read_bytes())
    data[offset : offset + len(new)] = new
    path.write_bytes(bytes(data))


def test_bad_magic(tmp_path):
    path, _ = saved(tmp_path)
    patch(path, 0, b"PK\x03\x04")
    with pytest.raises(BadMagicError, match="not a dicetree table") as info:
        fresh_load(tmp_path)
    assert str(path) in str(info.value) and info.value.path == path


@pytest.mark.parametrize("version", [0, FORMAT_VERSION + 1, 2**32 - 1])
def test_wrong_version(tmp_path, version):
    path, _ = saved(tmp_path)
    patch(path, len(MAGIC), version.to_bytes(4, "little"))
    with pytest.raises(TableVersionError, match=f"format version {version} .*rebuild") as info:
        fresh_load(tmp_path)
    assert str(path) in str(info.value)


@pytest.mark.parametrize("cut", [0, 5, 12, 100, 127, 128, 200, -1])
def test_truncated_file(tmp_path, cut):
    path, _ = saved(tmp_path)
    data = path.read_bytes()
    path.write_bytes(data[:cut])
    with pytest.raises(TruncatedTableError, match="truncated") as info:
        fresh_load(tmp_path)
    assert str(path) in str(info.value)


def test_truncated_large_file_is_caught_before_mapping(tmp_path):
    path, _ = saved(tmp_path, np.zeros(10_000), threshold=0)
    with open(path, "r+b") as f:
        f.truncate(4096 + 8 * 5_000)
    with pytest.raises(TruncatedTableError, match="promises"):
        TableStore(tmp_path, mmap_threshold=0).load("g", "s")


def test_checksum_mismatch_in_values_header_and_metadata(tmp_path):
    path, table = saved(tmp_path)
    original = path.read_bytes()
    data_at, meta_at = table._header.data_offset, table._header.meta_offset
    for offset, what in [(data_at + 17, "values"), (meta_at + 3, "metadata"), (60, "header")]:
        damaged = bytearray(original)
        damaged[offset] ^= 0x10
        path.write_bytes(bytes(damaged))
        with pytest.raises(ChecksumMismatchError, match=f"{what} checksum mismatch") as info:
            fresh_load(tmp_path)
        assert str(path) in str(info.value)


def test_damage_to_a_mapped_table_is_reported_on_first_access(tmp_path):
    path, table = saved(tmp_path, tricky_values(5000), threshold=0)
    patch(path, table._header.data_offset + 8 * 4321, b"\x00\x01")
    damaged = TableStore(tmp_path, mmap_threshold=0).load("g", "s")  # header and metadata are sound
    with pytest.raises(ChecksumMismatchError, match="values checksum mismatch"):
        damaged.array  # noqa: B018 - reading it checks the values
    with pytest.raises(ChecksumMismatchError):
        damaged[0]  # still refused on a second try
    patch(path, 1000, b"\x07")  # the padding before the page-aligned values
    with pytest.raises(CorruptTableError, match="padding"):
        fresh_load(tmp_path, threshold=0)


def test_every_single_byte_flip_and_truncation_is_a_specific_error(tmp_path):
    path, _ = saved(tmp_path, np.array([0.25, 0.5, 1.0]))
    original = path.read_bytes()
    for offset in range(len(original)):
        damaged = bytearray(original)
        damaged[offset] ^= 0xFF
        path.write_bytes(bytes(damaged))
        with pytest.raises(CorruptTableError):
            fresh_load(tmp_path)
    for cut in range(len(original)):
        path.write_bytes(original[:cut])
        with pytest.raises(CorruptTableError):
            fresh_load(tmp_path)
    path.write_bytes(original + b"\x00")
    with pytest.raises(CorruptTableError, match="unexpected bytes"):
        fresh_load(tmp_path)
    path.write_bytes(original)
    assert np.array_equal(fresh_load(tmp_path).array, [0.25, 0.5, 1.0])


def test_a_damaged_table_leaves_the_others_working(tmp_path):
    store = TableStore(tmp_path)
    store.save("g", "good", np.array([0.9, 0.1]), {"build_time": 2.0, "statistics": {"wins": 1}})
    bad_path, _ = saved(tmp_path, signature="bad")
    patch(bad_path, 0, b"junk")
    (tmp_path / "g" / "empty.dtt").write_bytes(b"")
    fresh = TableStore(tmp_path)
    with pytest.raises(BadMagicError):
        fresh.load("g", "bad")
    with pytest.raises(TruncatedTableError):
        fresh.load("g", "empty")
    assert np.array_equal(fresh.load("g", "good").array, [0.9, 0.1])
    assert [m["signature"] for m in fresh.list()] == ["good"]
    stats = fresh.stats()
    assert (stats.tables, stats.positions, stats.statistics, stats.build_time) == (1, 2, {"wins": 1}, 2.0)
    assert sorted(Path(p).name for p, _ in stats.corrupt) == ["bad.dtt", "empty.dtt"]
    assert all("table " in message for _, message in stats.corrupt)
    assert sorted(Path(p).name for p, _ in fresh.check()) == ["bad.dtt", "empty.dtt"]
    fresh.save("g", "bad", np.ones(2), {})  # rebuilding replaces the damaged file
    assert fresh.load("g", "bad") is not None


def test_a_table_under_the_wrong_name_is_refused(tmp_path):
    path, _ = saved(tmp_path, signature="one")
    os.replace(path, path.with_name("two.dtt"))
    with pytest.raises(CorruptTableError, match="holds table g/one, not g/two"):
        fresh_load(tmp_path, signature="two")


# ----- checking large tables once ----------------------------------------------------------------
def test_large_tables_are_checked_once_then_on_request(tmp_path, monkeypatch):
    checks = []
    real_check = store_module._check_data
    monkeypatch.setattr(store_module, "_check_data", lambda *a: (checks.append(1), real_check(*a)))
    path, _ = saved(tmp_path, tricky_values(4096), threshold=0)
    fresh_load(tmp_path, threshold=0)
    assert len(checks) == 1 and (path.parent / ".s.verified").is_file()
    fresh_load(tmp_path, threshold=0)
    monkeypatch.setattr(store_module, "_verified", set())  # as a new process: the stamp is what remembers
    fresh_load(tmp_path, threshold=0)
    assert len(checks) == 1
    fresh_load(tmp_path, threshold=0, verify="always")
    assert len(checks) == 2

    # Damage made in place while keeping the modification time slips past the stamp, not past a check.
    st = path.stat()
    patch(path, 4096 + 800, b"\xff")
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    monkeypatch.setattr(store_module, "_verified", set())
    table = fresh_load(tmp_path, threshold=0)
    with pytest.raises(ChecksumMismatchError):
        table.verify()
    assert [Path(p).name for p, _ in TableStore(tmp_path).check()] == ["s.dtt"]
    # Any change of the modification time makes the next first access check again.
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    with pytest.raises(ChecksumMismatchError):
        fresh_load(tmp_path, threshold=0)


# ----- atomic writes under SIGKILL ---------------------------------------------------------------
WRITER = textwrap.dedent(
    """
    import os, sys, time
    import numpy as np
    import dicetree.cache.store as s
    root, mode, version = sys.argv[1], sys.argv[2], float(sys.argv[3])
    s._CHUNK_BYTES = 64 * 1024

    def pause(message):
        print(message, flush=True)
        time.sleep(60)

    if mode == "payload":
        real = s._write_all
        calls = []
        def write_all(f, view):
            real(f, view)
            calls.append(1)
            if len(calls) == 3:
                f.flush()
                pause("paused")
        s._write_all = write_all
    elif mode == "replace":
        os.replace = lambda *a: pause("paused")
    elif mode == "fsync-dir":
        real = s._fsync_dir
        s._fsync_dir = lambda d: (real(d), pause("paused"))
    store = s.TableStore(root, mmap_threshold=0)
    print("start", flush=True)
    while True:
        store.save("g", "s", np.full(200_000, version), {"version": version})
        if mode != "loop":
            break
        version = -version
    print("done", flush=True)
    """
)


def kill_writer(root: Path, mode: str, version: float, delay: float | None = None) -> None:
    proc = subprocess.Popen([sys.executable, "-c", WRITER, str(root), mode, str(version)],
                            stdout=subprocess.PIPE, text=True, cwd=REPO)
    try:
        assert proc.stdout.readline().strip() == "start"
        if delay is None:
            assert proc.stdout.readline().strip() == "paused"
        else:
            time.sleep(delay)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    assert proc.returncode == -signal.SIGKILL


def assert_table_is(root: Path, versions: set[float | None]) -> None:
    """The table loads whole as one of ``versions`` (None: no table at all) and nothing corrupt is listed."""
    store = TableStore(root, mmap_threshold=0)
    table = store.load("g", "s")
    if table is None:
        assert None in versions and store.list() == []
        return
    version = table.metadata["version"]
    assert version in versions
    assert np.array_equal(table.array, np.full(200_000, version))
    table.verify()
    assert store.check() == [] and store.stats().corrupt == []


@pytest.mark.parametrize("mode", ["payload", "replace"])
def test_a_killed_writer_leaves_no_table_or_the_previous_one(tmp_path, mode):
    kill_writer(tmp_path, mode, 0.25)
    assert_table_is(tmp_path, {None})
    assert list((tmp_path / "g").glob(".s.*.tmp"))  # the orphan is there but never loaded
    TableStore(tmp_path).save("g", "s", np.full(200_000, 0.5), {"version": 0.5})
    assert not list((tmp_path / "g").glob(".s.*.tmp"))  # and the next save removes it
    kill_writer(tmp_path, mode, 0.75)
    assert_table_is(tmp_path, {0.5})


def test_a_writer_killed_after_the_rename_leaves_the_new_table(tmp_path):
    TableStore(tmp_path).save("g", "s", np.full(200_000, 0.5), {"version": 0.5})
    kill_writer(tmp_path, "fsync-dir", 0.75)
    assert_table_is(tmp_path, {0.75})


def test_writers_killed_at_random_moments_never_leave_a_loadable_bad_table(tmp_path):
    TableStore(tmp_path).save("g", "s", np.full(200_000, 0.5), {"version": 0.5})
    rng = np.random.default_rng(7)
    for _ in range(6):
        kill_writer(tmp_path, "loop", 0.5, delay=float(rng.uniform(0.0, 0.15)))
        assert_table_is(tmp_path, {0.5, -0.5})
    assert TableStore(tmp_path).clean() >= 0
    assert not list((tmp_path / "g").glob(".s.*.*.*.*.tmp"))


def test_clean_keeps_the_temporary_file_of_a_live_writer(tmp_path):
    store = TableStore(tmp_path)
    store.save("g", "s", np.ones(2), {})
    live = tmp_path / "g" / f".s.{store_module._HOST}.{os.getpid()}.abcd.tmp"
    dead = tmp_path / "g" / f".s.{store_module._HOST}.999999999.abcd.tmp"
    old = tmp_path / "g" / ".s.otherhost.1.abcd.tmp"
    for path in (live, dead, old):
        path.write_bytes(b"partial")
    os.utime(old, (0, 0))
    assert store.clean() == 2
    assert live.exists() and not dead.exists() and not old.exists()
    assert store.list()[0]["signature"] == "s"


# ----- several processes at once ---------------------------------------------------------------
def test_two_processes_read_at_once_while_a_third_rewrites(tmp_path):
    store = TableStore(tmp_path, mmap_threshold=0)
    store.save("g", "s", np.full(100_000, 0.0), {"version": 0.0})
    setup = """
        from dicetree.cache.store import TableStore
        def load(root):
            store = TableStore(root, mmap_threshold=0)
            table = store.load("g", "s")
            values, version = np.array(table.array), table.metadata["version"]
            store.close()
            return values, version
        """
    figures = read_while_rewriting(tmp_path, setup,
                                   lambda version: store.save("g", "s", np.full(100_000, version), {"version": version}))
    assert all(loads > 5 and seen >= 2 for loads, seen in figures)  # it read while the table was being replaced
    assert store.check() == []


def test_two_processes_map_the_same_table(tmp_path):
    values = tricky_values((50, 400))
    TableStore(tmp_path, mmap_threshold=0).save("g", "s", values, {})
    script = ("import sys, hashlib; from dicetree.cache.store import TableStore; "
              "t = TableStore(sys.argv[1], mmap_threshold=0).load('g', 's'); "
              "print(hashlib.sha256(t.array.tobytes()).hexdigest(), t.is_mapped)")
    procs = [subprocess.Popen([sys.executable, "-c", script, str(tmp_path)], stdout=subprocess.PIPE, text=True,
                              cwd=REPO) for _ in range(2)]
    outputs = [p.communicate(timeout=30)[0].split() for p in procs]
    expected = hashlib.sha256(values.tobytes()).hexdigest()
    assert all(p.returncode == 0 for p in procs)
    assert outputs == [[expected, "True"], [expected, "True"]]


# ----- documentation ---------------------------------------------------------------------------------
def test_docstring_examples(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    result = doctest.testmod(store_module)
    assert result.attempted > 5 and result.failed == 0
