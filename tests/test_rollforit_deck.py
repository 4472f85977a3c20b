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
