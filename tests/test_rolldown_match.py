"""RolldownBeta's match equity tables and ``--rule objective=match``: the tables' boundary values and
symmetry, the dynamic programming on hand-made outcome distributions (against a plain recursion), the
data file's validation, and match values in play (within [0, 1], the table's at a round's end)."""

from __future__ import annotations

import json
import random
from functools import cache

import pytest

from dicetree.solver.game import GameError
from dicetree.solver.games.rolldown import Rolldown
from dicetree.solver.games.rolldown import match_equity
from dicetree.solver.games.rolldown.match_equity import (
    POINTS,
    MatchEquityError,
    MatchTables,
    RoundOutcomes,
    load_tables,
)
from dicetree.solver.games.rolldown.state import ROUND_OVER
from dicetree.solver.search import Searcher

TABLES = load_tables()
MATCH = Rolldown(objective="match")
PLAY_ON = Rolldown(objective="match", horizon="match")


def outcomes_of(shares: dict[tuple[bool, int], int]) -> RoundOutcomes:
    return RoundOutcomes.from_pairs(pair for pair, count in shares.items() for _ in range(count))


HAND_MADE = outcomes_of({(True, 8): 3, (True, 24): 2, (False, 16): 2, (False, 40): 1})


# ----- boundary values and symmetry ----------------------------------------------------------------------
@pytest.mark.parametrize("tables", [TABLES, MatchTables.from_outcomes(HAND_MADE)], ids=["stored", "hand-made"])
def test_a_player_at_50_has_won_and_equal_totals_after_round_nine_draw(tables):
    for starter in (0, 1):
        assert tables.value("first50", (50, 12), starter, 4) == 1.0
        assert tables.value("first50", (30, 64), starter, 6) == 0.0
        assert tables.value("nine", (100, 100), starter, 10) == 0.5
        assert tables.value("nine", (102, 100), starter, 10) == 1.0
        assert tables.value("nine", (98, 100), starter, 10) == 0.0


@pytest.mark.parametrize("tables", [TABLES, MatchTables.from_outcomes(HAND_MADE)], ids=["stored", "hand-made"])
def test_swapping_the_players_gives_one_less_the_value(tables):
    for a in range(0, 50, 2):
        for b in range(0, 50, 2):
            for s in (0, 1):
                assert tables.value("first50", (a, b), s, 3) + tables.value("first50", (b, a), 1 - s, 3) \
                    == pytest.approx(1.0, abs=2e-6)
    for r in range(1, 10):
        for lead in range(-40 * (r - 1), 40 * (r - 1) + 1, 2):
            for s in (0, 1):
                mine = tables.value("nine", (max(lead, 0), max(-lead, 0)), s, r)
                theirs = tables.value("nine", (max(-lead, 0), max(lead, 0)), 1 - s, r)
                assert mine + theirs == pytest.approx(1.0, abs=2e-6)
    if tables is TABLES:
        assert tables.value("nine", (0, 0), 0, 1) + tables.value("nine", (0, 0), 1, 1) == pytest.approx(1, abs=2e-6)


def test_level_with_an_even_number_of_rounds_left_is_even_whoever_starts():
    # the starters alternate, so the rounds left pair up and A's lead after them is symmetric about 0
    for tables in (TABLES, MatchTables.from_outcomes(HAND_MADE)):
        for r in (2, 4, 6, 8):
            for s in (0, 1):
                assert tables.value("nine", (40, 40), s, r) == pytest.approx(0.5, abs=2e-6)


def test_more_points_never_hurt():
    for s in (0, 1):
        for a in range(0, 48, 2):
            for b in range(0, 50, 2):
                assert TABLES.value("first50", (a + 2, b), s, 3) >= TABLES.value("first50", (a, b), s, 3) - 1e-6


# ----- the dynamic programming on hand-made distributions ------------------------------------------------
def test_first_to_50_against_a_plain_recursion():
    q = HAND_MADE.probabilities()

    @cache
    def value(a: int, b: int, starter: int) -> float:
        if a >= 50:
            return 1.0
        if b >= 50:
            return 0.0
        total = 0.0
        for i, points in enumerate(POINTS):
            starter_scores = (a + points, b) if starter == 0 else (a, b + points)
            other_scores = (a, b + points) if starter == 0 else (a + points, b)
            total += q[0, i] * value(*starter_scores, 1 - starter) + q[1, i] * value(*other_scores, 1 - starter)
        return total

    tables = MatchTables.from_outcomes(HAND_MADE)
    for a in range(0, 50, 2):
        for b in range(0, 50, 2):
            for s in (0, 1):
                assert tables.value("first50", (a, b), s, 2) == pytest.approx(value(a, b, s), abs=1e-12)


def test_first_to_50_by_hand():
    # the starter always wins 24: A starts at 26-26 and reaches 50 at once; at 0-0 the starters take
    # turns winning, A (first) reaches 72 in round 3 before B's 48
    starter_takes_24 = MatchTables.from_outcomes(outcomes_of({(True, 24): 1}))
    assert starter_takes_24.value("first50", (26, 26), 0, 2) == 1.0
    assert starter_takes_24.value("first50", (0, 0), 0, 1) == 1.0
    assert starter_takes_24.value("first50", (0, 2), 1, 1) == 0.0
    # a fair coin for 40 points: one win takes 10 or more to 50
    coin = MatchTables.from_outcomes(outcomes_of({(True, 40): 1, (False, 40): 1}))
    assert coin.value("first50", (10, 10), 0, 1) == 0.5
    assert coin.value("first50", (10, 0), 1, 1) == 0.75  # A needs one win, B two


def test_nine_rounds_by_hand():
    # the last round: the starter wins 8 points 60% of the time, the other 40%
    tables = MatchTables.from_outcomes(outcomes_of({(True, 8): 3, (False, 8): 2}))
    assert tables.value("nine", (0, 0), 0, 9) == pytest.approx(0.6)
    assert tables.value("nine", (8, 0), 0, 9) == pytest.approx(0.6 + 0.4 * 0.5)  # losing it draws
    assert tables.value("nine", (10, 0), 1, 9) == pytest.approx(1.0)  # 8 points cannot undo 10
    # two rounds left, all even: A starts round 8, B round 9
    assert tables.value("nine", (0, 0), 0, 8) == pytest.approx(0.6 * 0.6 * 0.5 + 0.6 * 0.4 + 0.4 * 0.4 * 0.5)


def test_the_bootstrap_gives_a_standard_error_per_cell_that_shrinks_with_more_rounds():
    few = MatchTables.from_outcomes(HAND_MADE, resamples=200, seed=1)
    many = MatchTables.from_outcomes(RoundOutcomes(*(tuple(100 * n for n in row) for row in HAND_MADE)),
                                     resamples=200, seed=1)
    cell = ("first50", (10, 20), 0, 3)
    assert 0.0 < many.standard_error(*cell) < few.standard_error(*cell)
    assert few.standard_error("first50", (50, 0), 0, 3) == 0.0  # a finished match is exact
    assert 0.0 < TABLES.standard_error("nine", (0, 0), 0, 1) < 0.05


# ----- the data file -------------------------------------------------------------------------------------
def write(path, payload):
    path.write_text(json.dumps(payload))
    return path


def test_the_data_file_round_trips(tmp_path):
    tables = MatchTables.from_outcomes(HAND_MADE, resamples=20)
    loaded = load_tables(write(tmp_path / "m.json", tables.payload({"engine": "hand-made"})))
    assert loaded.outcomes == HAND_MADE
    assert loaded.value("first50", (10, 20), 1, 3) == pytest.approx(tables.value("first50", (10, 20), 1, 3), abs=1e-6)
    assert loaded.value("nine", (30, 2), 0, 4) == pytest.approx(tables.value("nine", (30, 2), 0, 4), abs=1e-6)


def test_a_damaged_data_file_is_one_clear_line(tmp_path):
    payload = MatchTables.from_outcomes(HAND_MADE, resamples=20).payload({})
    tampered = dict(payload, first50=[[[0.5] * 25] * 25] * 2)
    with pytest.raises(MatchEquityError, match="checksum mismatch"):
        load_tables(write(tmp_path / "tampered.json", tampered))
    with pytest.raises(MatchEquityError, match="version 2"):
        load_tables(write(tmp_path / "v2.json", dict(payload, version=2)))
    misshapen = dict(payload, nine=payload["nine"][:8])
    misshapen["sha256"] = match_equity.payload_checksum(misshapen)
    with pytest.raises(MatchEquityError, match="shapes or values"):
        load_tables(write(tmp_path / "shape.json", misshapen))
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(MatchEquityError, match="cannot be read"):
        load_tables(tmp_path / "bad.json")
    with pytest.raises(MatchEquityError, match="cannot be read"):
        load_tables(tmp_path / "missing.json")
    assert issubclass(MatchEquityError, GameError)  # the command line prints it as one line


def test_the_game_reads_the_tables_up_front(monkeypatch):
    from dicetree.solver.games.rolldown import rules

    def damaged():
        raise MatchEquityError("match equity data x.json: checksum mismatch (the file is damaged)")

    monkeypatch.setattr(rules, "load_tables", damaged)
    with pytest.raises(MatchEquityError, match="checksum mismatch"):
        Rolldown(objective="match")
    Rolldown()  # the round objective needs no tables


# ----- objective=match -----------------------------------------------------------------------------------
def test_a_finished_round_is_worth_the_table_at_its_scores():
    over = MATCH.parse("-/- a -/- - first50 34-20 3 QK/5 b won:a:24")  # B started round 3: A starts round 4
    assert MATCH.is_terminal(over)
    assert MATCH.returns(over)[0] == TABLES.value("first50", (34, 20), 0, 4)
    assert PLAY_ON.is_chance(over)
    assert PLAY_ON.evaluate(over, 0) == pytest.approx(TABLES.value("first50", (34, 20), 0, 4))
    nine = MATCH.parse("-/- b -/- - nine 60-40 4 -/- a won:a:24")
    assert MATCH.returns(nine)[0] == TABLES.value("nine", (60, 40), 1, 5)
    finished = MATCH.parse("-/- b -/- - nine 100-100 9 -/- a won:b:24")
    assert MATCH.returns(finished) == (0.5, 0.5)


def test_the_search_values_a_round_ending_capture_by_the_table():
    state = MATCH.parse("d20:14/d8:8 a -/- - first50 44-38 7 AA259JQQK/3456789TTJQ")
    result = Searcher(MATCH, cache_slots=2**10).search(state, depth=1)
    capture = next(move for move in result.moves if move.name == "d20xd8")
    # A (44) takes the last pair for 28 points and wins the match at once
    assert capture.value == 1.0 and result.best.name == "d20xd8"


@pytest.mark.parametrize("mode", ["first50", "nine"])
def test_match_values_stay_within_0_and_1_along_random_play(mode):
    rng = random.Random(7)
    for _ in range(2):
        state = PLAY_ON.new_match(mode, rng)
        while not PLAY_ON.is_terminal(state):
            if state.phase != ROUND_OVER and not PLAY_ON.is_chance(state):
                for player in (0, 1):
                    value = MATCH.evaluate(state, player)
                    assert 0.0 < value < 1.0
                assert MATCH.evaluate(state, 0) + MATCH.evaluate(state, 1) == pytest.approx(1.0)
            elif state.phase == ROUND_OVER:
                table = TABLES.value(mode, state.scores, 1 - state.starter, state.round + 1)
                assert MATCH.returns(state)[0] == table
            if PLAY_ON.is_chance(state):
                state = PLAY_ON.apply(state, PLAY_ON.sample_chance(state, rng))
            else:
                state = PLAY_ON.apply(state, rng.choice(PLAY_ON.legal_actions(state)))


def test_the_leaf_combines_the_round_chance_with_the_tables_at_the_likely_scores():
    state = MATCH.parse("d12:7/d10:3 a -/- - first50 28-40 6")  # the last pair: 22 points to the winner
    a_wins, b_wins = TABLES.value("first50", (50, 40), 1, 7), TABLES.value("first50", (28, 62), 1, 7)
    assert (a_wins, b_wins) == (1.0, 0.0)
    assert MATCH.evaluate(state, 0) == pytest.approx(Rolldown().evaluate(state, 0), abs=1e-6)
    two_pairs = MATCH.parse("d12:7,d4:1/d10:3,d6:2 a -/- - nine 40-52 5")
    a_up = sum(TABLES.value("nine", (40 + s + t, 52), 1, 6) for s in (4, 12) for t in (6, 10)) / 4
    a_down = sum(TABLES.value("nine", (40, 52 + s + t), 1, 6) for s in (4, 12) for t in (6, 10)) / 4
    p = Rolldown().evaluate(two_pairs, 0)
    assert MATCH.evaluate(two_pairs, 0) == pytest.approx(p * a_up + (1 - p) * a_down)
