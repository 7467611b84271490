//! The transposition table: fixed memory, hand superiority in look-ups, replacement and garbage
//! collection.
//!
//! Entries are keyed by the board (pieces on the board and the side to move, not the hands) and
//! carry the attacker's hand. A proven entry holds a proof hand and an upper bound of the mate
//! length: it answers for every hand that holds at least those pieces. A disproven entry holds a
//! disproof hand and a lower bound ("no mate within `lo` plies"; [`LEN_INF`] for no mate at all):
//! it answers for every hand that holds at most those pieces. An unknown entry holds the proof and
//! disproof numbers of one exact hand, for one length budget. A disproof that relies on
//! repetitions of the path (graph-history interaction) is held with the path it relies on: the
//! number of plies back to the shallowest position repeated and a hash of the positions since;
//! it answers only where the path ends with the same positions.
//!
//! Each entry is 32 bytes (four `u64` words; an empty entry is all zeros). An entry lives in a
//! window of [`WINDOW`] slots starting at its key's home slot; when the window is full the entry
//! with the least work below it is replaced. The table starts small ([`START_SLOTS`]) and grows
//! [`GROW_FACTOR`]-fold whenever it is [`GROW_FILL`] full, up to its memory limit: a short
//! solve touches a few MiB, not the whole limit (a fresh page costs the system a fault and a
//! clear). At the limit, when it fills past [`GC_FILL`], the entries with the least work are
//! swept.

use koma_core::Hand;

/// Proof and disproof numbers at or above this are infinite.
pub(crate) const INF: u32 = u32::MAX;
/// The largest finite proof or disproof number.
pub(crate) const PN_MAX: u32 = 1 << 30;
/// An unbounded length (a budget without limit, or "no mate at all" as a lower bound).
pub(crate) const LEN_INF: u16 = u16::MAX;

/// Slots looked at for one key.
const WINDOW: usize = 8;
/// Fill fraction (in 1/1024) above which a collection runs.
const GC_FILL: usize = 820;
/// Fill fraction (in 1/1024) a collection aims at.
const GC_TARGET: usize = 512;
/// Fill fraction (in 1/1024) above which a table below its limit grows.
const GROW_FILL: usize = 256;
/// Slots between two prefetched addresses of a window (two slots are one 64-byte cache line).
const PREFETCH_STEP: usize = 2;
/// How many times larger the table is after a growth (up to its limit). Every growth moves
/// each entry to its new window, a cache miss each, so fewer growths move fewer entries: four
/// rather than two took the zukou bench −2.0 % and −1.8 % on the problems settled, side by side
/// (docs/DECISIONS.md, session 30).
const GROW_FACTOR: usize = 4;
/// Slots walked ahead of the entry being moved when the table grows: the entry that many
/// slots further down has its new window prefetched.
const GROW_AHEAD: usize = 32;
/// Slots of a new table (1 MiB), unless the limit is smaller.
const START_SLOTS: usize = 1 << 15;
/// Size from which the table's memory is asked to be backed by the system's large pages (2 MiB
/// on x86_64 Linux; below it, a short solve touches a few MiB and 4 KiB pages cost little).
const HUGE_BYTES: usize = 32 << 20;

/// The bytes of one entry (four `u64` words).
const SLOT_BYTES: usize = std::mem::size_of::<[u64; 4]>();

const EMPTY: u8 = 0;
const UNKNOWN: u8 = 1;
const PROVEN: u8 = 2;
const DISPROVEN: u8 = 3;
const PATH_DISPROVEN: u8 = 4;

/// What the table knows about a board and hand.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Probe {
    /// The shortest proof that applies: (length bound, proof hand).
    pub proven: Option<(u16, Hand)>,
    /// The strongest disproof that applies: (lower bound, disproof hand).
    pub disproven: Option<(u16, Hand)>,
    /// The strongest disproof on the path that applies (see [`Table::probe_on_path`]): (lower
    /// bound, disproof hand, plies back to the shallowest path position it relies on).
    pub on_path: Option<(u16, Hand, u16)>,
    /// Numbers of the exact hand: (pn, dn, budget, shallowest depth seen).
    pub unknown: Option<(u32, u32, u16, u16)>,
    /// Lower bounds from other hands for the same budget: a weaker attacker is at least as hard
    /// to prove (pn), a stronger one at least as hard to disprove (dn).
    pub floors: (u32, u32),
}

/// The table. It grows up to `max_slots`, never beyond.
pub(crate) struct Table {
    /// The whole limit, zeroed by the system: only the first `len` slots are in use, the rest
    /// were never written (see [`Table::new`]).
    slots: Vec<[u64; 4]>,
    /// Slots in use: the first `len - WINDOW` are the homes an entry may have, and the last
    /// home's window ends at `len`.
    len: usize,
    /// Entries held: the slots among the first `len` that are not empty (every write to an
    /// empty slot counts one; a growth and a collection count again).
    used: usize,
    /// Slots the memory limit allows.
    max_slots: usize,
}

/// Slots of a table of at most `bytes` bytes (at least a few windows).
fn max_slots(bytes: usize) -> usize {
    (bytes / SLOT_BYTES).max(WINDOW * 4)
}

/// The hand of an entry: written from a `Hand` by `pack`, so always valid.
#[inline]
fn hand_of(w: &[u64; 4]) -> Hand {
    Hand::from_bits(w[1] as u32).unwrap_or(Hand::EMPTY)
}

#[allow(clippy::too_many_arguments)]
#[inline]
fn pack(
    key: u64,
    hand: Hand,
    pn: u32,
    dn: u32,
    amount: u32,
    len: u16,
    depth: u16,
    kind: u8,
) -> [u64; 4] {
    [
        key,
        hand.bits() as u64 | (pn as u64) << 32,
        dn as u64 | (amount as u64) << 32,
        len as u64 | (depth as u64) << 16 | (kind as u64) << 32,
    ]
}

impl Table {
    /// A table of at most `bytes` bytes (at least a few windows).
    pub(crate) fn new(bytes: usize) -> Table {
        let max_slots = max_slots(bytes);
        // The whole limit is allocated now, zeroed by the system as address space only (a
        // large zeroed allocation is fresh pages, which the system gives memory when first
        // written: nothing is cleared or written here), so the table grows where it stands: no
        // `realloc` moves it, large pages asked for once it is large stay large, and a growth
        // writes nothing over the new part, already empty.
        let slots = vec![[0u64; 4]; max_slots];
        let mut t = Table {
            slots,
            len: 0,
            used: 0,
            max_slots,
        };
        // Empty already: this only sets the starting size.
        t.clear();
        t
    }

    /// Whether the table is the one [`Table::new`] makes of `bytes`.
    pub(crate) fn holds(&self, bytes: usize) -> bool {
        self.max_slots == max_slots(bytes)
    }

    /// Empties the table, back to its starting size ([`START_SLOTS`], or the limit if smaller;
    /// [`Table::new`] starts it here too). The memory stays
    /// allocated: only the slots in use are cleared, and the ones the system has already given
    /// pages to are not given them again (the whole point of keeping a table from one solve to
    /// the next: a fresh page costs the system a fault and a clear, more than clearing it here).
    pub(crate) fn clear(&mut self) {
        if self.used > 0 {
            self.slots[..self.len].fill([0; 4]);
        }
        let n = self.max_slots.min(START_SLOTS);
        self.len = n;
        self.used = 0;
    }

    /// Bytes of memory the table may hold (its limit).
    pub(crate) fn bytes(&self) -> usize {
        self.max_slots * SLOT_BYTES
    }

    /// Filled share of the table's limit in permille.
    pub(crate) fn hashfull(&self) -> u32 {
        (self.used as u64 * 1000 / self.max_slots as u64) as u32
    }

    #[inline]
    fn home(&self, key: u64) -> usize {
        // Multiply-shift: the high bits of the product spread any key over the homes.
        ((key as u128 * (self.len - WINDOW) as u128) >> 64) as usize
    }

    /// Asks the processor to start loading `key`'s window into the cache, so that a probe of it
    /// soon after finds it there instead of waiting for memory. Changes nothing the table holds.
    ///
    /// Every line the window touches: the slots' memory is aligned to 16 bytes only (the
    /// allocator's), so a window's 256 bytes cover five 64-byte lines, not four. The last word
    /// of its last slot is on the fifth; a probe that found nothing reads it (an absent key is
    /// looked for in every slot), and leaving it out cost a miss on nearly every such probe
    /// (docs/DECISIONS.md, session 21: −7.9 % time, the same nodes).
    #[inline]
    pub(crate) fn prefetch(&self, key: u64) {
        let h = self.home(key);
        for slot in self.slots[h..h + WINDOW].iter().step_by(PREFETCH_STEP) {
            prefetch_word(&slot[0]);
        }
        prefetch_word(&self.slots[h + WINDOW - 1][3]);
    }

    /// Everything known about `key` with the attacker holding `hand`, for a length budget,
    /// whatever the path.
    #[inline]
    pub(crate) fn probe(&self, key: u64, hand: Hand, budget: u16) -> Probe {
        self.probe_on_path(key, hand, budget, |_| None)
    }

    /// [`Table::probe`] and the disproofs that rely on the path: `path(n)` is the hash of the
    /// path's last `n` positions before this one (`None` if it is shorter).
    #[inline]
    pub(crate) fn probe_on_path(
        &self,
        key: u64,
        hand: Hand,
        budget: u16,
        path: impl Fn(u16) -> Option<u64>,
    ) -> Probe {
        let mut out = Probe::default();
        let h = self.home(key);
        for w in &self.slots[h..h + WINDOW] {
            if w[0] != key || (w[3] >> 32) as u8 == EMPTY {
                continue;
            }
            let eh = hand_of(w);
            let len = w[3] as u16;
            match (w[3] >> 32) as u8 {
                PROVEN
                    if hand.is_superior_or_equal(eh) && out.proven.is_none_or(|(l, _)| len < l) =>
                {
                    out.proven = Some((len, eh));
                }
                DISPROVEN
                    if eh.is_superior_or_equal(hand)
                        && out.disproven.is_none_or(|(l, _)| len > l) =>
                {
                    out.disproven = Some((len, eh));
                }
                PATH_DISPROVEN
                    if eh.is_superior_or_equal(hand)
                        && out.on_path.is_none_or(|(l, _, _)| len > l) =>
                {
                    let span = (w[3] >> 16) as u16;
                    if path(span) == Some((w[1] >> 32) << 32 | (w[2] & 0xffff_ffff)) {
                        out.on_path = Some((len, eh, span));
                    }
                }
                UNKNOWN if eh == hand => {
                    out.unknown = Some(((w[1] >> 32) as u32, w[2] as u32, len, (w[3] >> 16) as u16))
                }
                UNKNOWN if len == budget => {
                    if eh.is_superior_or_equal(hand) {
                        out.floors.0 = out.floors.0.max((w[1] >> 32) as u32);
                    }
                    if hand.is_superior_or_equal(eh) {
                        out.floors.1 = out.floors.1.max(w[2] as u32);
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// Records a proof: mate within `len` plies for every hand holding `hand`.
    pub(crate) fn store_proven(&mut self, key: u64, hand: Hand, len: u16, amount: u32) {
        let slot = self.store(key, |eh, kind, elen| {
            // The same proof hand, or an unknown entry the proof now answers.
            (kind == PROVEN && eh == hand && elen >= len)
                || (kind == UNKNOWN && eh.is_superior_or_equal(hand))
        });
        if let Some(i) = slot {
            self.slots[i] = pack(key, hand, 0, INF, amount, len, 0, PROVEN);
        }
    }

    /// Records a disproof: no mate within `lo` plies for every hand holding at most `hand`.
    pub(crate) fn store_disproven(&mut self, key: u64, hand: Hand, lo: u16, amount: u32) {
        let slot = self.store(key, |eh, kind, elen| {
            (kind == DISPROVEN && eh == hand && elen <= lo)
                || (kind == UNKNOWN && hand.is_superior_or_equal(eh) && lo == LEN_INF)
        });
        if let Some(i) = slot {
            self.slots[i] = pack(key, hand, INF, 0, amount, lo, 0, DISPROVEN);
        }
    }

    /// Records a disproof that relies on the path: no mate within `lo` plies for every hand
    /// holding at most `hand`, where the last `span` positions before this one hash to `path`.
    pub(crate) fn store_path_disproven(
        &mut self,
        key: u64,
        hand: Hand,
        lo: u16,
        span: u16,
        path: u64,
        amount: u32,
    ) {
        if let Some(i) = self.store(key, |_, _, _| false) {
            self.slots[i] = pack(
                key,
                hand,
                (path >> 32) as u32,
                path as u32,
                amount,
                lo,
                span,
                PATH_DISPROVEN,
            );
        }
    }

    /// Records proof and disproof numbers of the exact hand for a budget.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn store_unknown(
        &mut self,
        key: u64,
        hand: Hand,
        pn: u32,
        dn: u32,
        budget: u16,
        depth: u16,
        amount: u32,
    ) {
        let Some(i) = self.store(key, |eh, kind, _| kind == UNKNOWN && eh == hand) else {
            return;
        };
        let w = &self.slots[i];
        let depth = if w[0] == key && (w[3] >> 32) as u8 == UNKNOWN {
            depth.min((w[3] >> 16) as u16)
        } else {
            depth
        };
        self.slots[i] = pack(key, hand, pn, dn, amount, budget, depth, UNKNOWN);
    }

    /// The slot to write: one that `replaces` says the new entry supersedes, else an empty one,
    /// else the one with the least work. Runs a collection first when the table is full enough.
    fn store(&mut self, key: u64, replaces: impl Fn(Hand, u8, u16) -> bool) -> Option<usize> {
        if self.len < self.max_slots {
            if self.used * 1024 > self.len * GROW_FILL {
                self.grow();
            }
        } else if self.used * 1024 > self.len * GC_FILL {
            self.collect();
        }
        let h = self.home(key);
        let mut empty = None;
        let mut weakest: Option<(usize, u64)> = None;
        for i in h..h + WINDOW {
            let w = &self.slots[i];
            let kind = (w[3] >> 32) as u8;
            if kind == EMPTY {
                empty = empty.or(Some(i));
                continue;
            }
            if w[0] == key && replaces(hand_of(w), kind, w[3] as u16) {
                return Some(i);
            }
            let worth = value(w);
            if weakest.is_none_or(|(_, v)| worth < v) {
                weakest = Some((i, worth));
            }
        }
        if let Some(i) = empty {
            self.used += 1;
            return Some(i);
        }
        weakest.map(|(i, _)| i)
    }

    /// Grows the table [`GROW_FACTOR`]-fold (up to its limit) in place and moves every entry to
    /// its window there; an entry whose new window is full replaces the weakest there if it is
    /// worth more (rare below a quarter full). The table takes in more of the zeroed slots
    /// allocated at [`Table::new`] (never written, so empty without a write), not copied or
    /// moved, so it never holds more than its new size (an old and a new table side by side
    /// would have held more than the limit at the last growth). From [`HUGE_BYTES`] on, its
    /// memory is asked to be backed by large pages.
    ///
    /// The rehash walks the old slots downward. A home never moves down (the multiply-shift
    /// home grows with the number of homes), so an entry whose new home is at or above its slot
    /// lands in slots already walked; the few near the bottom whose new home is below their
    /// slot wait in a side list and are placed last.
    #[cold]
    fn grow(&mut self) {
        let old_len = self.len;
        let n = (old_len * GROW_FACTOR).min(self.max_slots);
        if n * SLOT_BYTES >= HUGE_BYTES && old_len * SLOT_BYTES < HUGE_BYTES {
            advise_huge(&self.slots);
        }
        self.len = n;
        self.used = 0;
        let mut low = Vec::new();
        for i in (0..old_len).rev() {
            // The new window of the entry GROW_AHEAD slots further down the walk is asked for
            // now, so that placing it does not wait for memory (its first line: most windows
            // are nearly empty, and the entry lands in its first slots).
            if let Some(ahead) = i.checked_sub(GROW_AHEAD).map(|j| self.slots[j])
                && (ahead[3] >> 32) as u8 != EMPTY
            {
                prefetch_word(&self.slots[self.home(ahead[0])][0]);
            }
            let w = std::mem::take(&mut self.slots[i]);
            if (w[3] >> 32) as u8 == EMPTY {
                continue;
            }
            if self.home(w[0]) >= i {
                self.place(w);
            } else {
                low.push(w);
            }
        }
        for w in low {
            self.place(w);
        }
    }

    /// Puts entry `w` in an empty slot of its window, else over the weakest there if it is
    /// worth more.
    fn place(&mut self, w: [u64; 4]) {
        let h = self.home(w[0]);
        let mut weakest: Option<(usize, u64)> = None;
        for i in h..h + WINDOW {
            if (self.slots[i][3] >> 32) as u8 == EMPTY {
                self.slots[i] = w;
                self.used += 1;
                return;
            }
            let worth = value(&self.slots[i]);
            if weakest.is_none_or(|(_, v)| worth < v) {
                weakest = Some((i, worth));
            }
        }
        if let Some((i, v)) = weakest
            && value(&w) > v
        {
            self.slots[i] = w;
        }
    }

    /// Sweeps the entries with the least work until the table is about half full. The
    /// threshold comes from a histogram of work, so a sweep costs one pass.
    fn collect(&mut self) {
        let mut hist = [0usize; 64];
        for w in &self.slots[..self.len] {
            if (w[3] >> 32) as u8 != EMPTY {
                hist[bucket(value(w))] += 1;
            }
        }
        let target = self.len * GC_TARGET / 1024;
        let mut remove = self.used.saturating_sub(target);
        let mut threshold = 0;
        for (b, &n) in hist.iter().enumerate() {
            if remove == 0 {
                break;
            }
            threshold = b + 1;
            remove = remove.saturating_sub(n);
        }
        let mut used = 0;
        for w in &mut self.slots[..self.len] {
            if (w[3] >> 32) as u8 == EMPTY {
                continue;
            }
            if bucket(value(w)) < threshold {
                *w = [0; 4];
            } else {
                used += 1;
            }
        }
        self.used = used;
    }
}

/// Asks the processor to start loading the cache line of `word`. Changes nothing.
#[inline]
fn prefetch_word(word: &u64) {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: `_mm_prefetch` only hints the cache: it never faults, reads nothing into the
        // program and writes nothing, whatever the address; here the address is a word of the
        // table besides. It is `unsafe` only for its `sse` target feature, which is part of
        // x86_64's baseline.
        #[allow(unsafe_code)]
        unsafe {
            use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
            _mm_prefetch::<_MM_HINT_T0>((word as *const u64).cast::<i8>());
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = word;
}

/// Asks the system to back the memory of `slots` (the whole limit, its unused slots included,
/// before they are first written) with large pages (Linux's transparent huge pages, where the system allows them
/// on request): a large table probed at random otherwise pays a page fault for every 4 KiB it
/// grows into and a page walk on nearly every probe. Only a hint: nothing the table holds
/// changes, whether or not it is taken.
fn advise_huge(slots: &[[u64; 4]]) {
    #[cfg(target_os = "linux")]
    {
        // The system's smallest page (larger pages elsewhere make the call fail: no harm).
        const PAGE: usize = 4096;
        let base = slots.as_ptr().cast::<u8>();
        let addr = base as usize;
        let end = (addr + std::mem::size_of_val(slots)) / PAGE * PAGE;
        let start = addr.next_multiple_of(PAGE);
        if end > start {
            // SAFETY: `madvise(MADV_HUGEPAGE)` only marks how the kernel may back the pages of
            // the range; it reads and writes nothing of them, and the result (advice taken or
            // not) is not needed. The range is the page-aligned inside of the vector's own
            // allocation.
            #[allow(unsafe_code)]
            unsafe {
                let ptr = base
                    .wrapping_add(start - addr)
                    .cast_mut()
                    .cast::<libc::c_void>();
                libc::madvise(ptr, end - start, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = slots;
}

/// Worth of keeping an entry: the work below it, doubled for proofs and disproofs that hold on
/// every path.
#[inline]
fn value(w: &[u64; 4]) -> u64 {
    let amount = w[2] >> 32;
    let kind = (w[3] >> 32) as u8;
    if kind == UNKNOWN || kind == PATH_DISPROVEN {
        amount
    } else {
        amount * 2 + 1
    }
}

#[inline]
fn bucket(v: u64) -> usize {
    (64 - v.leading_zeros() as usize).min(63)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(i: u64) -> u64 {
        i.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    /// How many of the proofs `store_proven(key(i), Hand::EMPTY, 3, _)` for `i < n` the table
    /// still answers.
    fn found(t: &Table, n: u64) -> u64 {
        (0..n)
            .filter(|&i| t.probe(key(i), Hand::EMPTY, LEN_INF).proven == Some((3, Hand::EMPTY)))
            .count() as u64
    }

    /// A disproof on a path answers where the path's last positions hash the same, for hands
    /// holding at most its pieces, and never in a look-up that ignores the path.
    #[test]
    fn a_disproof_on_a_path_answers_on_that_path_only() {
        let mut t = Table::new(1 << 20);
        let g = Hand::EMPTY
            .with_count(koma_core::PieceKind::Gold, 1)
            .unwrap();
        t.store_path_disproven(key(1), g, 9, 3, 0xfeed_beef_0123_4567, 5);
        let on = |span: u16| (span == 3).then_some(0xfeed_beef_0123_4567);
        let elsewhere = |span: u16| (span == 3).then_some(0xfeed_beef_0123_4568);
        assert_eq!(t.probe_on_path(key(1), g, 7, on).on_path, Some((9, g, 3)));
        assert_eq!(
            t.probe_on_path(key(1), Hand::EMPTY, 7, on).on_path,
            Some((9, g, 3))
        );
        let two = g.with_count(koma_core::PieceKind::Gold, 2).unwrap();
        assert_eq!(t.probe_on_path(key(1), two, 7, on).on_path, None);
        assert_eq!(t.probe_on_path(key(1), g, 7, elsewhere).on_path, None);
        let p = t.probe(key(1), g, 7);
        assert!(p.on_path.is_none() && p.disproven.is_none(), "{p:?}");
    }

    #[test]
    fn the_table_grows_to_its_limit_and_keeps_its_entries() {
        let mut t = Table::new(4 << 20);
        assert_eq!(t.len, START_SLOTS);
        let n = 60_000;
        for i in 0..n {
            t.store_proven(key(i), Hand::EMPTY, 3, 1);
        }
        assert!(t.len > START_SLOTS);
        assert!(t.len <= t.max_slots);
        let kept = found(&t, n);
        // Growing at a quarter full leaves windows room: at most a few entries give way.
        assert!(kept * 100 >= n * 99, "kept {kept} of {n}");
        // Past the limit the table collects instead of growing.
        for i in n..10 * n {
            t.store_proven(key(i), Hand::EMPTY, 3, 1);
        }
        assert_eq!(t.len, t.max_slots);
        assert!(t.hashfull() <= 1000);
    }

    #[test]
    fn the_table_grows_past_the_large_page_size_and_keeps_its_entries() {
        // From START_SLOTS to the limit, each growth is GROW_FACTOR-fold in place (crossing
        // HUGE_BYTES, where large pages are asked for), and the entries stored on the way are
        // found after the last one: a growth that dropped or misplaced entries, or skipped a
        // size, fails.
        let mut t = Table::new(2 * HUGE_BYTES);
        // The limit is reserved up front, so no growth moves the entries' memory (a move would
        // break the large pages asked for past HUGE_BYTES into small ones).
        let at = t.slots.as_ptr();
        let mut sizes = vec![t.len];
        let mut n = 0;
        while t.len < t.max_slots {
            t.store_proven(key(n), Hand::EMPTY, 3, 1);
            n += 1;
            if sizes.last() != Some(&t.len) {
                sizes.push(t.len);
            }
        }
        assert_eq!(sizes.first(), Some(&START_SLOTS));
        assert!(
            sizes
                .windows(2)
                .all(|w| w[1] == (w[0] * GROW_FACTOR).min(t.max_slots))
        );
        assert!(sizes.iter().any(|&s| s * SLOT_BYTES < HUGE_BYTES));
        assert!(sizes.iter().any(|&s| s * SLOT_BYTES > HUGE_BYTES));
        assert_eq!(t.slots.as_ptr(), at);
        assert_eq!(t.slots.capacity(), t.max_slots);
        let kept = found(&t, n);
        assert!(kept * 100 >= n * 99, "kept {kept} of {n}");
        assert_eq!(t.used as u64, kept);
    }

    #[test]
    fn a_cleared_table_is_a_new_one_in_the_same_memory() {
        // Grown to its limit and collected, then cleared: every slot empty, the size a new
        // table starts at, nothing found, and it grows again from there as a new one does.
        let mut t = Table::new(2 << 20);
        let at = t.slots.as_ptr();
        for i in 0..200_000 {
            t.store_proven(key(i), Hand::EMPTY, 3, 1);
        }
        assert_eq!(t.len, t.max_slots);
        assert!(t.holds(2 << 20) && !t.holds(4 << 20));
        t.clear();
        assert_eq!((t.len, t.used, t.hashfull()), (START_SLOTS, 0, 0));
        assert!(t.slots.iter().all(|w| *w == [0; 4]));
        assert_eq!(found(&t, 200_000), 0);
        assert_eq!(t.slots.as_ptr(), at);
        let mut fresh = Table::new(2 << 20);
        for i in 0..40_000 {
            t.store_proven(key(i), Hand::EMPTY, 3, 1);
            fresh.store_proven(key(i), Hand::EMPTY, 3, 1);
        }
        assert_eq!((t.len, t.used), (fresh.len, fresh.used));
        assert!(t.slots == fresh.slots);
    }

    #[test]
    fn a_last_growth_short_of_the_factor_keeps_the_entries() {
        // 3 MiB: 1 MiB, then 3 MiB (three times, not GROW_FACTOR).
        let mut t = Table::new(3 << 20);
        let n = 30_000;
        for i in 0..n {
            t.store_proven(key(i), Hand::EMPTY, 3, 1);
        }
        assert_eq!(t.len, t.max_slots);
        assert_eq!(t.slots.capacity(), t.max_slots);
        let kept = found(&t, n);
        assert!(kept * 100 >= n * 99, "kept {kept} of {n}");
        assert_eq!(t.used as u64, kept);
    }
}
