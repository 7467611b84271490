//! Replay of an answer line before it is returned.

use koma_core::attacks::between;
use koma_core::{Move, Position};

/// Why a line is not a mate by the rules of tsume.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Flaw {
    /// The move at this ply (1-based) is not legal (打ち歩詰め included).
    Illegal(usize),
    /// The attacker's move at this ply gives no check.
    NoCheck(usize),
    /// The line ends with the attacker to move.
    EvenLength,
    /// The defender is not mated at the end.
    NotMate,
}

/// Replays `line` from `start`: every move legal, every attacker move a check, and at the end
/// the defender in check without a legal answer. With `useless_allowed`, the defender may still
/// have interpositions on the checking line at the end (the solver proved them useless, 無駄合).
pub(crate) fn verify(start: &Position, line: &[Move], useless_allowed: bool) -> Result<(), Flaw> {
    let attacker = start.side_to_move();
    let mut pos = start.clone();
    for (i, &m) in line.iter().enumerate() {
        let mover = pos.side_to_move();
        if !pos.play(m) {
            return Err(Flaw::Illegal(i + 1));
        }
        if mover == attacker && !pos.in_check() {
            return Err(Flaw::NoCheck(i + 1));
        }
    }
    if line.len().is_multiple_of(2) {
        return Err(Flaw::EvenLength);
    }
    if !pos.in_check() {
        return Err(Flaw::NotMate);
    }
    let answers = pos.legal_moves();
    if answers.is_empty() {
        return Ok(());
    }
    let us = pos.side_to_move();
    let (Some(k), Some(c)) = (pos.king(us), pos.checkers().first()) else {
        return Err(Flaw::NotMate);
    };
    let block = between(k, c);
    let only_interpositions = !pos.checkers().has_more_than_one()
        && answers
            .iter()
            .all(|m| m.from() != Some(k) && block.contains(m.to()));
    if useless_allowed && only_interpositions {
        Ok(())
    } else {
        Err(Flaw::NotMate)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        s.parse().unwrap()
    }

    #[test]
    fn accepts_a_mate_and_names_each_flaw() {
        let pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1").unwrap();
        assert_eq!(verify(&pos, &[mv("G*5b")], false), Ok(()));
        assert_eq!(verify(&pos, &[mv("G*4b")], false), Err(Flaw::NotMate));
        assert_eq!(verify(&pos, &[mv("G*1a")], false), Err(Flaw::NoCheck(1)));
        assert_eq!(verify(&pos, &[mv("R*5b")], false), Err(Flaw::Illegal(1)));
        assert_eq!(verify(&pos, &[], false), Err(Flaw::EvenLength));
    }
}
