//! Perft: counting the leaves of the legal move tree, the standard test of a move generator.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

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

/// How the leaves below each root move are counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Counting {
    /// The last ply in bulk, as [`perft`] does.
    #[default]
    Bulk,
    /// Every move made and unmade down to the leaves, as [`perft_materialized`] does.
    Materialized,
}

/// Perft split by first move: each legal move with its leaf count at `depth - 1` below it, in
/// generation order (none at depth 0, where the count is the root alone). Their sum is
/// [`perft`]`(pos, depth)`.
///
/// ```
/// use koma_core::{Position, perft::divide};
/// let split = divide(&Position::startpos(), 2);
/// assert_eq!(split.len(), 30);
/// assert_eq!(split.iter().map(|&(_, n)| n).sum::<u64>(), 900);
/// ```
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    divide_threaded(pos, depth, Counting::Bulk, 1)
}

/// [`divide`] on `threads` worker threads (at least one is used), which take root moves one at
/// a time until none is left; `counting` chooses how leaves are counted. The result is the same
/// whatever the thread count.
///
/// ```
/// use koma_core::{Position, perft::{Counting, divide, divide_threaded}};
/// let pos = Position::startpos();
/// assert_eq!(divide_threaded(&pos, 3, Counting::Materialized, 2), divide(&pos, 3));
/// ```
pub fn divide_threaded(
    pos: &Position,
    depth: u32,
    counting: Counting,
    threads: usize,
) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves = pos.legal_moves().to_vec();
    let count = |p: &mut Position| match counting {
        Counting::Bulk => perft_bulk(p, depth - 1),
        Counting::Materialized => perft_materialized(p, depth - 1),
    };
    let next = AtomicUsize::new(0);
    let counts: Vec<AtomicU64> = moves.iter().map(|_| AtomicU64::new(0)).collect();
    std::thread::scope(|s| {
        for _ in 0..threads.clamp(1, moves.len().max(1)) {
            s.spawn(|| {
                let mut p = pos.clone();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&m) = moves.get(i) else { break };
                    p.do_move(m);
                    counts[i].store(count(&mut p), Ordering::Relaxed);
                    p.undo_move();
                }
            });
        }
    });
    moves
        .into_iter()
        .zip(counts.into_iter().map(AtomicU64::into_inner))
        .collect()
}
