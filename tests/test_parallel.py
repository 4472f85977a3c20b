"""Duels and studies on a Dask cluster play the same games as in one process (issue 15, part 2).

One LocalCluster of two workers serves the tests that pass ``--scheduler`` (an existing cluster);
the command-line test starts its own with ``--workers``.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from dicetree.cli.main import main
from dicetree.solver.game import GameError
from dicetree.solver.games import load_game
from dicetree.solver.games.dicegeddon.armies import StudyConfig, run_army_study
from dicetree.solver.match import Duel
from dicetree.solver.parallel import Workers

pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def scheduler():
    from distributed import LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        yield cluster.scheduler_address


def _games(result):
    return [(r.deal, r.rotation, r.scores, r.decisions) for r in result.records]


def test_a_duel_on_a_cluster_plays_the_same_games(scheduler):
    game = load_game("dicefights")
    duel = Duel(game, "solver:depth=1", "greedy", games=12, seed=4)
    here = duel.run()
    there = duel.run(jobs=Workers(scheduler=scheduler))
    assert _games(there) == _games(here)
    assert there.where == f"the dask cluster at {scheduler}" and there.to_json()["where"] == there.where
    assert here.to_json()["where"] == "1 process"


def test_an_army_study_on_a_cluster_gives_the_same_cells(scheduler):
    game = load_game("dicegeddon", army_size=8)
    config = StudyConfig(8, game.dice, False, False, ((4,), (4, 4), (8,)), game_class=type(game), exact_limit=0,
                         games=40, seed=2)
    here = run_army_study(config)
    there = run_army_study(config, jobs=Workers(scheduler=scheduler))
    assert [(c.row, c.col, c.value, c.low, c.high) for c in there.cells] == [
        (c.row, c.col, c.value, c.low, c.high) for c in here.cells]


def test_the_duel_command_starts_a_local_cluster_with_workers():
    args = ["duel", "rolldown", "--a", "greedy", "--b", "random", "--games", "4", "--seed", "1", "--no-progress"]
    alone = CliRunner().invoke(main, args)
    clustered = CliRunner().invoke(main, args + ["--workers", "1"])
    assert alone.exit_code == clustered.exit_code == 0, clustered.output
    assert "with a dask LocalCluster of 1 worker" in clustered.output
    table = [line for line in alone.output.splitlines() if line.startswith(("A ", "B "))]
    assert table and table == [line for line in clustered.output.splitlines() if line.startswith(("A ", "B "))]


@pytest.mark.parametrize("extra, message", [
    (["--workers", "2", "--scheduler", "tcp://x:1"], "error: choose one of --workers (a local dask cluster) and "
                                                     "--scheduler (an existing one), not both"),
    (["--jobs", "2", "--workers", "2"], "error: give --jobs N (local processes) or a dask cluster"),
    (["--scheduler", "nonsense:::"], "error: cannot reach the dask cluster nonsense:::"),
    (["--workers", "0"], "error: Invalid value for '--workers': 0 is not in the range 1<=x<=256"),
])
def test_bad_cluster_options_are_one_line(extra, message):
    result = CliRunner().invoke(main, ["duel", "dicefights", "--a", "greedy", "--b", "random", "--games", "2",
                                       "--no-progress", *extra])
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert message in result.output


def test_the_army_study_declares_the_cluster_options():
    result = CliRunner().invoke(main, ["study", "dicegeddon", "--help"])
    assert "--workers" in result.output and "--scheduler" in result.output
    with pytest.raises(GameError, match="not both"):
        load_game("dicegeddon").study().run({"army_size": 8, "pairing": "d4/d8", "workers": 2, "scheduler": "x"})
