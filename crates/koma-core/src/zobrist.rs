//! Zobrist hashing keys, generated at compile time from a fixed seed.
//!
//! A position's key is the XOR of one key per (piece, square), one per (colour, hand kind, count)
//! for non-zero counts, and [`SIDE`] when White is to move. The keys are fixed across builds and
//! platforms, so a key can be stored in files.

use crate::{Color, Piece, PieceKind, Square};

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

struct Keys {
    /// Indexed by the piece's byte (kind + 1 + 16 * colour); rows 0, 15, 16 and 31 unused.
    board: [[u64; 81]; 32],
    hand: [[[u64; 19]; 7]; 2],
    side: u64,
}

static KEYS: Keys = {
    let mut state = 0x6B6F_6D61_u64; // "koma"
    let mut board = [[0u64; 81]; 32];
    let mut p = 0;
    while p < 28 {
        let row = p % 14 + 1 + 16 * (p / 14);
        let mut s = 0;
        while s < 81 {
            let (ns, k) = splitmix(state);
            state = ns;
            board[row][s] = k;
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
                let (ns, key) = splitmix(state);
                state = ns;
                hand[c][k][n] = key;
                n += 1;
            }
            k += 1;
        }
        c += 1;
    }
    let (_, side) = splitmix(state);
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
}
