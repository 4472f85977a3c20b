"""RolldownBeta's leaf evaluation for depth-limited search: the frame (objectives, the player to
move, the finished round) and the hand-made heuristic. The default estimate is the value network
learned from the tables (:mod:`dicetree.solver.games.rolldown.network`, ``--rule evaluation=network``):
closer to exact than the others and stronger at equal time a move (``results/rolldown-network/``),
though a leaf costs tens of times more; ``--rule evaluation=fitted`` is the fitted logistic model
(:mod:`dicetree.solver.games.rolldown.fitted`: cheap, for fast depth-limited runs and issue 24's speed
comparisons); ``--rule evaluation=heuristic`` is this one.

The heuristic is a guess, not a value: it estimates the probability that a player wins the round from three
features and is always strictly inside the value bounds, so an exact result (a won round) always
outranks it.

* **Threats.** A pair (my die, their die) with my face at least theirs is a capture I could make;
  the difference between my threats and the opponent's, as a share of all n x n pairs, moves the
  estimate up to +-0.30 (tanh-shaped, so a few threats matter most).
* **The last pair.** With one pair left, the player to move who can capture wins now: 0.95.
* **Cards.** Each card in hand is a spare action: +-0.03 per card of difference.

The player "to move" is the one whose next decision may capture: during a reroll, a Joker or a
Queen (whose second reroll is the mover's only choice left) that is the opponent, whose turn
comes next. For the ``points`` objective the estimate p becomes (2p - 1) times the mean points
of a final pair (the mean sides of the dice in play, both sides). For ``match`` in First to 50 and
Nine rounds it becomes the chance of winning the match: p times the match equity if the player wins
the round plus (1 - p) times the equity if they lose, each averaged over the pairs (one die a side in
play) that may be the final pair, equally likely
(:meth:`~dicetree.solver.games.rolldown.match_equity.MatchTables.after_round`); a finished round is the
table's value at its scores.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Callable

from dicetree.solver.games.rolldown.cards import DIE_SIDES
from dicetree.solver.games.rolldown.rules import RolldownRules
from dicetree.solver.games.rolldown.state import JOKER_ROLL, QUEEN_ROLL, QUEEN_SECOND, ROLL, ROUND_OVER, ROUND_POV, RolldownState

EVALUATIONS = ("fitted", "heuristic", "network")
"""The leaf evaluations ``--rule evaluation`` chooses from (the fitted one: :mod:`dicetree.solver.games.rolldown.fitted`;
the value network learned from the tables, the default: :mod:`dicetree.solver.games.rolldown.network`)."""
DEFAULT_EVALUATION = "network"

THREAT_WEIGHT = 0.30
CARD_WEIGHT = 0.03
LAST_PAIR_WIN = 0.95
FLOOR, CEILING = 0.02, 0.98
MATCH_CLIP = 1e-6


Estimate = Callable[[RolldownState, int], float]
"""``estimate(state, to_move)``: the chance that ``to_move``, whose decision comes next, wins the round."""


def evaluate(state: RolldownState, player: int, game: RolldownRules, estimate: Estimate | None = None) -> float:
    """Value of ``state`` for ``player`` in ``game``'s value bounds (its objective), from ``estimate``
    (default: the heuristic :func:`round_win_estimate`; the fitted one is
    :meth:`dicetree.solver.games.rolldown.fitted.FittedModel.estimate`).

    >>> from dicetree.solver.games.rolldown.rules import RolldownRules
    >>> state = RolldownState(dice=((0, 0, 5, 0, 0, 0), (3, 0, 0, 0, 0, 0)), mover=0)
    >>> evaluate(state, 0, RolldownRules()), round(evaluate(state, 1, RolldownRules()), 12)
    (0.95, 0.05)
    """
    in_match = game.objective == "match" and state.mode != "single"
    if state.phase == ROUND_OVER:
        if in_match:
            assert game.equity is not None  # loaded for the match objective
            a = game.equity.value(state.mode, state.scores, 1 - state.starter, state.round + 1)
            return _inside(ROUND_POV.view(a, seen_by=0, player=player))
        return _scale(game, state, 1.0 if state.round_winner == player else 0.0)
    # A reroll, a Joker or a Queen in progress ends the mover's turn without a capture (the
    # Queen's second choice is only a reroll): the opponent makes the next decision that can.
    to_move = 1 - state.mover if state.phase in (ROLL, JOKER_ROLL, QUEEN_ROLL, QUEEN_SECOND) else state.mover
    p_mover = (estimate or round_win_estimate)(state, to_move)
    if in_match:
        assert game.equity is not None
        a_wins, b_wins = game.equity.after_round(state)
        p_a = ROUND_POV.view(p_mover, seen_by=to_move, player=0)
        return _inside(ROUND_POV.view(p_a * a_wins + (1.0 - p_a) * b_wins, seen_by=0, player=player))
    return _scale(game, state, ROUND_POV.view(p_mover, seen_by=to_move, player=player))


def _inside(p: float) -> float:
    """A match-winning chance as a leaf value: kept off the bounds, so a leaf is never a result."""
    return min(1.0 - MATCH_CLIP, max(MATCH_CLIP, p))


def round_win_estimate(state: RolldownState, to_move: int) -> float:
    """Estimated probability that ``to_move``, whose decision comes next, wins the round."""
    mine, theirs = state.dice[to_move], state.dice[1 - to_move]
    my_faces = [f for f in mine if f]
    their_faces = [f for f in theirs if f]
    n = len(my_faces)
    if n == 1 and not state.first_turn[to_move] and my_faces[0] >= their_faces[0]:
        return LAST_PAIR_WIN
    # My threats less theirs: a tie is a threat both ways and cancels, so only strict order counts.
    their_faces.sort()
    threat_margin = sum(bisect_left(their_faces, m) + bisect_right(their_faces, m) for m in my_faces) - n * n
    p = 0.5 + THREAT_WEIGHT * math.tanh(2.0 * threat_margin / (n * n))
    p += CARD_WEIGHT * (len(state.hands[to_move]) - len(state.hands[1 - to_move]))
    return min(CEILING, max(FLOOR, p))


def _scale(game: RolldownRules, state: RolldownState, p: float) -> float:
    if game.objective != "points":
        return p
    if state.phase == ROUND_OVER:
        return (2 * p - 1) * state.round_points
    sides = [DIE_SIDES[slot] for row in state.dice for slot, face in enumerate(row) if face]
    return (2 * p - 1) * 2 * sum(sides) / len(sides)
