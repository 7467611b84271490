//! Zobrist keys: one random 64-bit key per (colour, square) and one for "White to move", built at
//! compile time from a fixed [`Rng`] stream so keys are equal across runs and machines.

use koma_core::Color;
use koma_core::rng::Rng;

use crate::square::Square;

const fn build() -> ([[u64; 81]; 2], u64) {
    let mut keys = [[0u64; 81]; 2];
    let mut rng = Rng::new(0x6b6f_6d61_6861_7361); // "komahasa"
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < 81 {
            keys[c][s] = rng.next_u64();
            s += 1;
        }
        c += 1;
    }
    let side = rng.next_u64();
    (keys, side)
}

const TABLES: ([[u64; 81]; 2], u64) = build();

/// The key of a piece of `color` on `sq`.
pub const fn piece(color: Color, sq: Square) -> u64 {
    TABLES.0[color.index()][sq.index()]
}

/// XORed into the key when White is to move.
pub const WHITE_TO_MOVE: u64 = TABLES.1;

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn keys_are_distinct_and_nonzero() {
        let mut seen = HashSet::new();
        for c in [Color::Black, Color::White] {
            for i in 0..81 {
                let k = piece(c, Square::from_index(i).unwrap());
                assert_ne!(k, 0);
                assert!(seen.insert(k));
            }
        }
        assert!(seen.insert(WHITE_TO_MOVE));
    }

    /// Keys are part of what training and arenas reproduce: a digest of all of them, pinned when
    /// their generator moved to `koma_core::rng`.
    #[test]
    fn keys_are_pinned() {
        let mut digest = 0u64;
        let mut mix = |k: u64| digest = digest.rotate_left(5) ^ k;
        for c in Color::ALL {
            for i in 0..81 {
                mix(piece(c, Square::from_index(i).unwrap()));
            }
        }
        mix(WHITE_TO_MOVE);
        assert_eq!(digest, 0xf643_1664_94f4_12eb);
        assert_eq!(crate::Position::startpos().key(), 0x8790_4483_08b6_5c49);
    }
}
