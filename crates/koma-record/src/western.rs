//! Western (Hodges) move notation: `P-7f`, `Bx2b+`, `S*5e`, `G6i-5h` when two golds could go,
//! `S-2c=` when a promotion is declined.

use koma_core::{Move, Piece, PieceKind, Position};

fn piece_text(kind: PieceKind) -> String {
    if kind.is_promoted() {
        format!("+{}", kind.unpromote().sfen_letter())
    } else {
        kind.sfen_letter().to_string()
    }
}

/// The Western name of a legal move of `pos`. The origin square is written only when another
/// piece of the same kind could also move to the destination.
///
/// ```
/// use koma_core::Position;
/// use koma_record::western::move_name;
/// let pos = Position::from_sfen("lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3").unwrap();
/// assert_eq!(move_name(&pos, "8h2b+".parse().unwrap()), "Bx2b+");
/// assert_eq!(move_name(&pos, "6i5h".parse().unwrap()), "G6i-5h");
/// ```
pub fn move_name(pos: &Position, m: Move) -> String {
    write(pos, m, false)
}

fn write(pos: &Position, m: Move, always_origin: bool) -> String {
    let us = pos.side_to_move();
    match (m.from(), m.drop_kind()) {
        (Some(from), _) => {
            let kind = pos.piece_at(from).map_or(PieceKind::Pawn, Piece::kind);
            let ambiguous = pos.legal_moves().iter().any(|o| {
                o.to() == m.to()
                    && o.from().is_some_and(|f| {
                        f != from && pos.piece_at(f).map(Piece::kind) == Some(kind)
                    })
            });
            let origin = if ambiguous || always_origin {
                from.to_string()
            } else {
                String::new()
            };
            let sep = if pos.piece_at(m.to()).is_some() {
                'x'
            } else {
                '-'
            };
            let suffix = if m.is_promotion() {
                "+"
            } else if kind.can_promote()
                && (from.in_promotion_zone(us) || m.to().in_promotion_zone(us))
            {
                "="
            } else {
                ""
            };
            format!("{}{origin}{sep}{}{suffix}", piece_text(kind), m.to())
        }
        (None, Some(kind)) => format!("{}*{}", piece_text(kind), m.to()),
        (None, None) => String::new(),
    }
}

/// Text that is not the Western name of a legal move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{0}` is not a legal move in Western notation here (expected like P-7f, Bx2b+, S*5e, G6i-5h)"
)]
pub struct WesternMoveError(pub String);

/// Reads a Western move in `pos`: the short form [`move_name`] writes, or with the origin always
/// given (`P7g-7f`).
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, WesternMoveError> {
    let t = text.trim();
    pos.legal_moves()
        .iter()
        .copied()
        .find(|&m| write(pos, m, false) == t || write(pos, m, true) == t)
        .ok_or_else(|| WesternMoveError(text.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        let mut pos = Position::startpos();
        for usi in ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"] {
            let m: Move = usi.parse().unwrap();
            for &o in pos.legal_moves().iter() {
                assert_eq!(parse_move(&pos, &move_name(&pos, o)), Ok(o));
            }
            pos.do_move(m);
        }
        let pos = Position::from_sfen("4k4/9/9/4S4/9/9/9/9/4K4 b - 1").unwrap();
        assert_eq!(move_name(&pos, "5d5c".parse().unwrap()), "S-5c=");
        assert_eq!(parse_move(&pos, "S5d-5c+"), Ok("5d5c+".parse().unwrap()));
        assert!(parse_move(&pos, "S-5c").is_err());
    }
}
