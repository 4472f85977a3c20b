"""``dicetree explore``: the JSON API (Starlette's TestClient, in-process) and its job runner."""

from __future__ import annotations

import asyncio
import json
import time

import warnings

import pytest

with warnings.catch_warnings():  # Starlette asks for httpx2, which is not needed for in-process tests
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from dicetree.cli.explore import create_app
from dicetree.cli.jobs import Cancelled, Jobs
from dicetree.solver.analysis import analyse
from dicetree.solver.games import game_names, load_game

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

ENDGAME = "d8:5/d6:3 a -/-"
FIGHT = "3:0:5:111=2a1d2g 2:0:5:111=1a2d2g reroll"


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    results = tmp_path_factory.mktemp("results")
    (results / "study").mkdir()
    (results / "study" / "README.md").write_text("What the heatmap shows.\n")
    (results / "study" / "map.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (results / "study" / "map.csv").write_text("mine\\theirs,d4,d6\nd4,0.5,0.25\n")
    with TestClient(create_app(results=results, tables_dir=str(tmp_path_factory.mktemp("tables")))) as client:
        yield client


def get(client, path, status=200, **params):
    response = client.get(path, params=params)
    assert response.status_code == status, response.text
    return response


def error_of(client, path, status=400, **params) -> str:
    message = get(client, path, status, **params).json()["error"]
    assert "\n" not in message and "Traceback" not in message
    return message


def test_every_registered_game_is_listed_with_its_example(client):
    games = get(client, "/api/games").json()
    assert [g["game"] for g in games] == game_names()
    for game in games:
        assert get(client, "/api/position", game=game["game"], position=game["example"]).json()["position"] == game["example"]


def test_the_rules_give_the_notation(client):
    answer = get(client, "/api/rules", game="rolldown").json()
    assert answer["notation"] == load_game("rolldown").notation_help()


def test_a_position_says_what_may_be_played(client):
    node = get(client, "/api/position", game="rolldown", position=ENDGAME).json()
    assert node["kind"] == "decision" and node["mover"] == "A" and node["moves"] == ["d8xd6", "roll a.d8", "roll b.d6"]
    chance = get(client, "/api/apply", game="rolldown", position=ENDGAME, move="roll b.d6").json()
    assert chance["kind"] == "chance" and chance["played"] == "roll b.d6" and len(chance["outcomes"]) == 6
    after = get(client, "/api/apply", game="rolldown", position=chance["position"], move="b.d6=6").json()
    assert after["position"] == "d8:5/d6:6 b -/-"


def test_a_roll_with_a_seed_is_reproducible(client):
    chance = get(client, "/api/apply", game="rolldown", position=ENDGAME, move="roll b.d6").json()["position"]
    rolls = {get(client, "/api/apply", game="rolldown", position=chance, roll=1, seed=7).json()["played"] for _ in range(2)}
    assert len(rolls) == 1


def test_best_is_what_best_json_prints(client):
    answer = get(client, "/api/best", game="rolldown", position=ENDGAME, depth=2).json()
    game = load_game("rolldown")
    expected = analyse(game, game.parse(ENDGAME), depth=2).to_json()
    assert answer["moves"] == expected["moves"] and answer["pv"] == expected["pv"]
    assert answer["method"] == expected["method"]


def test_best_where_players_choose_at_once_gives_each_players_strategy(client):
    answer = get(client, "/api/best", game="dicefights", position=FIGHT, depth=1).json()
    assert [p["player"] for p in answer["players"]] == ["A", "B"]
    assert abs(sum(answer["players"][0]["strategy"].values()) - 1) < 1e-9
    played = get(client, "/api/apply", game="dicefights", position=FIGHT, move="keep | roll 2g").json()
    assert played["played"] == "A keep | B roll 2g" and played["kind"] == "chance"


def test_the_tree_is_svg(client):
    response = get(client, "/api/tree", game="rolldown", position=ENDGAME, depth=1)
    assert response.headers["content-type"].startswith("image/svg+xml")
    assert "<svg" in response.text and "d8xd6" in response.text


@pytest.mark.parametrize(("path", "params", "wanted"), [
    ("/api/position", {"game": "rolldown", "position": "zz"}, "RolldownBeta position"),
    ("/api/position", {"game": "chess", "position": "x"}, "unknown game 'chess'"),
    ("/api/position", {"position": ENDGAME}, "give a game"),
    ("/api/position", {"game": "rolldown", "position": ENDGAME, "rule": "ace=both"}, "rule option ace"),
    ("/api/apply", {"game": "rolldown", "position": ENDGAME, "move": "d6xd8"}, "'d6xd8' is not legal here"),
    ("/api/apply", {"game": "rolldown", "position": ENDGAME, "roll": "1"}, "nothing to roll"),
    ("/api/apply", {"game": "dicefights", "position": FIGHT, "move": "keep"}, "one choice for each of A, B"),
    ("/api/best", {"game": "rolldown", "position": ENDGAME, "depth": "99"}, "depth must be between 1 and 20"),
    ("/api/best", {"game": "rolldown", "position": ENDGAME, "depth": "two"}, "depth must be a number"),
    ("/api/probe", {"game": "dicegeddon", "position": "d4:3a/d4:3a a 20"}, "Dicegeddon has no stored exact values"),
])
def test_bad_input_is_one_line_with_a_4xx(client, path, params, wanted):
    response = client.get(path, params=params)
    assert 400 <= response.status_code < 500
    message = response.json()["error"]
    assert wanted in message and "\n" not in message


def test_an_unknown_address_is_a_json_404(client):
    assert "no such page" in error_of(client, "/api/nothing", status=404)


def test_the_studies_are_listed_and_served(client):
    studies = get(client, "/api/studies").json()
    assert studies == [{"folder": "study", "pictures": ["study/map.png"], "values": {"study/map.png": "study/map.csv"},
                        "readme": "What the heatmap shows.\n"}]
    assert get(client, "/results/study/map.png").content.startswith(b"\x89PNG")
    assert get(client, "/results/study/map.csv").text.startswith("mine")


def test_the_page_and_its_files_are_served(client):
    assert 'id="moves-area"' in get(client, "/").text
    assert "function analyse" in get(client, "/static/app.js").text


def test_progress_and_cancel_of_an_unknown_job(client):
    assert get(client, "/api/progress", job="nobody").json() == {"job": "nobody", "running": False, "waiting": False,
                                                                   "progress": ""}
    assert client.post("/api/cancel", params={"job": "nobody"}).json()["cancelled"] is False


# ----- the job runner ---------------------------------------------------------------------------
def _nap(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


def test_jobs_run_at_once_and_one_is_cancelled_without_stopping_the_other():
    jobs = Jobs(workers=2)

    async def scenario():
        long = asyncio.create_task(jobs.run("tab-a", _nap, 30.0))
        short = asyncio.create_task(jobs.run("tab-b", _nap, 0.2))
        assert await short == 0.2  # tab b does not wait for tab a
        assert jobs.progress("tab-a")["running"]
        assert jobs.cancel("tab-a")
        with pytest.raises(Cancelled):
            await long

    started = time.perf_counter()
    asyncio.run(scenario())
    assert time.perf_counter() - started < 20
    jobs.close()


def test_a_new_job_of_a_tab_replaces_its_running_one():
    jobs = Jobs(workers=2)

    async def scenario():
        old = asyncio.create_task(jobs.run("tab", _nap, 30.0))
        await asyncio.sleep(0.5)
        assert await jobs.run("tab", _nap, 0.1) == 0.1
        with pytest.raises(Cancelled):
            await old

    asyncio.run(scenario())
    jobs.close()


def test_best_exact_solves_the_position(client):
    answer = get(client, "/api/best", game="dicegeddon", position="d4:3a/d4:3a a 20", exact=1).json()
    assert answer["best"] == "A1>1" and abs(answer["value"] - 0.512) < 1e-9 and answer["method"].startswith("exact")
    assert "not available" in error_of(client, "/api/best", game="dicefights", position=FIGHT, exact=1)


def test_the_command_prints_its_address_and_serves_this_machine():
    import json
    import socket
    import subprocess
    import sys
    import urllib.request

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "dicetree.cli.main", "explore", "--port", str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert server.stdout.readline().startswith(f"dicetree explorer at http://127.0.0.1:{port}/")
        deadline = time.monotonic() + 60
        while True:
            try:
                games = json.loads(urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games", timeout=2).read())
                break
            except OSError:
                assert time.monotonic() < deadline and server.poll() is None, server.stderr.read()
                time.sleep(0.2)
        assert [game["game"] for game in games] == game_names()
    finally:
        server.terminate()
        server.wait(timeout=10)


# ----- positions drawn, seats, builds -------------------------------------------------------------------
HANDS = "d6:2,d8:5/d4:3,d6:6 a QK/5"


def test_every_games_position_comes_drawn(client):
    for game in get(client, "/api/games").json():
        node = get(client, "/api/position", game=game["game"], position=game["example"]).json()
        assert node["board"]["status"] and node["board"]["zones"] and node["board_svg"].startswith("<svg")
        assert node["view"] == node["position"] and node["seat"] == ""


def test_a_seat_sees_its_own_view_with_the_other_hand_face_down(client):
    node = get(client, "/api/position", game="rolldown", position=HANDS, seat="B").json()
    assert node["position"] == HANDS and node["view"] == "d6:2,d8:5/d4:3,d6:6 a ??/5 seen:b"
    hand = next(zone for zone in node["board"]["zones"] if zone["owner"] == "A" and zone["title"] == "hand")
    assert hand["pieces"] == [{"kind": "card", "text": "", "lines": [], "face_down": True, "count": 2, "dim": False,
                               "highlight": False, "dice": []}]
    after = get(client, "/api/apply", game="rolldown", position=HANDS, move="d8xd4", seat="2").json()
    assert after["view"] == "d6:2/d6:6 b ??/5"  # B to move now: A's cards still hidden
    assert "--seat 'C' names no player" in error_of(client, "/api/position", game="rolldown", position=HANDS, seat="C")


def test_the_engine_seat_analyses_what_it_sees():
    from dicetree.cli.explore import best_json

    game = load_game("rolldown")
    seen = game.observe(game.parse(HANDS), 0)  # A to move, B's 5 unknown to A
    answer = best_json("rolldown", (), HANDS, 1, None, seat="A")
    assert "?" in answer["position"]
    assert answer["position"] == game.format(seen)
    assert answer["moves"] == analyse(game, seen, depth=1).to_json()["moves"]


def test_the_build_parameters_are_listed_and_a_small_build_runs(client):
    games = {game["game"]: game for game in get(client, "/api/games").json()}
    assert [p["name"] for p in games["rolldown"]["build_parameters"]][:2] == ["dice", "cards"]
    assert games["dicegeddon"]["build_parameters"] == []
    answer = get(client, "/api/build", game="rolldown", dice="1", job="build-1").json()
    assert answer["lines"][0].startswith("Building") and "Solved" in answer["lines"][-1]
    probed = get(client, "/api/probe", game="rolldown", position=ENDGAME, job="probe-1").json()
    assert probed["moves"][0]["move"] == "d8xd6" and probed["value"] == 1.0


def test_a_probe_can_build_what_the_position_needs(client):
    position = "d6:2,d8:5/d4:3,d6:6 a K/-"
    assert "not built" in error_of(client, "/api/probe", game="rolldown", position=position)
    answer = get(client, "/api/probe", game="rolldown", position=position, build=1, job="probe-2").json()
    assert answer["position"] == position and answer["moves"]


def test_a_probe_that_builds_reports_how_far_the_building_is(tmp_path):
    from dicetree.cli.explore import probe_json

    lines = []
    answer = probe_json("rolldown", (), "d8:2,d6:5/d4:3,d10:6 a -/-", str(tmp_path), build=True, report=lines.append)
    assert answer["moves"] and lines[0] == "building the stored values this position needs"
    done = [line for line in lines[1:] if line.endswith(" positions")]
    assert done and done[-1].split(" of ")[0] == done[-1].split(" of ")[1].split()[0]  # counted up to the whole


@pytest.mark.parametrize(("params", "wanted"), [
    ({"game": "rolldown", "dize": "1"}, "unknown build parameter 'dize'"),
    ({"game": "rolldown", "dice": "9"}, "dice"),
    ({"game": "rolldown"}, "needs --dice"),
    ({"game": "dicefights"}, "Dice Fights has no stored exact values"),
])
def test_a_bad_build_is_one_line(client, params, wanted):
    assert wanted in error_of(client, "/api/build", **params)


def test_a_build_reports_progress_and_is_cancelled(tmp_path):
    from dicetree.cli.explore import build_json

    jobs = Jobs(workers=1)

    async def scenario():
        build = asyncio.create_task(jobs.run("tab-build", build_json, "rolldown", (), {"dice": "3"}, str(tmp_path),
                                             report=True))
        for _ in range(3000):  # progress within a minute, however loaded the machine
            await asyncio.sleep(0.02)
            if jobs.progress("tab-build")["progress"]:
                break
        assert "of" in jobs.progress("tab-build")["progress"]
        assert jobs.cancel("tab-build")
        with pytest.raises(Cancelled):
            await build
        assert not jobs.progress("tab-build")["running"]

    asyncio.run(scenario())
    jobs.close()


def test_a_job_waits_for_a_free_worker_says_so_and_is_cancelled_while_waiting():
    jobs = Jobs(workers=1)

    async def scenario():
        busy = asyncio.create_task(jobs.run("tab-a", _nap, 30.0))
        await asyncio.sleep(0.3)
        queued = asyncio.create_task(jobs.run("tab-b", _nap, 0.1))
        await asyncio.sleep(0.3)
        progress = jobs.progress("tab-b")
        assert progress["waiting"] and not progress["running"] and "waiting for a free worker" in progress["progress"]
        assert jobs.cancel("tab-b")
        with pytest.raises(Cancelled):
            await queued
        assert jobs.progress("tab-a")["running"]  # the running one goes on
        jobs.cancel("tab-a")
        with pytest.raises(Cancelled):
            await busy
        assert await jobs.run("tab-b", _nap, 0.1) == 0.1  # the worker is free again

    asyncio.run(scenario())
    jobs.close()


@pytest.mark.parametrize("game, position", [("dicefights", FIGHT), ("rolldown", ENDGAME)])
def test_best_serves_exactly_what_best_json_prints(tmp_path, game, position):
    """One builder for both (issue 27): the same fields and the same moves, values and line."""
    from click.testing import CliRunner

    from dicetree.cli.main import main

    with TestClient(create_app(results=tmp_path, tables_dir=str(tmp_path / "tables"))) as own:
        served = get(own, "/api/best", game=game, position=position, depth=1).json()
    printed = json.loads(CliRunner().invoke(main, ["best", game, position, "--depth", "1", "--json", "--tables",
                                                   str(tmp_path / "tables")]).stdout)
    timing = {"time"}
    assert set(served) == set(printed)
    assert {k: v for k, v in served.items() if k not in timing} == {k: v for k, v in printed.items() if k not in timing}
    assert served["schema"] == "dicetree.best/1" and served["pv"]


def test_a_port_in_use_is_one_line_and_exit_2():
    import socket

    from click.testing import CliRunner

    from dicetree.cli.main import main

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(main, ["explore", "--port", str(port)])
    assert result.exit_code == 2
    assert result.output.strip() == (f"error: port {port} on 127.0.0.1 is in use (another explorer?): "
                                     "choose another with --port")


def test_a_roll_for_it_card_is_drawn_with_its_dice_faces(client):
    """The API carries each face-up card's images as dice (faces), and the SVG draws them as dice with
    pips, as the players' dice are drawn, not as a line of text."""
    from xml.etree import ElementTree

    game = load_game("rollforit")
    node = get(client, "/api/position", game="rollforit", position=game.example_position()).json()
    cards = [piece for zone in node["board"]["zones"] for piece in zone["pieces"]
             if piece["kind"] == "card" and not piece["face_down"]]
    g15 = next(card for card in cards if card["text"] == "G15")
    assert [(die["sides"], die["face"]) for die in g15["dice"]] == [(6, 3), (6, 4), (6, 5)]
    assert not any(line.startswith("images") for card in cards for line in card["lines"])
    svg = ElementTree.fromstring(node["board_svg"])
    printed = [g for g in svg.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "card-die d6"]
    assert len(printed) == sum(len(card["dice"]) for card in cards) == 3 + 4 + 6  # G15, G24, G29
    pips = [len(g.findall("{http://www.w3.org/2000/svg}circle")) for g in printed[:3]]
    assert pips == [3, 4, 5]  # G15's 3, 4 and 5 as pips
