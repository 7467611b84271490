//! USI `position` strings (`position startpos moves 7g7f 3c3d`) and SFEN lines as records.

use koma_core::{Move, Position};

use crate::bod::to_position;
use crate::{ErrorKind, Read, ReadError, Record, RecordMove};

/// Reads the first non-empty line as a USI position (`position` optional; `startpos`,
/// `sfen <4 fields>` or a bare SFEN; then `moves ...`). Other non-empty lines are an error.
///
/// ```
/// let rec = koma_record::usi::read("position startpos moves 7g7f 3c3d").unwrap().record;
/// assert_eq!(rec.main.moves.len(), 2);
/// assert_eq!(koma_record::usi::write(&rec), "position startpos moves 7g7f 3c3d\n");
/// ```
pub fn read(text: &str) -> Result<Read, ReadError> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let Some((i, line)) = lines.next() else {
        return Err(ReadError::syntax(
            1,
            1,
            "",
            "a USI position like `position startpos moves 7g7f`",
        ));
    };
    if let Some((j, extra)) = lines.next() {
        return Err(ReadError::syntax(
            j + 1,
            1,
            extra.trim(),
            "one position per file (use --from sfen for one problem per line)",
        ));
    }
    read_line(i + 1, line).map(|record| Read {
        record,
        warnings: Vec::new(),
    })
}

/// Reads every non-empty line as a separate position (a file of problems, one SFEN per line);
/// each result carries its line number.
pub fn read_lines(text: &str) -> Vec<Result<Record, ReadError>> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| read_line(i + 1, l))
        .collect()
}

/// Reads one USI position line.
pub fn read_line(no: usize, line: &str) -> Result<Record, ReadError> {
    // Words with their columns (from 1).
    let mut words = Vec::new();
    for (i, c) in line.char_indices() {
        if !c.is_whitespace() && (i == 0 || line[..i].ends_with(char::is_whitespace)) {
            let w: &str = line[i..].split(char::is_whitespace).next().unwrap_or("");
            words.push((line[..i].chars().count() + 1, w));
        }
    }
    let mut k = 0;
    if words.first().map(|w| w.1) == Some("position") {
        k += 1;
    }
    let (start_col, start) = words.get(k).copied().unwrap_or((1, ""));
    let moves_at = words
        .iter()
        .position(|w| w.1 == "moves")
        .unwrap_or(words.len());
    let initial = match start {
        "startpos" if moves_at == k + 1 => Position::startpos(),
        _ => {
            let from = if start == "sfen" { k + 1 } else { k };
            let sfen: Vec<&str> = words[from.min(moves_at)..moves_at]
                .iter()
                .map(|w| w.1)
                .collect();
            if sfen.is_empty() {
                return Err(ReadError::syntax(
                    no,
                    start_col,
                    start,
                    "`startpos`, `sfen <board> <side> <hand> <ply>` or a bare SFEN",
                ));
            }
            let setup = koma_core::Setup::from_sfen(&sfen.join(" ")).map_err(|e| {
                ReadError::syntax(no, start_col, &sfen.join(" "), format!("SFEN ({e})"))
            })?;
            to_position(&setup, no).map_err(|mut e| {
                e.column = start_col;
                e
            })?
        }
    };
    let mut record = Record::new(initial);
    let mut pos = record.initial.clone();
    for &(c, w) in words.iter().skip(moves_at + 1) {
        let m: Move = w
            .parse()
            .map_err(|_| ReadError::syntax(no, c, w, "a USI move like 7g7f, 8h2b+ or P*5e"))?;
        if !pos.play(m) {
            let kind = ErrorKind::IllegalMove {
                ply: pos.ply(),
                sfen: pos.to_sfen(),
            };
            return Err(ReadError {
                line: no,
                column: c,
                text: w.to_owned(),
                kind,
                partial: Some(Box::new(record)),
            });
        }
        record.main.moves.push(RecordMove::new(m));
    }
    Ok(record)
}

/// The main line as a USI `position` command, ending with a newline.
pub fn write(record: &Record) -> String {
    let start = if record.initial == Position::startpos() {
        "startpos".to_owned()
    } else {
        format!("sfen {}", record.initial.to_sfen())
    };
    let mut out = format!("position {start}");
    if !record.main.moves.is_empty() {
        out.push_str(" moves");
        for m in record.moves() {
            out.push_str(&format!(" {m}"));
        }
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
        let lines = read_lines("8k/9/9/9/9/9/9/9/8K b - 1\n\nbad\n");
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[1].as_ref().unwrap_err().line, 3);
    }
}
