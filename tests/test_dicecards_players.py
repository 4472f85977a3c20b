"""Dice Cards with several players on the same rolls: notation, seat order, who wins, duels, objectives."""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from dicetree.cli.main import main
from dicetree.solver.game import GameError, PositionError
from dicetree.solver.games.dicecards import DiceCards
from dicetree.solver.games.dicecards.rules import rolls_recorded, tickets_given
from dicetree.solver.games.dicecards.state import COPIES, HAND, OVER, RECORD, ROLL, DiceCardsState, Roll, Seat
from test_contract import playout

GAMES = {n: DiceCards(players=n) for n in (2, 3)}
CODES = [card.code for card in GAMES[2].library.cards]


def run(*args: str):
    return CliRunner().invoke(main, list(args))


@st.composite
def tables(draw) -> DiceCardsState:
    """A random legal position of two or three players: each hand walked a few records from empty."""
    players = draw(st.integers(2, 3))
    library = GAMES[players].library
    seats = []
    for _ in range(players):
        codes = draw(st.lists(st.sampled_from(CODES), min_size=1, max_size=HAND, unique=True))
        marks = []
        for code in codes:
            state = library[code].start()
            for _ in range(draw(st.integers(0, 6))):
                slots = library[code].slots(state)
                if not slots:
                    break
                state = slots[draw(st.integers(0, len(slots) - 1))].after
            marks.append(state)
        cards = [library[code] for code in codes]
        seats.append(Seat(tuple(codes), tuple(marks), draw(st.integers(0, tickets_given(cards, tuple(marks))))))
    held = [code for seat in seats for code in seat.cards]
    assume(all(held.count(code) <= COPIES for code in held))
    most = max(rolls_recorded([library[c] for c in seat.cards], seat.marks) for seat in seats)
    done = draw(st.integers(most, 50))
    first, others = seats[0], tuple(seats[1:])
    if done == 50:
        return DiceCardsState(first.cards, first.marks, first.tickets, done, OVER, (), others)
    if draw(st.booleans()):
        return DiceCardsState(first.cards, first.marks, first.tickets, done, ROLL, (), others)
    roll = (draw(st.integers(1, 6)), draw(st.integers(1, 6)))
    return DiceCardsState(first.cards, first.marks, first.tickets, done, RECORD, roll, others,
                          draw(st.integers(0, players - 1)))


@settings(max_examples=120, deadline=None)
@given(tables())
def test_positions_of_several_players_round_trip(state):
    game = GAMES[state.players]
    text = game.format(state)
    assert game.parse(text) == state and game.format(game.parse(text)) == text


def test_players_record_each_roll_in_seat_order_then_the_roll_is_counted():
    game = GAMES[2]
    state = game.parse("HOP=1,2 t0 | HOP=- t0 2/50 roll")
    state = game.apply(state, Roll(3, 1))
    assert game.current_player(state) == 0 and [game.action_name(state, a) for a in game.legal_actions(state)] == \
        ["HOP:3"]
    state = game.apply(state, game.parse_action(state, "HOP:3"))
    assert game.format(state) == "HOP=1,2,3 t0 | HOP=- t0 2/50 B3R1 B"  # the same roll, B to record
    assert [game.action_name(state, a) for a in game.legal_actions(state)] == ["HOP:1"]
    state = game.apply(state, game.parse_action(state, "HOP:1"))
    assert game.format(state) == "HOP=1,2,3 t0 | HOP=1 t0 3/50 roll"


@pytest.mark.parametrize("text, objective, returns", [
    # By hand: a Bingo on Blackout Bingo is 4 points and 1 ticket; one ticket alone scores nothing.
    ("BB=4,9,6,11,7,3 t0 | BB=4,9,6 t1 50/50 end", "win", (1.0, 0.0)),  # 8 points against 4
    ("BB=4,9,6 t1 | BB=4,9,6 t0 50/50 end", "win", (1.0, 0.0)),  # 4 each: the unused ticket wins
    ("BB=4,9,6 t1 | BB=4,9,6 t1 50/50 end", "win", (0.5, 0.5)),  # 4 and a ticket each: shared
    ("BB=4,9,6 t1 | BB=4,9,6 t0 50/50 end", "score", (4.0, 4.0)),
    ("BB=4,9,6 t1 | BB=- t0 50/50 end", "rank", (1.0, 0.0)),  # target 4
])
def test_who_wins_by_score_then_unused_tickets_then_shared(text, objective, returns):
    game = DiceCards(players=2, objective=objective, target=4)
    assert game.returns(game.parse(text)) == returns


def test_three_players_win_shares_add_up_to_one():
    game = DiceCards(players=3, objective="win")
    state = game.parse("BB=4,9,6 t1 | BB=4,9,6 t1 | SUD=- t0 50/50 end")
    assert game.returns(state) == (0.5, 0.5, 0.0) and game.game_type.constant_sum == 1.0


@pytest.mark.parametrize("objective", ["win", "score", "rank"])
def test_random_playouts_of_three_players_keep_the_contract(objective):
    game = DiceCards(players=3, objective=objective, rolls=6)
    for seed in range(2):
        visited = playout(game, game.new_game(random.Random(seed)), seed)
        assert visited[-1].endswith("6/6 end")


def test_a_deal_gives_each_player_six_different_cards_from_two_copies():
    game = GAMES[3]
    for seed in range(20):
        state = game.new_game(random.Random(seed))
        hands = [state.seat(p).cards for p in range(3)]
        assert all(len(set(hand)) == HAND for hand in hands)
        held = [code for hand in hands for code in hand]
        assert max(held.count(code) for code in held) <= COPIES


@pytest.mark.parametrize("players, text, message", [
    (2, "SOL=- t0 0/50 roll", "the position has 1 player's hand, the game 2"),
    (1, "SOL=- t0 | SOL=- t0 0/50 roll", "the position has 2 players' hands"),
    (2, "SOL=- t0 | SOL=- t0 0/50 B1R1 P3", "C records next, but the game has 2 players"),
    (2, "SOL=- t0 | SOL=- t0 0/50 roll P2", "B records next, but no roll is shown"),
    (3, "SOL=- t0 | SOL=- t0 | SOL=- t0 0/50 roll", "card SOL is held by 3 players"),
    (2, "SOL=- t0 | SOL=B6 t0 0/50 B1R1 P2", "B's cards hold 1 records after only 0 rolls"),
    (2, "t0 | SOL=- t0 0/50 roll", "A's hand 't0' is not <card>=<marks> ... t<tickets>"),
])
def test_bad_positions_of_several_players_are_one_line(players, text, message):
    with pytest.raises(PositionError, match=message):
        DiceCards(players=players).parse(text)


def test_too_many_players_for_the_box_is_one_line():
    with pytest.raises(GameError, match="4 players need 24 cards: the box holds 2 copies of each of 9 cards"):
        DiceCards(players=4)
    result = run("best", "dicecards", "--example", "--rule", "players=7")
    assert result.exit_code == 2 and len(result.output.strip().splitlines()) == 1


def test_a_duel_of_three_players_on_the_same_rolls(tmp_path):
    result = run("duel", "dicecards", "--rule", "players=3", "--rule", "rolls=8", "--a", "cards", "--b", "race",
                 "--c", "points", "--games", "6", "--seed", "2", "--no-progress")
    assert result.exit_code == 0, result.output
    assert "A cards" in result.output and "B race" in result.output and "C points" in result.output


def test_best_for_two_players_is_the_chance_of_winning_and_three_are_searched_paranoid(tmp_path):
    position = "SUD=112233445566 t0 | SUD=11 t0 40/50 B1R1 P2"
    result = run("best", "dicecards", position, "--rule", "players=2", "--tables", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert "B to move; value = probability of winning" in result.output and "SUD:2" in result.output
    game = GAMES[3]
    result = run("best", "dicecards", game.example_position(), "--rule", "players=3", "--tables", str(tmp_path))
    assert result.exit_code == 0, result.output
    assert "paranoid reduction (3 players)" in result.output
