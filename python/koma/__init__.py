"""koma: shogi for reinforcement learning, with the rules in Rust.

- :class:`VecEnv`: B games stepped together (Gymnasium vector-env conventions), dlshogi action
  masks, the ``[B, 21, 81, 81, 2]`` legal-move tensor, dlshogi input features, rewards per colour.
- :class:`Board`: one position (legal moves, push/pop, labels, features, game records through
  koma-record); :func:`record_examples` turns a record into (features, labels) for supervised
  learning.
- :mod:`koma.hasami`: hasami shogi as a vector environment, in self-play or against koma's
  hasami agents (``koma.hasami.VecEnv``).
- :mod:`koma.tensor`: the constant-tensor (einsum) formulation of the rules, an executable
  reference on numpy or torch.

Labels, tensor indices and feature planes are documented in docs/batch.md.
"""

from koma._koma import (
    NUM_FEATURES,
    NUM_LABELS,
    STARTPOS_SFEN,
    Board,
    IllegalMoveError,
    NativeBatch,
    RecordError,
    SfenError,
    record_examples,
)
from koma import hasami
from koma.env import VecEnv

__all__ = [
    "NUM_FEATURES",
    "NUM_LABELS",
    "STARTPOS_SFEN",
    "Board",
    "IllegalMoveError",
    "NativeBatch",
    "RecordError",
    "SfenError",
    "record_examples",
    "VecEnv",
    "hasami",
]
