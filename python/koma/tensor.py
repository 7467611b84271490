"""The constant-tensor formulation of the rules of shogi: an executable reference.

The published design (garzon/shogi) writes every rule as a constant tensor and finds the legal
moves of B positions by Einstein summation over ``[B, K, F, T, p]``, with no branch per
position. This module ships that design made exact — pins and discovered attacks through the
"if moved, is my king attacked" contraction computed per (from, to) pair, 打ち歩詰め by a
contraction over the position after the drop, and 千日手 with the perpetual-check rule over
exactly packed state keys — and checks it against koma's native bitboard engine in CI.

It is written once against a small array backend, so the same code runs on numpy and, unchanged,
on torch (CPU or CUDA): ``Rules(backend="torch", device="cuda")``. Large batches are processed in
chunks (``chunk`` positions at a time) so memory stays bounded; the largest intermediate is the
``[chunk, 81, 81, 81]`` blocker count of the king-safety contraction.

Index conventions (the same as ``VecEnv.legal_moves_mat``; see docs/batch.md): ``K`` 21 kinds
(board kinds pawn, lance, knight, silver, gold, bishop, rook, king, +pawn, +lance, +knight,
+silver, horse, dragon; hand kinds 14-20 pawn .. rook), ``F`` origin (80 for a drop), ``T``
destination, ``p`` promotion; squares row by row from the far side, right to left as the side to
move sees them (``9a`` = 0 for Black), turned 180° when White is to move.

State of a batch (:class:`State`): ``own``/``opp`` piece planes ``[B, 14, 81]`` from the side to
move's view, ``hand`` counts ``[B, 2, 7]`` (side to move first; pawn, lance, knight, silver,
gold, bishop, rook), ``side`` (0 Black, 1 White to move) and ``ply``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, List, Optional, Sequence

import numpy as np

PAWN, LANCE, KNIGHT, SILVER, GOLD, BISHOP, ROOK, KING = range(8)
PRO_PAWN, PRO_LANCE, PRO_KNIGHT, PRO_SILVER, HORSE, DRAGON = range(8, 14)
K_DIM, SQ, DROP_FROM = 21, 81, 80
_LETTERS = "PLNSGBRK"
_PROMOTED = {PAWN: PRO_PAWN, LANCE: PRO_LANCE, KNIGHT: PRO_KNIGHT, SILVER: PRO_SILVER, BISHOP: HORSE, ROOK: DRAGON}
_STARTPOS = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"


# -- constant tensors (numpy, built once) ------------------------------------------------------


def _on(r: int, c: int) -> bool:
    return 0 <= r < 9 and 0 <= c < 9


def _constants() -> dict:
    gold = [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, 0)]
    king = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]
    steps = {
        PAWN: [(-1, 0)],
        KNIGHT: [(-2, -1), (-2, 1)],
        SILVER: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 1)],
        GOLD: gold, PRO_PAWN: gold, PRO_LANCE: gold, PRO_KNIGHT: gold, PRO_SILVER: gold,
        KING: king, HORSE: [(-1, 0), (1, 0), (0, -1), (0, 1)], DRAGON: [(-1, -1), (-1, 1), (1, -1), (1, 1)],
    }
    rays = {LANCE: [(-1, 0)], BISHOP: [(-1, -1), (-1, 1), (1, -1), (1, 1)], ROOK: [(-1, 0), (1, 0), (0, -1), (0, 1)]}
    rays[HORSE], rays[DRAGON] = rays[BISHOP], rays[ROOK]
    move = np.zeros((14, SQ, SQ), dtype=bool)
    between = np.zeros((SQ, SQ, SQ), dtype=bool)
    for f in range(SQ):
        r, c = divmod(f, 9)
        for k in range(14):
            for dr, dc in steps.get(k, []):
                if _on(r + dr, c + dc):
                    move[k, f, (r + dr) * 9 + c + dc] = True
            for dr, dc in rays.get(k, []):
                i = 1
                while _on(r + i * dr, c + i * dc):
                    move[k, f, (r + i * dr) * 9 + c + i * dc] = True
                    i += 1
        for dr, dc in king:
            path = []
            i = 1
            while _on(r + i * dr, c + i * dc):
                t = (r + i * dr) * 9 + c + i * dc
                for p in path:
                    between[f, t, p] = True
                path.append(t)
                i += 1
    opp_move = move[:, ::-1, ::-1].copy()  # the opponent moves "down" in our view
    zone = np.array([s // 9 < 3 for s in range(SQ)])
    promo = np.zeros((14, SQ, SQ), dtype=bool)
    for k in _PROMOTED:
        promo[k] = zone[:, None] | zone[None, :]
    must = np.zeros((14, SQ), dtype=bool)  # destinations where not promoting is illegal
    drop_ok = np.ones((7, SQ), dtype=bool)
    for s in range(SQ):
        row = s // 9
        if row == 0:
            must[PAWN, s] = must[LANCE, s] = must[KNIGHT, s] = True
            drop_ok[PAWN, s] = drop_ok[LANCE, s] = drop_ok[KNIGHT, s] = False
        if row == 1:
            must[KNIGHT, s] = True
            drop_ok[KNIGHT, s] = False
    same_col = np.array([[a % 9 == b % 9 for b in range(SQ)] for a in range(SQ)])
    promote_map = np.arange(14)
    for k, pk in _PROMOTED.items():
        promote_map[k] = pk
    to_hand = np.zeros((14, 7), dtype=bool)  # captured kind -> hand kind
    for k in range(14):
        base = {PRO_PAWN: PAWN, PRO_LANCE: LANCE, PRO_KNIGHT: KNIGHT, PRO_SILVER: SILVER, HORSE: BISHOP, DRAGON: ROOK}.get(k, k)
        if base != KING:
            to_hand[k, base] = True
    # dlshogi label of each tensor entry (-1: no such move).
    label = -np.ones((K_DIM, SQ, SQ, 2), dtype=np.int64)
    lsq = np.array([(8 - s % 9) * 9 + s // 9 for s in range(SQ)])  # published -> label square
    for f in range(SQ):
        for t in range(SQ):
            if f == t:
                continue
            fx, fy, tx, ty = 8 - f % 9, f // 9, 8 - t % 9, t // 9
            dx, dy = fx - tx, ty - fy
            if dy < 0 and dx == 0:
                d = 0
            elif dy == -2 and dx == -1:
                d = 8
            elif dy == -2 and dx == 1:
                d = 9
            elif dy < 0:
                d = 1 if dx < 0 else 2
            elif dy == 0:
                d = 3 if dx < 0 else 4
            else:
                d = 5 if dx == 0 else (6 if dx < 0 else 7)
            label[:14, f, t, 0] = d * 81 + lsq[t]
            label[:14, f, t, 1] = (d + 10) * 81 + lsq[t]
    koma_drop_plane = [0, 1, 2, 3, 6, 4, 5]  # P L N S G B R -> cshogi's P L N S B R G
    for h in range(7):
        label[14 + h, DROP_FROM, :, 0] = (20 + koma_drop_plane[h]) * 81 + lsq
    bits = np.zeros((2 * 14 * SQ + 2 * 7 * 5 + 1,), dtype=np.int64)
    return dict(move=move, opp_move=opp_move, between=between, promo=promo, must=must, drop_ok=drop_ok,
                same_col=same_col, promote_map=promote_map, to_hand=to_hand, label=label, n_bits=bits.size)


_C = _constants()


# -- array backends ------------------------------------------------------------------------------


class _Numpy:
    name = "numpy"

    def __init__(self, device: Any = None) -> None:
        self.xp = np

    def asarray(self, a, dtype=None):
        return np.asarray(a, dtype=dtype)

    def f32(self, a):
        return a.astype(np.float32)

    def i64(self, a):
        return a.astype(np.int64)

    def ein(self, eq, *xs):
        return np.einsum(eq, *[x.astype(np.float32) for x in xs], optimize=True)

    def any(self, a, axis):
        return a.any(axis=axis)

    def zeros(self, shape, dtype):
        return np.zeros(shape, dtype={"bool": bool, "i64": np.int64, "f32": np.float32}[dtype])

    def numpy(self, a):
        return np.asarray(a)

    def flip(self, a, axis):
        return np.flip(a, axis=axis).copy()

    def cat(self, xs, axis):
        return np.concatenate(xs, axis=axis)

    def arange(self, n):
        return np.arange(n)

    def repeat_kinds(self, a, n):
        return np.repeat(a[:, None], n, axis=1)


class _Torch:
    name = "torch"

    def __init__(self, device: Any = None) -> None:
        import torch  # opt-in: only imported when asked for

        self.torch = torch
        self.device = torch.device(device or ("cuda" if torch.cuda.is_available() else "cpu"))

    def asarray(self, a, dtype=None):
        t = self.torch.as_tensor(np.asarray(a) if not isinstance(a, self.torch.Tensor) else a, device=self.device)
        if dtype is bool:
            t = t.bool()
        elif dtype is np.int64:
            t = t.long()
        return t

    def f32(self, a):
        return a.float()

    def i64(self, a):
        return a.long()

    def ein(self, eq, *xs):
        return self.torch.einsum(eq, *[x.float() for x in xs])

    def any(self, a, axis):
        return a.any(dim=axis)

    def zeros(self, shape, dtype):
        d = {"bool": self.torch.bool, "i64": self.torch.int64, "f32": self.torch.float32}[dtype]
        return self.torch.zeros(shape, dtype=d, device=self.device)

    def numpy(self, a):
        return a.detach().cpu().numpy()

    def flip(self, a, axis):
        return self.torch.flip(a, dims=(axis,))

    def cat(self, xs, axis):
        return self.torch.cat(xs, dim=axis)

    def arange(self, n):
        return self.torch.arange(n, device=self.device)

    def repeat_kinds(self, a, n):
        return a[:, None].repeat(1, n, 1, 1)


# -- state ---------------------------------------------------------------------------------------


@dataclass
class State:
    """A batch of positions from the side to move's view (see the module doc)."""

    own: Any
    opp: Any
    hand: Any
    side: Any
    ply: Any

    def __len__(self) -> int:
        return int(self.own.shape[0])


def _parse_sfen(sfen: str):
    """(own [14, 81], opp [14, 81], hand [2, 7], side, ply) in the side to move's view."""
    if sfen.strip() == "startpos":
        sfen = _STARTPOS
    parts = sfen.split()
    if len(parts) < 3:
        raise ValueError(f"not an SFEN: {sfen!r}")
    rows = parts[0].split("/")
    if len(rows) != 9:
        raise ValueError(f"SFEN board has {len(rows)} ranks: {sfen!r}")
    planes = np.zeros((2, 14, SQ), dtype=bool)  # [colour, kind, square in Black's view]
    for r, row in enumerate(rows):
        c, promoted = 0, False
        for ch in row:
            if ch == "+":
                promoted = True
                continue
            if ch.isdigit():
                c += int(ch)
                continue
            k = _LETTERS.index(ch.upper())
            if promoted:
                k = _PROMOTED[k]
            planes[0 if ch.isupper() else 1, k, r * 9 + c] = True
            c += 1
            promoted = False
    hands = np.zeros((2, 7), dtype=np.int64)
    if parts[2] != "-":
        n = 0
        for ch in parts[2]:
            if ch.isdigit():
                n = n * 10 + int(ch)
                continue
            hands[0 if ch.isupper() else 1, _LETTERS.index(ch.upper())] += max(n, 1)
            n = 0
    side = 0 if parts[1] == "b" else 1
    ply = int(parts[3]) if len(parts) > 3 else 1
    if side == 0:
        return planes[0], planes[1], hands, side, ply
    return planes[1][:, ::-1], planes[0][:, ::-1], hands[::-1], side, ply


def _to_sfen(own, opp, hand, side, ply) -> str:
    if side == 1:
        own, opp, hand = opp[:, ::-1], own[:, ::-1], hand[::-1]
    letters = ["P", "L", "N", "S", "G", "B", "R", "K", "+P", "+L", "+N", "+S", "+B", "+R"]
    rows = []
    for r in range(9):
        row, empty = "", 0
        for c in range(9):
            s = r * 9 + c
            piece = None
            for k in range(14):
                if own[k, s]:
                    piece = letters[k]
                elif opp[k, s]:
                    piece = letters[k].lower()
            if piece is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            row += piece
        rows.append(row + (str(empty) if empty else ""))
    h = ""
    for colour in (0, 1):
        for k in (ROOK, BISHOP, GOLD, SILVER, KNIGHT, LANCE, PAWN):
            n = int(hand[colour, k])
            if n:
                letter = _LETTERS[k] if colour == 0 else _LETTERS[k].lower()
                h += (str(n) if n > 1 else "") + letter
    return f"{'/'.join(rows)} {'bw'[side]} {h or '-'} {ply}"


# -- the rules -----------------------------------------------------------------------------------


class Rules:
    """The rules as constant tensors on one backend (``"numpy"`` or ``"torch"``)."""

    def __init__(self, backend: str = "numpy", device: Any = None, chunk: int = 32) -> None:
        if backend not in ("numpy", "torch"):
            raise ValueError(f"backend {backend!r} is not 'numpy' or 'torch'")
        self.b = _Numpy(device) if backend == "numpy" else _Torch(device)
        self.chunk = int(chunk)
        b = self.b
        self.move = b.asarray(_C["move"], bool)
        self.opp_move = b.asarray(_C["opp_move"], bool)
        self.between = b.asarray(_C["between"], bool)
        self.promo = b.asarray(_C["promo"], bool)
        self.must = b.asarray(_C["must"], bool)
        self.drop_ok = b.asarray(_C["drop_ok"], bool)
        self.same_col = b.asarray(_C["same_col"], bool)
        self.to_hand = b.asarray(_C["to_hand"], bool)
        self.promote_onehot = b.asarray(np.eye(14, dtype=bool)[_C["promote_map"]], bool)  # [k, k']
        self.not_eye = b.asarray(~np.eye(SQ, dtype=bool), bool)
        self.label = b.asarray(_C["label"].reshape(-1), np.int64)

    # -- states ---------------------------------------------------------------------------------

    def from_sfens(self, sfens: Sequence[str]) -> State:
        """A state from SFEN strings (parsed here, independently of koma's Rust code)."""
        parsed = [_parse_sfen(s) for s in sfens]
        b = self.b
        return State(
            own=b.asarray(np.stack([p[0] for p in parsed]), bool),
            opp=b.asarray(np.stack([p[1] for p in parsed]), bool),
            hand=b.asarray(np.stack([p[2] for p in parsed]), np.int64),
            side=np.array([p[3] for p in parsed]),
            ply=np.array([p[4] for p in parsed]),
        )

    def sfens(self, s: State) -> List[str]:
        own, opp, hand = self.b.numpy(s.own), self.b.numpy(s.opp), self.b.numpy(s.hand)
        return [_to_sfen(own[i], opp[i], hand[i], int(s.side[i]), int(s.ply[i])) for i in range(len(s))]

    # -- legal moves ----------------------------------------------------------------------------

    def legal_moves_mat(self, s: State):
        """bool ``[B, 21, 81, 81, 2]``: the legal moves, computed ``chunk`` positions at a time."""
        parts = [self._legal(self._slice(s, i, i + self.chunk)) for i in range(0, len(s), self.chunk)]
        return self.b.cat(parts, 0)

    def legal_action_mask(self, s: State):
        """bool ``[B, 2187]``: the dlshogi labels of the legal moves (via the tensor)."""
        out = []
        for i in range(0, len(s), self.chunk):
            mat = self._legal(self._slice(s, i, i + self.chunk)).reshape(-1, K_DIM * SQ * SQ * 2)
            rows, cols = np.nonzero(self.b.numpy(mat))
            m = np.zeros((mat.shape[0], 2187), dtype=bool)
            m[rows, self.b.numpy(self.label)[cols]] = True
            out.append(m)
        return np.concatenate(out)

    def _slice(self, s: State, a: int, z: int) -> State:
        return State(s.own[a:z], s.opp[a:z], s.hand[a:z], s.side[a:z], s.ply[a:z])

    def _king_safety(self, s: State):
        """Per position: attackers of our king on an empty board ``[B, Q]``, the squares between
        each and the king ``[B, Q, P]``, their blocker counts ``[B, Q]``, and the occupancy."""
        b = self.b
        occ = s.own.any(1) | s.opp.any(1)
        ksq = s.own[:, KING]
        att = b.ein("bkq,kqt,bt->bq", s.opp, self.opp_move, ksq) > 0.5
        between = b.ein("qtp,bt->bqp", self.between, ksq) > 0.5
        n = b.ein("bqp,bp->bq", between, occ)
        return occ, att, between, n

    def in_check(self, s: State):
        """bool ``[B]``: whether the side to move is in check."""
        _, att, _, n = self._king_safety(s)
        return b_any(self.b, att & (n < 0.5), 1)

    def _legal(self, s: State):
        b = self.b
        B = len(s)
        own_occ = s.own.any(1)
        occ, att, between, n = self._king_safety(s)
        blocked = b.ein("ftp,bp->bft", self.between, occ) > 0.5
        reach = (s.own[:, :, :, None] & self.move[None]) & (~blocked & ~own_occ[:, None, :])[:, None]
        # "If moved, is my king attacked": blocker counts after vacating F and filling T.
        S = b.f32(between)
        fill = S * b.f32(~occ)[:, None, :]
        n_after = n[:, :, None, None] - S[:, :, :, None] + fill[:, :, None, :]
        hit = (n_after < 0.5) & att[:, :, None, None] & self.not_eye[None, :, None, :]
        attacked = b_any(b, hit, 1)  # [B, F, T]
        # King moves: attacks on T with our king lifted off the board.
        occ_nk = occ & ~s.own[:, KING]
        nb = b.ein("qtp,bp->bqt", self.between, occ_nk)
        reach_opp = b.ein("bkq,kqt->bqt", s.opp, self.opp_move) > 0.5
        king_attacked = b_any(b, reach_opp & (nb < 0.5), 1)  # [B, T]
        safe = b.repeat_kinds(~attacked, 14)
        safe[:, KING] = ~king_attacked[:, None, :]
        board = reach & safe
        out = b.zeros((B, K_DIM, SQ, SQ, 2), "bool")
        out[:, :14, :, :, 1] = board & self.promo[None]
        out[:, :14, :, :, 0] = board & ~self.must[None, :, None, :]
        # Drops.
        empty = ~occ
        drop = (s.hand[:, 0, :, None] > 0) & empty[:, None, :] & self.drop_ok[None]
        pawn_files = b.ein("bp,pt->bt", s.own[:, PAWN], self.same_col) > 0.5
        drop[:, PAWN] = drop[:, PAWN] & ~pawn_files
        n_drop = n[:, :, None] + b.f32(between)  # [B, Q, T]
        drop_attacked = b_any(b, (n_drop < 0.5) & att[:, :, None], 1)  # [B, T]
        drop = drop & ~drop_attacked[:, None, :]
        drop[:, PAWN] = drop[:, PAWN] & ~self._pawn_drop_mates(s, drop[:, PAWN])
        out[:, 14:, DROP_FROM, :, 0] = drop
        return out

    def _pawn_drop_mates(self, s: State, pawn_drops):
        """bool ``[B, 81]``: the otherwise legal pawn drops that checkmate (打ち歩詰め)."""
        b = self.b
        B = len(s)
        # The square in front of the enemy king (one row down in our view).
        kq = s.opp[:, KING]
        front = b.zeros((B, SQ), "bool")
        front[:, 9:] = kq[:, :-9]
        cand = pawn_drops & front
        rows = np.nonzero(self.b.numpy(b_any(b, cand, 1)))[0]
        result = b.zeros((B, SQ), "bool")
        if len(rows) == 0:
            return result
        sub = self._slice_rows(s, rows)
        t_oh = cand[rows]
        act = self.b.numpy(t_oh).argmax(1)
        after = self.apply(sub, ((14 + PAWN) * SQ + DROP_FROM) * SQ * 2 + act * 2)
        mated = ~self.has_legal_move(after)
        mated_rows = rows[self.b.numpy(mated)]
        if len(mated_rows):
            result[self._index(mated_rows)] = t_oh[self._index(np.nonzero(self.b.numpy(mated))[0])]
        return result

    def _index(self, rows):
        return self.b.asarray(np.asarray(rows, dtype=np.int64), np.int64)

    def _slice_rows(self, s: State, rows) -> State:
        idx = self._index(rows)
        return State(s.own[idx], s.opp[idx], s.hand[idx], s.side[rows], s.ply[rows])

    def has_legal_move(self, s: State):
        """bool ``[B]``."""
        parts = []
        for i in range(0, len(s), self.chunk):
            m = self._legal(self._slice(s, i, i + self.chunk))
            parts.append(b_any(self.b, m.reshape(m.shape[0], -1), 1))
        return self.b.cat(parts, 0)

    # -- transition -----------------------------------------------------------------------------

    def apply(self, s: State, actions) -> State:
        """The states after one move per position, by mask arithmetic; ``actions`` are flat
        ``[K, F, T, p]`` indices (legal ones: this is a reference, not a referee)."""
        b = self.b
        a = np.asarray(actions, dtype=np.int64)
        k, rest = np.divmod(a, SQ * SQ * 2)
        f, rest = np.divmod(rest, SQ * 2)
        t, p = np.divmod(rest, 2)
        B = len(s)
        eye = np.eye(SQ, dtype=bool)
        f_oh, t_oh = b.asarray(eye[np.minimum(f, SQ - 1)], bool), b.asarray(eye[t], bool)
        is_drop = b.asarray(k >= 14, bool)
        kind = np.where(k >= 14, k - 14, k)  # hand kinds 14-20 are board kinds 0-6
        dest = np.where(p == 1, _C["promote_map"][np.minimum(kind, 13)], kind)
        dest_oh = b.asarray(np.eye(14, dtype=bool)[dest], bool)
        vacate = f_oh & ~is_drop[:, None]
        own = s.own & ~vacate[:, None, :]
        own = own | (dest_oh[:, :, None] & t_oh[:, None, :])
        captured = b_any(b, s.opp & t_oh[:, None, :], 2)  # [B, 14]
        opp = s.opp & ~t_oh[:, None, :]
        gain = b.i64(b.ein("bk,kh->bh", captured, self.to_hand) > 0.5)
        used = b.asarray(np.eye(7, dtype=np.int64)[np.clip(k - 14, 0, 6)] * (k >= 14)[:, None], np.int64)
        mine = s.hand[:, 0] + gain - used
        hand = b.cat([s.hand[:, 1:2], mine[:, None]], 1)
        return State(
            own=b.flip(opp, 2), opp=b.flip(own, 2), hand=hand,
            side=1 - np.asarray(s.side), ply=np.asarray(s.ply) + 1,
        )

    def keys(self, s: State):
        """int64 ``[B, W]``: board planes and hand counts packed exactly into 62-bit words (for
        repetition; the side to move is implied by the parity of the ply)."""
        b = self.b
        B = len(s)
        hand_bits = (s.hand.reshape(B, 14)[:, :, None] >> b.asarray(np.arange(5), np.int64)) & 1
        bits = b.cat([b.i64(s.own.reshape(B, -1)), b.i64(s.opp.reshape(B, -1)), hand_bits.reshape(B, -1)], 1)
        pad = (-bits.shape[1]) % 62
        bits = b.cat([bits, b.zeros((B, pad), "i64")], 1).reshape(B, -1, 62)
        weights = b.asarray(1 << np.arange(62, dtype=np.int64), np.int64)
        return (bits * weights).sum(-1)


def b_any(b, a, axis):
    return b.any(a, axis)


@dataclass
class Game:
    """B games on the reference rules, with the history a repetition rule needs: steps return
    rewards per colour and terminated/truncated flags like ``koma.VecEnv`` (no autoreset)."""

    rules: Rules
    state: State
    max_plies: int = 512
    history: List[Any] = field(default_factory=list)
    checks: List[Any] = field(default_factory=list)
    plies: int = 0

    def step(self, actions):
        r = self.rules
        self.history.append(r.b.numpy(r.keys(self.state)))
        self.checks.append(r.b.numpy(r.in_check(self.state)))
        self.state = r.apply(self.state, actions)
        self.plies += 1
        return self.judge()

    def judge(self):
        r = self.rules
        s = self.state
        B = len(s)
        key = r.b.numpy(r.keys(s))
        check = r.b.numpy(r.in_check(s))
        hist = np.stack(self.history, 1)  # [B, H, W]
        H = hist.shape[1]
        same = (hist == key[:, None, :]).all(-1)
        same[:, (H - np.arange(H)) % 2 == 1] = False  # only positions with the same side to move
        count = same.sum(1)
        rewards = np.zeros((B, 2), dtype=np.float32)
        terminated = np.zeros(B, dtype=bool)
        side = np.asarray(s.side)
        four = count >= 3
        if four.any():
            in_check = np.concatenate([np.stack(self.checks, 1), check[:, None]], 1)
            for i in np.nonzero(four)[0]:
                first = np.nonzero(same[i])[0][-3]
                # Side to move and check flag of each position after the first occurrence.
                stm = [(side[i] + H - j) % 2 for j in range(first + 1, H + 1)]
                chk = in_check[i, first + 1:]
                for checker in (0, 1):
                    victim = [c for t, c in zip(stm, chk) if t != checker]
                    if victim and all(victim):
                        rewards[i, checker], rewards[i, 1 - checker] = -1, 1
                        break
            terminated |= four
        none = ~np.asarray(r.b.numpy(r.has_legal_move(s))) & ~terminated
        rewards[none, side[none]] = -1
        rewards[none, 1 - side[none]] = 1
        terminated |= none
        truncated = ~terminated & (self.plies >= self.max_plies)
        return rewards, terminated, truncated
