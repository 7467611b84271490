//! The `[K, F, T, p]` legal-move tensor of the published constant-tensor design (garzon/shogi),
//! its index convention in one place.
//!
//! - `K` (21): the piece that moves. Board kinds 0-13 in the order pawn, lance, knight, silver,
//!   gold, bishop, rook, king, promoted pawn, promoted lance, promoted knight, promoted silver,
//!   horse, dragon; hand kinds 14-20 for drops of pawn, lance, knight, silver, gold, bishop, rook.
//!   (koma's own [`PieceKind`] numbering differs: it puts gold after rook.)
//! - `F` (81): the origin square; a drop always uses the fixed index 80, as in the published
//!   design (whose state tensor keeps a hand's count along `F`).
//! - `T` (81): the destination square.
//! - `p` (2): 1 for a promoting move, 0 otherwise.
//!
//! Squares are numbered as in the published design (python-shogi's order): row by row from the
//! far side, right to left as the side to move sees it, so `9a` is 0, `1a` is 8, `1i` is 80 for
//! Black; for White to move the board is turned 180° first (the same view as the action labels).
//! The flat index of an entry is `((K * 81 + F) * 81 + T) * 2 + p`.

use koma_core::{Color, Move, PieceKind, Position, Square};

/// Number of piece indices `K`: 14 board kinds and 7 hand kinds.
pub const K_DIM: usize = 21;
/// Number of origin squares `F`.
pub const F_DIM: usize = 81;
/// Number of destination squares `T`.
pub const T_DIM: usize = 81;
/// Number of promotion flags `p`.
pub const P_DIM: usize = 2;
/// Entries of one position's tensor: 21 × 81 × 81 × 2.
pub const TENSOR_LEN: usize = K_DIM * F_DIM * T_DIM * P_DIM;
/// The origin index of every drop.
pub const DROP_FROM: usize = 80;

/// The published `K` of each koma [`PieceKind`] on the board, indexed by `PieceKind::index`.
const BOARD_K: [u8; 14] = [0, 1, 2, 3, 5, 6, 4, 7, 8, 9, 10, 11, 12, 13];

/// koma's [`PieceKind`] of each published board `K` (0..14).
const KIND_OF_K: [PieceKind; 14] = [
    PieceKind::Pawn,
    PieceKind::Lance,
    PieceKind::Knight,
    PieceKind::Silver,
    PieceKind::Gold,
    PieceKind::Bishop,
    PieceKind::Rook,
    PieceKind::King,
    PieceKind::ProPawn,
    PieceKind::ProLance,
    PieceKind::ProKnight,
    PieceKind::ProSilver,
    PieceKind::Horse,
    PieceKind::Dragon,
];

/// One entry of the tensor: which piece moves, from where to where, promoting or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TensorIndex {
    /// `K`, 0..21.
    pub kind: u8,
    /// `F`, 0..81 (80 for a drop).
    pub from: u8,
    /// `T`, 0..81.
    pub to: u8,
    /// `p`.
    pub promote: bool,
}

impl TensorIndex {
    /// The flat index `((K * 81 + F) * 81 + T) * 2 + p`.
    #[inline]
    pub fn flat(self) -> usize {
        ((self.kind as usize * F_DIM + self.from as usize) * T_DIM + self.to as usize) * P_DIM
            + self.promote as usize
    }

    /// The entry with this flat index, if it is below [`TENSOR_LEN`].
    pub fn from_flat(i: usize) -> Option<TensorIndex> {
        if i >= TENSOR_LEN {
            return None;
        }
        Some(TensorIndex {
            kind: (i / (F_DIM * T_DIM * P_DIM)) as u8,
            from: (i / (T_DIM * P_DIM) % F_DIM) as u8,
            to: (i / P_DIM % T_DIM) as u8,
            promote: i % 2 == 1,
        })
    }
}

/// The published `K` of a board piece of koma kind `kind`.
#[inline]
pub fn board_k(kind: PieceKind) -> u8 {
    BOARD_K[kind.index()]
}

/// The published `K` of a drop of `kind` (a hand kind): 14 + its place in 歩香桂銀金角飛.
#[inline]
pub fn drop_k(kind: PieceKind) -> u8 {
    14 + BOARD_K[kind.index()]
}

/// A square's index in the tensor, seen from `side` (the side to move).
#[inline]
pub fn tensor_square(sq: Square, side: Color) -> u8 {
    // python-shogi order: row (rank - 1) from the top, column (9 - file) from the left.
    let i = (sq.rank() - 1) * 9 + (9 - sq.file());
    match side {
        Color::Black => i,
        Color::White => 80 - i,
    }
}

/// The square with tensor index `i` as seen from `side`, if `i < 81`.
pub fn square_of(i: u8, side: Color) -> Option<Square> {
    if i >= 81 {
        return None;
    }
    let i = match side {
        Color::Black => i,
        Color::White => 80 - i,
    };
    Square::from_file_rank(9 - i % 9, i / 9 + 1)
}

/// The tensor entry of a legal move `m` of `pos`.
///
/// ```
/// use koma_batch::tensor::{tensor_index, TensorIndex};
/// use koma_core::Position;
/// let pos = Position::startpos();
/// // 7g7f: a pawn (K 0) from 7g (row 6, column 2) to 7f (row 5, column 2).
/// let e = tensor_index(&pos, "7g7f".parse().unwrap());
/// assert_eq!(e, TensorIndex { kind: 0, from: 56, to: 47, promote: false });
/// ```
#[inline]
pub fn tensor_index(pos: &Position, m: Move) -> TensorIndex {
    let side = pos.side_to_move();
    let to = tensor_square(m.to(), side);
    match m.from() {
        None => TensorIndex {
            kind: drop_k(m.drop_kind().unwrap_or(PieceKind::Pawn)),
            from: DROP_FROM as u8,
            to,
            promote: false,
        },
        Some(from) => TensorIndex {
            kind: pos.piece_at(from).map_or(0, |p| board_k(p.kind())),
            from: tensor_square(from, side),
            to,
            promote: m.is_promotion(),
        },
    }
}

/// The legal move of `pos` at tensor entry `e`, if there is one (the piece must be the one on
/// the origin square, and a drop must use origin 80).
pub fn tensor_move(pos: &Position, e: TensorIndex) -> Option<Move> {
    let side = pos.side_to_move();
    let to = square_of(e.to, side)?;
    let m = if e.kind >= 14 {
        if e.from as usize != DROP_FROM || e.promote {
            return None;
        }
        let kind = *crate::label::DLSHOGI_HAND_ORDER.get(e.kind as usize - 14)?;
        Move::drop(kind, to)?
    } else {
        let from = square_of(e.from, side)?;
        let piece = pos.piece_at(from)?;
        if piece.color() != side || Some(piece.kind()) != KIND_OF_K.get(e.kind as usize).copied() {
            return None;
        }
        Move::new(from, to, e.promote)?
    };
    pos.is_legal(m).then_some(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_and_kinds_round_trip() {
        for side in Color::ALL {
            for sq in Square::all() {
                assert_eq!(square_of(tensor_square(sq, side), side), Some(sq));
            }
        }
        assert_eq!(tensor_square("9a".parse().unwrap(), Color::Black), 0);
        assert_eq!(tensor_square("1a".parse().unwrap(), Color::Black), 8);
        assert_eq!(tensor_square("1i".parse().unwrap(), Color::Black), 80);
        for (k, kind) in KIND_OF_K.iter().enumerate() {
            assert_eq!(board_k(*kind) as usize, k);
        }
        for i in [0, 1, 161, TENSOR_LEN - 1] {
            assert_eq!(TensorIndex::from_flat(i).map(TensorIndex::flat), Some(i));
        }
    }
}
