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
//!   ([`Exhaustive::undecided`] 0) it left out exactly the useless ones and equals koma's.

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

/// The memo of one position: the smallest depth known to mate and the largest known not to.
#[derive(Clone, Copy)]
struct Known {
    mate_within: u16,
    no_mate_within: Option<u16>,
}

/// The search, with its memo (kept across calls on one problem).
pub struct Exhaustive {
    mode: Interpositions,
    memo: HashMap<u64, Known>,
    /// For [`Interpositions::Tested`]: the search that tests an interposition's uselessness.
    test: Option<Box<Exhaustive>>,
    /// Moves made.
    pub nodes: u64,
    /// Interpositions met at defender nodes (counted or not).
    pub interpositions: u64,
    /// Uselessness tests that found no mate within their bound (the piece counted).
    pub undecided: u64,
}

impl Exhaustive {
    /// A search counting interpositions by `mode`.
    pub fn new(mode: Interpositions) -> Exhaustive {
        let test = match mode {
            Interpositions::Tested(_) => Some(Box::new(Exhaustive::new(Interpositions::Every))),
            _ => None,
        };
        Exhaustive {
            mode,
            memo: HashMap::new(),
            test,
            nodes: 0,
            interpositions: 0,
            undecided: 0,
        }
    }

    /// The shortest mate of the side to move within `max` plies, if any (odd lengths).
    pub fn shortest(&mut self, pos: &Position, max: u16) -> Option<u16> {
        (1..=max).step_by(2).find(|&d| self.attack(pos, d))
    }

    /// Whether the side to move (the attacker) mates within `d` plies (`d` odd).
    pub fn attack(&mut self, pos: &Position, d: u16) -> bool {
        if let Some(known) = self.known(pos, d) {
            return known;
        }
        let mut p = pos.clone();
        let mut mate = false;
        for m in pos.legal_moves().iter().copied() {
            p.do_move(m);
            self.nodes += 1;
            let check = p.in_check();
            mate = check && self.defend(&p, d - 1);
            p.undo_move();
            if mate {
                break;
            }
        }
        self.remember(pos, d, mate);
        mate
    }

    /// Whether the side to move (the defender, in check) is mated within `d` plies (`d` even):
    /// every evasion that counts is mated within `d - 1`; with none, mated now.
    pub fn defend(&mut self, pos: &Position, d: u16) -> bool {
        if let Some(known) = self.known(pos, d) {
            return known;
        }
        let mut p = pos.clone();
        let mut mated = true;
        for e in pos.legal_moves().iter().copied() {
            if self.left_out(pos, e) {
                continue;
            }
            if d == 0 {
                mated = false;
                break;
            }
            p.do_move(e);
            self.nodes += 1;
            mated = self.attack(&p, d - 1);
            p.undo_move();
            if !mated {
                break;
            }
        }
        self.remember(pos, d, mated);
        mated
    }

    fn known(&self, pos: &Position, d: u16) -> Option<bool> {
        let k = self.memo.get(&pos.key())?;
        if d >= k.mate_within {
            Some(true)
        } else if k.no_mate_within.is_some_and(|n| d <= n) {
            Some(false)
        } else {
            None
        }
    }

    fn remember(&mut self, pos: &Position, d: u16, mate: bool) {
        let k = self.memo.entry(pos.key()).or_insert(Known {
            mate_within: u16::MAX,
            no_mate_within: None,
        });
        if mate {
            k.mate_within = k.mate_within.min(d);
        } else {
            k.no_mate_within = Some(k.no_mate_within.map_or(d, |n| n.max(d)));
        }
    }

    /// Whether the evasion `e` of `pos` is an interposition this mode leaves out.
    fn left_out(&mut self, pos: &Position, e: Move) -> bool {
        let Some(checker) = single_distant_checker(pos) else {
            return false;
        };
        let king = pos.king(pos.side_to_move());
        let onto_line = king.is_some_and(|k| between(checker, k).contains(e.to()));
        if !onto_line || king == e.from() {
            return false;
        }
        self.interpositions += 1;
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
            // For free: the defender cannot take the checker back.
            let free = !p.legal_moves().iter().any(|y| y.to() == e.to());
            let useless = free
                && match self.mode {
                    Interpositions::Tested(bound) => self.mates_without(&p, kind, bound),
                    _ => true,
                };
            p.undo_move();
            if useless {
                return true;
            }
        }
        false
    }

    /// After the checker took an interposed piece of `kind`: whether the attacker mates within
    /// `bound` plies with the piece moved from its hand to the defender's.
    fn mates_without(&mut self, after: &Position, kind: PieceKind, bound: u16) -> bool {
        let mut s = after.to_setup();
        let defender = after.side_to_move();
        s.hands[defender.flip().index()].remove(kind);
        s.hands[defender.index()].add(kind);
        let Ok(without) = Position::from_setup(&s) else {
            return false;
        };
        let test = self
            .test
            .as_mut()
            .expect("a Tested search has its test search");
        let mate = test.defend(&without, bound);
        if !mate {
            self.undecided += 1;
        }
        mate
    }
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
