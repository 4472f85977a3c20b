"""Every command that prints JSON, over every game: one versioned schema per command (issue 27).

Each answer is validated against its command's JSON Schema (:mod:`dicetree.solver.json_contracts`)
with the jsonschema library, and names its schema in its ``schema`` field.
"""

from __future__ import annotations

import json

import jsonschema
import pytest
from click.testing import CliRunner

from dicetree.cli.main import main
from dicetree.solver.games import game_class, game_names, load_game
from dicetree.solver.json_contracts import SCHEMAS, VERSIONS

TABLE_GAMES = [name for name in game_names() if game_class(name).game_type.exact_values]
PROBED = {"rolldown": "d8:2/d6:5 a -/-", "dicecards": "HOP=1,2,3 t0 3/50 B4R5"}
"""A position each game with stored values answers once its smallest build is done."""
SMALLEST_BUILD = {"rolldown": ["--dice", "1"], "dicecards": ["--only", "HOP"]}


def answer_of(command: str, *args: str) -> dict:
    """The command's JSON answer, checked against its schema."""
    result = CliRunner().invoke(main, [*command.split(), *args, "--json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    jsonschema.validate(answer, SCHEMAS[command.split()[-1]])
    assert answer["schema"] == VERSIONS[command.split()[-1]]
    return answer


def test_every_schema_is_a_valid_json_schema_and_names_its_version():
    for command, schema in SCHEMAS.items():
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema["properties"]["schema"]["const"] == VERSIONS[command]


@pytest.mark.parametrize("game", game_names())
def test_best_check_and_tree_answer_in_their_schemas_for_every_game(game, tmp_path):
    position = load_game(game).example_position()
    best = answer_of("best", game, position, "--depth", "1", "--top", "2")
    assert best["pv"], "every game gives a principal line"
    check = answer_of("check", game, position)
    assert check["position"] == best["position"] and best["mover"] in check["moves"]
    if load_game(game).game_type.simultaneous:  # no decision tree of matrix games: refused in one line
        return
    tree = answer_of("tree", game, position, "--depth", "1", "--top", "2", "-o", str(tmp_path / "t.svg"))
    assert tree["dot"].endswith(".dot")


@pytest.mark.parametrize("game", game_names())
def test_duel_answers_in_its_schema_for_every_game(game):
    rules = ["--rule", "players=2"] if load_game(game).game_type.min_players == 1 else []
    duel = answer_of("duel", game, *rules, "--a", "random", "--b", "random", "--games", "2", "--seed", "1")
    assert [s["letter"] for s in duel["strategies"]] == ["A", "B"]


@pytest.mark.parametrize("game", TABLE_GAMES)
def test_probe_and_stats_answer_in_their_schemas_for_every_game_with_stored_values(game, tables):
    empty = answer_of("tablebase stats")
    assert {entry["game"] for entry in empty["games"]} == set(TABLE_GAMES)
    assert all(entry["stored"] == [] for entry in empty["games"])
    built = CliRunner().invoke(main, ["tablebase", "build", game, *SMALLEST_BUILD[game]])
    assert built.exit_code == 0, built.output
    probe = answer_of("tablebase probe", game, PROBED[game])
    assert probe["game"] == game and probe["mover"] == "A" and probe["moves"][0]["loss"] == 0
    assert probe["value"] == pytest.approx(probe["moves"][0]["value"], abs=1e-9)  # stored rounded: steps of 2.3e-10
    stats = answer_of("tablebase stats")
    mine = next(entry for entry in stats["games"] if entry["game"] == game)
    assert mine["stored"] and mine["stored"][0]["tables"] > 0 and mine["stored"][0]["damaged"] == []
