//! KI2 records: the KIF header, then moves in Japanese notation only (`▲７六歩　△３四歩`),
//! disambiguated by the JSA words (右 左 直 上 寄 引 打), and a closing `まで…` line that says how
//! the game ended.

use koma_core::Color;

use crate::builder::{Builder, walk_variations};
use crate::ending::summary;
use crate::japanese::{self, Notation};
use crate::kif::{
    keep_note, read_closing_line, read_note, read_shared_line, read_with, resolve_move, width,
    write_head,
};
use crate::{ErrorKind, Line, Read, ReadError, Record, Warning};

const MARKS: [char; 6] = ['▲', '△', '☗', '☖', '▽', '▼'];

fn is_move_line(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with(MARKS) || t.starts_with("まで") || t.starts_with("変化")
}

/// Reads a KI2 record.
///
/// ```
/// let text = "先手：A\n後手：B\n▲７六歩    △３四歩    ▲２二角成  △同　銀\nまで4手で後手の勝ち\n";
/// let rec = koma_record::ki2::read(text).unwrap().record;
/// assert_eq!(rec.main().moves()[3].mv().to_string(), "3a2b");
/// assert_eq!(rec.main().end().unwrap().kind, koma_record::EndKind::Resign);
/// ```
pub fn read(text: &str) -> Result<Read, ReadError> {
    read_with(text, is_move_line, read_line)
}

fn read_line(
    b: &mut Builder,
    no: usize,
    line: &str,
    warnings: &mut Vec<Warning>,
) -> Result<(), ReadError> {
    let t = line.trim();
    if t.is_empty() || t.starts_with('#') {
        return Ok(());
    }
    if let Some(r) = read_shared_line(b, no, t, warnings) {
        return r;
    }
    if let Some(rest) = t.strip_prefix("まで") {
        return read_closing_line(b, no, rest, warnings);
    }
    if keep_note(b, no, t, warnings) {
        return Ok(());
    }
    let chars: Vec<char> = line.chars().collect();
    let mut i = 0;
    loop {
        while chars.get(i).is_some_and(|c| c.is_whitespace()) {
            i += 1;
        }
        if i >= chars.len() {
            return Ok(());
        }
        let rest: String = chars[i..].iter().collect();
        // A comment or bookmark after the moves of a line, as on a line of its own.
        if read_note(b, no, &rest, warnings) {
            return Ok(());
        }
        if !rest.starts_with(MARKS) {
            return Err(ReadError::syntax(
                no,
                i + 1,
                &rest,
                "a move starting with ▲ or △",
            ));
        }
        // A move after an illegal one: the illegal one was no foul the game ended with.
        b.settle_foul(None, warnings)?;
        if b.ended() {
            return Err(ReadError::syntax(
                no,
                i + 1,
                &rest,
                "no move after the end of the line (or `変化：N手`)",
            ));
        }
        let (mt, used) = japanese::parse_move_text(&rest)
            .map_err(|(c, e)| ReadError::syntax(no, i + c, &rest, e))?;
        let text: String = rest.chars().take(used).collect();
        let ply = b.pos().ply();
        let mark_color = match rest.chars().next() {
            Some('▲' | '☗' | '▼') => Color::Black,
            _ => Color::White,
        };
        if mark_color != b.pos().side_to_move() {
            let kind = ErrorKind::IllegalMove {
                ply,
                sfen: b.pos().to_sfen(),
            };
            return Err(ReadError::new(no, i + 1, &text, kind));
        }
        let m = match resolve_move(b.pos(), &mt) {
            Ok(m) => m,
            Err(kind) => {
                let e = ReadError::new(no, i + 1, &text, kind);
                // The last move of its line may be the foul the result line names.
                let after: String = chars[i + used..].iter().collect();
                let after = after.trim_start();
                let last_on_line = after.is_empty() || after.starts_with(['*', '&']);
                if last_on_line && matches!(e.kind, ErrorKind::IllegalMove { .. }) {
                    b.hold_foul(e, text);
                    read_note(b, no, after, warnings);
                    return Ok(());
                }
                return Err(e);
            }
        };
        b.push(m, None);
        i += used;
    }
}

/// Writes a record as KI2 text (times are not part of KI2 and are left out).
///
/// ```
/// let rec = koma_record::usi::read("startpos moves 7g7f 3c3d 8h2b+ 3a2b").unwrap().record;
/// let text = koma_record::ki2::write(&rec);
/// assert!(text.contains("▲７六歩    △３四歩    ▲２二角成  △同　銀"), "{text}");
/// ```
pub fn write(record: &Record) -> String {
    let mut out = String::new();
    write_head(&mut out, record);
    write_line(
        &mut out,
        &record.main,
        &mut record.initial.clone(),
        record.initial.ply(),
    );
    walk_variations(record, |line, pos, _| {
        out.push_str(&format!("\n変化：{}手\n", pos.ply()));
        write_line(&mut out, line, &mut pos.clone(), record.initial.ply());
    });
    out
}

fn write_line(out: &mut String, line: &Line, pos: &mut koma_core::Position, first: u32) {
    let mut on_line = 0;
    for m in &line.moves {
        if on_line > 0 {
            out.push_str("  ");
        }
        let text = japanese::write_move(pos, m.mv, Notation::Ki2);
        out.push_str(&text);
        on_line += 1;
        if on_line == 6 || !m.comments.is_empty() || m.bookmark.is_some() {
            out.push('\n');
            on_line = 0;
        } else {
            out.push_str(&" ".repeat(10usize.saturating_sub(width(&text))));
        }
        for c in &m.comments {
            out.push_str(&format!("*{c}\n"));
        }
        if let Some(name) = &m.bookmark {
            out.push_str(&format!("&{name}\n"));
        }
        pos.do_move(m.mv);
    }
    if on_line > 0 {
        out.truncate(out.trim_end_matches(' ').len());
        out.push('\n');
    }
    if let Some(end) = &line.end {
        out.push_str(&summary(end.kind, pos.ply() - first, pos.side_to_move()));
        for c in &end.comments {
            out.push_str(&format!("*{c}\n"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{EndKind, GameEnd};

    #[test]
    fn round_trip_with_variations_and_comments() {
        let text = "先手：甲\n後手：乙\n*はじめ\n▲７六歩    △３四歩    ▲２二角成\n*角交換\n△同　銀    ▲４五角打\nまで5手で先手の勝ち\n\n変化：3手\n▲２六歩    △８四歩\n";
        let rec = read(text).unwrap().record;
        assert_eq!(rec.comments, ["はじめ"]);
        assert_eq!(rec.main.moves[2].comments, ["角交換"]);
        assert_eq!(rec.main.moves.len(), 5);
        assert_eq!(rec.main.moves[2].variations[0].moves.len(), 2);
        let again = write(&rec);
        assert_eq!(read(&again).unwrap().record, rec, "{again}");
    }

    #[test]
    fn every_end_reads_back() {
        let rec0 = crate::usi::read("startpos moves 7g7f 3c3d").unwrap().record;
        for kind in EndKind::ALL {
            let mut rec = rec0.clone();
            rec.main.end = Some(GameEnd::new(kind));
            let back = read(&write(&rec)).unwrap().record;
            let expected = match kind {
                EndKind::IllegalAction(Color::Black) => EndKind::IllegalMove,
                EndKind::IllegalAction(Color::White) => EndKind::IllegalWin,
                // KIF and KI2 have no word for these: the nearest is 中断.
                EndKind::SuperiorPosition | EndKind::InferiorPosition => EndKind::Interrupt,
                k => k,
            };
            assert_eq!(back.main.end.unwrap().kind, expected, "{kind:?}");
        }
    }

    #[test]
    fn errors() {
        let e = read("▲７六歩 △３四歩 ▲５八金\n").unwrap_err();
        assert!(matches!(e.kind, ErrorKind::Ambiguous { ply: 3, .. }), "{e}");
        assert_eq!((e.line, e.column), (1, 11));
        assert_eq!(e.partial.unwrap().main.moves.len(), 2);
        let e = read("▲７六歩 ▲３四歩\n").unwrap_err();
        assert!(matches!(e.kind, ErrorKind::IllegalMove { ply: 2, .. }));
        let e = read("▲７六歩 xyz\n").unwrap_err();
        assert_eq!(e.column, 6);
        // A closing line the table of ends does not know is kept as a comment, with a warning.
        let read = read("▲７六歩\nまで1手で何か\n").unwrap();
        assert_eq!(read.warnings[0].line, 2);
        assert_eq!(read.record.main.moves[0].comments, ["まで1手で何か"]);
        assert!(read.record.main.end.is_none());
    }

    /// A comment or bookmark after the moves on a KI2 line is kept as if on the next line.
    #[test]
    fn inline_notes_after_moves() {
        let read = read("▲７六歩 △３四歩 *角道\n▲２六歩&しおり\n").unwrap();
        assert!(read.warnings.is_empty(), "{:?}", read.warnings);
        let moves = &read.record.main.moves;
        assert_eq!(moves.len(), 3);
        assert_eq!(moves[1].comments, ["角道"]);
        assert_eq!(moves[2].bookmark.as_deref(), Some("しおり"));
        assert_eq!(
            super::read(&write(&read.record)).unwrap().record,
            read.record
        );
    }
}
