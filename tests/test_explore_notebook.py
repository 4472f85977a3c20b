"""notebooks/explore.ipynb runs from top to bottom in a Jupyter kernel, and its objects show themselves."""

from __future__ import annotations

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "explore.ipynb"


def test_the_example_notebook_runs_and_its_objects_display_themselves():
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    nbclient.NotebookClient(notebook, timeout=300, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOK.parents[1])}}).execute()
    shown = [set(output.get("data", {})) for cell in notebook.cells if cell.cell_type == "code"
             for output in cell.get("outputs", []) if output.output_type == "execute_result"]
    errors = [output for cell in notebook.cells for output in cell.get("outputs", []) if output.output_type == "error"]
    assert not errors
    assert sum("text/html" in kinds for kinds in shown) >= 3  # the line twice, the analysis
    assert sum("image/svg+xml" in kinds for kinds in shown) >= 2  # the drawn position, the tree


def test_an_analysis_and_a_line_render_as_html():
    from dicetree.solver.advice import advise
    from dicetree.solver.games import load_game
    from dicetree.solver.session import Line

    game = load_game("rolldown")
    line = Line.from_position(game, "d8:5/d6:3 a -/-")
    assert "d8xd6" in advise(game, line.state, depth=1)._repr_html_()
    assert "A to move" in line._repr_html_()


def test_a_line_shows_its_position_drawn():
    from dicetree.solver.games import load_game
    from dicetree.solver.session import Line

    line = Line.from_position(load_game("dicegeddon"), "d4:3a,d6:5a/d6:6a a 20")
    assert '<svg' in line._repr_html_() and 'class="die d4"' in line._repr_html_()
