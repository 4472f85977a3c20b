"""``--json`` on every command that reports figures, and progress lines where stderr is no terminal."""

from __future__ import annotations

import json

from click.testing import CliRunner

from dicetree.cli.main import main
from dicetree.cli.progress import ProgressLines

ENDGAME = "d8:5/d6:3 a -/-"


def json_of(*args: str) -> dict:
    result = CliRunner().invoke(main, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_duel_json_gives_each_strategys_share_and_interval():
    answer = json_of("duel", "rolldown", "--a", "greedy", "--b", "random", "--games", "4", "--no-progress")
    assert answer["games"] == 4 and [s["strategy"] for s in answer["strategies"]] == ["greedy:hands=16", "random"]
    assert sum(s["share"] for s in answer["strategies"]) == 1
    low, high = answer["strategies"][0]["interval"]
    assert low <= answer["strategies"][0]["share"] <= high


def test_tablebase_stats_and_probe_json(tmp_path):
    tables = str(tmp_path / "tables")
    assert CliRunner().invoke(main, ["tablebase", "build", "rolldown", "--dice", "1", "--tables", tables]).exit_code == 0
    stats = json_of("tablebase", "stats", "--tables", tables)
    assert "rolldown" in [entry["game"] for entry in stats["games"]]
    probe = json_of("tablebase", "probe", "rolldown", "d8:2/d6:5 a -/-", "--tables", tables)
    assert abs(probe["value"] - 0.24) < 2e-10  # stored as 32-bit fixed point


def test_tree_json_says_what_it_wrote(tmp_path):
    answer = json_of("tree", "rolldown", ENDGAME, "--depth", "1", "-o", str(tmp_path / "t.dot"))
    assert answer["dot"] == str(tmp_path / "t.dot") and answer["picture"] is None
    assert (tmp_path / "t.dot").exists() and "nodes" in answer["summary"]


def test_study_json_gives_its_lines(tmp_path):
    answer = json_of("study", "rollforit", "--rule", "players=2")
    assert answer["game"] == "rollforit" and answer["lines"]


def test_progress_lines_come_every_few_seconds_with_the_time_left_once_known(capsys, monkeypatch):
    clock = iter([0.0, 1.0, 6.0, 7.0, 12.0, 18.0])
    monkeypatch.setattr("dicetree.cli.progress.time.monotonic", lambda: next(clock))
    report = ProgressLines("duel", every=5)
    for done in (10, 20, 30, 40, 50):
        report(done, 100)
    lines = capsys.readouterr().err.splitlines()
    assert lines == ["duel: 20/100 (20%), 6s, ETA: estimating...",  # before 10 s: not yet told
                     "duel: 40/100 (40%), 12s, about 18s left", "duel: 50/100 (50%), 18s, about 14s left"]


def test_a_first_estimate_far_off_is_not_told_and_later_ones_do_not_jump():
    from dicetree.cli.progress import TimeLeft

    left = TimeLeft(started=0.0)
    assert left(1, 10_000, now=30.0) is None  # 0.01% done: "about 83h left" would be a guess
    first = left(600, 10_000, now=60.0)  # slow cells first: 940 s
    second = left(1_800, 10_000, now=70.0)  # then fast ones: 319 s at the rate of the whole run
    assert first == 60.0 * 9_400 / 600 and first - 10 > second > 319


def test_a_stopped_duel_resumes_from_its_log(tmp_path):
    log = tmp_path / "duel.jsonl"
    args = ["duel", "rolldown", "--a", "greedy", "--b", "random", "--games", "6", "--no-progress", "--log", str(log)]
    whole = json_of(*args)
    lines = log.read_text().splitlines()
    assert len(lines) == 1 + 6  # the match, then one line per game
    log.write_text("\n".join(lines[:3]) + "\n" + lines[3][:20])  # stopped in deal 1, mid-line
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0 and "resuming: 1 of 3 deals already played" in result.stderr
    resumed = json_of(*args)
    assert [s["share"] for s in resumed["strategies"]] == [s["share"] for s in whole["strategies"]]
    other = CliRunner().invoke(main, [*args[:-4], "8", "--no-progress", "--log", str(log)])
    assert other.exit_code == 2 and "log of other work" in other.output


def test_a_stopped_army_study_resumes_from_its_finished_cells(tmp_path):
    stem = tmp_path / "army-6"
    first = CliRunner().invoke(main, ["study", "dicegeddon", "--army-size", "6", "-o", str(stem)])
    assert first.exit_code == 0, first.output
    log = tmp_path / "army-6" / "army-6-log.jsonl"
    matrix = (tmp_path / "army-6" / "army-6.csv").read_text()
    log.write_text("\n".join(log.read_text().splitlines()[:2]) + "\n")  # stopped after one cell
    again = CliRunner().invoke(main, ["study", "dicegeddon", "--army-size", "6", "-o", str(stem)])
    assert again.exit_code == 0 and "resumed: 1 of 3 pairings" in again.output
    assert (tmp_path / "army-6" / "army-6.csv").read_text() == matrix
