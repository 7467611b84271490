//! CSA record files (versions 2.2 and 3.0), the format of the Computer Shogi Association.
//!
//! Read: `V` version lines, `N+`/`N-` player names, `$KEY:value` headers (CSA 3.0's `$TIME+:`
//! and `$TIME-:` too; a name or header value runs to the end of its line, commas included), the
//! initial position as `PI` (optionally with pieces removed, `PI82HI`), as `P1`..`P9` rows, and
//! `P+`/`P-` piece lists (`P+00KI` for a hand piece, `P-00AL` for all the remaining pieces), the
//! side to move (`+`/`-`), moves (`+7776FU`) with `T` times, special moves (`%TORYO`, ...),
//! comments (`'`; `'*` comments belong to the move before them) and several statements on one
//! line separated by `,`. A file with no position at all (将棋ウォーズ's CSA exports) starts
//! from the standard position, with a warning.

use koma_core::{Color, Hand, Move, Piece, PieceKind, Position, STARTPOS_SFEN, Setup, Square};

use crate::bod::to_position;
use crate::builder::Builder;
use crate::error::excerpt;
use crate::{EndKind, ErrorKind, GameEnd, MoveTime, Read, ReadError, Record, Warning, WarningKind};

/// CSA's two-letter piece names, in [`PieceKind`] order.
pub(crate) const NAMES: [&str; 14] = [
    "FU", "KY", "KE", "GI", "KA", "HI", "KI", "OU", "TO", "NY", "NK", "NG", "UM", "RY",
];

/// Headers with a name of their own in CSA, and the KIF key a [`Record`] keeps them under.
const HEADER_KEYS: [(&str, &str); 6] = [
    ("EVENT", "棋戦"),
    ("SITE", "場所"),
    ("START_TIME", "開始日時"),
    ("END_TIME", "終了日時"),
    ("TIME_LIMIT", "持ち時間"),
    ("OPENING", "戦型"),
];

/// Other CSA 3.0 headers, kept under their own names without a warning.
const OTHER_KNOWN: [&str; 6] = ["TIME", "TIME+", "TIME-", "MAX_MOVES", "JISHOGI", "NOTE"];

pub(crate) fn piece_kind(name: &str) -> Option<PieceKind> {
    NAMES
        .iter()
        .position(|&n| n == name)
        .and_then(PieceKind::from_index)
}

fn color_of(c: char) -> Option<Color> {
    match c {
        '+' => Some(Color::Black),
        '-' => Some(Color::White),
        _ => None,
    }
}

fn sign(color: Color) -> char {
    match color {
        Color::Black => '+',
        Color::White => '-',
    }
}

/// Reads a CSA record (the first game of a multi-game file; [`crate::input::Records`] reads
/// them all).
///
/// ```
/// let read = koma_record::csa::read("PI\n+\n+7776FU,T5\n-3334FU\n%TORYO,'* -5000 resign\n").unwrap();
/// let main = read.record.main();
/// assert_eq!(main.moves()[0].time().unwrap().used_ms, 5000);
/// assert_eq!(main.end().unwrap().kind, koma_record::EndKind::Resign);
/// assert_eq!(main.end().unwrap().comments, [" -5000 resign"]);
/// ```
pub fn read(text: &str) -> Result<Read, ReadError> {
    let mut warnings = Vec::new();
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end_matches('\r')));
    let record = read_head(&mut lines, &mut warnings)?;
    let mut b = Builder::new(record);
    for (no, line) in lines {
        if line.trim() == "/" {
            warnings.push(Warning::new(no, WarningKind::MultiGame));
            break;
        }
        read_move_line(&mut b, no, line).map_err(|e| e.with_partial(b.record().clone()))?;
    }
    Ok(Read {
        record: b.finish(),
        warnings,
    })
}

/// The text of `line` from character column `col` (from 1) to its end.
fn from_column(line: &str, col: usize) -> &str {
    let at = line
        .char_indices()
        .nth(col - 1)
        .map_or(line.len(), |(i, _)| i);
    &line[at..]
}

/// A comment (`'…`, `'*…`) starting at statement column `col` of `line`: its text, which runs
/// to the end of the line, commas included.
fn comment(line: &str, col: usize, stmt: &str) -> Option<String> {
    stmt.strip_prefix('\'')?;
    let c = from_column(line, col).strip_prefix('\'')?;
    Some(c.strip_prefix('*').unwrap_or(c).to_owned())
}

/// Reads the headers, the comments and the initial position, up to the side-to-move line.
fn read_head<'a>(
    lines: &mut impl Iterator<Item = (usize, &'a str)>,
    warnings: &mut Vec<Warning>,
) -> Result<Record, ReadError> {
    let mut headers = Vec::new();
    let mut comments = Vec::new();
    let mut board = PositionText::default();
    let mut side = None;
    let mut last_line = 0;
    for (no, line) in lines.by_ref() {
        last_line = no;
        for (col, stmt) in statements(line) {
            if let Some(c) = comment(line, col, stmt) {
                comments.push(c);
                break;
            }
            match stmt.chars().next() {
                None | Some('V') => {}
                // A name or a header value runs to the end of the line: real files have
                // commas in them (`$EVENT:第54期王位戦, 第4局`).
                Some('N') => {
                    headers.push(read_name(no, col, from_column(line, col).trim())?);
                    break;
                }
                Some('$') => {
                    let stmt = from_column(line, col).trim();
                    headers.push(read_header(no, col, stmt, warnings)?);
                    break;
                }
                Some('P') => board.statement(no, col, stmt)?,
                Some('+' | '-') if stmt.len() == 1 => side = color_of(stmt.as_bytes()[0] as char),
                _ => {
                    return Err(ReadError::syntax(
                        no,
                        col,
                        stmt,
                        "a header (V, N, $), a position line (P), the side to move (+ or -) or a comment (')",
                    ));
                }
            }
        }
        if side.is_some() {
            break;
        }
    }
    let Some(side) = side else {
        return Err(ReadError::syntax(
            last_line.max(1),
            1,
            "",
            "the side to move (`+` or `-`) after the position",
        ));
    };
    if !board.has_board() {
        warnings.push(Warning::new(last_line, WarningKind::NoInitialPosition));
    }
    let setup = board.finish(side)?;
    let mut record = Record::new(to_position(&setup, last_line)?);
    // A handicap start gets its KIF name, which KIF and KI2 write instead of a diagram.
    if let Some(name) = crate::handicap::name(&record.initial).filter(|n| *n != "平手") {
        headers.push(("手合割".to_owned(), name.to_owned()));
    }
    record.headers = headers;
    record.comments = comments;
    Ok(record)
}

/// `N+name` or `N-name`: the player's name under 先手 or 後手.
fn read_name(no: usize, col: usize, stmt: &str) -> Result<(String, String), ReadError> {
    let color = stmt[1..].chars().next().and_then(color_of);
    let Some(color) = color else {
        return Err(ReadError::syntax(no, col, stmt, "`N+name` or `N-name`"));
    };
    let key = match color {
        Color::Black => "先手",
        Color::White => "後手",
    };
    Ok((key.to_owned(), stmt[2..].to_owned()))
}

/// `$KEY:value`, under its KIF name when it has one.
fn read_header(
    no: usize,
    col: usize,
    stmt: &str,
    warnings: &mut Vec<Warning>,
) -> Result<(String, String), ReadError> {
    let (key, value) = stmt[1..].split_once(':').unwrap_or(("", ""));
    if !is_header_key(key) {
        return Err(ReadError::syntax(
            no,
            col,
            stmt,
            "a header like `$EVENT:name` (key of A-Z, 0-9 and _)",
        ));
    }
    let known = HEADER_KEYS
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, kif)| *kif);
    if known.is_none() && !OTHER_KNOWN.contains(&key) {
        warnings.push(Warning::new(
            no,
            WarningKind::UnknownHeader {
                key: excerpt(&format!("${key}")),
            },
        ));
    }
    Ok((known.unwrap_or(key).to_owned(), value.to_owned()))
}

/// Reads a line after the side to move: moves, times, special moves and comments, several to a
/// line when separated by commas (a comment runs to the end of the line).
fn read_move_line(b: &mut Builder, no: usize, line: &str) -> Result<(), ReadError> {
    for (col, stmt) in statements(line) {
        if let Some(c) = comment(line, col, stmt) {
            b.comment(c);
            return Ok(());
        }
        match stmt.chars().next() {
            None => {}
            Some('+' | '-') => read_move(b, no, col, stmt)?,
            Some('T') => {
                let ms = parse_seconds(&stmt[1..]).ok_or_else(|| {
                    ReadError::syntax(no, col, stmt, "a time like `T12` or `T1.5`")
                })?;
                b.set_time(MoveTime {
                    used_ms: ms,
                    total_ms: None,
                });
            }
            Some('%') => {
                let Some(kind) = EndKind::from_csa(stmt) else {
                    return Err(ReadError::syntax(
                        no,
                        col,
                        stmt,
                        "a special move like %TORYO, %CHUDAN, %SENNICHITE, %TSUMI",
                    ));
                };
                b.end(GameEnd::new(kind));
            }
            _ => {
                return Err(ReadError::syntax(
                    no,
                    col,
                    stmt,
                    "a move like `+7776FU`, a time `T5`, a special move `%TORYO` or a comment `'…`",
                ));
            }
        }
    }
    Ok(())
}

/// Reads and plays one move statement.
fn read_move(b: &mut Builder, no: usize, col: usize, stmt: &str) -> Result<(), ReadError> {
    if b.ended() {
        return Err(ReadError::syntax(
            no,
            col,
            stmt,
            "nothing after the special move that ended the game",
        ));
    }
    match parse_move(b.pos(), stmt).map_err(|e| ReadError::syntax(no, col, stmt, e))? {
        Some(m) => {
            b.push(m, None);
            Ok(())
        }
        None => {
            let kind = ErrorKind::IllegalMove {
                ply: b.pos().ply(),
                sfen: b.pos().to_sfen(),
            };
            Err(ReadError::new(no, col, stmt, kind))
        }
    }
}

/// The `,`-separated statements of a line with their columns (from 1).
fn statements(line: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut col = 1;
    line.split(',').map(move |s| {
        let at = col + s.chars().take_while(|c| c.is_whitespace()).count();
        col += s.chars().count() + 1;
        (at, s.trim())
    })
}

/// Seconds like `12` or `1.5`, in milliseconds.
fn parse_seconds(text: &str) -> Option<u64> {
    let (whole, frac) = text.split_once('.').unwrap_or((text, ""));
    if whole.is_empty()
        || !whole.bytes().all(|b| b.is_ascii_digit())
        || !frac.bytes().all(|b| b.is_ascii_digit())
        || frac.len() > 3
    {
        return None;
    }
    let ms = format!("{frac:0<3}").parse::<u64>().ok()?;
    whole
        .parse::<u64>()
        .ok()?
        .checked_mul(1000)?
        .checked_add(ms)
}

/// Reads a CSA move (`+7776FU`, `-0055KA`): `Ok(Some(move))` if legal in `pos`, `Ok(None)` if
/// well formed but illegal, `Err(expected)` if malformed.
fn parse_move(pos: &Position, stmt: &str) -> Result<Option<Move>, &'static str> {
    const EXPECTED: &str = "a move like `+7776FU` (sign, from, to, piece after the move)";
    let b = stmt.as_bytes();
    if b.len() != 7 || !b[1..5].iter().all(u8::is_ascii_digit) {
        return Err(EXPECTED);
    }
    let color = color_of(b[0] as char).ok_or(EXPECTED)?;
    let kind =
        piece_kind(&stmt[5..7]).ok_or("a piece name: FU KY KE GI KI KA HI OU TO NY NK NG UM RY")?;
    let to =
        Square::from_file_rank(b[3] - b'0', b[4] - b'0').ok_or("a destination square 11..99")?;
    if color != pos.side_to_move() {
        return Ok(None);
    }
    let m = if &b[1..3] == b"00" {
        Move::drop(kind, to)
    } else {
        let from = Square::from_file_rank(b[1] - b'0', b[2] - b'0')
            .ok_or("an origin square 11..99 or 00 for a drop")?;
        let Some(piece) = pos.piece_at(from) else {
            return Ok(None);
        };
        let promote = piece.kind() != kind;
        if promote && piece.kind().promote() != Some(kind) {
            return Ok(None);
        }
        Move::new(from, to, promote)
    };
    Ok(m.filter(|&m| pos.is_legal(m)))
}

/// The initial position as the P lines describe it.
#[derive(Default)]
struct PositionText {
    board: Option<[Option<Piece>; 81]>,
    rows: [bool; 9],
    hands: [Hand; 2],
    rest: Option<Color>,
    first_line: usize,
}

impl PositionText {
    fn board(&mut self) -> &mut [Option<Piece>; 81] {
        self.board.get_or_insert([None; 81])
    }

    /// One `P` statement: the handicap form `PI`, a rank `P1`..`P9` or the pieces of a colour.
    fn statement(&mut self, no: usize, col: usize, stmt: &str) -> Result<(), ReadError> {
        if self.first_line == 0 {
            self.first_line = no;
        }
        let chars: Vec<char> = stmt.chars().collect();
        match chars.get(1) {
            Some('I') => self.handicap(no, col, stmt, &chars),
            Some(&d @ '1'..='9') => self.row(no, col, d as u8 - b'0', &chars),
            Some(&s @ ('+' | '-')) => {
                let color = color_of(s).unwrap_or(Color::Black);
                self.pieces(no, col, color, &chars)
            }
            _ => Err(ReadError::syntax(no, col, stmt, "PI, P1..P9, P+ or P-")),
        }
    }

    /// `PI` with the pieces taken off the standard start (`PI82HI22KA`).
    fn handicap(
        &mut self,
        no: usize,
        col: usize,
        stmt: &str,
        chars: &[char],
    ) -> Result<(), ReadError> {
        let start =
            Setup::from_sfen(STARTPOS_SFEN).map_err(|_| ReadError::syntax(no, col, stmt, "PI"))?;
        *self.board() = start.board;
        for (i, item) in chars[2..].chunks(4).enumerate() {
            let text: String = item.iter().collect();
            let c = col + 2 + 4 * i;
            let sq = text
                .get(..2)
                .and_then(square)
                .ok_or_else(|| ReadError::syntax(no, c, &text, "a square like 82 to take off"))?;
            let kind = text.get(2..4).and_then(piece_kind);
            let there = self.board()[sq.index()];
            if kind.is_none() || there.map(Piece::kind) != kind {
                return Err(ReadError::syntax(
                    no,
                    c,
                    &text,
                    "a square and the piece standing there, like 82HI",
                ));
            }
            self.board()[sq.index()] = None;
        }
        Ok(())
    }

    /// `P1`..`P9`: one rank, nine cells from file 9 to file 1.
    fn row(&mut self, no: usize, col: usize, rank: u8, chars: &[char]) -> Result<(), ReadError> {
        for file in (1..=9u8).rev() {
            let i = 2 + 3 * (9 - file as usize);
            let cell: String = chars
                .get(i..i + 3)
                .map_or_else(String::new, |c| c.iter().collect());
            let c = col + i;
            let piece = match cell.trim_end() {
                " *" | "" if cell.len() <= 3 => None,
                _ => {
                    let color = cell.chars().next().and_then(color_of);
                    let kind = cell.get(1..3).and_then(piece_kind);
                    match (color, kind) {
                        (Some(color), Some(kind)) => Some(Piece::new(color, kind)),
                        _ => {
                            return Err(ReadError::syntax(
                                no,
                                c,
                                &cell,
                                "a cell like `+FU`, `-KY` or ` * `",
                            ));
                        }
                    }
                }
            };
            let sq = Square::from_file_rank(file, rank).unwrap_or_else(|| unreachable!());
            self.board()[sq.index()] = piece;
        }
        if chars.len() > 29 {
            return Err(ReadError::syntax(
                no,
                col + 29,
                &chars[29..].iter().collect::<String>(),
                "the end of the row after nine cells",
            ));
        }
        self.rows[rank as usize - 1] = true;
        Ok(())
    }

    /// `P+`/`P-`: pieces of one colour on squares or in hand (`00`), or all the rest (`00AL`).
    fn pieces(
        &mut self,
        no: usize,
        col: usize,
        color: Color,
        chars: &[char],
    ) -> Result<(), ReadError> {
        for (i, item) in chars[2..].chunks(4).enumerate() {
            let text: String = item.iter().collect();
            let c = col + 2 + 4 * i;
            let bad = || {
                ReadError::syntax(
                    no,
                    c,
                    &text,
                    "a piece like 00KI (in hand), 55FU (on the board) or 00AL (all the rest)",
                )
            };
            if text == "00AL" {
                self.rest = Some(color);
                continue;
            }
            let kind = text.get(2..4).and_then(piece_kind).ok_or_else(bad)?;
            if text.starts_with("00") {
                let hand = &mut self.hands[color.index()];
                if !kind.is_hand_kind() {
                    return Err(bad());
                }
                *hand = hand
                    .with_count(kind, hand.count(kind) + 1)
                    .ok_or_else(bad)?;
            } else {
                let sq = text.get(..2).and_then(square).ok_or_else(bad)?;
                self.board()[sq.index()] = Some(Piece::new(color, kind));
            }
        }
        Ok(())
    }

    /// Whether any statement put pieces on the board (`PI`, `P1`..`P9`, `P+55FU`).
    fn has_board(&self) -> bool {
        self.board.is_some()
    }

    /// The setup the statements describe; without a board statement, the standard start (as
    /// files that leave the position out mean it).
    fn finish(self, side: Color) -> Result<Setup, ReadError> {
        let has_rows = self.rows.iter().any(|&r| r);
        if has_rows && !self.rows.iter().all(|&r| r) {
            let missing = self.rows.iter().position(|&r| !r).unwrap_or(0) + 1;
            return Err(ReadError::syntax(
                self.first_line,
                1,
                &format!("P{missing}"),
                "all nine rows P1..P9",
            ));
        }
        let mut setup = match self.board {
            Some(board) => {
                let mut s = Setup::empty();
                s.board = board;
                s
            }
            None => Setup::from_sfen(STARTPOS_SFEN)
                .unwrap_or_else(|_| unreachable!("the standard start reads")),
        };
        setup.hands = self.hands;
        setup.side_to_move = side;
        if let Some(color) = self.rest {
            // Every piece of the set not on the board or in the other hand, kings excepted.
            for kind in PieceKind::HAND {
                let used = setup
                    .board
                    .iter()
                    .flatten()
                    .filter(|p| p.kind().unpromote() == kind)
                    .count() as u8
                    + setup.hands[color.flip().index()].count(kind);
                let have = setup.hands[color.index()];
                let n = kind.set_count().saturating_sub(used);
                setup.hands[color.index()] = have.with_count(kind, n).unwrap_or(have);
            }
        }
        Ok(setup)
    }
}

/// Whether a CSA header key is well formed: upper-case ASCII letters, digits and `_`, with an
/// optional `+` or `-` at the end for a player's own value (CSA 3.0's `$TIME+:`).
pub(crate) fn is_header_key(key: &str) -> bool {
    let word = key.strip_suffix(['+', '-']).unwrap_or(key);
    !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_uppercase() || b == b'_' || b.is_ascii_digit())
}

fn square(text: &str) -> Option<Square> {
    let b = text.as_bytes();
    (b.len() == 2 && b[0].is_ascii_digit() && b[1].is_ascii_digit()).then_some(())?;
    Square::from_file_rank(b[0] - b'0', b[1] - b'0')
}

/// Writes a record as CSA 2.2 (the main line; CSA has no variations).
///
/// Headers with a CSA name are written as `N+`, `N-` or `$KEY:`; other headers whose key is an
/// upper-case ASCII word as `$KEY:value`; the rest as comments (`'key：value`). 手合割 is left
/// out: the initial position says it.
pub fn write(record: &Record) -> String {
    let mut out = String::from("V2.2\n");
    for (key, value) in &record.headers {
        match key.as_str() {
            // The initial position says it.
            "手合割" => {}
            "先手" | "下手" => out.push_str(&format!("N+{value}\n")),
            "後手" | "上手" => out.push_str(&format!("N-{value}\n")),
            _ => match HEADER_KEYS.iter().find(|(_, kif)| kif == key) {
                Some((csa, _)) => out.push_str(&format!("${csa}:{value}\n")),
                None if is_header_key(key) => out.push_str(&format!("${key}:{value}\n")),
                None => out.push_str(&format!("'{key}：{value}\n")),
            },
        }
    }
    for c in &record.comments {
        out.push_str(&format!("'*{c}\n"));
    }
    write_position(&mut out, &record.initial);
    let mut pos = record.initial.clone();
    for m in &record.main.moves {
        let piece =
            m.mv.drop_kind()
                .or_else(|| m.mv.from().and_then(|f| pos.piece_at(f)).map(Piece::kind));
        let kind = piece.map_or(PieceKind::Pawn, |k| {
            if m.mv.is_promotion() {
                k.promote().unwrap_or(k)
            } else {
                k
            }
        });
        let from =
            m.mv.from()
                .map_or_else(|| "00".to_owned(), |f| format!("{}{}", f.file(), f.rank()));
        out.push_str(&format!(
            "{}{from}{}{}{}\n",
            sign(pos.side_to_move()),
            m.mv.to().file(),
            m.mv.to().rank(),
            NAMES[kind.index()]
        ));
        write_time_and_comments(&mut out, m.time, &m.comments);
        pos.do_move(m.mv);
    }
    if let Some(end) = &record.main.end {
        out.push_str(end.kind.csa(pos.side_to_move()));
        out.push('\n');
        write_time_and_comments(&mut out, end.time, &end.comments);
    }
    out
}

fn write_time_and_comments(out: &mut String, time: Option<MoveTime>, comments: &[String]) {
    if let Some(t) = time {
        match t.used_ms % 1000 {
            0 => out.push_str(&format!("T{}\n", t.used_ms / 1000)),
            ms => out.push_str(&format!(
                "T{}.{}\n",
                t.used_ms / 1000,
                format!("{ms:03}").trim_end_matches('0')
            )),
        }
    }
    for c in comments {
        out.push_str(&format!("'*{c}\n"));
    }
}

/// `PI` for the standard start, otherwise nine rows and the hands, then the side to move.
fn write_position(out: &mut String, pos: &Position) {
    let setup = pos.to_setup();
    let mut start = setup.clone();
    start.side_to_move = Color::Black;
    start.ply = 1;
    if Setup::from_sfen(STARTPOS_SFEN).is_ok_and(|s| s == start) {
        out.push_str("PI\n");
    } else {
        for rank in 1..=9u8 {
            out.push_str(&format!("P{rank}"));
            for file in (1..=9u8).rev() {
                let sq = Square::from_file_rank(file, rank).unwrap_or_else(|| unreachable!());
                match setup.piece_at(sq) {
                    None => out.push_str(" * "),
                    Some(p) => {
                        out.push_str(&format!("{}{}", sign(p.color()), NAMES[p.kind().index()]))
                    }
                }
            }
            out.push('\n');
        }
        for color in Color::ALL {
            let hand = setup.hands[color.index()];
            if hand.is_empty() {
                continue;
            }
            out.push_str(&format!("P{}", sign(color)));
            for kind in PieceKind::HAND.iter().rev() {
                for _ in 0..hand.count(*kind) {
                    out.push_str(&format!("00{}", NAMES[kind.index()]));
                }
            }
            out.push('\n');
        }
    }
    out.push(sign(setup.side_to_move));
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "V2.2
N+Black player
N-White player
$EVENT:Test match
$START_TIME:2026/11/22 10:00:00
$MYSTERY:kept
'opening comment
PI
+
+7776FU,T12
-3334FU,T1.5
'*a comment on 3334FU
+8822UM
T3
-3122GI
%TORYO
";

    #[test]
    fn reads_a_game() {
        let read = read(GAME).unwrap();
        let rec = &read.record;
        assert_eq!(rec.header("先手"), Some("Black player"));
        assert_eq!(rec.header("棋戦"), Some("Test match"));
        assert_eq!(rec.header("MYSTERY"), Some("kept"));
        assert_eq!(read.warnings.len(), 1);
        assert_eq!(read.warnings[0].line, 6);
        assert_eq!(rec.comments, vec!["opening comment"]);
        let usi: Vec<String> = rec.moves().map(|m| m.to_string()).collect();
        assert_eq!(usi, ["7g7f", "3c3d", "8h2b+", "3a2b"]);
        assert_eq!(rec.main.moves[1].time.unwrap().used_ms, 1500);
        assert_eq!(rec.main.moves[1].comments, vec!["a comment on 3334FU"]);
        assert_eq!(rec.main.moves[2].time.unwrap().used_ms, 3000);
        assert_eq!(rec.main.end.as_ref().unwrap().kind, EndKind::Resign);
    }

    #[test]
    fn round_trip() {
        let rec = read(GAME).unwrap().record;
        let text = write(&rec);
        assert_eq!(read(&text).unwrap().record, rec, "{text}");
    }

    #[test]
    fn tsume_with_all_the_rest() {
        let text = "P1 *  *  *  *  *  *  * -KE-KY\nP2 *  *  *  *  *  *  * -OU * \nP3 *  *  *  *  *  *  *  *  * \nP4 *  *  *  *  *  *  * -FU-FU\nP5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \nP7 *  *  *  *  *  *  *  *  * \nP8 *  *  *  *  *  *  *  *  * \nP9 *  *  *  *  *  *  *  *  * \nP+00KI00GI\nP-00AL\n+\n";
        let rec = read(text).unwrap().record;
        assert_eq!(
            rec.initial.to_sfen(),
            "7nl/7k1/9/7pp/9/9/9/9/9 b GS2r2b3g3s3n3l16p 1"
        );
        assert_eq!(read(&write(&rec)).unwrap().record, rec);
    }

    #[test]
    fn handicap_with_pi() {
        let rec = read("PI82HI22KA\n-\n-5142OU\n").unwrap().record;
        assert_eq!(
            rec.initial.to_sfen(),
            "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
        );
        assert_eq!(rec.main.moves.len(), 1);
        let text = write(&rec);
        assert!(text.contains("P2 *  *  *  *  *  *  *  *  * \nP3"), "{text}");
        assert!(text.contains("\n-\n-5142OU\n"), "{text}");
    }

    #[test]
    fn errors() {
        let e = read("PI\n+\n+7776FU\n-3334FX\n").unwrap_err();
        assert_eq!((e.line, e.column, e.text.as_str()), (4, 1, "-3334FX"));
        assert!(e.to_string().contains("expected a piece name"), "{e}");
        // A malformed move keeps the moves before it, as an illegal one does.
        assert_eq!(e.kept_moves(), 1);
        let e = read("PI\n+\n+7776FU\n-3334FU\n+7776FU\n").unwrap_err();
        assert!(matches!(e.kind, ErrorKind::IllegalMove { ply: 3, .. }));
        assert_eq!(e.line, 5);
        assert_eq!(e.partial.unwrap().main.moves.len(), 2);
        let e = read("$Bad key:x\nPI\n+\n").unwrap_err();
        assert!(e.to_string().contains("key of A-Z"), "{e}");
        let e = read("PI\n").unwrap_err();
        assert!(e.to_string().contains("side to move"));
        let e = read("P1 *  *\n+\n").unwrap_err();
        assert!(e.to_string().contains("nine rows"), "{e}");
        let e = read("PIあ\n+\n").unwrap_err();
        assert_eq!((e.line, e.column), (1, 3));
        let e = read("PI55KY\n+\n").unwrap_err();
        assert_eq!((e.line, e.column), (1, 3));
    }
}
