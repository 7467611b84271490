//! Perft: counting the leaves of the legal move tree, the standard test of a move generator.

use crate::{Move, Position};

/// Leaf nodes at `depth` plies below `pos`, counting the last ply in bulk (the number of legal
/// moves) rather than making each move.
///
/// ```
/// use koma_core::{perft::perft, Position};
/// assert_eq!(perft(&Position::startpos(), 2), 900);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    let mut pos = pos.clone();
    perft_bulk(&mut pos, depth)
}

fn perft_bulk(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => {
            let moves = pos.legal_moves();
            let mut n = 0;
            for &m in moves.iter() {
                pos.do_move(m);
                n += perft_bulk(pos, depth - 1);
                pos.undo_move();
            }
            n
        }
    }
}

/// Leaf nodes at `depth`, making and unmaking every move down to the leaves (no bulk counting):
/// the measure of make/unmake speed.
pub fn perft_materialized(pos: &Position, depth: u32) -> u64 {
    fn go(pos: &mut Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = pos.legal_moves();
        let mut n = 0;
        for &m in moves.iter() {
            pos.do_move(m);
            n += go(pos, depth - 1);
            pos.undo_move();
        }
        n
    }
    let mut pos = pos.clone();
    go(&mut pos, depth)
}

/// Perft split by first move: each legal move with its leaf count at `depth - 1` below it.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    let mut pos = pos.clone();
    let moves = pos.legal_moves();
    moves
        .iter()
        .map(|&m| {
            pos.do_move(m);
            let n = if depth <= 1 {
                1
            } else {
                perft_bulk(&mut pos, depth - 1)
            };
            pos.undo_move();
            (m, n)
        })
        .collect()
}
