//! Zobrist hashing keys, generated at compile time from a fixed seed.
//!
//! A position's key is the XOR of one key per (piece, square), one per (colour, hand kind, count)
//! for non-zero counts, and [`SIDE`] when White is to move. The keys are fixed across builds and
//! platforms, so a key can be stored in files: they are the outputs of one [`Rng`] stream, in
//! the order board keys, hand keys, side key.

use crate::rng::Rng;
use crate::{Color, Piece, PieceKind, Square};

struct Keys {
    /// Indexed by the piece's byte (kind + 1 + 16 * colour); rows 0, 15, 16 and 31 unused.
    board: [[u64; 81]; 32],
    hand: [[[u64; 19]; 7]; 2],
    side: u64,
}

static KEYS: Keys = {
    let mut rng = Rng::new(0x6B6F_6D61); // "koma"
    let mut board = [[0u64; 81]; 32];
    let mut p = 0;
    while p < 28 {
        let row = p % 14 + 1 + 16 * (p / 14);
        let mut s = 0;
        while s < 81 {
            board[row][s] = rng.next_u64();
            s += 1;
        }
        p += 1;
    }
    let mut hand = [[[0u64; 19]; 7]; 2];
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 7 {
            let mut n = 1;
            while n < 19 {
                hand[c][k][n] = rng.next_u64();
                n += 1;
            }
            k += 1;
        }
        c += 1;
    }
    let side = rng.next_u64();
    Keys { board, hand, side }
};

/// The key XORed in when White is to move.
pub const SIDE: u64 = KEYS.side;

/// The key of `piece` standing on `sq`.
#[inline]
pub fn piece_square(piece: Piece, sq: Square) -> u64 {
    KEYS.board[piece.raw()][sq.index()]
}

/// The key of `color` holding exactly `count` pieces of hand kind `kind` (0 for a zero count).
#[inline]
pub fn hand(color: Color, kind: PieceKind, count: u8) -> u64 {
    KEYS.hand[color.index()][kind.index()][count as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct_and_nonzero() {
        let rows = [1..15, 17..31];
        let mut all: Vec<u64> = rows
            .into_iter()
            .flatten()
            .flat_map(|r| KEYS.board[r])
            .collect();
        all.extend(
            KEYS.hand
                .iter()
                .flatten()
                .flat_map(|h| h[1..].iter().copied()),
        );
        all.push(SIDE);
        assert!(all.iter().all(|&k| k != 0));
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }

    /// The keys are fixed across versions (they may be stored in files): a digest of all of them
    /// in table order, pinned when their generator moved to [`crate::rng`].
    #[test]
    fn keys_are_pinned() {
        let mut digest = 0u64;
        let mut mix = |k: u64| digest = digest.rotate_left(5) ^ k;
        for color in Color::ALL {
            for kind in (0..14).filter_map(PieceKind::from_index) {
                for sq in Square::all() {
                    mix(piece_square(Piece::new(color, kind), sq));
                }
            }
        }
        for color in Color::ALL {
            for kind in (0..7).filter_map(PieceKind::from_index) {
                for count in 0..19 {
                    mix(hand(color, kind, count));
                }
            }
        }
        mix(SIDE);
        assert_eq!(digest, 0xbc5c_bb76_9f4c_e8b0);
        assert_eq!(crate::Position::startpos().key(), 0x012b_bb27_aff0_2f5f);
    }
}
