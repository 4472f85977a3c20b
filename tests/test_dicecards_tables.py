"""Dice Cards: stored card solutions, exact values of small hands, the approximation, and the command line."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from dicetree.cache.store import TableStore
from dicetree.cli.main import main
from dicetree.solver.game import GameError
from dicetree.solver.games.dicecards import DiceCards
from dicetree.solver.games.dicecards.approximation import Approximation, CardValues, share_tickets
from dicetree.solver.games.dicecards.induction import hand_graph
from dicetree.solver.games.dicecards.tables import STORE_NAME, CardTables, fingerprint, signature


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_card_solutions_are_stored_once_and_read_back(tmp_path):
    game = DiceCards()
    tables = game.exact_provider(str(tmp_path))
    lines = tables.build_from({"only": "HOP,DBL"})
    assert "HOP" in lines[1] and "DBL" in lines[2]
    names = [entry["signature"] for entry in TableStore(tmp_path).list(STORE_NAME)]
    assert sorted(names) == sorted(signature(game.library[c], 50, game.approximation.prices) for c in ("HOP", "DBL"))
    again = CardTables(game, TableStore(tmp_path)).card_values(game.library["HOP"], 50, game.approximation.prices)
    fresh = CardValues.solve(game.library["HOP"], 50, game.approximation.prices)
    assert np.array_equal(again.values, fresh.values) and again.states == fresh.states
    assert any("2 tables" in line for line in tables.stats())
    with pytest.raises(GameError, match="unknown card 'XX'"):
        tables.build_from({"only": "XX"})


def test_an_edited_card_has_another_fingerprint():
    game = DiceCards()
    other = DiceCards(cards=game.library.with_cards())  # the same definitions: the same fingerprints
    assert fingerprint(game.library["SOL"]) == fingerprint(other.library["SOL"])
    assert fingerprint(game.library["SOL"]) != fingerprint(game.library["YY"])


def test_small_hands_are_solved_whole_for_best_exact(tmp_path):
    game = DiceCards()
    tables = game.exact_provider(str(tmp_path))
    result = tables.exact_result(game.parse("HOP=1,2 DBL=- t0 2/50 B3R3"))
    assert [m.name for m in result.moves] == ["DBL:3-3", "HOP:3"] and result.exact
    assert result.moves[0].value == pytest.approx(25.613129, abs=1e-6)
    probe = tables.oracle()
    assert probe(game.parse("HOP=1,2 DBL=- t0 2/50 B3R3")) == pytest.approx(result.value)
    assert probe(game.parse("HOP=1,2 DBL=- t0 2/50 roll")) is None  # chance nodes are not probed
    answer = tables.answer(game.parse("HOP=1,2 DBL=- t0 2/50 B3R3"))
    text = tables.describe_answer(answer)
    assert answer["moves"][0]["move"] == "DBL:3-3" and "of the 2 cards held and their tickets, exact" in text
    assert "six cards" not in text and "rollouts" not in text
    with pytest.raises(GameError, match="without --exact the search answers"):
        tables.exact_result(game.parse(game.example_position()))


def test_share_tickets_splits_them_where_they_are_worth_most():
    first = np.array([0.0, 3.0, 3.5])  # what 0, 1, 2 tickets add to each card
    second = np.array([0.0, 2.0, 2.5])
    assert list(share_tickets([first, second])) == [0.0, 3.0, 5.0]


def test_the_approximation_is_exact_on_one_card_and_close_on_two():
    game = DiceCards(rolls=15)
    model = Approximation(game.library, 15)
    for codes in (("HOP",), ("DBL",), ("HOP", "DBL")):
        cards = tuple(game.library[code] for code in codes)
        graph = hand_graph(cards, tuple(card.start() for card in cards), 0)
        final = graph.final("score", 0)
        exact = graph.backward(15, final)[15][0, 0]
        policy = graph.follow(15, final, model.preference(graph))[15][0, 0]
        assert exact - 0.05 <= policy <= exact + 1e-9


def test_best_answers_on_the_example_and_exactly_on_one_card(tmp_path):
    result = run("best", "dicecards", "--example", "--time", "1", "--json", "--tables", str(tmp_path))
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    assert answer["moves"] and answer["best"] == answer["moves"][0]["move"]
    result = run("best", "dicecards", "HOP=1,2 t0 2/50 B3R6", "--exact", "--tables", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert "HOP:3" in result.output and "backward induction" in result.output


@pytest.mark.parametrize("args, line", [
    (["best", "dicecards", "SOL=- t9 0/50 B1R1"], "9 unused tickets, but the cards have given only 0"),
    (["best", "dicecards", "--example", "--rule", "objective=win"], "objective=win needs another player to beat: give --rule players=2"),
    (["best", "dicecards", "--example", "--rule", "cards=/no/such/file.json"], "cannot read the cards file"),
])
def test_bad_input_is_one_line_and_exit_2(args, line):
    result = run(*args)
    assert result.exit_code == 2 and line in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_an_impossible_cards_file_is_one_line_and_exit_2(tmp_path):
    path = tmp_path / "cards.json"
    path.write_text(json.dumps({"cards": [{"kind": "bingo", "name": "B", "code": "B", "grid": ["2 3 13", "4 5 6",
                                                                                               "7 8 9"],
                                           "line_points": 1}]}))
    result = run("best", "dicecards", "--example", "--rule", f"cards={path}")
    assert result.exit_code == 2 and "'13': a number from two dice is 1..12" in result.output


def test_notation_and_rules_are_documented():
    result = run("notation", "dicecards")
    assert result.exit_code == 0 and "t<tickets>" in result.output and "Reverse Pyramid" in result.output
    result = run("rules", "dicecards")
    assert result.exit_code == 0 and "objective" in result.output and "may_pass" in result.output


def test_exact_is_within_reach_by_the_states_from_the_marks(tmp_path):
    """Solitaire (4,096 states from empty) with Doubles (64) is too big to solve whole from empty cards,
    but two Solitaire boxes marked leave 1,024 x 64: the hint appears, and the search's probes use it."""
    game = DiceCards()
    tables = game.exact_provider(str(tmp_path))
    marked = game.parse("SOL=B6,R5 DBL=- t0 35/50 B4R4")
    assert tables.hand_size(game.parse("SOL=- DBL=- t0 35/50 B4R4")) is None
    assert tables.hand_size(marked) == 1024 * 64
    assert tables.within_reach(marked) == "the hand has 65,536 states from its marks: `--exact` solves it"
    assert tables.within_reach(game.parse(game.example_position())) == ""
    assert tables.oracle()(marked) == pytest.approx(tables.exact_result(marked).value)


def test_answers_say_what_their_values_are(tmp_path):
    game = DiceCards()
    one = game.parse("DBL=- t0 0/50 B3R3")
    assert game.describe_answer(one, exact=True).startswith("expected final score of the 1 card held and its tickets, exact")
    six = game.parse(game.example_position())
    assert "6 cards held" in game.describe_answer(six, exact=False) and "approximation" in game.describe_answer(six, False)
    assert "at least 90" in DiceCards(objective="rank").describe_answer(one, exact=True)
