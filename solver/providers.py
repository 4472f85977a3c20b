"""What a game may provide beyond the rules: stored exact values and a study of its own.

A game's type names them (``GameType.exact_values``, ``GameType.study``) and the game hands them
out (``Game.exact_provider``, ``Game.study``). The command line drives them through these small
protocols alone, so ``dicetree tablebase`` and ``dicetree study`` know no game: their options
are the parameters the provider declares (:class:`dicetree.solver.rule_options.RuleOption` records, shown
as ``--army-size N``, ``--mulligan``, ``--no-chains``), and what they print is the provider's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from dicetree.solver.game import State
from dicetree.solver.rule_options import RuleOption

Progress = Callable[[int, int, str], None]
"""``progress(done, total, label)``: how far a long computation is (``total`` 0 while unknown)."""


class Study(Protocol):
    """A game's own study (``dicetree study GAME``): exact or sampled values over a family of positions."""

    title: str
    """What it studies, in a few words (the command's help)."""
    parameters: tuple[RuleOption, ...]
    """Its options (``dicetree study GAME --help``)."""

    def run(self, values: Mapping[str, Any], progress: Progress | None = None) -> list[str]:
        """Run with the parameters' ``values`` (every declared name, defaults filled in); the lines
        to print (what was found, the files written). Bad values: a one-line :class:`GameError`."""


def study_stem(output: Any) -> Path:
    """Where a study writing several files puts them: ``-o FOLDER`` (made if missing), each file
    named after the folder: ``-o d8-d6-K`` writes ``d8-d6-K/d8-d6-K.csv``, ``d8-d6-K/d8-d6-K.png``, ...
    """
    folder = Path(str(output))
    folder.mkdir(parents=False, exist_ok=True)
    return folder / folder.name


class ExactValues(Protocol):
    """Stored exact values of a game (endgame tables): probed by the search, built ahead, inspected."""

    build_parameters: tuple[RuleOption, ...]
    """The options of ``dicetree tablebase build GAME`` (how much to build)."""

    def oracle(self) -> Callable[[State], float | None] | None:
        """A probe of player 0's exact value for the search (``None`` for a position not covered), or
        ``None`` while nothing is stored."""

    def exact_result(self, state: State, progress: Progress | None = None):
        """Every move's exact value at ``state`` as a :class:`dicetree.solver.search.SearchResult` (building
        small missing tables first, telling ``progress`` how far the building is); a one-line
        :class:`GameError` where it cannot."""

    def build_from(self, values: Mapping[str, Any], progress: Progress | None = None,
                   say: Callable[[str], None] | None = None) -> list[str]:
        """Build (and store) what ``values`` ask for; the lines to print. The plan (what will be built,
        how much of it is stored already: ``resuming: K of N tables already stored``) goes to
        ``say(line)`` before the work starts (:func:`announce`)."""

    def damaged(self) -> list[tuple[str, str]]:
        """Every stored file whose values fail their checksums (each read in full): ``(path, problem)``.
        Removing them makes the next build solve them again."""

    def answer(self, state: State) -> dict[str, Any]:
        """The stored exact answer for ``state``: ``position``, ``value``, ``moves`` (best first, each
        ``move``, ``value``, ``loss``) and whatever the provider adds; :class:`GameError` if not stored."""

    def describe_answer(self, answer: Mapping[str, Any]) -> str:
        """``answer`` as text."""

    def stats(self) -> list[str]:
        """What is stored, as lines (counts, the game's own statistics, build time, size, damaged files)."""

    def stored(self) -> list[StoredSet]:
        """What is stored, as figures (``tablebase stats --json``): one record per set of stored values
        (RolldownBeta keeps one per Ace variant), none while nothing is stored."""


class StoredSet(NamedTuple):
    """One set of stored values: its ``name``, its ``folder`` and the store's totals over it
    (:class:`dicetree.cache.store.StoreStats`: tables, positions, build time, bytes, damaged files)."""

    name: str
    folder: str
    figures: Any


def announce(plan: list[str], say: Callable[[str], None] | None) -> list[str]:
    """A build's plan, known before it starts: handed to ``say`` at once where there is one (the
    command prints it before the work, so a stopped build has said what it was doing), else
    returned to open the build's lines.

    >>> announce(["Building 3 tables"], None)
    ['Building 3 tables']
    >>> announce(["Building 3 tables"], print)
    Building 3 tables
    []
    """
    if say is None:
        return list(plan)
    for line in plan:
        say(line)
    return []
