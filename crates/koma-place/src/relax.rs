//! The pawn-and-stone relaxation (劣化駒): an exact feasibility test.
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

use crate::Geometry;
use crate::board::Mask;
use crate::board::file_patterns;

/// Calls `f(col, first_rank, len, top_open, bottom_open)` for every vertical run of `free`.
#[inline]
pub(crate) fn for_each_run(
    geo: &Geometry,
    occupied: Mask,
    free: Mask,
    mut f: impl FnMut(usize, u32, u32, bool, bool),
) {
    let h = geo.ranks() as u32;
    let files = file_patterns(geo.files() as usize, h as usize, occupied, free);
    for (col, (oc, fc)) in files.enumerate() {
        let (mut fc, oc) = (u32::from(fc), u32::from(oc));
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
/// face either way. `occupied` and `free` are sets of squares of `geo` as bit masks: bit `i` is
/// the square with index `i` ([`Geometry`] numbers squares file by file, so here bit 0 is the
/// top square of the left file).
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
    occupied: u128,
    free: u128,
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
    let col_mask: Mask = (1 << h) - 1;
    let per_column = |rest: Mask, table: &[u16; 512]| {
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
/// `free - pieces`, number at least `doubles + ⌈singles / 2⌉ - runs`. `free` is a bit mask as
/// in [`pawns_and_stones_fit`].
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
    free: u128,
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
    pub(crate) fn runs(&self, geo: &Geometry, occupied: Mask, free: Mask) -> Vec<(u32, usize)> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::leaf::tests::{PAWNS_ONE_WAY, PAWNS_TWO_WAYS, brute, lcg};

    /// Brute force with doubles: which (doubles, singles, stones) fit exactly.
    fn brute_doubles(geo: &Geometry, occ: Mask, free: Mask) -> Vec<[usize; 3]> {
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

    #[test]
    fn test_matches_brute_force_on_small_boards() {
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
                    let contents = if both { PAWNS_TWO_WAYS } else { PAWNS_ONE_WAY };
                    let table = brute(&geo, occ, free, contents);
                    for (p, by_lances) in table.iter().enumerate() {
                        for (s, &ways) in by_lances[0].iter().enumerate().take(table.len() - p) {
                            let expected = ways > 0;
                            assert_eq!(
                                pawns_and_stones_fit(&geo, occ, free, p as u32, s as u32, both),
                                expected,
                                "{files}x{ranks} occ={occ:b} free={free:b} p={p} s={s} both={both}"
                            );
                        }
                    }
                }
            }
        }
    }
}
