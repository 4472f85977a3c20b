"""The explorer's page in headless Chromium (Debian's chromium and chromedriver, through Selenium):
load it, enter a position, read the ranked moves, play the best, go back, draw the tree, a bad
input's one-line message, every game's drawn position, a hidden hand face down for your seat, a
build cancelled, and the review of choices made at once. Skipped, with the reason, where no
browser is installed."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from dicetree.solver.games import game_names, load_game

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "explorer_screenshots.py"
_spec = importlib.util.spec_from_file_location("explorer_screenshots", SCRIPT)
shots = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = shots
_spec.loader.exec_module(shots)

pytestmark = pytest.mark.skipif(bool(shots.browser_missing()), reason=shots.browser_missing() or "browser present")

START = "d6:2,d8:5/d4:3,d6:6 a QK/-"
FIGHT_ENDING = "20:0:5:411=5a0d0g 1:0:5:111=0a0d5g reroll"
"""A shows 20 damage; B, on Life 1, cannot roll enough Shields: the game ends after these choices."""


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    with shots.serve(tables=tmp_path_factory.mktemp("tables")) as address:  # builds from the page go there
        driver = shots.chromium()
        try:
            yield driver, address
        finally:
            driver.quit()


def by_id(driver, name):
    from selenium.webdriver.common.by import By

    return driver.find_element(By.ID, name)


def ranked_moves(driver) -> list[str]:
    from selenium.webdriver.common.by import By

    shots.wait_for(driver, "#moves tbody tr")
    return [button.text for button in driver.find_elements(By.CSS_SELECTOR, "#moves button.move")]


def position_shown(driver, different_from: str) -> str:
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, shots.WAIT).until(lambda d: by_id(d, "position-string").text not in ("", different_from))
    return by_id(driver, "position-string").text


def enter(driver, position: str) -> None:
    box = by_id(driver, "position-input")
    box.clear()
    box.send_keys(position)
    by_id(driver, "show").click()


def test_enter_a_position_read_the_moves_play_the_best_and_go_back(page):
    driver, address = page
    driver.get(f"{address}?game=rolldown")
    first = position_shown(driver, "")  # the example
    enter(driver, START)
    shown = position_shown(driver, first)
    assert shown == START
    game = load_game("rolldown")
    state = game.parse(START)
    moves = ranked_moves(driver)
    assert sorted(moves) == sorted(game.action_name(state, a) for a in game.legal_actions(state))
    assert "position=" in driver.current_url  # the address holds the position
    driver.find_element("css selector", "#moves button.move").click()  # the best move
    after = position_shown(driver, START)
    assert after == game.format(game.apply(state, game.parse_action(state, moves[0])))
    by_id(driver, "back").click()
    assert position_shown(driver, after) == START


def test_the_tree_is_drawn_below_the_position(page):
    driver, address = page
    driver.get(f"{address}?game=rolldown&position={START}")
    best = ranked_moves(driver)[0]  # by a depth-2 search, as the tree's values (its default depth)
    by_id(driver, "tree-button").click()
    svg = shots.wait_for(driver, "#tree svg")
    assert f">{best}<" in svg.get_attribute("innerHTML")  # the best move's edge, drawn in bold


def test_a_bad_position_shows_the_one_line_message_and_keeps_the_line(page):
    driver, address = page
    driver.get(f"{address}?game=rolldown&position={START}")
    ranked_moves(driver)
    enter(driver, "zz")
    error = shots.wait_for(driver, "#error")
    assert "RolldownBeta position" in error.text and "\n" not in error.text
    assert by_id(driver, "position-string").text == START  # nothing lost


def test_players_choosing_at_once_play_their_choices(page):
    driver, address = page
    position = "3:0:5:111=2a1d2g 2:0:5:111=1a2d2g reroll"
    driver.get(f"{address}?game=dicefights&position={position}&depth=1")
    shots.wait_for(driver, "#play-joint").click()
    after = position_shown(driver, position)
    assert after != position and "Chance decides" in by_id(driver, "node-text").text


def test_the_engine_plays_its_seat_and_your_moves_are_reviewed(page):
    from selenium.webdriver.support.ui import Select, WebDriverWait

    driver, address = page
    endgame = "d8:5/d6:3 a -/-"
    driver.get(f"{address}?game=rolldown&position={endgame}")
    ranked_moves(driver)
    Select(by_id(driver, "seat-0")).select_by_value("engine")
    by_id(driver, "engine-move").click()  # A is the engine's: it takes the d6 and wins
    WebDriverWait(driver, shots.WAIT).until(lambda d: "A 1, B 0" in by_id(d, "node-text").text)
    assert not driver.find_elements("css selector", "#review table")  # you made no move
    over = by_id(driver, "position-string").text
    by_id(driver, "back").click()
    assert position_shown(driver, over) == endgame + " seen:b"  # you are B: the page shows what B sees
    Select(by_id(driver, "seat-0")).select_by_value("you")
    Select(by_id(driver, "seat-1")).select_by_value("engine")
    ranked_moves(driver)
    driver.find_element("css selector", "#moves button.move").click()  # you play the best move
    review = shots.wait_for(driver, "#review table")
    assert "d8xd6" in review.text and "best" in review.text


def test_a_studys_heatmap_reads_out_the_value_under_the_pointer(page):
    from selenium.webdriver.common.action_chains import ActionChains

    driver, address = page
    driver.get(f"{address}?game=rolldown&position={START}")
    ranked_moves(driver)
    driver.find_element("css selector", "#studies-panel summary").click()
    shots.wait_for(driver, ".study button").click()
    cell = shots.wait_for(driver, "table.heat td")
    ActionChains(driver).move_to_element(cell).perform()
    row, column, value = cell.get_attribute("title").replace(" × ", ": ").split(": ", 2)
    assert driver.find_element("css selector", ".readout").text == f"{row} × {column}: {value}" and value


@pytest.mark.parametrize("game", game_names())
def test_every_games_position_is_drawn(page, game):
    driver, address = page
    driver.get(f"{address}?game={game}")
    drawing = shots.wait_for(driver, "#board-drawing svg")
    pieces = drawing.find_elements("css selector", "g.die, g.card")
    assert pieces and drawing.size["height"] > 50
    assert not by_id(driver, "fields").is_displayed()  # the drawing replaces the position's text fields


def test_your_seat_sees_the_engines_hand_face_down(page):
    from selenium.webdriver.support.ui import Select, WebDriverWait

    driver, address = page
    position = "d6:2,d8:5/d4:3,d6:6 a QK/5"
    driver.get(f"{address}?game=rolldown&position={position}&depth=1")  # A's view is searched for each hand B may hold
    ranked_moves(driver)
    Select(by_id(driver, "seat-1")).select_by_value("engine")  # you play A against the engine's B
    stack = shots.wait_for(driver, "#board-drawing g.card.face-down")
    assert "×1" in stack.text
    assert by_id(driver, "position-string").text == "d6:2,d8:5/d4:3,d6:6 a QK/?"  # B's 5 is not shown
    assert "QK%2F%3F" in driver.current_url and "QK%2F5" not in driver.current_url  # nor in the address
    by_id(driver, "tree-button").click()  # nor does the tree show it: it is drawn from what A sees
    assert "hides cards" in shots.wait_for(driver, "#error").text
    by_id(driver, "all-seeing").click()  # for study: everything
    WebDriverWait(driver, shots.WAIT).until(lambda d: by_id(d, "position-string").text == position)
    assert not driver.find_elements("css selector", "#board-drawing g.card.face-down")
    by_id(driver, "all-seeing").click()
    WebDriverWait(driver, shots.WAIT).until(lambda d: "QK%2F%3F" in d.current_url)
    driver.refresh()  # this tab kept the whole position behind the view in its address: the game goes on
    WebDriverWait(driver, shots.WAIT).until(lambda d: by_id(d, "position-string").text == position)


def test_a_build_from_the_page_shows_progress_and_is_cancelled(page):
    from selenium.webdriver.support.ui import WebDriverWait

    driver, address = page
    driver.get(f"{address}?game=rolldown&position={START}")
    ranked_moves(driver)
    box = driver.find_element("css selector", ".build-parameter[name=dice]")
    box.send_keys("3")  # every table of up to 3 dice a side: minutes of work
    by_id(driver, "build-button").click()
    WebDriverWait(driver, shots.WAIT).until(lambda d: by_id(d, "build-progress").text != "")
    assert by_id(driver, "build-cancel").is_enabled()
    by_id(driver, "build-cancel").click()
    WebDriverWait(driver, shots.WAIT).until(lambda d: not by_id(d, "build-cancel").is_enabled())
    assert by_id(driver, "build-lines").text == "cancelled" and by_id(driver, "build-progress").text == ""
    assert not by_id(driver, "error").is_displayed()


def test_your_choices_made_at_once_are_reviewed(page):
    from selenium.webdriver.support.ui import Select

    driver, address = page
    driver.get(f"{address}?game=dicefights&position={FIGHT_ENDING}&depth=1")
    shots.wait_for(driver, "#play-joint")
    Select(by_id(driver, "seat-1")).select_by_value("engine")
    Select(shots.wait_for(driver, ".joint-choice")).select_by_visible_text("keep")
    by_id(driver, "play-joint").click()
    review = shots.wait_for(driver, "#review table")
    assert "A keep" in review.text and "Total loss" in by_id(driver, "review").text


def test_a_roll_for_it_card_shows_its_dice_and_losses_are_never_negative(page):
    driver, address = page
    driver.get(f"{address}?game=rollforit&depth=1")
    drawing = shots.wait_for(driver, "#board-drawing svg")
    printed = drawing.find_elements("css selector", "g.card-die")
    assert len(printed) == 3 + 4 + 6  # the example's G15, G24 and G29, drawn as dice
    ranked_moves(driver)
    losses = [cell.text for cell in driver.find_elements("css selector", "#moves td.loss") if cell.text]
    assert losses and not any(text.startswith("-") for text in losses)
