"""Rule options: what a game lets a user change, declared once, validated in one place.

Each game declares its options as a tuple of :class:`RuleOption` (``Game.rule_options``); the
command line's ``--rule NAME=VALUE`` and :func:`dicetree.solver.games.load_game` read values through
:func:`parse_rules`, so a bad name or value is one line naming the allowed ones, whatever the game.

Usage::

    >>> ace = RuleOption("ace", "choice", "online", "which Ace", choices=("online", "printed"))
    >>> ace.parse("printed")
    'printed'
    >>> ace.parse("both")
    Traceback (most recent call last):
    ...
    dicetree.solver.game.GameError: rule option ace must be one of online, printed, not 'both'
    >>> RuleOption("players", "int", 2, "how many", low=2, high=6).parse("3")
    3
    >>> RuleOption("mulligan", "bool", False, "the variant").parse("yes")
    True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dicetree.solver.game import GameError

KINDS = ("bool", "int", "choice", "file", "folder", "text")
TRUE_WORDS = ("true", "yes", "on", "1")
FALSE_WORDS = ("false", "no", "off", "0")
MAX_ECHO = 60
"""An error message quotes at most this many characters of what the user typed."""


def shorten(text: str, limit: int = MAX_ECHO) -> str:
    """``text`` cut to ``limit`` characters for an error message (a very long input is not echoed whole).

    >>> shorten("x" * 100, 10)
    'xxxxxxxxx…'
    """
    text = str(text)
    return text if len(text) <= limit else text[: limit - 1] + "…"


@dataclass(frozen=True)
class RuleOption:
    """One rule option of a game: its name, kind, default, one line of help and what it allows.

    ``kind`` is one of :data:`KINDS`: ``bool`` (true/false, yes/no, on/off, 1/0), ``int`` (within
    ``low`` .. ``high``), ``choice`` (one of ``choices``), ``file`` (a path to a data file the game
    validates when it reads it), ``folder`` (a folder the game writes its files into, made if need be) or ``text`` (free text the game checks itself, e.g. a list of dice).
    """

    name: str
    kind: str
    default: Any
    help: str
    choices: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"rule option {self.name}: unknown kind {self.kind!r}")
        if self.kind == "choice" and not self.choices:
            raise ValueError(f"rule option {self.name}: a choice needs its choices")

    def allowed(self) -> str:
        """What values it takes, for help and errors."""
        if self.kind == "bool":
            return "true or false"
        if self.kind == "int":
            low = "" if self.low is None else f"{self.low:,}"
            high = "" if self.high is None else f"{self.high:,}"
            return f"a whole number {low}..{high}" if low or high else "a whole number"
        if self.kind == "choice":
            return ", ".join(self.choices)
        if self.kind in ("file", "folder"):
            return f"a {self.kind}"
        return "text"

    def parse(self, value: Any) -> Any:
        """The option's value from text (or an already typed value); :class:`GameError` if it is not allowed."""
        if not isinstance(value, str):
            return self._check_typed(value)
        text = value.strip()
        if self.kind == "bool":
            if text.lower() in TRUE_WORDS:
                return True
            if text.lower() in FALSE_WORDS:
                return False
            raise GameError(f"rule option {self.name} must be true or false, not '{shorten(text)}'")
        if self.kind == "int":
            digits = text[1:] if text[:1] in "+-" else text
            if not digits.isdigit():
                raise GameError(f"rule option {self.name} must be {self.allowed()}, not '{shorten(text)}'")
            value = self._check_typed(int(text))
            if len(digits) > 1 and digits[0] == "0":  # one way to write a number, as in the notations
                raise GameError(f"rule option {self.name}: write {value}, not '{shorten(text)}'")
            return value
        if self.kind == "choice":
            if text not in self.choices:
                raise GameError(f"rule option {self.name} must be one of {self.allowed()}, not '{shorten(text)}'")
            return text
        if self.kind in ("file", "folder"):
            if not text:
                raise GameError(f"rule option {self.name} needs a {self.kind} name")
            return text
        return text

    def _check_typed(self, value: Any) -> Any:
        if value is None and self.default is None:
            return None
        if self.kind == "bool" and isinstance(value, bool):
            return value
        if self.kind == "int" and isinstance(value, int) and not isinstance(value, bool):
            if (self.low is not None and value < self.low) or (self.high is not None and value > self.high):
                raise GameError(f"rule option {self.name} must be {self.allowed()}, not {value}")
            return value
        if self.kind == "choice" and value in self.choices:
            return value
        if self.kind in ("file", "folder", "text") and value is not None:
            return value  # a path, or data already loaded: the game validates it
        raise GameError(f"rule option {self.name} must be {self.allowed()}, not {shorten(repr(value))}")

    def describe(self) -> str:
        """One line for ``dicetree rules GAME``."""
        default = "true" if self.default is True else "false" if self.default is False else self.default
        default = "(built in)" if default is None else default
        return f"{self.name:<20} {self.allowed():<28} default {default}: {self.help}"


def parse_rules(game_name: str, declared: Sequence[RuleOption], given: Mapping[str, Any]) -> dict[str, Any]:
    """Every given option checked against ``declared`` and typed (unknown names: one line naming the
    known ones). Options not given are left out, so the game's own defaults apply."""
    by_name = {option.name: option for option in declared}
    typed: dict[str, Any] = {}
    for name, value in given.items():
        if name not in by_name:
            known = ", ".join(by_name) or "none"
            raise GameError(f"{game_name} has no rule option '{shorten(name)}' (its options: {known})")
        typed[name] = by_name[name].parse(value)
    return typed


def split_rule(text: str) -> tuple[str, str]:
    """``NAME=VALUE`` from ``--rule`` as a pair; one line if it is not of that form.

    >>> split_rule("players = 3")
    ('players', '3')
    """
    name, equals, value = text.partition("=")
    if not equals or not name.strip():
        raise GameError(f"--rule takes NAME=VALUE, e.g. --rule players=3, not '{shorten(text)}'")
    return name.strip(), value.strip()
