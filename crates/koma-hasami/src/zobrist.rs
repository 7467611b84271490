//! Zobrist keys: one random 64-bit key per (colour, square) and one for "White to move", built at
//! compile time from a fixed SplitMix64 stream so keys are equal across runs and machines.

use crate::rng::splitmix;
use crate::square::{Color, Square};

const fn build() -> ([[u64; 81]; 2], u64) {
    let mut keys = [[0u64; 81]; 2];
    let mut state = 0x6b6f_6d61_6861_7361; // "komahasa"
    let mut c = 0;
    while c < 2 {
        let mut s = 0;
        while s < 81 {
            let (next, out) = splitmix(state);
            state = next;
            keys[c][s] = out;
            s += 1;
        }
        c += 1;
    }
    let (_, side) = splitmix(state);
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
}
