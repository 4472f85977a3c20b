"""`dicetree tablebase` and `best --exact`: build, stats, probe, exact answers, probing in search."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cache.store import STORE_KEYS, TableStore
from cli.main import main
from solver.exact import solve
from solver.games.rolldown import Rolldown


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_build_stats_and_probe(tables):
    built = run("tablebase", "build", "rolldown", "--dice", "1")
    assert built.exit_code == 0, built.output
    assert "36 tables, 3,600 positions" in built.output and "converged" in built.output
    stats = run("tablebase", "stats")
    assert "rolldown-online: 36 tables, 3,600 positions" in stats.output
    wins = sum(int((table.array > 0.5).sum()) for table in
               (TableStore(tables).load(m["game"], m["signature"]) for m in TableStore(tables).list()))
    assert f", {wins:,} wins for the mover above 1/2 ({wins / 3600:.1%}), built in" in stats.output
    probe = run("tablebase", "probe", "rolldown", "d8:2/d6:5 a -/-", "--json")
    assert probe.exit_code == 0, probe.output
    answer = json.loads(probe.output)
    assert answer["value"] == pytest.approx(0.24, abs=1e-12)
    assert answer["moves"][0]["value"] == pytest.approx(answer["value"], abs=1e-12)


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
    victim = next(tables.rglob("d8-d6.dtt"))
    victim.write_bytes(victim.read_bytes()[:-7])
    result = run("tablebase", "probe", "rolldown", "d8:2/d6:5 a -/-")
    assert result.exit_code == 2
    assert "d8-d6" in result.output and "Traceback" not in result.output


def test_stats_read_tables_stored_before_the_game_kept_its_statistics(tables):
    """Older files carry the mover's wins above 1/2 as the store's own ``above_half``: the same figures."""
    assert run("tablebase", "build", "rolldown", "--dice", "1").exit_code == 0
    before = run("tablebase", "stats").output
    store = TableStore(tables)
    for meta in store.list():
        array = store.load(meta["game"], meta["signature"]).array.copy()
        legacy = {k: v for k, v in meta.items() if k not in STORE_KEYS + ("statistics", "path", "file_size", "sha256")}
        legacy["above_half"] = meta["statistics"]["above_half"]
        store.save(meta["game"], meta["signature"], array, legacy)
    assert all("statistics" not in meta and "above_half" in meta for meta in store.list())
    after = run("tablebase", "stats").output
    strip = lambda text: [line.split(", built in")[0] for line in text.splitlines()]  # noqa: E731
    assert strip(after) == strip(before) and "wins for the mover above 1/2" in after
