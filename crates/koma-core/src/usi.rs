//! The USI `position` command: `startpos` or `sfen ...`, then optional `moves ...`.

use crate::{FromSfenError, Move, ParseMoveError, Position};

/// Why a USI `position` string could not be applied.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UsiPositionError {
    /// Neither `startpos` nor `sfen` where the position should start.
    #[error("expected `startpos` or `sfen <board> <side> <hand> <ply>`, found `{0}`")]
    BadStart(String),
    /// The SFEN part is not a legal position.
    #[error("in the SFEN: {0}")]
    Sfen(#[from] FromSfenError),
    /// Text after the position that is not `moves ...`.
    #[error("expected `moves` after the position, found `{0}`")]
    ExpectedMoves(String),
    /// A move is not USI notation.
    #[error("move {index}: {source}")]
    BadMove {
        /// 1-based index in the move list.
        index: usize,
        /// The notation problem.
        source: ParseMoveError,
    },
    /// A move is well formed but not legal in the position it is played in. The position
    /// before it is kept.
    #[error("move {index} `{text}` is illegal in {sfen}")]
    IllegalMove {
        /// 1-based index in the move list.
        index: usize,
        /// The move as written.
        text: String,
        /// The position it was played in.
        sfen: String,
    },
}

/// Applies a USI position description, with or without the leading `position` word:
/// `startpos`, `sfen <4 fields>`, either followed by `moves m1 m2 ...`. A bare SFEN
/// (without the `sfen` word) is accepted too.
///
/// ```
/// use koma_core::usi::parse_position;
/// let pos = parse_position("position startpos moves 7g7f 3c3d").unwrap();
/// assert_eq!(pos.ply(), 3);
/// let err = parse_position("startpos moves 7g7f 7g7f").unwrap_err();
/// assert!(err.to_string().starts_with("move 2 `7g7f` is illegal"));
/// ```
pub fn parse_position(text: &str) -> Result<Position, UsiPositionError> {
    let mut words = text.split_whitespace().peekable();
    if words.peek() == Some(&"position") {
        words.next();
    }
    let mut pos = match words.peek().copied() {
        Some("startpos") => {
            words.next();
            Position::startpos()
        }
        Some("sfen") => {
            words.next();
            let sfen: Vec<&str> = words.by_ref().take_while(|w| *w != "moves").collect();
            return finish(Position::from_sfen(&sfen.join(" "))?, words);
        }
        Some(w) if w.contains('/') => {
            let sfen: Vec<&str> = words.by_ref().take_while(|w| *w != "moves").collect();
            return finish(Position::from_sfen(&sfen.join(" "))?, words);
        }
        other => return Err(UsiPositionError::BadStart(other.unwrap_or("").to_owned())),
    };
    match words.next() {
        None => return Ok(pos),
        Some("moves") => {}
        Some(w) => return Err(UsiPositionError::ExpectedMoves(w.to_owned())),
    }
    apply_moves(&mut pos, words)?;
    Ok(pos)
}

fn finish<'a>(
    mut pos: Position,
    moves: impl Iterator<Item = &'a str>,
) -> Result<Position, UsiPositionError> {
    apply_moves(&mut pos, moves)?;
    Ok(pos)
}

/// Plays USI moves in order on `pos`. On the first bad or illegal move it stops and returns the
/// error; the moves before it stay played.
pub fn apply_moves<'a>(
    pos: &mut Position,
    moves: impl IntoIterator<Item = &'a str>,
) -> Result<(), UsiPositionError> {
    for (i, text) in moves.into_iter().enumerate() {
        let m: Move = text.parse().map_err(|source| UsiPositionError::BadMove {
            index: i + 1,
            source,
        })?;
        if !pos.play(m) {
            return Err(UsiPositionError::IllegalMove {
                index: i + 1,
                text: text.to_owned(),
                sfen: pos.to_sfen(),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_accepted() {
        let a = parse_position("startpos moves 7g7f").unwrap();
        let b = parse_position("position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f").unwrap();
        let c = parse_position(
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f",
        )
        .unwrap();
        assert_eq!(a, b);
        assert_eq!(b, c);
    }

    #[test]
    fn errors() {
        assert!(matches!(
            parse_position(""),
            Err(UsiPositionError::BadStart(_))
        ));
        assert!(matches!(
            parse_position("startpos 7g7f"),
            Err(UsiPositionError::ExpectedMoves(_))
        ));
        assert!(matches!(
            parse_position("startpos moves 7g7x"),
            Err(UsiPositionError::BadMove { index: 1, .. })
        ));
        assert!(matches!(
            parse_position("sfen 9/9 b - 1"),
            Err(UsiPositionError::Sfen(_))
        ));
    }
}
