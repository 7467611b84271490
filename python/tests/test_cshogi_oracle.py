"""koma's masks, labels, features and legal moves against cshogi on positions cshogi played."""

import cshogi
import numpy as np
from conftest import cshogi_features, cshogi_mask

import koma


def test_action_masks_match_cshogi(positions):
    env = koma.VecEnv.from_sfens(positions, observations=False)
    mask = env.legal_action_mask
    checked = 0
    for i, sfen in enumerate(positions):
        board = cshogi.Board(sfen)
        want = cshogi_mask(board)
        if not want.any():
            # Game over (mate or no move): the mask of an ended game is all true, as in pgx.
            assert mask[i].all(), sfen
            continue
        assert (mask[i] == want).all(), f"mask differs in {sfen}: koma-only {np.nonzero(mask[i] & ~want)[0]}, cshogi-only {np.nonzero(want & ~mask[i])[0]}"
        checked += int(want.sum())
    assert checked > 100_000, checked
    # Both sides to move are covered.
    assert 0 < sum(" w " in s for s in positions) < len(positions)


def test_features_match_cshogi(positions):
    env = koma.VecEnv.from_sfens(positions, observations=True)
    obs = env.observe()
    assert obs.shape == (len(positions), 119, 9, 9) and obs.dtype == np.uint8
    for i, sfen in enumerate(positions):
        want = cshogi_features(cshogi.Board(sfen))
        if not (obs[i] == want).all():
            planes = sorted(set(np.nonzero(obs[i] != want)[0].tolist()))
            raise AssertionError(f"feature planes {planes} differ in {sfen}")
    assert obs[:, 118].any(), "some positions are in check"


def test_board_moves_and_labels_match_cshogi(positions):
    for sfen in positions[:1000]:
        board = koma.Board(sfen)
        ref = cshogi.Board(sfen)
        want = sorted(cshogi.move_to_usi(m) for m in ref.legal_moves)
        assert sorted(board.legal_moves) == want, sfen
        assert board.is_check() == ref.is_check()
        labels = board.legal_labels()
        for usi, label in zip(board.legal_moves, labels):
            assert dlshogi_label(ref, usi) == label
            assert board.label_to_usi(int(label)) == usi
        assert (board.features() == cshogi_features(ref)).all()


def dlshogi_label(board, usi):
    from cshogi import dlshogi

    return dlshogi.make_move_label(board.move_from_usi(usi), board.turn)
