//! A solve from end to end: the proof, the exact length, the answer line, its verification.

use koma_core::{Hand, Move, Position};

use crate::order;
use crate::search::{Res, Shared, Useless, Walker};
use crate::table::{LEN_INF, Table};
use crate::verify::verify;
use crate::{
    Answer, Cancel, Mode, Options, Outcome, Phase, Progress, Solution, Stats, UnknownReason,
};

/// Stack of the thread a solve runs on: the search recurses once per ply, up to
/// [`MAX_PLY`](crate::MAX_PLY) plies.
const STACK: usize = 256 << 20;

/// Why a step of the answer could not be taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Halt {
    /// A limit or a cancel.
    Stopped,
    /// A search contradicted an earlier one: a bug.
    Inconsistent,
}

/// Solves `pos` with the table `tt` (emptied first), and gives the table back for the next
/// solve.
pub(crate) fn solve(
    pos: &Position,
    options: &Options,
    tt: Table,
    progress: &mut (dyn FnMut(&Progress) + Send),
    cancel: &Cancel,
) -> (Solution, Table) {
    on_big_stack(|| {
        let mut sh = Shared::new(pos, options, tt, cancel, progress);
        let outcome = solve_with(&mut sh, pos, options.mode);
        sh.report();
        let stats = stats(&sh);
        (Solution { outcome, stats }, sh.tt)
    })
}

/// Runs `f` on a thread with a stack deep enough for the longest search path.
pub(crate) fn on_big_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| {
        match std::thread::Builder::new()
            .name("koma-tsume".into())
            .stack_size(STACK)
            .spawn_scoped(s, f)
        {
            Ok(h) => match h.join() {
                Ok(v) => v,
                Err(e) => std::panic::resume_unwind(e),
            },
            Err(e) => panic!("cannot start the solver thread: {e}"),
        }
    })
}

pub(crate) fn stats(sh: &Shared) -> Stats {
    Stats {
        nodes: sh.nodes,
        elapsed: sh.start.elapsed(),
        hash_bytes: sh.tt.bytes(),
        hashfull: sh.tt.hashfull(),
    }
}

fn solve_with(sh: &mut Shared, pos: &Position, mode: Mode) -> Outcome {
    let composer = mode == Mode::Composer;
    let mut w = Walker::new(sh, pos.clone(), composer);
    prove_and_answer(&mut w, pos, composer)
}

/// Proves mate or no mate from the walker's position (`pos`), then finds the answer: the
/// composer's, or with `composer` false any line of the proof.
pub(crate) fn prove_and_answer(w: &mut Walker, pos: &Position, composer: bool) -> Outcome {
    let not = match short_mate(w) {
        Ok(Short::Mate(length)) => {
            let line = if composer {
                composer_line_from(w, length)
            } else {
                any_line(w)
            };
            return match line {
                Ok(line) => finish(pos, line, composer),
                Err(Halt::Stopped) => Outcome::Unknown(reason(w.sh)),
                Err(Halt::Inconsistent) => Outcome::Unknown(UnknownReason::Inconsistent),
            };
        }
        Ok(Short::Not(not)) => not,
        Err(_) => return Outcome::Unknown(reason(w.sh)),
    };
    let Some(proof) = w.run(LEN_INF) else {
        return Outcome::Unknown(reason(w.sh));
    };
    if proof.dn == 0 {
        return if proof.rep == 0 {
            Outcome::Unknown(UnknownReason::Depth)
        } else {
            Outcome::NoMate
        };
    }
    // A line from the proof first: the answer if the exact search cannot finish.
    let fallback = match any_line(w) {
        Ok(line) => line,
        Err(Halt::Stopped) => return Outcome::Unknown(reason(w.sh)),
        Err(Halt::Inconsistent) => return Outcome::Unknown(UnknownReason::Inconsistent),
    };
    if !composer {
        return finish(pos, fallback, false);
    }
    let mut fallback = fallback;
    match composer_line(w, proof, not, &mut fallback) {
        Ok(line) => finish(pos, line, true),
        Err(Halt::Stopped) => finish(pos, fallback, false),
        Err(Halt::Inconsistent) => Outcome::Unknown(UnknownReason::Inconsistent),
    }
}

fn reason(sh: &Shared) -> UnknownReason {
    sh.stop.unwrap_or(UnknownReason::Memory)
}

/// The verified answer, or `Inconsistent` if the replay finds a flaw.
fn finish(pos: &Position, line: Vec<Move>, optimal: bool) -> Outcome {
    if verify(pos, &line, optimal).is_err() {
        debug_assert!(false, "answer failed verification: {:?}", line);
        return Outcome::Unknown(UnknownReason::Inconsistent);
    }
    let mut end = pos.clone();
    for &m in &line {
        end.do_move(m);
    }
    Outcome::Mate(Answer {
        leftover: end.hand(pos.side_to_move()),
        moves: line,
        optimal,
        variations: Vec::new(),
    })
}

/// Runs a search below `m` with `budget` plies and takes the move back.
pub(crate) fn query(w: &mut Walker, m: Move, budget: u16) -> Result<Res, Halt> {
    w.push(m);
    let r = w.run(budget);
    w.pop();
    r.ok_or(Halt::Stopped)
}

/// At an attacker node whose proven child the table no longer holds (a mate on the board is
/// not stored, for one), the child mating soonest by bounded searches of the shortest lengths
/// first, every move at one length before the next, within [`SHORT_NODES`] nodes; `None` if
/// they settle none. Asking each move in turn without a bound could follow a long chase of
/// checks beside a mate in one (the cshogi cross-check found a mate in three that ended
/// "unknown" at 1,000,000 nodes so).
fn shortest_child(w: &mut Walker, moves: &[Move]) -> Result<Option<(Move, u16)>, Halt> {
    let end = w.sh.nodes.saturating_add(SHORT_NODES);
    // Plies left after the attacker's move: even, 0 for a mate on the board.
    for budget in (0..SHORT_MAX).step_by(2) {
        for &m in moves {
            let left = end.saturating_sub(w.sh.nodes);
            if left == 0 {
                return Ok(None);
            }
            w.push(m);
            let r = w.run_trial(budget, left);
            w.pop();
            match r {
                Some(r) if r.pn == 0 => return Ok(Some((m, r.len))),
                Some(_) => {}
                None if w.sh.stopped() => return Err(Halt::Stopped),
                None => return Ok(None),
            }
        }
    }
    Ok(None)
}

/// The longest mate [`short_mate`] looks for.
const SHORT_MAX: u16 = 15;
/// Nodes [`short_mate`] may spend in all.
const SHORT_NODES: u64 = 20_000;

/// What [`short_mate`] settled.
enum Short {
    /// The exact length of the shortest mate.
    Mate(u16),
    /// No mate within this many plies (0: nothing settled).
    Not(u16),
}

/// The exact length of a short mate from the walker's (attacker) node, if bounded searches of
/// 1, 3, 5, ... plies settle one within [`SHORT_NODES`] nodes: each budget is disproven before
/// the next is tried, so the first proven budget is the shortest mate. An unbounded proof may
/// first follow a long chase (a loop of checks beside a short sacrifice costs it 100,000
/// nodes and more); a 3-ply mate costs these searches a few hundred. Otherwise the longest
/// budget disproven, for the exact-length search after the proof.
fn short_mate(w: &mut Walker) -> Result<Short, Halt> {
    let end = w.sh.nodes.saturating_add(SHORT_NODES);
    let mut not = 0;
    loop {
        let budget = next_budget(not);
        let left = end.saturating_sub(w.sh.nodes);
        if left == 0 || budget > SHORT_MAX {
            break;
        }
        match w.run_trial(budget, left) {
            Some(r) if r.pn == 0 => return Ok(Short::Mate(r.len)),
            Some(_) => not = budget,
            None if w.sh.stopped() => return Err(Halt::Stopped),
            None => break,
        }
    }
    Ok(Short::Not(not))
}

/// The shortest odd budget above `not` (a mate ends on the attacker's move: an odd ply).
fn next_budget(not: u16) -> u16 {
    if not == 0 { 1 } else { (not + 1) | 1 }
}

/// Takes back the moves of `line` played on `w`.
fn rewind(w: &mut Walker, line: &[Move]) {
    for _ in line {
        w.pop();
    }
}

/// A mating line from the proof: at attacker nodes the child proven shortest, at defender
/// nodes the child whose proof is longest, searching again where the table lost a proof.
/// Proofs are taken at any length: one found by a bounded search for the composer's answer
/// counts a useless interposition as no plies, so a line through one may be longer than that
/// proof says (図巧19 and 33 once ended as "inconsistent" on it).
///
/// The table's proofs were found on other paths, and a proof that holds there may not hold on
/// the walk's own line (graph-history interaction): the line's positions may be the very ones
/// the proof's checks return to, and a repetition loses for the attacker. So the walk follows
/// the table only as far as the line stays proven on its own path: a defence that repeats a
/// position of the line, or that a search on the line's path does not prove mated, refutes the
/// check before it on this path, and the walk backs up to the newest attacker node with another
/// check to try ([`next_check`]). 図巧44 once ended "inconsistent" at ply 26, the king and a
/// gold shuttling back to positions of the line.
pub(crate) fn any_line(w: &mut Walker) -> Result<Vec<Move>, Halt> {
    let mut line = Vec::new();
    let r = walk_any(w, &mut line);
    rewind(w, &line);
    r.map(|()| line)
}

/// The checks already tried at an attacker node of [`walk_any`]'s line.
struct Tried {
    /// The node's ply on the line (0: the walk's first position).
    ply: usize,
    /// Checks played from here whose line failed on the walk's path.
    moves: Vec<Move>,
    /// Whether [`shortest_child`] has been asked here.
    probed: bool,
}

/// A defender node's step on [`walk_any`]'s line.
enum Defence {
    /// Mated: no legal evasion.
    Mated,
    /// The longest defence, every defence proven mated on the walk's path.
    Play(Move),
    /// A defence escapes on the walk's path: the check before does not mate here.
    Escapes,
}

fn walk_any(w: &mut Walker, line: &mut Vec<Move>) -> Result<(), Halt> {
    let mut tried: Vec<Tried> = Vec::new();
    loop {
        if line.len() >= crate::MAX_PLY {
            return Err(Halt::Inconsistent);
        }
        let next = if w.or_node() {
            if tried.last().is_none_or(|t| t.ply != line.len()) {
                tried.push(Tried {
                    ply: line.len(),
                    moves: Vec::new(),
                    probed: false,
                });
            }
            let at = tried.last_mut().ok_or(Halt::Inconsistent)?;
            let m = next_check(w, at)?;
            if m.is_none() {
                // No check mates from here on this path: back up past this node too.
                tried.pop();
            }
            m
        } else {
            match longest_proven_defence(w)? {
                Defence::Mated => return Ok(()),
                Defence::Play(m) => Some(m),
                Defence::Escapes => None,
            }
        };
        match next {
            Some(m) => {
                w.push(m);
                line.push(m);
            }
            None => {
                // Back to the newest attacker node with checks left to try; none left at the
                // walk's first position would contradict the proof.
                let ply = tried.last().ok_or(Halt::Inconsistent)?.ply;
                while line.len() > ply {
                    line.pop();
                    w.pop();
                }
            }
        }
    }
}

/// The next check to try at an attacker node of [`walk_any`]'s line: among the checks not yet
/// tried there and not repeating the line, the one the table proves shortest; else the one
/// [`shortest_child`]'s bounded searches settle; else the first a search on the line's path
/// proves. `None` if none is left.
fn next_check(w: &mut Walker, at: &mut Tried) -> Result<Option<Move>, Halt> {
    let moves: Vec<Move> = order::moves(&w.pos, true)
        .into_iter()
        .filter(|&m| !at.moves.contains(&m) && !w.child_repeats(m))
        .collect();
    let mut chosen: Option<(Move, u16)> = None;
    for &m in &moves {
        if let Some(len) = w.child_proof(m, LEN_INF)
            && chosen.is_none_or(|(_, l)| len < l)
        {
            chosen = Some((m, len));
        }
    }
    if chosen.is_none() && !at.probed {
        at.probed = true;
        chosen = shortest_child(w, &moves)?;
    }
    if chosen.is_none() {
        for &m in &moves {
            if query(w, m, LEN_INF)?.pn == 0 {
                chosen = Some((m, 0));
                break;
            }
            at.moves.push(m);
        }
    }
    Ok(chosen.map(|(m, _)| {
        at.moves.push(m);
        m
    }))
}

/// At a defender node of [`walk_any`]'s line: the defence whose proof is longest, each defence
/// the table does not prove searched on the line's path; whether a defence escapes there (a
/// return to a position of the line among them).
fn longest_proven_defence(w: &mut Walker) -> Result<Defence, Halt> {
    let moves = order::moves(&w.pos, false);
    if moves.is_empty() {
        return Ok(Defence::Mated);
    }
    let mut chosen: Option<(Move, u16)> = None;
    for &m in &moves {
        if w.child_repeats(m) {
            return Ok(Defence::Escapes);
        }
        let len = match w.child_proof(m, LEN_INF) {
            Some(len) => len,
            None => {
                let r = query(w, m, LEN_INF)?;
                if r.pn != 0 {
                    return Ok(Defence::Escapes);
                }
                r.len
            }
        };
        if chosen.is_none_or(|(_, l)| len > l) {
            chosen = Some((m, len));
        }
    }
    chosen.map_or(Err(Halt::Inconsistent), |(m, _)| Ok(Defence::Play(m)))
}

/// The composer's answer: settles the exact mate length, then walks down choosing by the
/// rules (docs/tsume.md). (Refuting the other checks along the proof's line with short
/// unbounded searches first, for the bounded searches to find in the table, was measured a
/// loss: docs/DECISIONS.md.) `fallback`, the proof's line, is replaced by shorter lines as
/// shorter proofs are found ([`shortest_keeping`]): the answer if a limit strikes before the end.
fn composer_line(
    w: &mut Walker,
    proof: Res,
    not: u16,
    fallback: &mut Vec<Move>,
) -> Result<Vec<Move>, Halt> {
    let length = shortest_keeping(w, not, proof.len, Some(fallback))?;
    composer_line_from(w, length)
}

/// The composer's answer from the walker's position, whose mate is exactly `length` plies:
/// the line of the first choices in canonical order ([`walk_composer`]) when it ends with the
/// attacker's hand empty, else the line the leftover rules choose ([`preferred`]).
pub(crate) fn composer_line_from(w: &mut Walker, length: u16) -> Result<Vec<Move>, Halt> {
    let mut line = Vec::new();
    let r = walk_composer(w, length, &mut line);
    rewind(w, &line);
    r?;
    // A line ending with an empty hand is what the leftover rules choose too: at each of its
    // defender nodes the first longest defence is one whose line ends with nothing left.
    if leftover_after(w, &line).is_empty() {
        return Ok(line);
    }
    preferred(w, length, 1)
}

/// The attacker's hand after `line` from the walker's position.
pub(crate) fn leftover_after(w: &Walker, line: &[Move]) -> Hand {
    let mut p = w.pos.clone();
    for &m in line {
        p.do_move(m);
    }
    p.hand(w.sh.attacker)
}

/// The composer's answer by the leftover rules (docs/tsume.md) from a node mated in exactly
/// `len` plies, `ply` being the ply of its next move: at an attacker node the first check in
/// canonical order that mates in `len - 1`; at a defender node, among the defences that count,
/// the one whose line (by these rules) ends with the attacker's hand empty and is longest (the
/// first in the order longest minimax length first, canonical among equals), else the first
/// longest (駒余り). A line may be shorter than its minimax length where a longer defence below
/// ends with pieces left (変長駒余り), so lines are compared by their own length. Only the lines
/// that end with pieces left are searched again, so the cost falls on unsound problems; a limit
/// stops it like any other step of the answer.
fn preferred(w: &mut Walker, len: u16, ply: u32) -> Result<Vec<Move>, Halt> {
    w.sh.phase = Phase::Answer { ply };
    if w.or_node() {
        if len == 0 {
            return Err(Halt::Inconsistent);
        }
        let m = shortest_check(w, len)?;
        return line_after(w, m, len - 1, ply);
    }
    let defs = defences(w)?;
    if defs.is_empty() {
        return Ok(Vec::new());
    }
    if len < 2 {
        return Err(Halt::Inconsistent);
    }
    // The longest line ending with an empty hand so far (the first in this order among equals),
    // and the first longest defence's line, which ends with pieces left.
    let mut best: Option<Vec<Move>> = None;
    let mut first = None;
    let mut shorter = Vec::new();
    for &m in &defs {
        if len >= 3 && query(w, m, len - 3)?.dn != 0 {
            shorter.push(m);
            continue;
        }
        let line = line_after(w, m, len - 1, ply)?;
        if !leftover_after(w, &line).is_empty() {
            first.get_or_insert(line);
        } else if line.len() == len as usize {
            // Nothing lasts longer: the minimax length, with nothing left.
            return Ok(line);
        } else if best.as_ref().is_none_or(|b| line.len() > b.len()) {
            // Shorter than its minimax length: a longer defence below it ends with pieces
            // left (変長駒余り), so another defence here may resist longer with nothing left.
            best = Some(line);
        }
    }
    // 変長駒余り: no longest defence ends with nothing left at its full length; a shorter one
    // may resist longer with nothing left.
    let mut rated = Vec::with_capacity(shorter.len());
    for m in shorter {
        w.push(m);
        let l = shortest(w, 0, len - 3);
        w.pop();
        rated.push((m, l?));
    }
    rated.sort_by_key(|&(_, l)| std::cmp::Reverse(l));
    for (m, l) in rated {
        if best.as_ref().is_some_and(|b| b.len() > l as usize) {
            // This defence's line has at most l + 1 plies: it cannot resist longer.
            break;
        }
        let line = line_after(w, m, l, ply)?;
        if leftover_after(w, &line).is_empty() && best.as_ref().is_none_or(|b| line.len() > b.len())
        {
            best = Some(line);
        }
    }
    best.or(first).ok_or(Halt::Inconsistent)
}

/// `m` followed by the [`preferred`] line after it, mated in exactly `len` plies.
fn line_after(w: &mut Walker, m: Move, len: u16, ply: u32) -> Result<Vec<Move>, Halt> {
    w.push(m);
    let sub = preferred(w, len, ply + 1);
    w.pop();
    let mut line = vec![m];
    line.extend(sub?);
    Ok(line)
}

/// The exact length of the shortest mate from the current (attacker) node, given a proof of
/// at most `upper` plies and no mate within `not`: bounded searches two plies shorter until one
/// fails. (Searching from both ends, the shortest budget not yet refuted against the longest
/// below the best proof, was measured far slower: 図巧2 took 21 million nodes instead of
/// 160,000, refuting every middle budget on its own; docs/DECISIONS.md.)
pub(crate) fn shortest(w: &mut Walker, not: u16, upper: u16) -> Result<u16, Halt> {
    shortest_keeping(w, not, upper, None)
}

/// [`shortest`], replacing `line` (a mating line from the walker's position) after each proof
/// by a line from the table's proofs ([`any_line`]) where that is shorter but not shorter than
/// the proven bound: the best line known if a limit strikes before the exact length is settled.
/// A long problem's proofs shorten the mate a few plies at a time (ミクロコスモス: 4 plies per
/// paid search, docs/DECISIONS.md), and the first proof's line was returned whatever they
/// proved. A line shorter than the bound is not taken: after bounded proofs the table's lengths
/// no longer make [`any_line`]'s defender resist longest, and its line can be shorter than the
/// mate (ミクロコスモス: 59 plies). Below a line of [`crate::Tuning::long_line`] plies or more,
/// a root search that does not settle within a share ([`TRIAL_SHARE`]) of the nodes spent
/// before it (the proof's) is put off until the line is settled from its end ([`settle_line`]).
fn shortest_keeping(
    w: &mut Walker,
    not: u16,
    upper: u16,
    mut line: Option<&mut Vec<Move>>,
) -> Result<u16, Halt> {
    let mut hi = upper;
    // A share of what the proof cost: the root's search may spend that before the line is
    // settled.
    let trial = w.sh.nodes / TRIAL_SHARE;
    let long = w.sh.tuning.long_line as usize;
    while hi >= 3 && hi - 2 > not {
        w.sh.phase = Phase::Shortening { upper: hi as u32 };
        let settle = match line.as_deref() {
            Some(l) if long > 0 && l.len() >= long => match w.run_trial(hi - 2, trial) {
                Some(_) => None,
                None if w.sh.stopped() => return Err(Halt::Stopped),
                None => Some(l.clone()),
            },
            _ => None,
        };
        if let Some(l) = settle {
            settle_line(w, &l)?;
        }
        let r = w.run(hi - 2).ok_or(Halt::Stopped)?;
        if r.pn != 0 {
            break;
        }
        if r.len > hi - 2 {
            return Err(Halt::Inconsistent);
        }
        hi = r.len;
        if let Some(line) = line.as_deref_mut()
            && line.len() > hi as usize
        {
            let shorter = any_line(w)?;
            if shorter.len() < line.len() && shorter.len() >= hi as usize {
                *line = shorter;
            }
        }
    }
    Ok(hi)
}

/// The share of the nodes spent before the exact-length search (the proof's) that the root's
/// search below a long line may spend before the line is settled from its end: where that
/// search settles at once (図巧83, 99: 572 and 1,630 nodes) nothing else is done; where it
/// does not, a whole proof's worth was spent for nothing (ミクロコスモス: 32.9 M of its 140.65 M
/// nodes; docs/DECISIONS.md, session 15).
const TRIAL_SHARE: u64 = 16;

/// Asks "mate within ℓ − 2?" at each attacker node of `line` (a mating line from the walker's
/// position) below the first, ℓ the plies the line has left there, deepest first and on the
/// line's own path: each answer is an exact fact the table keeps (a disproof that relies on a
/// repetition of the line above the node is kept only as high as it holds, as any search's).
/// The root's "mate within L − 2?" below a long line must refute the line's subtree to its full
/// depth, and one df-pn from the root spreads its thresholds over the whole line (図巧100:
/// "within 609" still open after 16 M nodes, its search at every depth along the 611 plies at
/// once); settled from the end, each node's search meets the nodes below it already refuted
/// and refutes only its own other checks (図巧100: 29.7 M nodes in all, then the root's search
/// 2 nodes). Nothing but the order of the searches changes: the answer is the same.
///
/// With [`crate::Tuning::line_trials`], the line is first tried from the top down
/// ([`shorter_below`]): where a node has a shorter mate below it, the line below that node is
/// replaced by a line of the table's proofs, and the settling refutes that line. Returns the
/// line it settled.
pub(crate) fn settle_line(w: &mut Walker, line: &[Move]) -> Result<Vec<Move>, Halt> {
    let line = if w.sh.tuning.line_trials {
        shorter_below(w, line)?
    } else {
        line.to_vec()
    };
    for &m in &line {
        w.push(m);
    }
    for p in (0..line.len()).rev() {
        w.pop();
        let left = (line.len() - p) as u16;
        if p == 0 || p % 2 != 0 || left < 5 {
            continue;
        }
        if w.run(left - 2).is_none() {
            rewind(w, &line[..p]);
            return Err(Halt::Stopped);
        }
    }
    Ok(line)
}

/// `line` (a mating line from the walker's position) with the part below each of its attacker
/// nodes that has a shorter mate replaced by a shorter line from the table's proofs
/// ([`any_line`]), from the top down: each node is asked "mate within ℓ − 2?" (ℓ the plies the
/// line has left there) within [`crate::search::LINE_TRIAL_NODES`] nodes. A deep refutation of
/// a part of the line a shorter mate above it replaces is spent for nothing, and the line
/// after the settling, which the root's search and the next line follow, is the shorter one
/// (docs/DECISIONS.md, session 27).
fn shorter_below(w: &mut Walker, line: &[Move]) -> Result<Vec<Move>, Halt> {
    let mut line = line.to_vec();
    let mut pushed = 0;
    let mut p = 2;
    while p + 5 <= line.len() {
        let left = (line.len() - p) as u16;
        while pushed < p {
            w.push(line[pushed]);
            pushed += 1;
        }
        let halted = match w.run_trial(left - 2, crate::search::LINE_TRIAL_NODES) {
            Some(r) if r.pn == 0 => match any_line(w) {
                Ok(sub) if sub.len() < left as usize => {
                    line.truncate(p);
                    line.extend(sub);
                    false
                }
                Err(Halt::Stopped) => true,
                // A line no shorter, or a walk that failed: the line stays.
                _ => false,
            },
            None => w.sh.stopped(),
            Some(_) => false,
        };
        if halted {
            rewind(w, &line[..pushed]);
            return Err(Halt::Stopped);
        }
        p += 2;
    }
    rewind(w, &line[..pushed]);
    Ok(line)
}

/// Walks the composer's answer from a node whose shortest mate is exactly `length` plies.
fn walk_composer(w: &mut Walker, length: u16, line: &mut Vec<Move>) -> Result<(), Halt> {
    let mut len = length;
    loop {
        w.sh.phase = Phase::Answer {
            ply: line.len() as u32 + 1,
        };
        let or = w.or_node();
        let m = if or {
            if len == 0 {
                return Err(Halt::Inconsistent);
            }
            shortest_check(w, len)?
        } else {
            match longest_defence(w, len)? {
                Some(m) => m,
                None => return Ok(()),
            }
        };
        w.push(m);
        line.push(m);
        len -= 1;
    }
}

/// At an attacker node with a shortest mate of exactly `len` plies: the first check in
/// canonical order that mates in `len - 1` more.
///
/// With `len - 1` of [`RACE_FROM`] plies or more, the checks before the first one the table
/// proves (the exact-length search has just proven one) are asked together, by one search
/// restricted to them ([`Walker::run_only`]), instead of one by one: df-pn shares its effort
/// among them as it does among all the checks of a node (図巧7's first ply: 2.67 M nodes one by
/// one; docs/DECISIONS.md, session 13). A proof among them moves the candidate back to the
/// first check the table then proves, and the checks before it are asked again.
fn shortest_check(w: &mut Walker, len: u16) -> Result<Move, Halt> {
    let moves = order::moves(&w.pos, true);
    if len > RACE_FROM
        && let Some(m) = first_mating_together(w, &moves, len - 1)?
    {
        return Ok(m);
    }
    for &m in &moves {
        if mates_within(w, m, len - 1)? {
            return Ok(m);
        }
    }
    Err(Halt::Inconsistent)
}

/// The first of `moves` (the checks at the walker's attacker node, in canonical order) that
/// mates within `budget` plies, found by searches restricted to the checks before the first
/// one the table proves; `None` if the table proves none of them, or none that
/// [`mates_within`] confirms on this path (the caller then asks each check in turn).
fn first_mating_together(
    w: &mut Walker,
    moves: &[Move],
    budget: u16,
) -> Result<Option<Move>, Halt> {
    let proven = |w: &Walker, upto: usize| {
        moves[..upto]
            .iter()
            .position(|&m| w.child_proof(m, budget).is_some())
    };
    let Some(mut cand) = proven(w, moves.len()) else {
        return Ok(None);
    };
    while cand > 0 {
        let r = w
            .run_only(&moves[..cand], budget + 1)
            .ok_or(Halt::Stopped)?;
        if r.dn == 0 {
            break;
        }
        // One of them mates: the table holds its proof, unless it was not stored.
        match proven(w, cand) {
            Some(i) => cand = i,
            None => return Ok(None),
        }
    }
    // The table's proof was found on other paths: confirmed on this one.
    Ok(mates_within(w, moves[cand], budget)?.then_some(moves[cand]))
}

/// The least budget for which [`mates_within`] races two searches; below it the bounded
/// search alone is cheap.
const RACE_FROM: u16 = 7;

/// Nodes of the first trials of [`mates_within`].
const TRIAL_NODES: u64 = 10_000;

/// Whether the attacker's move `m` mates within `budget` plies after it. Two searches race with
/// node budgets that double: without a bound and with `budget`. A move with no mate at all is
/// often refuted far more cheaply without the bound (a bounded refutation must refute every long
/// line of checks up to the bound, and cannot reuse results across depths); a bounded search
/// settles the moves that mate, but not soon enough. The answer is the same either way; only
/// the cost differs.
pub(crate) fn mates_within(w: &mut Walker, m: Move, budget: u16) -> Result<bool, Halt> {
    w.push(m);
    let r = (|| {
        if budget < RACE_FROM {
            // A short bound is cheap to search to the end: no race.
            return Ok(w.run(budget).ok_or(Halt::Stopped)?.pn == 0);
        }
        let mut nodes = TRIAL_NODES;
        loop {
            if let Some(r) = w.run_trial(LEN_INF, nodes) {
                if r.dn == 0 {
                    return Ok(false);
                }
                if r.len <= budget {
                    return Ok(true);
                }
                // It mates, later than `budget`, or so the proof says: only the bounded search
                // can tell.
                return Ok(w.run(budget).ok_or(Halt::Stopped)?.pn == 0);
            }
            if let Some(r) = w.run_trial(budget, nodes) {
                return Ok(r.pn == 0);
            }
            if w.sh.stopped() {
                return Err(Halt::Stopped);
            }
            nodes = nodes.saturating_mul(2);
        }
    })();
    w.pop();
    r
}

/// The defences that count at a defender node: its evasions in canonical order without the
/// useless interpositions.
pub(crate) fn defences(w: &mut Walker) -> Result<Vec<Move>, Halt> {
    let block = interposition_squares(&w.pos);
    let mut out = Vec::new();
    for m in order::moves(&w.pos, false) {
        if counts(w, m, block)? {
            out.push(m);
        }
    }
    Ok(out)
}

/// Whether the evasion `m` counts as a defence: anything but a useless interposition on
/// `block` (the squares of [`interposition_squares`]).
fn counts(w: &mut Walker, m: Move, block: koma_core::Bitboard) -> Result<bool, Halt> {
    if !block.contains(m.to()) || m.from() == w.pos.king(w.pos.side_to_move()) {
        return Ok(true);
    }
    match w.useless(m) {
        Useless::Yes(_) => Ok(false),
        Useless::Counts => Ok(true),
        Useless::Halted => Err(Halt::Stopped),
    }
}

/// Squares between the king and a single distant checker.
pub(crate) fn interposition_squares(pos: &Position) -> koma_core::Bitboard {
    let ch = pos.checkers();
    match (pos.king(pos.side_to_move()), ch.first()) {
        (Some(k), Some(c)) if !ch.has_more_than_one() => koma_core::attacks::between(k, c),
        _ => koma_core::Bitboard::EMPTY,
    }
}

/// At a defender node mated in exactly `len` plies: the first defence in canonical order that
/// holds out `len - 1` more, or `None` at the end (no defence that counts). A defence mated
/// sooner is passed over before its uselessness is tested: the test of an interposition that
/// counts is a disproof without a bound, often far dearer than the bounded search (図巧12: 3.2
/// M nodes of tests in the walk; docs/DECISIONS.md).
fn longest_defence(w: &mut Walker, len: u16) -> Result<Option<Move>, Halt> {
    if len >= 2 {
        let block = interposition_squares(&w.pos);
        for m in order::moves(&w.pos, false) {
            if (len < 3 || query(w, m, len - 3)?.dn == 0) && counts(w, m, block)? {
                return Ok(Some(m));
            }
        }
    }
    // No defence that counts holds out: the end of the line, or a contradiction.
    if defences(w)?.is_empty() {
        Ok(None)
    } else {
        Err(Halt::Inconsistent)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shared_run(sfen: &str, budget: u16) -> (Option<Res>, u64) {
        let pos = Position::from_sfen(sfen).unwrap();
        let opts = Options::default().hash_mib(16).nodes(2_000_000);
        let cancel = Cancel::new();
        let mut cb = |_: &Progress| {};
        let tt = Table::new(opts.limits.hash_bytes());
        let mut sh = Shared::new(&pos, &opts, tt, &cancel, &mut cb);
        let r = {
            let mut w = Walker::new(&mut sh, pos, true);
            w.run(budget)
        };
        (r, sh.nodes)
    }

    /// The checks before the table's first proven one, asked together, choose the same check
    /// as asking each in turn (the first in canonical order that mates within the budget): at
    /// the attacker nodes of 図巧7's answer 11 and 9 plies from the mate.
    #[test]
    fn checks_asked_together_choose_as_one_by_one() {
        let sfen = "1nkg5/2s6/3rp4/1B7/r8/1PN6/9/9/9 b BG3SN2gn4l16p 1";
        let line = ["S*8b", "7a8b", "N*7d", "8b8c", "S*9d", "8c9d"];
        let mut not_first = 0;
        for (plies, len) in [(4, 11u16), (6, 9)] {
            let mut pos = Position::from_sfen(sfen).unwrap();
            for m in &line[..plies] {
                pos.do_move(m.parse().unwrap());
            }
            let opts = Options::default().hash_mib(16).nodes(3_000_000);
            let cancel = Cancel::new();
            let mut cb = |_: &Progress| {};
            // Asked together, after the proof and the exact length, as the walk asks.
            let tt = Table::new(opts.limits.hash_bytes());
            let mut sh = Shared::new(&pos, &opts, tt, &cancel, &mut cb);
            let moves = order::moves(&pos, true);
            let together = {
                let mut w = Walker::new(&mut sh, pos.clone(), true);
                let proof = w.run(LEN_INF).unwrap();
                assert_eq!(shortest(&mut w, 0, proof.len), Ok(len));
                first_mating_together(&mut w, &moves, len - 1).unwrap()
            };
            // One by one, in a solve of its own.
            let tt = Table::new(opts.limits.hash_bytes());
            let mut sh = Shared::new(&pos, &opts, tt, &cancel, &mut cb);
            let mut w = Walker::new(&mut sh, pos.clone(), true);
            let one_by_one = moves
                .iter()
                .copied()
                .find(|&m| mates_within(&mut w, m, len - 1).unwrap());
            assert!(one_by_one.is_some());
            assert_eq!(together, one_by_one, "after {plies} plies");
            not_first += (one_by_one != moves.first().copied()) as u32;
        }
        // The restricted search was asked at least once.
        assert!(not_first > 0);
    }

    /// The proof's line is replaced by a shorter line of each shorter proof of the exact-length
    /// search: a limit striking there returns the best line known, not the first proof's.
    #[test]
    fn shortening_keeps_the_shortest_line_known() {
        // zukou-018 (23 plies): the unbounded proof's line is longer.
        let sfen = "7n1/5+B+P1r/7k1/7+p1/6P2/7N1/7N1/8B/9 b N2Pr4g4s4l13p 1";
        after_proof(sfen, 2_000_000, |w, pos, proof| {
            let first = any_line(w).expect("a line");
            assert!(first.len() > 23, "the proof's line: {first:?}");
            let mut line = first.clone();
            let length = shortest_keeping(w, 0, proof.len, Some(&mut line)).unwrap();
            assert_eq!(length, 23);
            assert!(line.len() < first.len() && line.len() >= 23, "{line:?}");
            assert!(verify(pos, &line, false).is_ok(), "{line:?}");
            // Without a line to keep, the same length.
            assert_eq!(shortest(w, 0, proof.len).unwrap(), 23);
        });
    }

    /// Runs `f` on a composer walker at `sfen` (the attacker to move) once its unbounded
    /// search has proven mate, with a 16 MiB table and at most `nodes` nodes.
    fn after_proof<T>(
        sfen: &str,
        nodes: u64,
        f: impl FnOnce(&mut Walker, &Position, Res) -> T,
    ) -> T {
        let pos = Position::from_sfen(sfen).unwrap();
        let opts = Options::default().hash_mib(16).nodes(nodes);
        let cancel = Cancel::new();
        let mut cb = |_: &Progress| {};
        let tt = Table::new(opts.limits.hash_bytes());
        let mut sh = Shared::new(&pos, &opts, tt, &cancel, &mut cb);
        let mut w = Walker::new(&mut sh, pos.clone(), true);
        let proof = w.run(LEN_INF).expect("within the node limit");
        assert_eq!(proof.pn, 0);
        f(&mut w, &pos, proof)
    }

    /// After the proof's line is settled deepest first, the root's refutation just below the
    /// answer finds the line's check refuted from the table (its subtree to the full depth),
    /// and the exact length is unchanged.
    #[test]
    fn a_settled_line_leaves_the_lines_refutation_to_the_table() {
        // zukou-002 (21 plies).
        let sfen = "9/9/3B3G1/6+p1n/7+p1/7k1/5BL1p/7G1/7+R+r b N2P2g4s2n3l13p 1";
        let refute = |settled: bool| {
            after_proof(sfen, 4_000_000, |w, _, proof| {
                let line = any_line(w).expect("a line");
                assert_eq!(line.len(), 21, "the proof's line is the answer's length");
                if settled {
                    // The line is the answer's: no shorter mate below any of its nodes.
                    assert_eq!(settle_line(w, &line), Ok(line.clone()));
                }
                let before = w.sh.nodes;
                let r = w.run_only(&line[..1], 19).expect("within the node limit");
                assert!(r.dn == 0 && r.len >= 19, "{r:?}");
                let spent = w.sh.nodes - before;
                assert_eq!(shortest(w, 0, proof.len), Ok(21));
                spent
            })
        };
        let plain = refute(false);
        let settled = refute(true);
        assert!(plain > 1_000, "the line's check alone: {plain} nodes");
        assert!(
            settled <= 10,
            "{settled} nodes after the line, {plain} without"
        );
    }

    /// Below a line that is not the shortest, the trials find a node with a shorter mate below
    /// it, and the line settled is the shorter one from there; the exact length is unchanged.
    #[test]
    fn a_line_is_settled_with_the_shorter_mates_found_below_its_nodes() {
        // zukou-034 (17 plies): the unbounded proof's line has 19.
        let sfen = "9/7lS/7pb/5S1B1/5rgk1/8p/4+R2G1/9/9 b SN2gs3n3l16p 1";
        after_proof(sfen, 4_000_000, |w, pos, proof| {
            let first = any_line(w).expect("a line");
            assert!(first.len() > 17, "the proof's line: {first:?}");
            let settled = settle_line(w, &first).expect("within the node limit");
            assert!(settled.len() < first.len(), "{settled:?}");
            assert_eq!(
                settled[..2],
                first[..2],
                "replaced below the first attacker node"
            );
            assert!(verify(pos, &settled, false).is_ok(), "{settled:?}");
            assert_eq!(shortest(w, 0, proof.len), Ok(17));
        });
    }

    #[test]
    fn bounded_searches_settle_small_problems() {
        // zukou-002 (21 plies): proofs and disproofs of a few budgets.
        let sfen = "9/9/3B3G1/6+p1n/7+p1/7k1/5BL1p/7G1/7+R+r b N2P2g4s2n3l13p 1";
        for b in [1u16, 3, 5, 7, 9, 11, 13, 19, 21, 23] {
            let (r, _) = shared_run(sfen, b);
            let r = r.expect("within the node limit");
            if b < 21 {
                assert!(r.dn == 0 && r.len >= b, "budget {b}: {r:?}");
            } else {
                assert!(r.pn == 0 && r.len <= b, "budget {b}: {r:?}");
            }
        }
    }
}
