//! Input features in the dlshogi layout: 119 planes of 9 × 9, equal to cshogi's
//! `cshogi.dlshogi.make_input_features` (its `features1` planes followed by its `features2`).
//!
//! Everything is seen from the side to move ("us"): for White to move the board is turned 180°
//! (square `s` is written at `80 - s`). A plane is 81 bytes, square index `(file - 1) * 9 + rank - 1`,
//! so reshaped to `[9, 9]` the first axis is the file (1..9) and the second the rank (a..i).
//!
//! | planes | meaning |
//! |---|---|
//! | 0-13 | our pieces, one plane per kind: pawn, lance, knight, silver, bishop, rook, gold, king, promoted pawn, promoted lance, promoted knight, promoted silver, horse, dragon |
//! | 14-27 | squares our pieces of each kind attack (same kind order) |
//! | 28-30 | squares we attack at least 1, 2, 3 times |
//! | 31-61 | the same 31 planes for the opponent |
//! | 62-89 | our hand, all-ones planes counting pieces: pawns 8 planes, lances 4, knights 4, silvers 4, golds 4, bishops 2, rooks 2 (plane *i* set when we hold more than *i*) |
//! | 90-117 | the opponent's hand, same layout |
//! | 118 | all ones when the side to move is in check |
//!
//! An attack counts every square a piece reaches, own pieces' squares included, with sliders
//! stopped by the first piece of either colour.

use koma_core::{Position, attacks};

use crate::label::{DLSHOGI_HAND_ORDER, relative};

/// Planes per position.
pub const NUM_PLANES: usize = 119;
/// Bytes per position: 119 planes of 81 squares.
pub const FEATURES_LEN: usize = NUM_PLANES * 81;

/// Board planes per side: 14 pieces, 14 attacks, 3 attack counts.
const SIDE_PLANES: usize = 31;
/// Planes of one side's hand.
const HAND_PLANES: usize = 28;
/// How many planes each hand kind gets, in [`DLSHOGI_HAND_ORDER`].
const HAND_MAX: [u8; 7] = [8, 4, 4, 4, 4, 2, 2];

/// Writes the 119 planes of `pos` into `out` (`FEATURES_LEN` bytes, 0 or 1), which must be zeroed.
///
/// ```
/// use koma_batch::features::{write_features, FEATURES_LEN};
/// use koma_core::Position;
/// let mut planes = vec![0u8; FEATURES_LEN];
/// write_features(&Position::startpos(), &mut planes);
/// // Nine of our pawns on rank g.
/// assert_eq!(planes[..81].iter().filter(|&&b| b == 1).count(), 9);
/// ```
pub fn write_features(pos: &Position, out: &mut [u8]) {
    debug_assert_eq!(out.len(), FEATURES_LEN);
    let us = pos.side_to_move();
    let occ = pos.occupied();
    for (side_i, color) in [us, us.flip()].into_iter().enumerate() {
        let base = side_i * SIDE_PLANES;
        let mut counts = [0u8; 81];
        for sq in pos.pieces_of(color) {
            let Some(piece) = pos.piece_at(sq) else {
                continue;
            };
            let k = piece.kind().index();
            out[(base + k) * 81 + relative(sq, us)] = 1;
            let plane = (base + 14 + k) * 81;
            for t in attacks::attacks(color, piece.kind(), sq, occ) {
                let r = relative(t, us);
                out[plane + r] = 1;
                counts[r] += 1;
            }
        }
        for (r, &n) in counts.iter().enumerate() {
            for i in 0..n.min(3) as usize {
                out[(base + 28 + i) * 81 + r] = 1;
            }
        }
        let hand = pos.hand(color);
        let mut plane = 2 * SIDE_PLANES + side_i * HAND_PLANES;
        for (kind, max) in DLSHOGI_HAND_ORDER.iter().zip(HAND_MAX) {
            let n = hand.count(*kind).min(max) as usize;
            out[plane * 81..(plane + n) * 81].fill(1);
            plane += max as usize;
        }
    }
    if pos.in_check() {
        out[(NUM_PLANES - 1) * 81..].fill(1);
    }
}
