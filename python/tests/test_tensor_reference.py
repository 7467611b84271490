"""The einsum reference (koma.tensor) against the native bitboard engine: the legal-move tensor
on random and sharp positions, and whole games stepped by both, 千日手 included.

    pytest python/tests/test_tensor_reference.py                        # numpy (CI)
    pytest python/tests/test_tensor_reference.py --tensor-backend torch [--tensor-device cuda]
"""

import numpy as np

import koma
from koma.tensor import Game


def compare(rules, sfens):
    env = koma.VecEnv.from_sfens(sfens, observations=False)
    state = rules.from_sfens(sfens)
    assert rules.sfens(state) == env.sfens()
    ref = rules.b.numpy(rules.legal_moves_mat(state))
    native = env.legal_moves_mat()
    for i, sfen in enumerate(sfens):
        if not (ref[i] == native[i]).all():
            diff = np.argwhere(ref[i] != native[i])[:5].tolist()
            raise AssertionError(f"{sfen}: entries {diff} differ (reference has {ref[i][tuple(diff[0])]})")
    return int(native.sum())


def test_reference_matches_native_on_cshogi_positions(rules, positions):
    moves = compare(rules, positions[:300])
    assert moves > 20_000, moves


def test_reference_matches_native_on_sharp_positions(rules):
    sfens = [
        "7lk/9/8S/9/9/9/9/7L1/8K b P 1",  # P*1b would be 打ち歩詰め
        "7lk/9/8S/9/9/9/9/9/8K b P 1",  # the king escapes to 2b: P*1b is legal
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
        "4k4/9/4P4/9/9/9/9/9/4K4 b G 1",
        "k8/9/9/9/4r4/9/4B4/9/4K4 b - 1",  # a pinned bishop
        "4r4/9/9/9/4k4/9/9/4R4/4K4 w - 1",
        "8k/9/R8/9/9/9/9/9/K8 b - 1",
        "4k4/9/9/9/9/9/9/9/4K4 b RBGSNLP 1",
        "4k4/9/9/9/9/9/9/9/4K4 w rbgsnlp 1",
    ]
    compare(rules, sfens)


def test_games_stepped_by_both(rules):
    """Random games (and rook-and-king shuttles, which repeat) stepped by the native engine and
    by the reference's mask arithmetic: same positions, same ends, same rewards."""
    shuttle = "8k/9/R8/9/9/9/9/9/K8 b - 1"
    starts = [shuttle, koma.STARTPOS_SFEN] * 4
    env = koma.VecEnv.from_sfens(starts, observations=False, max_plies=80, autoreset_mode="disabled", seed=7)
    game = Game(rules, rules.from_sfens(starts), max_plies=80)
    cycle = ["9c9a", "1a1b", "9a9b", "1b1a", "9b9a", "1a1b", "9a9b", "1b1a", "9b9a", "1a1b", "9a9b", "1b1a", "9b9a"]
    ended = np.zeros(len(starts), dtype=bool)
    ends = 0
    for ply in range(80):
        actions = env.random_actions()
        if ply < len(cycle):
            for i in range(0, len(starts), 2):
                actions[i] = koma.Board(env.sfens()[i]).move_label(cycle[ply])
        # The same moves as tensor indices for the reference.
        sparse_off, sparse_idx = env.legal_moves_sparse()
        tensor_actions = []
        for i, sfen in enumerate(env.sfens()):
            board = koma.Board(sfen)
            if ended[i]:
                tensor_actions.append(int(sparse_idx[sparse_off[i]]) if sparse_off[i + 1] > sparse_off[i] else 0)
                continue
            choices = sparse_idx[sparse_off[i]:sparse_off[i + 1]]
            entry = [c for c in choices if _label_of(board, c) == actions[i]]
            assert len(entry) == 1
            tensor_actions.append(int(entry[0]))
        _, reward, term, trunc, _ = env.step(actions)
        live = ~ended
        r_reward, r_term, r_trunc = game.step(np.array(tensor_actions))
        assert (r_term[live] == term[live]).all(), (ply, env.sfens())
        assert (r_reward[live] == reward[live]).all(), ply
        assert (r_trunc[live] == trunc[live]).all(), ply
        ref_sfens = rules.sfens(game.state)
        for i in np.nonzero(live)[0]:
            assert ref_sfens[i].rsplit(" ", 1)[0] == env.sfens()[i].rsplit(" ", 1)[0]
        ends += int((term & live).sum())
        ended |= term | trunc
    assert ended[0::2].all() and ends >= 4, "the shuttles ended by perpetual check"


def _label_of(board, flat):
    from koma.tensor import _C

    return int(_C["label"].reshape(-1)[flat])
