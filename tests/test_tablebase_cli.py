"""`dicetree tablebase` and `best --exact`: build, stats, probe, exact answers, probing in search."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

import numpy as np

from dicetree.cache.packs import PackStore
from dicetree.cache.store import TableStore
from dicetree.cli.main import main
from dicetree.solver.exact import solve
from dicetree.solver.games.rolldown import Rolldown


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_build_stats_and_probe(tables):
    built = run("tablebase", "build", "rolldown", "--dice", "1")
    assert built.exit_code == 0, built.output
    assert "36 tables, 3,600 positions" in built.output and "converged" in built.output
    stats = run("tablebase", "stats")
    assert "rolldown-online: 36 tables, 3,600 positions" in stats.output
    packs = PackStore(tables)
    wins = sum(int((np.asarray(packs.load("rolldown-online", info.path.parent.name, name)) > 0.5).sum())
               for info in packs.packs("rolldown-online") for name in info.entries)
    assert f", {wins:,} wins for the mover above 1/2 ({wins / 3600:.1%}), built in" in stats.output
    assert " s by 1 finished build, stopped ones not counted (" in stats.output  # the build's own time, each batch's solving time once beside it
    probe = run("tablebase", "probe", "rolldown", "d8:2/d6:5 a -/-", "--json")
    assert probe.exit_code == 0, probe.output
    answer = json.loads(probe.output)
    assert answer["value"] == pytest.approx(0.24, abs=2e-10)  # stored as 32-bit fixed point: steps of 2.3e-10
    assert answer["moves"][0]["value"] == pytest.approx(answer["value"], abs=3e-10)  # a move from its child tables: both rounded


def test_probe_says_which_build_is_missing(tables):
    result = run("tablebase", "probe", "rolldown", "d8:2,d6:1/d6:5,d4:1 a -/-")
    assert result.exit_code == 2
    assert "tablebase build rolldown --dice 2" in result.output


def test_best_exact_matches_the_generic_exact_solver(tables):
    position = "d6:2,d8:5/d4:3,d6:6 a K/5"
    result = run("best", "rolldown", position, "--exact", "--json")
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert answer["method"].startswith("exact")
    game = Rolldown()
    state = game.parse(position)
    solution = solve(game, state)
    expected = {game.action_name(state, m.action): m.value for m in solution.move_values(state)}
    assert {m["move"]: m["value"] for m in answer["moves"]} == pytest.approx(expected, abs=1e-9)


def test_exact_averages_over_a_hidden_hand(tables):
    result = run("best", "rolldown", "d8:2/d6:5 a J/?", "--exact", "--json")
    assert result.exit_code == 0, result.output
    assert "all 14 possible hands" in json.loads(result.output)["hidden_information"]


def test_search_probes_the_tables_and_reports_hits(tables):
    assert run("tablebase", "build", "rolldown", "--dice", "2").exit_code == 0
    result = run("best", "rolldown", "d6:2,d8:5,d10:3/d4:3,d6:6,d20:2 a -/-", "--depth", "2", "--json")
    assert result.exit_code == 0, result.output
    answer = json.loads(result.output)
    assert 0 < answer["table_hits"] <= answer["table_probes"]
    unprobed = json.loads(run("best", "rolldown", "d6:2,d8:5,d10:3/d4:3,d6:6,d20:2 a -/-", "--depth", "2",
                              "--json", "--no-tables").output)
    assert unprobed["table_probes"] == 0


def test_oversized_exact_is_refused_with_an_estimate(tables):
    result = run("best", "rolldown", "d4:1,d6:1,d8:1,d10:1,d12:1/d4:1,d6:1,d8:1,d10:1,d12:1 a -/-", "--exact")
    assert result.exit_code == 2
    assert "positions" in result.output and "GiB" in result.output


def test_first_turn_positions_are_not_in_tables(tables):
    start = Rolldown().example_position() + " ab"
    result = run("best", "rolldown", start, "--exact")
    assert result.exit_code == 2 and "first turn" in result.output


def test_a_corrupt_table_is_a_clear_error(tables):
    assert run("tablebase", "build", "rolldown", "--dice", "1").exit_code == 0
    victim = next(tables.rglob("d6-d8/*.dtp"))
    victim.write_bytes(victim.read_bytes()[:-7])
    result = run("tablebase", "probe", "rolldown", "d8:2/d6:5 a -/-")
    assert result.exit_code == 2
    assert str(victim) in result.output and "Traceback" not in result.output
    assert f"corrupt: {victim}" in run("tablebase", "stats").output


def test_tables_stored_one_file_each_are_refused_with_how_to_rebuild(tables):
    """The layout before packs: one line naming the folder and the build that replaces it."""
    old = TableStore(tables)
    old.save("rolldown-online", "d6d8-d4d6.K-", np.zeros((6, 8, 4, 6)), {})
    old.save("rolldown-online", "d8-d6", np.zeros((8, 6)), {})
    for args in (("tablebase", "probe", "rolldown", "d8:2/d6:5 a -/-"),
                 ("best", "rolldown", "d8:2/d6:5 a -/-", "--depth", "1"),
                 ("tablebase", "build", "rolldown", "--dice", "1")):
        result = run(*args)
        assert result.exit_code == 2, result.output
        assert "stored one file each" in result.output and "--dice 2 --cards 1" in result.output
        assert len(result.output.strip().splitlines()) == 1
    assert "remove that folder and rebuild" in run("tablebase", "stats").output


def test_verify_lists_every_damaged_pack_and_a_repair_build_makes_them_all_again(tables):
    first = run("tablebase", "build", "rolldown", "--dice", "1")
    assert first.exit_code == 0 and first.output.startswith("Building 36 tables"), first.output
    assert "resuming" not in first.output
    assert run("tablebase", "verify").output.splitlines()[:2] == ["dicecards: 0 damaged files",
                                                                  "rolldown: 0 damaged files"]
    packs = sorted(tables.rglob("*.dtp"))
    cut, *flipped = packs[0], packs[5], packs[9]
    cut.write_bytes(cut.read_bytes()[:-7])  # its directory is damaged: seen by any reader
    for pack in flipped:  # a value changed: seen only by reading the values
        data = bytearray(pack.read_bytes())
        data[4096] ^= 0xFF
        pack.write_bytes(bytes(data))
    verify = run("tablebase", "verify")
    assert verify.exit_code == 1 and "rolldown: 3 damaged files" in verify.output
    assert all(f"  {pack}: " in verify.output for pack in (cut, *flipped))
    stopped = run("tablebase", "build", "rolldown", "--dice", "1")
    assert stopped.exit_code == 2 and str(cut) in stopped.output and "--repair" in stopped.output
    repaired = run("tablebase", "build", "rolldown", "--dice", "1", "--repair")
    assert repaired.exit_code == 0, repaired.output
    assert sum(line.startswith("removed damaged ") for line in repaired.output.splitlines()) == 3
    assert "resuming: 33 of 36 tables already stored" in repaired.output  # a pack a table at one die
    again = run("tablebase", "verify", "--json")
    assert again.exit_code == 0 and all(not game["damaged"] for game in json.loads(again.output)["games"])
    assert run("tablebase", "build", "rolldown", "--dice", "1").output.splitlines()[1] == \
        "resuming: 36 of 36 tables already stored"
