"""Boards to and from game records through koma-record; training examples from a record."""

import numpy as np
import pytest

import koma

CSA = "V2.2\nN+Sente\nN-Gote\nPI\n+\n+7776FU\nT3\n-3334FU\n+8822UM\n-3122GI\n%TORYO\n"


def test_csa_and_kif_round_trip():
    board = koma.Board.from_record(CSA)
    assert board.moves == ["7g7f", "3c3d", "8h2b+", "3a2b"]
    kif = board.to_record("kif")
    assert "同　銀(31)" in kif
    again = koma.Board.from_record(kif.encode("cp932"))  # Shift-JIS bytes, detected
    assert again == board and again.moves == board.moves
    assert koma.Board.from_record(board.to_record("csa"), format="csa").sfen() == board.sfen()
    assert koma.Board.from_record("position startpos moves 7g7f 3c3d").ply == 3


def test_record_examples_match_board_features_and_labels():
    features, labels = koma.record_examples(CSA)
    assert features.shape == (4, 119, 9, 9) and labels.shape == (4,)
    board = koma.Board()
    for i, usi in enumerate(["7g7f", "3c3d", "8h2b+", "3a2b"]):
        assert (features[i] == board.features()).all()
        assert labels[i] == board.move_label(usi)
        board.push(usi)


def test_bad_records():
    with pytest.raises(koma.RecordError, match="line"):
        koma.Board.from_record("V2.2\nPI\n+\n+7775FU\n")
    with pytest.raises(ValueError, match='record format "pgn"'):
        koma.Board().to_record("pgn")
    with pytest.raises(TypeError):
        koma.Board.from_record(12)
