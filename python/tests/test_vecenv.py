"""koma.VecEnv: Gymnasium conventions, autoreset modes, tensors, pickling, array ownership."""

import pickle

import numpy as np
from gymnasium.vector import AutoresetMode

import koma

MATE_IN_ONE = "4k4/9/4P4/9/9/9/9/9/4K4 b G 1"
G_DROP_5B = 26 * 81 + 37  # gold drop (plane 26) on 5b (square 37)


def test_spaces_and_metadata():
    env = koma.VecEnv(8, autoreset_mode="same_step")
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    obs, info = env.reset(seed=1)
    assert obs in env.observation_space
    assert env.single_action_space.n == 2187
    assert env.action_space.shape == (8,)
    assert (info["current_player"] == 0).all()
    assert env.legal_action_mask.shape == (8, 2187)
    assert env.legal_action_mask.sum(axis=1).tolist() == [30] * 8


def test_next_step_autoreset():
    env = koma.VecEnv.from_sfens([MATE_IN_ONE, koma.STARTPOS_SFEN])
    actions = env.random_actions()
    actions[0] = G_DROP_5B
    _, reward, term, trunc, _ = env.step(actions)
    assert term.tolist() == [True, False] and reward[0].tolist() == [1.0, -1.0]
    assert env.legal_action_mask[0].all(), "an ended game takes any action"
    _, reward, term, _, _ = env.step(np.array([0, env.random_actions()[1]]))
    assert not term.any() and (reward == 0).all()
    assert env.sfens()[0] == MATE_IN_ONE


def test_same_step_autoreset_keeps_the_final_observation():
    env = koma.VecEnv.from_sfens([MATE_IN_ONE] * 2, autoreset_mode=AutoresetMode.SAME_STEP, reset_to="startpos")
    obs, reward, term, _, info = env.step(np.array([G_DROP_5B, G_DROP_5B]))
    assert term.all() and info["_final_obs"].all()
    final = koma.Board("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 2")
    assert (info["final_obs"][0] == final.features()).all()
    assert info["final_info"]["sfen"][1] == final.sfen()
    assert env.sfens() == [koma.STARTPOS_SFEN] * 2
    assert (obs == koma.Board().features()).all()


def test_disabled_autoreset_waits_for_reset():
    env = koma.VecEnv.from_sfens([MATE_IN_ONE], autoreset_mode="disabled")
    env.step(np.array([G_DROP_5B]))
    _, reward, term, _, _ = env.step(np.array([0]))
    assert (reward == 0).all() and not term[0]
    assert env.sfens()[0].startswith("4k4/4G4")
    env.reset()
    assert env.sfens()[0] == MATE_IN_ONE


def test_tensor_actions_and_tensor_views_agree():
    env = koma.VecEnv(16, seed=2, observations=False)
    for _ in range(30):
        env.step(env.random_actions())
    mat = env.legal_moves_mat()
    assert mat.shape == (16, 21, 81, 81, 2) and mat.dtype == np.bool_
    offsets, indices = env.legal_moves_sparse()
    flat = mat.reshape(16, -1)
    for i in range(16):
        assert np.nonzero(flat[i])[0].tolist() == indices[offsets[i]:offsets[i + 1]].tolist()
    assert (mat.reshape(16, -1).sum(1) == env.legal_action_mask.sum(1)).all()
    # Drops use origin 80 and hand kinds 14..20 only.
    assert not mat[:, 14:, :80].any()
    # The same games played by tensor index and by label.
    tenv = koma.VecEnv.from_sfens(env.sfens(), observations=False, action_kind="tensor")
    picks = np.array([indices[offsets[i]] for i in range(16)], dtype=np.int64)
    tenv.step(picks)
    labels = []
    for i in range(16):
        b = koma.Board(env.sfens()[i])
        k, f, t, p = np.unravel_index(picks[i], (21, 81, 81, 2))
        match = [u for u in b.legal_moves if _tensor_entry(b, u) == (k, f, t, p)]
        assert len(match) == 1
        labels.append(b.move_label(match[0]))
    env.step(np.array(labels))
    assert env.sfens() == tenv.sfens()


def _tensor_entry(board, usi):
    """The published [K, F, T, p] entry of a USI move, computed here independently."""
    white = board.turn == 1

    def sq(s):
        file, rank = int(s[0]), ord(s[1]) - ord("a")
        i = rank * 9 + (9 - file)
        return 80 - i if white else i

    order = "PLNSGBRK"
    if usi[1] == "*":
        return (14 + order.index(usi[0]), 80, sq(usi[2:4]), 0)
    sfen_board = board.sfen().split()[0]
    rows = sfen_board.split("/")
    file, rank = int(usi[0]), ord(usi[1]) - ord("a")
    col, promoted, piece = 0, False, None
    for ch in rows[rank]:
        if ch == "+":
            promoted = True
            continue
        if ch.isdigit():
            col += int(ch)
            continue
        if col == 9 - file:
            piece = (ch.upper(), promoted)
        col += 1
        promoted = False
    letter, promoted = piece
    k = order.index(letter)
    if promoted:
        k = {"P": 8, "L": 9, "N": 10, "S": 11, "B": 12, "R": 13}[letter]
    return (k, sq(usi[:2]), sq(usi[2:4]), int(usi.endswith("+")))


def test_returned_arrays_are_never_overwritten():
    env = koma.VecEnv(4, seed=3)
    obs, _ = env.reset()
    keep_obs, keep_mask = obs.copy(), env.legal_action_mask
    mask_copy = keep_mask.copy()
    out = env.step(env.random_actions())
    keep_reward = out[1]
    for _ in range(5):
        env.step(env.random_actions())
    assert (obs == keep_obs).all() and (keep_mask == mask_copy).all()
    assert keep_reward is out[1]


def test_pickling_keeps_history_and_seeds():
    env = koma.VecEnv(6, seed=9, max_plies=40, observations=False)
    for _ in range(25):
        env.step(env.random_actions())
    clone = pickle.loads(pickle.dumps(env))
    assert clone.sfens() == env.sfens()
    for _ in range(30):
        a = env.random_actions()
        assert (clone.random_actions() == a).all()
        r1 = env.step(a)
        r2 = clone.step(a)
        for x, y in zip(r1[1:4], r2[1:4]):
            assert (x == y).all()
    board = koma.Board("position startpos moves 7g7f 3c3d")
    b2 = pickle.loads(pickle.dumps(board))
    assert b2 == board and b2.moves == ["7g7f", "3c3d"]
    assert b2.pop() == "3c3d"


def test_board_api():
    b = koma.Board()
    assert len(b.legal_moves) == 30 and b.turn == 0 and not b.is_check()
    b.push("7g7f")
    b.push(b.move_label("3c3d"))
    b.push("8h2b+")
    assert b.sfen() == "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4"
    assert b.pop() == "8h2b+"
    assert b.status() == "ongoing" and b.repetition_count() == 1
    assert b.legal_action_mask().sum() == len(b.legal_moves)
    mate = koma.Board(MATE_IN_ONE)
    mate.push("G*5b")
    assert mate.status() == "checkmate" and mate.is_check()
    assert koma.Board().copy() == koma.Board()
