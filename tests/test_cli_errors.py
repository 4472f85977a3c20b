"""One error style, paths checked before any work, and the help as users look for it."""

from __future__ import annotations

import subprocess
import sys

import pytest
from click.testing import CliRunner

from dicetree.cli.main import COMMANDS, main
from dicetree.solver.games import game_names

ENDGAME = "d8:5/d6:3 a -/-"


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def one_error_line(result, phrase: str) -> str:
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and phrase in lines[0], result.output
    return lines[0]


@pytest.mark.parametrize("args, phrase", [
    (["best", "rolldown", ENDGAME, "--bogus"], "No such option '--bogus'"),
    (["best", "rolldown", ENDGAME, "--depth", "-1"], "-1 is not in the range"),
    (["best", "chess", ENDGAME], "'chess' is not one of"),
    (["frobnicate"], "No such command 'frobnicate'"),
    (["tree", "rolldown", ENDGAME], "Missing option '-o'"),
    (["help", "nope"], "no command 'nope'"),
])
def test_clicks_own_errors_are_one_line_with_a_hint(args, phrase):
    assert "--help`)" in one_error_line(run(*args), phrase)


def test_the_projects_errors_keep_their_one_line():
    one_error_line(run("best", "rolldown", "d6:7/d4:3 a -/-"), "cannot show 7")


def test_one_line_errors_on_the_real_command_line_too():
    result = subprocess.run([sys.executable, "-m", "dicetree.cli.main", "best", "rolldown", "--depth", "-1"],
                            capture_output=True, text=True)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("error: ")


@pytest.mark.parametrize("output, phrase", [
    ("{tmp}/missing/x.svg", "there is no folder"),
    ("{tmp}/file/x.svg", "is a file, not a folder"),
    ("/proc/x.svg", "cannot write in /proc"),
])
def test_tree_refuses_an_output_it_cannot_write_before_any_work(tmp_path, output, phrase):
    (tmp_path / "file").write_text("")
    one_error_line(run("tree", "rolldown", ENDGAME, "-o", output.format(tmp=tmp_path)), phrase)
    assert not (tmp_path / "missing").exists()


@pytest.mark.parametrize("study_args", [
    ["rolldown", "--mine", "d8", "--theirs", "d6"],
    ["dicegeddon", "--army-size", "6"],
])
@pytest.mark.parametrize("output, phrase", [
    ("/proc/st", "cannot write in /proc"),
    ("{tmp}/file/st", "is a file, not a folder"),
    ("{tmp}/missing/st", "there is no folder"),
])
def test_studies_refuse_an_output_they_cannot_write(tmp_path, study_args, output, phrase):
    (tmp_path / "file").write_text("")
    one_error_line(run("study", *study_args, "-o", output.format(tmp=tmp_path)), phrase)


def test_tree_takes_rule_options():
    one_error_line(run("tree", "rolldown", ENDGAME, "-o", "x.svg", "--rule", "ace=both"), "rule option ace")


@pytest.mark.parametrize("args", [["-h"], ["--help"], ["help"], ["best", "-h"], ["help", "best"],
                                  ["tablebase", "build", "-h"], ["study", "rolldown", "-h"]])
def test_help_answers_to_h_and_help(args):
    result = run(*args)
    assert result.exit_code == 0, result.output
    assert result.output.startswith("Usage: ")


def test_help_lists_the_games_and_an_example_per_command():
    text = run("-h").output
    assert all(game in text for game in game_names())
    for _, summary, example in COMMANDS.values():
        assert summary in " ".join(text.split()) and example in text
    assert "_DICETREE_COMPLETE=bash_source dicetree" in text
    best = run("best", "-h").output
    assert "INTEGER RANGE" not in best and "--depth N" in best and "--time SECONDS" in best
    assert "dicetree rules GAME" in " ".join(best.split())
