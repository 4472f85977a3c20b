"""``dicetree study dicecards``: every choice of six played on the same dice, best first; cells resume."""

from __future__ import annotations

import csv
import itertools

import pytest
from click.testing import CliRunner

from dicetree.cli.main import main
from dicetree.solver.game import GameError
from dicetree.solver.games.dicecards import DiceCards
from dicetree.solver.games.dicecards.study import KeepSixStudy, dice_of, parse_deal

DEAL = "SOL,SUD,BB,BG,HOP,DBL,YY"


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_a_seven_card_deal_has_seven_choices_best_first_and_resumes(tmp_path, monkeypatch):
    game = DiceCards(rolls=4)
    study = KeepSixStudy(game)
    values = {"deal": DEAL, "seed": 3, "games": 4, "output": str(tmp_path / "keep"), "tables_dir": str(tmp_path / "t")}
    lines = study.run(values)
    with open(tmp_path / "keep" / "choices.csv", newline="") as file:
        rows = list(csv.DictReader(file))
    assert len(rows) == 7 and len(list((tmp_path / "keep" / "cells").glob("*.json"))) == 7 + 1  # + the ticket's
    means = [float(row["mean"]) for row in rows]
    assert means == sorted(means, reverse=True)
    best = rows[0]["cards"].split("+")
    # By hand: the best choice's games are the policy's games on the study's dice.
    start = game.parse(" ".join(f"{code}=-" for code in best) + " t0 0/4 roll")
    scores = [game.approximation.play(start, dice_of(3, g, 4)).score for g in range(4)]
    assert float(rows[0]["mean"]) == pytest.approx(sum(scores) / 4)
    assert sum(float(rows[0][rank]) for rank in ("Lord", "Scholar", "Master", "Expert", "Novice", "Practice Run")) \
        == pytest.approx(1)
    for name in ("scores.png", "ranks.png"):
        assert (tmp_path / "keep" / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "dicetree study dicecards --deal SOL,SUD,BB,BG,HOP,DBL,YY" in (tmp_path / "keep" / "README.md").read_text()

    def no_more_games(*args, **kwargs):
        raise AssertionError("a kept cell was played again")

    monkeypatch.setattr(study, "play", no_more_games)
    resumed = study.run(values)  # from the cells alone
    assert resumed == [f"resumed: 7 of 7 choices were read from {tmp_path / 'keep' / 'cells'}"] + lines


def test_the_same_study_command_run_again_resumes_from_its_folder(tmp_path):
    args = ["--deal", DEAL, "--seed", "3", "--games", "4", "--rule", "rolls=4", "--tables", str(tmp_path / "t"),
            "-o", str(tmp_path / "keep")]
    first = run("study", "dicecards", *args)
    assert first.exit_code == 0, first.output
    (tmp_path / "keep" / "cells" / "SOL-SUD-BB-BG-HOP-DBL.json").unlink()  # as if stopped before this choice
    again = run("study", "dicecards", *args)
    assert again.exit_code == 0, again.output
    assert f"resumed: 6 of 7 choices were read from {tmp_path / 'keep' / 'cells'}" in again.output
    (tmp_path / "file").write_text("")
    refused = run("study", "dicecards", *args[:-1], str(tmp_path / "file"))
    assert refused.exit_code == 2 and "is a file" in refused.output


def test_every_card_not_kept_in_the_best_choice_has_no_points_there(tmp_path):
    game = DiceCards(rolls=3)
    lines = KeepSixStudy(game).run({"deal": DEAL, "seed": 1, "games": 3, "tables_dir": str(tmp_path)})
    assert any(line.startswith("A ticket in hand from the start adds") for line in lines)
    assert sum(1 for line in lines if line[:3].strip().isdigit()) == 7


def test_deals_by_seed_are_nine_different_cards():
    game = DiceCards()
    study = KeepSixStudy(game)
    assert len(list(itertools.combinations(range(9), 6))) == 84
    with pytest.raises(GameError, match="a deal of 5 cards: give 6 to 12"):
        parse_deal("SOL,SUD,BB,BG,HOP", game.library)
    assert study.command({"seed": 2, "games": 10, "output": "x"}, []) == \
        "dicetree study dicecards --seed 2 --games 10 -o x"


@pytest.mark.parametrize("args, line", [
    (["--deal", "SOL,XX,BB,BG,HOP,DBL"], "unknown card 'XX' in the deal"),
    (["--deal", "SOL,SOL,BB,BG,HOP,DBL"], "card SOL is dealt twice"),
    (["--deal", "SOL,SUD", "-o", "x"], "a deal of 2 cards: give 6 to 12"),
])
def test_bad_study_input_is_one_line_and_exit_2(args, line):
    result = run("study", "dicecards", *args)
    assert result.exit_code == 2 and line in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_too_few_games_is_refused_by_the_option():
    result = run("study", "dicecards", "--games", "1")
    assert result.exit_code == 2 and "Invalid value for '--games'" in result.output
