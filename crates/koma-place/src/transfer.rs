//! Counting the short-range tail by a transfer over files.
//!
//! Once the long-range pieces (rook, bishop, dragon, horse) stand, every piece still to place
//! (king, gold-likes, silver, knight, lance, pawn, stone) attacks only squares in its own file
//! and the two next to it. So the completions can be counted file by file, left to right, as
//! a transfer matrix: what one file shows its neighbours is its *signature*, the pair
//!
//! * `O`: the ranks of the file that hold a piece (placed before or now), which a piece in a
//!   neighbouring file must not attack, and
//! * `A`: the ranks of a neighbouring file that the file's pieces attack, which must stay empty.
//!
//! Every short-range piece attacks the same ranks on its left and on its right, so one `A`
//! serves both neighbours, and two neighbouring files fit exactly when `O₁ ∩ A₂ = ∅` and
//! `O₂ ∩ A₁ = ∅`. Everything inside a file (pawn ahead, lance rays, gold and king above and
//! below) is settled when the file's contents are listed ([`FileTable`]), once per pattern of
//! occupied and free squares, and remembered.
//!
//! The state after a file is its signature and the numbers of pieces of each tail group used so
//! far, packed into one `u64` (a field per group, with a guard bit, so that "at most what is
//! wanted" is one subtraction). States that can no longer reach the wanted total (the files
//! still to come hold at most so many pieces) are dropped.
//!
//! # Mirror-symmetric completions
//! A completion that is its own mirror image repeats the left files' contents on the right;
//! mirroring keeps every piece's facing and ranks. So it is a choice for the files left of the
//! centre, each counted twice, and one for the centre file (odd widths); with an even width
//! the two middle files are each other's image and so must fit themselves (`O ∩ A = ∅`). When
//! golds and promoted minors share one group, the centre file's gold-likes are kept apart, since
//! the ways to share the group among its kinds symmetrically depend on them
//! ([`symmetric_shares`]).

use rustc_hash::FxHashMap;

use crate::board::Mask;
use crate::board::file_patterns;
use crate::combinatorics::{multinomial, symmetric_shares};
use crate::{Color, Geometry, Kind};

/// A piece the transfer places: one kind (or the gold-like group) facing one way.
#[derive(Debug, Clone)]
struct PieceType {
    /// The packed count vector of one such piece (its group's field and the total).
    unit: u64,
    /// Per rank: the ranks of its own file it attacks.
    file: [u16; 9],
    /// Per rank: the ranks of each neighbouring file it attacks.
    side: [u16; 9],
}

/// One group of the tail as the caller describes it.
#[derive(Debug, Clone)]
pub(crate) struct TailGroup {
    /// The kind (for the gold-like group, any of its kinds: they attack alike).
    pub(crate) kind: Kind,
    /// How many to place.
    pub(crate) count: u32,
    /// Whether the solver chooses the facing (two-directional, attacks depend on facing).
    pub(crate) orientable: bool,
    /// The numbers of each kind sharing the group (one entry unless gold-likes share it).
    pub(crate) members: Vec<u32>,
}

/// Counts the completions of a position by the tail groups (see the module doc).
#[derive(Debug, Clone)]
pub(crate) struct TransferCounter {
    ranks: usize,
    files: usize,
    types: Vec<PieceType>,
    /// The most of each field, packed, with every guard bit set.
    wanted: u64,
    /// The wanted numbers, packed (the centre field zero).
    target: u64,
    /// Half the wanted numbers (rounded down), packed, with every guard bit set: the most a
    /// file left of the centre may hold in a mirror-symmetric completion.
    half: u64,
    guard: u64,
    /// Bit offset of the total field.
    total_shift: u32,
    total_mask: u64,
    total: u64,
    /// The shared gold-like group: its field, the field keeping its pieces on the centre file
    /// apart, the numbers of its kinds and the ways to share it out.
    shared: Option<SharedField>,
}

#[derive(Debug, Clone)]
struct SharedField {
    unit: u64,
    shift: u32,
    mask: u64,
    centre_unit: u64,
    centre_shift: u32,
    members: Vec<usize>,
    ways: u128,
}

/// The contents of one file pattern, grouped by signature.
#[derive(Debug, Clone, Default)]
struct FileTable {
    groups: Vec<SigGroup>,
    /// (count vector, ways) of every content, by group, each group's with the most pieces first.
    contents: Vec<(u64, u64)>,
}

/// The contents of a file that show the same signature.
#[derive(Debug, Clone, Copy)]
struct SigGroup {
    /// Occupied ranks.
    o: u16,
    /// Ranks of the neighbouring files attacked.
    a: u16,
    /// Most pieces of its contents.
    most: u64,
    /// Its contents in [`FileTable::contents`].
    start: u32,
    end: u32,
}

/// Marks a file pattern not yet listed in [`TransferScratch::index`].
const UNKNOWN: u32 = u32::MAX;

/// Per-worker remembered file tables and buffers.
#[derive(Debug, Default)]
pub(crate) struct TransferScratch {
    /// Per pattern `occupied << ranks | free`: the index into `tables`, or [`UNKNOWN`].
    index: Vec<u32>,
    tables: Vec<FileTable>,
    maps: [FxHashMap<State, u128>; 2],
    bound: Vec<Vec<u8>>,
    best: BestClass,
    by_key: Vec<(u16, u16, std::cmp::Reverse<u64>, u64, u128)>,
}

/// In a bound: no content fits.
const NONE: u8 = u8::MAX;

/// The classes of a file (its signatures as the file before sees them) with the most pieces
/// each leads to, best first, and per rank bitsets over them, so that the best class fitting
/// a signature is found a word at a time.
#[derive(Debug, Default)]
struct BestClass {
    /// (most pieces, occupied, attacked), best first.
    classes: Vec<(u8, u16, u16)>,
    /// Per rank: the classes occupying it, then the classes attacking it; `words` words each.
    bits: Vec<u64>,
    words: usize,
    merged: FxHashMap<(u16, u16), u8>,
}

impl BestClass {
    /// The classes of `table` seen through `(co, ca)`, each with the most pieces its file and
    /// the files after it (`bound`) hold.
    fn build(&mut self, table: &FileTable, bound: &[u8], (co, ca): (u16, u16)) {
        self.merged.clear();
        for (g, &more) in table.groups.iter().zip(bound) {
            if more != NONE {
                let e = self.merged.entry((g.o & co, g.a & ca)).or_insert(0);
                *e = (*e).max(g.most as u8 + more);
            }
        }
        self.classes.clear();
        self.classes
            .extend(self.merged.iter().map(|(&(o, a), &m)| (m, o, a)));
        self.classes.sort_unstable_by(|x, y| y.cmp(x));
        self.words = self.classes.len().div_ceil(64);
        self.bits.clear();
        self.bits.resize(2 * 16 * self.words, 0);
        for (i, &(_, o, a)) in self.classes.iter().enumerate() {
            let (w, bit) = (i / 64, 1u64 << (i % 64));
            for r in ranks(o) {
                self.bits[r * self.words + w] |= bit;
            }
            for r in ranks(a) {
                self.bits[(16 + r) * self.words + w] |= bit;
            }
        }
    }

    /// The most pieces after a file showing `(o, a)`: the best class with no rank it occupies
    /// in `a` and none it attacks in `o`; [`NONE`] when no class fits.
    fn query(&self, (o, a): (u16, u16)) -> u8 {
        for w in 0..self.words {
            let mut bad = 0;
            for r in ranks(a) {
                bad |= self.bits[r * self.words + w];
            }
            for r in ranks(o) {
                bad |= self.bits[(16 + r) * self.words + w];
            }
            let valid = if (w + 1) * 64 <= self.classes.len() {
                !0
            } else {
                (1u64 << (self.classes.len() % 64)) - 1
            };
            let ok = !bad & valid;
            if ok != 0 {
                return self.classes[w * 64 + ok.trailing_zeros() as usize].0;
            }
        }
        NONE
    }
}

/// A state: the last file's signature and the packed count vector.
type State = (u16, u16, u64);

impl TransferCounter {
    /// A counter for the tail `groups` on `geo`; `None` when a group is not short-range or a
    /// count vector would not fit 64 bits.
    pub(crate) fn new(geo: &Geometry, groups: &[TailGroup]) -> Option<TransferCounter> {
        let (files, ranks) = (geo.files() as usize, geo.ranks() as usize);
        let total: u32 = groups.iter().map(|g| g.count).sum();
        let width = |max: u32| 33 - max.leading_zeros(); // value bits + guard bit
        let mut shift = 0;
        let mut fields = Vec::new();
        for g in groups {
            if !is_short_range(g.kind) {
                return None;
            }
            fields.push((shift, g.count));
            shift += width(g.count);
        }
        let total_shift = shift;
        shift += width(total);
        let shared_index = groups.iter().position(|g| g.members.len() > 1);
        let centre_shift = shift;
        if let Some(i) = shared_index {
            shift += width(groups[i].count);
        }
        if shift > 64 {
            return None;
        }
        // (bit offset, most, most on a file left of the centre) of every field.
        let mut spec: Vec<(u32, u32, u32)> = fields.iter().map(|&(at, n)| (at, n, n / 2)).collect();
        spec.push((total_shift, total, total / 2));
        let pack = |spec: &[(u32, u32, u32)], pick: fn(&(u32, u32, u32)) -> u32| {
            spec.iter().fold(0u64, |v, f| v | (pick(f) as u64) << f.0)
        };
        let target = pack(&spec, |f| f.1);
        if let Some(i) = shared_index {
            // Only the mirror-symmetric count's centre file fills the centre field.
            spec.push((centre_shift, groups[i].count, 0));
        }
        let guard = spec
            .iter()
            .fold(0u64, |g, f| g | 1 << (f.0 + width(f.1) - 1));
        let wanted = pack(&spec, |f| f.1) | guard;
        let half = pack(&spec, |f| f.2) | guard;
        let total_unit = 1u64 << total_shift;
        let mut types = Vec::new();
        for (g, &(at, _)) in groups.iter().zip(&fields) {
            let colors: &[Color] = if g.orientable {
                &[Color::Black, Color::White]
            } else {
                &[Color::Black]
            };
            for &color in colors {
                let mut t = PieceType {
                    unit: (1 << at) | total_unit,
                    file: [0; 9],
                    side: [0; 9],
                };
                for r in 0..ranks {
                    let a = geo.attacks(g.kind, color, r);
                    t.file[r] = (a & ((1 << ranks) - 1)) as u16;
                    t.side[r] = ((a >> ranks) & ((1 << ranks) - 1)) as u16;
                }
                types.push(t);
            }
        }
        let shared = shared_index.map(|i| SharedField {
            unit: 1 << fields[i].0,
            shift: fields[i].0,
            mask: (1 << (width(groups[i].count) - 1)) - 1,
            centre_unit: 1 << centre_shift,
            centre_shift,
            members: groups[i].members.iter().map(|&n| n as usize).collect(),
            ways: multinomial(groups[i].members.iter().map(|&n| n as usize)),
        });
        Some(TransferCounter {
            ranks,
            files,
            types,
            wanted,
            target,
            half,
            guard,
            total_shift,
            total_mask: (1 << (width(total) - 1)) - 1,
            total: total as u64,
            shared,
        })
    }

    /// True when every field of `cv` is at most the same field of `max` (which has its guard
    /// bits set).
    #[inline]
    fn within(&self, cv: u64, max: u64) -> bool {
        max.wrapping_sub(cv) & self.guard == self.guard
    }

    #[inline]
    fn total_of(&self, cv: u64) -> u64 {
        cv >> self.total_shift & self.total_mask
    }

    /// The file table of a pattern, remembered in `scratch`.
    fn table(&self, scratch: &mut TransferScratch, occupied: u16, free: u16) -> usize {
        if scratch.index.is_empty() {
            scratch.index = vec![UNKNOWN; 1 << (2 * self.ranks)];
        }
        let key = ((occupied as usize) << self.ranks) | free as usize;
        if scratch.index[key] == UNKNOWN {
            let mut contents: FxHashMap<State, u64> = FxHashMap::default();
            self.list(0, occupied, 0, 0, 0, free, &mut contents);
            let mut by_sig: FxHashMap<(u16, u16), Vec<(u64, u64)>> = FxHashMap::default();
            for ((o, a, cv), ways) in contents {
                by_sig.entry((o, a)).or_default().push((cv, ways));
            }
            let mut by_sig: Vec<_> = by_sig.into_iter().collect();
            by_sig.sort_unstable();
            let mut table = FileTable::default();
            for ((o, a), mut v) in by_sig {
                v.sort_unstable_by_key(|&(cv, _)| (std::cmp::Reverse(self.total_of(cv)), cv));
                let start = table.contents.len() as u32;
                table.contents.extend(v);
                table.groups.push(SigGroup {
                    o,
                    a,
                    most: self.total_of(table.contents[start as usize].0),
                    start,
                    end: table.contents.len() as u32,
                });
            }
            scratch.index[key] = scratch.tables.len() as u32;
            scratch.tables.push(table);
        }
        scratch.index[key] as usize
    }

    /// Lists the contents of one file from rank `r` down: `occ` holds the occupied ranks (the
    /// fixed ones everywhere, the new ones above `r`), `att` the ranks the new pieces attack.
    #[allow(clippy::too_many_arguments)]
    fn list(
        &self,
        r: usize,
        occ: u16,
        att: u16,
        side: u16,
        cv: u64,
        free: u16,
        out: &mut FxHashMap<State, u64>,
    ) {
        if r == self.ranks {
            *out.entry((occ, side, cv)).or_default() += 1;
            return;
        }
        self.list(r + 1, occ, att, side, cv, free, out);
        if free >> r & 1 == 0 || att >> r & 1 == 1 {
            return;
        }
        for t in &self.types {
            let next = cv + t.unit;
            if t.file[r] & occ != 0 || !self.within(next, self.wanted) {
                continue;
            }
            let occ = occ | 1 << r;
            self.list(
                r + 1,
                occ,
                att | t.file[r],
                side | t.side[r],
                next,
                free,
                out,
            );
        }
    }

    /// Ways to complete a position with `occupied` squares and `free` squares (empty, not
    /// attacked) by the tail; with `mirror` (the position is its own mirror image), also the
    /// completions that are their own mirror image.
    pub(crate) fn count(
        &self,
        occupied: Mask,
        free: Mask,
        mirror: bool,
        scratch: &mut TransferScratch,
    ) -> (u128, u128) {
        let patterns: Vec<(u16, u16)> =
            file_patterns(self.files, self.ranks, occupied, free).collect();
        let tables: Vec<usize> = patterns
            .iter()
            .map(|&(o, f)| self.table(scratch, o, f))
            .collect();
        let all = self.run(&patterns, &tables, scratch);
        let ways = self.shared.as_ref().map_or(1, |s| s.ways);
        if !mirror || all == 0 {
            return (all * ways, 0);
        }
        (all * ways, self.symmetric(&tables, scratch))
    }

    /// What of a file's signature the next file (of `pattern`) can see: the ranks its pieces
    /// could attack, and the ranks that could hold a piece.
    fn visible(&self, pattern: Option<&(u16, u16)>) -> (u16, u16) {
        let Some(&(occ, free)) = pattern else {
            return (0, 0);
        };
        let attackable = (0..self.ranks)
            .filter(|r| free >> r & 1 == 1)
            .flat_map(|r| self.types.iter().map(move |t| t.side[r]))
            .fold(0, |a, b| a | b);
        (attackable, occ | free)
    }

    /// The plain transfer over all files.
    fn run(
        &self,
        patterns: &[(u16, u16)],
        tables: &[usize],
        scratch: &mut TransferScratch,
    ) -> u128 {
        let n = self.files;
        let TransferScratch {
            tables: t,
            maps,
            bound,
            best,
            by_key,
            ..
        } = scratch;
        let tables: Vec<&FileTable> = tables.iter().map(|&i| &t[i]).collect();
        // What the state after file f keeps (seen by file f + 1), and what of file f's
        // signature file f - 1 sees (its class).
        let keep: Vec<(u16, u16)> = (0..n).map(|f| self.visible(patterns.get(f + 1))).collect();
        let class: Vec<(u16, u16)> = (0..n)
            .map(|f| self.visible(f.checked_sub(1).and_then(|g| patterns.get(g))))
            .collect();
        // bound[f][g]: the most pieces files f + 1.. add after group g of file f (NONE: none
        // fit).
        bound.resize_with(n, Vec::new);
        for f in (0..n).rev() {
            let mut b = std::mem::take(&mut bound[f]);
            b.clear();
            if f + 1 == n {
                b.resize(tables[f].groups.len(), 0);
            } else {
                best.build(tables[f + 1], &bound[f + 1], class[f + 1]);
                let (ko, ka) = keep[f];
                let mut memo: FxHashMap<(u16, u16), u8> = FxHashMap::default();
                b.extend(tables[f].groups.iter().map(|g| {
                    let key = (g.o & ko, g.a & ka);
                    *memo.entry(key).or_insert_with(|| best.query(key))
                }));
            }
            bound[f] = b;
        }
        let reach = (tables[0].groups.iter().zip(&bound[0]))
            .filter(|&(_, &b)| b != NONE)
            .map(|(g, &b)| g.most + b as u64)
            .max();
        if reach.is_none_or(|r| r < self.total) {
            return 0;
        }
        let [cur, next] = maps;
        cur.clear();
        cur.insert((0, 0, 0), 1);
        for f in 0..n {
            let (table, b) = (tables[f], &bound[f]);
            let (ko, ka) = keep[f];
            // The states by signature, those with the most pieces first.
            by_key.clear();
            for (&(o, a, cv), &x) in cur.iter() {
                by_key.push((o, a, std::cmp::Reverse(self.total_of(cv)), cv, x));
            }
            by_key.sort_unstable();
            next.clear();
            for same in by_key.chunk_by(|x, y| (x.0, x.1) == (y.0, y.1)) {
                let (o1, a1) = (same[0].0, same[0].1);
                for (g, &more) in table.groups.iter().zip(b) {
                    if g.o & a1 != 0 || g.a & o1 != 0 || more == NONE {
                        continue;
                    }
                    let key = (g.o & ko, g.a & ka);
                    let contents = &table.contents[g.start as usize..g.end as usize];
                    for &(_, _, std::cmp::Reverse(have), cv1, x) in same {
                        let need = self.total.saturating_sub(have + more as u64);
                        if g.most < need {
                            break;
                        }
                        for &(cv2, w) in contents {
                            if self.total_of(cv2) < need {
                                break;
                            }
                            let cv = cv1 + cv2;
                            if self.within(cv, self.wanted) {
                                *next.entry((key.0, key.1, cv)).or_default() += x * w as u128;
                            }
                        }
                    }
                }
            }
            std::mem::swap(cur, next);
            if cur.is_empty() {
                return 0;
            }
        }
        cur.iter()
            .filter(|&(&(_, _, cv), _)| cv == self.target)
            .map(|(_, &n)| n)
            .sum()
    }

    /// Completions that are their own mirror image (see the module doc).
    fn symmetric(&self, tables: &[usize], scratch: &mut TransferScratch) -> u128 {
        let half_files = self.files / 2;
        let TransferScratch {
            tables: t, maps, ..
        } = scratch;
        let [cur, next] = maps;
        cur.clear();
        cur.insert((0, 0, 0), 1);
        for &ti in &tables[..half_files] {
            self.step(&t[ti], cur, next, 2, self.half, false);
            std::mem::swap(cur, next);
        }
        if self.files % 2 == 1 {
            self.step(&t[tables[half_files]], cur, next, 1, self.wanted, true);
            std::mem::swap(cur, next);
        } else {
            cur.retain(|&(o, a, _), _| o & a == 0);
        }
        cur.iter()
            .map(|(&(_, _, cv), &n)| match &self.shared {
                None => n * (cv == self.target) as u128,
                Some(s) => {
                    // Gold-likes on the centre file back in their own field.
                    let centre = cv >> s.centre_shift & s.mask;
                    let paired = cv >> s.shift & s.mask;
                    if cv - centre * s.centre_unit + centre * s.unit != self.target {
                        return 0;
                    }
                    n * symmetric_shares(&s.members, paired as usize / 2, centre as usize)
                }
            })
            .sum()
    }

    /// One file of the mirror-symmetric count: every state of `cur` followed by every content
    /// of `table` that fits it, its count vector taken `times` times (each field at most
    /// `max`), into `next`. With `centre`, the gold-likes of the new file go to the centre
    /// field.
    fn step(
        &self,
        table: &FileTable,
        cur: &FxHashMap<State, u128>,
        next: &mut FxHashMap<State, u128>,
        times: u64,
        max: u64,
        centre: bool,
    ) {
        next.clear();
        for (&(o1, a1, cv1), &n1) in cur {
            for g in &table.groups {
                if g.o & a1 != 0 || g.a & o1 != 0 {
                    continue;
                }
                for &(cv2, w2) in &table.contents[g.start as usize..g.end as usize] {
                    if times > 1 && !self.within(cv2, max) {
                        continue;
                    }
                    let mut add = cv2 * times;
                    if let (true, Some(s)) = (centre, &self.shared) {
                        let k = cv2 >> s.shift & s.mask;
                        add = add - k * s.unit + k * s.centre_unit;
                    }
                    let cv = cv1 + add;
                    if self.within(cv, self.wanted) {
                        *next.entry((g.o, g.a, cv)).or_default() += n1 * w2 as u128;
                    }
                }
            }
        }
    }
}

/// The set ranks of a file mask.
fn ranks(mut mask: u16) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let r = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            r
        })
    })
}

/// Kinds whose attacks stay within their own file and the two next to it.
pub(crate) fn is_short_range(kind: Kind) -> bool {
    !matches!(kind, Kind::Rook | Kind::Bishop | Kind::Dragon | Kind::Horse)
}
