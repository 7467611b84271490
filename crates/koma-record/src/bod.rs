//! Board diagrams: BOD (盤面図), the diagram KIF files, tsume problems and forum posts use, and a
//! plain ASCII diagram for terminals.
//!
//! ```text
//! 後手の持駒：なし
//!   ９ ８ ７ ６ ５ ４ ３ ２ １
//! +---------------------------+
//! |v香v桂v銀v金v玉v金v銀v桂v香|一
//! | ・v飛 ・ ・ ・ ・ ・v角 ・|二
//! ...
//! +---------------------------+
//! 先手の持駒：なし
//! ```

use koma_core::{Color, Hand, Piece, PieceKind, Position, Setup, Square};

use crate::japanese::{self, kanji_number, parse_kanji_number, parse_piece_name};
use crate::{ErrorKind, ReadError};

/// The order hands are written in: 飛 角 金 銀 桂 香 歩.
const HAND_ORDER: [PieceKind; 7] = PieceKind::HAND_WRITING_ORDER;

const FILE_HEADER: &str = "  ９ ８ ７ ６ ５ ４ ３ ２ １";
const BORDER: &str = "+---------------------------+";

/// A hand as BOD writes it: `飛　角　金二　`, or `なし`.
fn hand_text(hand: Hand) -> String {
    if hand.is_empty() {
        return "なし".to_owned();
    }
    let mut s = String::new();
    for kind in HAND_ORDER {
        let n = hand.count(kind);
        if n > 0 {
            s.push_str(kind.kanji());
            if n > 1 {
                s.push_str(&kanji_number(n));
            }
            s.push('　');
        }
    }
    s
}

/// The pieces that are neither on the board nor in `hand` of `color`'s opponent, kings excepted:
/// what 残り全部 ("all the rest") in a tsume diagram gives the defender.
fn rest_of_set(board: &[Option<Piece>; 81], other_hand: Hand) -> Hand {
    let mut hand = Hand::EMPTY;
    for kind in PieceKind::HAND {
        let on_board = board
            .iter()
            .flatten()
            .filter(|p| p.kind().unpromote() == kind)
            .count() as u8;
        let n = kind
            .set_count()
            .saturating_sub(on_board + other_hand.count(kind));
        hand = hand.with_count(kind, n).unwrap_or(hand);
    }
    hand
}

/// The BOD diagram of `pos`, ending with a newline. A mate problem's diagram (Black to move
/// without a king, White holding every other piece) writes White's hand as 残り全部. If `pos`
/// has a move history, the last line says which move led here (`手数＝3  ▲２二角成  まで`).
///
/// ```
/// use koma_record::bod;
/// let text = bod::write(&koma_core::Position::startpos());
/// assert!(text.starts_with("後手の持駒：なし\n"));
/// assert!(text.contains("|v香v桂v銀v金v玉v金v銀v桂v香|一\n"));
/// assert_eq!(bod::read(&text).unwrap(), koma_core::Position::startpos());
/// ```
pub fn write(pos: &Position) -> String {
    let setup = pos.to_setup();
    let mut out = String::with_capacity(800);
    let white = setup.hands[Color::White.index()];
    let black = setup.hands[Color::Black.index()];
    let tsume = pos.king(Color::Black).is_none()
        && !white.is_empty()
        && rest_of_set(&setup.board, black) == white;
    let white_text = if tsume {
        "残り全部".to_owned()
    } else {
        hand_text(white)
    };
    out.push_str(&format!(
        "後手の持駒：{white_text}\n{FILE_HEADER}\n{BORDER}\n"
    ));
    for rank in 1..=9u8 {
        out.push('|');
        for file in (1..=9u8).rev() {
            let sq = Square::from_file_rank(file, rank).unwrap_or_else(|| unreachable!());
            match setup.piece_at(sq) {
                None => out.push_str(" ・"),
                Some(p) => {
                    out.push(if p.color() == Color::White { 'v' } else { ' ' });
                    out.push(p.kind().kanji_short());
                }
            }
        }
        out.push('|');
        out.push_str(&kanji_number(rank));
        out.push('\n');
    }
    out.push_str(&format!("{BORDER}\n先手の持駒：{}\n", hand_text(black)));
    if setup.side_to_move == Color::White {
        out.push_str("後手番\n");
    }
    if let Some(last) = pos.last_move() {
        let mut before = pos.clone();
        before.undo_move();
        let name = japanese::move_name(&before, last);
        out.push_str(&format!(
            "手数＝{}  {name}  まで\n",
            pos.ply().saturating_sub(1)
        ));
    } else if pos.ply() > 1 {
        out.push_str(&format!("手数＝{}\n", pos.ply() - 1));
    }
    out
}

/// A plain ASCII diagram of `pos`: SFEN letters (uppercase Black, lowercase White, `+` for
/// promoted), files 9..1 left to right, ranks a..i top to bottom.
///
/// ```
/// let text = koma_record::bod::ascii(&koma_core::Position::startpos());
/// assert!(text.contains("|  l  n  s  g  k  g  s  n  l | a"));
/// ```
pub fn ascii(pos: &Position) -> String {
    let setup = pos.to_setup();
    let hand = |c: Color| {
        let h = setup.hands[c.index()];
        if h.is_empty() {
            return "-".to_owned();
        }
        let mut parts = Vec::new();
        for kind in HAND_ORDER {
            match h.count(kind) {
                0 => {}
                1 => parts.push(kind.sfen_letter().to_string()),
                n => parts.push(format!("{}{n}", kind.sfen_letter())),
            }
        }
        parts.join(" ")
    };
    let mut out = format!(
        "White hand: {}\n    9  8  7  6  5  4  3  2  1\n +{}+\n",
        hand(Color::White),
        "-".repeat(28)
    );
    for rank in 1..=9u8 {
        out.push_str(" |");
        for file in (1..=9u8).rev() {
            let sq = Square::from_file_rank(file, rank).unwrap_or_else(|| unreachable!());
            let cell = setup
                .piece_at(sq)
                .map_or_else(|| ".".to_owned(), Piece::sfen);
            out.push_str(&format!("{cell:>3}"));
        }
        out.push_str(&format!(" | {}\n", (b'a' + rank - 1) as char));
    }
    let side = match setup.side_to_move {
        Color::Black => "Black",
        Color::White => "White",
    };
    out.push_str(&format!(
        " +{}+\nBlack hand: {}\n{side} to move, move {}\n",
        "-".repeat(28),
        hand(Color::Black),
        setup.ply
    ));
    out
}

/// Reads a BOD diagram on its own (see [`BodReader`] for what it accepts) into a legal position.
pub fn read(text: &str) -> Result<Position, ReadError> {
    let mut reader = BodReader::default();
    let mut last = 0;
    for (i, line) in text.lines().enumerate() {
        last = i + 1;
        if !reader.accept(i + 1, line)? && !line.trim().is_empty() {
            return Err(ReadError::syntax(i + 1, 1, line, "a line of a BOD diagram"));
        }
    }
    match reader.finish(last)? {
        Some(setup) => to_position(&setup, last),
        None => Err(ReadError::syntax(
            last.max(1),
            1,
            "",
            "a BOD diagram (nine rows like `| ・v飛 ・ ...|二`)",
        )),
    }
}

/// The largest move number a record may start from, far from where counting moves could overflow.
const MAX_PLY: u32 = 1_000_000;

/// Validates a setup read from a record, reporting problems at `line`.
pub(crate) fn to_position(setup: &Setup, line: usize) -> Result<Position, ReadError> {
    if setup.ply > MAX_PLY {
        let expected = format!("a move number up to {MAX_PLY}");
        return Err(ReadError::syntax(line, 1, &setup.ply.to_string(), expected));
    }
    Position::from_setup(setup)
        .map_err(|e| ReadError::new(line, 1, &setup.to_sfen(), ErrorKind::IllegalPosition(e)))
}

/// Checks that a position read from a record starts at a move number records can count from.
pub(crate) fn check_ply(pos: &Position, line: usize) -> Result<(), ReadError> {
    if pos.ply() > MAX_PLY {
        let expected = format!("a move number up to {MAX_PLY}");
        return Err(ReadError::syntax(line, 1, &pos.ply().to_string(), expected));
    }
    Ok(())
}

/// Reads a BOD diagram line by line, as part of a KIF or KI2 file or on its own.
///
/// Accepts the hand lines (`後手の持駒：…`, `先手の持駒：…`, or 上手 / 下手 in handicap games, also
/// spelled `の持ち駒`, with `なし` and the tsume `残り全部`), the file numbers, the borders, the
/// nine rows, `後手番` / `先手番` (上手番 / 下手番) and `手数＝N`.
#[derive(Default)]
pub struct BodReader {
    rows: Vec<(usize, [Option<Piece>; 9])>,
    hands: [Option<HandText>; 2],
    side: Option<Color>,
    moves_before: Option<u32>,
    hand_lines: [usize; 2],
}

#[derive(Clone, Copy)]
enum HandText {
    Pieces(Hand),
    Rest,
}

impl BodReader {
    /// Offers a line; returns whether it belongs to the diagram. A line that starts like a diagram
    /// line but is malformed is an error.
    pub fn accept(&mut self, line_no: usize, line: &str) -> Result<bool, ReadError> {
        let t = line.trim_end();
        let trimmed = t.trim_start();
        if let Some(value) = trimmed
            .strip_prefix("手数＝")
            .or_else(|| trimmed.strip_prefix("手数="))
        {
            let n = value.split_whitespace().next().unwrap_or("");
            let n = n
                .parse::<u32>()
                .map_err(|_| ReadError::syntax(line_no, 1, t, "a move count after 手数＝"))?;
            self.moves_before = Some(n);
            return Ok(true);
        }
        if let Some((key, value)) = split_key(trimmed) {
            let Some(color) = hand_owner(key) else {
                return Ok(false);
            };
            self.hands[color.index()] = Some(parse_hand(value).ok_or_else(|| {
                ReadError::syntax(
                    line_no,
                    key.chars().count() + 2,
                    value,
                    "pieces like `飛　角　歩二`, なし or 残り全部",
                )
            })?);
            self.hand_lines[color.index()] = line_no;
            return Ok(true);
        }
        match trimmed {
            "後手番" | "上手番" => self.side = Some(Color::White),
            "先手番" | "下手番" => self.side = Some(Color::Black),
            _ if trimmed.starts_with('+') && trimmed.trim_matches(['+', '-']).is_empty() => {}
            _ if is_file_header(trimmed) => {}
            _ if trimmed.starts_with('|') => {
                let row = parse_row(t.trim_start())
                    .map_err(|(col, expected)| ReadError::syntax(line_no, col, t, expected))?;
                if self.rows.len() == 9 {
                    return Err(ReadError::syntax(
                        line_no,
                        1,
                        t,
                        "at most nine rows in a diagram",
                    ));
                }
                self.rows.push((line_no, row));
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The setup read, if a board was read (`None` if no row was seen). `line` is where the
    /// diagram ended, for the error when it has fewer than nine rows.
    pub fn finish(&self, line: usize) -> Result<Option<Setup>, ReadError> {
        if self.rows.is_empty() {
            return Ok(None);
        }
        if self.rows.len() != 9 {
            let at = self.rows.last().map_or(line, |r| r.0);
            return Err(ReadError::syntax(
                at,
                1,
                "",
                format!("nine board rows, found {}", self.rows.len()),
            ));
        }
        let mut setup = Setup::empty();
        for (r, (_, row)) in self.rows.iter().enumerate() {
            for (c, piece) in row.iter().enumerate() {
                let sq = Square::from_file_rank(9 - c as u8, r as u8 + 1)
                    .unwrap_or_else(|| unreachable!());
                setup.board[sq.index()] = *piece;
            }
        }
        let mut rest = None;
        for color in Color::ALL {
            match self.hands[color.index()] {
                Some(HandText::Pieces(h)) => setup.hands[color.index()] = h,
                Some(HandText::Rest) => rest = Some(color),
                None => {}
            }
        }
        if let Some(color) = rest {
            let other = setup.hands[color.flip().index()];
            setup.hands[color.index()] = rest_of_set(&setup.board, other);
            if self.hands[color.flip().index()].is_some_and(|h| matches!(h, HandText::Rest)) {
                return Err(ReadError::syntax(
                    self.hand_lines[color.index()],
                    1,
                    "残り全部",
                    "残り全部 for one side only",
                ));
            }
        }
        setup.side_to_move = self.side.unwrap_or(Color::Black);
        setup.ply = self.moves_before.unwrap_or(0).saturating_add(1);
        Ok(Some(setup))
    }
}

/// Whose hand a diagram's hand line gives: `後手の持駒` (or 上手, and `の持ち駒` as some
/// programs spell it) is White's, `先手の持駒` (or 下手) Black's.
pub(crate) fn hand_owner(key: &str) -> Option<Color> {
    let side = key
        .strip_suffix("の持駒")
        .or_else(|| key.strip_suffix("の持ち駒"))?;
    match side {
        "後手" | "上手" => Some(Color::White),
        "先手" | "下手" => Some(Color::Black),
        _ => None,
    }
}

/// Splits `key：value` (full-width or ASCII colon).
pub(crate) fn split_key(line: &str) -> Option<(&str, &str)> {
    let i = line.find(['：', ':'])?;
    let colon = line[i..].chars().next()?.len_utf8();
    Some((line[..i].trim(), line[i + colon..].trim()))
}

fn is_file_header(line: &str) -> bool {
    let digits: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
    digits.len() == 9
        && digits
            .iter()
            .enumerate()
            .all(|(i, &c)| japanese::digit_value(c) == Some(9 - i as u8))
}

fn parse_hand(text: &str) -> Option<HandText> {
    match text {
        "なし" | "" => return Some(HandText::Pieces(Hand::EMPTY)),
        "残り全部" | "残りすべて" => return Some(HandText::Rest),
        _ => {}
    }
    let mut hand = Hand::EMPTY;
    for item in text.split(['　', ' ']).filter(|s| !s.is_empty()) {
        let (kind, n) = parse_piece_name(item)?;
        if !kind.is_hand_kind() || hand.count(kind) > 0 {
            return None;
        }
        let count_text: String = item.chars().skip(n).collect();
        let count = if count_text.is_empty() {
            1
        } else {
            parse_kanji_number(&count_text)?
        };
        hand = hand.with_count(kind, count)?;
    }
    Some(HandText::Pieces(hand))
}

/// Reads `|v香v桂 ・ ...|一`: nine cells of a side mark (` `, `v`, or `^`) and a piece or `・`.
fn parse_row(line: &str) -> Result<[Option<Piece>; 9], (usize, String)> {
    let chars: Vec<char> = line.chars().collect();
    let mut row = [None; 9];
    for (c, cell) in row.iter_mut().enumerate() {
        let i = 1 + 2 * c;
        let (mark, name) = match (chars.get(i), chars.get(i + 1)) {
            (Some(&m), Some(&n)) => (m, n),
            _ => {
                return Err((
                    i + 1,
                    "nine cells like ` ・`, ` 歩` or `v歩` then `|`".to_owned(),
                ));
            }
        };
        let color = match mark {
            ' ' | '^' | '　' => Color::Black,
            'v' | 'V' => Color::White,
            _ => return Err((i + 1, "` ` or `v` before a piece".to_owned())),
        };
        if name == '・' {
            continue;
        }
        let (kind, _) =
            parse_piece_name(&name.to_string()).ok_or((i + 2, "a piece kanji or ・".to_owned()))?;
        *cell = Some(Piece::new(color, kind));
    }
    if chars.get(19) != Some(&'|') {
        return Err((20, "`|` after nine cells".to_owned()));
    }
    Ok(row)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        for sfen in [
            koma_core::STARTPOS_SFEN,
            "ln1g3nl/1r1sk1g2/p1ppppsp1/1p4p1p/9/2P1P3P/PPSP1PPP1/1B3S1R1/LN1GKG1NL w B 12",
            "8k/9/9/9/9/9/9/9/K8 w 2R2B4G4S4N4L 1",
        ] {
            let pos = Position::from_sfen(sfen).unwrap();
            let text = write(&pos);
            assert_eq!(read(&text).unwrap(), pos, "{text}");
        }
    }

    #[test]
    fn tsume_rest() {
        let pos = Position::from_sfen("7nl/7k1/9/7pp/9/9/9/9/9 b GS2r2b3g3s3n3l16p 1").unwrap();
        let text = write(&pos);
        assert!(text.starts_with("後手の持駒：残り全部\n"), "{text}");
        assert!(text.contains("先手の持駒：金　銀　\n"));
        let back = read(&text).unwrap();
        assert_eq!(back, pos);
        assert_eq!(back.hand(Color::White).count(PieceKind::Pawn), 16);
    }

    #[test]
    fn move_count_and_side() {
        let mut pos = Position::startpos();
        pos.do_move("7g7f".parse().unwrap());
        let text = write(&pos);
        assert!(text.contains("後手番\n手数＝1  ▲７六歩  まで\n"), "{text}");
        let back = read(&text).unwrap();
        assert_eq!(back.to_sfen(), pos.to_sfen());
    }

    #[test]
    fn errors_name_the_line() {
        let mut text = write(&Position::startpos());
        text = text.replace("| ・v飛", "| ・x飛");
        let e = read(&text).unwrap_err();
        assert_eq!((e.line, e.column), (5, 4));
        let short: String = write(&Position::startpos())
            .lines()
            .filter(|l| !l.ends_with('五'))
            .collect::<Vec<_>>()
            .join("\n");
        assert!(
            read(&short)
                .unwrap_err()
                .to_string()
                .contains("nine board rows")
        );
        let e = read("後手の持駒：飛飛\n").unwrap_err();
        assert_eq!(e.line, 1);
    }

    #[test]
    fn ascii_diagram() {
        let text = ascii(&Position::startpos());
        assert!(
            text.contains(" |  .  r  .  .  .  .  .  b  . | b\n"),
            "{text}"
        );
        assert!(text.ends_with("Black to move, move 1\n"));
    }
}
