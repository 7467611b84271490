//! KIF records (`.kif` in Shift-JIS, `.kifu` in UTF-8; this module works on decoded text, see
//! [`crate::encoding`]).
//!
//! Read: header lines (`開始日時：…`, `手合割：香落ち`, `先手：…`), a BOD diagram instead of or
//! besides 手合割 (tsume diagrams with `後手の持駒：残り全部` included), numbered move lines
//! (`   1 ７六歩(77)   ( 0:16/00:00:16)`, `同　歩(76)`, `５五角打`, `成`, `不成`), comments (`*`),
//! end lines (投了, 詰み, 千日手, ...) and variations (`変化：N手`). A file holding only a BOD
//! diagram reads as a record without moves.

use std::iter::Peekable;

use koma_core::{Color, Position};

use crate::bod::{self, BodReader, split_key, to_position};
use crate::builder::{Builder, walk_variations};
use crate::ending::{read_summary, summary};
use crate::error::excerpt;
use crate::japanese::{self, Notation};
use crate::{
    EndKind, ErrorKind, GameEnd, Line, MoveTime, Read, ReadError, Record, Warning, handicap,
};

/// Header keys KIF files commonly use; others are kept with a warning.
const KNOWN_KEYS: [&str; 36] = [
    "開始日時",
    "終了日時",
    "対局日",
    "棋戦",
    "戦型",
    "持ち時間",
    "消費時間",
    "場所",
    "掲載",
    "備考",
    "先手",
    "後手",
    "先手省略名",
    "後手省略名",
    "上手",
    "下手",
    "手合割",
    "表題",
    "作品番号",
    "作品名",
    "作者",
    "発表誌",
    "発表年月",
    "出典",
    "完全性",
    "分類",
    "受賞",
    "手数",
    "記録係",
    "解説",
    "秒読み",
    "対局ID",
    "レーティング",
    "先手のレーティング",
    "後手のレーティング",
    "思考時間",
];

/// What comes before the moves in KIF and KI2: headers, comments and the initial position.
pub(crate) struct Head {
    pub record: Record,
    pub warnings: Vec<Warning>,
}

/// Reads header lines, comments and a BOD diagram up to the first line `is_move_line` accepts
/// (left unread).
pub(crate) fn read_head<'a, I>(
    lines: &mut Peekable<I>,
    is_move_line: impl Fn(&str) -> bool,
) -> Result<Head, ReadError>
where
    I: Iterator<Item = (usize, &'a str)>,
{
    let mut headers: Vec<(String, String, usize)> = Vec::new();
    let mut comments = Vec::new();
    let mut warnings = Vec::new();
    let mut bod = BodReader::default();
    let mut last = 0;
    while let Some(&(no, line)) = lines.peek() {
        if is_move_line(line) {
            break;
        }
        lines.next();
        last = no;
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        if let Some(c) = t.strip_prefix('*') {
            comments.push(c.to_owned());
            continue;
        }
        if t.starts_with('&') {
            warnings.push(Warning::new(
                no,
                format!("bookmark `{}` skipped", excerpt(t)),
            ));
            continue;
        }
        if bod.accept(no, line)? {
            continue;
        }
        match split_key(t) {
            Some((key, value)) if !key.is_empty() => {
                if !KNOWN_KEYS.contains(&key) {
                    warnings.push(Warning::new(
                        no,
                        format!("unknown header `{}` kept as is", excerpt(key)),
                    ));
                }
                headers.push((key.to_owned(), value.to_owned(), no));
            }
            _ => {
                return Err(ReadError::syntax(
                    no,
                    1,
                    t,
                    "a header line `key：value`, a BOD diagram line, a comment `*…` or the first move",
                ));
            }
        }
    }
    let diagram = match bod.finish(last)? {
        Some(setup) => Some(to_position(&setup, last)?),
        None => None,
    };
    let initial = initial_position(&mut headers, diagram, &mut warnings)?;
    let mut record = Record::new(initial);
    record.headers = headers.into_iter().map(|(k, v, _)| (k, v)).collect();
    record.comments = comments;
    Ok(Head { record, warnings })
}

/// The initial position from the diagram, else from the 手合割 header (平手 without either).
/// Of several 手合割 headers one is kept: if they disagree, the one the diagram shows (else the
/// first), with a warning.
fn initial_position(
    headers: &mut Vec<(String, String, usize)>,
    diagram: Option<Position>,
    warnings: &mut Vec<Warning>,
) -> Result<Position, ReadError> {
    let named: Vec<(String, usize)> = headers
        .iter()
        .filter(|(k, _, _)| k == "手合割")
        .map(|(_, v, no)| (v.clone(), *no))
        .collect();
    let chosen = match named.as_slice() {
        [] => None,
        [first, rest @ ..] => {
            let shown = diagram.as_ref().and_then(|d| {
                named
                    .iter()
                    .find(|(name, _)| handicap::position(name).as_ref() == Some(d))
            });
            let chosen = shown.unwrap_or(first).clone();
            if rest.iter().any(|(name, _)| *name != first.0) {
                let all: Vec<&str> = named.iter().map(|(n, _)| n.as_str()).collect();
                let why = if shown.is_some() {
                    "the one the board diagram shows"
                } else {
                    "the first"
                };
                warnings.push(Warning::new(
                    rest[0].1,
                    format!(
                        "手合割 given {} times ({}); kept {}, {why}",
                        named.len(),
                        excerpt(&all.join(", ")),
                        excerpt(&chosen.0)
                    ),
                ));
            }
            Some(chosen)
        }
    };
    if let Some((name, no)) = &chosen {
        let mut kept = false;
        headers.retain(|(k, v, n)| {
            let keep = k != "手合割" || (!kept && v == name && n == no);
            kept |= k == "手合割" && keep;
            keep
        });
    }
    if let Some(pos) = diagram {
        return Ok(pos);
    }
    let Some((name, no)) = chosen else {
        return Ok(Position::startpos());
    };
    handicap::position(&name).ok_or_else(|| {
        let col = "手合割：".chars().count() + 1;
        ReadError::syntax(
            no,
            col,
            &name,
            "a known 手合割 (平手, 香落ち, 角落ち, 飛車落ち, 二枚落ち, ...) or a BOD diagram",
        )
    })
}

/// Writes the headers as they are, then a BOD diagram of the initial position unless the first
/// 手合割 header names it (or there is none and the start is 平手), then the initial comments.
pub(crate) fn write_head(out: &mut String, record: &Record) {
    for (k, v) in &record.headers {
        out.push_str(&format!("{k}：{v}\n"));
    }
    let named = record
        .headers
        .iter()
        .find(|(k, _)| k == "手合割")
        .map(|(_, v)| handicap::position(v));
    let diagram = match named {
        Some(Some(pos)) => pos != record.initial,
        Some(None) => true,
        None => record.initial != Position::startpos(),
    };
    if diagram {
        out.push_str(&bod::write(&record.initial));
    }
    for c in &record.comments {
        out.push_str(&format!("*{c}\n"));
    }
}

fn is_move_line(line: &str) -> bool {
    let t = line.trim_start();
    t.starts_with("手数----")
        || t.starts_with("変化")
        || (t.starts_with(|c: char| c.is_ascii_digit()) && !t.contains('：'))
}

/// Reads a KIF record (or a BOD diagram alone).
///
/// ```
/// let text = "手合割：平手\n先手：A\n後手：B\n手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:03/00:00:03)\n   2 投了\n";
/// let read = koma_record::kif::read(text).unwrap();
/// assert_eq!(read.record.main().moves()[0].mv().to_string(), "7g7f");
/// assert_eq!(read.record.main().end().unwrap().kind, koma_record::EndKind::Resign);
/// ```
pub fn read(text: &str) -> Result<Read, ReadError> {
    read_with(text, is_move_line, read_move_line)
}

/// The KIF and KI2 reading loop: the head up to the first line `is_move_line` accepts, then each
/// line through `read_line`. On an error the record read so far goes with it.
pub(crate) fn read_with(
    text: &str,
    is_move_line: impl Fn(&str) -> bool,
    mut read_line: impl FnMut(&mut Builder, usize, &str, &mut Vec<Warning>) -> Result<(), ReadError>,
) -> Result<Read, ReadError> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end_matches('\r')))
        .peekable();
    let Head {
        record,
        mut warnings,
    } = read_head(&mut lines, is_move_line)?;
    let mut b = Builder::new(record);
    for (no, line) in lines {
        read_line(&mut b, no, line, &mut warnings)
            .map_err(|e| e.with_partial(b.record().clone()))?;
    }
    Ok(Read {
        record: b.finish(),
        warnings,
    })
}

/// Reads `変化：N手`: starts the variation, or says why it cannot.
pub(crate) fn read_variation(b: &mut Builder, no: usize, t: &str) -> Option<Result<(), ReadError>> {
    let rest = t.strip_prefix("変化")?;
    let n = rest
        .trim_start_matches(['：', ':'])
        .trim_end_matches('手')
        .trim();
    Some(match n.parse::<u32>() {
        Ok(n) if b.start_variation(n) => Ok(()),
        Ok(_) => Err(ReadError::syntax(
            no,
            1,
            t,
            "a variation at a move number of a line read before",
        )),
        Err(_) => Err(ReadError::syntax(no, 1, t, "a variation like `変化：5手`")),
    })
}

/// The lines KIF and KI2 share among their moves: `*` comments, `&` bookmarks (skipped with a
/// warning) and the start of a variation (`変化：N手`). `None` if `t` is none of them.
pub(crate) fn read_shared_line(
    b: &mut Builder,
    no: usize,
    t: &str,
    warnings: &mut Vec<Warning>,
) -> Option<Result<(), ReadError>> {
    if let Some(c) = t.strip_prefix('*') {
        b.comment(c.to_owned());
        return Some(Ok(()));
    }
    if t.starts_with('&') {
        warnings.push(Warning::new(
            no,
            format!("bookmark `{}` skipped", excerpt(t)),
        ));
        return Some(Ok(()));
    }
    read_variation(b, no, t)
}

fn read_move_line(
    b: &mut Builder,
    no: usize,
    line: &str,
    warnings: &mut Vec<Warning>,
) -> Result<(), ReadError> {
    let t = line.trim();
    if t.is_empty() || t.starts_with('#') || t.starts_with("手数----") {
        return Ok(());
    }
    if let Some(r) = read_shared_line(b, no, t, warnings) {
        return r;
    }
    let indent = line.chars().take_while(|c| c.is_whitespace()).count();
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return read_other_line(b, no, indent, t);
    }
    let number: u32 = t[..digits]
        .parse()
        .map_err(|_| ReadError::syntax(no, indent + 1, &t[..digits], "a move number"))?;
    let ply = b.pos().ply();
    if number != ply {
        return Err(ReadError::syntax(
            no,
            indent + 1,
            &t[..digits],
            format!("move number {ply}"),
        ));
    }
    let body = t[digits..].trim_start_matches([' ', '　']);
    let col = indent + t.chars().count() - body.chars().count() + 1;
    if b.ended() {
        return Err(ReadError::syntax(
            no,
            col,
            body,
            "no move after the end of the line (or `変化：N手`)",
        ));
    }
    read_move_body(b, no, col, body)
}

/// A line among the moves that is neither a move nor a comment: a header written after the
/// moves (終了日時 in some files), or the closing `まで…` line, which ends the line if no end
/// word did.
fn read_other_line(b: &mut Builder, no: usize, indent: usize, t: &str) -> Result<(), ReadError> {
    if let Some(rest) = t.strip_prefix("まで") {
        if !b.ended()
            && let Some(kind) = read_summary(rest, b.pos().side_to_move(), b.pos().is_checkmate())
        {
            b.end(GameEnd::new(kind));
        }
        return Ok(());
    }
    let plain_header = !is_move_line(t) && matches!(BodReader::default().accept(no, t), Ok(false));
    if let Some((key, value)) = split_key(t).filter(|(k, _)| !k.is_empty() && plain_header) {
        // Only lines that read back as headers where the writer puts headers are headers here.
        b.header(key, value);
        return Ok(());
    }
    Err(ReadError::syntax(
        no,
        indent + 1,
        t,
        "a move line like `   1 ７六歩(77)`, a comment `*…` or `変化：N手`",
    ))
}

/// Reads what follows a move number (at column `col`): a move or an end word (投了, 封じ手, ...),
/// then an optional time.
fn read_move_body(b: &mut Builder, no: usize, col: usize, body: &str) -> Result<(), ReadError> {
    let word_len = body
        .find(|c: char| c.is_whitespace() || c == '(')
        .unwrap_or(body.len());
    let end = EndKind::from_kif(&body[..word_len]);
    let (used, mv) = match end {
        Some(_) => (body[..word_len].chars().count(), None),
        None => {
            let (mt, used) = japanese::parse_move_text(body)
                .map_err(|(c, e)| ReadError::syntax(no, col + c - 1, body, e))?;
            let mv = resolve_move(b.pos(), &mt).map_err(|kind| {
                let text: String = body.chars().take(used).collect();
                ReadError::new(no, col, &text, kind)
            })?;
            (used, Some(mv))
        }
    };
    let tail: String = body.chars().skip(used).collect();
    let time_col = col + used + tail.chars().take_while(|c| c.is_whitespace()).count();
    let time = parse_time_field(tail.trim())
        .map_err(|e| ReadError::syntax(no, time_col, tail.trim(), e))?;
    let time = time.map(|t| b.normalize_time(t));
    match (mv, end) {
        (Some(m), _) => b.push(m, time),
        (None, Some(kind)) => b.end(GameEnd {
            kind,
            time,
            comments: Vec::new(),
        }),
        (None, None) => {}
    }
    Ok(())
}

/// The one legal move a Japanese move names in `pos`, or why there is none.
pub(crate) fn resolve_move(
    pos: &Position,
    mt: &japanese::MoveText,
) -> Result<koma_core::Move, ErrorKind> {
    let ply = pos.ply();
    japanese::resolve(pos, mt).map_err(|fits| match fits.len() {
        0 => ErrorKind::IllegalMove {
            ply,
            sfen: pos.to_sfen(),
        },
        _ => ErrorKind::Ambiguous {
            ply,
            candidates: fits,
        },
    })
}

/// Reads what follows a move: nothing, `( 0:16/00:00:16)`, and an optional `+` (the move has
/// variations).
fn parse_time_field(tail: &str) -> Result<Option<MoveTime>, &'static str> {
    const EXPECTED: &str = "a time like `( 0:16/00:00:16)` or the end of the line";
    let tail = tail.trim_end_matches('+').trim();
    if tail.is_empty() {
        return Ok(None);
    }
    let inner = tail
        .strip_prefix('(')
        .and_then(|t| t.strip_suffix(')'))
        .ok_or(EXPECTED)?;
    let (used, total) = inner.split_once('/').unwrap_or((inner, ""));
    let used = clock_ms(used.trim()).ok_or(EXPECTED)?;
    let total = match total.trim() {
        "" => None,
        t => Some(clock_ms(t).ok_or(EXPECTED)?),
    };
    Ok(Some(MoveTime {
        used_ms: used,
        total_ms: total,
    }))
}

/// `m:ss` or `h:mm:ss` in milliseconds.
fn clock_ms(text: &str) -> Option<u64> {
    let mut total = 0u64;
    let parts: Vec<&str> = text.split(':').collect();
    if parts.len() < 2 || parts.len() > 3 {
        return None;
    }
    for p in parts {
        if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) || p.len() > 6 {
            return None;
        }
        total = total * 60 + p.parse::<u64>().ok()?;
    }
    Some(total * 1000)
}

fn clock(used_ms: u64, total_ms: u64) -> String {
    let (u, t) = (used_ms / 1000, total_ms / 1000);
    format!(
        "({:>2}:{:02}/{:02}:{:02}:{:02})",
        u / 60,
        u % 60,
        t / 3600,
        t / 60 % 60,
        t % 60
    )
}

/// Width of text in terminal columns (full-width characters count two).
pub(crate) fn width(text: &str) -> usize {
    text.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum()
}

/// Writes a record as KIF text (encode it with [`crate::encoding`] for a `.kif` file).
///
/// ```
/// let mut rec = koma_record::Record::new(koma_core::Position::startpos());
/// rec.push("7g7f".parse().unwrap()).unwrap();
/// let text = koma_record::kif::write(&rec);
/// assert!(text.starts_with("手数----指手---------消費時間--\n"));
/// assert!(text.contains("   1 ７六歩(77)"));
/// ```
pub fn write(record: &Record) -> String {
    let mut out = String::new();
    write_head(&mut out, record);
    out.push_str("手数----指手---------消費時間--\n");
    let mut pos = record.initial.clone();
    write_line(
        &mut out,
        &record.main,
        &mut pos,
        [0; 2],
        record.initial.ply(),
    );
    walk_variations(record, |line, pos, totals| {
        out.push_str(&format!("\n変化：{}手\n", pos.ply()));
        write_line(
            &mut out,
            line,
            &mut pos.clone(),
            totals,
            record.initial.ply(),
        );
    });
    out
}

fn write_line(out: &mut String, line: &Line, pos: &mut Position, mut totals: [u64; 2], first: u32) {
    let time_text = |totals: &mut [u64; 2], side: Color, t: Option<MoveTime>| match t {
        None => String::new(),
        Some(t) => {
            totals[side.index()] = totals[side.index()].saturating_add(t.used_ms);
            clock(t.used_ms, t.total_ms.unwrap_or(totals[side.index()]))
        }
    };
    for m in &line.moves {
        let text = japanese::write_move(pos, m.mv, Notation::Kif);
        let time = time_text(&mut totals, pos.side_to_move(), m.time);
        let plus = if m.variations.is_empty() { "" } else { "+" };
        let pad = if time.is_empty() && plus.is_empty() {
            String::new()
        } else {
            " ".repeat(14usize.saturating_sub(width(&text)))
        };
        out.push_str(&format!("{:>4} {text}{pad}{time}{plus}\n", pos.ply()));
        for c in &m.comments {
            out.push_str(&format!("*{c}\n"));
        }
        pos.do_move(m.mv);
    }
    if let Some(end) = &line.end {
        let word = end.kind.kif(pos.side_to_move());
        let time = time_text(&mut totals, pos.side_to_move(), end.time);
        let pad = if time.is_empty() {
            String::new()
        } else {
            " ".repeat(14usize.saturating_sub(width(word)))
        };
        out.push_str(&format!("{:>4} {word}{pad}{time}\n", pos.ply()));
        for c in &end.comments {
            out.push_str(&format!("*{c}\n"));
        }
        out.push_str(&summary(end.kind, pos.ply() - first, pos.side_to_move()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "# ---- test ----
開始日時：2026/11/22 10:00:00
棋戦：テスト
手合割：平手
先手：先手さん
後手：後手さん
謎の項目：そのまま
*対局前のコメント
手数----指手---------消費時間--
   1 ７六歩(77)   ( 0:12/00:00:12)
*初手のコメント
   2 ３四歩(33)   ( 0:05/00:00:05)
   3 ２二角成(88)   ( 1:00/00:01:12)+
   4 同　銀(31)   ( 0:02/00:00:07)
   5 ４五角打   ( 0:30/00:01:42)
   6 投了   ( 0:10/00:00:17)
まで5手で先手の勝ち

変化：3手
   3 ２六歩(27)   ( 0:03/00:00:15)
   4 ８四歩(83)
";

    #[test]
    fn reads_a_game() {
        let read = read(GAME).unwrap();
        let rec = &read.record;
        assert_eq!(rec.header("棋戦"), Some("テスト"));
        assert_eq!(rec.header("手合割"), Some("平手"));
        assert_eq!(rec.header("謎の項目"), Some("そのまま"));
        assert_eq!(read.warnings.len(), 1);
        assert_eq!(rec.comments, ["対局前のコメント"]);
        let usi: Vec<String> = rec.moves().map(|m| m.to_string()).collect();
        assert_eq!(usi, ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]);
        assert_eq!(rec.main.moves[0].comments, ["初手のコメント"]);
        // A total that is the sum of the mover's times is not kept (the writer recomputes it).
        assert_eq!(
            rec.main.moves[2].time,
            Some(MoveTime {
                used_ms: 60_000,
                total_ms: None
            })
        );
        let v = &rec.main.moves[2].variations;
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].moves[0].mv.to_string(), "2g2f");
        assert_eq!(v[0].moves[1].mv.to_string(), "8c8d");
        assert_eq!(rec.main.end.as_ref().unwrap().kind, EndKind::Resign);
    }

    #[test]
    fn round_trip() {
        let rec = read(GAME).unwrap().record;
        let text = write(&rec);
        let back = read(&text).unwrap().record;
        assert_eq!(back, rec, "{text}");
        assert!(
            text.contains("   3 ２二角成(88)  ( 1:00/00:01:12)+\n"),
            "{text}"
        );
    }

    #[test]
    fn totals_kept_only_when_they_say_something() {
        // A game joined at 1 hour: the total is kept. A time without total reads and writes back.
        let text = "   1 ７六歩(77)   ( 0:05/01:00:05)\n   2 ３四歩(33)   ( 6:34)\n";
        let rec = read(text).unwrap().record;
        assert_eq!(rec.main.moves[0].time.unwrap().total_ms, Some(3_605_000));
        assert_eq!(
            rec.main.moves[1].time.unwrap(),
            MoveTime {
                used_ms: 394_000,
                total_ms: None
            }
        );
        let written = write(&rec);
        assert!(written.contains("( 0:05/01:00:05)\n"), "{written}");
        assert!(written.contains("( 6:34/00:06:34)\n"), "{written}");
        assert_eq!(read(&written).unwrap().record, rec);
    }

    #[test]
    fn handicap_start() {
        let text =
            "手合割：香落ち\n手数----指手---------消費時間--\n   1 ５二玉(51)\n   2 ７六歩(77)\n";
        let rec = read(text).unwrap().record;
        assert_eq!(
            rec.initial.to_sfen(),
            "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
        );
        assert_eq!(rec.main.moves.len(), 2);
        assert!(write(&rec).starts_with("手合割：香落ち\n"));
        let e = read("手合割：百枚落ち\n").unwrap_err();
        assert_eq!((e.line, e.column, e.text.as_str()), (1, 5, "百枚落ち"));
    }

    #[test]
    fn illegal_move_keeps_the_good_part() {
        let text =
            "手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ７六歩(77)\n";
        let e = read(text).unwrap_err();
        assert_eq!((e.line, e.column), (4, 6));
        assert!(matches!(e.kind, ErrorKind::IllegalMove { ply: 3, .. }));
        assert_eq!(e.partial.unwrap().main.moves.len(), 2);
        let e = read("   1 ７六歩(77)\n   3 ３四歩(33)\n").unwrap_err();
        assert!(e.to_string().contains("expected move number 2"), "{e}");
        let e = read("   1 ７六歩(77)  (0:1x)\n").unwrap_err();
        assert_eq!(e.column, 15);
        let e = read("   1 ７六と(77)\n").unwrap_err();
        assert!(matches!(e.kind, ErrorKind::IllegalMove { .. }));
        let e = read("   1 ７六X(77)\n").unwrap_err();
        assert_eq!(e.column, 8);
    }
}
