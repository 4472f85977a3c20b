"""Dice Cards rules on one player's cards: the legal records of a roll, their effect, the score.

Functions here take the player's cards as :class:`~dicetree.solver.games.dicecards.cards.Card` objects
(the game resolves a state's codes through its library), so the exact solver and the game share
them. The readings of what the rule text leaves open are listed in
:mod:`dicetree.solver.games.dicecards.game`.

>>> from dicetree.solver.games.dicecards.library import load_library
>>> library = load_library()
>>> cards = (library["SOL"], library["DBL"])
>>> marks = tuple(card.start() for card in cards)
>>> [record_name(cards, r) for r in records(cards, marks, tickets=1, roll=(6, 3))]
['SOL:B6', 'SOL:R3', 'SOL:B5+1t', 'SOL:R4+1t', 'SOL:R2+1t']
>>> [record_name(cards, r) for r in records(cards, marks, tickets=0, roll=(2, 2))]
['SOL:R2', 'SOL:B2', 'DBL:2-2']
>>> [record_name(cards, r) for r in records(cards, (cards[0].full, cards[1].full), tickets=0, roll=(2, 2))]
['lose']
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from dicetree.solver.games.dicecards.cards import Card, price
from dicetree.solver.games.dicecards.state import LOSE, LOST, TICKETS_PER_POINT, Record

Cards = Sequence[Card]
Marks = tuple[Hashable, ...]


def records(cards: Cards, marks: Marks, tickets: int, roll: tuple[int, ...], may_pass: bool = False) -> list[Record]:
    """Every legal record of ``roll`` = (black, red) with ``tickets`` to spend.

    For each card, each open slot whose need the roll fits for at most ``tickets`` (the cheapest
    way: a slot reached two ways costs the fewer tickets), free records first within a card.
    The lost roll (:data:`~dicetree.solver.games.dicecards.state.LOST`) is offered when no record is
    free (it fits no card as rolled: spending tickets is never forced), or always with ``may_pass``.
    """
    black, red = roll
    found: list[Record] = []
    free = False
    for index, (card, state) in enumerate(zip(cards, marks)):
        best: dict[Hashable, Record] = {}
        for slot in card.open_slots(state):
            cost = price(slot.need, black, red)
            if cost <= tickets:
                known = best.get(slot.after)
                if known is None or cost < known.cost:
                    best[slot.after] = Record(index, slot.label, slot.after, cost)
        options = sorted(best.values(), key=lambda record: record.cost)
        free = free or bool(options and options[0].cost == 0)
        found += options
    if may_pass or not free:
        found.append(LOST)
    return found


def record_name(cards: Cards, record: Record) -> str:
    """``CODE:label`` with ``+Nt`` for N tickets spent (``SOL:R5+2t``), or ``lose``."""
    if record.card == LOSE:
        return record.label
    spent = f"+{record.cost}t" if record.cost else ""
    return f"{cards[record.card].code}:{record.label}{spent}"


def after_record(cards: Cards, marks: Marks, tickets: int, record: Record) -> tuple[Marks, int]:
    """The marks and unused tickets after ``record``: its tickets spent, the card's new tickets given."""
    if record.card == LOSE:
        return marks, tickets
    card = cards[record.card]
    before = marks[record.card]
    given = card.tickets(record.marks) - card.tickets(before)
    return marks[:record.card] + (record.marks,) + marks[record.card + 1:], tickets - record.cost + given


def card_points(cards: Cards, marks: Marks) -> int:
    """What the cards score (All-or-Nothing applied)."""
    return sum(card.score(state) for card, state in zip(cards, marks))


def final_score(cards: Cards, marks: Marks, tickets: int) -> int:
    """The final score: the cards' points and 1 point for every 2 unused tickets."""
    return card_points(cards, marks) + tickets // TICKETS_PER_POINT


def tickets_given(cards: Cards, marks: Marks) -> int:
    """Tickets the cards have given so far (spent or not)."""
    return sum(card.tickets(state) for card, state in zip(cards, marks))


def rolls_recorded(cards: Cards, marks: Marks) -> int:
    """Rolls recorded on the cards (a lost roll is recorded nowhere)."""
    return sum(card.rolls_used(state) for card, state in zip(cards, marks))
