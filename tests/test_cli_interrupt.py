"""Ctrl-C during ``best`` prints the last completed depth's answer and exits 130; ``--time`` bounds
the whole answer, hidden hands included."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

from click.testing import CliRunner

from dicetree.cli.main import main


def interrupted_best(*args: str) -> subprocess.CompletedProcess:
    """``dicetree best`` run in a process of its own, sent SIGINT once depth 2 is reported."""
    process = subprocess.Popen([sys.executable, "-m", "dicetree.cli.main", "best", *args, "--time", "120"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen = []
    for line in process.stderr:  # progress lines, one per completed depth
        seen.append(line)
        if line.strip().startswith("depth 2:"):
            break
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    return subprocess.CompletedProcess(process.args, process.returncode, out, "".join(seen) + err)


def test_ctrl_c_prints_the_last_completed_depth_and_exits_130():
    result = interrupted_best("rolldown", "--example")
    assert result.returncode == 130, result.stderr
    assert "Traceback" not in result.stderr
    assert "interrupted (Ctrl-C) during depth" in result.stdout and "Principal line:" in result.stdout


def test_ctrl_c_answer_in_json_says_it_was_interrupted():
    process = subprocess.Popen([sys.executable, "-m", "dicetree.cli.main", "best", "rolldown", "--example", "--time", "120",
                                "--json"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(6)  # depth 1 completes within a second or two, even on a loaded machine
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    answer = json.loads(out)
    assert answer["interrupted"] is True and answer["depth"] >= 1


def test_time_bounds_hidden_hand_averaging_with_one_line_per_depth():
    started = time.perf_counter()
    result = CliRunner().invoke(main, ["best", "rolldown", "d6:2,d8:5/d4:3,d6:6 b ???/5QK", "--time", "2",
                                       "--hand-samples", "16"])
    elapsed = time.perf_counter() - started
    assert result.exit_code == 0, result.output
    progress = [line for line in result.stderr.splitlines() if line.strip().startswith("depth")]
    depths = [int(line.split()[1].rstrip(":")) for line in progress]
    assert depths == list(range(1, len(depths) + 1))  # one line per depth, for all hands together
    assert "for each of 16 hands" in result.stdout
    assert elapsed < 2 + 8  # the limit, with room for dealing and a loaded machine
