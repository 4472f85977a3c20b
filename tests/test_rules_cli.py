"""Rule options as users meet them: declared per game, listed by `dicetree rules`, validated from the
declaration (`--rule NAME=VALUE`), and no command offering an option that only one game understands."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from dicetree.cli.main import main
from dicetree.solver.game import GameError
from dicetree.solver.games import game_class, game_names, load_game
from dicetree.solver.rule_options import RuleOption, parse_rules, shorten, split_rule


def run(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.mark.parametrize("name", game_names())
def test_rules_lists_every_declared_option_with_its_default(name):
    result = run("rules", name)
    assert result.exit_code == 0, result.output
    kind = game_class(name).game_type
    assert kind.long_name in result.output and kind.players_text() in result.output
    for option in game_class(name).rule_options:
        assert option.name in result.output and option.help in result.output


def test_a_traceback_became_one_line_exact_chance_limit():
    """`--rule exact_chance_limit=10` used to end in a traceback; it is a declared int option now."""
    ok = run("best", "rolldown", "d8:5/d6:3 a -/-", "--depth", "1", "--rule", "exact_chance_limit=10")
    assert ok.exit_code == 0, ok.output
    bad = run("best", "rolldown", "d8:5/d6:3 a -/-", "--depth", "1", "--rule", "exact_chance_limit=ten")
    assert bad.exit_code == 2 and "Traceback" not in bad.output
    assert bad.output.strip() == "error: rule option exact_chance_limit must be a whole number 1..1,000,000,000, not 'ten'"


@pytest.mark.parametrize("args, line", [
    (["--rule", "ace=both"], "error: rule option ace must be one of online, printed, not 'both'"),
    (["--rule", "colour=red"], "error: rolldown has no rule option 'colour' (its options: ace, objective, exact_chance_limit, evaluation, horizon)"),
    (["--rule", "ace"], "error: --rule takes NAME=VALUE, e.g. --rule players=3, not 'ace'"),
])
def test_bad_rule_options_get_one_line_naming_what_is_allowed(args, line):
    result = run("best", "rolldown", "--example", "--depth", "1", *args)
    assert result.exit_code == 2
    assert result.output.strip() == line


def test_one_game_options_are_rule_options_not_command_options():
    for command in ("best", "tree", "duel"):
        help_text = run(command, "--help").output
        assert "--ace" not in help_text and "--objective" not in help_text, command
    printed = run("best", "rolldown", "d8:5/d6:3 a -/-", "--depth", "1", "--rule", "ace=printed")
    assert printed.exit_code == 0, printed.output
    refused = run("best", "dicegeddon", "--example", "--depth", "1", "--rule", "ace=printed")
    assert refused.exit_code == 2 and "dicegeddon has no rule option 'ace'" in refused.output


@pytest.mark.parametrize("args", [
    ["best", "rolldown", "-/- a -/- - first50 24-0 2 -/- b won:a:24"],
    ["best", "dicefights", "-3:0:5:111 20:0:5:111 roll"],
    ["tree", "rolldown", "-/- a -/- - first50 24-0 2 -/- b won:a:24", "-o", "x.svg"],
])
def test_positions_beginning_with_a_dash_are_positions(args):
    result = run(*args)
    assert "No such option" not in result.output
    assert result.output.startswith("error: ") and result.exit_code == 2  # the game's own message


def test_a_mistyped_option_is_still_an_unknown_option():
    result = run("best", "rolldown", "--example", "--dpeth", "2")
    assert result.exit_code == 2 and "No such option" in result.output


def test_rule_option_values():
    players = RuleOption("players", "int", 2, "how many", low=2, high=6)
    assert players.parse("6") == 6 and players.parse(3) == 3
    for bad in ("7", "1", "two", "2.5", ""):
        with pytest.raises(GameError, match="players must be a whole number 2..6"):
            players.parse(bad)
    flag = RuleOption("mulligan", "bool", False, "the variant")
    assert [flag.parse(t) for t in ("true", "Yes", "on", "1", "false", "no", "OFF", "0")] == [True] * 4 + [False] * 4
    with pytest.raises(GameError, match="mulligan must be true or false, not 'maybe'"):
        flag.parse("maybe")
    with pytest.raises(GameError, match="write 20, not '020'"):
        RuleOption("army_size", "int", 20, "size", low=4).parse("020")
    assert split_rule(" faces = my.json ") == ("faces", "my.json")
    with pytest.raises(GameError, match="no rule option 'x'"):
        parse_rules("g", (players,), {"x": "1"})


def test_every_boolean_option_of_every_game_reads_the_same_words():
    for name in game_names():
        for option in game_class(name).rule_options:
            if option.kind == "bool":
                assert getattr(load_game(name, **{option.name: "yes"}), option.name) is True
                assert getattr(load_game(name, **{option.name: "off"}), option.name) is False
                with pytest.raises(GameError, match="must be true or false"):
                    load_game(name, **{option.name: "maybe"})


def test_long_input_is_cut_in_messages():
    assert len(shorten("x" * 10_000)) == 60
    result = run("best", "rolldown", "d4:1" + ",d6:1" * 3000 + "/d4:1 a -/-", "--depth", "1")
    assert result.exit_code == 2 and len(result.output) < 400, result.output[:500]
    result = run("best", "rolldown", "--example", "--rule", "ace=" + "p" * 5000)
    assert result.exit_code == 2 and len(result.output) < 200
