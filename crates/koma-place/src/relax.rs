//! The pawn-and-stone relaxation (劣化駒): an exact feasibility test and exact counting.
//!
//! # Why the relaxation is sound
//! Say piece `Q` is *degraded* from `P` when, for every square and the same facing,
//! `attacks(Q) ⊆ attacks(P)`. Replacing `P` by `Q` in a valid placement keeps it valid: `Q`
//! stands on the same unattacked square (the other pieces did not change) and attacks a subset
//! of what `P` attacked, i.e. no occupied square. A pawn facing the same way is degraded from
//! every piece that attacks the square ahead (lance, silver, gold and the promoted minors; king,
//! rook, horse and dragon attack both ahead and behind, so either facing works), and a stone
//! (no attacks) is degraded from everything. So if the remaining pieces, each replaced by its
//! pawn or stone, cannot be completed on the free squares, neither can the originals: pruning
//! on a failed test never loses a placement.
//!
//! # Why the test is exact (for the relaxed problem)
//! Only squares that are empty and unattacked (*free*) can receive a piece. A pawn attacks one
//! vertical neighbour, so the free squares split into vertical *runs* that do not interact.
//! Call a run's top *open* when the square above it is off the board or empty (attacked): a
//! Black pawn may stand there at no cost. Otherwise a Black pawn needs the free square above it
//! left empty. With stones filling any free square not directly ahead of a pawn, a placement of
//! `p` pawns and `s` stones exists iff `free - p - e >= s`, where `e` is the least number of
//! squares kept empty for `p` pawns.
//!
//! * One-directional: in a run of length `L` the top pawn (if open) costs nothing and every
//!   other pawn costs its own empty square ahead, so a run holds at most `[open] + ⌊(L -
//!   [open]) / 2⌋` pawns (pawns bottom-up in pairs). With `z` open tops and `K` paid capacity,
//!   `p` pawns fit iff `p <= z + K`, at cost `e = max(0, p - z)`.
//! * Two-directional: a White pawn needs the square below empty, and one empty square serves a
//!   White pawn above it and a Black pawn below it (facing pawns ▽歩 · ▲歩). A run with open
//!   top and bottom holds free pawns at both ends (`f = min(L, [top] + [bottom])`); the rest,
//!   `L' = L - f`, is filled by blocks `▽ · ▲` (2 pawns, 1 empty), `· ▲`/`▽ ·` (1 pawn, 1
//!   empty) and stones, which concatenate freely. So a run pays `⌈k/2⌉` for `k <= ⌊2L'/3⌋`
//!   paid pawns; taking the end pawns first never hurts. Globally, paid pawns go in pairs
//!   first, then singles from runs of odd capacity.
//!
//! The brute-force tests in this module check both statements on small boards.

use crate::{Bitboard, Geometry};

/// Calls `f(col, first_rank, len, top_open, bottom_open)` for every vertical run of `free`.
#[inline]
pub(crate) fn for_each_run(
    geo: &Geometry,
    occupied: Bitboard,
    free: Bitboard,
    mut f: impl FnMut(usize, u32, u32, bool, bool),
) {
    let h = geo.ranks() as u32;
    let col_mask: u128 = (1u128 << h) - 1;
    for col in 0..geo.files() as usize {
        let shift = col as u32 * h;
        let mut fc = ((free >> shift) & col_mask) as u32;
        let oc = ((occupied >> shift) & col_mask) as u32;
        while fc != 0 {
            let r0 = fc.trailing_zeros();
            let len = (!(fc >> r0)).trailing_zeros();
            let r1 = r0 + len - 1;
            let top_open = r0 == 0 || (oc >> (r0 - 1)) & 1 == 0;
            let bottom_open = r1 == h - 1 || (oc >> (r1 + 1)) & 1 == 0;
            f(col, r0, len, top_open, bottom_open);
            fc &= !(((1u32 << len) - 1) << r0);
        }
    }
}

/// Exact test: can `pawns` pawns and `stones` stones be added on the `free` squares (empty and
/// not attacked) without any new piece being attacked and without a pawn attacking an
/// `occupied` square? One-directional pawns face Black's way; with `both_ways` each pawn may
/// face either way.
///
/// ```
/// use koma_place::{pawns_and_stones_fit, Geometry};
/// let g = Geometry::new(1, 3)?; // one file of three squares
/// assert!(pawns_and_stones_fit(&g, 0, 0b111, 2, 0, false)); // ▲ at a, empty b, ▲ at c
/// assert!(!pawns_and_stones_fit(&g, 0, 0b111, 3, 0, false));
/// assert!(pawns_and_stones_fit(&g, 0, 0b111, 2, 1, true)); // ▲ at a, stone at b, ▽ at c
/// assert!(!pawns_and_stones_fit(&g, 0, 0b111, 3, 0, true));
/// # Ok::<(), koma_place::PlaceError>(())
/// ```
pub fn pawns_and_stones_fit(
    geo: &Geometry,
    occupied: Bitboard,
    free: Bitboard,
    pawns: u32,
    stones: u32,
    both_ways: bool,
) -> bool {
    let n_free = free.count_ones();
    if pawns + stones > n_free {
        return false;
    }
    if pawns == 0 {
        return true;
    }
    let h = geo.ranks() as u32;
    // Column-major squares: the square above `x` is `x - 1` unless `x` is on rank a.
    let (not_first, not_last) = (geo.not_first_rank(), geo.not_last_rank());
    let above_free = (free << 1) & not_first;
    let above_occupied = (occupied << 1) & not_first;
    let open_tops = free & !above_free & !above_occupied;
    let col_mask: Bitboard = (1 << h) - 1;
    let per_column = |rest: Bitboard, table: &[u16; 512]| {
        (0..geo.files() as u32)
            .map(|c| table[((rest >> (c * h)) & col_mask) as usize] as u32)
            .sum::<u32>()
    };
    let cost = if both_ways {
        let below_free = (free >> 1) & not_last;
        let below_occupied = (occupied >> 1) & not_last;
        let open_bottoms = free & !below_free & !below_occupied;
        let ends_mask = open_tops | open_bottoms;
        let paid = pawns.saturating_sub(ends_mask.count_ones());
        if paid == 0 {
            0
        } else {
            // Low byte: paid pairs; high byte: runs of odd paid capacity.
            let packed = per_column(free & !ends_mask, &TWO_WAYS);
            let (pairs, odd) = (packed & 0xff, packed >> 8);
            if paid <= 2 * pairs {
                paid.div_ceil(2)
            } else if paid - 2 * pairs <= odd {
                paid - pairs
            } else {
                return false;
            }
        }
    } else {
        let tops = open_tops.count_ones();
        if pawns <= tops {
            0
        } else {
            let capacity = per_column(free & !open_tops, &ONE_WAY);
            if pawns > tops + capacity {
                return false;
            }
            pawns - tops
        }
    };
    n_free - pawns - cost >= stones
}

/// Necessary condition for a two-directional completion (sound, not exact), stronger than
/// [`pawns_and_stones_fit`] when many remaining pieces attack *both* vertical neighbours
/// whatever their facing (*doubles*: gold and promoted minors, king, rook, horse, dragon).
/// `singles` are the pieces relaxed to pawns that attack only ahead (pawn, lance, silver).
///
/// Proof: in a completion, the pieces on a vertical run of free squares form blocks of
/// vertically adjacent pieces separated by empty squares. A double attacks both neighbours, so
/// its block holds it alone; a pawn facing Black must open its block and one facing White close
/// it, so a block holds at most two singles. Hence there are at least `doubles + ⌈singles / 2⌉`
/// blocks, and a run with `b` blocks keeps at least `b - 1` squares empty: the empty free squares,
/// `free - pieces`, number at least `doubles + ⌈singles / 2⌉ - runs`.
///
/// ```
/// use koma_place::{vertical_blocks_fit, Geometry};
/// let g = Geometry::new(1, 3)?; // one file of three squares: gold · gold fits, three do not
/// assert!(vertical_blocks_fit(&g, 0b111, 2, 0, 0));
/// assert!(!vertical_blocks_fit(&g, 0b111, 2, 1, 0));
/// # Ok::<(), koma_place::PlaceError>(())
/// ```
pub fn vertical_blocks_fit(
    geo: &Geometry,
    free: Bitboard,
    doubles: u32,
    singles: u32,
    stones: u32,
) -> bool {
    let n_free = free.count_ones();
    let pieces = doubles + singles + stones;
    if pieces > n_free {
        return false;
    }
    let runs = (free & !((free << 1) & geo.not_first_rank())).count_ones();
    n_free - pieces + runs >= doubles + singles.div_ceil(2)
}

/// Per 9-bit column pattern, a sum over its runs: one-directionally `⌊L/2⌋` (paid pawns of a
/// closed run); two-directionally `⌊c/2⌋ + 256 * (c mod 2)` with `c = ⌊2L/3⌋` (paid pairs,
/// and runs with an odd paid capacity, in one number so that one pass serves both).
const fn column_table(both_ways: bool) -> [u16; 512] {
    let mut t = [0u16; 512];
    let mut pat = 0;
    while pat < 512 {
        let mut sum = 0;
        let mut len = 0;
        let mut bit = 0;
        while bit <= 9 {
            if bit < 9 && (pat >> bit) & 1 == 1 {
                len += 1;
            } else {
                let c = 2 * len / 3;
                sum += if both_ways {
                    c / 2 + 256 * (c % 2)
                } else {
                    len / 2
                };
                len = 0;
            }
            bit += 1;
        }
        t[pat] = sum as u16;
        pat += 1;
    }
    t
}

const ONE_WAY: [u16; 512] = column_table(false);
const TWO_WAYS: [u16; 512] = column_table(true);

/// Counts completions by identical pawns and stones exactly, as a product of per-run
/// polynomials in (pawns, stones).
type Term = (usize, usize, u64);

#[derive(Debug, Clone)]
pub(crate) struct LeafCounter {
    pawns: usize,
    stones: usize,
    /// Nonzero terms (pawns, stones, coefficient) of the run polynomial for
    /// `(len * 2 + top) * 2 + bottom`.
    polys: Vec<Vec<Term>>,
    /// The same polynomials by pawn deficit: (most pawns the run holds, terms (most - pawns,
    /// stones, coefficient)). Pawn sets are usually near their maximum, so counting the
    /// deficit keeps the products tiny.
    deficits: Vec<(usize, Vec<Term>)>,
}

/// Reusable buffers for [`LeafCounter::count`], one per worker.
#[derive(Debug, Default)]
pub(crate) struct LeafScratch {
    all: Vec<u64>,
    column: Vec<u64>,
    left: Vec<u64>,
}

impl LeafCounter {
    pub(crate) fn new(geo: &Geometry, pawns: u32, stones: u32, both_ways: bool) -> LeafCounter {
        let (pawns, stones) = (pawns as usize, stones as usize);
        let (mut polys, mut deficits) = (Vec::new(), Vec::new());
        for len in 0..=geo.ranks() as usize {
            for top in [false, true] {
                for bottom in [false, true] {
                    let dense = run_poly(len, top, bottom, both_ways, pawns, stones);
                    let terms = sparse(&dense, stones + 1);
                    let most = terms.iter().map(|t| t.0).max().unwrap_or(0);
                    let mut by_deficit: Vec<Term> =
                        terms.iter().map(|&(p, s, c)| (most - p, s, c)).collect();
                    by_deficit.sort_unstable();
                    deficits.push((most, by_deficit));
                    polys.push(terms);
                }
            }
        }
        LeafCounter {
            pawns,
            stones,
            polys,
            deficits,
        }
    }

    fn reset(&self, buf: &mut Vec<u64>) {
        buf.clear();
        buf.resize((self.pawns + 1) * (self.stones + 1), 0);
        buf[0] = 1;
    }

    /// `buf *= poly` in place, truncated to `pawns` pawns and the wanted number of stones.
    fn mul_sparse(&self, buf: &mut [u64], pawns: usize, poly: &[Term]) {
        let w = self.stones + 1;
        for p in (0..=pawns).rev() {
            for s in (0..w).rev() {
                let mut sum = 0u64;
                for &(dp, ds, c) in poly {
                    if dp <= p && ds <= s {
                        sum += buf[(p - dp) * w + s - ds] * c;
                    }
                }
                buf[p * w + s] = sum;
            }
        }
    }

    /// The hot case (pawns only, small deficit): the coefficient of `deficit` in the product
    /// of the runs' deficit polynomials, on a stack buffer.
    fn count_pawns_only(&self, runs: &[u8], deficit: usize) -> u64 {
        let mut buf = [0u64; 32];
        buf[0] = 1;
        for &i in runs {
            let terms = &self.deficits[i as usize].1;
            if terms.len() == 1 {
                // A single way to fill the run at its maximum: the product does not change.
                buf[..=deficit].iter_mut().for_each(|x| *x *= terms[0].2);
                continue;
            }
            for p in (0..=deficit).rev() {
                let mut sum = 0;
                for &(dp, _, c) in terms {
                    if dp > p {
                        break;
                    }
                    sum += buf[p - dp] * c;
                }
                buf[p] = sum;
            }
        }
        buf[deficit]
    }

    /// (all completions, completions that are their own mirror image). The second number is
    /// only meaningful when the position is mirror-symmetric; it is computed only if `mirror`.
    pub(crate) fn count(
        &self,
        geo: &Geometry,
        occupied: Bitboard,
        free: Bitboard,
        mirror: bool,
        scratch: &mut LeafScratch,
    ) -> (u64, u64) {
        let w = self.stones + 1;
        let target = self.pawns * w + self.stones;
        let index = |len: u32, top: bool, bottom: bool| {
            (len as usize * 2 + top as usize) * 2 + bottom as usize
        };
        let LeafScratch { all, column, left } = scratch;
        if !mirror {
            let mut runs = [0u8; 48];
            let (mut n, mut most) = (0, 0);
            for_each_run(geo, occupied, free, |_, _, len, top, bottom| {
                let i = index(len, top, bottom);
                runs[n] = i as u8;
                n += 1;
                most += self.deficits[i].0;
            });
            let Some(deficit) = most.checked_sub(self.pawns) else {
                return (0, 0);
            };
            let runs = &runs[..n];
            if self.stones == 0 && deficit < 32 {
                return (self.count_pawns_only(runs, deficit), 0);
            }
            all.clear();
            all.resize((deficit + 1) * w, 0);
            all[0] = 1;
            for &i in runs {
                self.mul_sparse(all, deficit, &self.deficits[i as usize].1);
            }
            return (all[deficit * w + self.stones], 0);
        }
        self.reset(all);
        // A mirror-symmetric completion is a left half, its image, and the centre file.
        let files = geo.files() as usize;
        self.reset(left);
        let mut centre: Vec<Term> = vec![(0, 0, 1)];
        let mut current = usize::MAX;
        let mut flush =
            |col: usize, column: &mut Vec<u64>, all: &mut Vec<u64>, left: &mut Vec<u64>| {
                if col == usize::MAX {
                    return;
                }
                let terms = sparse(column, self.stones + 1);
                self.mul_sparse(all, self.pawns, &terms);
                if col < files / 2 {
                    self.mul_sparse(left, self.pawns, &terms);
                } else if 2 * col + 1 == files {
                    centre = terms;
                }
            };
        for_each_run(geo, occupied, free, |col, _, len, top, bottom| {
            if col != current {
                flush(current, column, all, left);
                current = col;
                self.reset(column);
            }
            self.mul_sparse(column, self.pawns, &self.polys[index(len, top, bottom)]);
        });
        flush(current, column, all, left);
        let mut doubled = vec![0u64; left.len()];
        for (i, &x) in left.iter().enumerate() {
            let (p, s) = (2 * (i / w), 2 * (i % w));
            if x != 0 && p <= self.pawns && s <= self.stones {
                doubled[p * w + s] += x;
            }
        }
        if files % 2 == 1 {
            self.mul_sparse(&mut doubled, self.pawns, &centre);
        }
        (all[target], doubled[target])
    }
}

/// Every way to put pawns on one run, for enumerating the final pawns one run at a time.
#[derive(Debug, Clone)]
pub(crate) struct PawnPatterns {
    /// For `(len * 2 + top) * 2 + bottom`: (Black pawns, White pawns) as masks from the run's top.
    lists: Vec<Vec<(u16, u16)>>,
    most: Vec<u32>,
}

impl PawnPatterns {
    pub(crate) fn new(ranks: u8, both_ways: bool) -> PawnPatterns {
        let (mut lists, mut most) = (Vec::new(), Vec::new());
        let kinds = if both_ways { 3usize } else { 2 };
        for len in 0..=ranks as u32 {
            for top in [false, true] {
                for bottom in [false, true] {
                    let mut list = Vec::new();
                    for code in 0..kinds.pow(len) {
                        // cell i holds (code / kinds^i) % kinds: 0 empty, 1 Black, 2 White
                        let cell = |i: u32| (code / kinds.pow(i)) % kinds;
                        let (mut b, mut w) = (0u16, 0u16);
                        let mut ok = true;
                        for i in 0..len {
                            match cell(i) {
                                1 => {
                                    b |= 1 << i;
                                    ok &= if i == 0 { top } else { cell(i - 1) == 0 };
                                }
                                2 => {
                                    w |= 1 << i;
                                    ok &= if i + 1 == len {
                                        bottom
                                    } else {
                                        cell(i + 1) == 0
                                    };
                                }
                                _ => {}
                            }
                        }
                        if ok {
                            list.push((b, w));
                        }
                    }
                    most.push(
                        list.iter()
                            .map(|(b, w)| (b | w).count_ones())
                            .max()
                            .unwrap_or(0),
                    );
                    lists.push(list);
                }
            }
        }
        PawnPatterns { lists, most }
    }

    /// The runs of `free` as (first square, pattern index).
    pub(crate) fn runs(
        &self,
        geo: &Geometry,
        occupied: Bitboard,
        free: Bitboard,
    ) -> Vec<(u32, usize)> {
        let h = geo.ranks() as u32;
        let mut runs = Vec::with_capacity(48);
        for_each_run(geo, occupied, free, |col, r0, len, top, bottom| {
            runs.push((
                col as u32 * h + r0,
                (len as usize * 2 + top as usize) * 2 + bottom as usize,
            ));
        });
        runs
    }

    /// The pawn patterns of a run kind.
    pub(crate) fn patterns(&self, index: usize) -> &[(u16, u16)] {
        &self.lists[index]
    }

    /// Most pawns a run kind holds.
    pub(crate) fn most(&self, index: usize) -> u32 {
        self.most[index]
    }
}

fn sparse(dense: &[u64], w: usize) -> Vec<Term> {
    dense
        .iter()
        .enumerate()
        .filter(|t| *t.1 != 0)
        .map(|(i, &c)| (i / w, i % w, c))
        .collect()
}

/// Number of ways to put `p` pawns and `s` stones on one run, as a (pawns+1)×(stones+1) table.
fn run_poly(
    len: usize,
    top_open: bool,
    bottom_open: bool,
    both_ways: bool,
    pawns: usize,
    stones: usize,
) -> Vec<u64> {
    const E: usize = 0;
    const B: usize = 1;
    const W: usize = 2;
    const S: usize = 3;
    let w = stones + 1;
    let size = (pawns + 1) * w;
    // state[last cell content][pawns * w + stones]
    let mut state = vec![vec![0u64; size]; 4];
    // Before the first cell: a virtual "empty" when the top is open, else a virtual occupant.
    let mut first = true;
    state[E][0] = 1;
    for _ in 0..len {
        let mut next = vec![vec![0u64; size]; 4];
        for prev in [E, B, W, S] {
            for (i, &x) in state[prev].iter().enumerate() {
                if x == 0 {
                    continue;
                }
                let (p, s) = (i / w, i % w);
                // Empty: always allowed.
                next[E][i] += x;
                if prev == W && !first {
                    continue; // a White pawn attacks the square below it
                }
                if s < stones {
                    next[S][i + 1] += x;
                }
                if p < pawns {
                    let above_ok = if first { top_open } else { prev == E };
                    if above_ok {
                        next[B][i + w] += x;
                    }
                    if both_ways {
                        next[W][i + w] += x;
                    }
                }
            }
        }
        state = next;
        first = false;
    }
    let mut out = vec![0u64; size];
    for last in [E, B, W, S] {
        if last == W && !bottom_open && len > 0 {
            continue;
        }
        for (o, x) in out.iter_mut().zip(&state[last]) {
            *o += x;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Brute force: every way of putting pawns (with facings) and stones on free squares.
    fn brute(geo: &Geometry, occ: Bitboard, free: Bitboard, both: bool) -> Vec<Vec<u64>> {
        let n = geo.len();
        let h = geo.ranks() as usize;
        let sq: Vec<usize> = (0..n).filter(|&s| free >> s & 1 == 1).collect();
        let choices = if both { 4 } else { 3 }; // empty, stone, black pawn, white pawn
        let mut table = vec![vec![0u64; sq.len() + 1]; sq.len() + 1];
        let mut digits = vec![0usize; sq.len()];
        loop {
            // content of each square: 0 none, 1 stone, 2 ▲, 3 ▽
            let mut content = vec![0usize; n];
            for (i, &s) in sq.iter().enumerate() {
                content[s] = digits[i];
            }
            let ok = sq.iter().all(|&s| {
                let (r, c) = (s % h, s / h);
                let blocked = |t: usize| content[t] != 0 || occ >> t & 1 == 1;
                match content[s] {
                    2 => r == 0 || !blocked(c * h + r - 1),
                    3 => r == h - 1 || !blocked(c * h + r + 1),
                    _ => true,
                }
            });
            if ok {
                let pawns = digits.iter().filter(|&&d| d >= 2).count();
                let stones = digits.iter().filter(|&&d| d == 1).count();
                table[pawns][stones] += 1;
            }
            let mut i = 0;
            loop {
                if i == digits.len() {
                    return table;
                }
                digits[i] += 1;
                if digits[i] < choices {
                    break;
                }
                digits[i] = 0;
                i += 1;
            }
        }
    }

    /// Brute force with doubles: which (doubles, singles, stones) fit exactly.
    fn brute_doubles(geo: &Geometry, occ: Bitboard, free: Bitboard) -> Vec<[usize; 3]> {
        let h = geo.ranks() as usize;
        let sq: Vec<usize> = (0..geo.len()).filter(|&s| free >> s & 1 == 1).collect();
        let mut found = Vec::new();
        let mut digits = vec![0usize; sq.len()];
        loop {
            // 0 none, 1 stone, 2 ▲, 3 ▽, 4 double
            let mut content = vec![0usize; geo.len()];
            for (i, &s) in sq.iter().enumerate() {
                content[s] = digits[i];
            }
            let blocked = |t: usize| content[t] != 0 || occ >> t & 1 == 1;
            let ok = sq.iter().all(|&s| {
                let (r, c) = (s % h, s / h);
                let up = r == 0 || !blocked(c * h + r - 1);
                let down = r == h - 1 || !blocked(c * h + r + 1);
                match content[s] {
                    2 => up,
                    3 => down,
                    4 => up && down,
                    _ => true,
                }
            });
            if ok {
                let n = |k: usize| digits.iter().filter(|&&d| d == k).count();
                found.push([n(4), n(2) + n(3), n(1)]);
            }
            let mut i = 0;
            loop {
                if i == digits.len() {
                    return found;
                }
                digits[i] += 1;
                if digits[i] < 5 {
                    break;
                }
                digits[i] = 0;
                i += 1;
            }
        }
    }

    #[test]
    fn block_bound_is_sound() {
        let mut seed = 11;
        for (files, ranks) in [(1, 6), (2, 3), (2, 4), (1, 8)] {
            let geo = Geometry::new(files, ranks).unwrap();
            for _ in 0..25 {
                let (mut occ, mut att) = (0, 0);
                for s in 0..geo.len() {
                    match lcg(&mut seed) % 5 {
                        0 => occ |= 1 << s,
                        1 => att |= 1 << s,
                        _ => {}
                    }
                }
                let free = geo.all() & !occ & !att;
                for [d, p, s] in brute_doubles(&geo, occ, free) {
                    let (d, p, s) = (d as u32, p as u32, s as u32);
                    assert!(
                        vertical_blocks_fit(&geo, free, d, p, s),
                        "{free:b} {d} {p} {s}"
                    );
                }
            }
        }
    }

    fn lcg(seed: &mut u64) -> u64 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *seed >> 33
    }

    #[test]
    fn test_and_counts_match_brute_force_on_small_boards() {
        let mut seed = 7;
        for (files, ranks) in [(1, 5), (2, 4), (3, 3), (2, 5), (1, 7), (4, 2)] {
            let geo = Geometry::new(files, ranks).unwrap();
            for _ in 0..40 {
                let mut occ = 0;
                let mut att = 0;
                for s in 0..geo.len() {
                    match lcg(&mut seed) % 5 {
                        0 => occ |= 1 << s,
                        1 => att |= 1 << s,
                        _ => {}
                    }
                }
                let free = geo.all() & !occ & !att;
                for both in [false, true] {
                    let table = brute(&geo, occ, free, both);
                    for (p, row) in table.iter().enumerate() {
                        for (s, &ways) in row.iter().enumerate().take(table.len() - p) {
                            let expected = ways > 0;
                            assert_eq!(
                                pawns_and_stones_fit(&geo, occ, free, p as u32, s as u32, both),
                                expected,
                                "{files}x{ranks} occ={occ:b} free={free:b} p={p} s={s} both={both}"
                            );
                            let counter = LeafCounter::new(&geo, p as u32, s as u32, both);
                            assert_eq!(
                                counter
                                    .count(&geo, occ, free, false, &mut LeafScratch::default())
                                    .0,
                                ways
                            );
                        }
                    }
                }
            }
        }
    }
}
