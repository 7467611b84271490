//! Counting the last pawns, lances and stones file by file.
//!
//! Pawns and lances attack only along their own file, and stones attack nothing, so once every
//! other piece stands on the board the ways to add them split by file: each file gets a
//! polynomial `c[p][l][s]` (ways to put `p` pawns, `l` lances and `s` stones on it), and the
//! completions are the coefficient of the wanted numbers in the product of the files'
//! polynomials. A file's polynomial depends only on which of its squares are occupied and which
//! are free (empty and not attacked), so it is computed once per pattern and remembered.
//!
//! # One file, top to bottom
//! A new piece stands on a free square. A pawn facing Black needs the square above it empty (or
//! off the board); one facing White needs the square below empty. A lance facing Black needs
//! every square above it empty, so it is the file's first piece; one facing White is its last.
//! The scan keeps the state of the square above: empty with nothing above it (`TOP`), empty
//! (`EMPTY`), a piece not attacking downward (`PIECE`: placed piece, stone, pawn or lance facing
//! Black), a pawn facing White (`DOWN_PAWN`: this square must stay empty), a lance facing White
//! (`DOWN_LANCE`: every square below must stay empty).
//!
//! Pawns are usually close to the most a file can hold, so the product is taken over pawn
//! *deficits* (most − pawns), which keeps it small.

use crate::Geometry;
use crate::board::Mask;
use crate::board::file_patterns;

/// One term of a file polynomial: (pawn deficit, lances, stones, ways).
type Term = (u8, u8, u8, u64);

const TOP: usize = 0;
const EMPTY: usize = 1;
const PIECE: usize = 2;
const DOWN_PAWN: usize = 3;
const DOWN_LANCE: usize = 4;
const STATES: usize = 5;

/// Marks a file pattern not yet computed in [`LeafScratch::index`].
const UNKNOWN: u32 = u32::MAX;

/// Counts completions by identical pawns, lances and stones of free facing (or Black facing,
/// one-directionally), as a product of per-file polynomials.
#[derive(Debug, Clone)]
pub(crate) struct LeafCounter {
    ranks: u32,
    files: usize,
    both_ways: bool,
    /// Largest numbers of (pawns, lances, stones) a file polynomial is kept for.
    cap: [usize; 3],
}

/// Per-worker buffers and the remembered file polynomials (of one [`LeafCounter`]).
#[derive(Debug, Default)]
pub(crate) struct LeafScratch {
    /// Per file pattern `occupied << ranks | free`: the index into `files`, or [`UNKNOWN`].
    index: Vec<u32>,
    /// The polynomial of each computed pattern.
    files: Vec<FilePoly>,
    terms: Vec<Term>,
    /// Products in `u64`, and in `u128` for positions whose counts might not fit.
    narrow: Vec<u64>,
    wide: Vec<u128>,
}

/// The counts a leaf asks for: pawns, lances, stones.
pub(crate) type Wanted = [usize; 3];

/// Where a file polynomial's terms are, and its bounds.
#[derive(Debug, Clone, Copy, Default)]
struct FilePoly {
    /// Most pawns the file holds.
    most: usize,
    /// Largest (pawn deficit, lances, stones) among its terms.
    max: [usize; 3],
    /// Ways to fill the file with any numbers of pieces: every coefficient is at most this.
    total: u64,
    first: u32,
    len: u32,
}

impl LeafCounter {
    /// A counter for at most `pawns`, `lances` and `stones` at a time.
    pub(crate) fn new(geo: &Geometry, pawns: u32, lances: u32, stones: u32, both: bool) -> Self {
        let ranks = geo.ranks() as usize;
        LeafCounter {
            ranks: ranks as u32,
            files: geo.files() as usize,
            both_ways: both,
            // A file holds at most one lance facing each way, and at most `ranks` pieces.
            cap: [
                (pawns as usize).min(ranks),
                (lances as usize).min(if both { 2 } else { 1 }),
                (stones as usize).min(ranks),
            ],
        }
    }

    /// The polynomial of one file pattern, remembered in `scratch`.
    fn file(&self, scratch: &mut LeafScratch, occupied: u32, free: u32) -> FilePoly {
        let key = ((occupied << self.ranks) | free) as usize;
        if scratch.index.is_empty() {
            scratch.index = vec![UNKNOWN; 1 << (2 * self.ranks)];
        }
        if scratch.index[key] == UNKNOWN {
            let (most, terms) = self.file_poly(occupied, free);
            let mut max = [0usize; 3];
            for &(d, l, s, _) in &terms {
                max = [
                    max[0].max(d.into()),
                    max[1].max(l.into()),
                    max[2].max(s.into()),
                ];
            }
            scratch.index[key] = scratch.files.len() as u32;
            scratch.files.push(FilePoly {
                most,
                max,
                total: terms.iter().map(|t| t.3).sum(),
                first: scratch.terms.len() as u32,
                len: terms.len() as u32,
            });
            scratch.terms.extend(terms);
        }
        scratch.files[scratch.index[key] as usize]
    }

    /// Scans one file top to bottom (see the module doc) and returns the most pawns it holds
    /// and its polynomial by pawn deficit, sorted.
    fn file_poly(&self, occupied: u32, free: u32) -> (usize, Vec<Term>) {
        let [cp, cl, cs] = self.cap;
        let (wl, ws) = (cl + 1, cs + 1);
        let at = |p: usize, l: usize, s: usize| (p * wl + l) * ws + s;
        let mut state = vec![vec![0u64; (cp + 1) * wl * ws]; STATES];
        state[TOP][0] = 1;
        for r in 0..self.ranks {
            let mut next = vec![vec![0u64; state[0].len()]; STATES];
            let (is_free, is_occupied) = (free >> r & 1 == 1, occupied >> r & 1 == 1);
            for (from, ways) in state.iter().enumerate() {
                let attacked_from_above = from == DOWN_PAWN || from == DOWN_LANCE;
                for (i, &x) in ways.iter().enumerate().filter(|t| *t.1 != 0) {
                    let (p, l, s) = (i / (wl * ws), i / ws % wl, i % ws);
                    if is_occupied {
                        if !attacked_from_above {
                            next[PIECE][i] += x;
                        }
                        continue;
                    }
                    // Left empty (an attacked square can only be left empty).
                    next[if from == TOP || from == DOWN_LANCE {
                        from
                    } else {
                        EMPTY
                    }][i] += x;
                    if !is_free || attacked_from_above {
                        continue;
                    }
                    if s < cs {
                        next[PIECE][at(p, l, s + 1)] += x;
                    }
                    if p < cp && from != PIECE {
                        next[PIECE][at(p + 1, l, s)] += x;
                    }
                    if l < cl && from == TOP {
                        next[PIECE][at(p, l + 1, s)] += x;
                    }
                    if self.both_ways && p < cp {
                        next[DOWN_PAWN][at(p + 1, l, s)] += x;
                    }
                    if self.both_ways && l < cl {
                        next[DOWN_LANCE][at(p, l + 1, s)] += x;
                    }
                }
            }
            state = next;
        }
        let mut dense = vec![0u64; state[0].len()];
        for ways in &state {
            dense.iter_mut().zip(ways).for_each(|(d, x)| *d += x);
        }
        let most = (0..=cp)
            .rev()
            .find(|&p| dense[at(p, 0, 0)..at(p + 1, 0, 0)].iter().any(|&x| x > 0))
            .unwrap_or(0);
        let mut terms: Vec<Term> = (dense.iter().enumerate())
            .filter(|t| *t.1 != 0)
            .map(|(i, &x)| {
                let (p, l, s) = (i / (wl * ws), i / ws % wl, i % ws);
                ((most - p) as u8, l as u8, s as u8, x)
            })
            .collect();
        terms.sort_unstable();
        (most, terms)
    }

    /// Ways to add `wanted` pieces on the `free` squares (empty and not attacked) of a position
    /// with `occupied` squares.
    pub(crate) fn count(
        &self,
        occupied: Mask,
        free: Mask,
        wanted: Wanted,
        scratch: &mut LeafScratch,
    ) -> u128 {
        let mut files = [FilePoly::default(); 9];
        let (mut most, mut max) = (0, [0; 3]);
        let patterns = file_patterns(self.files, self.ranks as usize, occupied, free);
        for (slot, (o, f)) in files.iter_mut().zip(patterns) {
            *slot = self.file(scratch, o.into(), f.into());
            most += slot.most;
            (0..3).for_each(|i| max[i] += slot.max[i]);
        }
        let files = &files[..self.files];
        let Some(deficit) = most.checked_sub(wanted[0]) else {
            return 0;
        };
        let dims = [deficit, wanted[1], wanted[2]];
        if (0..3).any(|i| dims[i] > max[i]) {
            return 0;
        }
        // Every coefficient of a product is at most the product of the files' totals.
        let bound: f64 = files.iter().map(|f| f.total as f64).product();
        let LeafScratch {
            terms,
            narrow,
            wide,
            ..
        } = scratch;
        let terms = &terms[..];
        if bound < u64::MAX as f64 / 2.0 {
            product(files, terms, dims, max, narrow).into()
        } else {
            product(files, terms, dims, max, wide)
        }
    }
}

/// The coefficient at `dims` of the files' product; `max` is the sum of the files' largest
/// terms.
fn product<T: Coefficient>(
    files: &[FilePoly],
    terms: &[Term],
    dims: [usize; 3],
    max: [usize; 3],
    product: &mut Vec<T>,
) -> T {
    let span = |f: &FilePoly| &terms[f.first as usize..(f.first + f.len) as usize];
    // Only coefficients the files still to come can complete to `dims` are kept: those
    // at least `dims - rest`, with `rest` the most the remaining files add.
    let Some((last, init)) = files.split_last() else {
        return T::from(0);
    };
    reset(product, dims);
    let mut rest = max.map(|m| m as isize);
    for file in init {
        (0..3).for_each(|i| rest[i] -= file.max[i] as isize);
        let low = [0, 1, 2].map(|i| (dims[i] as isize - rest[i]).max(0) as usize);
        mul(product, dims, low, span(file));
    }
    coefficient(product, dims, span(last))
}

/// The integer type of the products' coefficients (`u64`, or `u128` when counts may be large).
trait Coefficient:
    Copy + PartialEq + From<u64> + std::ops::AddAssign + std::ops::Mul<Output = Self> + std::iter::Sum
{
}

impl Coefficient for u64 {}
impl Coefficient for u128 {}

/// Sets `buf` to the polynomial 1 over `(dims + 1)` coefficients.
fn reset<T: Coefficient>(buf: &mut Vec<T>, dims: [usize; 3]) {
    buf.clear();
    buf.resize((dims[0] + 1) * (dims[1] + 1) * (dims[2] + 1), T::from(0));
    buf[0] = T::from(1);
}

/// `buf *= poly` in place, truncated to `dims`, computing only the coefficients at least `low`
/// (componentwise). Going down the flat index is safe: every term reads a coefficient at a
/// componentwise smaller (so flat-smaller) index, not yet overwritten. The coefficients read
/// are at least `low - max(poly)`, which the previous call kept.
fn mul<T: Coefficient>(buf: &mut [T], dims: [usize; 3], low: [usize; 3], poly: &[Term]) {
    if let [(0, 0, 0, c)] = *poly {
        if c != 1 {
            buf.iter_mut().for_each(|x| *x = *x * T::from(c));
        }
        return;
    }
    let [wd, wl, ws] = dims.map(|n| n + 1);
    for d in (low[0]..wd).rev() {
        for l in (low[1]..wl).rev() {
            for s in (low[2]..ws).rev() {
                let mut sum = T::from(0);
                for &(dd, dl, ds, c) in poly {
                    let (dd, dl, ds) = (dd as usize, dl as usize, ds as usize);
                    if dd > d {
                        break;
                    }
                    if dl <= l && ds <= s {
                        sum += buf[((d - dd) * wl + l - dl) * ws + s - ds] * T::from(c);
                    }
                }
                buf[(d * wl + l) * ws + s] = sum;
            }
        }
    }
}

/// The coefficient at `dims` of `buf * poly`.
fn coefficient<T: Coefficient>(buf: &[T], dims: [usize; 3], poly: &[Term]) -> T {
    let [d, l, s] = dims;
    let [_, wl, ws] = dims.map(|n| n + 1);
    poly.iter()
        .map(|&(dd, dl, ds, c)| (dd as usize, dl as usize, ds as usize, c))
        .filter(|&(dd, dl, ds, _)| dd <= d && dl <= l && ds <= s)
        .map(|(dd, dl, ds, c)| buf[((d - dd) * wl + l - dl) * ws + s - ds] * T::from(c))
        .sum()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// table[pawns][lances][stones]
    pub(crate) type Table = Vec<Vec<Vec<u128>>>;

    /// Square contents for [`brute`]: 0 none, 1 stone, 2 ▲pawn, 3 ▲lance, 4 ▽pawn, 5 ▽lance.
    pub(crate) const PAWNS_ONE_WAY: &[usize] = &[0, 1, 2];
    pub(crate) const PAWNS_TWO_WAYS: &[usize] = &[0, 1, 2, 4];
    const ALL_ONE_WAY: &[usize] = &[0, 1, 2, 3];
    const ALL_TWO_WAYS: &[usize] = &[0, 1, 2, 3, 4, 5];

    /// Brute force on one board: every way of putting `contents` on the free squares, as a
    /// table by (pawns, lances, stones).
    pub(crate) fn brute(geo: &Geometry, occ: Mask, free: Mask, contents: &[usize]) -> Table {
        let h = geo.ranks() as usize;
        let sq: Vec<usize> = (0..geo.len()).filter(|&s| free >> s & 1 == 1).collect();
        let n = sq.len();
        let choices = contents.len();
        let mut table = vec![vec![vec![0u128; n + 1]; n + 1]; n + 1];
        let mut digits = vec![0usize; n];
        loop {
            let mut content = vec![0usize; geo.len()];
            for (i, &s) in sq.iter().enumerate() {
                content[s] = contents[digits[i]];
            }
            let blocked = |t: usize| content[t] != 0 || occ >> t & 1 == 1;
            let ok = sq.iter().all(|&s| {
                let (r, c) = (s % h, s / h);
                match content[s] {
                    2 => r == 0 || !blocked(c * h + r - 1),
                    3 => (0..r).all(|t| !blocked(c * h + t)),
                    4 => r == h - 1 || !blocked(c * h + r + 1),
                    5 => (r + 1..h).all(|t| !blocked(c * h + t)),
                    _ => true,
                }
            });
            if ok {
                let k = |a: usize, b: usize| {
                    sq.iter().filter(|&&s| [a, b].contains(&content[s])).count()
                };
                table[k(2, 4)][k(3, 5)][k(1, 1)] += 1;
            }
            let mut i = 0;
            loop {
                if i == n {
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

    pub(crate) fn lcg(seed: &mut u64) -> u64 {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        *seed >> 33
    }

    #[test]
    fn counts_match_brute_force_on_small_boards() {
        let mut seed = 5;
        for (files, ranks) in [(1, 6), (2, 3), (3, 2), (2, 4), (1, 7), (4, 2), (3, 3)] {
            let geo = Geometry::new(files, ranks).unwrap();
            for _ in 0..20 {
                let (mut occ, mut att) = (0, 0);
                for s in 0..geo.len() {
                    match lcg(&mut seed) % 5 {
                        0 | 1 => occ |= 1 << s,
                        2 => att |= 1 << s,
                        _ => {}
                    }
                }
                let free = geo.all() & !occ & !att;
                for both in [false, true] {
                    let contents = if both { ALL_TWO_WAYS } else { ALL_ONE_WAY };
                    let all = brute(&geo, occ, free, contents);
                    let n = geo.len() as u32;
                    let counter = LeafCounter::new(&geo, n, n, n, both);
                    let mut scratch = LeafScratch::default();
                    let at = |p: usize, l: usize, s: usize| {
                        all.get(p)
                            .and_then(|t| t.get(l))
                            .and_then(|t| t.get(s))
                            .copied()
                    };
                    for p in 0..all.len() {
                        for l in 0..all.len() {
                            for s in 0..all.len() {
                                let what = format!("{files}x{ranks} {occ:b} {free:b} {p} {l} {s}");
                                let got = counter.count(occ, free, [p, l, s], &mut scratch);
                                assert_eq!(got, at(p, l, s).unwrap_or(0), "{what}");
                            }
                        }
                    }
                }
            }
        }
    }
}
