"""Shared helpers for koma's Python tests. cshogi (installed by scripts/setup-python.sh) is the
independent oracle: a missing cshogi is an error, not a skip."""

import random

import cshogi
import numpy as np
import pytest
from cshogi import dlshogi


def cshogi_positions(count: int, seed: int) -> list:
    """SFENs from cshogi's own random playouts (1-200 plies, biased towards captures and checks
    half of the time), so the positions do not come from koma."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        board = cshogi.Board()
        plies = rng.randint(1, 200)
        biased = rng.random() < 0.5
        for _ in range(plies):
            moves = list(board.legal_moves)
            if not moves:
                break
            if biased:
                sharp = [m for m in moves if cshogi.move_cap(m) or board.gives_check(m)] if hasattr(board, "gives_check") else [m for m in moves if cshogi.move_cap(m)]
                if sharp and rng.random() < 0.7:
                    moves = sharp
            board.push(rng.choice(moves))
        out.append(board.sfen())
    return out


def cshogi_mask(board: "cshogi.Board") -> np.ndarray:
    mask = np.zeros(2187, dtype=bool)
    for m in board.legal_moves:
        mask[dlshogi.make_move_label(m, board.turn)] = True
    return mask


def cshogi_features(board: "cshogi.Board") -> np.ndarray:
    f1 = np.zeros((dlshogi.FEATURES1_NUM, 9, 9), dtype=np.float32)
    f2 = np.zeros((dlshogi.FEATURES2_NUM, 9, 9), dtype=np.float32)
    dlshogi.make_input_features(board, f1, f2)
    return np.concatenate([f1, f2]).astype(np.uint8)


@pytest.fixture(scope="session")
def positions():
    return cshogi_positions(3000, seed=20261123)


def pytest_addoption(parser):
    parser.addoption(
        "--tensor-backend",
        default="numpy",
        choices=["numpy", "torch"],
        help="array backend of the einsum reference tests (torch is opt-in: pip install torch first)",
    )
    parser.addoption("--tensor-device", default=None, help="torch device for the reference, e.g. cuda")


@pytest.fixture(scope="session")
def rules(request):
    from koma.tensor import Rules

    return Rules(request.config.getoption("--tensor-backend"), device=request.config.getoption("--tensor-device"))
