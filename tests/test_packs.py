"""The packed layout of the table store: bit-exact round trips, many tables a file, lookups by
shard, a killed writer (SIGKILL) never leaving a loadable bad pack, damage named, readers while a
pack is replaced, and figures that count each pack's time once."""

from __future__ import annotations

import doctest
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

import dicetree.cache.packs as packs_module
from dicetree.cache.packs import PACK_MAGIC, PACK_VERSION, FixedPointTable, PackStore, encode_fixed
from dicetree.cache.store import BadMagicError, ChecksumMismatchError, CorruptTableError, TableVersionError, \
    TruncatedTableError
from concurrent_readers import read_while_rewriting

REPO = Path(__file__).resolve().parent.parent


def some_tables(count: int = 3, seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    shapes = [(6, 8), (4, 6, 8, 3), (7,), (1,), (2, 1, 3)]
    tables = {f"t{i}": rng.random(shapes[i % len(shapes)]) for i in range(count)}
    tables["t0"].reshape(-1)[:3] = [np.nan, -0.0, np.inf]
    return tables


def test_round_trip_is_bit_exact_and_read_only(tmp_path):
    tables = some_tables(5)
    PackStore(tmp_path).save("g", "s", "p", tables, {"build_time": 1.5})
    fresh = PackStore(tmp_path)
    for name, values in tables.items():
        stored = fresh.load("g", "s", name)
        assert stored.shape == values.shape and stored.dtype == values.dtype
        assert stored.tobytes() == values.tobytes()
        with pytest.raises(ValueError):
            stored[(0,) * stored.ndim] = 1.0
    assert fresh.load("g", "s", "missing") is None and fresh.load("g", "other", "t0") is None
    assert fresh.check("g") == []


def test_stats_count_each_pack_once(tmp_path):
    packs = PackStore(tmp_path)
    packs.save("g", "a", "p1", some_tables(3), {"build_time": 2.0}, statistics={"t0": {"wins": 4}, "t1": {"wins": 1}})
    packs.save("g", "b", "p2", some_tables(2, seed=1), {"build_time": 0.5}, statistics={"t1": {"wins": 2}})
    stats = packs.stats("g")
    positions = sum(v.size for v in some_tables(3).values()) + sum(v.size for v in some_tables(2, 1).values()) - 2
    assert (stats.tables, stats.positions, stats.build_time) == (5, positions, 2.5)  # a NaN is no position
    assert stats.statistics == {"wins": 7} and stats.corrupt == []
    assert packs.shards("g") == ["a", "b"]


def test_a_pack_written_by_another_process_is_seen_without_reopening(tmp_path):
    reader = PackStore(tmp_path)
    assert not reader.has("g", "s", "t0")
    PackStore(tmp_path).save("g", "s", "p", some_tables(1))
    assert reader.has("g", "s", "t0")
    PackStore(tmp_path).save("g", "s", "q", {"late": np.ones(3)})
    assert float(reader.load("g", "s", "late")[0]) == 1.0


def test_a_rewritten_pack_replaces_the_old_and_readers_keep_what_they_mapped(tmp_path):
    packs = PackStore(tmp_path)
    packs.save("g", "s", "p", {"t": np.full(10, 1.0)})
    held = packs.load("g", "s", "t")
    time.sleep(0.01)
    PackStore(tmp_path).save("g", "s", "p", {"t": np.full(10, 2.0)})
    assert float(held[0]) == 1.0
    assert float(PackStore(tmp_path).load("g", "s", "t")[0]) == 2.0


@pytest.mark.parametrize("damage, error", [
    (lambda raw: b"NOTAPACK" + raw[8:], BadMagicError),
    (lambda raw: raw[:12] + (PACK_VERSION + 1).to_bytes(4, "little") + raw[16:], TableVersionError),
    (lambda raw: raw[:-5], TruncatedTableError),
    (lambda raw: raw[:60] + bytes([raw[60] ^ 1]) + raw[61:], ChecksumMismatchError),
    (lambda raw: raw[:-3] + bytes([raw[-3] ^ 1]) + raw[-2:], ChecksumMismatchError),
], ids=["magic", "version", "truncated", "header", "directory"])
def test_damage_is_a_specific_error_naming_the_file(tmp_path, damage, error):
    path = PackStore(tmp_path).save("g", "s", "p", some_tables(2))
    path.write_bytes(damage(path.read_bytes()))
    with pytest.raises(error, match=str(path)):
        PackStore(tmp_path).load("g", "s", "t0")
    assert [p for p, _ in PackStore(tmp_path).stats("g").corrupt] == [str(path)]


def test_damaged_values_are_caught_on_first_access_and_by_check(tmp_path):
    tables = some_tables(2)
    path = PackStore(tmp_path).save("g", "s", "p", tables)
    raw = bytearray(path.read_bytes())
    raw[4096 + 70] ^= 0x10  # inside t0's values
    path.write_bytes(bytes(raw))
    with pytest.raises(ChecksumMismatchError, match="t0"):
        PackStore(tmp_path).load("g", "s", "t0")
    assert PackStore(tmp_path).load("g", "s", "t1").tobytes() == tables["t1"].tobytes()
    assert len(PackStore(tmp_path).check("g")) == 1
    assert PackStore(tmp_path, verify="never").load("g", "s", "t0") is not None


def test_every_single_byte_flip_of_the_header_and_directory_is_refused(tmp_path):
    path = PackStore(tmp_path).save("g", "s", "p", {"t": np.arange(4.0)})
    raw = path.read_bytes()
    directory_at = int.from_bytes(raw[36:44], "little")
    for at in list(range(128)) + list(range(directory_at, len(raw))):
        damaged = bytearray(raw)
        damaged[at] ^= 0x01
        path.write_bytes(bytes(damaged))
        with pytest.raises(CorruptTableError):
            PackStore(tmp_path).load("g", "s", "t")
    path.write_bytes(raw)
    assert PackStore(tmp_path).load("g", "s", "t").tolist() == [0.0, 1.0, 2.0, 3.0]


# ----- atomic writes under SIGKILL ---------------------------------------------------------------
WRITER = textwrap.dedent(
    """
    import sys, time
    import numpy as np
    import dicetree.cache.packs as p
    root, version, delay = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
    p._CHUNK_BYTES = 64 * 1024
    real = p._write_all
    def slow_write(f, view):
        real(f, view)
        f.flush()
        time.sleep(delay)
    p._write_all = slow_write
    packs = p.PackStore(root)
    print("start", flush=True)
    while True:
        packs.save("g", "s", "p", {"a": np.full(100_000, version), "b": np.full(50_000, -version)}, {"v": version})
        version = -version
    """
)


def test_writers_killed_at_random_moments_never_leave_a_loadable_bad_pack(tmp_path):
    PackStore(tmp_path).save("g", "s", "p", {"a": np.full(100_000, 0.5), "b": np.full(50_000, -0.5)}, {"v": 0.5})
    rng = np.random.default_rng(3)
    for _ in range(5):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, str(tmp_path), "0.5", "0.01"],
                                stdout=subprocess.PIPE, text=True, cwd=REPO)
        assert proc.stdout.readline().strip() == "start"
        time.sleep(float(rng.uniform(0.0, 0.2)))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        packs = PackStore(tmp_path)
        a, b = packs.load("g", "s", "a"), packs.load("g", "s", "b")
        assert abs(float(a[0])) == 0.5 and np.all(a == a[0]) and np.all(b == -a[0])
        assert packs.check("g") == []
    orphans = list((tmp_path / "g" / "s").glob(".*.tmp"))
    assert PackStore(tmp_path).clean("g") == len(orphans)
    assert not list((tmp_path / "g" / "s").glob(".*.tmp"))


def test_clean_keeps_the_temporary_file_of_a_live_writer(tmp_path):
    packs = PackStore(tmp_path)
    packs.save("g", "s", "p", {"t": np.ones(2)})
    live = tmp_path / "g" / "s" / f".p.{packs_module._HOST}.{os.getpid()}.abcd.tmp"
    dead = tmp_path / "g" / "s" / f".p.{packs_module._HOST}.999999999.abcd.tmp"
    for path in (live, dead):
        path.write_bytes(PACK_MAGIC)
    assert packs.clean() == 1
    assert live.exists() and not dead.exists() and packs.has("g", "s", "t")


def test_two_processes_read_while_a_third_rewrites(tmp_path):
    packs = PackStore(tmp_path)
    packs.save("g", "s", "p", {"t": np.full(100_000, 0.0)})
    setup = """
        from dicetree.cache.packs import PackStore
        def load(root):
            values = np.array(PackStore(root).load("g", "s", "t"))
            return values, float(values[0])
        """
    figures = read_while_rewriting(tmp_path, setup,
                                   lambda version: packs.save("g", "s", "p", {"t": np.full(100_000, version)}))
    assert all(loads > 3 and seen >= 2 for loads, seen in figures)


def test_docstring_examples(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    result = doctest.testmod(packs_module)
    assert result.attempted > 3 and result.failed == 0


def test_a_pack_is_checked_once_then_remembered_by_a_stamp(tmp_path, monkeypatch):
    path = PackStore(tmp_path).save("g", "s", "p", some_tables(3))
    checked = []
    real = packs_module._OpenPack._check
    monkeypatch.setattr(packs_module._OpenPack, "_check", lambda self, name, view: (checked.append(name),
                                                                                   real(self, name, view)))
    PackStore(tmp_path).load("g", "s", "t1")
    assert sorted(checked) == ["t0", "t1", "t2"] and (path.parent / ".p.verified").exists()
    checked.clear()
    PackStore(tmp_path).load("g", "s", "t2")
    assert checked == []  # a fresh process trusts the stamp of this very file
    PackStore(tmp_path).save("g", "s", "p", some_tables(3, seed=5))
    PackStore(tmp_path).load("g", "s", "t0")
    assert sorted(checked) == ["t0", "t1", "t2"]  # a new file under the name is checked again


def test_fixed_point_tables_round_trip_within_their_step(tmp_path):
    values = np.random.default_rng(5).random((4, 6, 8))
    values[0, 0, :2] = [0.0, 1.0]
    packs = PackStore(tmp_path)
    packs.save("g", "s", "p", {"fixed": FixedPointTable(encode_fixed(values)), "plain": values})
    fixed, plain = packs.load("g", "s", "fixed"), packs.load("g", "s", "plain")
    assert isinstance(fixed, FixedPointTable) and np.array_equal(plain, values)
    assert np.abs(np.asarray(fixed) - values).max() <= 0.5 / (2**32 - 1) + 1e-16
    assert fixed[0, 0, 0] == 0.0 and fixed[0, 0, 1] == 1.0 and fixed.shape == values.shape
    assert abs(float(fixed.transpose(2, 1, 0)[3, 2, 1]) - values[1, 2, 3]) < 1.2e-10
    assert packs.check("g") == [] and packs.stats("g").tables == 2


def test_packs_of_version_2_still_load(tmp_path, monkeypatch):
    # what builds stored before fixed point (float64 values, format version 2) reads as it was
    monkeypatch.setattr(packs_module, "PACK_VERSION", 2)
    path = PackStore(tmp_path).save("g", "s", "p", some_tables(2))
    monkeypatch.undo()
    assert int.from_bytes(path.read_bytes()[12:16], "little") == 2
    loaded = PackStore(tmp_path).load("g", "s", "t1")
    assert np.array_equal(loaded, some_tables(2)["t1"])
