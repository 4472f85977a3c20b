"""Dice Cards: the card interface, every library card on hand-worked positions, and the cards file."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from dicetree.solver.game import PositionError
from dicetree.solver.games import load_game
from dicetree.solver.games.dicecards import library as library_module
from dicetree.solver.games.dicecards.game import DiceCards
from dicetree.solver.games.dicecards.cards import Card, CardError, Need, Slot, parse_need, price
from dicetree.solver.games.dicecards.library import (
    BingoCard, CellsCard, CardLibrary, PolyominoCard, PyramidCard, SudokuCard, load_library, parse_library,
    register_kind,
)

LIBRARY = load_library()


def labels(card: Card, text: str) -> list[str]:
    return [slot.label for slot in card.slots(card.parse_marks(text))]


def fits(card: Card, text: str, black: int, red: int, tickets: int = 0) -> list[str]:
    """The slots of ``card`` (marks ``text``) the roll fits for at most ``tickets``."""
    return [s.label for s in card.slots(card.parse_marks(text)) if price(s.need, black, red) <= tickets]


# ----- needs and prices --------------------------------------------------------------------------------------------
def test_needs_read_and_price_every_kind():
    assert parse_need("B6") == Need("B", 6) and parse_need("4-5") == Need("P", 4, 5) == parse_need("5-4")
    assert price(parse_need("B6"), 6, 3) == 0 and price(parse_need("R6"), 6, 3) == 3
    assert price(parse_need("D3"), 6, 3) == 0 and price(parse_need("D5"), 6, 3) == 1
    assert price(parse_need("T9"), 6, 3) == 0 and price(parse_need("T12"), 6, 3) == 3
    assert price(parse_need("9"), 6, 3) == 0 and price(parse_need("5"), 6, 3) == 1  # a die 6 -> 5 (or 9 -> 5: 4)
    assert price(parse_need("1"), 1, 1) == 0 and price(parse_need("2"), 1, 1) == 0  # a die 1; the total 2
    assert price(parse_need("3-3"), 2, 4) == 2 and price(parse_need("2-4"), 4, 2) == 0  # either colour


@pytest.mark.parametrize("text, message", [
    ("13", "a number from two dice is 1..12"), ("0", "a number from two dice is 1..12"),
    ("B7", "a die shows 1..6"), ("T1", "a total of two dice is 2..12"), ("7-1", "a die shows 1..6"),
    ("X3", "is not a number of a roll"), ("06", "is not a number of a roll"), ("4-", "both dice"),
])
def test_impossible_needs_are_one_line(text, message):
    with pytest.raises(CardError, match=message):
        parse_need(text)


# ----- each library card -----------------------------------------------------------------------------------------------
def test_the_library_has_the_named_cards_and_each_states_its_source():
    names = {card.name for card in LIBRARY.cards}
    assert {"Solitaire", "Sudoku", "Bingo", "Hopscotch", "Doubles", "Yin & Yang", "Blackout Bingo",
            "Reverse Pyramid", "Polyomino Rows"} <= names
    assert all(card.source and card.assumed for card in LIBRARY.cards)
    assert LIBRARY.assumed


def test_every_card_faq_source_gives_its_address_and_the_date_read():
    faq = [card for card in LIBRARY.cards if "Card FAQ" in card.source]
    assert len(faq) == 6
    for card in faq:
        assert "Card FAQ (https://cardlords.com/index.php/dice-cards-card-faq, read 2026-12-05, card " in card.source
    assert all("Card FAQ" in card.source or "shared/rules/dice-cards.txt" in card.source for card in LIBRARY.cards)


def test_solitaire_takes_a_die_of_its_colour_never_the_total():
    sol = LIBRARY["SOL"]
    assert fits(sol, "-", 6, 3) == ["B6", "R3"]  # no 9, no Black 3, no Red 6
    assert fits(sol, "-", 6, 3, tickets=1) == ["B6", "B5", "R4", "R2", "R3"]
    assert sol.score(sol.parse_marks("B6,R5,B4")) == 5 and sol.score(sol.parse_marks("B6,R5")) == 0
    assert sol.score(sol.full) == 20 and not sol.in_order and not sol.all_or_nothing


def test_sudoku_is_all_or_nothing_and_takes_only_numbers_a_box_needs():
    sud = LIBRARY["SUD"]
    assert fits(sud, "-", 1, 2) == ["1", "2", "3"]  # either die, or the total 3
    assert fits(sud, "-", 5, 6) == ["5", "6"]  # 11 is no Sudoku number
    assert fits(sud, "66", 6, 6) == []  # both 6s are in: the roll fits no box
    assert sud.score(sud.parse_marks("11223344556")) == 0  # one box short: nothing
    assert sud.score(sud.parse_marks("112233445566")) == 25
    with pytest.raises(PositionError, match="more 6s than the boxes take"):
        sud.parse_marks("666")


def test_blackout_bingo_counts_disjoint_bingos_tickets_and_the_blackout():
    bb = LIBRARY["BB"]  # grid 4 9 6 / 11 7 3 / 8 5 10
    row_and_column = bb.parse_marks("4,9,6,11,8")  # top row and left column share the 4
    assert bb.bingos(row_and_column) == 1 and bb.score(row_and_column) == 4 and bb.tickets(row_and_column) == 1
    two_rows = bb.parse_marks("4,9,6,11,7,3")
    assert bb.score(two_rows) == 8 and bb.tickets(two_rows) == 2
    assert bb.score(bb.full) == 3 * 4 + 8 and bb.tickets(bb.full) == 3
    assert fits(bb, "-", 4, 5) == ["4", "9", "5"]  # either die or the total 9, in grid order


def test_bingo_counts_every_line_and_takes_only_totals():
    bg = LIBRARY["BG"]  # T3 T7 T11 / T6 T8 T10 / T5 T9 T4
    assert bg.score(bg.parse_marks("T3,T7,T11,T6,T5")) == 4  # a row and a column sharing a box: 2 lines
    assert fits(bg, "-", 3, 6) == ["T9"]  # a die 3 is not the total 3
    assert bg.score(bg.full) == 16


def test_hopscotch_is_hopped_in_order_with_double_squares():
    hop = LIBRARY["HOP"]
    assert labels(hop, "-") == ["1"] and labels(hop, "1,2,3") == ["4-5"]
    assert fits(hop, "1,2,3", 5, 4) == ["4-5"] and fits(hop, "1,2,3", 4, 4) == []
    assert fits(hop, "1,2,3", 4, 4, tickets=1) == ["4-5"]
    assert hop.score(hop.parse_marks("1,2,3,4-5")) == 5 and hop.score(hop.full) == 18
    with pytest.raises(PositionError, match="skips a cell"):
        hop.parse_marks("1,3")


def test_doubles_need_both_dice_alike():
    dbl = LIBRARY["DBL"]
    assert fits(dbl, "-", 2, 2) == ["2-2"] and fits(dbl, "-", 2, 3) == []
    assert fits(dbl, "-", 2, 3, tickets=1) == ["2-2", "3-3"]
    assert dbl.score(dbl.parse_marks("1-1,6-6")) == 6 and dbl.score(dbl.full) == 23


def test_yin_and_yang_pairs_opposite_faces_of_the_two_colours():
    yy = LIBRARY["YY"]
    assert fits(yy, "-", 3, 4) == ["B3", "R4"]  # never the total 7
    assert yy.score(yy.parse_marks("B1")) == 0 and yy.score(yy.parse_marks("B1,R6")) == 3
    assert yy.score(yy.parse_marks("B1,R5")) == 0 and yy.score(yy.full) == 18


def test_reverse_pyramid_rows_share_one_sum():
    rp = LIBRARY["RP"]  # rows of 1, 2, 3, 4 boxes, bottom first; 2, 3, 4, 6 points
    marks = rp.parse_marks("1:7/1:3/-/-")
    assert rp.score(marks) == 2
    row2 = [label for label in labels(rp, "1:7/1:3/-/-") if label.startswith("2:")]
    assert row2 == ["2:4"]  # row 2 can only be completed at 7
    assert "4:12" not in labels(rp, "1:7/-/-/-")  # a 12 leaves 3 boxes of row 4 no room under 7
    assert rp.score(rp.parse_marks("1:7/2:7/3:7/4:7")) == 15
    with pytest.raises(PositionError, match="can no longer add up to one sum"):
        rp.parse_marks("1:7/2:8/-/-")
    with pytest.raises(PositionError, match="can no longer add up to one sum"):
        rp.parse_marks("-/-/-/1:11")  # three more boxes of at least 1: 14 > 12


def test_polyomino_rows_fill_by_gravity_from_single_dice():
    pr = LIBRARY["PR"]
    assert fits(pr, "-", 1, 2) == ["D1", "D2"]  # never the total 3
    assert pr.score(pr.parse_marks("111110")) == 0 and pr.score(pr.parse_marks("211111")) == 4
    assert labels(pr, "222220") == ["D6"] and pr.score((2,) * 6) == 12


def test_every_card_reads_back_every_state_it_can_reach():
    for card in LIBRARY.cards:
        for count, marks in enumerate(card.reachable()):
            assert card.parse_marks(card.format_marks(marks)) == marks
            assert all(card.tickets(slot.after) >= card.tickets(marks) for slot in card.slots(marks))
            if count > 800:
                break


# ----- a card of one's own ---------------------------------------------------------------------------------------------
class OneBox(Card):
    """A plug-in: one box taking a Black 6, worth 1 point."""

    kind = "one-box"

    def start(self):
        return 0

    def slots(self, marks):
        return () if marks else (Slot("B6", Need("B", 6), 1),)

    def raw_points(self, marks):
        return marks

    def is_complete(self, marks):
        return marks == 1

    def rolls_used(self, marks):
        return marks

    def format_marks(self, marks):
        return str(marks)

    def parse_marks(self, text):
        return self.whole_marks(text, 0, 1)

    @classmethod
    def from_entry(cls, entry):
        card = cls(**entry.common())
        return card


def test_a_plug_in_card_joins_the_library_and_a_registered_kind_a_cards_file(monkeypatch):
    library = LIBRARY.with_cards(OneBox("One Box", "ONE"))
    assert library["ONE"].max_points() == 1
    data = {"cards": [{"kind": "one-box", "name": "One Box", "code": "ONE"}]}
    with pytest.raises(CardError, match="unknown kind 'one-box'"):
        parse_library(data, "mine.json")
    monkeypatch.setattr(library_module, "KINDS", dict(library_module.KINDS))
    register_kind(OneBox)
    assert parse_library(data, "mine.json")["ONE"].slots(0)[0].need == Need("B", 6)
    with pytest.raises(CardError, match="the kind 'cells' is built in"):
        register_kind(type("MyCells", (CellsCard,), {}))


PROBE = """
from pathlib import Path
Path({marker!r}).write_text("imported")
from dicetree.solver.games.dicecards.cards import Card, Need, Slot
from dicetree.solver.games.dicecards.library import register_kind

@register_kind
class Sixes(Card):
    kind = "sixes"
    @classmethod
    def from_entry(cls, entry):
        return cls(**entry.common())
    def start(self): return 0
    def slots(self, marks): return (Slot("T12", Need("T", 12), marks + 1),) if marks < 2 else ()
    def raw_points(self, marks): return 3 * marks
    def is_complete(self, marks): return marks == 2
    def rolls_used(self, marks): return marks
    def format_marks(self, marks): return str(marks)
    def parse_marks(self, text): return self.whole_marks(text, 0, 2)
"""


def _probe_module(tmp_path, monkeypatch, name: str) -> Path:
    """A module on the path that leaves a marker file when it is imported, and registers the kind 'sixes'."""
    marker = tmp_path / f"{name}.imported"
    (tmp_path / f"{name}.py").write_text(PROBE.format(marker=str(marker)))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(library_module, "KINDS", dict(library_module.KINDS))
    return marker


def test_a_cards_file_naming_a_module_is_one_line_and_imports_nothing(tmp_path, monkeypatch):
    marker = _probe_module(tmp_path, monkeypatch, "dicecards_probe_never")
    path = tmp_path / "cards.json"
    for kind in ("dicecards_probe_never:Sixes", "dicecards_probe_never", "os:system"):
        path.write_text(json.dumps({"cards": [{"kind": kind, "name": "Sixes", "code": "SIX"}]}))
        with pytest.raises(CardError, match=f"unknown kind '{kind}'.*never imports code") as error:
            load_library(path)
        assert "\n" not in str(error.value)
    assert "dicecards_probe_never" not in sys.modules and not marker.exists()


def test_card_code_comes_in_by_the_card_kinds_option(tmp_path, monkeypatch):
    marker = _probe_module(tmp_path, monkeypatch, "dicecards_probe_kinds")
    monkeypatch.delitem(sys.modules, "dicecards_probe_kinds", raising=False)
    path = tmp_path / "cards.json"
    path.write_text(json.dumps({"cards": [{"kind": "sixes", "name": "Sixes", "code": "SIX"}]}))
    game = DiceCards(cards=str(path), card_kinds="dicecards_probe_kinds")
    assert marker.exists() and game.library["SIX"].max_points() == 6
    assert load_game("dicecards", cards=str(path), card_kinds="dicecards_probe_kinds").library["SIX"].kind == "sixes"
    with pytest.raises(CardError, match="^card_kinds: cannot import 'no_such_module_here'"):
        DiceCards(card_kinds="no_such_module_here")
    with pytest.raises(CardError, match="is not a Python module name"):
        DiceCards(card_kinds="os:system")
    with pytest.raises(CardError, match="registers no card kind"):
        DiceCards(card_kinds="json")


def test_a_cells_card_may_repeat_a_number():
    card = CellsCard("Sevens", "SEV", ["T7 T7", "T7 B1"], points=[2, 3])
    assert card.texts == ("T7", "T7.2", "T7.3", "B1")
    assert labels(card, "-") == ["T7", "T7.3", "B1"]  # the twin T7.2 waits for T7: one state per set of marks
    assert labels(card, "T7") == ["T7.2", "T7.3", "B1"]
    assert card.score(card.parse_marks("T7,T7.2")) == 2 and card.score(card.parse_marks("T7.3,B1")) == 3
    assert card.parse_marks("t7,T7.2") == 0b11
    assert sum(1 for _ in card.reachable()) == 12  # (0, 1 or 2 of the first group) x (each of the second's 4)
    for text, message in (("T7.2", "marks T7.2 before T7"), ("T7.9", "names no cell"), ("T7.1", "names no cell"),
                          ("T7,T7", "marks T7 twice")):
        with pytest.raises(PositionError, match=message):
            card.parse_marks(text)
    game = DiceCards(cards=LIBRARY.with_cards(card))
    state = game.parse("SEV=T7 t0 1/50 B3R4")
    assert [game.action_name(state, a) for a in game.legal_actions(state)] == ["SEV:T7.2", "SEV:T7.3"]


def test_a_cells_card_of_ones_own_needs_no_code():
    data = {"cards": [{"kind": "cells", "name": "Boxcars", "code": "BOX", "groups": ["T12"], "points": [4]}]}
    card = parse_library(data, "mine.json")["BOX"]
    assert isinstance(card, CellsCard) and card.score(1) == 4 and card.max_points() == 4


# ----- the cards file ---------------------------------------------------------------------------------------------------
def _entry(**changes):
    entry = {"kind": "bingo", "name": "Bingo", "code": "BG", "grid": ["2 3 4", "5 6 7", "8 9 10"], "line_points": 2}
    entry.update(changes)
    return {k: v for k, v in entry.items() if v is not None}


@pytest.mark.parametrize("cards, message", [
    ([_entry(grid=["2 3 13", "4 5 6", "7 8 9"])], r"card 1 \(Bingo\): grid: '13': a number from two dice is 1..12"),
    ([_entry(line_points=-1)], "line_points: -1 is negative"),
    ([_entry(), _entry(code="BG2")], "two cards are named 'Bingo'"),
    ([_entry(), _entry(name="Other")], "two cards have the code BG"),
    ([_entry(kind="lotto")], "unknown kind 'lotto'"),
    ([_entry(colour="red")], "unknown key 'colour'"),
    ([_entry(in_order=True)], "a bingo card has no in-order rule"),
    ([_entry(grid=["2 3", "4 5 6"])], "the grid must be a square"),
    ([_entry(grid=["2 3", "3 5"])], "cell 3 appears twice"),
    ([_entry(code="bg")], "its code is 1 to 5 capital letters"),
    ([_entry(line_points=True)], "line_points must be a whole number"),
    ([{"kind": "cells", "name": "C", "code": "C", "groups": ["B6 R5"], "points": [1, 2]}], "points has 2 numbers"),
    ([{"kind": "sudoku", "name": "S", "code": "S", "need": [1, 1, 1], "points": 3}], "need has 3 numbers"),
    ([{"kind": "pyramid", "name": "P", "code": "P", "rows": [1, 13], "points": [1, 1]}], "rows are 1 to 12 boxes"),
    ([{"kind": "cells", "name": "C", "code": "C", "groups": ["B6"], "points": [1]}, "x"], "card 2 .* a JSON object"),
    ([{"kind": "no.such.module:Card", "name": "C", "code": "C"}], "unknown kind 'no.such.module:Card'"),
])
def test_impossible_card_files_are_one_line(cards, message):
    with pytest.raises(CardError, match=message) as error:
        parse_library({"cards": cards}, "mine.json")
    assert "\n" not in str(error.value) and str(error.value).startswith("cards file 'mine.json'")


def test_card_files_on_disk(tmp_path):
    path = tmp_path / "cards.json"
    path.write_text(json.dumps({"cards": [_entry()]}))
    assert [card.code for card in load_library(path).cards] == ["BG"]
    path.write_text('{"cards": [], "cards": []}')
    with pytest.raises(CardError, match="the key 'cards' appears twice"):
        load_library(path)
    path.write_text("{not json")
    with pytest.raises(CardError, match="is not JSON"):
        load_library(path)
    path.write_text('{"cards": []}')
    with pytest.raises(CardError, match="at least one card"):
        load_library(path)
    with pytest.raises(CardError, match="cannot read the cards file"):
        load_library(tmp_path / "missing.json")


def test_the_kinds_can_be_built_in_python():
    assert BingoCard("B", "B", ["2 3", "4 5"], line_points=1).max_points() == 2  # two rows (or columns) at most
    assert BingoCard("B", "B", ["2 3", "4 5"], line_points=1, disjoint=False).max_points() == 6  # every line
    assert SudokuCard("S", "S", [1, 0, 0, 0, 0, 0], 2).max_points() == 2
    assert PyramidCard("P", "P", [1], [3]).max_points() == 3
    assert PolyominoCard("R", "R", [1, 1]).max_points() == 2
    with pytest.raises(CardError, match="at least one card"):
        CardLibrary([])
