"""Roll For It! Deluxe Edition (Chris Leder; Calliope Games) on the :mod:`dicetree.solver.game` interface.

Rules text: ``shared/rules/roll-for-it-deluxe.txt``. Two to eight players, six dice each, race to
score 40 points by matching rolled dice to the images of face-up cards.

The model
---------
* **Cards** come from a deck file (``--rule deck=FILE``; :mod:`dicetree.solver.games.rollforit.deck`; the
  default's faces are an assumption, see its ``assumptions``). The gold deck (``decks=auto``) for
  2 to 4 players, gold and silver together for 5 to 8; three cards face up, four with five or more.
* **A turn**: the decision before the roll (``turn``): roll every free die, or Take Back first
  (every die off the cards, then roll six). The roll is a chance node over the multisets of faces
  (equal dice are interchangeable). Then the mover places (``place``): each decision either scores
  one card (puts exactly its open images on it; its points are the mover's and **every die on it
  goes back to its owner, the other players' included**), after which a new card is flipped (a
  chance node over the deck's remaining cards, in unknown order) and the dice still unplaced may go
  on any face-up card, the new one included; or places dice that score nothing (possibly none) and
  ends the turn. The turn passes to the left (seat A, B, C, ... in order).
* A player's dice on a card fill that player's images only; several players may sit on one card.

Readings of what the rules text leaves open (each a rule option)
----------------------------------------------------------------
1. ``opening`` — ties of the opening roll (all roll two dice, the highest total starts):
   ``reroll`` (default) the tied players roll again until one is highest, so every player starts
   with probability 1/N; ``seat``: the tied player seated first (A before B ...) starts.
2. ``stuck`` — a player with all six dice on cards (no die to roll): ``pass`` (default) they may
   Take Back or pass the turn (roll no die); ``take_back``: they must Take Back.
3. ``deck_out`` — the deck runs out: ``play_on`` (default) a scored card is not replaced and play
   goes on with fewer cards; when no card is left face up the most points win (shared on a tie);
   ``end``: the game ends the moment a scored card cannot be replaced, the most points win.
4. ``ending`` — "the first player to score 40 or more wins": ``at_once`` (default) the game ends
   the moment a card brings a player to 40, mid-turn; ``end_of_round``: the round is played out
   (up to the player before the one who started) and the most points win, shared on a tie.

Values are win chances (a shared win counts each winner's share), so returns add up to 1.

Usage::

    >>> game = RollForIt()
    >>> state = game.parse(game.example_position())
    >>> [game.action_name(state, a) for a in game.legal_actions(state)]
    ['roll', 'take back']
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from dicetree.solver.game import CardList, Game, GameError, GameType, IllegalMoveError, TurnLimit, ValueBounds
from dicetree.solver.games.rollforit import evaluation, notation, rules
from dicetree.solver.games.rollforit.board import board as draw_board
from dicetree.solver.games.rollforit.strategies import strategy_kinds
from dicetree.solver.games.rollforit.deck import DECK_NAMES, DEFAULT_DECK_FILE, Card, Deck, load_deck
from dicetree.solver.games.rollforit.state import (
    DICE_PER_PLAYER, FACES, MAX_PLAYERS, MIN_PLAYERS, ROLL, TARGET, TURN, Complete, Flip, Place, Roll, RollForItState,
    TurnChoice, faces_text,
)
from dicetree.solver.rule_options import RuleOption, shorten

if TYPE_CHECKING:  # the study loads numpy and the figures: it loads when asked for, not with the game
    from dicetree.solver.games.rollforit.study import CardChaseStudy

READINGS = {
    "opening": ("ties of the opening roll", {
        "reroll": "the tied players roll again: every player starts with probability 1/N",
        "seat": "the tied player seated first (A, then B, ...) starts"}),
    "stuck": ("a player with all six dice on cards", {
        "pass": "may Take Back or pass the turn (no die to roll)",
        "take_back": "must Take Back"}),
    "deck_out": ("the deck running out", {
        "play_on": "a scored card is not replaced; with no card left face up the most points win",
        "end": "the game ends when a scored card cannot be replaced; the most points win"}),
    "ending": ("reaching 40 points", {
        "at_once": "ends the game at once, mid-turn",
        "end_of_round": "the round is played out (to the player before the first), then the most points win"}),
}
"""Each open reading: what it is about, and what each choice means (the first is the default)."""


def _reading_option(name: str) -> RuleOption:
    about, choices = READINGS[name]
    default = next(iter(choices))
    return RuleOption(name, "choice", default, f"{about}: " + "; ".join(f"{k} = {v}" for k, v in choices.items()),
                      choices=tuple(choices))


class RollForIt(Game):
    """Roll For It! Deluxe with fixed options (see the module notes for the readings)."""

    game_type = GameType(short_name="rollforit", long_name="Roll For It! Deluxe", min_players=MIN_PLAYERS,
                         max_players=MAX_PLAYERS, constant_sum=1.0, study="card chase")
    rule_options = (
        RuleOption("players", "int", 2, "how many players", low=MIN_PLAYERS, high=MAX_PLAYERS),
        RuleOption("deck", "file", None, "a JSON deck file (each card's id, deck, points and dice images)"),
        RuleOption("decks", "choice", "auto", "the decks in play: auto = gold for 2-4 players, gold and silver "
                   "for 5-8", choices=("auto", "gold", "silver", "both")),
        _reading_option("opening"),
        _reading_option("stuck"),
        _reading_option("deck_out"),
        _reading_option("ending"),
    )
    # the rule options, set from their parsed values in __init__
    players: int
    decks: str
    opening: str
    stuck: str
    deck_out: str
    ending: str

    def __init__(self, players: int = 2, deck: str | Deck | None = None, decks: str = "auto",
                 opening: str = "reroll", stuck: str = "pass", deck_out: str = "play_on", ending: str = "at_once"):
        given = {"players": players, "decks": decks, "opening": opening, "stuck": stuck, "deck_out": deck_out,
                 "ending": ending}
        for option in self.rule_options:
            if option.name in given:
                setattr(self, option.name, option.parse(given[option.name]))
        self.num_players = self.players
        self.deck_file = deck if isinstance(deck, Deck) else load_deck(deck)
        self.deck = None if deck is None else self.deck_file.source
        if self.decks == "auto":
            self.in_play = DECK_NAMES if self.num_players >= 5 else DECK_NAMES[:1]
        elif self.decks == "both":
            self.in_play = DECK_NAMES
        else:
            if self.num_players >= 5:
                raise GameError(f"{self.num_players} players play with both decks combined (the rules): "
                                f"decks={self.decks} is for 2 to 4 players")
            self.in_play = (self.decks,)
        self.slots = 4 if self.num_players >= 5 else 3
        self.cards: tuple[Card, ...] = self.deck_file.of(self.in_play)
        if len(self.cards) < self.slots:
            raise GameError(f"deck file {self.deck_file.source} has {len(self.cards)} {' and '.join(self.in_play)} "
                            f"cards: a game lays {self.slots} face up")
        self.card_index = {card.id: i for i, card in enumerate(self.cards)}
        self.race = evaluation.Race(self)

    def __repr__(self) -> str:
        return (f"RollForIt(players={self.num_players}, decks={self.decks!r}, opening={self.opening!r}, "
                f"stuck={self.stuck!r}, deck_out={self.deck_out!r}, ending={self.ending!r})")

    # ----- facts used by the notation and output --------------------------------------------------
    def describe_decks(self) -> str:
        names = " and ".join(self.in_play)
        return f"{names} deck{'s' if len(self.in_play) > 1 else ''} ({len(self.cards)} cards)"

    # ----- what the deck says of itself (Game.assumptions, warnings, card_list) --------------------
    def assumptions(self) -> tuple[str, ...]:
        """The default deck's faces are invented: said wherever its values are shown."""
        if not self.deck_file.default:
            return ()
        return (
            "the cards' dice faces are assumed: the rule text prints no card and no public source found lists "
            "the printed faces (point values and image counts follow public descriptions); give the real cards "
            "with --rule deck=FILE (`dicetree rules rollforit --cards` lists these and names the file to copy)",
        )

    def warnings(self) -> tuple[str, ...]:
        """A deck whose cards in play cannot bring anyone to 40 points."""
        total = sum(card.points for card in self.cards)
        if total >= TARGET:
            return ()
        return (f"deck file {self.deck_file.source}: the {self.describe_decks()} total {total} points, so no "
                f"player can reach {TARGET}: every game ends when the cards run out (deck_out={self.deck_out})",)

    def card_list(self) -> CardList:
        """Every card of the deck file: its id, deck, points, dice faces and whether it is in play."""
        deck = self.deck_file
        rows = tuple((card.id, card.deck, card.points, " ".join(map(str, card.dice)),
                      "yes" if card.deck in self.in_play else "no") for card in deck.cards)
        source = str(DEFAULT_DECK_FILE) if deck.default else deck.source
        notes = tuple(f"source: {text}" for text in deck.sources) + \
            tuple(f"assumed: {text}" for text in deck.assumptions) + self.assumptions() + self.warnings()
        return CardList(("id", "deck", "points", "dice", "in play"), rows, source, notes)

    def card_index_anywhere(self, card_id: str) -> bool:
        """Whether the deck file has a card ``card_id`` (perhaps in a deck not in play)."""
        return any(card.id == card_id for card in self.deck_file.cards)

    def readings(self) -> list[str]:
        """One line per open reading: the option, its value here, and what that means."""
        return [f"{name}={getattr(self, name)} ({about}): {choices[getattr(self, name)]} "
                f"(other: {', '.join(k for k in choices if k != getattr(self, name))})"
                for name, (about, choices) in READINGS.items()]

    def opening_chances(self) -> tuple[float, ...]:
        """Each seat's chance to take the first turn (the opening roll of two dice each, ties by ``opening``)."""
        n = self.num_players
        if self.opening == "reroll":
            return (1.0 / n,) * n
        totals = {t: (6 - abs(t - 7)) / 36 for t in range(2, 13)}
        below = {t: sum(p for u, p in totals.items() if u < t) for t in totals}
        chances = []
        for seat in range(n):
            chances.append(sum(p * below[t] ** seat * (below[t] + p) ** (n - 1 - seat) for t, p in totals.items()))
        return tuple(chances)

    # ----- the interface ------------------------------------------------------------------------------
    def current_player(self, state: RollForItState) -> int:
        return rules.current_player(state)

    def legal_actions(self, state: RollForItState) -> list:
        return rules.legal_actions(state, self)

    def action_name(self, state: RollForItState, action) -> str:
        if isinstance(action, TurnChoice):
            if action.take_back:
                return "take back"
            return "pass" if rules.dice_on_cards(state, state.mover) == DICE_PER_PLAYER else "roll"
        if isinstance(action, Complete):
            return f"score {self.cards[action.card].id}"
        if isinstance(action, Place):
            return ",".join(f"{self.cards[c].id}:{faces_text(f)}" for c, f in action.placements) or "none"
        if isinstance(action, Roll):
            return f"roll {faces_text(action.faces)}"
        if isinstance(action, Flip):
            return f"flip {self.cards[action.card].id}"
        raise GameError(f"not a Roll For It! action: {action!r}")

    def parse_action(self, state: RollForItState, text: str):
        """The action named ``text`` (as :meth:`action_name` writes it), if legal here; else one line."""
        wanted = " ".join(text.split())
        action = self._read_action(state, wanted)
        if action is None or not rules.is_legal(state, action, self):
            names = [self.action_name(state, a) for a in
                     (self.legal_actions(state) or [o for o, _ in self.chance_outcomes(state)])[:12]]
            raise IllegalMoveError(f"'{shorten(wanted)}' is not legal here; legal: {', '.join(names)}"
                                   f"{', ...' if len(names) == 12 else ''}")
        return action

    def _read_action(self, state: RollForItState, text: str):
        words = text.split(" ")
        if text in ("roll", "pass", "take back"):
            return TurnChoice(text == "take back")
        if text == "none":
            return Place(())
        if len(words) == 2 and words[0] == "score" and words[1] in self.card_index:
            card = self.card_index[words[1]]
            if card in state.cards:
                return Complete(card, rules.open_images(state, state.cards.index(card), state.mover, self))
            return None
        if len(words) == 2 and words[0] == "flip" and words[1] in self.card_index:
            return Flip(self.card_index[words[1]])
        if len(words) == 2 and words[0] == "roll" and words[1].isdigit():
            return Roll(tuple(sorted(int(c) for c in words[1])))
        if len(words) == 1:
            placements = []
            for part in text.split(","):
                card_id, colon, faces = part.partition(":")
                if not colon or card_id not in self.card_index or not faces.isdigit():
                    return None
                placements.append((self.card_index[card_id], tuple(sorted(int(c) for c in faces))))
            placements.sort()
            return Place(tuple(placements))
        return None

    def chance_outcomes(self, state: RollForItState) -> Sequence[tuple]:
        return rules.chance_outcomes(state, self)

    def sample_chance(self, state: RollForItState, rng: random.Random):
        if state.phase == ROLL:
            free = DICE_PER_PLAYER - rules.dice_on_cards(state, state.mover)
            return Roll(tuple(sorted(rng.randint(1, FACES) for _ in range(free))))
        return Flip(rng.choice(rules.deck_cards(state.deck)))

    def apply(self, state: RollForItState, action) -> RollForItState:
        return rules.apply(state, action, self)

    def returns(self, state: RollForItState) -> tuple[float, ...]:
        return rules.returns(state, self)

    def value_bounds(self) -> ValueBounds:
        return ValueBounds(0.0, 1.0)

    def key(self, state: RollForItState) -> RollForItState:
        return rules.key(state, self)

    def parse(self, text: str) -> RollForItState:
        return notation.parse_position(text, self)

    def format(self, state: RollForItState) -> str:
        return notation.format_position(state, self)

    def notation_help(self) -> str:
        return notation.notation_help(self)

    def evaluate(self, state: RollForItState, player: int) -> float:
        return evaluation.evaluate(state, player, self)

    def describe_value(self) -> str:
        return "probability that the mover wins the game (a shared win counts its share)"

    board = draw_board  # Game.board: the position drawn (board.py)

    def is_progress(self, state: RollForItState, action) -> bool:
        return rules.is_progress(state, action)

    def study(self) -> CardChaseStudy:
        from dicetree.solver.games.rollforit.study import CardChaseStudy

        return CardChaseStudy(self)

    def strategies(self) -> tuple:
        return strategy_kinds(self.num_players)

    turn_limit = TurnLimit(turns=2_000, unit="turns", scoring="the most points win (shared on a tie)")

    def starts_turn(self, state: RollForItState) -> bool:
        return state.phase == TURN

    def stopped_returns(self, state: RollForItState) -> tuple[float, ...]:
        """A played game stopped at its turn limit (players who keep passing): the most points win, shared."""
        return rules.returns(rules.game_over(state, rules.most_points(state.scores)), self)

    def new_game(self, rng: random.Random) -> RollForItState:
        """Shuffled decks, the face-up cards dealt, and who starts drawn by the opening roll."""
        order = list(range(len(self.cards)))
        rng.shuffle(order)
        face_up = tuple(sorted(order[: self.slots]))
        deck = sum(1 << i for i in order[self.slots:])
        starter = rng.choices(range(self.num_players), weights=self.opening_chances())[0]
        n = self.num_players
        return RollForItState(cards=face_up, placed=(((),) * n,) * self.slots, scores=(0,) * n, deck=deck,
                              mover=starter, phase=TURN, starter=starter if self.ending == "end_of_round" else 0)

    # ----- examples ---------------------------------------------------------------------------------
    def example_position(self) -> str:
        return self.notation_examples()[0][0]

    def notation_examples(self) -> list[tuple[str, str]]:
        """Positions for the help and --example (the default deck's; a plain start for another deck)."""
        n = self.num_players
        scored = {0: ["G27", "G20", "G01", "G02", "G03"], 1: ["G28", "G19", "G04"]}
        up: dict[str, dict[int, tuple[int, ...]]] = {"G15": {0: (3, 5), 1: (4,)}, "G24": {1: (1, 2)},
                                                     "G29": {0: (4, 4, 5)}}
        if n >= 5:
            up["S30"] = {2: (1, 2, 3)}
        if n >= 3:
            up["G24"][2] = (3, 4)
        try:
            state = self._position(up, scored, mover=0)
        except (KeyError, ValueError):
            return [(self._plain_start(), "a start: every card but the first face-up ones in the deck, A to move")]
        back = state._replace(placed=tuple(tuple(() if p == 0 else f for p, f in enumerate(on_card))
                                          for on_card in state.placed))
        return [
            (self.format(state), "A (31 points) to move with one die free: roll it (a 4 scores G15, 5 points) or "
                                 "take back all six for G24 (1,2,3,4: 10 points, enough to win) or G29"),
            (self.format(back._replace(phase=rules.PLACE, rolled=(3, 4, 5, 5, 6, 6))),
             "A took back and rolled 3,4,5,5,6,6: score G15 (3,4,5) and place the rest, or start on G29"),
            (self.format(state._replace(phase=rules.ROLL)), "chance: A rolls the one free die"),
        ]

    def _position(self, up: dict, scored: dict, mover: int) -> RollForItState:
        n = self.num_players
        index = self.card_index
        cards = sorted(index[c] for c in up)
        placed = tuple(tuple(up[self.cards[c].id].get(p, ()) for p in range(n)) for c in cards)
        scores = tuple(sum(self.cards[index[c]].points for c in scored.get(p, [])) for p in range(n))
        gone = set(cards) | {index[c] for cs in scored.values() for c in cs}
        deck = sum(1 << i for i in range(len(self.cards)) if i not in gone)
        state = RollForItState(tuple(cards), placed, scores, deck, mover, TURN)
        return self.parse(self.format(state))

    def _plain_start(self) -> str:
        n = self.num_players
        cards = tuple(range(self.slots))
        deck = sum(1 << i for i in range(self.slots, len(self.cards)))
        return self.format(RollForItState(cards, (((),) * n,) * self.slots, (0,) * n, deck, 0, TURN))

