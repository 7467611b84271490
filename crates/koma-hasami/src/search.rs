//! koma's own searcher: iterative deepening negamax alpha-beta with principal variation search,
//! a transposition table, move ordering (hash move, captures, killers, history), late move
//! reductions, and a quiescence search over captures. Generic over the evaluation, so the same
//! search drives the hand-written `search` agent and the `learned` agent.

use std::time::{Duration, Instant};

use crate::ntuple::NTuple;
use crate::position::{Move, Position, Status};
use crate::square::{Square, squares};
use koma_core::Color;

/// Score of a won position at the root; wins found `n` plies deeper score `WIN − n`.
pub const WIN: i32 = 30_000;
const INF: i32 = WIN + 1;
const MAX_PLY: usize = 128;
const QSEARCH_PLIES: i32 = 8;
/// A draw by repetition scores this much below zero for the side that started the search, so a
/// player that is not worse avoids repeating and keeps playing for a win (contempt).
const CONTEMPT: i32 = 50;

/// A position evaluation from the side to move's view, well inside ±[`WIN`]` − MAX_PLY`.
pub trait Evaluator: Send + Sync {
    /// The score of a non-terminal `pos` for the side to move.
    fn evaluate(&self, pos: &Position) -> i32;
}

/// koma's hand-written evaluation: material 100 a piece, 2 per move of mobility, 4 per step of
/// centrality, from the side to move's view.
#[derive(Clone, Copy, Debug, Default)]
pub struct HandEval;

impl Evaluator for HandEval {
    fn evaluate(&self, pos: &Position) -> i32 {
        let side_terms = |c: Color| -> i32 {
            let mut s = 100 * pos.count(c) as i32;
            for sq in squares(pos.pieces(c)) {
                s += 2 * pos.piece_mobility(sq) as i32;
                let (r, f) = (sq.rank() as i32, sq.file() as i32);
                s += 4 * (4 - (r - 5).abs().max((f - 5).abs()));
            }
            s
        };
        let us = pos.side_to_move();
        side_terms(us) - side_terms(us.flip())
    }
}

impl<E: Evaluator + ?Sized> Evaluator for &E {
    fn evaluate(&self, pos: &Position) -> i32 {
        (**self).evaluate(pos)
    }
}

impl Evaluator for NTuple {
    /// The model's logit times 1000, clamped (±20 000): order-preserving in the model's value.
    fn evaluate(&self, pos: &Position) -> i32 {
        (self.logit_of(&NTuple::features(pos)) * 1000.0).clamp(-20_000.0, 20_000.0) as i32
    }
}

/// How long to search: a depth, a time per move, or both (whichever ends first).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limit {
    /// Maximum iterative-deepening depth in plies.
    pub depth: Option<u32>,
    /// Time budget for this move.
    pub movetime: Option<Duration>,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The best move (`None` only without legal moves).
    pub best: Option<Move>,
    /// Its score for the side to move.
    pub score: i32,
    /// The deepest completed iteration.
    pub depth: u32,
    /// Nodes visited (main and quiescence search).
    pub nodes: u64,
}

#[derive(Clone, Copy, Default)]
struct TtEntry {
    key: u64,
    score: i32,
    mv: u16,
    depth: i8,
    bound: u8,
}

const EXACT: u8 = 1;
const LOWER: u8 = 2;
const UPPER: u8 = 3;
const NO_MOVE: u16 = u16::MAX;

/// What the transposition table says about a node.
enum Probe {
    /// A stored score that settles the node.
    Cutoff(i32),
    /// No usable score; the stored best move (or [`NO_MOVE`]) is tried first.
    Move(u16),
}

fn pack(m: Move) -> u16 {
    (m.from.index() * 128 + m.to.index()) as u16
}

fn unpack(x: u16) -> Option<Move> {
    let from = Square::from_index((x / 128) as u8)?;
    let to = Square::from_index((x % 128) as u8)?;
    Some(Move { from, to })
}

/// The search state (transposition table, ordering tables) around an evaluator.
pub struct Searcher<E> {
    eval: E,
    tt: Vec<TtEntry>,
    killers: [[u16; 2]; MAX_PLY],
    history: Vec<i32>,
    /// Keys and total piece counts of the game and the current search path (repetition checks).
    path: Vec<(u64, u32)>,
    nodes: u64,
    deadline: Option<Instant>,
    stopped: bool,
}

impl<E: Evaluator> Searcher<E> {
    /// A searcher with a transposition table of 2^`tt_bits` entries (16 bytes each).
    pub fn new(eval: E, tt_bits: u32) -> Searcher<E> {
        Searcher {
            eval,
            tt: vec![TtEntry::default(); 1 << tt_bits],
            killers: [[NO_MOVE; 2]; MAX_PLY],
            history: vec![0; 81 * 128],
            path: Vec::new(),
            nodes: 0,
            deadline: None,
            stopped: false,
        }
    }

    /// The evaluator.
    pub fn evaluator(&self) -> &E {
        &self.eval
    }

    /// Forgets everything learned in earlier searches (new game).
    pub fn clear(&mut self) {
        self.tt.iter_mut().for_each(|e| *e = TtEntry::default());
        self.history.iter_mut().for_each(|h| *h = 0);
    }

    /// Searches the last position of a game whose positions have the keys `history` (oldest first;
    /// repeated positions score as draws) up to `limit`. Without a limit, depth 5.
    pub fn search(&mut self, pos: &Position, history: &[u64], limit: Limit) -> SearchResult {
        let mut pos = pos.clone();
        let max_depth = match limit {
            Limit { depth: Some(d), .. } => d.clamp(1, MAX_PLY as u32 - 16),
            Limit {
                depth: None,
                movetime: Some(_),
            } => MAX_PLY as u32 - 16,
            Limit {
                depth: None,
                movetime: None,
            } => 5,
        };
        self.deadline = limit.movetime.map(|t| Instant::now() + t);
        self.stopped = false;
        self.nodes = 0;
        self.killers = [[NO_MOVE; 2]; MAX_PLY];
        // Repetition: only positions with the current piece total can recur (captures are final).
        let total = pos.count(Color::Black) + pos.count(Color::White);
        self.path.clear();
        if let Some((_, earlier)) = history.split_last() {
            self.path.extend(earlier.iter().map(|&k| (k, total)));
        }
        let moves = pos.legal_moves();
        let mut result = SearchResult {
            best: moves.as_slice().first().copied(),
            score: 0,
            depth: 0,
            nodes: 0,
        };
        if moves.len() <= 1 {
            return result;
        }
        for depth in 1..=max_depth {
            let score = self.negamax(&mut pos, depth as i32, -INF, INF, 0);
            if self.stopped {
                break;
            }
            let entry = self.tt[self.slot(pos.key())];
            if let Some(m) = unpack(entry.mv).filter(|_| entry.key == pos.key()) {
                result.best = Some(m);
            }
            result.score = score;
            result.depth = depth;
            if score.abs() >= WIN - MAX_PLY as i32 {
                break;
            }
        }
        result.nodes = self.nodes;
        result
    }

    fn slot(&self, key: u64) -> usize {
        (key as usize) & (self.tt.len() - 1)
    }

    fn time_up(&mut self) -> bool {
        if self.nodes & 1023 == 0 && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stopped = true;
        }
        self.stopped
    }

    fn is_repetition(&self, pos: &Position) -> bool {
        let total = pos.count(Color::Black) + pos.count(Color::White);
        let key = pos.key();
        self.path
            .iter()
            .rev()
            .take_while(|&&(_, t)| t == total)
            .any(|&(k, _)| k == key)
    }

    /// Terminal score of `pos` for the side to move at `ply`, if the board ends the game.
    fn terminal(pos: &Position, ply: i32) -> Option<i32> {
        match pos.status() {
            Status::Ongoing => None,
            Status::Won(c) if c == pos.side_to_move() => Some(WIN - ply),
            Status::Won(_) => Some(-(WIN - ply)),
        }
    }

    fn ordered_moves(
        &self,
        pos: &Position,
        tt_move: u16,
        ply: usize,
    ) -> ([(i32, Move); crate::position::MAX_MOVES], usize) {
        let moves = pos.legal_moves();
        let mut scored = [(
            0,
            Move {
                from: Square::SQ_9A,
                to: Square::SQ_9A,
            },
        ); crate::position::MAX_MOVES];
        let killers = self.killers[ply.min(MAX_PLY - 1)];
        for (i, &m) in moves.as_slice().iter().enumerate() {
            let p = pack(m);
            let caps = pos.captures(m).count_ones() as i32;
            let s = if p == tt_move {
                1 << 30
            } else if caps > 0 {
                (1 << 28) + caps * 1000
            } else if p == killers[0] {
                1 << 27
            } else if p == killers[1] {
                (1 << 27) - 1
            } else {
                self.history[p as usize].min((1 << 26) - 1)
            };
            scored[i] = (s, m);
        }
        let n = moves.len();
        scored[..n].sort_by_key(|&(s, _)| std::cmp::Reverse(s));
        (scored, n)
    }

    fn negamax(
        &mut self,
        pos: &mut Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: i32,
    ) -> i32 {
        if let Some(s) = Self::terminal(pos, ply) {
            return s;
        }
        if ply > 0 && self.is_repetition(pos) {
            return if ply % 2 == 0 { -CONTEMPT } else { CONTEMPT };
        }
        if depth <= 0 || ply as usize >= MAX_PLY - 1 {
            return self.qsearch(pos, alpha, beta, ply, 0);
        }
        self.nodes += 1;
        if self.time_up() {
            return 0;
        }
        let key = pos.key();
        let tt_move = match self.probe(key, depth, alpha, beta, ply) {
            Probe::Cutoff(score) => return score,
            Probe::Move(m) => m,
        };
        let (moves, n) = self.ordered_moves(pos, tt_move, ply as usize);
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = NO_MOVE;
        let total = pos.count(Color::Black) + pos.count(Color::White);
        self.path.push((key, total));
        for (i, &(order, m)) in moves[..n].iter().enumerate() {
            let undo = pos.do_move(m);
            let quiet = undo.captured == 0 && order < (1 << 27) - 1;
            let score = self.search_child(pos, i, quiet, depth, (alpha, beta), ply);
            pos.undo_move(undo);
            if self.stopped {
                self.path.pop();
                return 0;
            }
            if score > best {
                best = score;
                best_move = pack(m);
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                if quiet {
                    self.reward_quiet_cutoff(m, depth, ply);
                }
                break;
            }
        }
        self.path.pop();
        self.store(key, depth, best, best_move, alpha0, beta);
        best
    }

    /// The transposition table's word on `key` at `depth`: a score that settles the node (never
    /// at the root), or the stored best move to try first.
    fn probe(&self, key: u64, depth: i32, alpha: i32, beta: i32, ply: i32) -> Probe {
        let entry = self.tt[self.slot(key)];
        if entry.key != key {
            return Probe::Move(NO_MOVE);
        }
        if ply > 0 && entry.depth as i32 >= depth {
            let s = entry.score;
            let usable = match entry.bound {
                EXACT => true,
                LOWER => s >= beta,
                UPPER => s <= alpha,
                _ => false,
            };
            if usable {
                return Probe::Cutoff(s);
            }
        }
        Probe::Move(entry.mv)
    }

    /// The score of the `i`-th move (already played on `pos`) for the side that played it: the
    /// first move with the full window, the others with a null window first (principal variation
    /// search), late quiet ones one ply shallower first (late move reductions).
    fn search_child(
        &mut self,
        pos: &mut Position,
        i: usize,
        quiet: bool,
        depth: i32,
        (alpha, beta): (i32, i32),
        ply: i32,
    ) -> i32 {
        if i == 0 {
            return -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1);
        }
        let reduction = if quiet && depth >= 3 && i >= 4 { 1 } else { 0 };
        let mut s = -self.negamax(pos, depth - 1 - reduction, -alpha - 1, -alpha, ply + 1);
        if s > alpha && reduction > 0 {
            s = -self.negamax(pos, depth - 1, -alpha - 1, -alpha, ply + 1);
        }
        if s > alpha && s < beta {
            s = -self.negamax(pos, depth - 1, -beta, -alpha, ply + 1);
        }
        s
    }

    /// A quiet move that caused a cutoff: remembered as a killer at this ply and in the history.
    fn reward_quiet_cutoff(&mut self, m: Move, depth: i32, ply: i32) {
        let k = &mut self.killers[ply as usize];
        if k[0] != pack(m) {
            k[1] = k[0];
            k[0] = pack(m);
        }
        self.history[pack(m) as usize] += depth * depth;
    }

    /// Stores a node's result, bounded by the window it was searched with (`alpha0`, `beta`).
    fn store(&mut self, key: u64, depth: i32, best: i32, best_move: u16, alpha0: i32, beta: i32) {
        let bound = if best >= beta {
            LOWER
        } else if best > alpha0 {
            EXACT
        } else {
            UPPER
        };
        let slot = self.slot(key);
        self.tt[slot] = TtEntry {
            key,
            score: best,
            mv: best_move,
            depth: depth as i8,
            bound,
        };
    }

    fn qsearch(
        &mut self,
        pos: &mut Position,
        mut alpha: i32,
        beta: i32,
        ply: i32,
        qply: i32,
    ) -> i32 {
        self.nodes += 1;
        if let Some(s) = Self::terminal(pos, ply) {
            return s;
        }
        if self.time_up() {
            return 0;
        }
        let us = pos.side_to_move();
        // Facing a lead of three, a quiet move loses at once: no standing pat.
        let must_capture = pos.count(us.flip()) >= pos.count(us) + 3;
        let mut best = if must_capture {
            -(WIN - ply - 1)
        } else {
            self.eval.evaluate(pos)
        };
        if best >= beta || qply >= QSEARCH_PLIES {
            return best;
        }
        alpha = alpha.max(best);
        let moves = pos.legal_moves();
        for &m in moves.as_slice() {
            if pos.captures(m) == 0 {
                continue;
            }
            let undo = pos.do_move(m);
            let score = -self.qsearch(pos, -beta, -alpha, ply + 1, qply + 1);
            pos.undo_move(undo);
            if score > best {
                best = score;
                alpha = alpha.max(score);
                if alpha >= beta {
                    break;
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn best(fen: &str, depth: u32) -> SearchResult {
        let pos: Position = fen.parse().unwrap();
        let mut s = Searcher::new(HandEval, 12);
        s.search(
            &pos,
            &[pos.key()],
            Limit {
                depth: Some(depth),
                movetime: None,
            },
        )
    }

    #[test]
    fn finds_a_winning_capture() {
        // Black 6, White 5: 5i5e takes 6e and leaves White with 4.
        let r = best("pppp5/9/9/9/2Pp5/9/9/9/PPP1P2P1 b 1", 3);
        assert_eq!(r.best.unwrap().to_string(), "5i5e");
        assert_eq!(r.score, WIN - 1);
    }

    #[test]
    fn search_is_deterministic_and_respects_time() {
        let a = best("ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP b 1", 3);
        let b = best("ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP b 1", 3);
        assert_eq!(a, b);
        assert_eq!(a.depth, 3);
        let pos = Position::startpos();
        let mut s = Searcher::new(HandEval, 12);
        let t = Instant::now();
        let r = s.search(
            &pos,
            &[pos.key()],
            Limit {
                depth: None,
                movetime: Some(Duration::from_millis(30)),
            },
        );
        assert!(r.best.is_some());
        assert!(t.elapsed() < Duration::from_millis(1000));
    }

    #[test]
    fn quiescence_sees_that_a_lead_of_three_must_be_answered() {
        // White to move, Black leads 9–6: White must capture now; here it cannot, so it has lost.
        let r = best("pppppp3/9/9/9/9/9/9/9/PPPPPPPPP w 2", 1);
        assert!(r.score <= -(WIN - 4), "score {}", r.score);
    }
}
