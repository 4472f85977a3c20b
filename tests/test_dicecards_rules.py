"""Dice Cards rules on hand-worked positions: records, compulsory recording, tickets, the end, objectives."""

from __future__ import annotations

import random

import pytest

from dicetree.solver.game import CHANCE, TERMINAL, GameError, IllegalMoveError
from dicetree.solver.games.dicecards import DiceCards
from dicetree.solver.games.dicecards.state import RANKS, rank_of

GAME = DiceCards()
FULL_BINGO = "BB=4,9,6,11,7,3,8,5,10"
"""Blackout Bingo complete: it has given 3 tickets (a position with tickets needs a card that gave them)."""


def names(position: str, game: DiceCards = GAME) -> list[str]:
    state = game.parse(position)
    return [game.action_name(state, action) for action in game.legal_actions(state)]


def play(position: str, move: str, game: DiceCards = GAME) -> str:
    state = game.parse(position)
    return game.format(game.apply(state, game.parse_action(state, move)))


def test_one_number_on_one_card_a_die_or_the_total_as_the_card_takes_it():
    assert names("SOL=- SUD=- BB=- t0 0/50 B6R3") == ["SOL:B6", "SOL:R3", "SUD:3", "SUD:6", "BB:9", "BB:6", "BB:3"]


def test_a_roll_that_fits_a_card_as_rolled_must_be_recorded():
    assert "lose" not in names("DBL=- SOL=- t0 0/50 B2R3")


def test_a_roll_that_fits_only_with_tickets_may_be_lost_or_bought():
    assert names(f"DBL=- {FULL_BINGO} t1 9/50 B2R3") == ["DBL:2-2+1t", "DBL:3-3+1t", "lose"]
    # the Black 2 fits Hopscotch as rolled: the roll must be recorded (on either card)
    assert names(f"DBL=- HOP=1 {FULL_BINGO} t1 10/50 B2R3") == ["DBL:2-2+1t", "DBL:3-3+1t", "HOP:2"]


def test_a_roll_that_fits_nothing_is_lost_and_counted():
    assert names("DBL=- t0 0/50 B2R3") == ["lose"]
    assert play("DBL=- t0 0/50 B2R3", "lose") == "DBL=- t0 1/50 roll"


def test_may_pass_lets_a_player_lose_any_roll():
    game = DiceCards(may_pass=True)
    assert names("DBL=- t0 0/50 B2R2", game) == ["DBL:2-2", "lose"]


def test_tickets_change_a_die_by_one_each_within_one_to_six():
    # Black 6, Red 6, two tickets: a die goes down to 4 at most; the total 12 down to 10.
    assert names("SOL=- BB=4,9,6,11,7,3,8,5 t2 40/50 B6R6") == [
        "SOL:B6", "SOL:R6", "SOL:R5+1t", "SOL:B5+1t", "SOL:B4+2t", "SOL:R4+2t", "BB:10+2t"]
    assert names("SOL=B6,R6 t0 2/50 B6R6") == ["lose"]  # no die goes above 6, whatever it costs


def test_spent_tickets_go_and_a_card_gives_its_tickets_after_the_record():
    after = play("BB=4,9 SOL=- t0 2/50 B3R3", "BB:6")  # completes the top row: a Bingo and its ticket
    assert after == "BB=4,9,6 SOL=- t1 3/50 roll"
    assert play("BB=4,9,6 SOL=- t1 3/50 B1R1", "SOL:R2+1t") == "BB=4,9,6 SOL=R2 t0 4/50 roll"


def test_two_unused_tickets_are_one_point_at_the_end():
    three = GAME.parse("BB=4,9,6,11,7,3,8,5,10 t3 50/50 end")  # a blackout: 20 points, 3 tickets
    assert GAME.returns(three) == (21.0,)
    assert GAME.returns(GAME.parse("BB=4,9,6,11,7,3,8,5,10 t2 50/50 end")) == (21.0,)


def test_all_or_nothing_scores_only_when_complete():
    assert GAME.returns(GAME.parse("SUD=11223344556 t0 50/50 end")) == (0.0,)
    assert GAME.returns(GAME.parse("SUD=112233445566 t0 50/50 end")) == (25.0,)


def test_in_order_cards_offer_only_the_next_box():
    assert names("HOP=1,2 t0 2/50 B3R6") == ["HOP:3"]
    assert names("HOP=1,2 t0 2/50 B4R6") == ["lose"]  # square 3 next: 4, 6 and 10 do not fit
    assert names(f"HOP=1,2 {FULL_BINGO} t1 11/50 B4R6") == ["HOP:3+1t", "lose"]


def test_the_game_has_fifty_rolls_then_ends():
    state = GAME.parse("HOP=1 t0 49/50 B2R5")
    assert GAME.current_player(state) == 0
    end = GAME.apply(state, GAME.parse_action(state, "HOP:2"))
    assert GAME.current_player(end) == TERMINAL and GAME.format(end) == "HOP=1,2 t0 50/50 end"
    assert GAME.returns(end) == (2.0,)
    start = GAME.parse("HOP=- t0 0/50 roll")
    assert GAME.current_player(start) == CHANCE
    outcomes = GAME.chance_outcomes(start)
    assert len(outcomes) == 36 and sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert GAME.action_name(start, outcomes[5][0]) == "B1R6"
    with pytest.raises(IllegalMoveError):
        GAME.apply(start, GAME.parse_action(GAME.parse("HOP=- t0 0/50 B1R1"), "HOP:1"))


def test_rolls_is_a_rule_option():
    game = DiceCards(rolls=2)
    assert game.format(game.apply(game.parse("HOP=1 t0 1/2 B2R5"), game.legal_actions(game.parse("HOP=1 t0 1/2 B2R5"))[0])) \
        == "HOP=1,2 t0 2/2 end"


def test_the_rank_objective_and_the_rank_table():
    game = DiceCards(objective="rank", target=20)
    assert game.returns(game.parse("BB=4,9,6,11,7,3,8,5,10 t0 50/50 end")) == (1.0,)
    assert game.returns(game.parse("BB=4,9,6,11,7,3,8,5 t0 50/50 end")) == (0.0,)
    assert game.value_bounds().high == 1.0 and "at least 20" in game.describe_value()
    assert [rank_of(score) for score in (90, 89, 87, 86, 84, 83, 81, 80, 70, 69)] == [
        "Lord", "Scholar", "Scholar", "Master", "Master", "Expert", "Expert", "Novice", "Novice", "Practice Run"]
    assert RANKS[0] == (90, "Lord")


def test_bad_rule_options_are_one_line():
    with pytest.raises(GameError, match="objective=win needs another player to beat"):
        DiceCards(objective="win")
    with pytest.raises(GameError, match="rolls must be a whole number 1..500"):
        DiceCards(rolls=0)


@pytest.mark.parametrize("evaluation, games", [("points", 10), ("cards", 3)])
def test_returns_and_evaluations_stay_within_the_bounds(evaluation, games):
    game = DiceCards(evaluation=evaluation)
    bounds = game.value_bounds()
    rng = random.Random(5)
    for _ in range(games):
        state = game.new_game(rng)
        if evaluation == "cards":  # the Reverse Pyramid's own solution takes seconds: left to the contract test
            cards = [code for code in game.library.by_code if code != "RP"]
            state = game.parse(" ".join(f"{code}=-" for code in rng.sample(cards, 6)) + " t0 0/50 roll")
        while game.current_player(state) != TERMINAL:
            if game.current_player(state) == CHANCE:
                state = game.apply(state, game.sample_chance(state, rng))
            else:
                assert bounds.low <= game.evaluate(state, 0) <= bounds.high
                state = game.apply(state, rng.choice(list(game.legal_actions(state))))
        assert bounds.low <= game.returns(state)[0] <= bounds.high


def test_new_games_deal_six_different_cards():
    state = GAME.new_game(random.Random(1))
    assert len(state.cards) == 6 == len(set(state.cards)) and state.rolls == 0 and state.tickets == 0
