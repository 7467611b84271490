//! An exhaustive mate-within-N search over koma-core alone, as a test oracle for koma-tsume:
//! a plain depth-limited AND/OR search (every check, every evasion, memoised by position and
//! depth), with no koma-tsume code. Used by tests/exhaustive.rs (differential tests on
//! generated short problems) and by examples/exhaustive.rs (a dev tool that settles records'
//! lengths, docs/tsume.md "Disagreements with the records").
//!
//! Checks are found by playing every legal move and asking whether the defender is in check, not
//! by koma-core's check generator, so the generator is tested too. Repetition needs no rule
//! here: a mate within N plies never needs to revisit a position of its own path (the second
//! visit's mate, with fewer plies left, serves at the first), so the values are those of the
//! tsume rules. A mate by a pawn drop is no mate: koma-core does not generate that drop.
//!
//! Useless interpositions (無駄合, docs/tsume.md: an interposition on a distant check that the
//! checker takes for free, after which the attacker mates without the piece) are handled three
//! ways, giving bounds on koma's length (which leaves exactly the useless ones out):
//! - [`Interpositions::Every`] counts every interposition (cshogi's and YaneuraOu's count): the
//!   defender has at least koma's defences, so its length is **at least koma's**.
//! - [`Interpositions::FreeLeftOut`] leaves out every interposition the checker can take for
//!   free, whether or not the attacker mates without the piece: the defender has at most koma's
//!   defences, so its length is **at most koma's**.
//! - [`Interpositions::Tested`] leaves one out when it is free and the attacker then mates
//!   without the piece within `bound` plies (every interposition counted in that test): each
//!   left out is useless, so its length is at least koma's; when no test ran out of its bound
//!   ([`Counts::undecided`] 0) it left out exactly the useless ones and equals koma's.
//!
//! A capture that ends the check (a lance promoting on a square two or more before the king,
//! where the promoted lance no longer reaches it) is not an attacker's move of a tsume: it takes
//! no interposition for free, and no test asks about the position after it.

#![allow(dead_code)] // each user takes what it needs

use std::collections::HashMap;

use koma_core::attacks::between;
use koma_core::{Move, PieceKind, Position, Square};

/// How interpositions count (see the module's doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Interpositions {
    /// Every interposition is a defence: lengths at least koma's.
    Every,
    /// Interpositions the checker takes for free are left out: lengths at most koma's.
    FreeLeftOut,
    /// Left out when free and mate follows without the piece within this many plies (even).
    Tested(u16),
}

/// What the searches count.
#[derive(Clone, Copy, Debug, Default)]
pub struct Counts {
    /// Moves made.
    pub nodes: u64,
    /// Interpositions met at defender nodes (counted or not).
    pub interpositions: u64,
    /// Uselessness tests that found no mate within their bound (the piece counted).
    pub undecided: u64,
}

/// A "mate within d plies?" search: [`Exhaustive`] or [`DfPn`], which give the same values.
pub trait Oracle {
    /// A search counting interpositions by `mode`.
    fn new(mode: Interpositions) -> Self
    where
        Self: Sized;

    /// Whether the side to move (the attacker) mates within `d` plies (`d` odd).
    fn attack(&mut self, pos: &Position, d: u16) -> bool;

    /// Whether the side to move (the defender, in check) is mated within `d` plies (`d` even):
    /// every evasion that counts is mated within `d - 1`; with none, mated now.
    fn defend(&mut self, pos: &Position, d: u16) -> bool;

    /// What the search has counted so far.
    fn counts(&self) -> Counts;

    /// The shortest mate of the side to move within `max` plies, if any (odd lengths).
    fn shortest(&mut self, pos: &Position, max: u16) -> Option<u16> {
        (1..=max).step_by(2).find(|&d| self.attack(pos, d))
    }

    /// Mate within `d` plies (odd: the attacker to move; even: the defender).
    fn within(&mut self, pos: &Position, d: u16) -> bool {
        if d % 2 == 1 {
            self.attack(pos, d)
        } else {
            self.defend(pos, d)
        }
    }
}

/// The memo of one position: the smallest depth known to mate and the largest known not to.
#[derive(Clone, Copy)]
struct Known {
    mate_within: u16,
    no_mate_within: Option<u16>,
}

/// Settled values by position (kept across calls on one problem).
#[derive(Default)]
struct Memo(HashMap<u64, Known>);

impl Memo {
    /// Whether `key` mates within `d` plies, if settled.
    fn get(&self, key: u64, d: u16) -> Option<bool> {
        let k = self.0.get(&key)?;
        if d >= k.mate_within {
            Some(true)
        } else if k.no_mate_within.is_some_and(|n| d <= n) {
            Some(false)
        } else {
            None
        }
    }

    fn set(&mut self, key: u64, d: u16, mate: bool) {
        let k = self.0.entry(key).or_insert(Known {
            mate_within: u16::MAX,
            no_mate_within: None,
        });
        if mate {
            k.mate_within = k.mate_within.min(d);
        } else {
            k.no_mate_within = Some(k.no_mate_within.map_or(d, |n| n.max(d)));
        }
    }

    fn len(&self) -> usize {
        self.0.len()
    }
}

/// What both searches share: how interpositions count, the search that tests their
/// uselessness (of the same kind `S`), the memo of settled values and the counters.
struct Common<S> {
    mode: Interpositions,
    test: Option<Box<S>>,
    memo: Memo,
    counts: Counts,
}

impl<S: Oracle> Common<S> {
    fn new(mode: Interpositions) -> Common<S> {
        Common {
            mode,
            test: matches!(mode, Interpositions::Tested(_))
                .then(|| Box::new(S::new(Interpositions::Every))),
            memo: Memo::default(),
            counts: Counts::default(),
        }
    }

    /// Whether the evasion `e` of `pos` is an interposition this mode leaves out (counting the
    /// interpositions met, and for [`Interpositions::Tested`] the tests left undecided).
    fn left_out(&mut self, pos: &Position, e: Move) -> bool {
        let Some(checker) = single_distant_checker(pos) else {
            return false;
        };
        let king = pos.king(pos.side_to_move());
        let onto_line = king.is_some_and(|k| between(checker, k).contains(e.to()));
        if !onto_line || king == e.from() {
            return false;
        }
        self.counts.interpositions += 1;
        if self.mode == Interpositions::Every {
            return false;
        }
        // The interposed piece, as it goes to the attacker's hand when taken.
        let kind = match (e.drop_kind(), e.from().and_then(|f| pos.piece_at(f))) {
            (Some(k), _) => k,
            (None, Some(piece)) => piece.kind().unpromote(),
            (None, None) => return false,
        };
        let mut p = pos.clone();
        p.do_move(e);
        let takes: Vec<Move> = p
            .legal_moves()
            .iter()
            .copied()
            .filter(|x| x.from() == Some(checker) && x.to() == e.to())
            .collect();
        for x in takes {
            p.do_move(x);
            // A capture that ends the check (a lance promoting two or more squares before the
            // king) is no attacker's move of a tsume, and leaves no evasion search to ask.
            if !p.in_check() {
                p.undo_move();
                continue;
            }
            // For free: the defender cannot take the checker back.
            let free = !p.legal_moves().iter().any(|y| y.to() == e.to());
            let useless = free
                && match self.mode {
                    Interpositions::Tested(bound) => {
                        without(&p, kind).is_some_and(|w| self.mates_without(&w, bound))
                    }
                    _ => true,
                };
            p.undo_move();
            if useless {
                return true;
            }
        }
        false
    }

    /// [`Interpositions::Tested`]'s test: whether the attacker mates within `bound` plies in
    /// `p`, the position after the checker took the piece with the piece moved from the
    /// attacker's hand to the defender's (every interposition counted).
    fn mates_without(&mut self, p: &Position, bound: u16) -> bool {
        let test = self
            .test
            .as_mut()
            .expect("a Tested search has its test search");
        let mate = test.defend(p, bound);
        self.counts.undecided += u64::from(!mate);
        mate
    }
}

/// The plain search, with its memo (kept across calls on one problem).
pub struct Exhaustive {
    c: Common<Exhaustive>,
}

impl Oracle for Exhaustive {
    fn new(mode: Interpositions) -> Exhaustive {
        Exhaustive {
            c: Common::new(mode),
        }
    }

    fn counts(&self) -> Counts {
        self.c.counts
    }

    fn attack(&mut self, pos: &Position, d: u16) -> bool {
        if let Some(known) = self.c.memo.get(pos.key(), d) {
            return known;
        }
        let mut p = pos.clone();
        let mut mate = false;
        for m in pos.legal_moves().iter().copied() {
            p.do_move(m);
            self.c.counts.nodes += 1;
            let check = p.in_check();
            mate = check && self.defend(&p, d - 1);
            p.undo_move();
            if mate {
                break;
            }
        }
        self.c.memo.set(pos.key(), d, mate);
        mate
    }

    fn defend(&mut self, pos: &Position, d: u16) -> bool {
        if let Some(known) = self.c.memo.get(pos.key(), d) {
            return known;
        }
        let mut p = pos.clone();
        let mut mated = true;
        for e in pos.legal_moves().iter().copied() {
            if self.c.left_out(pos, e) {
                continue;
            }
            if d == 0 {
                mated = false;
                break;
            }
            p.do_move(e);
            self.c.counts.nodes += 1;
            mated = self.attack(&p, d - 1);
            p.undo_move();
            if !mated {
                break;
            }
        }
        self.c.memo.set(pos.key(), d, mated);
        mated
    }
}

/// `after` (the checker has just taken an interposed piece of `kind`) with the piece moved
/// from the attacker's hand to the defender's.
fn without(after: &Position, kind: PieceKind) -> Option<Position> {
    let mut s = after.to_setup();
    let defender = after.side_to_move();
    s.hands[defender.flip().index()].remove(kind);
    s.hands[defender.index()].add(kind);
    Position::from_setup(&s).ok()
}

/// The checker of the side to move when it is a single piece checking from a distance (with a
/// square between it and the king).
fn single_distant_checker(pos: &Position) -> Option<Square> {
    let checkers = pos.checkers();
    if checkers.has_more_than_one() {
        return None;
    }
    let c = checkers.first()?;
    let k = pos.king(pos.side_to_move())?;
    between(c, k).is_any().then_some(c)
}

/// A proof or disproof number that settles the node.
const INF: u32 = u32::MAX / 4;

/// The same values as [`Exhaustive`] (mate within `d` plies, interpositions counted by the same
/// [`Interpositions`]) found by depth-bounded df-pn (Nagai 2002, with Pawlewicz and Lew's
/// 1+ε thresholds), which reaches lengths the plain search cannot. Proof and disproof numbers
/// are kept per position *and* remaining depth, so the searched graph has no cycles (the depth
/// falls by one at every move) and the values are exact, with none of a cyclic df-pn's
/// path-dependence; a settled value is kept per position as the smallest depth known to mate
/// and the largest known not to, as in [`Exhaustive`]. No proof or disproof pieces, no other
/// sharing between hands: nothing of koma-tsume's search.
pub struct DfPn {
    c: Common<DfPn>,
    numbers: HashMap<(u64, u16), (u32, u32)>,
}

impl Oracle for DfPn {
    fn new(mode: Interpositions) -> DfPn {
        DfPn {
            c: Common::new(mode),
            numbers: HashMap::new(),
        }
    }

    fn attack(&mut self, pos: &Position, d: u16) -> bool {
        debug_assert!(d % 2 == 1);
        self.solve(pos, d)
    }

    fn defend(&mut self, pos: &Position, d: u16) -> bool {
        debug_assert!(d.is_multiple_of(2));
        self.solve(pos, d)
    }

    fn counts(&self) -> Counts {
        self.c.counts
    }
}

impl DfPn {
    /// Positions with settled values and with proof and disproof numbers held.
    pub fn table_len(&self) -> (usize, usize) {
        (self.c.memo.len(), self.numbers.len())
    }

    fn solve(&mut self, pos: &Position, d: u16) -> bool {
        let mut p = pos.clone();
        loop {
            if let Some(v) = self.c.memo.get(pos.key(), d) {
                return v;
            }
            self.mid(&mut p, d, INF, INF);
        }
    }

    fn settle(&mut self, key: u64, d: u16, mate: bool) {
        self.numbers.remove(&(key, d));
        self.c.memo.set(key, d, mate);
    }

    /// The proof and disproof numbers of `key` with `d` plies left.
    fn numbers_of(&self, key: u64, d: u16) -> (u32, u32) {
        match self.c.memo.get(key, d) {
            Some(true) => (0, INF),
            Some(false) => (INF, 0),
            None => self.numbers.get(&(key, d)).copied().unwrap_or((1, 1)),
        }
    }

    /// One df-pn expansion of `p` (`d` plies left; odd: the attacker's move) until its proof
    /// number reaches `th_pn` or its disproof number `th_dn`; `p` is left as it was.
    fn mid(&mut self, p: &mut Position, d: u16, th_pn: u32, th_dn: u32) {
        let key = p.key();
        let or = d % 2 == 1;
        // The children: checks at the attacker's nodes, the evasions that count at the
        // defender's (none left with no ply left: not mated).
        let mut children: Vec<(Move, u64)> = Vec::new();
        let moves = p.legal_moves();
        for m in moves.iter().copied() {
            if !or {
                let out = self.c.left_out(p, m);
                if out {
                    continue;
                }
                if d == 0 {
                    self.settle(key, d, false);
                    return;
                }
            }
            p.do_move(m);
            self.c.counts.nodes += 1;
            if !or || p.in_check() {
                children.push((m, p.key()));
            }
            p.undo_move();
        }
        if children.is_empty() {
            // No check: no mate; no evasion: mated.
            self.settle(key, d, !or);
            return;
        }
        loop {
            // The node's numbers from its children's, and the child to search.
            let (mut best, mut first, mut second, mut sum, mut other) = (0, INF, INF, 0u32, 0);
            for (i, &(_, k)) in children.iter().enumerate() {
                let (cpn, cdn) = self.numbers_of(k, d - 1);
                let (select, add) = if or { (cpn, cdn) } else { (cdn, cpn) };
                sum = sum.saturating_add(add).min(INF);
                if select < first {
                    second = first;
                    first = select;
                    best = i;
                    other = add;
                } else if select < second {
                    second = select;
                }
            }
            if sum >= INF && first > 0 {
                sum = INF - 1; // unsettled: only a settled child makes it infinite
            }
            let (pn, dn) = if or { (first, sum) } else { (sum, first) };
            if pn == 0 || dn == 0 {
                self.settle(key, d, pn == 0);
                return;
            }
            if pn >= th_pn || dn >= th_dn {
                self.numbers.insert((key, d), (pn, dn));
                return;
            }
            // 1+ε: the best child may grow to a quarter past the second best.
            let (th_select, th_sum) = if or { (th_pn, th_dn) } else { (th_dn, th_pn) };
            let c_select = th_select.min(second.saturating_add(second / 4).saturating_add(1));
            let c_sum = if th_sum >= INF {
                INF
            } else {
                (th_sum - sum + other).min(INF)
            };
            let (c_pn, c_dn) = if or {
                (c_select, c_sum)
            } else {
                (c_sum, c_select)
            };
            let m = children[best].0;
            p.do_move(m);
            self.mid(p, d - 1, c_pn, c_dn);
            p.undo_move();
        }
    }
}
