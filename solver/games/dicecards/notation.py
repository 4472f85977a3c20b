"""Dice Cards position strings: parse, check, and write the canonical form.

``notation_help(game)`` is what ``dicetree notation dicecards`` prints (with the game's cards).
"""

from __future__ import annotations

import re
from typing import Protocol

from dicetree.solver.game import PositionError
from dicetree.solver.games.dicecards.cards import Card
from dicetree.solver.games.dicecards.library import CardLibrary
from dicetree.solver.games.dicecards.rules import rolls_recorded, tickets_given
from dicetree.solver.games.dicecards.state import COPIES, FACES, HAND, OVER, RECORD, ROLL, DiceCardsState, Seat
from dicetree.solver.players import LETTERS, player_name, player_seat
from dicetree.solver.rule_options import shorten


class CardGame(Protocol):
    """What the notation needs of the game: its library of cards and its number of rolls."""

    library: CardLibrary
    rolls: int
    players: int

    def example_position(self) -> str: ...

NOTATION_HELP = """\
Dice Cards position notation (one player's; several players: below). Space-separated fields:

  <card>=<marks> ... t<tickets> <rolls done>/<rolls> <next>

  card=marks  each of the player's cards (1 to {hand}, each at most once), by code, with what is
              marked on it, - for nothing; the marks are the card's own (below)
  t<tickets>  unused tickets (never more than the cards have given)
  done/rolls  rolls done so far (recorded or lost) of the game's {rolls} (rule option rolls)
  next        roll       the dice are rolled next
              B<b>R<r>   the Black die shows b and the Red die r: a record is due
              end        all rolls are done (done = rolls)

A lost roll (one recorded on no card) is only counted in <rolls done>: the rolls recorded on the
cards never exceed it, and the difference is the lost ones.

Several players on the same rolls (rule option players=N): each player's cards and tickets, A
first, separated by |, then the shared fields; while a record is due, a last B, C, ... says who
records next (players record each roll in seat order, and <rolls done> counts it once the last
has; b and P2 are read as B too):

  <A card>=<marks> ... t<tickets> | <B card>=<marks> ... t<tickets> <done>/<rolls> <next> [<player>]

  A player's cards are all different; two players may hold the same card, three may not (the box
  has two copies of each). Who wins: the highest final score, then the most unused tickets, else
  a shared win (objective=win, the default for several players: the value is that chance).

Readings where the rules text is silent (solver/games/dicecards/game.py says more):
  - one player's cards (1 to {hand}, all different); the Black and Red dice are told apart
  - a roll that fits a card as rolled must be recorded; one that fits only with tickets may be
    bought or lost; one that fits nothing is lost (rule option may_pass: any roll may be lost)
  - a ticket moves the recorded number by 1 (a die stays 1..6, a total 2..12; both dice: the
    changes add up); tickets a card gives come after the record; 2 unused are 1 point at the end
  - All-or-Nothing cards score only complete; in-order cards offer only their next box

Moves (one record a roll): CODE:where, e.g. SOL:R3 (the Red 3 on Solitaire), DBL:4-4 (both dice),
  RP:2:9 (a 9 in row 2 of Reverse Pyramid), with +Nt when N tickets change the dice (SOL:R5+2t:
  a Red 3 made a 5); lose (nothing recorded: only when no card takes the roll as rolled, unless
  rule option may_pass). Chance outcomes: B6R3.

Marks of each kind of card:
  cells, bingo  the marked boxes by their number, comma-separated: B6,R5 / 4-5,6 / 9,11
  sudoku        the numbers recorded, as digits in increasing order: 1146
  pyramid       each row, bottom first, as filled:sum or -, joined by /: 1:9/2:9/1:4/-
  polyomino     each column's height, one digit each: 102000

The cards ({source}):
{cards}

Examples:
  {example}
      the example position (dicetree best dicecards --example)
  SOL=- SUD=- BB=- HOP=- DBL=- YY=- t0 0/50 roll
      a fresh game with six cards
  HOP=1,2,3 t0 3/50 B4R5
      Hopscotch alone, three squares hopped: 4-5 takes both dice
  HOP=1,2 DBL=4-4 t0 | HOP=1 BB=4,9 t0 3/50 B4R4 B
      two players (players=2): A has recorded the roll of 4 and 4 on Doubles, B records it next
"""

_TICKETS = re.compile(r"t(0|[1-9][0-9]{0,3})$")
_ROLLS = re.compile(r"(0|[1-9][0-9]{0,3})/(0|[1-9][0-9]{0,3})$")
_DICE = re.compile(r"B([1-9])R([1-9])$")


def notation_help(game: CardGame) -> str:
    """The notation's documentation with the game's own cards listed."""
    cards = "\n".join(f"  {card.describe()}" for card in game.library.cards)
    return NOTATION_HELP.format(hand=HAND, rolls=game.rolls, source=game.library.source, cards=cards,
                                example=game.example_position())


def parse_position(text: str, game: CardGame) -> DiceCardsState:
    """The state ``text`` describes; :class:`PositionError` (one line) if malformed or impossible."""
    segments = str(text).split("|")
    players = game.players
    if len(segments) != players:
        held = "1 player's hand" if len(segments) == 1 else f"{len(segments)} players' hands (separated by |)"
        raise PositionError(f"the position has {held}, the game {players} (rule option players={len(segments)} "
                            "plays that game)")
    words = segments[-1].split()
    turn = 0
    named = player_seat(words[-1], len(LETTERS)) if players > 1 and words else None
    if named is not None:
        turn = named
        words.pop()
        if turn >= players:
            raise PositionError(f"{player_name(turn)} records next, but the game has {players} players")
    if len(words) < 4:
        raise PositionError(f"a Dice Cards position is <card>=<marks> ... t<tickets> <done>/<rolls> <next>, "
                            f"not '{shorten(text)}' (see `dicetree notation dicecards`)")
    *card_words, ticket_word, rolls_word, next_word = words
    hands = [segment.split() for segment in segments[:-1]] + [card_words + [ticket_word]]
    parsed = [_parse_hand(hand, game, player, players) for player, hand in enumerate(hands)]
    found = _ROLLS.match(rolls_word)
    if not found:
        raise PositionError(f"'{shorten(rolls_word)}' is not the rolls field: write <rolls done>/<rolls>, e.g. 12/50")
    done, total = int(found.group(1)), int(found.group(2))
    if total != game.rolls:
        raise PositionError(f"the position is for a game of {total} rolls, this game has {game.rolls} "
                            f"(rule option rolls={total} plays that game)")
    if done > total:
        raise PositionError(f"{done} rolls done of {total}")
    phase, roll = _next(next_word, done, total)
    if turn and phase != RECORD:
        raise PositionError(f"{player_name(turn)} records next, but no roll is shown: write the dice (B<black>R<red>) first")
    copies: dict[str, int] = {}
    for player, (cards, marks, tickets) in enumerate(parsed):
        recorded = rolls_recorded(cards, marks)
        allowed = done + (1 if phase == RECORD and player < turn else 0)
        whose = f"{player_name(player)}'s cards" if players > 1 else "the cards"
        if recorded > allowed:
            raise PositionError(f"{whose} hold {recorded} records after only {allowed} rolls")
        given = tickets_given(cards, marks)
        if tickets > given:
            raise PositionError(f"{tickets} unused tickets, but {whose} have given only {given}")
        for card in cards:
            copies[card.code] = copies.get(card.code, 0) + 1
            if copies[card.code] > COPIES:
                raise PositionError(f"card {card.code} is held by {copies[card.code]} players: the box has "
                                    f"{COPIES} copies of each card")
    seats = [Seat(tuple(card.code for card in cards), marks, tickets) for cards, marks, tickets in parsed]
    first = seats[0]
    return DiceCardsState(first.cards, first.marks, first.tickets, done, phase, roll, tuple(seats[1:]), turn)


def _parse_hand(words: list[str], game: CardGame, player: int, players: int) -> tuple[list[Card], tuple, int]:
    """One player's cards (with their marks) and unused tickets from their words."""
    whose = f"{player_name(player)}'s hand" if players > 1 else "the hand"
    if len(words) < 2:
        raise PositionError(f"{whose} '{shorten(' '.join(words))}' is not <card>=<marks> ... t<tickets>")
    *card_words, ticket_word = words
    codes: list[str] = []
    marks = []
    cards: list[Card] = []
    for word in card_words:
        code, equals, marked = word.partition("=")
        if not equals or not marked:
            raise PositionError(f"'{shorten(word)}' is not a card: write CODE=marks, e.g. SOL=B6,R5 or SOL=-")
        if code not in game.library:
            raise PositionError(f"unknown card '{shorten(code)}' (the cards: {game.library.codes()})")
        if code in codes:
            raise PositionError(f"card {code} appears twice (a player's cards are all different)")
        card = game.library[code]
        codes.append(code)
        cards.append(card)
        marks.append(card.parse_marks(marked))
    if len(codes) > HAND:
        raise PositionError(f"{len(codes)} cards: a player plays at most {HAND}")
    found = _TICKETS.match(ticket_word)
    if not found:
        raise PositionError(f"'{shorten(ticket_word)}' is not the tickets field: write t<unused tickets>, e.g. t2")
    return cards, tuple(marks), int(found.group(1))


def _next(word: str, done: int, total: int) -> tuple[int, tuple[int, ...]]:
    """The phase and the dice of the next field (``roll``, ``end`` or ``B6R3``)."""
    if word == "end":
        if done != total:
            raise PositionError(f"'end' after {done} of {total} rolls: the game ends after the last roll")
        return OVER, ()
    if done == total:
        raise PositionError(f"all {total} rolls are done: the next field is 'end', not '{shorten(word)}'")
    if word == "roll":
        return ROLL, ()
    found = _DICE.match(word)
    if not found:
        raise PositionError(f"'{shorten(word)}' is not what comes next: roll, end, or the dice as B<black>R<red>, "
                            "e.g. B6R3")
    black, red = int(found.group(1)), int(found.group(2))
    if black > FACES or red > FACES:
        raise PositionError(f"'{word}': a die shows 1..{FACES}")
    return RECORD, (black, red)


def format_position(state: DiceCardsState, game: CardGame) -> str:
    """The canonical position string of ``state``: ``parse_position(format_position(s)) == s``."""
    hands = []
    for player in range(state.players):
        cards, marks, tickets = state.seat(player)
        words = [f"{code}={game.library[code].format_marks(m)}" for code, m in zip(cards, marks)]
        hands.append(" ".join(words + [f"t{tickets}"]))
    if state.phase == RECORD:
        next_word = f"B{state.roll[0]}R{state.roll[1]}" + (f" {player_name(state.turn)}" if state.players > 1 else "")
    else:
        next_word = "end" if state.phase == OVER else "roll"
    return f"{' | '.join(hands)} {state.rolls}/{game.rolls} {next_word}"
