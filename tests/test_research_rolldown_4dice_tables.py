"""research/rolldown_4dice_tables.py's draw of 4-dice signature pairs: seeded, distinct either way round,
each side's dice drawn from every kind; and the plan it prints without building anything."""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "research"))  # scripts, not a package
import rolldown_4dice_tables as tables


def test_the_draw_is_seeded_and_never_repeats_a_pair_either_way_round():
    pairs = tables.drawn_pairs(random.Random(25), 60)
    assert pairs == tables.drawn_pairs(random.Random(25), 60)
    assert len({frozenset((p, p.swap())) for p in pairs}) == 60
    assert all(len(p.mine) == len(p.theirs) == 4 for p in pairs)
    assert {side for p in pairs for side in p.mine + p.theirs} == {4, 6, 8, 10, 12, 20}


def test_a_pair_and_its_reverse_are_one_batch():
    small = tables.Signature((4, 6, 8, 10), (4, 6, 8, 12))
    assert tables.batch_positions(small) == 2 * 1920 * 2304
    assert tables.batch_positions(tables.Signature((4, 6, 8, 10), (4, 6, 8, 10))) == 1920 * 1920


def test_without_build_it_lists_the_plan_and_builds_nothing(tmp_path, capsys):
    tables.main(["--tables", str(tmp_path), "--pairs", "5", "--max-positions", "20000000"])
    out = capsys.readouterr().out
    assert out.count("positions  to build") + out.count("positions  left out (too large)") == 5
    assert "pairs within 20,000,000 positions" in out
    assert not any(p.is_file() for p in tmp_path.rglob("*"))
