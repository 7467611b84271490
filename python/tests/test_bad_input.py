"""Bad input gives a Python exception with a clear message, never a crash."""

import numpy as np
import pytest

import koma


def test_bad_sfens():
    with pytest.raises(koma.SfenError, match="position 1: "):
        koma.VecEnv.from_sfens([koma.STARTPOS_SFEN, "lnsgkgsnl/9 b - 1"])
    with pytest.raises(koma.SfenError, match="二歩"):
        koma.Board("4k4/9/9/9/9/9/4P4/4P4/4K4 b - 1")
    with pytest.raises(ValueError):
        koma.Board("not a position at all")
    with pytest.raises(TypeError, match="list of SFEN strings"):
        koma.VecEnv.from_sfens(koma.STARTPOS_SFEN)
    with pytest.raises(ValueError, match="num_envs must be a positive integer, got 0"):
        koma.VecEnv.from_sfens([])


def test_bad_actions():
    env = koma.VecEnv(3)
    with pytest.raises(koma.IllegalMoveError, match="environment 0: action 0 is not a legal move in lnsgkgsnl"):
        env.step(np.array([0, 59, 59]))
    with pytest.raises(ValueError, match="environment 2: action 2187 is out of range 0..2187"):
        env.step(np.array([59, 59, 2187]))
    with pytest.raises(ValueError, match="environment 1: action -1 is out of range"):
        env.step(np.array([59, -1, 59]))
    with pytest.raises(ValueError, match=r"shape \(2,\), expected \(3,\)"):
        env.step(np.array([59, 59]))
    with pytest.raises(ValueError, match=r"shape \(3, 1\)"):
        env.step(np.array([[59], [59], [59]]))
    with pytest.raises(TypeError, match="dtype float64"):
        env.step(np.array([59.0, 59.0, 59.0]))
    with pytest.raises(TypeError, match="dtype bool"):
        env.step(np.array([True, True, True]))
    # Nothing was played.
    assert env.sfens() == [koma.STARTPOS_SFEN] * 3
    # Lists and other integer dtypes are fine.
    env.step([59, 59, 59])
    env.step(env.random_actions().astype(np.uint16))


def test_bad_settings():
    with pytest.raises(ValueError, match="autoreset_mode 'sometimes'"):
        koma.VecEnv(2, autoreset_mode="sometimes")
    with pytest.raises(ValueError, match="num_envs must be a positive integer"):
        koma.VecEnv(0)
    with pytest.raises(ValueError, match="max_plies must be at least 1"):
        koma.VecEnv(2, max_plies=0)
    with pytest.raises(ValueError, match="action_kind"):
        koma.VecEnv(2, action_kind="usi")


def test_board_bad_moves():
    b = koma.Board()
    with pytest.raises(koma.IllegalMoveError, match="7g7e is not a legal move"):
        b.push("7g7e")
    with pytest.raises(ValueError):
        b.push("zz")
    with pytest.raises(ValueError, match="out of range"):
        b.push(5000)
    with pytest.raises(koma.IllegalMoveError, match="action label 0 is not a legal move"):
        b.push(0)
    with pytest.raises(TypeError, match="USI string"):
        b.push(1.5)
    with pytest.raises(IndexError, match="no moves played"):
        b.pop()
    with pytest.raises(koma.IllegalMoveError):
        b.__setstate__((koma.STARTPOS_SFEN, ["7g7f", "7f7e"]))


def test_dense_tensor_refuses_huge_batches():
    env = koma.VecEnv(20_000, observations=False)
    with pytest.raises(ValueError, match="legal_moves_sparse"):
        env.legal_moves_mat()
