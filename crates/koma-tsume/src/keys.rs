//! Board keys: the Zobrist key of the pieces on the board and the side to move, without the
//! hands. The transposition table is keyed by the board and compares hands itself (優越関係).

use koma_core::{Color, Move, Piece, PieceKind, Position, zobrist};

/// The part of `pos.key()` that comes from the hands.
pub(crate) fn hands_key(pos: &Position) -> u64 {
    let mut k = 0;
    for c in Color::ALL {
        let h = pos.hand(c);
        for kind in PieceKind::HAND {
            k ^= zobrist::hand(c, kind, h.count(kind));
        }
    }
    k
}

/// The board key of `pos`.
pub(crate) fn board_key(pos: &Position) -> u64 {
    pos.key() ^ hands_key(pos)
}

/// The board key after the legal move `m` in `pos`, whose board key is `key`, without making it.
#[inline]
pub(crate) fn board_key_after(pos: &Position, key: u64, m: Move) -> u64 {
    let us = pos.side_to_move();
    let to = m.to();
    let mut k = key ^ zobrist::SIDE;
    match (m.from(), m.drop_kind()) {
        (Some(from), _) => {
            if let (Some(p), Some(kind)) = (pos.piece_at(from), pos.moved_kind(m)) {
                k ^= zobrist::piece_square(p, from);
                k ^= zobrist::piece_square(Piece::new(us, kind), to);
            }
            if let Some(c) = pos.piece_at(to) {
                k ^= zobrist::piece_square(c, to);
            }
        }
        (None, Some(kind)) => k ^= zobrist::piece_square(Piece::new(us, kind), to),
        (None, None) => {}
    }
    k
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_after_matches_the_key_of_the_position_after() {
        for sfen in [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1",
            "7nk/9/7P1/9/9/9/9/9/9 b RBG2S 1",
        ] {
            let mut pos = Position::from_sfen(sfen).unwrap();
            let key = board_key(&pos);
            for &m in pos.clone().legal_moves().iter() {
                let expect = board_key_after(&pos, key, m);
                pos.do_move(m);
                assert_eq!(board_key(&pos), expect, "{m} in {sfen}");
                pos.undo_move();
            }
        }
    }
}
