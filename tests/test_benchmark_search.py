"""The search benchmark's smoke run: benchmarks/search.py --quick writes both reports, and they parse."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "search.py"


def load_benchmark():
    spec = importlib.util.spec_from_file_location("benchmark_search", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


def test_quick_run_writes_reports(tmp_path, capsys):
    benchmark = load_benchmark()
    assert benchmark.main(["--quick", "--out", str(tmp_path)]) == 0

    data = json.loads((tmp_path / "search-benchmark.json").read_text())
    assert data["quick"] is True and data["all_values_agree"] is True
    assert data["max_value_difference"] <= data["tolerance"]
    assert data["machine"]["nproc"] >= 1 and data["machine"]["python"]
    configurations = set(benchmark.CONFIGS) | {benchmark.EXPECTIMAX}
    assert len(data["positions"]) == len(benchmark.QUICK_POSITIONS)
    for position in data["positions"]:
        assert set(position["results"]) == configurations
        default = position["results"][benchmark.DEFAULT]
        assert default["nodes"] > 0 and default["wall_seconds"] > 0 and default["nodes_per_second"] > 0
        assert 0 <= default["cache_hit_rate"] <= 1 and default["ebf_root"] >= 1
        assert position["results"]["Star1, no cache"]["cache_hit_rate"] is None
        assert set(position["ratios_to_default"]) == configurations - {benchmark.DEFAULT}
        assert all(check["agree"] for check in position["values_check"].values())

    report = (tmp_path / "search-benchmark.md").read_text()
    assert report.startswith("# Search benchmark")
    for heading in ("## What was measured", "## Results", "## Ratios against", "## What the figures show"):
        assert heading in report
    assert "Values check: passed" in report
    assert "nodes/s" in capsys.readouterr().out
