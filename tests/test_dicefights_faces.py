"""The Core Die face layout: the default (an assumption), a user's own file, and every validation error."""

from __future__ import annotations

import json

import pytest

from dicetree.solver.games.dicefights import DiceFights
from dicetree.solver.games.dicefights.faces import DEFAULT_FACES_FILE, FacesError, load_faces, roll_distribution


def write(tmp_path, content) -> str:
    path = tmp_path / "faces.json"
    path.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")
    return str(path)


def test_the_default_is_two_of_each_symbol_and_says_it_is_assumed():
    layout = load_faces()
    assert layout.core_weights == (2, 2, 2) and layout.box_weights == (2, 2, 2)
    assert layout.assumed and not layout.box_given and layout.source == str(DEFAULT_FACES_FILE)
    assert "an assumption" in layout.describe()


def test_a_users_file_changes_the_dice(tmp_path):
    path = write(tmp_path, {"core": ["sword"] * 4 + ["shield", "gold"], "box": ["gold"] * 6})
    game = DiceFights(faces=path)
    assert game.layout.core_weights == (4, 1, 1) and game.layout.box_weights == (0, 0, 6)
    assert dict(roll_distribution(1, game.layout.core_weights)) == pytest.approx(
        {(1, 0, 0): 4 / 6, (0, 1, 0): 1 / 6, (0, 0, 1): 1 / 6})
    box_roll = game.chance_outcomes(game.parse("20:0:5+:111 20:0:5:111 roll"))
    assert {outcome[0].box for outcome, _ in box_roll} == {2}  # the Box can only show Gold
    help_text = game.notation_help()
    assert f"from {path}" in help_text and "ASSUMPTION" not in help_text


def test_symbols_are_read_without_regard_to_case_or_spaces(tmp_path):
    layout = load_faces(write(tmp_path, {"core": [" Sword", "SHIELD", "gold", "gold", "sword", "shield"], "about": "x"}))
    assert layout.core_weights == (2, 2, 2) and not layout.assumed


@pytest.mark.parametrize(
    "content, phrase",
    [
        ("{not json", "is not JSON"),
        ([1, 2], "must hold a JSON object"),
        ({"core": ["sword"] * 6, "edge": 1}, "unknown key 'edge'"),
        ({"box": ["sword"] * 6}, "has no 'core' list"),
        ({"core": "ssswww"}, "'core' must be a list"),
        ({"core": ["sword"] * 5}, "'core' has 5 faces: a die has 6"),
        ({"core": ["sword"] * 5 + ["axe"]}, "'core' face 6 is 'axe'"),
        ({"core": ["sword"] * 6, "box": ["gold"] * 7}, "'box' has 7 faces"),
    ],
)
def test_invalid_layouts_get_a_specific_error(tmp_path, content, phrase):
    with pytest.raises(FacesError, match=phrase):
        load_faces(write(tmp_path, content))


def test_a_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(FacesError, match="cannot read the face-layout file"):
        DiceFights(faces=tmp_path / "nowhere.json")
