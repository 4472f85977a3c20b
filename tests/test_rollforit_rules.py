"""Roll For It! Deluxe: every rule on a hand-worked position (default deck: gold for 2-4 players).

Gold cards used here: G01 = 1,1 (2 points); G07 = 1,1,1 (5); G13 = 1,2,3 (5); G15 = 3,4,5 (5);
G17 = 1,3,5 (5); G24 = 1,2,3,4 (10); G27 = 1..6 (15); G29 = 4,4,5,5,6,6 (15).
"""

from __future__ import annotations

import json
import math
import random

import pytest

from dicetree.solver.game import CHANCE, TERMINAL
from dicetree.solver.games.rollforit import RollForIt
from dicetree.solver.games.rollforit.deck import load_deck_text
from dicetree.solver.games.rollforit.notation import deck_text
from dicetree.solver.games.rollforit.rules import roll_outcomes
from dicetree.solver.games.rollforit.state import Complete, Flip, Place, Roll, TurnChoice


def position(game: RollForIt, cards: str, scores: str, turn: str, scored: dict[int, list[str]] | None = None,
             first: str = "") -> str:
    """A position whose deck is every card neither face up nor scored (scored: player -> card ids)."""
    scored = scored or {}
    gone = {c.split(":")[0] for c in cards.split(",") if c != "-"} | {c for cs in scored.values() for c in cs}
    deck = [i for i, card in enumerate(game.cards) if card.id not in gone]
    text = f"{cards} {scores} {turn} deck:{deck_text(sum(1 << i for i in deck), game)}"
    return text + (f" first:{first}" if first else "")


def names(game, state) -> list[str]:
    return [game.action_name(state, a) for a in game.legal_actions(state)]


@pytest.fixture(scope="module")
def game() -> RollForIt:
    return RollForIt()


def test_a_roll_lists_each_multiset_once_with_its_multinomial_chance():
    assert len(roll_outcomes(6)) == 462 and len(roll_outcomes(1)) == 6
    assert math.fsum(p for _, p in roll_outcomes(6)) == pytest.approx(1.0)
    chances = dict(roll_outcomes(2))
    assert chances[(1, 1)] == pytest.approx(1 / 36) and chances[(1, 2)] == pytest.approx(2 / 36)


def test_the_turn_starts_with_roll_or_take_back(game):
    state = game.parse(position(game, "G15:A35:B4,G24:B12,G29:A445", "0-0", "A:turn"))
    assert names(game, state) == ["roll", "take back"]
    rolled = game.apply(state, TurnChoice(False))
    assert game.current_player(rolled) == CHANCE
    assert [o.faces for o, _ in game.chance_outcomes(rolled)] == [(f,) for f in range(1, 7)]  # one die free
    back = game.apply(state, TurnChoice(True))  # Take Back: every die of A's off the cards, B's stay
    assert back.placed == (((), (4,)), ((), (1, 2)), ((), ()))
    assert len(game.chance_outcomes(back)) == 462


def test_without_dice_on_cards_the_only_choice_is_to_roll(game):
    state = game.parse(position(game, "G15:B4,G24,G29", "0-0", "A:turn"))
    assert names(game, state) == ["roll"]


def test_equal_faces_are_one_choice_and_placements_are_enumerated_once(game):
    # G07 = 1,1,1 and G13 = 1,2,3; A rolled 1,1: one die or two on G07, one on G13, or both ...
    state = game.parse(position(game, "G07,G13,G29", "0-0", "A:place:11"))
    choices = names(game, state)
    assert sorted(choices) == ["G07:1", "G07:1,G13:1", "G07:11", "G13:1", "none"] and choices[-1] == "none"
    # ... and with 1,2,3 G13 is scored as one choice (the only scoring), never placed in full
    state = game.parse(position(game, "G07,G13,G29", "0-0", "A:place:123"))
    choices = names(game, state)
    assert choices[0] == "score G13" and "G13:123" not in choices
    # score G13; or the 1 on G07 and any part of 2,3 on G13 (4); or the 1 not on G07 and a proper
    # part of 1,2,3 on G13 (7, 'none' among them)
    assert len(choices) == len(set(choices)) == 1 + 4 + 7


def test_a_die_matches_one_image_of_one_card(game):
    state = game.parse(position(game, "G07,G13,G29", "0-0", "A:place:1"))
    assert sorted(names(game, state)) == ["G07:1", "G13:1", "none"]


def test_scoring_returns_every_die_on_the_card_to_its_owner_and_flips_a_card(game):
    # A has 3,5 on G15 (3,4,5); B has a 4 there. A rolls 4,4,6,6: a 4 scores G15 for A ...
    state = game.parse(position(game, "G15:A35:B4,G24:B12,G29", "0-0", "A:place:4466"))
    assert names(game, state)[0] == "score G15"
    after = game.apply(state, game.parse_action(state, "score G15"))
    assert after.scores == (5, 0)
    assert game.game_type  # ... B's die went back to B too: G15 is gone with every die on it
    assert game.cards[after.cards[0]].id == "G24" and after.placed[0] == ((), (1, 2))
    assert game.current_player(after) == CHANCE and after.rolled == (4, 6, 6)
    outcomes = game.chance_outcomes(after)
    assert len(outcomes) == 30 - 3 and all(p == pytest.approx(1 / 27) for _, p in outcomes)
    # ... the new card (G16 = 4,5,6) takes the dice still unplaced: 4 and 6 on it, or on G29
    flipped = game.apply(after, Flip(game.card_index["G16"]))
    assert game.format(flipped).split()[:3] == ["G16,G24:B12,G29", "5-0", "A:place:466"]
    assert {"G16:46", "G16:46,G29:6", "G29:466"} <= set(names(game, flipped))


def test_several_players_fill_their_own_images_of_one_card(game):
    # B's 4 on G15 (3,4,5) does not count for A, nor A's 3 and 5 for B
    state = game.parse(position(game, "G15:A35:B4,G24,G29", "0-0", "B:place:35"))
    assert names(game, state)[0] == "score G15"
    state = game.parse(position(game, "G15:A35:B4,G24,G29", "0-0", "A:place:35"))
    assert sorted(names(game, state)) == ["G24:3", "G24:3,G29:5", "G29:5", "none"]  # A's images 3 and 5 are matched


def test_a_roll_that_matches_nothing_ends_the_turn_at_once(game):
    state = game.parse(position(game, "G07,G13,G15", "0-0", "A:roll"))
    after = game.apply(state, Roll((6, 6, 6, 6, 6, 6)))
    assert (after.mover, after.phase, after.rolled) == (1, 0, ())


def test_placing_dice_that_score_nothing_ends_the_turn_and_the_turn_passes_left():
    game = RollForIt(players=3)
    state = game.parse(position(game, "G07,G13,G29", "0-0-0", "C:place:11"))
    after = game.apply(state, game.parse_action(state, "G07:11"))
    assert after.mover == 0 and after.phase == 0 and after.placed[0][2] == (1, 1)  # C, then A


def test_forty_points_end_the_game_at_once_mid_turn(game):
    scored = {0: ["G27", "G28", "G07"], 1: ["G19"]}  # A 15 + 15 + 5 = 35, B 10
    state = game.parse(position(game, "G15:A35,G24,G29", "35-10", "A:place:4456", scored))
    after = game.apply(state, game.parse_action(state, "score G15"))
    assert game.current_player(after) == TERMINAL and after.winners == (0,)  # 4,5,6 are never placed
    assert game.format(after).split()[2] == "over:A" and game.returns(after) == (1.0, 0.0)


def test_forty_at_the_end_of_the_round_lets_the_round_finish():
    game = RollForIt(ending="end_of_round")
    scored = {0: ["G27", "G28", "G07"], 1: ["G29", "G19", "G09", "G10"]}  # 35 each
    state = game.parse(position(game, "G15:A35,G24:B123,G26", "35-35", "A:place:4", scored, first="A"))
    after = game.apply(state, game.parse_action(state, "score G15"))
    assert game.current_player(after) == CHANCE  # the game goes on: a flip, then B's turn
    after = game.apply(after, Flip(game.card_index["G01"]))
    assert (after.mover, after.phase, after.scores) == (1, 0, (40, 35))
    # B scores G24 (10 points): 45 against 40 when the round ends, before A's turn
    after = game.apply(game.apply(after, TurnChoice(False)), Roll((4, 6, 6)))
    after = game.apply(after, game.parse_action(after, "score G24"))
    after = game.apply(after, Flip(game.card_index["G02"]))
    assert names(game, after)[-1] == "none"  # the 6s may still go on G26
    after = game.apply(after, Place(()))
    assert after.winners == (1,) and after.scores == (40, 45)
    assert game.format(after).endswith("over:B deck:G03-G06,G08,G11-G14,G16-G18,G20-G23,G25,G30 first:A")


def test_a_shared_win_splits_the_value():
    game = RollForIt(ending="end_of_round")
    scored = {0: ["G27", "G28", "G19"], 1: ["G29", "G20", "G21", "G09"]}
    state = game.parse(position(game, "G15,G24,G26", "40-40", "over:A+B", scored, first="A"))
    assert game.returns(state) == (0.5, 0.5) and game.evaluate(state, 1) == 0.5


def test_a_player_with_all_six_dice_on_cards_passes_or_takes_back(game):
    text = position(game, "G15:A35,G24:A123,G29:A4", "0-0", "A:turn")
    state = game.parse(text)
    assert names(game, state) == ["pass", "take back"]
    passed = game.apply(state, TurnChoice(False))
    assert (passed.mover, passed.phase) == (1, 0) and passed.placed == state.placed
    forced = RollForIt(stuck="take_back")
    state = forced.parse(text)
    assert names(forced, state) == ["take back"]


TINY = {"cards": [{"id": f"T{i}", "deck": "gold", "points": 2, "dice": [i]} for i in range(1, 5)]}


def tiny(**options) -> RollForIt:
    """Four gold cards of one image each (T1 shows a 1, ...), 2 points each: the deck runs out soon."""
    return RollForIt(deck=load_deck_text(json.dumps(TINY), "tiny.json"), **options)


def test_the_deck_running_out_plays_on_with_fewer_cards():
    game = tiny()
    state = game.parse("T1,T2,T3 0-0 A:place:1 deck:T4")
    after = game.apply(state, game.parse_action(state, "score T1"))
    assert game.chance_outcomes(after) == [(Flip(3), 1.0)]
    after = game.apply(after, Flip(3))
    assert game.format(after) == "T2,T3,T4 2-0 B:turn deck:-"
    after = game.apply(game.apply(game.apply(after, TurnChoice(False)), Roll((2, 5, 5, 5, 5, 5))), Complete(1, (2,)))
    assert game.format(after) == "T3,T4 2-2 A:turn deck:-"  # not replaced: two cards face up now
    last = game.parse("T4 4-2 B:place:4 deck:-")
    assert game.apply(last, Complete(3, (4,))).winners == (0, 1)  # no card left: the most points, shared


def test_the_deck_running_out_ends_the_game_with_deck_out_end():
    game = tiny(deck_out="end")
    state = game.parse("T2,T3,T4 2-0 B:place:2 deck:-")
    after = game.apply(state, Complete(1, (2,)))
    assert game.format(after) == "T3,T4 2-2 over:A+B deck:-"


def test_opening_ties_reroll_or_go_to_the_first_seat():
    assert RollForIt(players=4).opening_chances() == (0.25,) * 4
    seat = RollForIt(opening="seat").opening_chances()
    assert seat[0] == pytest.approx(0.5 + 73 / 1296)  # A starts on a tie: 1/2 + P(tie)/2, P(tie) = 146/1296
    assert math.fsum(RollForIt(players=8, opening="seat").opening_chances()) == pytest.approx(1.0)


def test_new_games_deal_three_cards_or_four_and_draw_the_starter():
    game = RollForIt()
    state = game.new_game(random.Random(1))
    assert len(state.cards) == 3 and bin(state.deck).count("1") == 27 and state.scores == (0, 0)
    big = RollForIt(players=6)
    state = big.new_game(random.Random(1))
    assert len(state.cards) == 4 and bin(state.deck).count("1") == 56
    starters = {RollForIt(players=3).new_game(random.Random(seed)).mover for seed in range(30)}
    assert starters == {0, 1, 2}


def test_actions_parse_back_and_bad_ones_are_one_line(game):
    state = game.parse(position(game, "G07,G13,G29", "0-0", "A:place:11"))
    assert game.parse_action(state, "G13:1,G07:1") == Place(((game.card_index["G07"], (1,)), (game.card_index["G13"], (1,))))
    for bad in ("G07:111", "G29:1", "score G07", "G07:2", "jump"):
        with pytest.raises(ValueError, match="not legal here"):
            game.parse_action(state, bad)
    assert game.is_progress(state, Place(())) is False
    assert game.is_progress(state, game.parse_action(state, "G07:1")) is True
    assert Complete(0, (1,)) != Place(((0, (1,)),))
