//! The study's baseline agent (docs/hasami-rules.md): plain alpha-beta to a fixed depth, no move ordering, no
//! transposition table, moves in the fixed generation order, evaluation from Black's view.
//!
//! The evaluation is kept in integers scaled by 5 (`0.2 · mobility` becomes `mobility`), which
//! preserves every comparison of the real-valued formula exactly, so the agent chooses the same moves.

use crate::position::{Move, Position, Status};
use crate::square::squares;
use koma_core::Color;

/// Terminal score, scaled by 5 like the rest of the evaluation (the study's ±999).
pub const STUDY_WIN: i32 = 999 * 5;

/// The study's evaluation of `pos`, scaled by 5, from Black's view: for the side p to move,
/// `10·(pieces(p) − pieces(o)) + centre + capture bonus + 0.2·mobility(p)`, times +1 for Black and
/// −1 for White; terminal positions ±999.
pub fn evaluate(pos: &Position) -> i32 {
    match pos.status() {
        Status::Won(c) => c.sign() * STUDY_WIN,
        Status::Ongoing => {
            let p = pos.side_to_move();
            let material = 10 * (pos.count(p) as i32 - pos.count(p.flip()) as i32);
            let (mut centre, mut capture, mut mobility) = (0i32, 0i32, 0i32);
            for sq in squares(pos.pieces(p)) {
                let (rank, file) = (sq.rank() as i32, sq.file() as i32);
                centre += (2 - (rank - 5).abs().max((file - 5).abs())).max(0);
                let n = pos.piece_mobility(sq) as i32;
                capture += n.min(2);
                mobility += n;
            }
            p.sign() * (5 * (material + centre + capture) + mobility)
        }
    }
}

/// Alpha-beta value of `pos` searched `depth` plies, from Black's view (Black maximises).
fn alphabeta(
    pos: &mut Position,
    depth: u32,
    mut alpha: i32,
    mut beta: i32,
    nodes: &mut u64,
) -> i32 {
    *nodes += 1;
    if depth == 0 || pos.status() != Status::Ongoing {
        return evaluate(pos);
    }
    let moves = pos.legal_moves();
    let maximise = pos.side_to_move() == Color::Black;
    let mut best = if maximise { i32::MIN } else { i32::MAX };
    for &m in moves.as_slice() {
        let undo = pos.do_move(m);
        let v = alphabeta(pos, depth - 1, alpha, beta, nodes);
        pos.undo_move(undo);
        if maximise {
            best = best.max(v);
            alpha = alpha.max(v);
        } else {
            best = best.min(v);
            beta = beta.min(v);
        }
        if alpha >= beta {
            break;
        }
    }
    best
}

/// The study agent's move at `depth` (≥ 1): the first move in generation order with the best
/// alpha-beta value for the side to move, with its value and the nodes visited. `None` without moves.
///
/// ```
/// use koma_hasami::{Position, study};
/// let (mv, _, _) = study::best_move(&mut Position::startpos(), 1).unwrap();
/// // Depth 1 sees only White's terms after the move: shutting in 9a costs White the most mobility.
/// assert_eq!(mv.to_string(), "9i9b");
/// ```
pub fn best_move(pos: &mut Position, depth: u32) -> Option<(Move, i32, u64)> {
    let moves = pos.legal_moves();
    let maximise = pos.side_to_move() == Color::Black;
    let mut nodes = 0;
    let mut best: Option<(Move, i32)> = None;
    for &m in moves.as_slice() {
        let undo = pos.do_move(m);
        // Window (best, +inf) for Black: a later move must be strictly better to replace the first.
        let v = match best {
            None => alphabeta(pos, depth.max(1) - 1, i32::MIN, i32::MAX, &mut nodes),
            Some((_, b)) if maximise => alphabeta(pos, depth.max(1) - 1, b, i32::MAX, &mut nodes),
            Some((_, b)) => alphabeta(pos, depth.max(1) - 1, i32::MIN, b, &mut nodes),
        };
        pos.undo_move(undo);
        let better = match best {
            None => true,
            Some((_, b)) => (maximise && v > b) || (!maximise && v < b),
        };
        if better {
            best = Some((m, v));
        }
    }
    best.map(|(m, v)| (m, v, nodes))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Plain minimax with the same tie rule, to check that alpha-beta changes no decision.
    fn minimax(pos: &mut Position, depth: u32) -> i32 {
        if depth == 0 || pos.status() != Status::Ongoing {
            return evaluate(pos);
        }
        let maximise = pos.side_to_move() == Color::Black;
        let mut best = if maximise { i32::MIN } else { i32::MAX };
        for &m in pos.legal_moves().as_slice() {
            let u = pos.do_move(m);
            let v = minimax(pos, depth - 1);
            pos.undo_move(u);
            best = if maximise { best.max(v) } else { best.min(v) };
        }
        best
    }

    fn first_best_by_minimax(pos: &mut Position, depth: u32) -> Move {
        let maximise = pos.side_to_move() == Color::Black;
        let mut best: Option<(Move, i32)> = None;
        for &m in pos.legal_moves().as_slice() {
            let u = pos.do_move(m);
            let v = minimax(pos, depth - 1);
            pos.undo_move(u);
            if best.is_none_or(|(_, b)| (maximise && v > b) || (!maximise && v < b)) {
                best = Some((m, v));
            }
        }
        best.map(|(m, _)| m)
            .unwrap_or_else(|| unreachable!("start-like positions have moves"))
    }

    #[test]
    fn evaluation_of_start_position_matches_the_formula_by_hand() {
        // Black to move: material 0; centre: only 5i..: rank 9 is 4 away from 5, so 0;
        // each piece has 7 moves: capture bonus 9·2 = 18; mobility 63 → 5·18 + 63 = 153.
        assert_eq!(evaluate(&Position::startpos()), 153);
        let mut pos = Position::startpos();
        pos.do_move("9i9h".parse().unwrap());
        // White to move: White's 9 pieces have 7 moves each except 9a (6): capture 18, mob 62.
        assert_eq!(evaluate(&pos), -(5 * 18 + 62));
    }

    #[test]
    fn alpha_beta_chooses_as_minimax_does() {
        let mut pos = Position::startpos();
        let line = ["5i5e", "5a5d", "4i4f", "6a6c"];
        for (i, m) in line.iter().enumerate() {
            for depth in 1..=2 {
                let (ab, _, _) = best_move(&mut pos, depth).unwrap();
                assert_eq!(
                    ab,
                    first_best_by_minimax(&mut pos, depth),
                    "ply {i} depth {depth}"
                );
            }
            pos.do_move(m.parse().unwrap());
        }
    }
}
