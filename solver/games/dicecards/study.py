"""Dice Cards' own study (``dicetree study dicecards``): which 6 of a deal of 9 cards to keep.

Every choice of six (84 of a deal of nine) is played ``games`` times by the approximation's
policy (:mod:`dicetree.solver.games.dicecards.approximation`) on the **same dice** (game g of every choice
rolls the same 50 rolls: common random numbers, so two choices' difference is measured far more
precisely than either mean). For each choice: the mean final score with its 95% interval, the
difference to the best choice (paired, with its interval) and the rank distribution (Lord ..
Practice Run). Then each card's expected contribution (its mean points where kept, in the best
choice and over every choice that keeps it, and how much the choices keeping it beat those that
do not), and what a ticket is worth (the best choice played again from one ticket in hand, paired
with the games without it). Pictures: the score distributions of the best, the median and the
worst choice, and the rank distribution of every choice, best first.

Each choice's games are one cell file (``NAME/cells/SOL-SUD-....json``) kept as soon as it is
played; a study stopped and run again with the same options plays only the missing choices.

Usage::

    dicetree study dicecards --seed 1 -o results/dicecards/keep-six
    dicetree study dicecards --deal SOL,SUD,BB,BG,HOP,DBL,YY,RP,PR --games 200 -o my-study

>>> from dicetree.solver.games.dicecards.game import DiceCards
>>> game = DiceCards()
>>> [card.code for card in parse_deal("sol, Sudoku,BB,BG,HOP,DBL,YY", game.library)]
['SOL', 'SUD', 'BB', 'BG', 'HOP', 'DBL', 'YY']
>>> parse_deal("SOL,SOL,BB,BG,HOP,DBL", game.library)
Traceback (most recent call last):
...
dicetree.solver.game.GameError: card SOL is dealt twice (a deal holds different cards)
"""

from __future__ import annotations

import itertools
import json
import math
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from dicetree.solver.figures import write_csv
from dicetree.solver.game import GameError
from dicetree.solver.games.dicecards.cards import Card
from dicetree.solver.games.dicecards.library import CardLibrary
from dicetree.solver.games.dicecards.state import DEAL, FACES, HAND, RANKS, ROLL, TICKETS_PER_POINT, DiceCardsState, rank_of
from dicetree.solver.games.dicecards.tables import fingerprint
from dicetree.solver.rule_options import RuleOption, shorten

MAX_DEAL = 12
"""A deal of more cards has too many choices of six to play (924 at 12)."""
Z95 = 1.96


def parse_deal(text: str, library: CardLibrary) -> list[Card]:
    """The cards of a deal written as codes or names, comma-separated; one line if any is unknown,
    repeated, or the deal is not 6 .. :data:`MAX_DEAL` cards."""
    by_name = {card.name.lower(): card for card in library.cards}
    cards: list[Card] = []
    for word in (part.strip() for part in str(text).split(",")):
        card = library.by_code.get(word.upper()) or by_name.get(word.lower())
        if card is None:
            raise GameError(f"unknown card '{shorten(word)}' in the deal (the cards: {library.codes()})")
        if card in cards:
            raise GameError(f"card {card.code} is dealt twice (a deal holds different cards)")
        cards.append(card)
    if not HAND <= len(cards) <= MAX_DEAL:
        raise GameError(f"a deal of {len(cards)} cards: give {HAND} to {MAX_DEAL} (the rules deal {DEAL})")
    return cards


def dice_of(seed: int, game: int, rolls: int) -> list[tuple[int, int]]:
    """The dice of game number ``game`` of a study with ``seed``: the same for every choice."""
    rng = random.Random(seed * 1_000_003 + game)
    return [(rng.randint(1, FACES), rng.randint(1, FACES)) for _ in range(rolls)]


def mean_interval(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% interval (normal approximation).

    >>> mean, half = mean_interval([1, 2, 3])   # sd 1: 1.96 / sqrt(3)
    >>> mean, round(half, 4)
    (2.0, 1.1316)
    """
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, math.inf
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    return mean, Z95 * sd / math.sqrt(n)


class Cell(NamedTuple):
    """One choice's games: the final ``scores``, each card's ``points`` in each game (per game, in
    the choice's card order), the tickets ``spent`` and left ``unused``."""

    codes: tuple[str, ...]
    scores: tuple[int, ...]
    points: tuple[tuple[int, ...], ...]
    spent: tuple[int, ...]
    unused: tuple[int, ...]


class KeepSixStudy:
    """The study's parameters and run (:class:`dicetree.solver.providers.Study`) for one configured game."""

    title = "which 6 of a deal of 9 cards to keep: every choice played on the same dice, its score and rank"
    parameters = (
        RuleOption("deal", "text", None, "the cards dealt, as codes or names, comma-separated (default: "
                   f"{DEAL} drawn with --seed)"),
        RuleOption("seed", "int", 1, "seed of the drawn deal and of the dice", low=0, high=2**31 - 1),
        RuleOption("games", "int", 60, "games of each choice (the same dice for every choice)", low=2, high=100_000),
        RuleOption("output", "folder", None, "a folder for the tables, pictures and report (made if "
                   "need be; FOLDER/cells keeps each choice's games: a stopped study, run again, resumes)"),
    )

    def __init__(self, game) -> None:
        self.game = game

    def run(self, values: Mapping[str, Any], progress=None) -> list[str]:
        game = self.game
        seed, games = int(values.get("seed", 1)), int(values.get("games", 60))
        if values.get("deal"):
            deal = parse_deal(values["deal"], game.library)
        elif len(game.library.cards) < DEAL:
            raise GameError(f"the cards file has {len(game.library.cards)} cards: a deal is {DEAL}")
        else:
            deal = random.Random(seed).sample(game.library.cards, DEAL)
        output = values.get("output")
        folder = Path(str(output)) if output else None
        if folder is not None and not folder.name:
            raise GameError("--output needs a NAME (a folder for the study's files)")
        game.exact_provider(values.get("tables_dir"))  # the card solutions from the store
        choices = list(itertools.combinations(deal, HAND))
        kept = 0 if folder is None else sum(self.cell_path(folder, choice).exists() for choice in choices)
        cells = []
        for done, choice in enumerate(choices):
            if progress is not None:
                progress(done, len(choices), "+".join(card.code for card in choice))
            cells.append(self.cell(choice, seed, games, folder))
        if progress is not None:
            progress(len(choices), len(choices), "the value of a ticket")
        report = Report(deal, cells, self.ticket_gain(cells, seed, games, folder), seed, games, game.rolls)
        lines = report.text()
        if kept and folder is not None:
            lines = [f"resumed: {kept} of {len(choices)} choices were read from {folder / 'cells'}"] + lines
        if folder is not None:
            lines += report.write(folder, self.command(values, deal))
        return lines

    def command(self, values: Mapping[str, Any], deal: Sequence[Card]) -> str:
        """The command that makes this study again (for its report)."""
        rules = "".join(f" --rule {name}={value}" for name, value in self.game.options().items()
                        if name in ("rolls", "may_pass", "cards") and value not in (None, False, 50))
        dealt = f" --deal {','.join(card.code for card in deal)}" if values.get("deal") else ""
        return (f"dicetree study dicecards{dealt} --seed {values.get('seed', 1)} --games {values.get('games', 60)}"
                f"{rules} -o {values.get('output')}")

    def config(self, choice: Sequence[Card], seed: int, games: int, extra_tickets: int = 0) -> dict[str, Any]:
        """What a cell's games depend on (a cell file made with another is played again)."""
        game = self.game
        return {"cards": [f"{card.code}-{fingerprint(card)}" for card in choice], "seed": seed, "games": games,
                "rolls": game.rolls, "may_pass": game.may_pass, "rollouts": "one-step policy",
                "prices": list(game.approximation.prices), "extra_tickets": extra_tickets}

    def cell(self, choice: Sequence[Card], seed: int, games: int, folder: Path | None,
             extra_tickets: int = 0) -> Cell:
        """The games of one choice: from its cell file when it was played with the same options, else
        played (and kept)."""
        codes = tuple(card.code for card in choice)
        config = self.config(choice, seed, games, extra_tickets)
        path = self.cell_path(folder, choice, extra_tickets) if folder is not None else None
        if path is not None and path.exists():
            try:
                stored = json.loads(path.read_text())
                if stored.get("config") == config:
                    return Cell(codes, *(tuple(map(_tupled, stored[key])) for key in Cell._fields[1:]))
            except (ValueError, KeyError, TypeError):
                pass  # a damaged cell is played again
        cell = self.play(choice, seed, games, extra_tickets)
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            partial = path.with_suffix(".part")
            partial.write_text(json.dumps({"config": config, **cell._asdict()}))
            partial.replace(path)  # whole or not at all: a stop mid-write leaves no half cell
        return cell

    @staticmethod
    def cell_path(folder: Path, choice: Sequence[Card], extra_tickets: int = 0) -> Path:
        """Where one choice's games are kept in the study's folder."""
        suffix = f"+t{extra_tickets}" if extra_tickets else ""
        return folder / "cells" / f"{'-'.join(card.code for card in choice)}{suffix}.json"

    def play(self, choice: Sequence[Card], seed: int, games: int, extra_tickets: int = 0) -> Cell:
        """Play one choice ``games`` times by the approximation's policy on the study's dice."""
        game = self.game
        model = game.approximation
        start = DiceCardsState(tuple(card.code for card in choice), tuple(card.start() for card in choice),
                               extra_tickets, 0, ROLL, ())
        scores, points, spent, unused = [], [], [], []
        for number in range(games):
            played = model.play(start, dice_of(seed, number, game.rolls), game.may_pass)
            scores.append(played.score)
            points.append(tuple(card.score(marks) for card, marks in zip(choice, played.marks)))
            spent.append(played.spent)
            unused.append(played.tickets)
        return Cell(start.cards, tuple(scores), tuple(points), tuple(spent), tuple(unused))

    def ticket_gain(self, cells: Sequence[Cell], seed: int, games: int, folder: Path | None) -> tuple[float, float]:
        """What one ticket in hand from the start adds to the best choice's score (paired games; a cell too)."""
        best = max(cells, key=lambda cell: sum(cell.scores))
        choice = [self.game.library[code] for code in best.codes]
        with_ticket = self.cell(choice, seed, games, folder, extra_tickets=1)
        return mean_interval([a - b for a, b in zip(with_ticket.scores, best.scores)])


def _tupled(value):
    return tuple(_tupled(v) for v in value) if isinstance(value, list) else value


class Report:
    """The study's findings from its cells: text, tables and pictures."""

    def __init__(self, deal: Sequence[Card], cells: Sequence[Cell], ticket: tuple[float, float], seed: int,
                 games: int, rolls: int) -> None:
        self.deal = list(deal)
        self.cells = sorted(cells, key=lambda cell: -sum(cell.scores))
        self.ticket = ticket
        self.seed, self.games, self.rolls = seed, games, rolls
        best = self.cells[0]
        self.rows: list[dict[str, Any]] = []  # one per choice: its figures by column name
        for place, cell in enumerate(self.cells, 1):
            mean, half = mean_interval(cell.scores)
            gap, gap_half = mean_interval([a - b for a, b in zip(cell.scores, best.scores)])
            shares = {name: sum(1 for s in cell.scores if rank_of(s) == name) / len(cell.scores) for _, name in RANKS}
            self.rows.append({"place": place, "cards": "+".join(cell.codes), "mean": mean, "interval": half,
                              "vs_best": gap, "vs_best_interval": gap_half, **shares})

    def contributions(self) -> list[dict[str, Any]]:
        """Each dealt card: mean points in the best choice, where kept, and kept minus not kept."""
        best = self.cells[0]
        rows = []
        for card in self.deal:
            kept = [cell for cell in self.cells if card.code in cell.codes]
            left = [cell for cell in self.cells if card.code not in cell.codes]
            points = [game[cell.codes.index(card.code)] for cell in kept for game in cell.points]
            in_best = ([game[best.codes.index(card.code)] for game in best.points] if card.code in best.codes else [])
            kept_mean = sum(sum(cell.scores) for cell in kept) / sum(len(cell.scores) for cell in kept)
            left_mean = (sum(sum(cell.scores) for cell in left) / sum(len(cell.scores) for cell in left)
                         if left else math.nan)
            rows.append({"card": card.code, "name": card.name, "most": card.max_points(),
                         "in_best": sum(in_best) / len(in_best) if in_best else None,
                         "where_kept": sum(points) / len(points), "kept_minus_not": kept_mean - left_mean})
        return sorted(rows, key=lambda row: -row["kept_minus_not"])

    def text(self) -> list[str]:
        best = self.cells[0]
        ticket, ticket_half = self.ticket
        lines = [f"Deal: {', '.join(f'{card.code} ({card.name})' for card in self.deal)}",
                 f"{len(self.cells)} choices of {HAND}, {self.games} games each on the same dice (seed {self.seed}), "
                 "played by the approximation's policy", "",
                 f"{'#':>3}  {'cards':<26} {'score':>6} {'±95%':>5} {'vs best':>8}  "
                 + " ".join(f"{name[:6]:>6}" for _, name in RANKS)]
        for row in self.rows:
            versus = "" if row["place"] == 1 else f"{row['vs_best']:+.2f}±{row['vs_best_interval']:.2f}"
            lines.append(f"{row['place']:>3}  {row['cards']:<26} {row['mean']:>6.2f} {row['interval']:>5.2f} "
                         f"{versus:>8}  " + " ".join(f"{row[name]:>6.0%}" for _, name in RANKS))
        lines += ["", "Each card's contribution (mean points in the best choice / wherever kept; mean score of "
                  "the choices keeping it minus those that do not):"]
        for row in self.contributions():
            in_best = "   -  " if row["in_best"] is None else f"{row['in_best']:6.2f}"
            lines.append(f"  {row['card']:<5} {row['name']:<18} {in_best} {row['where_kept']:6.2f} "
                         f"{row['kept_minus_not']:+7.2f}   (at most {row['most']})")
        used = sum(best.spent) / len(best.spent)
        kept = sum(best.unused) / len(best.unused)
        lines += ["", f"A ticket in hand from the start adds {ticket:+.2f} ± {ticket_half:.2f} points to the best "
                  f"choice (kept to the end it is {1 / TICKETS_PER_POINT:g}); its games spend {used:.1f} tickets "
                  f"and end with {kept:.1f} unused."]
        return lines

    def write(self, folder: Path, command: str) -> list[str]:
        """The tables (CSV), pictures (PNG) and report (Markdown) into ``folder``."""
        folder.mkdir(parents=True, exist_ok=True)
        columns = ["cards", "mean", "interval", "vs_best", "vs_best_interval", *(name for _, name in RANKS)]
        write_csv(folder / "choices.csv", [[row[c] for c in columns] for row in self.rows],
                  [row["place"] for row in self.rows], columns, "place")
        contributions = self.contributions()
        columns = ["name", "most", "in_best", "where_kept", "kept_minus_not"]
        write_csv(folder / "cards.csv", [["" if row[c] is None else row[c] for c in columns] for row in contributions],
                  [row["card"] for row in contributions], columns, "card")
        self.pictures(folder)
        text = "\n".join(self.text())
        (folder / "README.md").write_text(
            f"# Dice Cards: which 6 of {len(self.deal)} to keep\n\nMade by `{command}` "
            "(`solver/games/dicecards/study.py`). Every number depends on the cards file's point values, "
            "which are assumptions.\n\nFiles: `choices.csv` (every choice, best first), `cards.csv` (each "
            "card's contribution), `scores.png` (score distributions of the best, median and worst choice), "
            "`ranks.png` (every choice's rank distribution), `cells/` (each choice's games: a stopped study "
            f"resumes from them).\n\n```\n{text}\n```\n")
        return [f"wrote {folder / 'README.md'}, choices.csv, cards.csv, scores.png and ranks.png"]

    def pictures(self, folder: Path) -> None:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        picked = {"best": self.cells[0], "median": self.cells[len(self.cells) // 2], "worst": self.cells[-1]}
        fig, ax = plt.subplots(figsize=(7, 5))
        low = min(min(cell.scores) for cell in picked.values())
        high = max(max(cell.scores) for cell in picked.values())
        bins = range(low, high + 3, 2)
        for label, cell in picked.items():
            mean = sum(cell.scores) / len(cell.scores)
            ax.hist(cell.scores, bins=bins, histtype="step", linewidth=1.6,
                    label=f"{label}: {'+'.join(cell.codes)} (mean {mean:.1f})")
        for least, name in RANKS[:-1]:
            ax.axvline(least, color="grey", linewidth=0.6, linestyle=":")
            ax.text(least, ax.get_ylim()[1] * 0.98, name, rotation=90, va="top", ha="right", fontsize=7)
        ax.set_xlabel(f"final score ({self.games} games, the same dice for each choice)")
        ax.set_ylabel("games")
        ax.set_title("Dice Cards: score distributions of three choices of six", fontsize=10)
        ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.16))
        fig.tight_layout()
        fig.savefig(folder / "scores.png", dpi=110)
        plt.close(fig)

        fig, ax = plt.subplots(figsize=(max(7, 0.12 * len(self.rows) + 2), 4))
        bottom = [0.0] * len(self.rows)
        colours = plt.get_cmap("viridis")
        for step, (_, name) in enumerate(reversed(RANKS)):
            shares = [row[name] for row in self.rows]
            ax.bar(range(1, len(self.rows) + 1), shares, bottom=bottom, label=name, width=0.9,
                   color=colours(step / (len(RANKS) - 1)))
            bottom = [b + s for b, s in zip(bottom, shares)]
        ax.set_xlabel("choice, best first (choices.csv)")
        ax.set_ylabel("share of games")
        ax.set_title("Dice Cards: rank distribution of every choice of six", fontsize=10)
        handles, labels = ax.get_legend_handles_labels()
        ax.legend(handles[::-1], labels[::-1], fontsize=7, loc="center left", bbox_to_anchor=(1.0, 0.5))
        fig.tight_layout()
        fig.savefig(folder / "ranks.png", dpi=110)
        plt.close(fig)
