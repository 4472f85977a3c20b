"""How dicetree names players, in every game and every output: ``A``, ``B``, ``C``, ... by seat.

One place names them, so that no game or command says ``P1`` where another says ``A``. Output
always prints the capital letter; input reads a player in any of the forms people and older
versions wrote: the letter in either case (``a`` or ``A``) and the seat number (``P1`` or ``p1``).
A game's own notation may still write its players in lower case where capitals would read as
something else (RolldownBeta's Ace is ``A``), through :func:`notation_letter`.

    >>> [player_name(seat) for seat in range(3)]
    ['A', 'B', 'C']
    >>> player_seat("b", 2), player_seat("B", 2), player_seat("P2", 2), player_seat("c", 2)
    (1, 1, 1, None)
    >>> not_a_player("c", 2, "the mover")
    "the mover must be A or B (a or b, P1 or P2 also read), got 'c'"

A game reads a player as ``seat = player_seat(token, n)`` and, where that is None, raises its own
error (a :class:`~dicetree.solver.game.PositionError`) with :func:`not_a_player`'s text: this module
imports nothing, so that :mod:`dicetree.solver.game` itself names players through it.
"""

from __future__ import annotations

import re

LETTERS = "ABCDEFGH"
"""The players' names in seat order: seat 0 is A. No game has more than eight seats."""

_SEAT_NUMBER = re.compile(r"[pP]([1-9])$")


def player_name(seat: int) -> str:
    """The name output gives the player in ``seat`` (0 is ``'A'``)."""
    return LETTERS[seat]


def notation_letter(seat: int) -> str:
    """The lower-case letter of ``seat``, for notations whose capitals mean something else."""
    return LETTERS[seat].lower()


def player_seat(token: str, players: int) -> int | None:
    """The seat ``token`` names among ``players`` seats (``a``, ``A``, ``P1`` for seat 0), else None."""
    number = _SEAT_NUMBER.match(token)
    if number:
        seat = int(number.group(1)) - 1
    elif len(token) == 1 and token.upper() in LETTERS:
        seat = LETTERS.index(token.upper())
    else:
        return None
    return seat if seat < players else None


def not_a_player(token: str, players: int, what: str = "the player") -> str:
    """The one-line message for a ``token`` that names none of ``players`` seats (``what`` says
    which field was being read)."""
    names = _choices([player_name(p) for p in range(players)])
    lower = _choices([notation_letter(p) for p in range(players)])
    numbers = _choices([f"P{p + 1}" for p in range(players)])
    return f"{what} must be {names} ({lower}, {numbers} also read), got '{token[:40]}'"


def _choices(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


__all__ = ["LETTERS", "notation_letter", "player_name", "not_a_player", "player_seat"]
