//! dlshogi's 2187 action labels (27 direction and drop planes × 81 destination squares), exactly
//! as cshogi's `cshogi.dlshogi.make_move_label` numbers them.
//!
//! A label is `plane * 81 + to`, with squares numbered as koma's [`Square::index`] (`1a` = 0,
//! `9i` = 80) and the board turned 180° when White is to move, so the network always sees the
//! side to move at the bottom. Planes 0-9 are board moves by direction (up, up-left, up-right,
//! left, right, down, down-left, down-right, and the two knight jumps), 10-19 the same with
//! promotion, 20-26 drops of pawn, lance, knight, silver, bishop, rook, gold (cshogi's piece-type
//! order, which is koma's [`PieceKind`] order; note that cshogi's hands and the input features
//! put gold before bishop instead). "Left" is towards
//! the 9th file as the side to move sees the board.
//!
//! Labels identify a legal move uniquely: a board move is found from its destination and
//! direction, since the first piece met from the destination against the direction is the only
//! one that can make it.

use koma_core::{Color, Move, PieceKind, Position, Square};

/// The number of action labels: 27 planes × 81 squares.
pub const NUM_LABELS: usize = 2187;

/// The number of label planes: 10 directions, the same 10 promoting, 7 drops.
pub const NUM_PLANES: usize = 27;

/// The hand kinds in the dlshogi (and cshogi) hand order: 歩香桂銀金角飛.
pub const DLSHOGI_HAND_ORDER: [PieceKind; 7] = [
    PieceKind::Pawn,
    PieceKind::Lance,
    PieceKind::Knight,
    PieceKind::Silver,
    PieceKind::Gold,
    PieceKind::Bishop,
    PieceKind::Rook,
];

/// The direction plane (0..10) of a board move from `from` to `to`, both already seen from the
/// side to move; `u8::MAX` where no piece can move so (the same square).
const fn direction(from: usize, to: usize) -> u8 {
    if from == to {
        return u8::MAX;
    }
    // x: file index (0 = file 1), y: rank index (0 = rank a, the far side).
    let (fx, fy) = ((from / 9) as i32, (from % 9) as i32);
    let (tx, ty) = ((to / 9) as i32, (to % 9) as i32);
    let dx = fx - tx; // < 0: towards the 9th file, "left"
    let dy = ty - fy; // < 0: forwards
    if dy < 0 && dx == 0 {
        0 // up
    } else if dy == -2 && dx == -1 {
        8 // knight, up-left
    } else if dy == -2 && dx == 1 {
        9 // knight, up-right
    } else if dy < 0 && dx < 0 {
        1 // up-left
    } else if dy < 0 {
        2 // up-right
    } else if dy == 0 && dx < 0 {
        3 // left
    } else if dy == 0 {
        4 // right
    } else if dx == 0 {
        5 // down
    } else if dx < 0 {
        6 // down-left
    } else {
        7 // down-right
    }
}

/// `DIRECTION[from][to]` for squares seen from the side to move.
static DIRECTION: [[u8; 81]; 81] = {
    let mut t = [[0u8; 81]; 81];
    let mut f = 0;
    while f < 81 {
        let mut to = 0;
        while to < 81 {
            t[f][to] = direction(f, to);
            to += 1;
        }
        f += 1;
    }
    t
};

/// `LABELS[side][origin][to]`: the label of a non-promoting move, where `origin` is the move's
/// origin field (a square 0..81, or 81 + the kind for a drop) and `to` its absolute destination.
/// One lookup per move in the step's hot loop.
static LABELS: [[[u16; 81]; 88]; 2] = {
    let mut t = [[[0u16; 81]; 88]; 2];
    let mut side = 0;
    while side < 2 {
        let mut origin = 0;
        while origin < 88 {
            let mut to = 0;
            while to < 81 {
                let rel_to = if side == 0 { to } else { 80 - to };
                let plane = if origin < 81 {
                    let rel_from = if side == 0 { origin } else { 80 - origin };
                    let d = direction(rel_from, rel_to);
                    if d == u8::MAX { 0 } else { d as u16 }
                } else {
                    20 + (origin - 81) as u16
                };
                t[side][origin][to] = plane * 81 + rel_to as u16;
                to += 1;
            }
            origin += 1;
        }
        side += 1;
    }
    t
};

/// A square seen from `side`: turned 180° for White.
#[inline]
pub(crate) fn relative(sq: Square, side: Color) -> usize {
    match side {
        Color::Black => sq.index(),
        Color::White => 80 - sq.index(),
    }
}

/// The label of `m` played by `side` (the side to move of the position it is played in).
///
/// ```
/// use koma_batch::label::move_label;
/// use koma_core::Color;
/// // 7g7f: up (plane 0) to 7f, square index 6 * 9 + 5 = 59.
/// assert_eq!(move_label("7g7f".parse().unwrap(), Color::Black), 59);
/// // White's 3c3d is the same move seen from White's side.
/// assert_eq!(move_label("3c3d".parse().unwrap(), Color::White), 80 - 21);
/// ```
#[inline]
pub fn move_label(m: Move, side: Color) -> u16 {
    // koma-core's move layout: destination in bits 0-6, origin (or 81 + drop kind) in 7-13.
    let origin = (m.bits() as usize >> 7) & 0x7F;
    origin_label(origin_labels(side, origin), m)
}

/// The labels of the non-promoting moves by `side` from one origin field (a square 0..81, or
/// 81 + the kind for a drop), indexed by absolute destination: hoisted out of a loop over the
/// moves of one origin, [`origin_label`] is one lookup per move.
#[inline]
pub(crate) fn origin_labels(side: Color, origin: usize) -> &'static [u16; 81] {
    &LABELS[side.index()][origin.min(87)]
}

/// The label of `m`, a move from the origin whose row `labels` is (see [`origin_labels`]).
#[inline]
pub(crate) fn origin_label(labels: &[u16; 81], m: Move) -> u16 {
    labels[m.to().index()] + if m.is_promotion() { 10 * 81 } else { 0 }
}

/// The legal move of `pos` with label `label`, if there is one.
///
/// ```
/// use koma_batch::label::{label_move, move_label};
/// use koma_core::Position;
/// let pos = Position::startpos();
/// for m in pos.legal_moves().iter() {
///     assert_eq!(label_move(&pos, move_label(*m, pos.side_to_move()).into()), Some(*m));
/// }
/// assert_eq!(label_move(&pos, 0), None);
/// ```
pub fn label_move(pos: &Position, label: usize) -> Option<Move> {
    if label >= NUM_LABELS {
        return None;
    }
    let side = pos.side_to_move();
    let (plane, rel_to) = (label / 81, label % 81);
    let abs = |rel: usize| {
        let i = match side {
            Color::Black => rel,
            Color::White => 80 - rel,
        };
        Square::new(i as u8)
    };
    let to = abs(rel_to)?;
    let m = if plane >= 20 {
        Move::drop(PieceKind::HAND[plane - 20], to)?
    } else {
        let (dir, promote) = (plane % 10, plane >= 10);
        // Walk from the destination against the direction to the first piece.
        let from = (0..81)
            .filter(|&f| DIRECTION[f][rel_to] == dir as u8 && on_a_move_line(f, rel_to))
            .filter_map(abs)
            .filter(|&f| pos.piece_at(f).is_some())
            .min_by_key(|f| distance(*f, to))?;
        Move::new(from, to, promote)?
    };
    pos.is_legal(m).then_some(m)
}

/// Whether some piece could move from `from` to `to` (relative squares): along a file, rank or
/// diagonal, or by a knight's jump forwards.
fn on_a_move_line(from: usize, to: usize) -> bool {
    let dx = (from / 9).abs_diff(to / 9);
    let dy = (from % 9) as i32 - (to % 9) as i32;
    dx == 0 || dy == 0 || dx == dy.unsigned_abs() as usize || (dx == 1 && dy == 2)
}

fn distance(a: Square, b: Square) -> u8 {
    a.file().abs_diff(b.file()).max(a.rank().abs_diff(b.rank()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_direction_plane_is_reachable_and_labels_are_distinct() {
        let mut seen = [false; 10];
        for f in 0..81 {
            for t in 0..81 {
                if f != t {
                    seen[DIRECTION[f][t] as usize] = true;
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
        let pos = Position::from_sfen(
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
        )
        .unwrap();
        let moves = pos.legal_moves();
        let mut labels: Vec<u16> = moves
            .iter()
            .map(|&m| move_label(m, pos.side_to_move()))
            .collect();
        labels.sort_unstable();
        labels.dedup();
        assert_eq!(labels.len(), moves.len());
    }
}
