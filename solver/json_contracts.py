"""One versioned JSON shape per command: what ``--json`` prints, named by its ``schema`` field.

Every command that prints JSON (``best``, ``check``, ``tree``, ``duel``, ``study``, ``tablebase
probe``, ``tablebase stats``) stamps its answer with ``"schema": "dicetree.COMMAND/N"`` and has
its JSON Schema here (``best``'s is :data:`dicetree.solver.analysis.BEST_JSON_SCHEMA`). The number
grows when a field changes meaning or goes away; new optional fields keep it. A contract test
validates every command's answer for every game against these schemas.

    >>> versioned("check", {"game": "rolldown"})
    {'schema': 'dicetree.check/1', 'game': 'rolldown'}
    >>> SCHEMAS["probe"]["properties"]["schema"]
    {'const': 'dicetree.probe/1'}
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from dicetree.solver.analysis import BEST_JSON_SCHEMA, SCHEMA as BEST_SCHEMA
from dicetree.solver.game import Game, State
from dicetree.solver.providers import ExactValues, StoredSet
from dicetree.solver.ranking import TIE

VERSIONS = {"best": BEST_SCHEMA, "check": "dicetree.check/1", "probe": "dicetree.probe/1", "stats": "dicetree.stats/1",
            "tree": "dicetree.tree/1", "duel": "dicetree.duel/1", "study": "dicetree.study/1"}
"""Each command's schema name and version."""

_STRINGS = {"type": "array", "items": {"type": "string"}}


def _object(command: str, required: dict[str, Any], optional: dict[str, Any] | None = None) -> dict:
    """The JSON Schema of ``command``'s answer: ``required`` fields (name -> schema), then others."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"dicetree {command} --json ({VERSIONS[command]})",
        "type": "object",
        "required": ["schema", *required],
        "properties": {"schema": {"const": VERSIONS[command]}, **required, **(optional or {})},
    }


_RANKED_MOVE = {
    "type": "object",
    "required": ["move", "value", "loss", "tied"],
    "properties": {"move": {"type": "string"}, "value": {"type": "number"},
                   "loss": {"type": "number", "minimum": 0}, "tied": {"type": "boolean"}},
}

SCHEMAS: dict[str, dict] = {
    "best": BEST_JSON_SCHEMA,
    "check": _object("check", {
        "game": {"type": "string"},
        "position": {"type": "string"},
        "turn": {"enum": ["decision", "simultaneous", "chance", "over"]},
        "summary": {"type": "string"},
        "moves": {"type": "object", "additionalProperties": _STRINGS,
                  "description": "each choosing player's name -> their legal moves"},
        "hidden_information": {"type": "string"},
    }),
    "probe": _object("probe", {
        "game": {"type": "string"},
        "position": {"type": "string"},
        "mover": {"type": "string", "description": "the player whose moves are valued, as output names players"},
        "value_meaning": {"type": "string"},
        "value": {"type": "number"},
        "moves": {"type": "array", "items": _RANKED_MOVE, "description": "best first"},
        "details": {"type": "object", "description": "what the game's stored values add (a table's name, say)"},
    }),
    "stats": _object("stats", {
        "games": {"type": "array", "items": {
            "type": "object",
            "required": ["game", "stored", "lines"],
            "properties": {
                "game": {"type": "string"},
                "stored": {"type": "array", "items": {
                    "type": "object",
                    "required": ["name", "folder", "tables", "positions", "bytes", "build_seconds", "damaged"],
                    "properties": {"name": {"type": "string"}, "folder": {"type": "string"},
                                   "tables": {"type": "integer"}, "positions": {"type": "integer"},
                                   "bytes": {"type": "integer"}, "build_seconds": {"type": "number"},
                                   "damaged": {"type": "array", "items": {
                                       "type": "object", "required": ["path", "problem"],
                                       "properties": {"path": {"type": "string"}, "problem": {"type": "string"}}}}},
                }},
                "lines": {**_STRINGS, "description": "the text `tablebase stats` prints for the game"},
            },
        }},
    }),
    "tree": _object("tree", {
        "game": {"type": "string"},
        "position": {"type": "string"},
        "summary": {"type": "string"},
        "method": {"type": "string"},
        "dot": {"type": "string", "description": "the .dot file written"},
        "picture": {"type": ["string", "null"], "description": "the picture written, null where `dot` is missing"},
        "message": {"type": "string"},
    }),
    "duel": _object("duel", {
        "game": {"type": "string"},
        "players": {"type": "integer"},
        "games": {"type": "integer"},
        "strategies": {"type": "array", "items": {
            "type": "object", "required": ["letter", "strategy", "share", "interval"],
            "properties": {"letter": {"type": "string"}, "strategy": {"type": "string"},
                           "share": {"type": "number", "minimum": 0, "maximum": 1},
                           "interval": {"type": "array", "items": {"type": "number"}}}}},
        "notes": _STRINGS,
    }),
    "study": _object("study", {"game": {"type": "string"}, "study": {"type": "string"}, "lines": _STRINGS}),
}
"""Each command's JSON Schema (draft 2020-12)."""


def versioned(command: str, answer: Mapping[str, Any]) -> dict[str, Any]:
    """``answer`` stamped with ``command``'s schema name, first."""
    return {"schema": VERSIONS[command], **answer}


def probe_json(game: Game, provider: ExactValues, state: State) -> dict[str, Any]:
    """``tablebase probe --json`` (and the explorer's ``/api/probe``): the provider's stored answer in
    the one probe shape, whatever the game: the mover named as output names players, the value's
    meaning as the game's stored values label it, moves best first with their losses against the
    best move (never negative), what else the provider gives under ``details``."""
    answer = dict(provider.answer(state))
    player = game.current_player(state)
    stored = answer.pop("moves")
    top = max(move["value"] for move in stored)  # a loss is against the best move, as `best` gives it
    moves = [{"move": move["move"], "value": move["value"], "loss": top - move["value"],
              "tied": top - move["value"] < TIE} for move in sorted(stored, key=lambda move: -move["value"])]
    position, value = answer.pop("position"), answer.pop("value")
    meaning = answer.pop("meaning", None) or game.describe_value()
    answer.pop("mover", None)
    return versioned("probe", {"game": game.game_type.short_name, "position": position,
                               "mover": game.player_name(player) if player >= 0 else "", "value_meaning": meaning,
                               "value": value, "moves": moves, "details": answer})


def stats_json(found: Iterable[tuple[str, list[StoredSet], list[str]]]) -> dict[str, Any]:
    """``tablebase stats --json``: per game (name, its stored sets, its text lines) the figures."""
    return versioned("stats", {"games": [
        {"game": name,
         "stored": [{"name": stored.name, "folder": stored.folder, "tables": stored.figures.tables,
                     "positions": stored.figures.positions, "bytes": stored.figures.bytes,
                     "build_seconds": round(stored.figures.build_time, 3),
                     "damaged": [{"path": path, "problem": problem} for path, problem in stored.figures.corrupt]}
                    for stored in sets],
         "lines": lines}
        for name, sets, lines in found]})


__all__ = ["SCHEMAS", "VERSIONS", "probe_json", "stats_json", "versioned"]
