"""RolldownBeta's game class: its hooks (observe, new_game, player names, progress moves, the
providers), the package's layout (imports one way, none inside functions) and the card effects
stated once for the rules and the tables."""

from __future__ import annotations

import ast
import random
from pathlib import Path

import numpy as np
import pytest

from dicetree.solver.game import CHANCE, GameError
from dicetree.solver.games.rolldown import Rolldown, RolldownState
from dicetree.solver.games.rolldown.cards import ACE, DIE_SIDES, JACK, KING, UNKNOWN
from dicetree.solver.games.rolldown.rules import RolldownRules, card_faces
from dicetree.solver.games.rolldown.state import CAPTURE, NOBODY, SET, Capture, Reroll, SetFace
from dicetree.solver.games.rolldown.study import EndgameStudy
from dicetree.solver.games.rolldown.tablebase import Tablebase
from dicetree.solver.games.rolldown.tables import Signature, card_values

GAME = Rolldown()
PACKAGE = Path(__file__).resolve().parents[1] / "solver" / "games" / "rolldown"


def playout_states(seed: int, steps: int = 60) -> list[RolldownState]:
    rng = random.Random(seed)
    state = GAME.new_game(rng)
    states = [state]
    for _ in range(steps):
        if GAME.is_terminal(state):
            break
        if GAME.is_chance(state):
            state = GAME.apply(state, GAME.sample_chance(state, rng))
        else:
            state = GAME.apply(state, rng.choice(GAME.legal_actions(state)))
        states.append(state)
    return states


# ----- observe -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(4))
def test_an_observation_hides_the_opponents_cards_and_reads_back(seed):
    for state in playout_states(seed):
        for player in (0, 1):
            seen = GAME.observe(state, player)
            assert seen.hands[player] == state.hands[player]
            assert seen.hands[1 - player] == (UNKNOWN,) * len(state.hands[1 - player])
            assert seen.seen_by == (NOBODY if player == state.mover else player)
            assert seen._replace(hands=state.hands, seen_by=NOBODY) == state  # nothing else changes
            text = GAME.format(seen)
            assert GAME.parse(text) == seen and GAME.format(GAME.parse(text)) == text
            assert text.endswith(" seen:" + "ab"[player]) == (player != state.mover)


def test_determinizing_an_observation_gives_the_concrete_positions_it_allows():
    state = GAME.parse("d6:2,d8:5/d4:3,d6:6 a QK/5 - single 0-0 1 -/J")
    for player in (0, 1):
        deals = GAME.determinize(GAME.observe(state, player), max_exact=5000)
        assert deals.exact and sum(deals.weights) == pytest.approx(1.0)
        assert state in deals.states  # the real position is one of them
        for concrete in deals.states:
            assert concrete.seen_by == NOBODY and UNKNOWN not in concrete.hands[0] + concrete.hands[1]
            assert concrete.hands[player] == state.hands[player]
            assert len(concrete.hands[1 - player]) == len(state.hands[1 - player])
            assert GAME.parse(GAME.format(concrete)) == concrete
    # B's view of A's turn: A's two cards are any two of A's 27 (no Jack is known to be out)
    assert len(GAME.determinize(GAME.observe(state, 1), max_exact=5000).states) == 104


def test_a_searcher_on_the_movers_own_view_sees_the_same_moves():
    state = GAME.parse(GAME.example_position())
    mine = GAME.observe(state, state.mover)
    assert GAME.format(mine) == "d4:3,d6:2,d8:5,d10:7,d12:4,d20:11/d4:2,d6:6,d8:1,d10:9,d12:12,d20:3 a 5QK/???"
    assert GAME.legal_actions(mine) == GAME.legal_actions(state)


# ----- the other hooks ---------------------------------------------------------------------------------------
def test_new_game_player_names_and_progress_moves():
    start = GAME.new_game(random.Random(5))
    assert start == GAME.new_game(random.Random(5)) and start.first_turn == (True, True)
    assert start.mode == "single" and all(len(hand) == 3 for hand in start.hands)
    assert GAME.parse(GAME.format(start)) == start
    assert (GAME.player_name(0), GAME.player_name(1)) == ("A", "B")
    state = GAME.parse("d6:2,d8:5/d4:3,d6:6 a QK/-")
    progress = [GAME.action_name(state, a) for a in GAME.legal_actions(state) if GAME.is_progress(state, a)]
    assert progress == ["d8xd4"]
    rolling = GAME.parse("d6:2,d8:5/d4:3,d6:6 a QK/- - single 0-0 1 -/- a roll:a.d6")
    assert GAME.current_player(rolling) == CHANCE and not GAME.is_progress(rolling, 2)


def test_the_providers_come_from_the_game(tmp_path):
    assert isinstance(GAME.exact_provider(str(tmp_path)), Tablebase)
    assert isinstance(GAME.study(), EndgameStudy)
    points = Rolldown(objective="points")
    assert points.exact_provider(str(tmp_path)) is None
    with pytest.raises(GameError, match="round objective only"):
        points.exact_provider(str(tmp_path), required=True)


def test_actions_are_named_tuples_that_stay_apart():
    state = GAME.parse("d6:2,d8:5/d4:3,d6:6 a QK/-")
    actions = GAME.legal_actions(state)
    assert actions[0] == Capture(my_slot=2, their_slot=0) and actions[0].kind == CAPTURE
    assert len(set(actions)) == len(actions)
    assert Capture(1, 0) != Reroll(1, 0) and hash(Capture(1, 0)) != hash(Reroll(1, 0))
    assert SetFace(KING, 0, 1, 6) in actions


def test_returns_and_evaluation_add_up_to_the_objectives_constant():
    over = GAME.parse("-/- b -/- - single 0-0 1 -/- a won:a:24")
    assert GAME.returns(over) == (1.0, 0.0)
    points = Rolldown(objective="points")
    match_over = points.parse("-/- b -/- - nine 24-0 1 -/- a won:a:24")
    assert points.returns(match_over) == (24, -24)
    state = GAME.parse("d6:2,d8:5/d4:3,d6:6 a QK/-")
    assert GAME.evaluate(state, 0) + GAME.evaluate(state, 1) == pytest.approx(1.0, abs=1e-12)


# ----- card effects, stated once ------------------------------------------------------------------------------
@pytest.mark.parametrize("ace", ["online", "printed"])
@pytest.mark.parametrize("card", [ACE, 2, 5, 9, 10, JACK, KING])
def test_the_rules_and_the_tables_play_a_card_the_same_way(ace, card):
    rules = RolldownRules(ace=ace)
    state = RolldownState(dice=((0, 2, 0, 7, 0, 0), (3, 0, 0, 0, 0, 11)), mover=0, hands=((card,), ()))
    played = {(a.side, a.slot, a.face) for a in rules.legal_actions(state) if a.kind == SET}
    expected = {(side, slot, face) for side in (0, 1) for slot in state.dice_in_play(side)
                for face in card_faces(card, DIE_SIDES[slot], side == 0, ace)}
    assert played == expected
    sig = Signature.of_state(state)
    child = np.zeros(sig.card_child(card).shape)
    slots = [(0, 1), (0, 3), (1, 0), (1, 5)]  # the table's axes: the mover's dice, then theirs
    from_tables = {(slots[axis][0], slots[axis][1], face) for _, axis, face in card_values(sig, card, child, ace)}
    assert from_tables == played


# ----- layout ------------------------------------------------------------------------------------------------------
LAYERS = {  # a module may import only from lower layers (or its own)
    "cards": 0, "datafile": 0, "state": 1, "match_equity": 2, "rules": 3, "notation": 4, "evaluation": 4,
    "fitted": 4, "hands": 4, "board": 4, "fused": 4, "endless": 4, "tables": 5, "tablebase": 6, "study": 7, "exact_leaves": 7, "game": 9, "__init__": 10,
    "network_kernel": 2, "network": 4, "network_training": 7,
    "packed": 2, "compiled_rules": 4, "compiled_evaluation": 5, "compiled_tables": 6, "compiled_kernel": 7,
    "compiled_search": 8,
}


DEFERRED = {("game", "dicetree.cache.store"), ("game", "dicetree.solver.games.rolldown.tablebase"), ("game", "dicetree.solver.games.rolldown.study"),
            ("tables", "dicetree.solver.games.rolldown.fused"), ("game", "dicetree.solver.games.rolldown.network"),
            ("game", "dicetree.solver.games.rolldown.compiled_search")}
"""Imports made where they are used: the tables, their store and the study load numpy, which
`dicetree notation` and `rules` do not need (issue 11's start-up); the builder's fused kernel loads
numba, which probing does not need, and so does the compiled search, loaded by the first search it
answers; the value network loads numpy too, only where it is chosen."""


def test_the_package_reads_top_to_bottom_with_imports_at_the_top():
    for path in sorted(PACKAGE.glob("*.py")):
        name = path.stem
        tree = ast.parse(path.read_text(), str(path))
        top = set(map(id, tree.body))
        for node in ast.walk(tree):
            # The project's modules, by their folders' names whichever root they are imported under.
            module = (node.module or "").removeprefix("dicetree.") if isinstance(node, ast.ImportFrom) else ""
            if module.split(".")[0] in ("solver", "cache", "cli"):
                assert id(node) in top or (name, node.module) in DEFERRED, \
                    f"{name}.py imports {node.module} inside a function (line {node.lineno})"
                parts = module.split(".")
                if parts[:3] == ["solver", "games", "rolldown"] and len(parts) > 3:
                    assert LAYERS[parts[3]] < LAYERS[name], f"{name}.py imports {node.module} from above it"
    assert set(LAYERS) == {p.stem for p in PACKAGE.glob("*.py")}
