//! Game status: checkmate, no legal move, repetition (千日手) and the entering-king declaration
//! (入玉宣言).

use crate::{Color, PieceKind, Position};

/// How the game stands for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// The game goes on.
    Ongoing,
    /// The side to move is checkmated and has lost.
    Checkmate,
    /// The side to move is not in check but has no legal move: in shogi that also loses.
    NoLegalMoves,
    /// The position has occurred four times: a draw (千日手).
    RepetitionDraw,
    /// Four-fold repetition in which `loser` gave check on every one of its moves in the cycle
    /// (連続王手の千日手): `loser` loses.
    PerpetualCheck {
        /// The side that checked throughout.
        loser: Color,
    },
}

/// The outcome of a repetition found by [`Position::repetition`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Repetition {
    /// The current position has occurred before (`count` times in all, this one included) but
    /// fewer than four times.
    Repeated {
        /// Occurrences so far, this one included.
        count: u32,
    },
    /// The fourth occurrence, a draw.
    Draw,
    /// The fourth occurrence, lost for the side that checked throughout.
    PerpetualCheck {
        /// The side that gave check on every move of the cycle.
        loser: Color,
    },
}

impl Position {
    /// Whether and how the current position repeats earlier ones in the moves played since the
    /// position was built. `None` if it has not occurred before.
    ///
    /// Perpetual check is judged over the moves since the first of the four occurrences: if every
    /// move of one side in that stretch gave check, that side loses.
    pub fn repetition(&self) -> Option<Repetition> {
        let keys = self.history_keys();
        let n = keys.len();
        let key = self.key();
        // Same side to move: every second entry back.
        let mut count = 1;
        let mut first = n;
        let mut i = n;
        while i >= 2 {
            i -= 2;
            if keys[i].0 == key {
                count += 1;
                first = i;
                if count == 4 {
                    break;
                }
            }
        }
        if count == 1 {
            return None;
        }
        if count < 4 {
            return Some(Repetition::Repeated { count });
        }
        // Positions first..=n (n is the current one): entry j says whether the side to move at
        // position j was in check, that is whether the move into it gave check.
        let mut in_check: Vec<(Color, bool)> =
            keys[first + 1..].iter().map(|&(_, c, s)| (s, c)).collect();
        in_check.push((self.side_to_move(), self.in_check()));
        for checker in Color::ALL {
            // Positions where `checker`'s opponent is to move follow a move of `checker`.
            let victim = checker.flip();
            let mut moves = in_check.iter().filter(|(s, _)| *s == victim).peekable();
            if moves.peek().is_some() && moves.all(|&(_, c)| c) {
                return Some(Repetition::PerpetualCheck { loser: checker });
            }
        }
        Some(Repetition::Draw)
    }

    /// (key, in check, side to move) of each earlier position, oldest first.
    fn history_keys(&self) -> Vec<(u64, bool, Color)> {
        let n = self.history_states().len();
        let now = self.side_to_move();
        self.history_states()
            .enumerate()
            .map(|(j, (key, check))| {
                (
                    key,
                    check,
                    if (n - j).is_multiple_of(2) {
                        now
                    } else {
                        now.flip()
                    },
                )
            })
            .collect()
    }

    /// The game status for the side to move. Repetition is judged from the moves played since
    /// the position was built.
    pub fn status(&self) -> Status {
        match self.repetition() {
            Some(Repetition::Draw) => return Status::RepetitionDraw,
            Some(Repetition::PerpetualCheck { loser }) => return Status::PerpetualCheck { loser },
            _ => {}
        }
        if self.has_legal_move() {
            Status::Ongoing
        } else if self.in_check() {
            Status::Checkmate
        } else {
            Status::NoLegalMoves
        }
    }

    /// Whether the side to move may declare a win by the 27-point entering-king rule
    /// (入玉宣言法, as in the CSA and Japan Shogi Association computer rules): its king is in the
    /// enemy camp (the three farthest ranks), it is not in check, at least 10 of its other pieces
    /// stand in the enemy camp, and its points there plus in hand (rook and bishop, promoted or
    /// not, 5; every other piece 1; the king 0) reach 28 for Black or 27 for White.
    pub fn can_declare_win(&self) -> bool {
        let us = self.side_to_move();
        let Some(k) = self.king(us) else { return false };
        if !k.in_promotion_zone(us) || self.in_check() {
            return false;
        }
        let camp = self
            .pieces_of(us)
            .without(k)
            .filter(|sq| sq.in_promotion_zone(us));
        let (mut count, mut points) = (0u32, 0u32);
        for sq in camp {
            let Some(p) = self.piece_at(sq) else { continue };
            count += 1;
            points += big_piece_points(p.kind());
        }
        let hand = self.hand(us);
        points += PieceKind::HAND
            .iter()
            .map(|&kind| hand.count(kind) as u32 * big_piece_points(kind))
            .sum::<u32>();
        let needed = if us == Color::Black { 28 } else { 27 };
        count >= 10 && points >= needed
    }
}

fn big_piece_points(kind: PieceKind) -> u32 {
    match kind.unpromote() {
        PieceKind::Bishop | PieceKind::Rook => 5,
        _ => 1,
    }
}
