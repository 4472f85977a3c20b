"""``dicetree explore``: the explorer in the browser, a local web page on a JSON API.

Usage::

    dicetree explore                      # http://127.0.0.1:8000/ (this machine only)
    dicetree explore --port 9000 --host 0.0.0.0

The page (``cli/web/``: plain HTML, CSS and JavaScript, nothing fetched from elsewhere) lets you pick
a game, type or paste a position or load the example, and shows whose turn it is and what may be
played, the ranked moves with value and loss bars, the method and the principal line, the decision
tree, the stored exact answer where the game has one, and the pictures of ``results/``. Click a
move to play it, pick or roll a chance outcome, go back and forward along the line; the address
holds the game, the rules and the position, so it can be shared.

The JSON API behind it (every answer JSON; every error ``{"error": "<one line>"}`` with a 4xx status):

========================  ===========================================================================
``GET /api/games``        every game: its facts, rule options and example position
``GET /api/rules``        ``game``: facts, rule options and the position notation
``GET /api/position``     ``game``, ``position``, ``seat`` (optional): the canonical position, what may be
                          played there, and the position drawn (``board``: the game's description,
                          ``board_svg``: its SVG) as ``seat`` sees it (``view``; all of it without one)
``GET /api/apply``        ``game``, ``position``, ``move`` (a move, an outcome, or choices joined by
                          ``' | '``) or ``roll=1`` with ``seed``, ``seat``: the position after it (as
                          ``/api/position`` answers it)
``GET /api/best``         ``game``, ``position``, ``depth`` or ``time`` or ``exact=1``, ``seat``
                          (optional: the analysis of what that seat sees, as the engine plays it):
                          what ``dicetree best --json`` prints
``GET /api/tree``         ``game``, ``position``, ``depth``, ``top``: the decision tree as SVG
``GET /api/probe``        ``game``, ``position``, ``build=1`` (optional: first build the stored values
                          the position needs, within what is built on demand): what
                          ``dicetree tablebase probe --json`` prints
``GET /api/build``        ``game`` and the build's parameters (``/api/games``' ``build_parameters``, e.g.
                          ``dice=1``): what ``dicetree tablebase build GAME`` does; its ``lines``
``GET /api/progress``     ``job``: whether the job runs (or waits for a free worker), its last progress line
``POST /api/cancel``      ``job``: stop it
``GET /api/studies``      the pictures under ``results/`` with their folders' READMEs
========================  ===========================================================================

Every call takes ``rule=NAME=VALUE`` (repeatable) for a game's rule options. ``best``, ``tree``,
``probe`` and ``build`` run in a worker process of their own (:mod:`dicetree.cli.jobs`) under the
``job`` id the page gives (one per tab and kind of work), so tabs never wait for each other, a job
reports its progress (``/api/progress``) and can be cancelled.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import math
import random
import socket
from pathlib import Path
from typing import Any

import click

from dicetree.cli.jobs import Cancelled, Jobs
from dicetree.solver.parallel import STOP_WAIT
from dicetree.cli.options import load_with_rules, tables_option
from dicetree.cli.play import seat_of
from dicetree.solver.advice import advice_json, advise
from dicetree.solver.json_contracts import probe_json as contract_probe_json
from dicetree.solver.game import Game, GameError, State
from dicetree.solver.games import GAMES, game_class, game_names
from dicetree.solver.session import Line, node_of

WEB = Path(__file__).with_name("web")
PICTURES = (".png", ".svg", ".jpg", ".jpeg", ".gif")
MAX_DEPTH, MAX_TIME, MAX_TREE_DEPTH = 20, 600.0, 6


class RequestError(GameError):
    """A request the API cannot answer (a parameter missing or out of range): a 400 with one line."""


# ----- the work, as plain functions (the jobs run them in worker processes) -----------------------------
def _game(name: str, rules: tuple[str, ...]) -> Game:
    if name not in game_names():
        raise RequestError(f"unknown game '{name[:40]}': known games are {', '.join(game_names())}")
    return load_with_rules(name, rules)


def games_json() -> list[dict[str, Any]]:
    """Every registered game's facts, rule options and example (from the games, naming none)."""
    answer = []
    for name in game_names():
        cls = game_class(name)
        kind = cls.game_type
        answer.append({
            "game": name, "name": kind.long_name, "players": kind.players_text(), "simultaneous": kind.simultaneous,
            "hidden_information": kind.hidden_information, "exact_values": kind.exact_values, "study": kind.study,
            "rule_options": [{"name": o.name, "describe": o.describe(), "default": str(o.default)}
                             for o in cls.rule_options],
            "example": cls().example_position(),
            "build_parameters": _build_parameters(cls()) if kind.exact_values else [],
        })
    return answer


def _build_parameters(game: Game) -> list[dict[str, Any]]:
    """The options of a build of the game's stored exact values (``dicetree tablebase build GAME``)."""
    provider = game.exact_provider(None)
    return [{"name": o.name, "help": o.help, "allowed": o.allowed(),
             "default": None if o.default is None else str(o.default)}
            for o in getattr(provider, "build_parameters", ())]


def rules_json(name: str, rules: tuple[str, ...]) -> dict[str, Any]:
    game = _game(name, rules)
    return {"game": name, "name": game.game_type.long_name, "options": {k: str(v) for k, v in game.options().items()},
            "value_meaning": game.describe_value(), "notation": game.notation_help(),
            "example": game.example_position()}


def position_json(name: str, rules: tuple[str, ...], position: str, seat: str | None = None) -> dict[str, Any]:
    """The canonical position, what may be played there (:func:`dicetree.solver.session.node_of`) and
    the position drawn as ``seat`` sees it (:func:`board_json`)."""
    game = _game(name, rules)
    state = game.parse(position)
    node = node_of(game, state)
    return {"game": name, **node.to_json(), "text": node.text(), **board_json(game, state, seat)}


def seen_by(game: Game, state: State, seat: str | None) -> State:
    """What the player ``seat`` names (the game's name for them or their number) sees of ``state``
    (:meth:`~dicetree.solver.game.Game.observe`); all of it where ``seat`` is None or empty."""
    return game.observe(state, seat_of(game, seat)) if seat else state


def board_json(game: Game, state: State, seat: str | None = None) -> dict[str, Any]:
    """``view`` (the position ``seat`` sees), ``board`` (the game's drawing of it,
    :meth:`~dicetree.solver.game.Game.board`, as JSON; None where the game draws none) and ``board_svg``."""
    view = seen_by(game, state, seat)
    board = game.board(view)
    return {"seat": seat or "", "view": game.format(view), "board": board.to_json() if board is not None else None,
            "board_svg": board.svg() if board is not None else ""}


def apply_json(name: str, rules: tuple[str, ...], position: str, move: str | None, roll: bool, seed: int,
               seat: str | None = None) -> dict[str, Any]:
    """The position after ``move`` (or a roll drawn with ``seed``), with what was played (drawn as ``seat`` sees it)."""
    game = _game(name, rules)
    line = Line.from_position(game, position)
    if roll:
        line = line.roll(random.Random(seed))
    elif move is None:
        raise RequestError("give a move (a move, an outcome, or one choice per player joined by ' | ') or roll=1")
    else:
        line = line.play(move)
    return {**position_json(name, rules, line.position, seat), "played": line.moves[-1],
            "from": game.format(line.states[0])}


def best_json(name: str, rules: tuple[str, ...], position: str, depth: int | None, time_limit: float | None,
              exact: bool = False, tables_dir: str | None = None, seat: str | None = None,
              report=None) -> dict[str, Any]:
    """What ``dicetree best --json`` prints: the answer's own ``to_json()``; with ``seat``, the
    answer on what that player sees (an engine seat chooses so, as in duels and ``dicetree play``)."""
    game = _game(name, rules)

    def progress(result) -> None:
        if report is not None:
            report(f"depth {result.depth} done, {result.stats.nodes:,} nodes, {result.stats.elapsed:.1f} s")

    answer = advise(game, seen_by(game, game.parse(position), seat), depth=depth, time_limit=time_limit, exact=exact,
                    tables_dir=tables_dir, on_iteration=progress)
    return advice_json(answer, game)


def tree_svg(name: str, rules: tuple[str, ...], position: str, depth: int, top: int | None) -> str:
    """The decision tree below ``position`` drawn by :mod:`dicetree.solver.render`, as SVG text."""
    from dicetree.solver.picture import TreePicture
    from dicetree.solver.tree import TreeOptions, build_tree

    game = _game(name, rules)
    return TreePicture(build_tree(game, game.parse(position), TreeOptions(depth=depth, top=top))).svg()


def _provider(game: Game, tables_dir: str | None):
    if not game.game_type.exact_values:
        raise RequestError(f"{game.game_type.long_name} has no stored exact values")
    return game.exact_provider(tables_dir, required=True)


def probe_json(name: str, rules: tuple[str, ...], position: str, tables_dir: str | None,
               build: bool = False, report=None) -> dict[str, Any]:
    """What ``dicetree tablebase probe --json`` prints, where the game has stored exact values; with
    ``build``, after building what the position needs (``exact_result``: small builds only)."""
    game = _game(name, rules)
    provider, state = _provider(game, tables_dir), game.parse(position)
    if build:
        if report is not None:
            report("building the stored values this position needs")
        provider.exact_result(state, progress=None if report is None else _counted(report))
    return contract_probe_json(game, provider, state)


def build_json(name: str, rules: tuple[str, ...], values: dict[str, str], tables_dir: str | None,
               report=None) -> dict[str, Any]:
    """What ``dicetree tablebase build GAME`` does with the build parameters ``values`` (text, read by
    each parameter as the command line reads it): its ``lines``, progress reported as it goes."""
    game = _game(name, rules)
    provider = _provider(game, tables_dir)
    known = {o.name: o for o in provider.build_parameters}
    unknown = sorted(set(values) - set(known))
    if unknown:
        raise RequestError(f"unknown build parameter '{unknown[0][:40]}': the parameters are {', '.join(known)}")
    parsed = {name: option.parse(values[name]) if values.get(name, "") != "" else option.default
              for name, option in known.items()}

    return {"game": name, "lines": provider.build_from(parsed, None if report is None else _counted(report))}


def _counted(report):
    """A provider's ``progress(done, total, label)`` as one line for the job's progress."""
    def progress(done: int, total: int, label: str) -> None:
        report(f"{done:,} of {total:,} {label}".strip() if total else f"{done:,} {label}".strip())
    return progress


def studies_json(results: Path) -> list[dict[str, Any]]:
    """Each folder of ``results`` that holds pictures: its README's text, its pictures' paths and, for a
    picture with a CSV file of the same name beside it (a study's heatmap), that file's path."""
    if not results.is_dir():
        return []
    folders: dict[Path, list[str]] = {}
    for path in sorted(results.rglob("*")):
        if path.suffix.lower() in PICTURES and path.is_file():
            folders.setdefault(path.parent, []).append(path.relative_to(results).as_posix())
    answer = []
    for folder, pictures in folders.items():
        readme = folder / "README.md"
        values = {picture: Path(picture).with_suffix(".csv").as_posix() for picture in pictures
                  if (results / picture).with_suffix(".csv").is_file()}  # a heatmap's numbers, for the pointer
        answer.append({"folder": folder.relative_to(results).as_posix() or ".", "pictures": pictures, "values": values,
                       "readme": readme.read_text(encoding="utf-8", errors="replace") if readme.is_file() else ""})
    return answer


# ----- the web application -------------------------------------------------------------------------
def create_app(results: Path | None = None, tables_dir: str | None = None, workers: int = 2):
    """The Starlette application: the page, its files, the API and ``results/`` (see the module notes)."""
    from starlette.applications import Starlette
    from starlette.exceptions import HTTPException
    from starlette.requests import Request
    from starlette.responses import FileResponse, JSONResponse, Response
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    results = results if results is not None else _default_results()
    # Workers fork from a server that has imported every game already, so a search starts at once.
    jobs = Jobs(workers=workers, preload=("dicetree.cli.explore", *(spec.partition(":")[0] for spec in GAMES.values())))

    def params(request: Request) -> tuple[str, tuple[str, ...], str]:
        query = request.query_params
        game = query.get("game")
        if not game:
            raise RequestError("give a game (game=NAME)")
        return game, tuple(query.getlist("rule")), query.get("position", "")

    def position_of(request: Request) -> str:
        position = request.query_params.get("position", "").strip()
        if not position:
            raise RequestError("give a position (position=...)")
        return position

    def number(request: Request, key: str, kind, low, high, default=None):
        text = request.query_params.get(key, "")
        if text == "":
            return default
        try:
            value = kind(text)
        except ValueError:
            raise RequestError(f"{key} must be a number, not '{text[:20]}'") from None
        if not low <= value <= high:
            raise RequestError(f"{key} must be between {low:g} and {high:g}, not {text[:20]}")
        return value

    def job_of(request: Request) -> str:
        return request.query_params.get("job", "") or f"anonymous-{id(request)}"

    async def index(request: Request) -> Response:
        return FileResponse(WEB / "index.html")

    async def games(request: Request) -> Response:
        return JSONResponse(games_json())

    async def rules(request: Request) -> Response:
        game, rule, _ = params(request)
        return JSONResponse(rules_json(game, rule))

    async def position(request: Request) -> Response:
        game, rule, _ = params(request)
        return JSONResponse(position_json(game, rule, position_of(request), seat(request)))

    async def apply(request: Request) -> Response:
        game, rule, _ = params(request)
        roll = flag(request, "roll")
        seed = number(request, "seed", int, -2**31, 2**31, default=random.randrange(2**31))
        return JSONResponse(apply_json(game, rule, position_of(request), request.query_params.get("move"), roll, seed,
                                       seat(request)))

    def seat(request: Request) -> str | None:
        return request.query_params.get("seat") or None

    def flag(request: Request, key: str) -> bool:
        return request.query_params.get(key, "") not in ("", "0", "false")

    async def best(request: Request) -> Response:
        game, rule, _ = params(request)
        text = position_of(request)
        position_json(game, rule, text, seat(request))  # a malformed position or seat is answered at once
        depth = number(request, "depth", int, 1, MAX_DEPTH)
        limit = number(request, "time", float, 0.01, MAX_TIME)
        if depth is None and limit is None:
            depth = 2
        answer = await jobs.run(job_of(request), best_json, game, rule, text, depth, limit, flag(request, "exact"),
                                tables_dir, seat(request), gone=request.is_disconnected, report=True)
        return JSONResponse(answer)

    async def tree(request: Request) -> Response:
        game, rule, _ = params(request)
        text = position_of(request)
        position_json(game, rule, text)
        depth = number(request, "depth", int, 1, MAX_TREE_DEPTH, default=2)
        top = number(request, "top", int, 1, 50, default=2)
        svg = await jobs.run(job_of(request), tree_svg, game, rule, text, depth, top, gone=request.is_disconnected)
        return Response(svg, media_type="image/svg+xml")

    async def probe(request: Request) -> Response:
        game, rule, _ = params(request)
        text = position_of(request)
        position_json(game, rule, text)
        answer = await jobs.run(job_of(request), probe_json, game, rule, text, tables_dir, flag(request, "build"),
                                gone=request.is_disconnected, report=True)
        return JSONResponse(answer)

    async def build(request: Request) -> Response:
        game, rule, _ = params(request)
        values = {key: value for key, value in request.query_params.items()
                  if key not in ("game", "rule", "job", "position")}
        answer = await jobs.run(job_of(request), build_json, game, rule, values, tables_dir,
                                gone=request.is_disconnected, report=True)
        return JSONResponse(answer)

    async def progress(request: Request) -> Response:
        return JSONResponse(jobs.progress(job_of(request)))

    async def cancel(request: Request) -> Response:
        return JSONResponse({"job": job_of(request), "cancelled": jobs.cancel(job_of(request))})

    async def studies(request: Request) -> Response:
        return JSONResponse(studies_json(results))

    async def game_error(request: Request, error: Exception) -> Response:
        status = 409 if isinstance(error, Cancelled) else 400
        return JSONResponse({"error": " ".join(str(error).split())[:300]}, status_code=status)

    async def http_error(request: Request, error: HTTPException) -> Response:
        return JSONResponse({"error": error.detail if error.status_code != 404 else f"no such page: {request.url.path}"},
                            status_code=error.status_code)

    routes = [
        Route("/", index),
        Route("/api/games", games), Route("/api/rules", rules), Route("/api/position", position),
        Route("/api/apply", apply), Route("/api/best", best), Route("/api/tree", tree), Route("/api/probe", probe),
        Route("/api/build", build),
        Route("/api/progress", progress), Route("/api/cancel", cancel, methods=["POST"]),
        Route("/api/studies", studies),
        Mount("/static", StaticFiles(directory=WEB), name="static"),
    ]
    if results.is_dir():
        routes.append(Mount("/results", StaticFiles(directory=results), name="results"))
    @contextlib.asynccontextmanager
    async def lifespan(app):
        yield
        jobs.close()  # the server stops: so does every search

    # Starlette calls each handler with the exceptions of its key only, which its types cannot say
    handlers: dict[Any, Any] = {GameError: game_error, HTTPException: http_error}
    app = Starlette(routes=routes, exception_handlers=handlers, lifespan=lifespan)
    app.state.jobs = jobs  # the server stops them at once on Ctrl-C or SIGTERM
    return app


def _default_results() -> Path:
    """``results/`` of the folder the command runs in, else of the checkout this package lives in."""
    here = Path.cwd() / "results"
    return here if here.is_dir() else Path(__file__).resolve().parents[1] / "results"


def _no_cancelled_request_traceback(record: logging.LogRecord) -> bool:
    """Drop uvicorn's traceback of a request cancelled when the server stops (a search still running
    after the grace period): being stopped is no error, and the server says it cancelled it."""
    return not (record.exc_info and isinstance(record.exc_info[1], asyncio.CancelledError))


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="The address to listen on (default: this machine only).")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True, help="The port to listen on.")
@click.option("--results", "results_dir", type=click.Path(file_okay=False), help="The folder of studies to show (default: results/).")
@click.option("--workers", type=click.IntRange(1, 32), default=2, show_default=True,
              help="Searches that run at once (each in a process of its own); more wait their turn.")
@tables_option
def explore(host: str, port: int, results_dir: str | None, workers: int, tables_dir: str | None) -> None:
    """Open the explorer: a web page to analyse, play through and draw positions of every game."""
    import uvicorn

    listening = listening_socket(host, port)  # taken first: a port in use is one line, before any address is shown
    port = listening.getsockname()[1]
    app = create_app(Path(results_dir) if results_dir else None, tables_dir, workers)
    class Server(uvicorn.Server):
        def handle_exit(self, sig, frame) -> None:
            """Ctrl-C or SIGTERM: every job is stopped at once (its request answers "cancelled"), not
            waited for; what still runs after STOP_WAIT seconds is cancelled."""
            app.state.jobs.close()
            super().handle_exit(sig, frame)

    config = uvicorn.Config(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=math.ceil(STOP_WAIT))
    logging.getLogger("uvicorn.error").addFilter(_no_cancelled_request_traceback)
    server = Server(config)
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"dicetree explorer at http://{shown}:{port}/  (Ctrl-C stops)")
    server.run(sockets=[listening])


def listening_socket(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port`` and listening (port 0: any free port); a one-line
    :class:`GameError` where the address cannot be had (the port in use, an unknown host)."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except socket.gaierror as error:
        raise GameError(f"cannot listen on {host}: {error.strerror or error}") from None
    listening = socket.socket(family, kind, proto)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        listening.bind(address)
        listening.listen(128)
    except OSError as error:
        listening.close()
        if error.errno == errno.EADDRINUSE:
            raise GameError(f"port {port} on {host} is in use (another explorer?): choose another with --port") from None
        raise GameError(f"cannot listen on {host} port {port}: {error.strerror or error}") from None
    return listening
