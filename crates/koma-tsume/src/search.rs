//! Depth-first proof-number search (df-pn, Nagai 2002) over the AND/OR graph of a mate problem.
//!
//! Attacker (OR) nodes try only checks, defender (AND) nodes only evasions. Each node keeps its
//! children in an arena while it is on the search path; a child's numbers come from the
//! transposition table when the node is expanded and from the recursive call afterwards.
//!
//! - **Lengths.** Every search has a length budget: "mate within `budget` plies". The proof runs
//!   unbounded ([`LEN_INF`]); the composer's answer settles exact lengths by bounded searches. A
//!   proof carries an upper bound of the mate length, a disproof a lower bound.
//! - **Hands.** The table is keyed by the board; results carry proof pieces (the least attacker
//!   hand the proof needs) and disproof pieces (the most the disproof allows), so one result
//!   answers for every superior or inferior hand.
//! - **Cycles (GHI).** A child that repeats a position of the current path, or an inferior one
//!   (same board, attacker hand no larger), is lost for the attacker on this path only. A
//!   disproof records the shallowest path depth it relies on and is stored as a path-independent
//!   result only at or above that depth; below it lives only in the parent's child list.
//! - **Accelerators** (each switchable in [`Tuning`] for measurement): df-pn+ initial numbers,
//!   mate-in-1 and no-check detection at new attacker nodes (at a bounded search's horizon, no
//!   mate in one settling the node; three or four plies from it, an exact mate in three), lazy
//!   expansion of interpositions on one square and of useless non-promotions, disproof numbers
//!   of the attacker's drops and proof numbers of the defender's interposing drops counted once
//!   (double-count control), and threshold extension where a child was reached before at a
//!   shallower depth (TCA).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::time::{Duration, Instant};

use koma_core::attacks::{self, between, king_attacks};
use koma_core::{
    AttackSets, Bitboard, Color, Hand, Move, MoveFilter, MoveList, NonPromotions, Piece, PieceKind,
    Position, Setup, Square, zobrist,
};

use crate::hands;
use crate::keys;
use crate::table::{INF, LEN_INF, PN_MAX, Table};
use crate::{Cancel, Options, Phase, Progress, UnknownReason};

/// The deepest ply the search enters. Lines cut there count as not mating on that path, so a
/// "no mate" that depended on a cut is reported as unknown.
pub const MAX_PLY: usize = 2500;

/// The `rep` of a result that holds on every path.
pub(crate) const NO_REP: u16 = u16::MAX;

/// Switches for the search's accelerators, so each can be measured against the plain search.
/// Hidden: the defaults are the measured best (docs/DECISIONS.md, koma-tsume).
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tuning {
    /// df-pn+ initial proof and disproof numbers from the pieces around the destination.
    pub estimates: bool,
    /// Mate-in-1 and no-check detection at attacker nodes on their first visit; with one or two
    /// plies left (a bounded search's horizon), no mate in one settles the node too, and with
    /// three or four, where the search reaches it, the exact mate in three.
    pub mate1: bool,
    /// Interpositions on one square searched one after another.
    pub lazy: bool,
    /// In bounded searches, a pawn's, bishop's or rook's non-promotion searched only after its
    /// promotion is settled (disproven at an attacker node, proven at a defender node): the
    /// promoted piece moves as the unpromoted one and more, so the non-promotion is mostly
    /// answered the same way. Not in the unbounded proof, where composed problems' 不成 would
    /// wait behind promotions that are hard to disprove.
    pub delay_non_promotions: bool,
    /// At a defender node, a new child's first look ([`Walker::first_look`]: its checks
    /// generated, a mate in one tried, its disproof number raised by their number) is taken
    /// once the child is the node's best or second best by the numbers it has without it, not
    /// for every child at the expansion: most children are never searched (図巧4 and 70, 4 M
    /// nodes each: 2.8 M first looks against 0.5 M expansions of attacker nodes). A look raises
    /// the disproof number or settles the child, so the child searched and its threshold are
    /// those of looking at every child, except where a child not looked at has no check at all
    /// (found when its turn comes) or mates in one (the node's proof number counts it open
    /// meanwhile). Only the search's order changes.
    pub lazy_first_look: bool,
    /// Disproof numbers of the attacker's drops counted once, by maximum (a quarter of their
    /// number added back): drops lead to similar positions, whose disproofs overlap.
    pub max_drops: bool,
    /// Proof numbers of the defender's drops (interpositions) counted once, the same way: a
    /// far check with many squares to interpose on is not made to look as hard as the sum of
    /// its interpositions, most of which the same capture answers. Only drops on squares no
    /// defender's piece but the king guards: a guarded interposition is not answered by a
    /// free capture, and counts as any other defence.
    pub max_interpositions: bool,
    /// Threshold extension where a child was visited at a shallower depth before (TCA).
    pub tca: bool,
    /// A wider 1+ε (ε = 1 instead of 1/4) at the attacker nodes of bounded searches, whose
    /// cost is mostly refutations, where every check must be refuted in some order: the best
    /// check is kept until its proof number is twice its sibling's instead of being left (and
    /// come back to) at a quarter more.
    pub wide_refutation: bool,
    /// Proof and disproof numbers raised to those of superior and inferior hands' entries.
    pub floors: bool,
    /// A drop between the king and a distant checker is proven when the checker moved there
    /// is (tentative capture; shtsume's futile-interposition test, made exact by the table).
    pub tentative: bool,
    /// An unknown entry searched at another length budget seeds a bounded search: its proof
    /// number where it had more plies (fewer can only make the mate harder), its disproof number
    /// where it had fewer.
    pub budgets: bool,
    /// The composer's exact-length search settles the attacker nodes of the best line known,
    /// deepest first, before the root's "mate within L − 2?" when that line is at least this
    /// many plies long and the root's search has not settled within a share of the nodes
    /// spent before it (0: never). See `solve::settle_line`. 32 rather than 100: the issue's
    /// run 503 → 494 s (docs/DECISIONS.md, session 22).
    pub long_line: u16,
    /// Before settling a long line from its end (`long_line`), each of its attacker nodes is
    /// asked from the top down, within 500 nodes each, for a mate two plies shorter than the
    /// line has left there; where one is found, the line below that node is replaced by a
    /// shorter one from the table's proofs, so the settling refutes the line the answer
    /// follows, not a part a shorter mate above it leaves (the issue's run 511.0 → 495.5 s;
    /// 図巧31 16.5 → 9.6 M nodes; docs/DECISIONS.md, session 27). Only which exact searches are
    /// made changes, never the answer.
    pub line_trials: bool,
}

/// The nodes each of [`Tuning::line_trials`]' trials may spend: a shorter mate the table
/// nearly holds is found within a few hundred nodes; one that needs a real search is left to
/// the settling (docs/DECISIONS.md, session 27: 100, 500, 2,000, 5,000 and 50,000 measured).
pub(crate) const LINE_TRIAL_NODES: u64 = 500;

impl Default for Tuning {
    fn default() -> Tuning {
        Tuning {
            estimates: true,
            mate1: true,
            lazy: true,
            delay_non_promotions: true,
            lazy_first_look: true,
            max_drops: true,
            max_interpositions: true,
            tca: true,
            wide_refutation: true,
            floors: true,
            tentative: true,
            budgets: true,
            long_line: 32,
            line_trials: true,
        }
    }
}

/// The result of a search at one node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Res {
    pub pn: u32,
    pub dn: u32,
    /// Proven: an upper bound of the mate length. Disproven: a lower bound (no mate within
    /// `len` plies), [`LEN_INF`] for no mate at all.
    pub len: u16,
    /// Proven: proof pieces. Disproven: disproof pieces.
    pub hand: Hand,
    /// Disproven: the shallowest path depth the disproof relies on, [`NO_REP`] if none.
    pub rep: u16,
}

impl Res {
    pub(crate) fn is_final(&self) -> bool {
        self.pn == 0 || self.dn == 0
    }
}

const F_HIDDEN: u8 = 1;
const F_MAX: u8 = 2;
const F_INTERP: u8 = 4;
const F_USELESS: u8 = 8;
const F_TESTED: u8 = 16;
const F_NEW: u8 = 32;
/// A new child of a defender node whose first look is put off ([`Tuning::lazy_first_look`]).
const F_UNLOOKED: u8 = 64;
const NO_NEXT: u16 = u16::MAX;

/// A child in a node's list.
#[derive(Clone, Copy, Debug)]
struct Child {
    mv: Move,
    key: u64,
    pn: u32,
    dn: u32,
    len: u16,
    rep: u16,
    res_hand: Hand,
    next: u16,
    order: i16,
    flags: u8,
    /// An untested refuting interposition: the proof and disproof numbers of its uselessness
    /// test (see [`Walker::numbers`]).
    tpn: u32,
    tdn: u32,
}

impl Child {
    #[inline]
    fn visible(&self) -> bool {
        self.flags & F_HIDDEN == 0
    }
}

/// State shared by every walker of one solve: the table, the counters and the limits.
pub(crate) struct Shared<'a> {
    pub tt: Table,
    pub attacker: Color,
    pub tuning: Tuning,
    pub nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    pub start: Instant,
    cancel: &'a Cancel,
    progress: &'a mut (dyn FnMut(&Progress) + Send),
    next_poll: u64,
    last_report: Instant,
    pub stop: Option<UnknownReason>,
    pub phase: Phase,
    pub root: (u32, u32),
    /// A node count at which the current search gives up without stopping the solve (a trial
    /// with a node budget; `u64::MAX` otherwise).
    soft_limit: u64,
}

/// Nodes between looks at the clock and the cancel token.
const POLL: u64 = 2048;
/// Time between progress reports.
const REPORT: Duration = Duration::from_millis(250);

impl<'a> Shared<'a> {
    /// The state of a solve of `pos` under `options`, its table `tt` emptied first (the time
    /// that takes is the solve's).
    pub(crate) fn new(
        pos: &Position,
        options: &Options,
        mut tt: Table,
        cancel: &'a Cancel,
        progress: &'a mut (dyn FnMut(&Progress) + Send),
    ) -> Shared<'a> {
        let start = Instant::now();
        tt.clear();
        let node_limit = options.limits.nodes.unwrap_or(u64::MAX);
        Shared {
            tt,
            attacker: pos.side_to_move(),
            tuning: options.tuning,
            nodes: 0,
            node_limit,
            deadline: options.limits.time.map(|t| start + t),
            start,
            cancel,
            progress,
            next_poll: POLL.min(node_limit),
            last_report: start,
            stop: None,
            phase: Phase::Proof,
            root: (1, 1),
            soft_limit: u64::MAX,
        }
    }

    /// Counts a node; true when the solve must stop.
    #[inline]
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.next_poll {
            self.poll();
        }
        self.stop.is_some()
    }

    #[cold]
    fn poll(&mut self) {
        self.next_poll = self.nodes.saturating_add(POLL).min(self.node_limit);
        if self.stop.is_some() {
            return;
        }
        if self.nodes >= self.node_limit {
            self.stop = Some(UnknownReason::Nodes);
            return;
        }
        if self.cancel.is_cancelled() {
            self.stop = Some(UnknownReason::Cancelled);
            return;
        }
        let now = Instant::now();
        if self.deadline.is_some_and(|d| now >= d) {
            self.stop = Some(UnknownReason::Time);
            return;
        }
        if now.duration_since(self.last_report) >= REPORT {
            self.last_report = now;
            self.report();
        }
    }

    /// Calls the progress callback now.
    pub(crate) fn report(&mut self) {
        let p = Progress {
            nodes: self.nodes,
            elapsed: self.start.elapsed(),
            hashfull: self.tt.hashfull(),
            pn: self.root.0,
            dn: self.root.1,
            phase: self.phase,
        };
        (self.progress)(&p);
    }

    /// Whether the solve must stop (a limit or a cancel).
    pub(crate) fn stopped(&self) -> bool {
        self.stop.is_some()
    }

    /// Whether the current search must return: the solve stops, or a trial ran out of nodes.
    #[inline]
    fn halted(&self) -> bool {
        self.stop.is_some() || self.nodes >= self.soft_limit
    }
}

/// A hasher for keys that are already uniform (Zobrist keys).
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ b as u64;
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

/// One search path over a position: make and unmake moves, keep the path for repetition, and
/// run df-pn below the current position.
pub(crate) struct Walker<'w, 'a> {
    pub sh: &'w mut Shared<'a>,
    pub pos: Position,
    /// Board key and attacker hand of each position on the path (index = depth - 1).
    keys: Vec<u64>,
    hands: Vec<Hand>,
    /// For each path position, 1 + the index of the previous one with the same board (0: none).
    prev_same: Vec<u32>,
    /// Hashes of the path's beginnings: `prefix[i]` of its positions 0..=i (see
    /// [`Walker::tail_hash`]).
    prefix: Vec<u64>,
    /// Board key → 1 + index of the latest path position with that board.
    latest: HashMap<u64, u32, BuildHasherDefault<KeyHasher>>,
    kids: Vec<Child>,
    /// The board keys of the children of the node being expanded.
    child_keys: Vec<u64>,
    /// Whether bounded searches leave useless interpositions out of the length.
    composer: bool,
    /// The checks searched at the attacker node of depth `only_depth` ([`Walker::run_only`];
    /// 0: no node restricted).
    only: Vec<Move>,
    only_depth: u16,
}

impl<'w, 'a> Walker<'w, 'a> {
    pub(crate) fn new(sh: &'w mut Shared<'a>, pos: Position, composer: bool) -> Walker<'w, 'a> {
        let mut w = Walker {
            sh,
            pos,
            keys: Vec::with_capacity(256),
            hands: Vec::with_capacity(256),
            prev_same: Vec::with_capacity(256),
            prefix: Vec::with_capacity(256),
            latest: HashMap::default(),
            kids: Vec::with_capacity(256),
            child_keys: Vec::with_capacity(256),
            composer,
            only: Vec::new(),
            only_depth: 0,
        };
        let key = keys::board_key(&w.pos);
        let hand = w.pos.hand(w.sh.attacker);
        w.enter(key, hand);
        w
    }

    /// Depth of the current position (the walker's first position is 1).
    #[inline]
    pub(crate) fn depth(&self) -> u16 {
        self.keys.len() as u16
    }

    /// Whether the attacker is to move.
    #[inline]
    pub(crate) fn or_node(&self) -> bool {
        self.pos.side_to_move() == self.sh.attacker
    }

    fn enter(&mut self, key: u64, hand: Hand) {
        let idx = self.keys.len() as u32;
        let prev = self.latest.insert(key, idx + 1).unwrap_or(0);
        self.keys.push(key);
        self.hands.push(hand);
        self.prev_same.push(prev);
        let before = self.prefix.last().map_or(0, |&p| p.wrapping_mul(PATH_MUL));
        self.prefix.push(before.wrapping_add(path_item(key, hand)));
    }

    fn leave(&mut self) {
        let key = self.keys.pop().unwrap_or(0);
        self.hands.pop();
        self.prefix.pop();
        let prev = self.prev_same.pop().unwrap_or(0);
        if prev == 0 {
            self.latest.remove(&key);
        } else {
            self.latest.insert(key, prev);
        }
    }

    /// Plays the legal move `m` and puts the new position on the path.
    pub(crate) fn push(&mut self, m: Move) {
        let key = keys::board_key_after(&self.pos, self.key(), m);
        let hand = self.hand_after(m);
        self.pos.do_move(m);
        debug_assert_eq!(key, keys::board_key(&self.pos));
        self.enter(key, hand);
    }

    /// Takes back the last move pushed.
    pub(crate) fn pop(&mut self) {
        self.pos.undo_move();
        self.leave();
    }

    #[inline]
    fn key(&self) -> u64 {
        self.keys[self.keys.len() - 1]
    }

    #[inline]
    pub(crate) fn hand(&self) -> Hand {
        self.hands[self.hands.len() - 1]
    }

    /// The attacker's hand after the legal move `m`.
    #[inline]
    fn hand_after(&self, m: Move) -> Hand {
        let h = self.hand();
        if !self.or_node() {
            return h;
        }
        match (m.drop_kind(), self.pos.piece_at(m.to())) {
            (Some(kind), _) => hands::minus_sat(h, kind),
            (None, Some(c)) => hands::plus(h, c.kind().unpromote()),
            (None, None) => h,
        }
    }

    /// The depth of the deepest path position with this board and an attacker hand at least
    /// `hand` (the child would repeat it, or be an inferior copy of it).
    #[inline]
    fn repeats(&self, key: u64, hand: Hand) -> Option<u16> {
        let mut i = *self.latest.get(&key)?;
        while i != 0 {
            let j = (i - 1) as usize;
            if self.hands[j].is_superior_or_equal(hand) {
                return Some(j as u16 + 1);
            }
            i = self.prev_same[j];
        }
        None
    }

    /// The hash of `span` consecutive path positions ending `skip` positions before the last
    /// (`None` if the path is shorter): what a disproof relying on repetitions of the path
    /// is stored with ([`Table::store_path_disproven`]). A polynomial hash of the positions
    /// (board key and attacker hand) in order, read from the prefix hashes in constant time.
    fn tail_hash(&self, skip: usize, span: u16) -> Option<u64> {
        let n = self.prefix.len();
        let span = span as usize;
        if span == 0 || span + skip > n {
            return None;
        }
        let end = n - 1 - skip;
        let first = end + 1 - span;
        let whole = self.prefix[end];
        if first == 0 {
            return Some(whole);
        }
        let mut pow = 1u64;
        let (mut base, mut e) = (PATH_MUL, span);
        while e > 0 {
            if e & 1 == 1 {
                pow = pow.wrapping_mul(base);
            }
            base = base.wrapping_mul(base);
            e >>= 1;
        }
        Some(whole.wrapping_sub(self.prefix[first - 1].wrapping_mul(pow)))
    }

    /// Whether the child after `m` repeats a position of the path (or is an inferior copy of
    /// one): lost for the attacker on this path.
    pub(crate) fn child_repeats(&self, m: Move) -> bool {
        let ck = keys::board_key_after(&self.pos, self.key(), m);
        self.repeats(ck, self.hand_after(m)).is_some()
    }

    /// The length bound of a proof of the child after `m` within `budget` plies, if the table
    /// holds one (and the child does not repeat the path).
    pub(crate) fn child_proof(&self, m: Move, budget: u16) -> Option<u16> {
        let ck = keys::board_key_after(&self.pos, self.key(), m);
        let ch = self.hand_after(m);
        if self.repeats(ck, ch).is_some() {
            return None;
        }
        match self.sh.tt.probe(ck, ch, budget).proven {
            Some((len, _)) if len <= budget => Some(len),
            _ => None,
        }
    }

    /// The defender's and attacker's hands here.
    fn both_hands(&self) -> (Hand, Hand) {
        (
            self.pos.hand(self.sh.attacker),
            self.pos.hand(self.sh.attacker.flip()),
        )
    }

    /// The greatest hand with no more kinds than the attacker holds: for each kind held, every
    /// piece of it outside the board. A node whose checks are all refuted keeps its refutation
    /// with more pieces of kinds it already drops, not with a new kind.
    fn held_kinds_max(&self) -> Hand {
        let (att, def) = self.both_hands();
        let mut h = Hand::EMPTY;
        for k in PieceKind::HAND {
            if att.has(k) {
                h = hands::with(h, k, att.count(k) + def.count(k));
            }
        }
        h
    }

    /// Every piece outside the board as the attacker's hand: a disproof that holds for any hand.
    fn all_pieces(&self) -> Hand {
        let (att, def) = self.both_hands();
        let mut h = Hand::EMPTY;
        for k in PieceKind::HAND {
            h = hands::with(h, k, att.count(k) + def.count(k));
        }
        h
    }

    /// The squares where the defender (to move, in check) could interpose a dropped piece.
    fn drop_block(&self) -> Bitboard {
        let us = self.pos.side_to_move();
        let ch = self.pos.checkers();
        match (self.pos.king(us), ch.first()) {
            (Some(k), Some(c)) if !ch.has_more_than_one() => between(k, c),
            _ => Bitboard::EMPTY,
        }
    }

    /// Proof pieces at a defender node from the union of its children's: where the defender
    /// could drop an interposition, the attacker must keep every piece of each kind the defender
    /// lacks, or the defender would have it to drop.
    fn and_proof_hand(&self, union: Hand) -> Hand {
        if self.drop_block().is_empty() {
            return union;
        }
        let (att, def) = self.both_hands();
        let mut h = union;
        for k in PieceKind::HAND {
            if !def.has(k) && att.count(k) > h.count(k) {
                h = hands::with(h, k, att.count(k));
            }
        }
        h
    }

    /// Proof pieces at this attacker node from the proof pieces after its move `m`.
    fn or_proof_hand(&self, m: Move, child: Hand) -> Hand {
        match (m.drop_kind(), self.pos.piece_at(m.to())) {
            (Some(kind), _) => add_sat(child, kind),
            (None, Some(c)) => hands::minus_sat(child, c.kind().unpromote()),
            (None, None) => child,
        }
    }

    /// Disproof pieces at this attacker node contributed by its move `m`.
    fn or_disproof_hand(&self, m: Move, child: Hand) -> Hand {
        match (m.drop_kind(), self.pos.piece_at(m.to())) {
            (Some(kind), _) => add_sat(child, kind),
            (None, Some(c)) => hands::minus_sat(child, c.kind().unpromote()),
            (None, None) => child,
        }
    }

    /// Disproof pieces at this defender node from those after its move `m`: a drop needs the
    /// piece in the defender's hand, so the attacker may not hold every one of that kind.
    fn and_disproof_hand(&self, m: Move, child: Hand) -> Hand {
        match m.drop_kind() {
            Some(kind) => {
                let (att, def) = self.both_hands();
                let most = (att.count(kind) + def.count(kind)).saturating_sub(1);
                if child.count(kind) > most {
                    hands::with(child, kind, most)
                } else {
                    child
                }
            }
            None => child,
        }
    }

    // ----- expansion -----

    /// Generates the children of the current node and reads what is known of each. Returns
    /// whether a child was seen before at a shallower depth (a sign of a loop: TCA).
    #[inline(never)]
    fn expand(&mut self, or: bool, budget: u16) -> bool {
        let mut list = MoveList::new();
        let filter = if or {
            MoveFilter::Checks
        } else {
            MoveFilter::Evasions
        };
        let key = self.key();
        let depth = self.depth();
        let restricted = or && depth == self.only_depth;
        let only = &self.only;
        self.pos.generate(filter, NonPromotions::All, |m| {
            if !restricted || only.contains(&m) {
                list.push(m)
            }
        });
        let child_budget = sub_budget(budget);
        let tuning = self.sh.tuning;
        // The composer's bounded searches, where interpositions may be useless: they mark the
        // interpositions, and take a tentative proof as a useless one (only where the capture
        // is free).
        let useless = self.composer && budget != LEN_INF;
        let block = if or || !useless {
            Bitboard::EMPTY
        } else {
            self.drop_block()
        };
        let king = self.pos.king(self.pos.side_to_move());
        let tentative = if !or && tuning.tentative {
            self.tentative_captures(child_budget, useless)
        } else {
            Tentative::NONE
        };
        let base = self.kids.len();
        let mut old = false;
        let mut around = Around::new();
        // Every child's window is asked for at once, so its cache misses overlap instead of
        // coming one after another in the loop below.
        self.child_keys.clear();
        for &m in list.iter() {
            let ck = keys::board_key_after(&self.pos, key, m);
            self.sh.tt.prefetch(ck);
            self.child_keys.push(ck);
        }
        for (i, &m) in list.iter().enumerate() {
            let ck = self.child_keys[i];
            let ch = self.hand_after(m);
            // The initial numbers, computed only where neither the path nor the table decides.
            let initial = |pos: &Position, around: &mut Around| {
                if tuning.estimates {
                    estimate(pos, m, or, around)
                } else {
                    (1, 1)
                }
            };
            let mut c = Child {
                mv: m,
                key: ck,
                pn: 1,
                dn: 1,
                len: 0,
                rep: NO_REP,
                res_hand: ch,
                next: NO_NEXT,
                order: move_order(&self.pos, m, or),
                flags: 0,
                tpn: 1,
                tdn: 1,
            };
            let grouped = if or {
                tuning.max_drops
            } else {
                tuning.max_interpositions
            };
            if grouped && m.is_drop() && (or || !around.guarded(&self.pos, king, m.to())) {
                c.flags |= F_MAX;
            }
            if block.contains(m.to()) && m.from() != king {
                c.flags |= F_INTERP;
            }
            // Useless, the drop adds nothing to the length and keeps the proof pieces of the
            // position with the piece given back (as the uselessness test does); otherwise the
            // capture gives the attacker the dropped piece.
            let tentative_proof = match m.drop_kind() {
                Some(_) if useless => tentative.get(m.to()).map(|(_, h)| (0, h)),
                Some(kind) => tentative
                    .get(m.to())
                    .map(|(len, h)| (len, hands::minus_sat(h, kind))),
                None => None,
            };
            if let Some(d) = self.repeats(ck, ch) {
                c.pn = INF;
                c.dn = 0;
                c.len = LEN_INF;
                c.rep = d;
            } else if let Some((len, h)) = tentative_proof {
                // Taking the dropped piece leads to a proven position (see tentative_captures).
                c.pn = 0;
                c.dn = INF;
                c.len = len;
                c.res_hand = h;
                if useless {
                    c.flags |= F_USELESS | F_TESTED;
                }
            } else if !or && child_budget == 0 {
                // An attacker node with no plies left cannot mate, whatever it holds.
                c.pn = INF;
                c.dn = 0;
                c.res_hand = self.all_pieces();
            } else {
                let p = self
                    .sh
                    .tt
                    .probe_on_path(ck, ch, child_budget, |span| self.tail_hash(0, span));
                match (p.proven, p.disproven) {
                    (Some((len, h)), _) if len <= child_budget => {
                        c.pn = 0;
                        c.dn = INF;
                        c.len = len;
                        c.res_hand = h;
                    }
                    (_, Some((lo, h))) if lo >= child_budget => {
                        c.pn = INF;
                        c.dn = 0;
                        c.len = lo;
                        c.res_hand = h;
                    }
                    _ if let Some((lo, h, span)) = p.on_path
                        && lo >= child_budget =>
                    {
                        // Disproven on this path: it relies on the positions up to `span`
                        // plies above the child.
                        c.pn = INF;
                        c.dn = 0;
                        c.len = lo;
                        c.res_hand = h;
                        c.rep = depth + 1 - span;
                    }
                    _ => match p.unknown {
                        Some((pn, dn, b, d)) => {
                            (c.pn, c.dn) = if b == child_budget {
                                (pn, dn)
                            } else {
                                let (ipn, idn) = initial(&self.pos, &mut around);
                                match tuning.budgets {
                                    true if b > child_budget => (ipn.max(pn), idn),
                                    true => (ipn, idn.max(dn)),
                                    false => (ipn, idn),
                                }
                            };
                            // TCA: the node was reached at a shallower depth before. In an
                            // unbounded search an entry of a bounded one says nothing of this
                            // search's paths (the short mates' searches before the proof left
                            // it): extending there stalled proofs of no mate that `--any`,
                            // whose short searches leave other entries, settles at once.
                            let foreign = child_budget == LEN_INF && b != LEN_INF;
                            old |= tuning.tca && d < depth && !foreign;
                        }
                        None => {
                            (c.pn, c.dn) = initial(&self.pos, &mut around);
                            if p.proven.is_none() && p.disproven.is_none() {
                                c.flags |= F_NEW;
                            }
                        }
                    },
                }
                if tuning.floors && c.pn != 0 && c.dn != 0 {
                    c.pn = c.pn.max(p.floors.0);
                    c.dn = c.dn.max(p.floors.1);
                }
                if !or && c.flags & F_NEW != 0 && tuning.mate1 {
                    if tuning.lazy_first_look {
                        c.flags |= F_UNLOOKED;
                    } else {
                        self.first_look(&mut c, child_budget);
                    }
                }
            }
            self.kids.push(c);
            // A winning child settles the node; the rest need not be looked at.
            let wins = if or {
                c.pn == 0
            } else {
                c.dn == 0 && c.rep == NO_REP && c.flags & F_INTERP == 0
            };
            if wins {
                break;
            }
        }
        let mut linked = false;
        if tuning.lazy {
            linked |= self.chain(base, or);
        }
        if tuning.delay_non_promotions && budget != LEN_INF {
            linked |= self.delay_non_promotions(base, or);
        }
        if linked {
            for i in 0..self.kids.len() - base {
                if self.kids[base + i].visible() {
                    self.reveal_after(base, i, or);
                }
            }
        }
        old
    }

    /// For each square between the king and a single distant checker: whether the position
    /// with the checker moved there ("tentative capture": the checking piece took a piece dropped
    /// there, which then went back to the defender's hand) is proven, and the mate length and
    /// proof pieces for a drop there: length + 1 (the capture), proof pieces those of that
    /// position. A drop there is then mated too, since the real capture leaves the attacker one
    /// piece more and the defender one fewer; and it is a useless interposition by koma's
    /// definition (the checking piece takes it for free and mates without it). With
    /// `useless` (the composer's bounded searches, where such a drop is useless and adds
    /// nothing to the length), squares where the defender might take the checking piece back
    /// are left out (the search then decides those drops, exactly), and a proof of any length
    /// will do: the uselessness test asks for mate without the piece, not for its length.
    fn tentative_captures(&mut self, child_budget: u16, useless: bool) -> Tentative {
        let mut out = Tentative::NONE;
        let us = self.pos.side_to_move();
        let ch = self.pos.checkers();
        let (Some(k), Some(c)) = (self.pos.king(us), ch.first()) else {
            return out;
        };
        out.king = Some(k);
        let block = between(k, c);
        if ch.has_more_than_one() || block.is_empty() || child_budget == 0 {
            return out;
        }
        let Some(checker) = self.pos.piece_at(c) else {
            return out;
        };
        let attacker = self.sh.attacker;
        let hand = self.hand();
        let key = self.key();
        for s in block {
            let mut kinds = [Some(checker.kind()), None];
            if checker.kind().can_promote()
                && (c.in_promotion_zone(attacker) || s.in_promotion_zone(attacker))
            {
                kinds[1] = checker.kind().promote();
            }
            for kind in kinds.into_iter().flatten() {
                let tk = key
                    ^ zobrist::piece_square(checker, c)
                    ^ zobrist::piece_square(Piece::new(attacker, kind), s);
                let Some((len, h)) = self.sh.tt.probe(tk, hand, child_budget - 1).proven else {
                    continue;
                };
                if len + 1 > child_budget && !useless {
                    continue;
                }
                if !self.capture_is_legal(c, s) || (useless && self.may_retake(c, s)) {
                    continue;
                }
                out.offer(s, len.saturating_add(1), h);
            }
        }
        out
    }

    /// Whether a defender's piece (the king included) attacks `s` once the checking piece on
    /// `from` stands there: it might take the checker back. An over-approximation (pins and the
    /// king's safety are not looked at).
    fn may_retake(&self, from: Square, s: Square) -> bool {
        let occ = self.pos.occupied().without(from).with(s);
        self.pos
            .attackers_to(self.pos.side_to_move(), s, occ)
            .is_any()
    }

    /// Whether the attacker's piece on `from` may move to `s` on its line to the defender's king
    /// without exposing the attacker's own king (双玉).
    fn capture_is_legal(&self, from: Square, s: Square) -> bool {
        let Some(ka) = self.pos.king(self.sh.attacker) else {
            return true;
        };
        let occ = self.pos.occupied().without(from).with(s);
        !self.pos.is_attacked_with(self.pos.side_to_move(), ka, occ)
    }

    /// The first look at a new attacker node (a child of this defender node): no check at all
    /// is a disproof, a mate in one a proof; both are stored. Otherwise its disproof number
    /// grows by its number of checks less one (df-pn+), remembered with it.
    ///
    /// With three or four plies left (`budget`), the mate in one is not tried: a search that
    /// reaches the node settles it by the exact mate in three ([`Walker::settle_horizon`]),
    /// which tries the mate in one first, and most nodes looked at there are never searched
    /// (図巧37's "within 21": 6.13 M looks at three plies left, 1.33 M searches). The zukou
    /// bench side by side: −3.0 % and −2.2 % on the problems settled (docs/DECISIONS.md,
    /// session 30).
    fn first_look(&mut self, c: &mut Child, budget: u16) {
        // The move is played on the board only, not put on the path: nothing below reads the
        // path, and a defender's move leaves the attacker's hand as it is.
        let depth = self.depth() + 1;
        let hand = self.hand();
        self.pos.do_move(c.mv);
        if self.sh.tick() {
            self.pos.undo_move();
            return;
        }
        let mut checks = MoveList::new();
        self.pos
            .generate(MoveFilter::Checks, NonPromotions::All, |m| checks.push(m));
        if checks.is_empty() {
            let h = self.held_kinds_max();
            self.sh.tt.store_disproven(c.key, h, LEN_INF, 1);
            c.pn = INF;
            c.dn = 0;
            c.len = LEN_INF;
            c.res_hand = h;
        } else if !(3..=4).contains(&budget)
            && let Some(h) = self.mate1(&checks)
        {
            self.sh.tt.store_proven(c.key, h, 1, 1);
            if budget >= 1 {
                c.pn = 0;
                c.dn = INF;
                c.len = 1;
                c.res_hand = h;
            }
        } else if budget <= 2 && self.no_mate_within_two(&checks) {
            // Mates are odd: no mate in one is no mate within two plies, settled here instead of
            // by a search of every check and evasion below. The exact hand: with more pieces a
            // drop might mate, or the defender lack a piece to interpose.
            self.sh.tt.store_disproven(c.key, hand, 2, 1);
            c.pn = INF;
            c.dn = 0;
            c.len = 2;
            c.res_hand = hand;
        } else {
            if self.sh.tuning.estimates {
                // df-pn+: every check is a way on, so a node with many is harder to disprove.
                let more = (checks.len() as u32 - 1).saturating_mul(checks_weight(budget));
                c.dn = c.dn.saturating_add(more);
            }
            // Remembered, so the next expansion of the parent does not look again.
            self.sh
                .tt
                .store_unknown(c.key, hand, c.pn, c.dn, budget, depth, 0);
        }
        self.pos.undo_move();
        c.flags &= !F_NEW;
    }

    /// Whether an attacker node (the current position) with no mate in one among its `checks`
    /// has no mate within two plies in this walker's searches. In the composer's bounded
    /// searches an interposition may be useless (taken for free, the mate going on without it)
    /// and then adds nothing to the length, so a check the defender answers only by
    /// interposing may still mate within two: false if there is one (the search decides it).
    fn no_mate_within_two(&mut self, checks: &[Move]) -> bool {
        if !self.composer {
            return true;
        }
        let escapes = Escapes::new(&self.pos);
        for &m in checks {
            if escapes.survive(&self.pos, m) {
                continue;
            }
            self.pos.do_move(m);
            let block = self.drop_block();
            let mut other = block.is_empty();
            if !other {
                self.pos
                    .generate(MoveFilter::Evasions, NonPromotions::All, |e| {
                        other |= !block.contains(e.to())
                    });
            }
            self.pos.undo_move();
            if !other {
                return false;
            }
        }
        true
    }

    /// The attacker node at the search's horizon (the current position, `budget` ≤ 4 plies
    /// left) settled without expanding it, where a mate in one or its absence (one or two plies
    /// left, see [`Walker::no_mate_within_two`]) or the exact mate in three (three or four, see
    /// [`Walker::mate_in_three`]) decides it; stored in the table.
    fn settle_horizon(&mut self, budget: u16) -> Option<Res> {
        let mut checks = MoveList::new();
        self.pos
            .generate(MoveFilter::Checks, NonPromotions::All, |m| checks.push(m));
        if let Some(r) = self.proven_in_one(&checks) {
            return Some(r);
        }
        let (hand, len) = if checks.is_empty() {
            (self.held_kinds_max(), LEN_INF)
        } else if budget <= 2 {
            if !self.no_mate_within_two(&checks) {
                return None;
            }
            (self.hand(), 2)
        } else {
            match self.mate_in_three(&checks) {
                Three::Open => return None,
                Three::Disproven(lo, h) => (h, lo),
                Three::Proven(h) => {
                    self.sh.tt.store_proven(self.key(), h, 3, 1);
                    return Some(Res {
                        pn: 0,
                        dn: INF,
                        len: 3,
                        hand: h,
                        rep: NO_REP,
                    });
                }
            }
        };
        self.sh.tt.store_disproven(self.key(), hand, len, 1);
        Some(Res {
            pn: INF,
            dn: 0,
            len,
            hand,
            rep: NO_REP,
        })
    }

    /// The current (attacker) node proven by a mate in one among `checks`, stored in the
    /// table; `None` if there is none.
    fn proven_in_one(&mut self, checks: &[Move]) -> Option<Res> {
        let h = self.mate1(checks)?;
        self.sh.tt.store_proven(self.key(), h, 1, 1);
        Some(Res {
            pn: 0,
            dn: INF,
            len: 1,
            hand: h,
            rep: NO_REP,
        })
    }

    /// The exact mate in three of the current (attacker) node, which has no mate in one among
    /// its `checks`: a check every evasion of which is answered by a mate in one proves it
    /// (proof pieces as the search would combine them); a node each check of which has an
    /// evasion with no mate within one or two plies after it has no mate within four (mates are
    /// odd), or longer, with the disproof pieces, where the positions after those evasions say
    /// more ([`Walker::after_refutation`]): the facts [`Walker::finish`] would combine from the
    /// same refutations. The path is not read: both are facts of the position. In the
    /// composer's bounded searches an interposition may be useless (adding nothing to the
    /// length): a node with a check answered only by interpositions is [`Three::Open`] (the
    /// search decides it, as at the horizon: see [`Walker::no_mate_within_two`]); otherwise an
    /// interposition not mated in one, or an evasion after which a check is answered only by
    /// interpositions, refutes nothing here, and a node whose checks are left unrefuted only by
    /// those is open too.
    fn mate_in_three(&mut self, checks: &[Move]) -> Three {
        // A check answered only by interposing may mate within one (all of them useless), so
        // neither a length of three nor a refutation of that check would be exact.
        if !self.no_mate_within_two(checks) {
            return Three::Open;
        }
        let mut open = false;
        let mut evasions = MoveList::new();
        let mut replies = MoveList::new();
        // The disproof as `finish` combines it: the least of the checks' refutations.
        let (mut lo, mut dis) = (LEN_INF, self.all_pieces());
        for &m in checks {
            let key = keys::board_key_after(&self.pos, self.key(), m);
            self.pos.do_move(m);
            evasions.clear();
            self.pos
                .generate(MoveFilter::Evasions, NonPromotions::All, |e| {
                    evasions.push(e)
                });
            let block = if self.composer {
                self.drop_block()
            } else {
                Bitboard::EMPTY
            };
            let king = self.pos.king(self.pos.side_to_move());
            let mut union = Hand::EMPTY;
            let (mut refutation, mut unsure) = (None, false);
            for &e in evasions.iter() {
                let interposed = block.contains(e.to()) && e.from() != king;
                let after = keys::board_key_after(&self.pos, key, e);
                self.pos.do_move(e);
                replies.clear();
                self.pos
                    .generate(MoveFilter::Checks, NonPromotions::All, |r| replies.push(r));
                let mated = self.mate1(&replies);
                let lasts = mated.is_none() && !interposed && self.no_mate_within_two(&replies);
                let below = lasts.then(|| self.after_refutation(after, &replies));
                self.pos.undo_move();
                match (mated, below) {
                    (Some(h), _) => union = hands::max_each(union, h),
                    (None, Some((len, h))) => {
                        let len = len.saturating_add((len != LEN_INF) as u16);
                        refutation = Some((len, self.and_disproof_hand(e, h)));
                        break;
                    }
                    (None, None) => unsure = true,
                }
            }
            let proof = (refutation.is_none() && !unsure).then(|| self.and_proof_hand(union));
            self.pos.undo_move();
            if let Some(h) = proof {
                return Three::Proven(self.or_proof_hand(m, h));
            }
            match refutation {
                Some((len, h)) => {
                    lo = lo.min(len);
                    dis = hands::min_each(dis, self.or_disproof_hand(m, h));
                }
                None => open = true,
            }
        }
        if open {
            return Three::Open;
        }
        let (len, dis) = self.or_disproof(lo, dis);
        Three::Disproven(len, dis)
    }

    /// An attacker node's disproof from its checks' combined facts (`lo`, the least of their
    /// bounds, and `hand`, their combined disproof hand): one ply more than `lo` (unless no
    /// mate at all), and no pieces of a kind the attacker does not hold. Shared by
    /// [`Walker::finish`] and the horizon's mate in three, which must store the same facts.
    fn or_disproof(&self, lo: u16, mut hand: Hand) -> (u16, Hand) {
        let att = self.hand();
        for k in PieceKind::HAND {
            if !att.has(k) {
                hand = hands::with(hand, k, 0);
            }
        }
        (lo.saturating_add((lo != LEN_INF) as u16), hand)
    }

    /// The disproof of an attacker node (the current position, board key `key`, not on the
    /// path) with no mate within two plies among its `checks`, as the search would have it: with
    /// no check at all, no mate however long and with more pieces of the kinds held (as
    /// [`Walker::first_look`] stores); a longer disproof the table holds for this hand; otherwise
    /// two plies for the exact hand. Returns the length and the disproof pieces.
    fn after_refutation(&self, key: u64, checks: &[Move]) -> (u16, Hand) {
        if checks.is_empty() {
            return (LEN_INF, self.held_kinds_max());
        }
        let hand = self.pos.hand(self.sh.attacker);
        match self.sh.tt.probe(key, hand, 2).disproven {
            Some((len, h)) if len > 2 => (len, h),
            _ => (2, hand),
        }
    }

    /// A mate in one among `checks` (the attacker to move): its proof pieces.
    pub(crate) fn mate1(&mut self, checks: &[Move]) -> Option<Hand> {
        let escapes = Escapes::new(&self.pos);
        for &m in checks {
            if escapes.survive(&self.pos, m) {
                continue;
            }
            self.pos.do_move(m);
            let mated = !self.pos.has_evasion();
            let proof = if mated {
                Some(self.terminal_proof_hand())
            } else {
                None
            };
            self.pos.undo_move();
            if let Some(h) = proof {
                return Some(self.or_proof_hand(m, h));
            }
        }
        None
    }

    /// Proof pieces of a mated defender (to move in the current position).
    fn terminal_proof_hand(&self) -> Hand {
        let ch = self.pos.checkers();
        let us = self.pos.side_to_move();
        let interposable = match (self.pos.king(us), ch.first()) {
            (Some(k), Some(c)) if !ch.has_more_than_one() => between(k, c).is_any(),
            _ => false,
        };
        if !interposable {
            return Hand::EMPTY;
        }
        let att = self.pos.hand(self.sh.attacker);
        let def = self.pos.hand(us);
        let mut h = Hand::EMPTY;
        for k in PieceKind::HAND {
            if !def.has(k) {
                h = hands::with(h, k, att.count(k));
            }
        }
        h
    }

    /// Links the interpositions searched lazily: at a defender node, drops on one square are
    /// searched one after another, each after the previous one is proven (the weaker piece
    /// first). Returns whether it linked any; the caller then reveals the links already settled.
    fn chain(&mut self, base: usize, or: bool) -> bool {
        let n = self.kids.len() - base;
        if or || n < 2 {
            return false;
        }
        let mut linked = false;
        let mut last_drop = [NO_NEXT; 81];
        for i in 0..n {
            let m = self.kids[base + i].mv;
            if !m.is_drop() {
                continue;
            }
            let prev = last_drop[m.to().index()];
            last_drop[m.to().index()] = i as u16;
            if prev != NO_NEXT {
                self.kids[base + prev as usize].next = i as u16;
                self.kids[base + i].flags |= F_HIDDEN;
                linked = true;
            }
        }
        linked
    }

    /// Hides each pawn's, bishop's or rook's non-promotion behind its promotion (a bounded
    /// search's node, [`Tuning::delay_non_promotions`]): it is searched once the promotion is
    /// settled the way that lets it be (disproven at an attacker node, proven at a defender
    /// node), so a proof or a disproof of the node still covers it. A non-promotion already
    /// settled the way that decides the node is left visible. Board moves are in no drop chain,
    /// so a promotion's link is free. Returns whether it linked any, as [`Walker::chain`].
    fn delay_non_promotions(&mut self, base: usize, or: bool) -> bool {
        let n = self.kids.len() - base;
        let mut linked = false;
        for i in 0..n {
            let m = self.kids[base + i].mv;
            let Some(from) = m.from() else { continue };
            if !m.is_promotion()
                || !self.pos.piece_at(from).is_some_and(|p| {
                    matches!(
                        p.kind(),
                        PieceKind::Pawn | PieceKind::Bishop | PieceKind::Rook
                    )
                })
            {
                continue;
            }
            // koma-core lists a piece's promotions before its non-promotions (`MoveSet`).
            let twin = (i + 1..n).find(|&j| {
                let o = &self.kids[base + j];
                o.mv.from() == Some(from) && o.mv.to() == m.to() && !o.mv.is_promotion()
            });
            let Some(j) = twin else { continue };
            let c = &self.kids[base + j];
            let decides = if or { c.pn == 0 } else { c.dn == 0 };
            if !decides {
                self.kids[base + i].next = j as u16;
                self.kids[base + j].flags |= F_HIDDEN;
                linked = true;
            }
        }
        linked
    }

    /// Reveals the children after child `i` of its chain while each one is settled the way that
    /// lets the next be searched (disproven at an attacker node, proven at a defender node).
    fn reveal_after(&mut self, base: usize, mut i: usize, or: bool) {
        loop {
            let c = self.kids[base + i];
            let settled = if or { c.dn == 0 } else { c.pn == 0 };
            if !settled || c.next == NO_NEXT {
                return;
            }
            i = c.next as usize;
            self.kids[base + i].flags &= !F_HIDDEN;
        }
    }

    // ----- the search -----

    /// Runs df-pn at the current position until it is proven or disproven within `budget`
    /// plies, or the solve stops (`None`).
    pub(crate) fn run(&mut self, budget: u16) -> Option<Res> {
        if self.or_node() && budget >= 1 {
            let mut checks = MoveList::new();
            self.pos
                .generate(MoveFilter::Checks, NonPromotions::All, |m| checks.push(m));
            if let Some(r) = self.proven_in_one(&checks) {
                return Some(r);
            }
        }
        self.search_to_final(budget, true)
    }

    /// Searches from the root until its result is final (`Some`) or the solve halts (`None`).
    /// With `record_root`, each pass's root numbers are kept for the progress reports.
    fn search_to_final(&mut self, budget: u16, record_root: bool) -> Option<Res> {
        loop {
            let r = self.search(INF, INF, budget, false);
            if record_root {
                self.sh.root = (r.pn, r.dn);
            }
            if r.is_final() {
                return Some(r);
            }
            if self.sh.halted() {
                return None;
            }
        }
    }

    /// As [`Walker::run`], giving up (`None`, the solve going on) after `nodes` more nodes.
    pub(crate) fn run_trial(&mut self, budget: u16, nodes: u64) -> Option<Res> {
        let saved = self.sh.soft_limit;
        self.sh.soft_limit = self.sh.nodes.saturating_add(nodes).min(saved);
        let r = self.search_to_final(budget, false);
        self.sh.soft_limit = saved;
        r
    }

    /// As [`Walker::run`] at an attacker node, with only the checks `moves` searched there: a
    /// proof says one of them mates within `budget` plies, a disproof that none does (on this
    /// path). The result is not the node's, so it is not stored; its children's are.
    pub(crate) fn run_only(&mut self, moves: &[Move], budget: u16) -> Option<Res> {
        debug_assert!(self.or_node() && self.only_depth == 0);
        self.only = moves.to_vec();
        self.only_depth = self.depth();
        let r = self.search_to_final(budget, true);
        self.only_depth = 0;
        self.only.clear();
        r
    }

    fn search(&mut self, mut th_pn: u32, mut th_dn: u32, budget: u16, mut inc: bool) -> Res {
        let depth = self.depth();
        let or = self.or_node();
        let hand = self.hand();
        let start_nodes = self.sh.nodes;
        if self.sh.tick() || self.sh.halted() {
            return Res {
                pn: 1,
                dn: 1,
                len: 0,
                hand,
                rep: NO_REP,
            };
        }
        if or && budget == 0 {
            return Res {
                pn: INF,
                dn: 0,
                len: 0,
                hand: self.all_pieces(),
                rep: NO_REP,
            };
        }
        if depth as usize >= MAX_PLY {
            // Cut: lost for the attacker on this path, and no path above may rely on it.
            return Res {
                pn: INF,
                dn: 0,
                len: LEN_INF,
                hand,
                rep: 0,
            };
        }
        if or
            && budget <= 4
            && self.sh.tuning.mate1
            && let Some(r) = self.settle_horizon(budget)
        {
            return r;
        }
        let base = self.kids.len();
        let old = self.expand(or, budget);
        inc |= old;
        let mut extended = false;
        // The wider 1+ε of a bounded search's attacker node (`epsilon`).
        let wide = or && budget != LEN_INF && self.sh.tuning.wide_refutation;
        let result = loop {
            let s = self.summarize(base, or);
            if s.pn == 0 || s.dn == 0 {
                break self.finish(base, or, depth, s);
            }
            if !or && self.look_first(base, &s, sub_budget(budget)) {
                continue;
            }
            if inc && !extended {
                extended = true;
                th_pn = th_pn.max(s.pn.saturating_add(1));
                th_dn = th_dn.max(s.dn.saturating_add(1));
            }
            if s.pn >= th_pn || s.dn >= th_dn || self.sh.halted() {
                break Res {
                    pn: s.pn,
                    dn: s.dn,
                    len: 0,
                    hand,
                    rep: NO_REP,
                };
            }
            let second = epsilon(s.second, wide);
            let (cth_pn, cth_dn) = if or {
                (th_pn.min(second), th_dn.saturating_sub(s.except))
            } else {
                (th_pn.saturating_sub(s.except), th_dn.min(second))
            };
            let b = base + s.best;
            let c = self.kids[b];
            if self.untested(&c, or) {
                if self.settle_interposition(b, base, or, cth_pn, cth_dn) {
                    continue;
                }
                // The test was cut short: nothing may be concluded here.
                break Res {
                    pn: s.pn.max(1),
                    dn: s.dn.max(1),
                    len: 0,
                    hand,
                    rep: NO_REP,
                };
            }
            if c.flags & F_NEW != 0 {
                inc = false;
            }
            self.push(c.mv);
            let r = self.search(cth_pn, cth_dn, sub_budget(budget), inc);
            self.pop();
            let k = &mut self.kids[b];
            k.pn = r.pn;
            k.dn = r.dn;
            k.flags &= !F_NEW;
            if r.is_final() {
                k.len = r.len;
                k.rep = r.rep;
                k.res_hand = r.hand;
                self.reveal_after(base, s.best, or);
            }
        };
        self.kids.truncate(base);
        if depth == self.only_depth {
            // A restricted node's result ([`Walker::run_only`]) is not the position's.
            return result;
        }
        let amount = (self.sh.nodes - start_nodes).min(u32::MAX as u64) as u32;
        let key = self.key();
        if result.pn == 0 {
            self.sh
                .tt
                .store_proven(key, result.hand, result.len, amount);
        } else if result.dn == 0 {
            if result.rep == NO_REP {
                self.sh
                    .tt
                    .store_disproven(key, result.hand, result.len, amount);
            } else if result.rep >= 1
                && let Some(path) = self.tail_hash(1, depth - result.rep)
            {
                // Kept with the path positions it relies on (from depth `rep` to the parent):
                // df-pn comes back to a node by the same path many times (graph-history
                // interaction otherwise sends it through the whole search again).
                self.sh.tt.store_path_disproven(
                    key,
                    result.hand,
                    result.len,
                    depth - result.rep,
                    path,
                    amount,
                );
            }
        } else {
            self.sh.tt.store_unknown(
                key,
                hand,
                result.pn.min(PN_MAX),
                result.dn.min(PN_MAX),
                budget,
                depth,
                amount,
            );
        }
        result
    }

    /// Takes the first look put off at a defender node ([`Tuning::lazy_first_look`]) of the
    /// best or second best child of summary `s` (`budget` plies left below the node), if either
    /// still needs it; returns whether it took one (the node's numbers are then to be
    /// summarized again). A child the look settles reveals the children waiting behind it, as
    /// a search's result does. Nothing is looked at once the solve is halted.
    fn look_first(&mut self, base: usize, s: &Summary, budget: u16) -> bool {
        if self.sh.halted() {
            return false;
        }
        let Some(i) = [s.best, s.second_best]
            .into_iter()
            .find(|&i| i != usize::MAX && self.kids[base + i].flags & F_UNLOOKED != 0)
        else {
            return false;
        };
        let mut c = self.kids[base + i];
        c.flags &= !F_UNLOOKED;
        self.first_look(&mut c, budget);
        self.kids[base + i] = c;
        if c.pn == 0 || c.dn == 0 {
            self.reveal_after(base, i, false);
        }
        true
    }

    /// Whether child `c` is a refuting interposition not yet tested for uselessness (in the
    /// composer's bounded searches): it refutes the node only if it counts.
    #[inline]
    fn untested(&self, c: &Child, or: bool) -> bool {
        !or && self.composer && c.dn == 0 && c.flags & (F_INTERP | F_TESTED) == F_INTERP
    }

    /// The mover's and the other side's number of child `c` (pn, dn at attacker nodes; dn, pn
    /// at defender nodes). An untested refuting interposition has those of its uselessness
    /// test: it refutes the node once the test finds it counting (the test position not
    /// mated), and is left out once the test proves that position; so df-pn weighs the test
    /// against the node's other children like any child (a test that finds an interposition
    /// counting is a proof of no mate without a bound, which can cost far more than the
    /// bounded search; docs/DECISIONS.md).
    #[inline]
    fn numbers(&self, c: &Child, or: bool) -> (u32, u32) {
        if or {
            (c.pn, c.dn)
        } else if self.untested(c, or) {
            (c.tdn, c.tpn)
        } else {
            (c.dn, c.pn)
        }
    }

    /// The node's numbers from its children's, and the child to search next.
    fn summarize(&self, base: usize, or: bool) -> Summary {
        let kids = &self.kids[base..];
        let (mut phi, mut second) = (INF, INF);
        let mut best = usize::MAX;
        let mut second_best = usize::MAX;
        let (mut sum, mut max) = (0u32, 0u32);
        let mut maxed = 0u32;
        let mut hidden = false;
        for (i, c) in kids.iter().enumerate() {
            if !c.visible() {
                hidden = true;
                continue;
            }
            let (p, d) = self.numbers(c, or);
            if c.flags & F_MAX != 0 {
                max = max.max(d);
                maxed += 1;
            } else {
                sum = sum.saturating_add(d);
            }
            let better = best == usize::MAX || {
                let b = &kids[best];
                let (bp, bd) = self.numbers(b, or);
                (p, std::cmp::Reverse(d), c.order) < (bp, std::cmp::Reverse(bd), b.order)
            };
            if better {
                if best != usize::MAX {
                    second = phi;
                    second_best = best;
                }
                phi = p;
                best = i;
            } else if p < second {
                second = p;
                second_best = i;
            }
        }
        if max > 0 && max < INF {
            // Drops counted once would make the node look too easy: add a quarter of their
            // number back.
            max = max.saturating_add(maxed / 4);
        }
        let delta = sum.saturating_add(max).saturating_add(hidden as u32);
        let clamp = |v: u32| if v == 0 || v == INF { v } else { v.min(PN_MAX) };
        let except = if best == usize::MAX {
            0
        } else {
            let bd = self.numbers(&kids[best], or).1;
            let rest = if kids[best].flags & F_MAX != 0 {
                sum.saturating_add(hidden as u32)
            } else {
                delta.saturating_sub(bd)
            };
            // Never more than the node's own (clamped) number leaves above the best child's:
            // a sum past PN_MAX is reported as PN_MAX, so a node under a threshold above that
            // goes on searching, and a threshold taken from the unclamped sum would be below
            // the child's own number. The child would return at once and be chosen again with
            // the same numbers, for ever (docs/DECISIONS.md, session 28: 22 M visits of one
            // node). With the sum under PN_MAX this is `rest` itself.
            rest.min(clamp(delta).saturating_sub(bd))
        };
        let (pn, dn) = if or { (phi, delta) } else { (delta, phi) };
        Summary {
            pn: clamp(pn),
            dn: clamp(dn),
            best,
            second,
            second_best,
            except,
        }
    }

    /// The final result of a node from its children (`s` says proven or disproven).
    fn finish(&self, base: usize, or: bool, depth: u16, s: Summary) -> Res {
        let kids = &self.kids[base..];
        let mut r = if or && s.pn == 0 {
            let c = kids
                .iter()
                .filter(|c| c.pn == 0)
                .min_by_key(|c| c.len)
                .copied();
            let c = c.unwrap_or(kids[s.best]);
            Res {
                pn: 0,
                dn: INF,
                len: c.len.saturating_add(1).min(LEN_INF - 1),
                hand: self.or_proof_hand(c.mv, c.res_hand),
                rep: NO_REP,
            }
        } else if or {
            let mut hand = if kids.is_empty() {
                self.held_kinds_max()
            } else {
                self.all_pieces()
            };
            let (mut lo, mut rep) = (LEN_INF, NO_REP);
            for c in kids {
                hand = hands::min_each(hand, self.or_disproof_hand(c.mv, c.res_hand));
                lo = lo.min(c.len);
                rep = rep.min(c.rep);
            }
            let (len, hand) = self.or_disproof(lo, hand);
            Res {
                pn: INF,
                dn: 0,
                len,
                hand,
                rep,
            }
        } else if s.dn == 0 {
            let c = kids
                .iter()
                // An interposition not tested for uselessness may not count: its length is
                // no bound of the node's.
                .filter(|c| {
                    c.dn == 0
                        && c.flags & F_USELESS == 0
                        && c.flags & (F_INTERP | F_TESTED) != F_INTERP
                })
                .max_by_key(|c| (c.rep, c.len))
                .copied()
                .unwrap_or(kids[s.best]);
            Res {
                pn: INF,
                dn: 0,
                len: c.len.saturating_add((c.len != LEN_INF) as u16),
                hand: self.and_disproof_hand(c.mv, c.res_hand),
                rep: c.rep,
            }
        } else {
            let mut union = Hand::EMPTY;
            let mut len = None::<u16>;
            for c in kids {
                union = hands::max_each(union, c.res_hand);
                if c.flags & F_USELESS == 0 {
                    len = Some(len.unwrap_or(0).max(c.len));
                }
            }
            Res {
                pn: 0,
                dn: INF,
                len: len.map_or(0, |l| l.saturating_add(1).min(LEN_INF - 1)),
                hand: self.and_proof_hand(union),
                rep: NO_REP,
            }
        };
        if r.rep != NO_REP && r.rep >= depth {
            r.rep = NO_REP;
        }
        r
    }

    /// One step of the uselessness test of the interposition at child `idx`, within the
    /// thresholds `th_pn` and `th_dn` of the test position (see [`Walker::useless_step`]): a
    /// useless one counts as proven and adds nothing to the length, one that counts keeps its
    /// refutation, an open test keeps its numbers for the node's next choice. Returns false
    /// when the test was cut short by a limit.
    fn settle_interposition(
        &mut self,
        idx: usize,
        base: usize,
        or: bool,
        th_pn: u32,
        th_dn: u32,
    ) -> bool {
        let c = self.kids[idx];
        match self.useless_step(c.mv, th_pn, th_dn) {
            Test::Halted => return false,
            Test::Open(pn, dn) => {
                let k = &mut self.kids[idx];
                k.tpn = pn;
                k.tdn = dn;
                return true;
            }
            Test::Counts => {}
            Test::Yes(h) => {
                let k = &mut self.kids[idx];
                k.flags |= F_USELESS;
                k.pn = 0;
                k.dn = INF;
                k.len = 0;
                k.res_hand = h;
                self.reveal_after(base, idx - base, or);
            }
        }
        self.kids[idx].flags |= F_TESTED;
        true
    }

    /// Whether the defender's interposition `m` (at this defender node) is useless (無駄合): the
    /// checking piece takes the interposed piece for free (the defender cannot take the checking
    /// piece back) and the attacker then mates without using it, that is with the captured piece
    /// in the defender's hand instead. An interposition next to the king that the king can
    /// answer by taking the checker costs the attacker that piece: it counts.
    pub(crate) fn useless(&mut self, m: Move) -> Useless {
        loop {
            match self.useless_step(m, INF, INF) {
                Test::Yes(h) => return Useless::Yes(h),
                Test::Counts => return Useless::Counts,
                Test::Halted => return Useless::Halted,
                Test::Open(..) if self.sh.halted() => return Useless::Halted,
                Test::Open(..) => {}
            }
        }
    }

    /// One df-pn iteration of the uselessness test of `m` within the thresholds `th_pn` and
    /// `th_dn` of the position after the free capture with the piece given back (a search of
    /// its own, without a bound and without this path, so its result holds on every path and
    /// for every length budget; the table keeps its progress between steps).
    fn useless_step(&mut self, m: Move, th_pn: u32, th_dn: u32) -> Test {
        let Some(checker) = self.pos.checkers().first() else {
            return Test::Counts;
        };
        let s = m.to();
        let mut found = Test::Counts;
        self.pos.do_move(m);
        let taken = self.pos.piece_at(s).map(|p| p.kind().unpromote());
        for promote in [true, false] {
            let Some(cap) = Move::new(checker, s, promote) else {
                continue;
            };
            if !self.pos.is_legal(cap) {
                continue;
            }
            self.pos.do_move(cap);
            // The capture proves nothing where the defender takes the checker back, or where it
            // ends the check (a lance promoting two squares or more before the king): no move of
            // a tsume, it would leave the search below a defender out of check, with no evasion,
            // so "mated".
            let proves_nothing =
                !self.pos.in_check() || self.pos.legal_moves().iter().any(|r| r.to() == s);
            let without = if proves_nothing {
                None
            } else {
                taken.and_then(|k| self.without_capture(k))
            };
            self.pos.undo_move();
            let Some(pos) = without else { continue };
            let mut inner = Walker::new(self.sh, pos, false);
            let r = inner.search(th_pn, th_dn, LEN_INF, false);
            if r.pn == 0 {
                found = Test::Yes(r.hand);
                break;
            }
            if r.dn != 0 {
                found = if self.sh.halted() {
                    Test::Halted
                } else {
                    Test::Open(r.pn, r.dn)
                };
                break;
            }
        }
        self.pos.undo_move();
        found
    }

    /// The current position (the attacker just captured a `captured`) with that piece moved
    /// from the attacker's hand to the defender's.
    fn without_capture(&self, captured: PieceKind) -> Option<Position> {
        let mut setup: Setup = self.pos.to_setup();
        let a = self.sh.attacker.index();
        let d = self.sh.attacker.flip().index();
        let att = setup.hands[a];
        let def = setup.hands[d];
        setup.hands[a] = att.with_count(captured, att.count(captured).checked_sub(1)?)?;
        setup.hands[d] = def.with_count(captured, def.count(captured) + 1)?;
        Position::from_setup(&setup).ok()
    }
}

/// The squares next to the defender's king it could step to before the attacker's move (in
/// the position with the attacker to move): empty of its own pieces and attacked by none of the
/// attacker's with the king lifted. A cheap test that a check is no mate, asked before playing
/// it ([`Walker::mate1`]): most checks leave the king such a square.
struct Escapes {
    king: Option<Square>,
    free: Bitboard,
}

impl Escapes {
    /// The defender's free squares in `pos` (the attacker to move).
    fn new(pos: &Position) -> Escapes {
        let us = pos.side_to_move();
        let them = us.flip();
        let Some(k) = pos.king(them) else {
            return Escapes {
                king: None,
                free: Bitboard::EMPTY,
            };
        };
        let occ = pos.occupied().without(k);
        let sets = pos.attack_sets(us);
        let mut free = Bitboard::EMPTY;
        for e in king_attacks(k) & !pos.pieces_of(them) {
            if !sets.attacks(e, occ) {
                free = free.with(e);
            }
        }
        Escapes {
            king: Some(k),
            free,
        }
    }

    /// Whether one of the free squares stays free after the legal move `m`, so the king steps
    /// there and `m` is no mate. Exact where it says yes; a no decides nothing. After `m` the
    /// attacker's pieces attack what they did, except: the moved piece from its new square (the
    /// destination, occupied now, only blocks lines), and any slider whose line ran through the
    /// square it left; the squares on a line through that square are given up for those, and
    /// the destination itself (the king taking the piece there) too.
    fn survive(&self, pos: &Position, m: Move) -> bool {
        let Some(k) = self.king else {
            return false;
        };
        if self.free.is_empty() {
            return false;
        }
        let us = pos.side_to_move();
        let to = m.to();
        let mut free = self.free.without(to);
        let mut occ = pos.occupied().without(k).with(to);
        let Some(kind) = pos.moved_kind(m) else {
            return false;
        };
        if let Some(from) = m.from() {
            occ = occ.without(from);
            free &= !(attacks::rook_pseudo_attacks(from) | attacks::bishop_pseudo_attacks(from));
        }
        // Most checks leave a free square outside the moved piece's reach even on an empty
        // board: one table lookup, before the lines are traced.
        (free & !attacks::pseudo_attacks(us, kind, to)).is_any()
            || (free & !attacks::attacks(us, kind, to, occ)).is_any()
    }
}

/// The drops between the king and a distant checker proven by a tentative capture
/// ([`Walker::tentative_captures`]): the mate length and proof pieces of each, by its distance
/// from the king (a line holds at most seven squares between its ends).
struct Tentative {
    king: Option<Square>,
    found: Bitboard,
    by_distance: [(u16, Hand); 8],
}

impl Tentative {
    /// No drop proven.
    const NONE: Tentative = Tentative {
        king: None,
        found: Bitboard::EMPTY,
        by_distance: [(0, Hand::EMPTY); 8],
    };

    /// The length and proof pieces of a drop on `s`, if proven.
    #[inline]
    fn get(&self, s: Square) -> Option<(u16, Hand)> {
        let k = self.king?;
        self.found
            .contains(s)
            .then(|| self.by_distance[distance(k, s) as usize])
    }

    /// Keeps a proof of a drop on `s` (the king's square set) if it is shorter than the one
    /// held.
    fn offer(&mut self, s: Square, len: u16, h: Hand) {
        let Some(k) = self.king else {
            return;
        };
        if self.get(s).is_none_or(|(l, _)| len < l) {
            self.found = self.found.with(s);
            self.by_distance[distance(k, s) as usize] = (len, h);
        }
    }
}

/// The verdict of [`Walker::mate_in_three`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Three {
    /// Mated within three plies; the proof pieces.
    Proven(Hand),
    /// No mate within the length (at least four plies) for every hand holding at most the one
    /// given.
    Disproven(u16, Hand),
    /// Not decided here.
    Open,
}

/// The verdict of [`Walker::useless`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Useless {
    /// Useless; the proof pieces of the mate without the captured piece.
    Yes(Hand),
    /// Not useless: it counts.
    Counts,
    /// A limit cut the test short.
    Halted,
}

/// One step of a uselessness test ([`Walker::useless_step`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Test {
    /// Useless; the proof pieces of the mate without the captured piece.
    Yes(Hand),
    /// Not useless: it counts.
    Counts,
    /// Not settled within the thresholds: the test position's proof and disproof numbers.
    Open(u32, u32),
    /// A limit cut the step short.
    Halted,
}

/// What [`Walker::summarize`] found.
#[derive(Clone, Copy, Debug)]
struct Summary {
    pn: u32,
    dn: u32,
    /// The child to search next (index from the node's base).
    best: usize,
    /// The second smallest of the mover's number (pn at attacker nodes, dn at defender nodes).
    second: u32,
    /// The child with that number (`usize::MAX` if none).
    second_best: usize,
    /// The other number of the node without the best child's share.
    except: u32,
}

/// The multiplier of the path hash ([`Walker::tail_hash`]): odd, so every power is too.
const PATH_MUL: u64 = 0x0000_0100_0000_01b3;

/// A path position's term in the path hash.
#[inline]
fn path_item(key: u64, hand: Hand) -> u64 {
    key ^ (hand.bits() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// The threshold of the best child's number from the second best's: one more (Nagai), or with
/// the 1+ε trick (Pawlewicz and Lew 2007) a share more, so that a child is not left the moment
/// its number passes its sibling's: a quarter more, or as much again where `wide`
/// ([`Tuning::wide_refutation`]).
#[inline]
fn epsilon(second: u32, wide: bool) -> u32 {
    let plus = if wide {
        second as u64
    } else {
        second as u64 / 4
    }
    .max(1);
    (second as u64 + plus).min(INF as u64) as u32
}

/// What each check beyond the first adds to the disproof number of a new attacker node with
/// `budget` plies left (df-pn+, [`Walker::first_look`]): every check must be refuted, and the
/// more plies are left, the further each can lead before its refutation, so the weight grows
/// with the budget. Measured (docs/DECISIONS.md, session 23): weights of 2 without a bound and
/// 1, 2, 3 from one, five and seventeen plies took the issue's run 488.5 → 483.0 s (on the 91
/// problems settled by both 231.5 → 213.6 s) and ミクロコスモス 61.9 → 56.1 s, against 1
/// everywhere; no weight at all lost 8 of the screen's 54 settled problems.
#[inline]
fn checks_weight(budget: u16) -> u32 {
    match budget {
        LEN_INF => 2,
        0..=4 => 1,
        5..=16 => 2,
        _ => 3,
    }
}

/// The budget of a child.
#[inline]
fn sub_budget(budget: u16) -> u16 {
    if budget == LEN_INF {
        LEN_INF
    } else {
        budget.saturating_sub(1)
    }
}

/// `h` with one more `kind`, unless it already holds a whole set.
#[inline]
fn add_sat(h: Hand, kind: PieceKind) -> Hand {
    if h.count(kind) < kind.set_count() {
        hands::plus(h, kind)
    } else {
        h
    }
}

/// df-pn+ initial proof and disproof numbers of the child after `m` (Nagai's df-pn+; the
/// features follow GPS Shogi's and KomoringHeights' estimates: the pieces that defend and
/// support the destination, captures, king moves). `around` holds what the node's children
/// share.
fn estimate(pos: &Position, m: Move, or: bool, around: &mut Around) -> (u32, u32) {
    const U: u32 = 2;
    let us = pos.side_to_move();
    let to = m.to();
    let captured = pos.piece_at(to);
    if !or {
        if captured.is_some() {
            return (2 * U, U);
        }
        if m.from().is_some() && m.from() == pos.king(us) {
            return (U, U);
        }
    }
    // Counted only where the numbers depend on them.
    let (support, defence) = around.counts(pos, to);
    let support = support + m.is_drop() as u32;
    if or {
        let (mut pn, mut dn) = (U, U);
        if defence >= 2 {
            pn += U;
        }
        // Checks from a well-supported square are promising; so is taking a gold or silver.
        let supported = support > defence;
        let takes_general = captured
            .is_some_and(|c| matches!(c.kind().unpromote(), PieceKind::Gold | PieceKind::Silver));
        if supported || takes_general {
            dn += U;
        } else {
            pn += U;
        }
        // A king with squares to flee to is harder to mate (GPS Shogi's liberty estimate).
        if let Some(near) = around.near.get_or_insert_with(|| Neighbourhood::new(pos)) {
            pn += U * near.liberties(pos, m, support);
        }
        (pn, dn)
    } else {
        // A move to a square the defender holds with more pieces than the attacker (a dropped
        // piece counting as one of them) is a good defence; one the attacker can take for free
        // is weak.
        if defence < support {
            (2 * U, U)
        } else {
            (U, 2 * U)
        }
    }
}

/// What the df-pn+ estimates of one node's children share, each part computed when a child
/// first needs it: the pieces of each side attacking a destination (the same for every move
/// there: the moving piece counts from its old square), and the defender king's neighbourhood.
struct Around {
    counted: Bitboard,
    /// The mover's and the other side's pieces attacking each square in `counted`.
    counts: [(u8, u8); 81],
    near: Option<Option<Neighbourhood>>,
}

impl Around {
    fn new() -> Around {
        Around {
            counted: Bitboard::EMPTY,
            counts: [(0, 0); 81],
            near: None,
        }
    }

    /// The mover's and the other side's pieces in `pos` attacking `to`.
    #[inline]
    fn counts(&mut self, pos: &Position, to: Square) -> (u32, u32) {
        if !self.counted.contains(to) {
            let us = pos.side_to_move();
            let both = pos.attackers_to_both(to, pos.occupied());
            let mine = (both & pos.pieces_of(us)).count_sparse();
            let theirs = (both & pos.pieces_of(us.flip())).count_sparse();
            self.counts[to.index()] = (mine as u8, theirs as u8);
            self.counted = self.counted.with(to);
        }
        let (mine, theirs) = self.counts[to.index()];
        (mine as u32, theirs as u32)
    }

    /// Whether a piece of the side to move other than its king (on `king`) attacks `to`: an
    /// interposition there is not given up to a free capture. From the same counts as
    /// [`Around::counts`].
    fn guarded(&mut self, pos: &Position, king: Option<Square>, to: Square) -> bool {
        let (mine, _) = self.counts(pos, to);
        let by_king = king.is_some_and(|k| king_attacks(k).contains(to));
        mine > by_king as u32
    }
}

/// The defender king's neighbourhood at an attacker node (the attacker to move), for the
/// liberties of each check: which squares next to the king are attacked now (the king lifted),
/// and through which squares the attacker's sliders reach them, so a check changes the answer
/// only for the squares whose lines it moves from or to.
struct Neighbourhood {
    king: Square,
    sets: AttackSets,
    /// The squares next to the king free of the defender's pieces.
    open: Bitboard,
    /// Those attacked by the attacker with the king lifted, in the position before the check.
    attacked: Bitboard,
    /// Each open square with the squares between it and the attacker's sliders on its lines
    /// (empty where a stepping piece attacks it: no move changes that).
    lines: [(Square, Bitboard); 8],
    len: usize,
}

impl Neighbourhood {
    /// The neighbourhood of the defender's king in `pos` (the attacker to move), if it has one.
    fn new(pos: &Position) -> Option<Neighbourhood> {
        let us = pos.side_to_move();
        let them = us.flip();
        let k = pos.king(them)?;
        let sets = pos.attack_sets(us);
        let mut near = Neighbourhood {
            king: k,
            sets,
            open: Bitboard::EMPTY,
            attacked: Bitboard::EMPTY,
            lines: [(k, Bitboard::EMPTY); 8],
            len: 0,
        };
        let occ = pos.occupied().without(k);
        let mine = pos.pieces_of(us);
        let kind = |k: PieceKind| pos.pieces_of_kind(k) & mine;
        let rooks = kind(PieceKind::Rook) | kind(PieceKind::Dragon);
        let bishops = kind(PieceKind::Bishop) | kind(PieceKind::Horse);
        let lances = kind(PieceKind::Lance);
        near.open = king_attacks(k) & !pos.pieces_of(them);
        for s in near.open {
            if sets.attacks(s, occ) {
                near.attacked = near.attacked.with(s);
            }
            // Attacked whatever stands between: by a stepping piece or a slider next to it.
            let stepped = sets.attacks(s, Bitboard::FULL);
            let mut lines = Bitboard::EMPTY;
            if !stepped {
                let sliders = (attacks::rook_pseudo_attacks(s) & rooks)
                    | (attacks::bishop_pseudo_attacks(s) & bishops)
                    | (attacks::lance_pseudo_attacks(them, s) & lances);
                for sl in sliders {
                    lines |= between(sl, s);
                }
            }
            near.lines[near.len] = (s, lines);
            near.len += 1;
        }
        Some(near)
    }

    /// The squares the defender's king could step to after the check `m`: next to it, free of
    /// its own pieces and not attacked (the checker's new square only if nothing else guards
    /// it; `support` counts the attacker's pieces on `to` with the moving or dropped one). An
    /// estimate: the moving piece's attacks from its old square still count, pins are not
    /// looked at.
    fn liberties(&self, pos: &Position, m: Move, support: u32) -> u32 {
        let k = self.king;
        let us = pos.side_to_move();
        let to = m.to();
        let Some(kind) = pos.moved_kind(m) else {
            return 0;
        };
        let mut occ = pos.occupied().with(to).without(k);
        let mut moved = Bitboard::from_square(to);
        if let Some(f) = m.from() {
            occ = occ.without(f);
            moved = moved.with(f);
        }
        let covered = attacks::attacks(us, kind, to, occ);
        let candidates = self.open & !covered;
        if candidates.is_empty() {
            return 0;
        }
        let mut n = 0;
        for &(s, lines) in &self.lines[..self.len] {
            if !candidates.contains(s) {
                continue;
            }
            let free = if s == to {
                support <= 1
            } else if (lines & moved).is_any() {
                !self.sets.attacks(s, occ)
            } else {
                !self.attacked.contains(s)
            };
            n += free as u32;
        }
        n
    }
}

/// A static order among children with equal numbers, lower first: promotions and strong
/// pieces near the king for the attacker; captures and king moves for the defender.
fn move_order(pos: &Position, m: Move, or: bool) -> i16 {
    const VALUE: [i16; 14] = [1, 2, 2, 3, 5, 5, 5, 8, 5, 5, 5, 5, 8, 8];
    let us = pos.side_to_move();
    let to = m.to();
    let kind = pos.moved_kind(m).unwrap_or(PieceKind::Pawn);
    let mut v = 0i16;
    if or {
        if let (Some(f), Some(p)) = (m.from(), m.from().and_then(|f| pos.piece_at(f))) {
            let zone = f.in_promotion_zone(us) || to.in_promotion_zone(us);
            if !m.is_promotion()
                && zone
                && matches!(
                    p.kind(),
                    PieceKind::Pawn | PieceKind::Bishop | PieceKind::Rook
                )
            {
                v += 100;
            }
        }
        v -= VALUE[kind.index()];
        if let Some(k) = pos.king(us.flip()) {
            v += distance(k, to);
        }
    } else {
        if pos.piece_at(to).is_some() {
            v -= 20;
        }
        if m.from().is_some() && m.from() == pos.king(us) {
            v -= 10;
        }
        v += VALUE[kind.index()];
    }
    v
}

fn distance(a: Square, b: Square) -> i16 {
    let df = (a.file() as i16 - b.file() as i16).abs();
    let dr = (a.rank() as i16 - b.rank() as i16).abs();
    df.max(dr)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Calls `f` on each 将棋図巧 problem and each position two plies (a check and an evasion)
    /// below it: attacker nodes of every kind.
    fn zukou_attacker_nodes(mut f: impl FnMut(&mut Position)) {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/tsume/zukou.jsonl");
        let text = std::fs::read_to_string(path).expect("data/tsume/zukou.jsonl");
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let mut pos = Position::from_sfen(v["sfen"].as_str().unwrap()).unwrap();
            f(&mut pos);
            for c in pos.moves(MoveFilter::Checks).iter().copied() {
                pos.do_move(c);
                for e in pos.moves(MoveFilter::Evasions).iter().copied() {
                    pos.do_move(e);
                    f(&mut pos);
                    pos.undo_move();
                }
                pos.undo_move();
            }
        }
    }

    /// Every check [`Escapes::survive`] passes over leaves the defender an answer: checked on
    /// each position two plies (a check and an evasion) below the 将棋図巧 problems.
    #[test]
    fn a_check_the_escape_test_passes_over_is_no_mate() {
        let (mut passed, mut tried, mut mates) = (0u32, 0u32, 0u32);
        zukou_attacker_nodes(|pos| {
            let escapes = Escapes::new(pos);
            for m in pos.moves(MoveFilter::Checks).iter().copied() {
                let survives = escapes.survive(pos, m);
                pos.do_move(m);
                let answered = pos.has_evasion();
                pos.undo_move();
                assert!(!survives || answered, "{m} in {}", pos.to_sfen());
                tried += 1;
                passed += survives as u32;
                mates += !answered as u32;
            }
        });
        // The test decides most checks, and the positions hold mates for it to miss.
        assert!(
            tried > 10_000 && passed * 2 > tried && mates > 0,
            "{passed} of {tried}, {mates} mates"
        );
    }

    /// A fresh walker over `sfen` (the attacker to move) in a solve of its own.
    fn with_walker<T>(sfen: &str, composer: bool, f: impl FnOnce(&mut Walker) -> T) -> T {
        let pos = Position::from_sfen(sfen).unwrap();
        let opts = Options::default().hash_mib(16).nodes(2_000_000);
        let cancel = Cancel::new();
        let mut cb = |_: &Progress| {};
        let tt = Table::new(opts.limits.hash_bytes());
        let mut sh = Shared::new(&pos, &opts, tt, &cancel, &mut cb);
        let mut w = Walker::new(&mut sh, pos, composer);
        f(&mut w)
    }

    /// A fresh walker over `sfen` after the rook drop ▲５九飛 (`R*5i`), a far check up the
    /// fifth file, with the defender's evasions expanded (no bound).
    fn after_far_rook_check<T>(sfen: &str, f: impl FnOnce(&mut Walker) -> T) -> T {
        with_walker(sfen, false, |w| {
            w.push("R*5i".parse().unwrap());
            w.expand(false, LEN_INF);
            f(w)
        })
    }

    /// A disproof that relies on a repetition of the path is kept for that path, and only for
    /// it. After ▲３五桂 △３二玉 ▲４三桂成 the king takes the knight back to the first position's
    /// board, the attacker a knight the poorer (a repetition, lost for the attacker): on that
    /// path "no mate within 6", and the table holds it for the three positions above; from the
    /// second attacker node on (no repetition) the same position is mated, and the entry is
    /// not read there.
    #[test]
    fn a_disproof_that_relies_on_the_path_is_kept_for_that_path() {
        let sfen = "6S+Pl/5s3/4Lk1l1/5g1Br/4pG3/6p2/9/6N2/7+R+n b B2N2g2sl15p 3";
        let moves: Vec<Move> = ["N*3e", "4c3b", "3e4c+"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        let budget = 6;
        with_walker(sfen, true, |w| {
            for &m in &moves {
                w.push(m);
            }
            let r = w.run(budget).unwrap();
            assert_eq!((r.dn, r.rep), (0, 1), "{r:?}");
            let (key, hand) = (w.key(), w.hand());
            w.pop();
            let p =
                w.sh.tt
                    .probe_on_path(key, hand, budget, |n| w.tail_hash(0, n));
            assert!(p.disproven.is_none(), "{p:?}");
            assert_eq!(
                p.on_path.map(|(lo, _, span)| (lo >= budget, span)),
                Some((true, 3))
            );
            let mut pos = Position::from_sfen(sfen).unwrap();
            pos.do_move(moves[0]);
            pos.do_move(moves[1]);
            let mut other = Walker::new(&mut *w.sh, pos, true);
            let p = other
                .sh
                .tt
                .probe_on_path(key, hand, budget, |n| other.tail_hash(0, n));
            assert!(p.on_path.is_none(), "{p:?}");
            other.push(moves[2]);
            assert_eq!(other.run(budget).unwrap().pn, 0);
        });
    }

    /// A defender node's new children are looked at ([`Walker::first_look`]) only when among
    /// its best two ([`Tuning::lazy_first_look`]): after the looks the node's best and second
    /// best children are those of an expansion that looks at every child, with the same numbers,
    /// and the children not looked at have left nothing in the table.
    #[test]
    fn a_defender_nodes_children_are_looked_at_when_among_its_best_two() {
        let sfen = "4k4/9/9/9/9/9/9/9/9 b R2b4g4s4n4l18p 1";
        let check: Move = "R*5i".parse().unwrap();
        // Every child looked at, as before the switch.
        let eager = {
            let pos = Position::from_sfen(sfen).unwrap();
            let mut opts = Options::default().hash_mib(16).nodes(2_000_000);
            opts.tuning.lazy_first_look = false;
            let cancel = Cancel::new();
            let mut cb = |_: &Progress| {};
            let tt = Table::new(opts.limits.hash_bytes());
            let mut sh = Shared::new(&pos, &opts, tt, &cancel, &mut cb);
            let mut w = Walker::new(&mut sh, pos, false);
            w.push(check);
            w.expand(false, LEN_INF);
            let s = w.summarize(0, false);
            (w.kids.clone(), s.best, s.second_best)
        };
        with_walker(sfen, false, |w| {
            w.push(check);
            w.expand(false, LEN_INF);
            let new = w.kids.iter().filter(|c| c.flags & F_UNLOOKED != 0).count();
            assert!(new >= 6, "{new} children put off");
            let mut looks = 0;
            let s = loop {
                let s = w.summarize(0, false);
                if !w.look_first(0, &s, LEN_INF) {
                    break s;
                }
                looks += 1;
            };
            assert_eq!((s.best, s.second_best), (eager.1, eager.2));
            for i in [s.best, s.second_best] {
                let (c, e) = (&w.kids[i], &eager.0[i]);
                assert_eq!(c.mv, e.mv);
                assert_eq!((c.pn, c.dn, c.flags & F_UNLOOKED), (e.pn, e.dn, 0));
            }
            assert!(looks >= 2 && looks < new, "{looks} looks of {new}");
            let hand = w.hand();
            for c in w.kids.iter().filter(|c| c.flags & F_UNLOOKED != 0) {
                let p = w.sh.tt.probe(c.key, hand, LEN_INF);
                assert!(p.unknown.is_none() && p.proven.is_none(), "{:?}", c.mv);
            }
        });
    }

    /// At a defender node the interposing drops count once in the proof number, by maximum (a
    /// quarter of their number added back), the king's moves summed: a far check with seven
    /// squares to interpose on is not seven times as hard to prove.
    #[test]
    fn the_defenders_drops_count_once_in_the_proof_number() {
        let sfen = "4k4/9/9/9/9/9/9/9/9 b R2b4g4s4n4l18p 1";
        after_far_rook_check(sfen, |w| {
            let s = w.summarize(0, false);
            let (mut sum, mut max, mut drops, mut hidden) = (0u32, 0u32, 0u32, 0u32);
            for c in &w.kids {
                if !c.visible() {
                    hidden = 1;
                } else if c.mv.is_drop() {
                    max = max.max(c.pn);
                    drops += 1;
                } else {
                    sum += c.pn;
                }
            }
            let summed: u32 = w
                .kids
                .iter()
                .filter(|c| c.mv.is_drop() && c.visible())
                .map(|c| c.pn)
                .sum();
            assert!(
                drops >= 7 && max < summed,
                "{drops} drops, max {max}, sum {summed}"
            );
            assert_eq!(s.pn, sum + max + drops / 4 + hidden);
        });
    }

    /// A node whose children's numbers sum past `PN_MAX` reports `PN_MAX`, and under a
    /// threshold above that it goes on: the threshold it hands its best child is then above
    /// that child's own number, so the child can search. Taken from the unclamped sum, it was
    /// below, the child returned at once and was chosen again with the same numbers: 図巧4's
    /// ▲１六角 searched without a bound visited one node 22 M times (docs/DECISIONS.md,
    /// session 28).
    #[test]
    fn a_sum_past_the_largest_number_leaves_the_best_child_room() {
        let sfen = "4k4/9/9/9/9/9/9/9/9 b R2b4g4s4n4l18p 1";
        after_far_rook_check(sfen, |w| {
            // Every evasion open and summed one by one (no drop group); four of them so hard
            // to prove that the sum passes PN_MAX.
            assert!(w.kids.len() >= 4);
            for (i, c) in w.kids.iter_mut().enumerate() {
                c.flags &= !(F_MAX | F_HIDDEN | F_UNLOOKED);
                (c.pn, c.dn) = (if i < 4 { PN_MAX / 3 } else { 1 }, 5);
            }
            w.kids[1].pn = PN_MAX / 4;
            let s = w.summarize(0, false);
            assert_eq!(s.pn, PN_MAX);
            for th_pn in [PN_MAX + 1, PN_MAX + PN_MAX / 8, INF - 1] {
                let child = th_pn.saturating_sub(s.except);
                assert!(
                    child > w.kids[s.best].pn,
                    "threshold {th_pn}: the child gets {child}, its number is {}",
                    w.kids[s.best].pn
                );
            }
            // Below PN_MAX the threshold is the sum's own: the others' numbers taken off.
            for c in w.kids.iter_mut() {
                c.pn = 3;
            }
            let s = w.summarize(0, false);
            assert_eq!(s.except, s.pn - 3);
        });
    }

    /// In a bounded search the rook's non-promotion on 4a waits behind its promotion, and is
    /// searched once the promotion is disproven; without a bound (the proof) it is not delayed.
    /// The rook's move to 4b gives check only promoted, so it has no twin to hide.
    #[test]
    fn a_non_promotion_waits_behind_its_promotion_in_bounded_searches() {
        let sfen = "4k4/9/9/9/5R3/9/9/9/9 b - 1";
        let find = |w: &Walker, m: &str| {
            let m: Move = m.parse().unwrap();
            w.kids.iter().position(|c| c.mv == m).unwrap()
        };
        with_walker(sfen, true, |w| {
            w.expand(true, 5);
            let (promoted, plain) = (find(w, "4e4a+"), find(w, "4e4a"));
            assert!(w.kids[promoted].visible() && !w.kids[plain].visible());
            assert_eq!(w.kids[promoted].next as usize, plain);
            assert!(w.kids[find(w, "4e4b+")].visible());
            assert!(w.kids[find(w, "4e5e")].visible());
            assert_eq!(w.kids.iter().filter(|c| !c.visible()).count(), 1);
            // The promotion disproven, the non-promotion comes into the search.
            w.kids[promoted].pn = INF;
            w.kids[promoted].dn = 0;
            w.reveal_after(0, promoted, true);
            assert!(w.kids[plain].visible());
            w.kids.clear();
            w.expand(true, LEN_INF);
            assert!(
                w.kids.iter().all(|c| c.visible()),
                "no delay without a bound"
            );
            w.kids.clear();
            w.sh.tuning.delay_non_promotions = false;
            w.expand(true, 5);
            assert!(w.kids.iter().all(|c| c.visible()), "switched off");
        });
    }

    /// An interposition on a square a defender's piece other than the king guards is not
    /// grouped: the capture that answers the others is recaptured there, so it counts in the
    /// proof number as any other defence. The rook checks from 5i; the defender's gold on 4d
    /// guards 5d and 5e (5b, next to the king, is guarded by the king alone and stays grouped).
    #[test]
    fn a_guarded_interposition_is_summed_in_the_proof_number() {
        let sfen = "4k4/9/9/5g3/9/9/9/9/9 b R2b3g4s4n4l18p 1";
        after_far_rook_check(sfen, |w| {
            let s = w.summarize(0, false);
            let guarded = |c: &Child| {
                let sq = c.mv.to();
                sq == "5d".parse().unwrap() || sq == "5e".parse().unwrap()
            };
            let (mut sum, mut max, mut grouped, mut hidden) = (0u32, 0u32, 0u32, 0u32);
            let (mut guarded_drops, mut old_max) = (0u32, 0u32);
            for c in &w.kids {
                if !c.visible() {
                    hidden = 1;
                    assert_eq!(c.flags & F_MAX != 0, !guarded(c), "{}", c.mv);
                } else if c.mv.is_drop() && !guarded(c) {
                    assert_ne!(c.flags & F_MAX, 0, "{}", c.mv);
                    max = max.max(c.pn);
                    old_max = old_max.max(c.pn);
                    grouped += 1;
                } else {
                    if c.mv.is_drop() {
                        assert_eq!(c.flags & F_MAX, 0, "{}", c.mv);
                        guarded_drops += 1;
                        old_max = old_max.max(c.pn);
                    }
                    sum += c.pn;
                }
            }
            assert_eq!(guarded_drops, 2);
            assert!(grouped >= 5, "{grouped}");
            assert_eq!(s.pn, sum + max + grouped / 4 + hidden);
            // All drops grouped, as before, would give a smaller number.
            let old_sum: u32 = w
                .kids
                .iter()
                .filter(|c| c.visible() && !c.mv.is_drop())
                .map(|c| c.pn)
                .sum();
            assert!(old_sum + old_max + (grouped + 2) / 4 + hidden < s.pn);
        });
    }

    /// A search restricted to some checks answers for them alone, and leaves no result of the
    /// node in the table: after "none of these mates", the node's own search still finds the
    /// mate by the check left out.
    #[test]
    fn a_restricted_search_answers_for_its_checks_only() {
        // ▲５二金 mates; golds dropped beside it are taken by the king.
        let sfen = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1";
        with_walker(sfen, true, |w| {
            let mate: Move = "G*5b".parse().unwrap();
            let others: Vec<Move> = w
                .pos
                .moves(MoveFilter::Checks)
                .iter()
                .copied()
                .filter(|&m| m != mate)
                .collect();
            assert!(!others.is_empty());
            let r = w.run_only(&others, 5).unwrap();
            assert_eq!(r.dn, 0, "{r:?}");
            let p = w.sh.tt.probe(w.key(), w.hand(), 5);
            assert!(p.disproven.is_none() && p.unknown.is_none(), "{p:?}");
            let r = w.run_only(&[mate], 5).unwrap();
            assert_eq!((r.pn, r.len), (0, 1));
            let r = w.run(5).unwrap();
            assert_eq!((r.pn, r.len), (0, 1));
            let r = w.run_only(&others, 5).unwrap();
            assert_eq!(r.dn, 0, "{r:?}");
        });
    }

    /// Whether the attacker (to move in `pos`) has a mate in one, or a check the defender
    /// answers only by interposing (which the composer's bounded searches may find useless).
    fn mate_or_interposed_in_one(pos: &mut Position) -> bool {
        let us = pos.side_to_move();
        pos.moves(MoveFilter::Checks).iter().any(|&m| {
            pos.do_move(m);
            let ch = pos.checkers();
            let line = match (pos.king(us.flip()), ch.first()) {
                (Some(k), Some(c)) if !ch.has_more_than_one() => between(k, c),
                _ => Bitboard::EMPTY,
            };
            let evasions = pos.moves(MoveFilter::Evasions);
            pos.undo_move();
            evasions.iter().all(|e| line.contains(e.to()))
        })
    }

    /// An attacker node two plies from the horizon with no mate in one (and no check answered
    /// only by interposing) is settled at its first look: disproven, no mate within two, in
    /// the node's list and in the table, rather than left for the search below it.
    #[test]
    fn an_attacker_node_at_the_horizon_is_settled_at_first_look() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/tsume/zukou.jsonl");
        let text = std::fs::read_to_string(path).expect("data/tsume/zukou.jsonl");
        let mut settled = 0u32;
        for line in text.lines().filter(|l| !l.trim().is_empty()).take(20) {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            with_walker(v["sfen"].as_str().unwrap(), true, |w| {
                // Every child looked at in the expansion, not put off until it is searched.
                w.sh.tuning.lazy_first_look = false;
                for c in w.pos.moves(MoveFilter::Checks).iter().copied() {
                    w.push(c);
                    let base = w.kids.len();
                    w.expand(false, 2);
                    let kids: Vec<Child> = w.kids[base..].to_vec();
                    w.kids.truncate(base);
                    for k in kids {
                        w.pos.do_move(k.mv);
                        let open = mate_or_interposed_in_one(&mut w.pos);
                        w.pos.undo_move();
                        if open || k.rep != NO_REP {
                            continue;
                        }
                        assert!(k.dn == 0 && k.len >= 2, "{c} {}: {k:?}", k.mv);
                        let (lo, _) = w.sh.tt.probe(k.key, w.hand(), 1).disproven.unwrap();
                        assert!(lo >= 2, "{c} {}: {lo}", k.mv);
                        settled += 1;
                    }
                    w.pop();
                }
            });
        }
        assert!(settled > 100, "{settled}");
    }

    /// In the composer's bounded searches a drop the checker takes for free is useless when the
    /// table proves the position after the capture with the piece given back, whatever the
    /// length of that proof: a useless interposition adds nothing to the length. With one ply
    /// left below the drop no proof is short enough, and the drop was left to the search.
    #[test]
    fn a_free_interposition_is_useless_by_a_proof_of_any_length() {
        // ▲１九飛 (the rook from ５九) checks the king on １一 along the file; a piece dropped on
        // １五 is taken by the rook for free.
        let sfen = "8k/6S2/7G1/9/9/9/9/9/4R4 b r2b3g3s4n4l18p 1";
        // After the capture, the piece given back to the defender: mated, every interposition
        // counted (the plain search's proof, of more than one ply).
        let taken = "8k/6S2/7G1/9/8R/9/9/9/9 w r2b3g3s4n4l18p 1";
        let on: Square = "1e".parse().unwrap();
        with_walker(sfen, true, |w| {
            let mut plain = Walker::new(&mut *w.sh, Position::from_sfen(taken).unwrap(), false);
            let r = plain.run(LEN_INF).unwrap();
            assert!(r.pn == 0 && r.len > 1, "{r:?}");
            w.push("5i1i".parse().unwrap());
            let base = w.kids.len();
            w.expand(false, 2);
            let kids: Vec<Child> = w.kids[base..].to_vec();
            w.kids.truncate(base);
            let drops: Vec<&Child> = kids
                .iter()
                .filter(|c| c.mv.is_drop() && c.mv.to() == on)
                .collect();
            assert_eq!(drops.len(), 7, "{kids:?}");
            for c in drops {
                assert!(
                    c.pn == 0 && c.flags & F_USELESS != 0 && c.res_hand == w.hand(),
                    "{}: {c:?}",
                    c.mv
                );
            }
        });
    }

    /// The horizon keeps the composer's rule: a check answered only by interpositions that are
    /// all useless (taken for free, the mate going on) mates within one ply in its bounded
    /// searches, and not in the plain ones.
    #[test]
    fn a_check_answered_only_by_useless_interpositions_mates_at_the_horizon() {
        // The rook from 5i to 1i or 5a: the king's squares are held; every interposition is
        // taken by the rook, which the gold or the silver protects.
        let sfen = "8k/6S2/7G1/9/9/9/9/9/4R4 b r2b3g3s4n4l18p 1";
        let r = with_walker(sfen, true, |w| w.run(1)).unwrap();
        assert!(r.pn == 0 && r.len == 1, "{r:?}");
        let r = with_walker(sfen, false, |w| w.run(1)).unwrap();
        assert!(r.dn == 0 && r.len >= 1, "{r:?}");
    }

    /// An attacker node with three or four plies left is settled where the search reaches it,
    /// by the exact mate in three, in one node: proven within three (with proof pieces that
    /// still mate: the attacker holding only those, the rest in the defender's hand) or "no
    /// mate within four", as the exhaustive oracle finds (tests/oracle: every interposition
    /// counted, the plain search's rule; with the free ones left out, fewer defences than the
    /// composer's rule, so its "no mate" holds for the composer too). The composer's searches
    /// leave a node to the search where a check is answered only by evasions that might be
    /// useless interpositions, the plain ones never. On the positions two plies (a check and an
    /// evasion) below the first 将棋図巧 problems.
    #[test]
    fn an_attacker_node_three_or_four_plies_from_the_horizon_is_settled_by_a_mate_in_three() {
        use crate::oracle::{Exhaustive, Interpositions, Oracle};
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/tsume/zukou.jsonl");
        let text = std::fs::read_to_string(path).expect("data/tsume/zukou.jsonl");
        let (mut proven, mut disproven, mut open) = (0u32, 0u32, 0u32);
        for line in text.lines().filter(|l| !l.trim().is_empty()).take(8) {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let sfen = v["sfen"].as_str().unwrap();
            let mut every = Exhaustive::new(Interpositions::Every);
            let mut free = Exhaustive::new(Interpositions::FreeLeftOut);
            for composer in [false, true] {
                with_walker(sfen, composer, |w| {
                    for c in w.pos.moves(MoveFilter::Checks).iter().copied() {
                        w.push(c);
                        for e in w.pos.moves(MoveFilter::Evasions).iter().copied() {
                            w.push(e);
                            for budget in [3, 4] {
                                let before = w.sh.nodes;
                                let r = w.search(INF, INF, budget, false);
                                let one = w.sh.nodes - before == 1;
                                let at = w.pos.to_sfen();
                                // The position with the attacker holding the result's pieces
                                // and the defender the rest.
                                let held = |w: &Walker| {
                                    let mut s = w.pos.to_setup();
                                    let (a, d) = (w.sh.attacker.index(), 1 - w.sh.attacker.index());
                                    for k in PieceKind::HAND {
                                        let all = s.hands[a].count(k) + s.hands[d].count(k);
                                        s.hands[a] =
                                            s.hands[a].with_count(k, r.hand.count(k)).unwrap();
                                        let def = all - r.hand.count(k);
                                        s.hands[d] = s.hands[d].with_count(k, def).unwrap();
                                    }
                                    Position::from_setup(&s).unwrap()
                                };
                                if r.pn == 0 {
                                    assert!(every.attack(&w.pos, r.len), "{at}: {r:?}");
                                    let least = held(w);
                                    assert!(every.attack(&least, r.len), "{at}: {r:?}");
                                } else if r.dn == 0 {
                                    // No mate within the length (up to five plies here), also
                                    // with the attacker holding the disproof pieces.
                                    assert!(r.hand.is_superior_or_equal(w.hand()), "{at}: {r:?}");
                                    let most = held(w);
                                    let within = if r.len > 4 { 5 } else { 3 };
                                    assert!(r.len >= 4, "{at}: {r:?}");
                                    assert!(!free.attack(&w.pos, within), "{at}: {r:?}");
                                    assert!(!free.attack(&most, within), "{at}: {r:?}");
                                }
                                if one && r.is_final() {
                                    proven += (r.pn == 0 && r.len == 3) as u32;
                                    disproven += (r.dn == 0) as u32;
                                } else {
                                    assert!(composer, "{at} at {budget}: {r:?}");
                                    open += 1;
                                }
                            }
                            w.pop();
                        }
                        w.pop();
                    }
                });
            }
        }
        // Both verdicts are met, and the composer's doubts are few.
        assert!(
            proven > 20 && disproven > 100 && open * 10 < proven + disproven,
            "{proven} proven, {disproven} disproven, {open} left to the search"
        );
    }

    /// The horizon's mate in three stores the disproof the search would: where each check's
    /// refutation leaves the attacker no check at all, no mate however long (with the disproof
    /// pieces the search combines), not "no mate within four" for the exact hand (positions at
    /// 図巧73's horizon, whose composer's answer was lost to the weaker facts: the longer
    /// bounded searches could not reuse them). Checked against the oracle with the attacker
    /// holding the disproof pieces.
    #[test]
    fn the_horizon_mate_in_three_stores_the_searchs_disproof() {
        use crate::oracle::{Exhaustive, Interpositions, Oracle};
        let mut free = Exhaustive::new(Interpositions::FreeLeftOut);
        for sfen in [
            "9/9/2ls5/9/2p6/l2+Pg4/6+b1+r/+pp+Bg2+p+p1/2P1+s1k2 b Sr2gs4n2l11p 9",
            "9/9/2ls5/9/9/lkp6/6+b1+r/+pp3g+p+p1/9 b Lrb3g3s4nl13p 35",
            "9/9/2ls5/k8/2p6/l2+P5/2+R3+b1+r/+pp2g1+p+p1/9 b Nb3g3s3n2l12p 35",
        ] {
            for composer in [false, true] {
                for budget in [3, 4] {
                    with_walker(sfen, composer, |w| {
                        let r = w.search(INF, INF, budget, false);
                        assert_eq!((w.sh.nodes, r.dn, r.len), (1, 0, LEN_INF), "{sfen}: {r:?}");
                        assert!(r.hand.is_superior_or_equal(w.hand()), "{sfen}: {r:?}");
                        let p = w.sh.tt.probe(w.key(), r.hand, budget).disproven;
                        assert_eq!(p, Some((LEN_INF, r.hand)), "{sfen}");
                        let mut s = w.pos.to_setup();
                        let (a, d) = (w.sh.attacker.index(), 1 - w.sh.attacker.index());
                        for k in PieceKind::HAND {
                            let all = s.hands[a].count(k) + s.hands[d].count(k);
                            s.hands[a] = s.hands[a].with_count(k, r.hand.count(k)).unwrap();
                            s.hands[d] = s.hands[d].with_count(k, all - r.hand.count(k)).unwrap();
                        }
                        let most = Position::from_setup(&s).unwrap();
                        assert!(!free.attack(&w.pos, 7) && !free.attack(&most, 7), "{sfen}");
                    });
                }
            }
        }
    }

    /// The liberties of each check from the neighbourhood computed once per node equal those
    /// computed for the check alone (every square next to the king tested with the occupancy
    /// after the check), and so do the pieces attacking its destination, on the positions of
    /// [`zukou_attacker_nodes`].
    #[test]
    fn what_checks_share_equals_what_each_check_computes() {
        let (mut tried, mut recomputed, mut some) = (0u32, 0u32, 0u32);
        zukou_attacker_nodes(|pos| {
            let us = pos.side_to_move();
            let Some(k) = pos.king(us.flip()) else {
                return;
            };
            let near = Neighbourhood::new(pos).expect("the defender has a king");
            let mut around = Around::new();
            for m in pos.moves(MoveFilter::Checks).iter().copied() {
                let to = m.to();
                let occupied = pos.occupied();
                let support = pos.attackers_to(us, to, occupied).count() + m.is_drop() as u32;
                let defence = pos.attackers_to(us.flip(), to, occupied).count();
                // The counts shared by the node's checks are those of each check.
                let (mine, theirs) = around.counts(pos, to);
                assert_eq!((mine + m.is_drop() as u32, theirs), (support, defence));
                let kind = pos.moved_kind(m).unwrap();
                let mut occ = pos.occupied().with(to).without(k);
                if let Some(f) = m.from() {
                    occ = occ.without(f);
                }
                let covered = attacks::attacks(us, kind, to, occ);
                let sets = pos.attack_sets(us);
                let mut alone = 0;
                for s in king_attacks(k) & !pos.pieces_of(us.flip()) & !covered {
                    let free = if s == to {
                        support <= 1
                    } else {
                        !sets.attacks(s, occ)
                    };
                    alone += free as u32;
                    let moved = Bitboard::from_square(to) | Bitboard::from_square_opt(m.from());
                    let line = near.lines[..near.len].iter().find(|l| l.0 == s).unwrap().1;
                    recomputed += (s != to && (line & moved).is_any()) as u32;
                }
                assert_eq!(
                    near.liberties(pos, m, support),
                    alone,
                    "{m} in {}",
                    pos.to_sfen()
                );
                tried += 1;
                some += (alone > 0) as u32;
            }
        });
        // Both ways of the shared test (a square's line crossed by the check or not) are met.
        assert!(
            tried > 10_000 && some > 1_000 && recomputed > 100,
            "{tried} checks, {some} with liberties, {recomputed} squares recomputed"
        );
    }
}
