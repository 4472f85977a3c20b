"""Decision trees (solver/tree.py, solver/render.py, `dicetree tree`): the DOT file read back.

The DOT output is parsed back into a networkx graph by a small reader below (the DOT that the
graphviz package writes: statements of nodes, edges and attribute lists), so the checks are on
what a user gets, not on the builder's own graph.
"""

from __future__ import annotations

import doctest
import math
import re
import shutil
from pathlib import Path

import networkx as nx
import pytest
from click.testing import CliRunner

import dicetree.solver.render as render_module
import dicetree.solver.tree as tree_module
from dicetree.cli.main import main
from dicetree.solver.exact import solve
from dicetree.solver.game import GameError
from dicetree.solver.games import load_game
from dicetree.solver.render import to_graphviz, write_tree
from dicetree.solver.search import expectimax
from dicetree.solver.tree import TreeOptions, build_tree

GAME = load_game("rolldown", evaluation="heuristic")  # the figures below were worked with it
ENDGAME = "d8:5/d6:3 a -/-"  # A can capture the last pair at once
TWO_DICE = "d6:2,d8:5/d4:3,d6:6 a QK/-"
MIDDLEGAME = "d4:1,d8:5,d12:7/d6:2,d10:3,d20:15 a K/5"


# ----- a reader for the DOT that graphviz writes ------------------------------------------------
_TOKEN = re.compile(r'\s*(?:(->|--|[\[\]=;,{}])|("(?:[^"\\]|\\.)*")|([^\s\[\]=;,{}"<>]+)|(<))', re.S)


def _tokens(text: str) -> list[str]:
    tokens, i = [], 0
    while i < len(text):
        if text[i:].strip() == "":
            break
        match = _TOKEN.match(text, i)
        assert match, f"cannot read DOT at {text[i:i + 40]!r}"
        if match.group(4):  # an HTML-like label: up to the matching '>'
            start, depth, j = match.end() - 1, 0, match.end() - 1
            while True:
                depth += {"<": 1, ">": -1}.get(text[j], 0)
                j += 1
                if depth == 0:
                    break
            tokens.append(text[start:j])
            i = j
            continue
        token = next(g for g in match.groups() if g is not None)
        if token.startswith('"'):
            token = token[1:-1].replace('\\"', '"')
        tokens.append(token)
        i = match.end()
    return tokens


def read_dot(text: str) -> nx.DiGraph:
    """Nodes and edges of a DOT digraph with their attributes (as strings)."""
    tokens = _tokens(text)
    assert tokens[0] == "digraph" and tokens[2] == "{" and tokens[-1] == "}"
    tokens = tokens[3:-1]
    graph = nx.DiGraph()
    i = 0

    def attributes(i: int) -> tuple[dict[str, str], int]:
        attrs: dict[str, str] = {}
        if i < len(tokens) and tokens[i] == "[":
            i += 1
            while tokens[i] != "]":
                key, eq, value = tokens[i], tokens[i + 1], tokens[i + 2]
                assert eq == "="
                attrs[key] = value
                i += 3
                if tokens[i] in (",", ";"):
                    i += 1
            i += 1
        return attrs, i

    while i < len(tokens):
        head = tokens[i]
        if head == ";":
            i += 1
        elif head in ("graph", "node", "edge"):
            _, i = attributes(i + 1)
        elif i + 1 < len(tokens) and tokens[i + 1] == "=":
            graph.graph[head] = tokens[i + 2]
            i += 3
        elif i + 1 < len(tokens) and tokens[i + 1] == "->":
            attrs, j = attributes(i + 3)
            graph.add_edge(head, tokens[i + 2], **attrs)
            i = j
        else:
            attrs, i = attributes(i + 1)
            graph.add_node(head, **attrs)
    return graph


def dot_of(position: str, **options) -> nx.DiGraph:
    tree = build_tree(GAME, GAME.parse(position), TreeOptions(**options))
    return read_dot(to_graphviz(tree).source)


def tree_nodes(graph: nx.DiGraph, kind: str) -> list[str]:
    return [n for n, d in graph.nodes(data=True) if d.get("kind") == kind]


def check_structure(graph: nx.DiGraph, top: int | None = None) -> None:
    """A tree from node 0; every chance node's outcomes sum to 1; moves ranked with one best."""
    tree = graph.subgraph([n for n in graph if n != "legend"])
    assert nx.is_arborescence(tree) and [n for n in tree if tree.in_degree(n) == 0] == ["0"]
    for node in tree_nodes(graph, "chance"):
        probabilities = [float(d["probability"]) for _, _, d in graph.out_edges(node, data=True)]
        assert math.isclose(math.fsum(probabilities), 1.0, abs_tol=1e-12), (node, probabilities)
        assert all(p > 0 for p in probabilities)
    for node in tree_nodes(graph, "decision"):
        edges = [d for _, _, d in graph.out_edges(node, data=True)]
        assert edges and all(d["kind"] == "move" for d in edges)
        assert sum(d.get("penwidth") == "2.4" for d in edges) == 1  # the best move stands out
        assert min(float(d["loss"]) for d in edges) == 0.0 and all(float(d["loss"]) >= 0 for d in edges)
        if top is not None:
            assert len(edges) <= top
    for node in tree_nodes(graph, "horizon") + tree_nodes(graph, "end") + tree_nodes(graph, "other"):
        assert graph.out_degree(node) == 0
    for _, data in tree.nodes(data=True):
        assert 0.0 <= float(data["value"]) <= 1.0 and data["fillcolor"].startswith("#")


# ----- structure ------------------------------------------------------------------------------------
def test_dot_reads_back_as_a_tree_whose_chance_outcomes_sum_to_one():
    graph = dot_of(MIDDLEGAME)
    check_structure(graph, top=TreeOptions().top)
    assert tree_nodes(graph, "chance") and tree_nodes(graph, "horizon")
    assert "legend" in graph and "better for A" in graph.nodes["legend"]["label"]


def test_node_values_are_the_search_values():
    """The root's value is the depth-N expectiminimax value; a chance node's is its outcomes' mean."""
    state = GAME.parse(TWO_DICE)
    tree = build_tree(GAME, state, TreeOptions(depth=2, top=None, min_prob=0))
    graph = tree.graph
    assert graph.nodes[tree.root]["value"] == pytest.approx(expectimax(GAME, state, 2), abs=1e-12)
    for node, data in graph.nodes(data=True):
        if data["kind"] == "chance":
            mean = math.fsum(d["probability"] * d["value"] for _, _, d in graph.out_edges(node, data=True))
            assert data["value"] == pytest.approx(mean, abs=1e-12)
        if data["kind"] == "decision":
            moves = [d for _, _, d in graph.out_edges(node, data=True)]
            assert data["moves"] == data["shown"] == len(moves) == len(GAME.legal_actions(GAME.parse(data["position"])))


def test_equal_values_are_grouped_with_summed_probability():
    """A rerolls B's last die; then B moves, and captures A's d8 (a 5) on a 5 or a 6."""
    graph = dot_of(ENDGAME, depth=1, top=None, min_prob=0)
    labels = [re.sub(r"<[^>]*>", "", d["label"][1:-1]) for _, _, d in graph.edges(data=True) if d["kind"] == "outcome"]
    assert "b.d6=1-4 p 2/3" in labels and "b.d6=5,6 p 1/3" in labels


def test_exact_tree_takes_the_exact_values():
    state = GAME.parse("d8:2/d6:5 a K/-")
    tree = build_tree(GAME, state, TreeOptions(exact=True, depth=3))
    solution = solve(GAME, state)
    for _, data in tree.graph.nodes(data=True):
        if data["kind"] in ("decision", "horizon", "end", "chance"):
            assert data["value"] == pytest.approx(solution.value(GAME.parse(data["position"])), abs=1e-12)
    check_structure(read_dot(to_graphviz(tree).source), top=TreeOptions().top)


# ----- --top and --min-prob ---------------------------------------------------------------------------
def test_top_keeps_the_k_best_moves():
    everything = build_tree(GAME, GAME.parse(TWO_DICE), TreeOptions(depth=1, top=None, min_prob=0))
    one = dot_of(TWO_DICE, depth=1, top=1, min_prob=0)
    check_structure(one, top=1)
    ranked = [d["name"] for _, _, d in everything.out_edges(everything.root)]
    assert len(ranked) == len(GAME.legal_actions(GAME.parse(TWO_DICE)))
    (best,) = [d for u, _, d in one.out_edges("0", data=True)]
    assert best["tooltip"] == ranked[0]
    assert f"1 of {len(ranked)} moves shown" in one.nodes["0"]["label"]


def test_min_prob_folds_rare_outcomes_into_other():
    unfolded = dot_of(MIDDLEGAME, min_prob=0)
    folded = dot_of(MIDDLEGAME, min_prob=0.25)
    assert not tree_nodes(unfolded, "other")
    others = [d for _, _, d in folded.edges(data=True) if d["kind"] == "other"]
    assert others and all(float(d["probability"]) > 0 for d in others)
    for node in tree_nodes(folded, "chance"):
        kept = [float(d["probability"]) for _, _, d in folded.out_edges(node, data=True) if d["kind"] == "outcome"]
        if len(kept) > 1 or folded.out_degree(node) == 1:
            assert min(kept) >= 0.25
        # else every group was rarer than 0.25 and the likeliest one is drawn anyway
    check_structure(folded)
    assert folded.number_of_nodes() < unfolded.number_of_nodes()


def test_options_are_checked():
    with pytest.raises(GameError, match="--top"):
        TreeOptions(top=0)
    with pytest.raises(GameError, match="--min-prob"):
        TreeOptions(min_prob=1.0)
    with pytest.raises(GameError, match="hides cards"):
        build_tree(GAME, GAME.parse("d8:3/d6:5 a K/?"), TreeOptions(depth=1))
    with pytest.raises(GameError, match="--exact cannot solve"):
        build_tree(GAME, GAME.parse(MIDDLEGAME), TreeOptions(exact=True, max_states=1000))


# ----- files and the missing `dot` -----------------------------------------------------------------------
needs_dot = pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot program is not installed")


@needs_dot
def test_svg_is_rendered_and_the_dot_file_kept(tmp_path: Path):
    tree = build_tree(GAME, GAME.parse(ENDGAME), TreeOptions(depth=1))
    result = write_tree(tree, tmp_path / "sub" / "tree.svg")
    assert result.picture == tmp_path / "sub" / "tree.svg" and result.picture.read_text().lstrip().startswith("<?xml")
    assert read_dot(result.dot_path.read_text()).number_of_nodes() == tree.graph.number_of_nodes() + 1


def test_without_dot_the_dot_file_is_written_and_the_command_given(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))  # no `dot` anywhere on the PATH
    tree = build_tree(GAME, GAME.parse(ENDGAME), TreeOptions(depth=1))
    result = write_tree(tree, tmp_path / "tree.png")
    assert result.picture is None and not (tmp_path / "tree.png").exists()
    assert result.dot_path == tmp_path / "tree.dot" and result.dot_path.exists()
    assert f"dot -Tpng {tmp_path / 'tree.dot'} -o {tmp_path / 'tree.png'}" in result.message
    check_structure(read_dot(result.dot_path.read_text()))

    answer = CliRunner().invoke(main, ["tree", "rolldown", ENDGAME, "--depth", "1", "-o", str(tmp_path / "cli.svg")])
    assert answer.exit_code == 0, answer.output
    assert "not installed" in answer.output and "dot -Tsvg" in answer.output and (tmp_path / "cli.dot").exists()


# ----- the command --------------------------------------------------------------------------------------
def test_tree_command_writes_a_dot_file(tmp_path: Path):
    out = tmp_path / "t.dot"
    answer = CliRunner().invoke(main, ["tree", "rolldown", TWO_DICE, "--depth", "1", "--top", "2", "-o", str(out)])
    assert answer.exit_code == 0, answer.output
    assert f"wrote {out}" in answer.output and "nodes" in answer.output
    check_structure(read_dot(out.read_text()), top=2)


@pytest.mark.parametrize(
    "args, phrase",
    [
        (["d6:7/d4:3 a -/-", "-o", "{out}.svg"], "cannot show 7"),
        ([ENDGAME, "-o", "{out}.jpg"], "must end in .dot"),
        (["d8:3/d6:5 a K/?", "-o", "{out}.dot"], "hides cards"),
        ([ENDGAME, "--top", "0", "-o", "{out}.dot"], "--top"),
        ([ENDGAME, "--depth", "0", "-o", "{out}.dot"], "--depth"),
        ([ENDGAME], "-o"),
    ],
)
def test_bad_input_gets_one_line_and_exit_2(tmp_path: Path, args, phrase):
    args = [a.format(out=tmp_path / "t") for a in args]
    answer = CliRunner().invoke(main, ["tree", "rolldown", *args])
    assert answer.exit_code == 2, answer.output
    assert phrase in answer.output and "Traceback" not in answer.output
    if "Usage" not in answer.output:  # click's own usage errors print a usage line first
        assert len(answer.output.strip().splitlines()) == 1


def test_docstrings():
    for module in (tree_module, render_module):
        assert doctest.testmod(module).failed == 0
