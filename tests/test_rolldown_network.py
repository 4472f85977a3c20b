"""RolldownBeta's value network: the encoding (lossless, hidden cards as unknown), the batched inference against
the kernel's reference, its bounds and sense, the data file's checks, and the training's lookahead against
exact tables."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from click.testing import CliRunner

from dicetree.cache.store import TableStore
from dicetree.cli.main import main
from dicetree.solver.games.rolldown import Rolldown, RolldownState
from dicetree.solver.games.rolldown import network as network_module
from dicetree.solver.games.rolldown.cards import DECK_COPIES, DIE_SIDES, UNKNOWN
from dicetree.solver.games.rolldown.network import DATA_FILE, NetworkDataError, encode_rows, load_network
from dicetree.solver.games.rolldown.network_kernel import (
    CARD_CODES,
    FACE_SLOTS,
    INPUT_LENGTH,
    PAIR_RELATIONS,
    RAW_LENGTH,
    SLOTS,
    encode,
    network_estimate,
    raw_position,
)
from dicetree.solver.games.rolldown.network_training import LookaheadProblem, sample_rows, table_values
from dicetree.solver.games.rolldown.tablebase import Tablebase
from dicetree.solver.games.rolldown.datafile import payload_checksum

GAME = Rolldown(evaluation="network")
CARDS = list(DECK_COPIES)


def random_state(rng: random.Random) -> RolldownState:
    """Any position: 1 to 6 dice a side (not necessarily as many), up to 3 cards a hand, some hidden."""
    dice = []
    for _ in (0, 1):
        slots = set(rng.sample(range(SLOTS), rng.randint(1, SLOTS)))
        dice.append(tuple(rng.randint(1, DIE_SIDES[s]) if s in slots else 0 for s in range(SLOTS)))
    hands = tuple(tuple(sorted(rng.choice(CARDS + [UNKNOWN]) for _ in range(rng.randint(0, 3)))) for _ in (0, 1))
    first = (rng.random() < 0.3, rng.random() < 0.3)
    return RolldownState(dice=tuple(dice), mover=rng.randint(0, 1), hands=hands, first_turn=first)


def decode_input(x: np.ndarray) -> list[int]:
    """The raw vector back from the network's input (the inverse of ``encode``, written from its table)."""
    raw = [0] * RAW_LENGTH
    at = 0
    for side in range(2):
        for slot in range(SLOTS):
            hot = np.flatnonzero(x[at : at + DIE_SIDES[slot]])
            assert len(hot) <= 1
            raw[side * SLOTS + slot] = int(hot[0]) + 1 if len(hot) else 0
            assert x[2 * FACE_SLOTS + side * SLOTS + slot] == (1.0 if len(hot) else 0.0)
            at += DIE_SIDES[slot]
    tail = 2 * (FACE_SLOTS + SLOTS)
    raw[12:44] = [int(v) for v in x[tail : tail + 2 * CARD_CODES + 4]]
    return raw


def test_every_position_round_trips_through_its_raw_vector_and_its_encoding():
    rng = random.Random(5)
    raws, inputs = [], []
    for _ in range(400):
        state = random_state(rng)
        for to_move in (0, 1):
            raw = [0] * RAW_LENGTH
            raw_position(state, to_move, raw)
            other = 1 - to_move
            assert tuple(raw[0:6]) == state.dice[to_move] and tuple(raw[6:12]) == state.dice[other]
            for offset, side in ((0, to_move), (1, other)):
                known = sorted(card for card in range(1, CARD_CODES + 1)
                               for _ in range(raw[12 + offset * CARD_CODES + card - 1]))
                assert known + [UNKNOWN] * raw[40 + offset] == sorted(state.hands[side])
                assert raw[42 + offset] == int(state.first_turn[side])
            x = [0.0] * INPUT_LENGTH
            encode(raw, x)
            assert decode_input(np.array(x)) == raw
            raws.append(raw)
            inputs.append(x)
    assert np.array_equal(encode_rows(np.array(raws)), np.array(inputs))  # the numpy batch: the kernel's encode


def test_hidden_cards_are_encoded_as_unknown_and_the_pairs_relations_follow_the_faces():
    state = GAME.parse("d8:5,d12:2/d6:5,d20:9 a 7K/??")
    raw = [0] * RAW_LENGTH
    raw_position(state, 0, raw)
    assert raw[12 + 7 - 1] == raw[12 + 13 - 1] == 1 and sum(raw[26:40]) == 0 and raw[40:42] == [0, 2]
    x = [0.0] * INPUT_LENGTH
    encode(raw, x)
    relations = np.array(x[INPUT_LENGTH - PAIR_RELATIONS :]).reshape(2, SLOTS, SLOTS)
    d6, d8, d12 = 1, 2, 4
    assert relations[0, d8, d6] == relations[1, d8, d6] == 1  # 5 against 5: either may take the other
    assert relations[0, d12, d6] == 0 and relations[1, d12, d6] == 1
    assert relations.sum() == 5  # d8-d6 both ways, d12 taken by d6 and by d20, d8 taken by d20


def test_the_batched_estimates_are_the_kernels_within_rounding_and_inside_the_bounds():
    model = load_network()
    rng = random.Random(7)
    states = [random_state(rng) for _ in range(200)]
    movers = [rng.randint(0, 1) for _ in states]
    together = model.estimate_many(states, movers)
    scratch = [0.0] * (2 * int(max(model.sizes.max(), INPUT_LENGTH)))
    for state, to_move, value in zip(states, movers, together):
        raw = [0] * RAW_LENGTH
        raw_position(state, to_move, raw)
        assert network_estimate(raw, model.sizes.tolist(), model.params.tolist(), scratch, model.clip) == \
            pytest.approx(value, abs=1e-9)
        assert model.estimate(state, to_move) == pytest.approx(value, abs=1e-12)
        assert model.clip <= value <= 1 - model.clip


@pytest.mark.parametrize(
    "better, worse",
    [
        ("d8:5/d6:3 a -/-", "d8:2/d6:3 a -/-"),  # the last pair: the mover who can take it wins
        ("d8:7,d12:10/d6:2,d10:3 a -/-", "d8:2,d12:3/d6:2,d10:3 a -/-"),  # higher faces for the mover
        ("d4:4,d6:6,d20:18/d8:3,d10:2,d12:5 a -/-", "d4:1,d6:2,d20:4/d8:3,d10:2,d12:5 a -/-"),
    ],
)
def test_the_network_has_the_sense_of_hand_worked_positions(better, worse):
    def value(text: str) -> float:
        state = GAME.parse(text)
        return GAME.evaluate(state, state.mover)

    assert value(better) > value(worse)
    last_pair = GAME.parse("d8:5/d6:3 a -/-")
    assert GAME.evaluate(last_pair, 0) > 0.95 and GAME.evaluate(last_pair, 1) < 0.05


def test_the_data_file_is_checked_on_load(tmp_path):
    payload = json.loads(DATA_FILE.read_text())
    damaged = dict(payload, params=[payload["params"][0] + 1.0] + payload["params"][1:])
    path = tmp_path / "value_network.json"
    path.write_text(json.dumps(damaged))
    with pytest.raises(NetworkDataError, match="checksum mismatch"):
        load_network(path)
    narrow = dict(payload, sizes=[3] + payload["sizes"][1:])
    path.write_text(json.dumps({**narrow, "sha256": payload_checksum(narrow)}))
    with pytest.raises(NetworkDataError, match="malformed"):
        load_network(path)


def test_a_damaged_weights_file_is_one_line_and_exit_2(tmp_path, monkeypatch):
    payload = json.loads(DATA_FILE.read_text())
    path = tmp_path / "value_network.json"
    path.write_text(json.dumps(dict(payload, clip=0.2)))
    monkeypatch.setattr(network_module, "load_network", lambda: load_network.__wrapped__(path))
    result = CliRunner().invoke(main, ["best", "rolldown", "d8:5/d6:3 a -/-", "--depth", "1",
                                       "--rule", "evaluation=network"])
    lines = result.output.strip().splitlines()  # one line, no traceback
    assert (result.exit_code, len(lines)) == (2, 1) and "value network data" in lines[0] and "checksum mismatch" in lines[0]


def test_the_lookahead_with_exact_children_gives_the_exact_values(small_rolldown_tables):
    """One decision of lookahead, its children valued exactly, is the tables' value (Bellman's equation):
    the captures, rerolls and points of view of the training are the game's."""
    base = Tablebase(TableStore(small_rolldown_tables("d4:1,d6:1/d8:1,d10:1 a -/-")))
    rng = np.random.default_rng(3)
    for dice in (1, 2):
        rows = sample_rows(rng, dice, 3000)
        exact = table_values(base, rows)
        rows = rows[~np.isnan(exact)]
        assert len(rows) > 20
        look = LookaheadProblem(dice, lambda raw: table_values(base, raw)).lookahead(rows)
        targets = look.targets(table_values(base, look.children), len(rows))
        assert np.abs(targets - table_values(base, rows)).max() < 1e-8


def test_table_values_are_the_tablebase_probes(small_rolldown_tables):
    base = Tablebase(TableStore(small_rolldown_tables("d4:1,d6:1/d8:1,d10:1 a -/-")))
    rows = sample_rows(np.random.default_rng(4), 1, 50)
    for row, value in zip(rows, table_values(base, rows)):
        state = RolldownState(dice=(tuple(int(f) for f in row[:6]), tuple(int(f) for f in row[6:12])), mover=0)
        assert base.probe(state) == pytest.approx(value, abs=1e-12)
