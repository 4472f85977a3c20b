"""Every example in the README and the documentation site runs as shown.

Each ``dicetree ...`` line of a ``sh`` block (each ``$ dicetree ...`` line of an output block, and
each ``dicetree ...`` quoted in the prose, patterns such as ``dicetree rules GAME`` aside) is
parsed by the command line itself: the command, its options and their values must be accepted,
and a position it names must be one its game reads (``dicetree check``, with the same ``--rule``
options). Other commands must name scripts that exist, and every ``python`` block runs. Running
every command in full (table builds, duels) is what the README's fresh-clone check does by hand;
here each line is checked for what makes an example stale: a renamed option, a changed notation.
"""

from __future__ import annotations

import re
import shlex
import warnings
from contextlib import redirect_stdout
from io import StringIO
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from dicetree.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
SCRIPT = re.compile(r"^[\w./-]+\.(?:sh|py)$")
INLINE = re.compile(r"`(dicetree [^`]+)`")
PLACEHOLDER = re.compile(r"[A-Z]{2,}|\.\.\.")  # `dicetree rules GAME`, `--rule NAME=VALUE`: a pattern, not an example


def _blocks(path: Path) -> list[tuple[str, str]]:
    """A document's fenced blocks as (language, text)."""
    return [(match[1], match[2]) for match in FENCE.finditer(path.read_text())]


def _shell_lines(language: str, text: str) -> list[str]:
    """The commands of a block: every line of a ``sh`` block, ``$ `` lines of an output block."""
    if language in ("sh", "bash", "console"):
        return [line.removeprefix("$ ") for line in text.splitlines() if line.strip()]
    return [line[2:] for line in text.splitlines() if line.startswith("$ ")] if not language else []


def _inline_commands(path: Path) -> list[str]:
    """Commands quoted in the prose (``dicetree duel ... --workers 4``), patterns left out."""
    prose = FENCE.sub("", path.read_text())
    return [" ".join(match.split()) for match in INLINE.findall(prose) if not PLACEHOLDER.search(match)]


def _examples(kind: str) -> list[pytest.param]:
    found = []
    for path in DOCUMENTS:
        if kind == "shell":
            found += [pytest.param(line, True, id=f"{path.relative_to(ROOT)}:{line[:60]}")
                      for line in _inline_commands(path)]
        for language, text in _blocks(path):
            if kind == "python" and language == "python":
                found.append(pytest.param(text, id=f"{path.relative_to(ROOT)}:python"))
            elif kind == "shell":
                found += [pytest.param(line, False, id=f"{path.relative_to(ROOT)}:{line[:60]}")
                          for line in _shell_lines(language, text)]
    return found


def _parse(argv: list[str]) -> tuple[click.Command, click.Context] | None:
    """The subcommand and its parsed context, as ``dicetree`` would run them (None for ``-h``)."""
    try:
        command, context = main, main.make_context("dicetree", list(argv))
        while isinstance(command, click.Group):
            with warnings.catch_warnings():  # click 8.2 moved the subcommand's name out of ``protected_args``
                warnings.simplefilter("ignore", DeprecationWarning)
                rest = [*getattr(context, "protected_args", ()), *context.args]
            if not rest:
                return command, context
            name, *rest = rest
            sub = command.get_command(context, name)
            assert sub is not None, f"no command {name!r}"
            command, context = sub, sub.make_context(name, rest, parent=context)
    except click.exceptions.Exit as done:  # -h, --help
        assert done.exit_code == 0
        return None
    return command, context


@pytest.mark.parametrize(("line", "in_prose"), _examples("shell"))
def test_a_documented_command_runs_as_shown(line, in_prose):
    argv = shlex.split(line, comments=True)
    if argv[0] != "dicetree":
        missing = [word for word in argv if SCRIPT.match(word) and not (ROOT / word).exists()]
        assert not missing, f"{line!r} names files that do not exist: {missing}"
        return
    try:
        parsed = _parse(argv[1:])
    except click.MissingParameter:
        if in_prose:  # `dicetree best`: the command named in a sentence, not an example
            return
        raise
    except click.UsageError as error:
        pytest.fail(f"{line!r}: {error.format_message()}")
    if parsed is None:
        return
    params = parsed[1].params
    if params.get("position") and params.get("game_name"):
        rules = [word for rule in params.get("rules", ()) for word in ("--rule", rule)]
        result = CliRunner().invoke(main, ["check", params["game_name"], params["position"], *rules])
        assert result.exit_code == 0, f"{line!r}: {result.output.strip()}"


@pytest.mark.parametrize("code", _examples("python"))
def test_a_documented_python_example_runs(code, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DICETREE_TABLES", str(tmp_path / "tables"))
    printed = StringIO()
    with redirect_stdout(printed):
        exec(compile(code, "<example>", "exec"), {"__name__": "__example__"})
    assert printed.getvalue().strip()


def test_the_readme_is_a_front_page():
    """The README stays short: the rest is in docs/ (and every example of both is checked above)."""
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 150
    assert "bash scripts/example.sh" in readme and "bash scripts/test.sh" in readme
    assert len(_examples("shell")) > 50  # the docs' examples are found, not silently skipped
