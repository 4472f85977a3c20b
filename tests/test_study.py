"""`dicetree study` and :mod:`dicetree.solver.games.rolldown.study`: values equal the tables' probes, best moves are legal
and on top, pictures are written, bad input is one line and exit status 2."""

from __future__ import annotations

import csv

import pytest
from click.testing import CliRunner

from dicetree.cache.store import TableStore
from dicetree.cli.main import main
from dicetree.solver.games.rolldown import Rolldown
from dicetree.solver.games.rolldown.tablebase import Tablebase
from dicetree.solver.games.rolldown.study import StudySpec, run_study


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def read_csv(path) -> tuple[list[str], list[list[str]]]:
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


@pytest.mark.parametrize("hand", ["-/-", "K/-"])
def test_cli_values_equal_probes_and_best_moves_are_legal_and_top(tables, tmp_path, hand):
    stem = tmp_path / "out" / "d8-d6"
    stem.parent.mkdir()  # the command line makes no folder silently
    result = run("study", "rolldown", "--mine", "d8", "--theirs", "d6", "--hand", hand, "-o", str(stem))
    assert result.exit_code == 0, result.output
    game = Rolldown()
    base = Tablebase(TableStore(tables))
    header, rows = read_csv(stem / "d8-d6.csv")
    _, moves = read_csv(stem / "d8-d6-moves.csv")
    assert header[1:] == [str(c) for c in range(1, 7)] and [r[0] for r in rows] == [str(r) for r in range(1, 9)]
    for row, move_row in zip(rows, moves):
        for col, (cell, move) in enumerate(zip(row[1:], move_row[1:]), 1):
            state = game.parse(f"d8:{row[0]}/d6:{col} a {hand}")
            assert float(cell) == pytest.approx(base.probe(state), abs=1e-12)
            values = {game.action_name(state, a): v for a, v in base.move_values(state)}
            assert move in values  # a legal move ...
            assert values[move] == pytest.approx(max(values.values()), abs=1e-9)  # ... with the top value
    for name in ("d8-d6.png", "d8-d6-moves.png"):
        assert (stem / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (stem / "d8-d6-gain.png").exists() == (hand != "-/-")


def test_gain_is_value_with_card_minus_without(tmp_path):
    base = Tablebase(TableStore(tmp_path))
    with_king = run_study(StudySpec.parse("d8", "d6", "K/-"), base)
    without = run_study(StudySpec.parse("d8", "d6"), base)
    gain = with_king.values - without.values
    assert gain.min() > -1e-9  # a card never hurts its holder
    assert gain[1, 4] == pytest.approx(0.64 - 0.24, abs=1e-9)  # d8:2 against d6:5
    assert with_king.best[1][4] == "K a.d8"


def test_two_dice_study_fixes_the_others(tmp_path):
    base = Tablebase(TableStore(tmp_path))
    study = run_study(StudySpec.parse("d8,d4:3", "d6,d10:7"), base)
    assert study.values.shape == (8, 6)
    state = Rolldown().parse("d4:3,d8:2/d6:5,d10:7 a -/-")
    assert study.values[1, 4] == pytest.approx(base.probe(state), abs=1e-12)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--mine", "d8,d8", "--theirs", "d6"], "named twice"),
        (["--mine", "d7", "--theirs", "d6"], "unknown die 'd7'"),
        (["--mine", "d8:3", "--theirs", "d6"], "exactly one die without a face"),
        (["--mine", "d8", "--theirs", "d6:9,d4"], "needs a face from 1 to 6"),
        (["--mine", "d8", "--theirs", "d6,d4"], "exactly one die without a face"),
        (["--mine", "d8,d4:1", "--theirs", "d6"], "as many dice"),
        (["--mine", "d8", "--theirs", "d6", "--hand", "?/-"], "known hands"),
        (["--mine", "d8", "--theirs", "d6", "--hand", "KKK/-"], "copies"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tables, tmp_path, args, message):
    result = run("study", "rolldown", *args, "-o", str(tmp_path / "x"))
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0], result.output


def test_dicegeddon_army_study_writes_the_matrix_and_the_mix(tmp_path):
    from click.testing import CliRunner

    from dicetree.cli.main import main

    result = CliRunner().invoke(main, ["study", "dicegeddon", "--army-size", "8", "-o", str(tmp_path / "army-8")])
    assert result.exit_code == 0, result.output
    assert "4 armies, 10 pairings: 10 exact" in result.output and "certified: True" in result.output
    rows = (tmp_path / "army-8" / "army-8.csv").read_text().splitlines()
    assert len(rows) == 5  # a header and one row per army: d4, d6, d8, d4+d4
    assert (tmp_path / "army-8" / "army-8.png").stat().st_size > 0
    assert "d4,d4" in (tmp_path / "army-8" / "army-8-nash.csv").read_text()
    cells = (tmp_path / "army-8" / "army-8-cells.csv").read_text().splitlines()
    assert len(cells) == 11 and all(",exact," in row for row in cells[1:])
    missing = CliRunner().invoke(main, ["study", "dicegeddon", "-o", str(tmp_path / "x")])
    assert missing.exit_code == 2 and "--army-size" in missing.output


def test_dicegeddon_army_study_samples_what_it_does_not_solve(tmp_path):
    from click.testing import CliRunner

    from dicetree.cli.main import main

    stem = str(tmp_path / "army-8")
    args = ["study", "dicegeddon", "--army-size", "8", "-o", stem, "--exact-limit", "300", "--games", "20"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    # only d4 vs d4 (estimate 8*8*4 = 256) is solved; the other 9 pairings are played
    assert "10 pairings: 1 exact" in result.output and "9 sampled by self-play of solver:depth=1" in result.output
    assert "redrawn within the sampling error" in result.output
    cells = (tmp_path / "army-8" / "army-8-cells.csv").read_text().splitlines()
    assert sum(",sampled," in row for row in cells) == 9
    for bad, message in ((["--games", "3"], "--games must be even"), (["--strategy", "clever"], "unknown strategy")):
        wrong = CliRunner().invoke(main, args + bad)
        assert wrong.exit_code == 2 and message in wrong.output, wrong.output


def test_dicegeddon_single_pairing_exact_or_sampled_the_same_over_any_jobs():
    from click.testing import CliRunner

    from dicetree.cli.main import main

    exact = CliRunner().invoke(main, ["study", "dicegeddon", "--army-size", "20", "--pairing", "d4/d20", "--mulligan"])
    assert exact.exit_code == 0, exact.output
    assert "d4 against d20 (mulligan): 0.0776 for the first army; exact (1,023 states" in exact.output
    loose = CliRunner().invoke(main, ["study", "dicegeddon", "--army-size", "8", "--pairing", "d4/d4", "--no-chains"])
    assert loose.exit_code == 0 and "d4 against d4 (no chains): 0.5000" in loose.output, loose.output
    sampled = ["study", "dicegeddon", "--army-size", "12", "--pairing", "d4,d4,d4/d6,d6", "--games", "40"]
    one, two = (CliRunner().invoke(main, sampled + ["--jobs", jobs]) for jobs in ("1", "2"))
    assert one.exit_code == two.exit_code == 0, one.output + two.output
    assert "40 games of solver:depth=1 self-play" in one.output
    assert one.output.split("; ")[:2] == two.output.split("; ")[:2]  # same value and interval
    for bad, message in ((["--pairing", "d4"], "ARMY/ARMY"), (["--pairing", "d4/d20,d4"], "more than the army size"),
                         ([], "needs -o FOLDER")):
        wrong = CliRunner().invoke(main, ["study", "dicegeddon", "--army-size", "20", *bad])
        assert wrong.exit_code == 2 and message in wrong.output, wrong.output
