//! What the shogi [`Batch`](crate::Batch) and the hasami batch share: one game of a batch seen
//! as a lane (ended or not, its legal moves with their action numbers), the mask and random
//! action kernels over lanes, and the output length check.

use koma_core::rng::Rng;
use rayon::prelude::*;

use crate::BatchError;

/// Environments handed to one rayon task: small enough to balance two cores, large enough that
/// scheduling costs nothing next to ~1 µs of work per environment.
pub(crate) const CHUNK: usize = 32;

/// One game of a batch as the shared kernels see it.
pub(crate) trait Lane: Sync {
    /// The game's move type.
    type Move: Sync;
    /// Whether the game has ended and waits for its reset.
    fn done(&self) -> bool;
    /// The legal moves of the current position with their action numbers.
    fn legal(&self) -> &[(u16, Self::Move)];
}

/// The games of a batch as the shared kernels see them: lane `i` is game `i`. A slice of
/// [`Lane`]s is one (the hasami batch); the shogi [`Batch`](crate::Batch) keeps its games as a
/// structure of arrays and is one too.
pub(crate) trait Lanes: Sync {
    /// The games' move type.
    type Move: Sync;
    /// The number of lanes.
    fn lanes(&self) -> usize;
    /// Whether lane `i` has ended and waits for its reset.
    fn done(&self, i: usize) -> bool;
    /// The legal moves of lane `i`'s current position with their action numbers.
    fn legal(&self, i: usize) -> &[(u16, Self::Move)];
}

impl<L: Lane> Lanes for [L] {
    type Move = L::Move;
    fn lanes(&self) -> usize {
        self.len()
    }
    fn done(&self, i: usize) -> bool {
        self[i].done()
    }
    fn legal(&self, i: usize) -> &[(u16, L::Move)] {
        self[i].legal()
    }
}

/// The action mask of every lane into `out` (rows of `width`): `true` for each legal move's
/// action; an ended lane gets an all-true row (any action is accepted and ignored).
pub(crate) fn fill_mask<S: Lanes + ?Sized>(lanes: &S, width: usize, out: &mut [bool]) {
    out.par_chunks_mut(width)
        .enumerate()
        .with_min_len(CHUNK)
        .for_each(|(i, row)| mask_row(lanes, i, row));
}

/// The action mask of every lane as new rows of `W` (see [`fill_mask`]). The rows are first set
/// in place by the rayon workers (to all-false, or all-true for an ended lane), then the legal
/// actions marked: no zeroed buffer is filled again by one thread (which at B = 4096, 9 MB of
/// shogi masks, cost a single-threaded `memset` per step), and no row is built on the stack and
/// copied into the vector (a `memcpy` of every row: 9 % of a Python step's time, perf).
pub(crate) fn mask_rows<S: Lanes + ?Sized, const W: usize>(lanes: &S) -> Vec<[bool; W]> {
    let n = lanes.lanes();
    let mut rows: Vec<[bool; W]> = Vec::with_capacity(n);
    rows.par_extend(
        (0..n)
            .into_par_iter()
            .with_min_len(CHUNK)
            .map(|i| [lanes.done(i); W]),
    );
    rows.par_iter_mut()
        .enumerate()
        .with_min_len(CHUNK)
        .for_each(|(i, row)| mark_legal(lanes, i, row));
    rows
}

/// Lane `i`'s mask row: every byte written.
fn mask_row<S: Lanes + ?Sized>(lanes: &S, i: usize, row: &mut [bool]) {
    row.fill(lanes.done(i));
    mark_legal(lanes, i, row);
}

/// Sets lane `i`'s legal actions in its row.
fn mark_legal<S: Lanes + ?Sized>(lanes: &S, i: usize, row: &mut [bool]) {
    for &(a, _) in lanes.legal(i) {
        row[a as usize] = true;
    }
}

/// One uniformly random legal action per lane into `out`, drawn from `seed` and the lane's
/// index (0 for an ended lane or one without moves); `out` must hold one entry per lane, else
/// [`BatchError::Length`] and nothing is written.
pub(crate) fn random_actions<S: Lanes + ?Sized>(
    lanes: &S,
    seed: u64,
    out: &mut [u32],
) -> Result<(), BatchError> {
    check_len("actions output", out.len(), lanes.lanes())?;
    out.par_iter_mut()
        .enumerate()
        .with_min_len(CHUNK)
        .for_each(|(i, o)| {
            let legal = lanes.legal(i);
            *o = if lanes.done(i) || legal.is_empty() {
                0
            } else {
                let mut rng = Rng::derive(seed, i as u64);
                legal[rng.below(legal.len())].0 as u32
            };
        });
    Ok(())
}

/// `Ok` if an array the caller gave has the length the batch needs.
pub(crate) fn check_len(what: &'static str, got: usize, expected: usize) -> Result<(), BatchError> {
    if got == expected {
        Ok(())
    } else {
        Err(BatchError::Length {
            what,
            got,
            expected,
        })
    }
}
