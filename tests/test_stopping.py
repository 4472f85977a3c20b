"""Ctrl-C (SIGINT to the whole process group, as a terminal sends it) and SIGTERM (to the command
alone) stop every command that runs worker processes within seconds, leave no process behind, and
keep what was finished: the same command run again resumes from it.

Real processes are started, stopped and looked for (psutil); each command runs in a temporary
folder. The bound on the stop (:data:`STOP_BOUND`) is generous: this checks behaviour (the command
stops rather than finishing its queued work), not speed.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import psutil
import pytest

STOP_BOUND = 10.0
"""Seconds a stopped command may take to exit on a loaded machine (2 s is the aim; without the fix
a study ran on for minutes)."""
DICETREE = [sys.executable, "-m", "dicetree.cli.main"]


def lines_in(path: Path) -> int:
    return len(path.read_text().splitlines()) if path.exists() else 0


def stop_when(args: list[str], ready: Callable[[], bool], how: signal.Signals, cwd: Path,
              workers: int = 2, within: float = 240.0) -> tuple[subprocess.CompletedProcess, float, list[psutil.Process]]:
    """Run ``args``; once ``ready()`` and ``workers`` child processes run, send ``how`` (SIGINT to the
    process group, SIGTERM to the command); the finished process, seconds it took to exit, and its
    children that outlived it."""
    process = subprocess.Popen(args, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               start_new_session=True)
    try:
        deadline = time.monotonic() + within
        children: list[psutil.Process] = []
        is_ready = False
        while time.monotonic() < deadline and process.poll() is None:
            is_ready = ready()  # first: it may be what starts the workers
            children = psutil.Process(process.pid).children(recursive=True)
            if len(children) >= workers and is_ready:
                break
            time.sleep(0.2)
        assert process.poll() is None, f"finished before it was stopped: {process.communicate()}"
        assert len(children) >= workers and is_ready, "never ready to be stopped"
        started = time.monotonic()
        if how == signal.SIGINT:
            os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C at a terminal does
        else:
            process.send_signal(how)
        out, err = process.communicate(timeout=60)
        took = time.monotonic() - started
        time.sleep(0.5)  # a child killed with its parent has ended by now
        left = [child for child in children if child.is_running() and child.status() != psutil.STATUS_ZOMBIE]
        return subprocess.CompletedProcess(args, process.returncode, out, err), took, left
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
        for child in psutil.Process().children(recursive=True):  # nothing of this test outlives it
            if child.pid != process.pid:
                child.kill()


def assert_stopped(result: subprocess.CompletedProcess, took: float, left: list[psutil.Process]) -> None:
    assert result.returncode == 130, result.stderr
    assert "Traceback" not in result.stderr and "interrupted" in result.stderr
    assert took < STOP_BOUND, f"took {took:.1f} s to stop"
    assert not left, f"worker processes left running: {[p.pid for p in left]}"


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM])
def test_a_duel_on_two_processes_stops_at_once_and_resumes_from_its_log(tmp_path, how):
    log = tmp_path / "duel.jsonl"
    args = [*DICETREE, "duel", "rolldown", "--a", "random", "--b", "random", "--games", "40000", "--jobs", "2",
            "--no-progress", "--log", str(log)]
    result, took, left = stop_when(args, lambda: lines_in(log) > 20, how, tmp_path)
    assert_stopped(result, took, left)
    played = (lines_in(log) - 1) // 2
    resumed, took, left = stop_when(args, lambda: True, signal.SIGINT, tmp_path)
    assert f"resuming: {played:,} of 20,000 deals already played" in resumed.stderr


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM])
def test_an_army_study_on_two_processes_stops_at_once_and_resumes_from_its_cells(tmp_path, how):
    log = tmp_path / "army" / "army-log.jsonl"  # -o names the study's folder
    args = [*DICETREE, "study", "dicegeddon", "--army-size", "12", "--exact-limit", "0", "--games", "400",
            "--jobs", "2", "-o", str(tmp_path / "army")]
    result, took, left = stop_when(args, lambda: lines_in(log) >= 3, how, tmp_path)
    assert_stopped(result, took, left)
    finished = lines_in(log) - 1
    resumed, _, left = stop_when(args, lambda: lines_in(log) > finished + 1, signal.SIGTERM, tmp_path)
    assert not left
    cells = log.read_text().splitlines()[1:]
    assert len(cells) > finished and len(set(cells)) == len(cells)  # none computed twice


def test_an_army_study_on_a_dask_cluster_stops_at_once(tmp_path):
    log = tmp_path / "army" / "army-log.jsonl"  # -o names the study's folder
    args = [*DICETREE, "study", "dicegeddon", "--army-size", "12", "--exact-limit", "0", "--games", "400",
            "--workers", "2", "-o", str(tmp_path / "army")]
    result, took, left = stop_when(args, lambda: lines_in(log) >= 3, signal.SIGINT, tmp_path)
    assert_stopped(result, took, left)


def test_a_table_build_on_a_dask_cluster_stops_at_once_and_says_it_resumes(tmp_path):
    tables = tmp_path / "tables"
    args = [*DICETREE, "tablebase", "build", "rolldown", "--dice", "2", "--cards", "1", "--workers", "2",
            "--tables", str(tables)]

    def some_stored() -> bool:
        return len(list(tables.glob("*/*/*.dtp"))) >= 3

    result, took, left = stop_when(args, some_stored, signal.SIGINT, tmp_path)
    assert_stopped(result, took, left)
    assert result.stdout.startswith("Building ")  # the plan is said before the work
    stored = len(list(tables.glob("*/*/*.dtp")))
    # stopped once it works again (a new table stored), not while its cluster is still starting
    rerun, _, left = stop_when(args, lambda: len(list(tables.glob("*/*/*.dtp"))) > stored, signal.SIGTERM, tmp_path)
    assert "resuming: " in rerun.stdout and " tables already stored" in rerun.stdout
    assert not left


def test_the_purchases_benchmark_on_two_processes_stops_at_once(tmp_path):
    benchmark = Path(__file__).resolve().parent.parent / "research" / "dicefights_purchases.py"
    args = [sys.executable, str(benchmark), "--deals", "100000", "--jobs", "2", "--out", str(tmp_path)]
    result, took, left = stop_when(args, lambda: True, signal.SIGINT, tmp_path)
    assert result.returncode != 0 and took < STOP_BOUND and not left


@pytest.mark.parametrize("how", [signal.SIGINT, signal.SIGTERM])
def test_the_explorer_stops_its_running_searches_at_once(tmp_path, how):
    import socket
    import threading
    import urllib.parse
    import urllib.request

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    asked = []

    def ask(job: str) -> None:
        query = urllib.parse.urlencode({"game": "rolldown", "position": "d6:2,d8:5/d4:3,d6:6 a QK/-", "time": "120",
                                        "job": job})
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/best?{query}", timeout=120).read()
        except OSError:  # refused while the server starts: asked again
            asked.remove(job)

    def searching() -> bool:
        for job in ("tab-1", "tab-2"):
            if job not in asked:
                asked.append(job)
                threading.Thread(target=ask, args=(job,), daemon=True).start()
        return True

    args = [*DICETREE, "explore", "--port", str(port), "--workers", "2"]
    result, took, left = stop_when(args, searching, how, tmp_path, workers=3)  # the fork server and two searches
    assert result.returncode in (130, -signal.SIGTERM) and "Traceback" not in result.stderr, result.stderr
    assert took < STOP_BOUND and not left
