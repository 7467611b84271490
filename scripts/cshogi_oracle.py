#!/usr/bin/env python3
"""cshogi as an independent oracle for koma-core's differential test.

Generates positions with cshogi (seeded, reproducible) and writes one JSON object per line to
stdout:

    {"gen": "capture", "sfen": "...", "legal": ["1g1f", ...], "in_check": false,
     "checks": [...], "nyugyoku": false, "pdm": "P*5c" | null,
     "cands": [["7g7f", pseudo, legal, gives_check | null], ...]}

- legal: cshogi's legal moves (USI, sorted).
- checks: cshogi's checking moves (`Board.check_moves`, USI, sorted).
- nyugyoku: `Board.is_nyugyoku(LAW_27)` (the 27-point declaration).
- pdm: the pawn drop in front of the enemy king when it is otherwise playable and mates
  (打ち歩詰め), judged by playing it and asking cshogi for the opponent's legal moves; null
  otherwise. Only looked for when the side to move is not in check.
- cands: candidate moves with cshogi's verdicts `is_pseudo_legal`, `is_legal`, and
  gives_check. gives_check is not exposed by cshogi's Python API; it is read as `is_check()`
  after `push(move)`, which is Apery's `moveGivesCheck` (used by doMove). It is asked only for
  moves cshogi calls pseudo-legal and that obey the promotion and dead-piece rules (`push` of
  anything else is not a move at all), and null otherwise.

Candidates: legal moves of the position, the same moves with the promotion flag toggled, legal
moves of other recent positions, random (from, to, promote) combinations of the side to move's
pieces and of any squares, and random drops of every kind on every kind of square.

Generators (round robin by game): uniform random playouts; capture-biased; check-biased (many
positions in check); drop-heavy; random legal placements with many pieces in hand followed by
short playouts; entering-king placements (27-point declaration); edge-king placements with pawns
in hand (pawn-drop mate).

    .venv/bin/python scripts/cshogi_oracle.py --seed 1 --positions 3000

With `--replay` it instead reads games (SFEN and USI moves) on stdin and reports cshogi's
`is_draw()` and `is_nyugyoku()` after every move (see `replay`).
"""

import argparse
import json
import random
import sys

import cshogi

SQ = cshogi.SQUARE_NAMES  # index (file - 1) * 9 + rank - 1 -> "1a"
# cshogi piece types; a Piece is `type | color << 4`.
P, L, N, S, B, R, G, K = (cshogi.PAWN, cshogi.LANCE, cshogi.KNIGHT, cshogi.SILVER, cshogi.BISHOP,
                          cshogi.ROOK, cshogi.GOLD, cshogi.KING)
HAND_TYPES = [P, L, N, S, G, B, R]  # cshogi's hand order
LETTER = {P: "P", L: "L", N: "N", S: "S", G: "G", B: "B", R: "R", K: "K"}
PROMOTABLE = {P, L, N, S, B, R}
SET_COUNT = {P: 18, L: 4, N: 4, S: 4, G: 4, B: 2, R: 2}


def rel_rank(color, sq):
    """Rank 1..9 counted from `color`'s far side (1 = the rank a Black pawn cannot leave)."""
    r = sq % 9 + 1
    return r if color == cshogi.BLACK else 10 - r


def violates_placement_rules(color, pt, from_sq, to_sq, promote):
    """Whether a move breaks the promotion or dead-piece rules (not checked by cshogi 1.1.0's
    `is_pseudo_legal`/`is_legal`, which skip them for moves from outside the search)."""
    if from_sq is None:  # drop
        return (pt in (P, L) and rel_rank(color, to_sq) == 1) or (pt == N and rel_rank(color, to_sq) <= 2)
    if promote:
        return pt not in PROMOTABLE or (rel_rank(color, from_sq) > 3 and rel_rank(color, to_sq) > 3)
    return (pt in (P, L) and rel_rank(color, to_sq) == 1) or (pt == N and rel_rank(color, to_sq) <= 2)


def usi_to_parts(usi):
    if usi[1] == "*":
        return None, SQ.index(usi[2:4]), False, "PLNSGBR".index(usi[0])
    return SQ.index(usi[0:2]), SQ.index(usi[2:4]), usi.endswith("+"), None


DROP_TYPE = [P, L, N, S, G, B, R]  # index of the letter in "PLNSGBR"


def verdicts(board, usi):
    """(pseudo_legal, legal, gives_check or None) by cshogi for the USI move `usi`."""
    frm, to, promote, drop = usi_to_parts(usi)
    us = board.turn
    if frm is None:
        pt = DROP_TYPE[drop]
        m = board.drop_move(to, pt)
    else:
        pt = cshogi.piece_to_piece_type(board.piece(frm))
        m = board.move(frm, to, promote)
    pseudo = bool(board.is_pseudo_legal(m))
    legal = bool(board.is_legal(m))
    gives = None
    own_piece = frm is None or (board.piece(frm) != 0 and (board.piece(frm) >> 4) == us)
    if pseudo and own_piece and not violates_placement_rules(us, pt, frm, to, promote):
        board.push(m)
        gives = bool(board.is_check())
        board.pop()
    return pseudo, legal, gives


def random_usi(rng, board):
    """A random move text: mostly from the side to move's pieces, sometimes from anywhere."""
    us = board.turn
    if rng.random() < 0.3:
        t = rng.randrange(7)
        return "PLNSGBR"[t] + "*" + SQ[rng.randrange(81)]
    pieces = board.pieces
    own = [i for i in range(81) if pieces[i] and (pieces[i] >> 4) == us]
    frm = rng.choice(own) if own and rng.random() < 0.8 else rng.randrange(81)
    # Destinations near the origin are far more often pseudo-legal than uniform ones.
    if rng.random() < 0.6:
        df, dr = rng.randint(-2, 2), rng.randint(-8, 8) if rng.random() < 0.3 else rng.randint(-2, 2)
        f, r = frm // 9 + df, frm % 9 + dr
        if not (0 <= f < 9 and 0 <= r < 9):
            f, r = rng.randrange(9), rng.randrange(9)
        to = f * 9 + r
    else:
        to = rng.randrange(81)
    if to == frm:
        to = (to + 1) % 81
    return SQ[frm] + SQ[to] + ("+" if rng.random() < 0.4 else "")


def toggle_promotion(usi):
    if "*" in usi:
        return None
    return usi[:-1] if usi.endswith("+") else usi + "+"


def pawn_drop_mate(board):
    """The pawn drop in front of the enemy king if it is playable apart from 打ち歩詰め and mates."""
    us = board.turn
    if board.is_check():
        return None
    them_king = board.king_square(1 - us)
    if them_king is None or them_king < 0 or them_king >= 81:
        return None
    # A Black pawn attacks the square one rank lower (towards rank a): it stands one rank higher.
    f, r = them_king // 9, them_king % 9
    r2 = r + 1 if us == cshogi.BLACK else r - 1
    if not 0 <= r2 < 9:
        return None
    sq = f * 9 + r2
    pieces = board.pieces
    if pieces[sq] != 0 or board.pieces_in_hand[us][0] == 0:
        return None
    own_pawn = P | (us << 4)
    if any(pieces[f * 9 + rr] == own_pawn for rr in range(9)):
        return None  # 二歩
    if rel_rank(us, sq) == 1:
        return None
    m = board.drop_move(sq, P)
    board.push(m)
    mate = board.is_check() and len(board.legal_moves) == 0
    board.pop()
    return "P*" + SQ[sq] if mate else None


def record(board, rng, gen, pool):
    legal_moves = list(board.legal_moves)
    legal = sorted(cshogi.move_to_usi(m) for m in legal_moves)
    checks = sorted(cshogi.move_to_usi(m) for m in board.check_moves)
    cands = set()
    for u in rng.sample(legal, min(len(legal), 24)):
        cands.add(u)
        t = toggle_promotion(u)
        if t and rng.random() < 0.5:
            cands.add(t)
    for u in checks[:8]:
        cands.add(u)
    for u in rng.sample(pool, min(len(pool), 10)):
        cands.add(u)
    for _ in range(24):
        cands.add(random_usi(rng, board))
    out = []
    for u in sorted(cands):
        p, lg, gc = verdicts(board, u)
        out.append([u, p, lg, gc])
    pool.extend(rng.sample(legal, min(len(legal), 4)))
    del pool[:-200]
    return {
        "gen": gen,
        "sfen": board.sfen(),
        "legal": legal,
        "in_check": bool(board.is_check()),
        "checks": checks,
        "nyugyoku": bool(board.is_nyugyoku(cshogi.LAW_27)),
        "pdm": pawn_drop_mate(board),
        "cands": out,
    }, legal_moves


def pick(rng, board, legal_moves, bias):
    """One move of a playout, drawn with a bias towards captures, checks or drops."""
    if bias == "capture" and rng.random() < 0.7:
        caps = [m for m in legal_moves if cshogi.move_cap(m)]
        if caps:
            return rng.choice(caps)
    if bias == "check" and rng.random() < 0.6:
        checks = list(board.check_moves)
        if checks:
            return rng.choice(checks)
    if bias == "drop":
        if rng.random() < 0.6:
            drops = [m for m in legal_moves if cshogi.move_is_drop(m)]
            if drops:
                return rng.choice(drops)
        if rng.random() < 0.5:
            caps = [m for m in legal_moves if cshogi.move_cap(m)]
            if caps:
                return rng.choice(caps)
    if bias in ("capture", "drop", "check") and rng.random() < 0.15:
        checks = list(board.check_moves)
        if checks:
            return rng.choice(checks)
    return rng.choice(legal_moves)


def sfen_of(board_pieces, hands, side):
    """SFEN from a {sq: (color, pt, promoted)} dict and per-colour hand counts."""
    rows = []
    for rank in range(9):
        row, empty = "", 0
        for file in range(8, -1, -1):
            p = board_pieces.get(file * 9 + rank)
            if p is None:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            color, pt, promoted = p
            s = ("+" if promoted else "") + LETTER[pt]
            row += s if color == cshogi.BLACK else s.lower()
        if empty:
            row += str(empty)
        rows.append(row)
    hand = ""
    for color in (0, 1):
        for pt in (R, B, G, S, N, L, P):
            n = hands[color].get(pt, 0)
            if n:
                s = (str(n) if n > 1 else "") + LETTER[pt]
                hand += s if color == 0 else s.lower()
    return "/".join(rows) + " " + "bw"[side] + " " + (hand or "-") + " 1"


def random_placement(rng, kind):
    """A random legal position: kings, then every other piece of the set on the board (maybe
    promoted) or in a hand or left out. `kind` shapes it: "hand" puts many pieces in hand,
    "nyugyoku" puts the side to move's king and many of its pieces in the enemy camp, "edge"
    puts the defending king on an edge with pawns in the attacker's hand."""
    side = rng.randrange(2)
    pieces = {}
    hands = [{}, {}]
    def camp(color):  # squares in `color`'s promotion zone (enemy camp)
        return [s for s in range(81) if rel_rank(color, s) <= 3]
    if kind == "nyugyoku":
        ks = rng.choice(camp(side))
    else:
        ks = rng.randrange(81)
    pieces[ks] = (side, K, False)
    if kind == "edge":
        edge = [s for s in range(81) if s % 9 in (0, 8) or s // 9 in (0, 8)]
        free = [s for s in edge if s not in pieces]
        ok = rng.choice(free)
    else:
        ok = rng.choice([s for s in range(81) if s not in pieces])
    pieces[ok] = (1 - side, K, False)
    pool = [pt for pt, n in SET_COUNT.items() for _ in range(n)]
    rng.shuffle(pool)
    p_board = {"hand": 0.35, "nyugyoku": 0.55, "edge": 0.3}.get(kind, 0.5)
    p_hand = {"hand": 0.5, "nyugyoku": 0.3, "edge": 0.4}.get(kind, 0.3)
    for pt in pool:
        x = rng.random()
        color = rng.randrange(2)
        if kind == "edge" and pt == P and rng.random() < 0.5:
            hands[side][P] = hands[side].get(P, 0) + 1
            continue
        if x < p_board:
            if kind == "nyugyoku" and rng.random() < 0.7:
                color = side
                free = [s for s in camp(side) if s not in pieces]
            else:
                free = [s for s in range(81) if s not in pieces]
            if not free:
                continue
            sq = rng.choice(free)
            promoted = pt in PROMOTABLE and rng.random() < 0.3
            if not promoted and violates_placement_rules(color, pt, None, sq, False):
                promoted = pt in PROMOTABLE
            if pt == P and not promoted:
                f = sq // 9
                if any(v == (color, P, False) for s, v in pieces.items() if s // 9 == f):
                    hands[color][P] = hands[color].get(P, 0) + 1
                    continue
            pieces[sq] = (color, pt, promoted)
        elif x < p_board + p_hand:
            hands[color][pt] = hands[color].get(pt, 0) + 1
    # Kings side by side: cshogi's check detection ignores the enemy king (Apery computes checkers
    # without kings), so such a setup would pass the test below; it is never legal.
    if abs(ks // 9 - ok // 9) <= 1 and abs(ks % 9 - ok % 9) <= 1:
        return None
    sfen = sfen_of(pieces, hands, side)
    # Reject if the side not to move is in check: flip the side and ask cshogi.
    flipped = sfen_of(pieces, hands, 1 - side)
    b = cshogi.Board(flipped)
    if b.is_check():
        return None
    return sfen


GENERATORS = ["random", "capture", "check", "drop", "hand", "nyugyoku", "edge"]


def replay():
    """`--replay`: for each stdin line {"sfen": ..., "moves": [...]}, write
    {"draw": [...], "nyugyoku": [...]}: `is_draw()` (REPETITION_* code) and
    `is_nyugyoku(LAW_27)` after 0, 1, ... moves. A move cshogi finds illegal ends the list early
    (the caller sees a short list)."""
    board = cshogi.Board()
    for line in sys.stdin:
        if not line.strip():
            continue
        game = json.loads(line)
        board.set_sfen(game["sfen"])
        draw = [board.is_draw()]
        nyugyoku = [bool(board.is_nyugyoku(cshogi.LAW_27))]
        for usi in game["moves"]:
            m = board.move_from_usi(usi)
            if not m or not board.is_legal(m):
                break
            board.push(m)
            draw.append(board.is_draw())
            nyugyoku.append(bool(board.is_nyugyoku(cshogi.LAW_27)))
        sys.stdout.write(json.dumps({"draw": draw, "nyugyoku": nyugyoku}, separators=(",", ":")) + "\n")
        sys.stdout.flush()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--positions", type=int, default=1000)
    ap.add_argument("--replay", action="store_true", help="judge repetition and declaration along games read from stdin")
    args = ap.parse_args()
    if args.replay:
        replay()
        return
    rng = random.Random(args.seed)
    out = sys.stdout
    written = 0
    pool = []
    game = 0
    board = cshogi.Board()
    while written < args.positions:
        gen = GENERATORS[game % len(GENERATORS)]
        game += 1
        if gen in ("hand", "nyugyoku", "edge"):
            sfen = None
            while sfen is None:
                sfen = random_placement(rng, gen)
            board.set_sfen(sfen)
            length = rng.randint(0, 24)
            bias = "drop" if gen != "nyugyoku" else "random"
        else:
            board.reset()
            length = rng.randint(30, 220)
            bias = gen
        for _ in range(length + 1):
            rec, legal_moves = record(board, rng, gen, pool)
            out.write(json.dumps(rec, separators=(",", ":")))
            out.write("\n")
            written += 1
            if written >= args.positions or not legal_moves:
                break
            board.push(pick(rng, board, legal_moves, bias))
    out.flush()


if __name__ == "__main__":
    main()
