//! USI `position` strings (`position startpos moves 7g7f 3c3d`) and SFEN lines as records.
//!
//! A line is read by koma-core's own reading of `position` strings
//! ([`koma_core::usi::split_position`]), so a position string means the same to every koma
//! command. A record may end in one of the game-end tokens GUIs write after the moves
//! (`resign`, `win`, `draw`, `rep_draw`, `rep_win`, `rep_lose`, `rep_sup`, `rep_inf`,
//! `timeout`, `break`; see [`EndKind::from_usi`]).

use koma_core::usi::{PositionCommandError, UsiPositionError, split_position};
use koma_core::{FromSfenError, Move, Position, SfenError};

use crate::bod::check_ply;
use crate::builder::Builder;
use crate::error::excerpt;
use crate::{EndKind, ErrorKind, GameEnd, Read, ReadError, Record, Warning, WarningKind};

/// Reads the first non-empty line as a USI position (`position` optional; `startpos`,
/// `sfen <4 fields>` or a bare SFEN; then `moves ...`, and an optional end token). Another
/// non-empty line is an error: a text of many records is read with [`crate::input::Records`].
///
/// ```
/// let rec = koma_record::usi::read("position startpos moves 7g7f 3c3d resign").unwrap().record;
/// assert_eq!(rec.main().moves().len(), 2);
/// assert_eq!(rec.main().end().unwrap().kind, koma_record::EndKind::Resign);
/// assert_eq!(koma_record::usi::write(&rec), "position startpos moves 7g7f 3c3d resign\n");
/// ```
pub fn read(text: &str) -> Result<Read, ReadError> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let Some((i, line)) = lines.next() else {
        return Err(ReadError::empty());
    };
    if let Some((j, extra)) = lines.next() {
        return Err(ReadError::syntax(
            j + 1,
            1,
            extra.trim(),
            "one position (this text holds several)",
        ));
    }
    read_line(i + 1, line)
}

/// Reads one USI position line (line number `no`, for errors). On a bad or illegal move, the
/// error keeps the moves before it.
///
/// An SFEN without its move number (`… b - moves 7g7f`, as some programs write positions)
/// starts at move 1, with a warning.
///
/// ```
/// let read = koma_record::usi::read_line(1, "sfen 8k/9/9/9/9/9/9/9/8K b G moves G*1b").unwrap();
/// assert_eq!(read.record.initial().ply(), 1);
/// assert_eq!(read.record.main().moves().len(), 1);
/// assert_eq!(read.warnings[0].kind, koma_record::WarningKind::MissingMoveNumber);
/// assert!(read.warnings[0].to_string().contains("move number"));
/// ```
pub fn read_line(no: usize, line: &str) -> Result<Read, ReadError> {
    match split_position(line) {
        Err(e) if is_missing_move_number(&e) => {
            let (patched, column) = with_move_number(line);
            let warning = Warning::new(no, WarningKind::MissingMoveNumber);
            // Columns after the inserted ` 1` are two more in the patched line than in `line`.
            read_command(no, &patched)
                .map_err(|mut e| {
                    if e.column > column {
                        e.column -= 2;
                        e.text = excerpt(&line[byte_at(line, e.column)..]);
                    }
                    e
                })
                .map(|record| Read {
                    record,
                    warnings: vec![warning],
                })
        }
        _ => read_command(no, line).map(|record| Read {
            record,
            warnings: Vec::new(),
        }),
    }
}

/// Whether koma-core refused a position only for want of the SFEN's move number.
fn is_missing_move_number(e: &PositionCommandError) -> bool {
    matches!(
        e.error,
        UsiPositionError::Sfen(FromSfenError::Sfen(SfenError::MissingField {
            field: "move number"
        }))
    )
}

/// `line` with ` 1` after the SFEN (before `moves`, or at the end), and the character column
/// the insertion follows.
fn with_move_number(line: &str) -> (String, usize) {
    let body = line.trim_end();
    let at = body
        .match_indices("moves")
        .map(|(i, _)| i)
        .find(|&i| {
            let before = body[..i].chars().next_back();
            let after = body[i + "moves".len()..].chars().next();
            before.is_some_and(char::is_whitespace) && after.is_none_or(char::is_whitespace)
        })
        .map_or(body.len(), |i| body[..i].trim_end().len());
    let column = body[..at].chars().count();
    (format!("{} 1{}", &body[..at], &body[at..]), column)
}

/// Reads a `position` line whose SFEN, if any, is whole.
fn read_command(no: usize, line: &str) -> Result<Record, ReadError> {
    let cmd = split_position(line).map_err(|e| position_error(no, line, e))?;
    check_ply(&cmd.start, no)?;
    let mut b = Builder::new(Record::new(cmd.start));
    let fail = |e: ReadError, b: &Builder| Err(e.with_partial(b.record().clone()));
    for (column, word) in cmd.moves {
        // Only an error needs the text from the column on (finding it is not free).
        let here = || &line[byte_at(line, column)..];
        if b.ended() {
            let e = ReadError::syntax(no, column, here(), "nothing after the end token");
            return fail(e, &b);
        }
        if let Some(kind) = EndKind::from_usi(word) {
            b.end(GameEnd::new(kind));
            continue;
        }
        let m: Move = match word.parse() {
            Ok(m) => m,
            Err(_) => {
                let expected = "a USI move like 7g7f, 8h2b+ or P*5e, or an end token like resign";
                return fail(ReadError::syntax(no, column, here(), expected), &b);
            }
        };
        if !b.pos().is_legal(m) {
            let kind = ErrorKind::IllegalMove {
                ply: b.pos().ply(),
                sfen: b.pos().to_sfen(),
            };
            return fail(ReadError::new(no, column, here(), kind), &b);
        }
        b.push(m, None);
    }
    Ok(b.finish())
}

/// The byte offset of a character column (from 1) of `line`.
fn byte_at(line: &str, column: usize) -> usize {
    line.char_indices()
        .nth(column - 1)
        .map_or(line.len(), |(i, _)| i)
}

/// koma-core's error for a `position` string as a read error at its column.
fn position_error(no: usize, line: &str, e: PositionCommandError) -> ReadError {
    let here = &line[byte_at(line, e.column)..];
    let kind = match e.error {
        UsiPositionError::Sfen(FromSfenError::Sfen(s)) => ErrorKind::Sfen(s),
        UsiPositionError::Sfen(FromSfenError::Illegal(p)) => ErrorKind::IllegalPosition(p),
        UsiPositionError::BadStart(_) => ErrorKind::Syntax {
            expected: "`startpos`, `sfen <board> <side> <hand> <ply>` or a bare SFEN".to_owned(),
        },
        other => ErrorKind::Syntax {
            expected: other.to_string().trim_start_matches("expected ").to_owned(),
        },
    };
    ReadError::new(no, e.column, here, kind)
}

/// The main line as a USI `position` command, ending with a newline, and after the moves the
/// game-end token GUIs write there (`resign`, `rep_draw`, …) when the line's end has one
/// (see [`EndKind::usi`]); an end without a token is left out (see
/// [`crate::Format::losses`]). [`read`] takes the token back.
pub fn write(record: &Record) -> String {
    let start = if record.initial == Position::startpos() {
        "startpos".to_owned()
    } else {
        format!("sfen {}", record.initial.to_sfen())
    };
    let mut out = String::with_capacity(16 + 6 * record.main.moves.len());
    out.push_str("position ");
    out.push_str(&start);
    let token = record.main.end.as_ref().and_then(|e| e.kind.usi());
    if !record.main.moves.is_empty() || token.is_some() {
        out.push_str(" moves");
        for m in record.moves() {
            out.push(' ');
            out.push_str(&m.to_string());
        }
    }
    if let Some(token) = token {
        out.push(' ');
        out.push_str(token);
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms() {
        let a = read("position startpos moves 7g7f").unwrap().record;
        let b =
            read("sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f")
                .unwrap()
                .record;
        let c =
            read("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f\n\n")
                .unwrap()
                .record;
        assert_eq!(a, b);
        assert_eq!(b, c);
        let rec = read("8k/9/9/9/9/9/9/9/8K w - 5").unwrap().record;
        assert_eq!(write(&rec), "position sfen 8k/9/9/9/9/9/9/9/8K w - 5\n");
    }

    #[test]
    fn end_tokens() {
        for (token, kind) in [
            ("resign", EndKind::Resign),
            ("rep_draw", EndKind::Repetition),
            ("win", EndKind::DeclareWin),
            ("draw", EndKind::Draw),
            ("rep_sup", EndKind::SuperiorPosition),
            ("rep_inf", EndKind::InferiorPosition),
            ("rep_win", EndKind::IllegalWin),
            ("rep_lose", EndKind::IllegalMove),
            ("timeout", EndKind::TimeUp),
            ("break", EndKind::Interrupt),
        ] {
            let rec = read(&format!("startpos moves 7g7f 3c3d {token}"))
                .unwrap()
                .record;
            assert_eq!(rec.main.end.as_ref().map(|e| e.kind), Some(kind), "{token}");
            assert_eq!(rec.main.moves.len(), 2);
            // Written back with its token.
            let text = format!("position startpos moves 7g7f 3c3d {token}\n");
            assert_eq!(write(&rec), text);
        }
        // An end with no token is left out; an end right at the start keeps `moves`.
        let mut rec = read("startpos moves 7g7f").unwrap().record;
        rec.main.end = Some(GameEnd::new(EndKind::Mate));
        assert_eq!(write(&rec), "position startpos moves 7g7f\n");
        for text in [
            "position startpos moves resign\n",
            "position sfen 8k/9/9/9/9/9/9/9/8K w - 5 moves rep_draw\n",
        ] {
            let rec = read(text).unwrap().record;
            assert!(rec.main.end.is_some(), "{text}");
            assert_eq!(write(&rec), text);
        }
        let e = read("startpos moves 7g7f resign 3c3d").unwrap_err();
        assert_eq!((e.column, e.text.as_str()), (28, "3c3d"));
        assert_eq!(e.kept_moves(), 1);
    }

    #[test]
    fn errors() {
        let e = read("position startpos moves 7g7f 7g7f").unwrap_err();
        assert_eq!((e.line, e.column, e.text.as_str()), (1, 30, "7g7f"));
        assert_eq!(e.partial.unwrap().main.moves.len(), 1);
        let e = read("\nstartpos moves 7g7x").unwrap_err();
        assert_eq!((e.line, e.column), (2, 16));
        let e = read("sfen 9/9 b - 1").unwrap_err();
        assert_eq!(e.column, 1);
        assert!(read("").is_err());
        let e = read("8k/9/9/9/9/9/9/9/8K b - 4294967295 moves 1i2i").unwrap_err();
        assert!(e.to_string().contains("move number up to"), "{e}");
        assert!(read("startpos\nstartpos").is_err());
        // The same words as koma-core's reading of position strings.
        let e = read("startpos 7g7f").unwrap_err();
        assert_eq!(e.column, 10);
        assert!(
            e.to_string()
                .ends_with("expected `moves` after the position, found `7g7f`"),
            "{e}"
        );
    }
}
