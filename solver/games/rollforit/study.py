"""Roll For It!'s own study (``dicetree study rollforit``): which card to chase.

For every card of the decks in play, a lone player's exact expected number of rolls (turns) to
score it with six free dice (every matching die placed: :func:`~dicetree.solver.games.rollforit.evaluation.expected_rolls`),
its points per turn, and how both change with dice already on it: for k of its images matched
(and six less k dice free), the mean over the distinct ways to have matched k of them.

>>> from dicetree.solver.games.rollforit.deck import load_deck
>>> row = chase_table(load_deck().cards[:1])[0]  # G01: two 1s, 2 points
>>> row["id"], round(row["turns"][0], 2), round(row["turns"][1], 2)  # one 1 matched: 1 / (1 - (5/6)**5)
('G01', 2.51, 1.67)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from dicetree.solver.figures import heatmap, write_csv
from dicetree.solver.game import GameError
from dicetree.solver.games.rollforit.deck import Card
from dicetree.solver.games.rollforit.evaluation import expected_rolls
from dicetree.solver.games.rollforit.rules import sub_multisets, without
from dicetree.solver.games.rollforit.state import DICE_PER_PLAYER
from dicetree.solver.providers import study_stem
from dicetree.solver.rule_options import RuleOption


def chase_table(cards: Sequence[Card]) -> list[dict[str, Any]]:
    """Per card: id, points, images, and ``turns[k]`` (mean expected turns with k images matched)."""
    rows = []
    for card in cards:
        turns = []
        for k in range(len(card.dice)):
            done = [sub for sub in sub_multisets(card.dice) if len(sub) == k]
            turns.append(sum(expected_rolls(without(card.dice, sub), DICE_PER_PLAYER - k) for sub in done) / len(done))
        rows.append({"id": card.id, "deck": card.deck, "points": card.points, "dice": card.dice, "turns": turns})
    return rows


class CardChaseStudy:
    """The study's parameters and run (:class:`dicetree.solver.providers.Study`) for one configured game."""

    title = "which card to chase: each card's exact expected turns alone, points per turn, with dice placed"
    parameters = (
        RuleOption("output", "folder", None, "FOLDER: writes NAME.csv, NAME.md and NAME.png into FOLDER, NAME being "
                   "its name"),
    )

    def __init__(self, game):
        self.game = game

    def run(self, values: Mapping[str, Any], progress=None) -> list[str]:
        rows = chase_table(self.game.cards)
        rows.sort(key=lambda r: -r["points"] / r["turns"][0])
        lines = [f"{'card':<6} {'points':>6} {'images':<8} {'turns':>6} {'pts/turn':>8}   turns with 1, 2, ... matched"]
        for r in rows:
            more = "  ".join(f"{t:5.2f}" for t in r["turns"][1:])
            lines.append(f"{r['id']:<6} {r['points']:>6} {''.join(map(str, r['dice'])):<8} {r['turns'][0]:>6.2f} "
                         f"{r['points'] / r['turns'][0]:>8.2f}   {more}")
        output = values.get("output")
        if output:
            lines += self._write(study_stem(output), rows)
        return lines

    def _write(self, stem: Path, rows: list[dict[str, Any]]) -> list[str]:
        if not stem.name:
            raise GameError("--output needs a NAME (NAME.csv, NAME.md and NAME.png are written)")
        width = max(len(r["turns"]) for r in rows)
        labels = [f"{r['id']} ({r['points']}: {''.join(map(str, r['dice']))})" for r in rows]
        table = [[r["points"], "".join(map(str, r["dice"])), *r["turns"], *[""] * (width - len(r["turns"]))]
                 for r in rows]
        csv_path = write_csv(stem.with_suffix(".csv"), table, [r["id"] for r in rows],
                             ["points", "images", *[f"turns_{k}_matched" for k in range(width)]], "card")
        rate = np.full((len(rows), width), np.nan)
        for i, r in enumerate(rows):
            rate[i, : len(r["turns"])] = [r["points"] / t for t in r["turns"]]
        heatmap(stem.with_suffix(".png"), rate, labels, list(range(width)),
                title="Points per turn of a lone chase (six dice, every match placed)",
                xlabel="images already matched (dice on the card; the rest free)", ylabel="card (points: images)",
                cbar_label="points per expected turn", cmap="viridis", vmin=0.0, vmax=float(np.nanmax(rate)),
                annotations=[["" if np.isnan(v) else f"{v:.1f}" for v in row] for row in rate])
        md = ["| card | points | images | turns | points/turn | turns with 1, 2, ... matched |", "|---|---|---|---|---|---|"]
        md += [f"| {r['id']} | {r['points']} | {''.join(map(str, r['dice']))} | {r['turns'][0]:.2f} | "
               f"{r['points'] / r['turns'][0]:.2f} | {', '.join(f'{t:.2f}' for t in r['turns'][1:])} |" for r in rows]
        stem.with_suffix(".md").write_text("\n".join(md) + "\n")
        return [f"wrote {csv_path}, {stem.with_suffix('.md')} and {stem.with_suffix('.png')}"]
