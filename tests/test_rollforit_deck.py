"""Roll For It! deck files: the default deck, and one line naming the card for every impossible one."""

from __future__ import annotations

import json

import pytest

from dicetree.solver.game import GameError
from dicetree.solver.games.rollforit import RollForIt
from dicetree.solver.games.rollforit.deck import DEFAULT_DECK_FILE, DeckError, load_deck, load_deck_text


def deck_text(*cards: dict, **top) -> str:
    return json.dumps({"cards": list(cards), **top})


GOOD = {"id": "X1", "deck": "gold", "points": 3, "dice": [1, 2]}


def test_the_default_deck_is_two_sets_of_thirty_with_points_2_to_15_and_says_what_it_assumes():
    deck = load_deck()
    data = json.loads(DEFAULT_DECK_FILE.read_text())
    assert data["sources"] and data["assumptions"] and "invented" in " ".join(data["assumptions"]).lower()
    for name in ("gold", "silver"):
        cards = deck.of((name,))
        assert len(cards) == 30
        assert sorted({c.points for c in cards}) == [2, 5, 10, 15]
        assert sum(c.points for c in cards) == 212
        by_points = {p: {len(c.dice) for c in cards if c.points == p} for p in (2, 5, 10, 15)}
        assert by_points == {2: {2}, 5: {3}, 10: {4}, 15: {6}}
    assert deck.default and deck.cards[0].dice == (1, 1)


@pytest.mark.parametrize("card, problem", [
    ({**GOOD, "dice": [1, 7]}, "deck file x.json: card X1: face 7 is not a die face (1 to 6)"),
    ({**GOOD, "dice": []}, "deck file x.json: card X1 has no dice images"),
    ({**GOOD, "dice": [1] * 7}, "deck file x.json: card X1 has 7 images: more than a player's 6 dice"),
    ({**GOOD, "points": -2}, "deck file x.json: card X1 has negative points (-2)"),
    ({**GOOD, "deck": "bronze"}, 'deck file x.json: card X1 is in deck "bronze": its deck must be gold or silver'),
    ({k: v for k, v in GOOD.items() if k != "deck"}, "deck file x.json: card X1 is in no deck: its deck must be gold or silver"),
    ({**GOOD, "points": 2.5}, "deck file x.json: card X1: points must be a whole number, not 2.5"),
    ({**GOOD, "dice": "12"}, 'deck file x.json: card X1: dice must be a list of faces 1 to 6, not "12"'),
    ({**GOOD, "dice": [True]}, "deck file x.json: card X1: face true is not a die face (1 to 6)"),
    ({**GOOD, "colour": "red"}, "deck file x.json: card X1: unknown key 'colour' (a card has id, deck, points, dice)"),
    ({**GOOD, "id": "1X"}, "deck file x.json: card number 1 needs an id of a letter then up to 7 letters or digits, not \"1X\""),
])
def test_an_impossible_card_is_one_line_naming_the_card(card, problem):
    with pytest.raises(DeckError) as error:
        load_deck_text(deck_text(card), "x.json")
    assert str(error.value) == problem


def test_a_duplicate_id_and_other_bad_files():
    with pytest.raises(DeckError, match="^deck file x.json: card X1 appears twice"):
        load_deck_text(deck_text(GOOD, {**GOOD, "points": 4}), "x.json")
    with pytest.raises(DeckError, match="is not JSON"):
        load_deck_text("{cards: []", "x.json")
    with pytest.raises(DeckError, match='must be a JSON object with a list "cards"'):
        load_deck_text("[]", "x.json")
    with pytest.raises(DeckError, match="holds no card"):
        load_deck_text(deck_text(), "x.json")
    with pytest.raises(DeckError, match="unknown key 'card'"):
        load_deck_text(json.dumps({"cards": [GOOD], "card": []}), "x.json")
    with pytest.raises(DeckError, match="cannot be read"):
        load_deck("/no/such/deck.json")


def test_the_game_reads_a_deck_file_and_refuses_too_few_cards(tmp_path):
    path = tmp_path / "mine.json"
    cards = [{"id": f"M{i}", "deck": "silver", "points": i, "dice": [i]} for i in range(1, 6)]
    path.write_text(deck_text(*cards))
    game = RollForIt(deck=str(path), decks="silver")
    assert [c.id for c in game.cards] == ["M1", "M2", "M3", "M4", "M5"]
    with pytest.raises(GameError, match="^deck file .* has 0 gold cards: a game lays 3 face up$"):
        RollForIt(deck=str(path))
    path.write_text(deck_text({**GOOD, "dice": [9]}))
    with pytest.raises(GameError, match="card X1: face 9 is not a die face"):
        RollForIt(deck=str(path))


def test_decks_follow_the_player_count():
    assert RollForIt().describe_decks() == "gold deck (30 cards)"
    assert RollForIt(decks="silver").cards[0].id == "S01"
    assert RollForIt(players=5).describe_decks() == "gold and silver decks (60 cards)"
    with pytest.raises(GameError, match="5 players play with both decks combined"):
        RollForIt(players=5, decks="gold")


def _run(*args: str):
    from click.testing import CliRunner

    from dicetree.cli.main import main

    return CliRunner().invoke(main, list(args))


def test_rules_notation_and_best_say_the_default_faces_are_assumed_and_how_to_give_real_ones(tmp_path):
    for args in (("rules", "rollforit"), ("notation", "rollforit"), ("best", "rollforit", "--example", "--depth", "1")):
        result = _run(*args)
        assert result.exit_code == 0, result.output
        assert "dice faces are assumed" in result.output and "--rule deck=FILE" in result.output, args
    header = _run("best", "rollforit", "--example", "--depth", "1").output.split("\n  #")[0]
    assert "Assumed   the cards' dice faces are assumed" in header  # in the header, before the moves
    answer = json.loads(_run("best", "rollforit", "--example", "--depth", "1", "--json").stdout)
    assert any("assumed" in text for text in answer["assumptions"])
    own = tmp_path / "own.json"
    own.write_text(deck_text(*({**GOOD, "id": f"X{i}", "points": 15} for i in range(3))))
    for args in (("rules", "rollforit"), ("notation", "rollforit")):
        assert "assumed" not in _run(*args, "--rule", f"deck={own}").output  # a user's deck is theirs


def test_rules_cards_lists_every_card_with_its_faces_points_and_sources():
    result = _run("rules", "rollforit", "--cards")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].split() == ["id", "deck", "points", "dice", "in", "play"]
    assert lines[1].split() == ["G01", "gold", "2", "1", "1", "yes"]
    assert "S30  silver  15      1 2 3 4 5 6  no" in result.output
    assert f"60 cards from {DEFAULT_DECK_FILE}" in result.output and "2026-12-05" in result.output
    both = _run("rules", "rollforit", "--cards", "--rule", "players=5").output
    assert "S30  silver  15      1 2 3 4 5 6  yes" in both
    wrong = _run("rules", "dicefights", "--cards")
    assert wrong.exit_code == 2 and "has no card list" in wrong.stderr


def test_a_deck_that_cannot_reach_40_points_gets_a_warning(tmp_path):
    small = tmp_path / "small.json"
    small.write_text(deck_text(*({**GOOD, "id": f"X{i}", "points": 5} for i in range(7))))  # 35 points
    game = RollForIt(deck=str(small))
    assert game.warnings() and "total 35 points, so no player can reach 40" in game.warnings()[0]
    result = _run("rules", "rollforit", "--cards", "--rule", f"deck={small}")
    assert result.exit_code == 0 and "warning: deck file" in result.stderr and "reach 40" in result.stderr
    enough = tmp_path / "enough.json"
    enough.write_text(deck_text(*({**GOOD, "id": f"X{i}", "points": 5} for i in range(8))))  # 40 points
    assert RollForIt(deck=str(enough)).warnings() == () and RollForIt().warnings() == ()
