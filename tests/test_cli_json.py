"""``best --json`` gives one versioned answer for every registered game (schema ``dicetree.best/1``)."""

from __future__ import annotations

import json

import jsonschema
import pytest
from click.testing import CliRunner

from dicetree.cli.main import main
from dicetree.solver.analysis import BEST_JSON_SCHEMA, SCHEMA
from dicetree.solver.games import game_names

def schema_errors(value, schema: dict) -> list[str]:
    """What in ``value`` breaks ``schema``, by the jsonschema library (draft 2020-12)."""
    return [error.message for error in jsonschema.Draft202012Validator(schema).iter_errors(value)]


def best_json(*args: str) -> dict:
    result = CliRunner().invoke(main, ["best", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.mark.parametrize("game", game_names())
def test_every_game_answers_in_the_one_schema(game):
    answer = best_json(game, "--example", "--depth", "1", "--top", "3", "--lines")
    assert schema_errors(answer, BEST_JSON_SCHEMA) == []
    assert answer["schema"] == SCHEMA and answer["game"] == game
    moves = answer["moves"]
    assert 1 <= len(moves) <= 3 and answer["legal_moves"] >= len(moves)
    assert answer["best"] == moves[0]["move"] and answer["value"] == moves[0]["value"]
    assert moves[0]["loss"] == 0 and all(m["loss"] >= 0 for m in moves)
    if answer["node"] == "simultaneous":  # extends the common answer: every chooser's strategy
        assert answer["players"][0]["moves"] == moves
        for player in answer["players"]:
            assert sum(player["strategy"].values()) == pytest.approx(1)
    else:
        assert all(m["pv"][0] == m["move"] for m in moves)
        assert moves[0]["pv"] == answer["pv"]


def test_the_schema_allows_every_players_value_per_move():
    move = {"move": "x", "value": 0.5, "loss": 0.0, "tied": True}
    move_schema = BEST_JSON_SCHEMA["properties"]["moves"]["items"]
    assert schema_errors({**move, "values": [0.5, 0.25, 0.25]}, move_schema) == []
    assert schema_errors({**move, "values": None}, move_schema) == []
    assert schema_errors({**move, "loss": -0.1}, move_schema) != []


def test_top_limits_the_list_and_counts_the_rest():
    answer = best_json("rolldown", "d6:2,d8:5/d4:3,d6:6 a QK/-", "--depth", "1", "--top", "2")
    assert len(answer["moves"]) == 2 and answer["legal_moves"] == 13
