//! Japanese move notation: `▲７六歩`, `△同　銀`, `▲５八金左`, `▲２二角成`, with the
//! disambiguation words of the Japan Shogi Association rules (右 左 直 上 寄 引 打), and its reading.
//!
//! One writer serves KI2 files, KIF files (which name the origin square instead of
//! disambiguating: `７六歩(77)`) and display.
//!
//! The rules, for a move whose destination another piece of the same kind could also reach:
//! 1. if the direction of the move (上 forward, 引 backward, 寄 sideways) is unique among those
//!    pieces, it is written;
//! 2. otherwise the position of the piece: 左 or 右 (as the mover sees the board) when it is the
//!    leftmost or rightmost of them, or 直 for a gold, silver or promoted minor piece moving
//!    straight forward (never for a dragon or horse);
//! 3. otherwise both: 左 or 右 among the pieces moving in the same direction, then the direction
//!    (`左上`).
//!
//! A drop is marked 打 only when a piece on the board could also move there.

use koma_core::{Color, Move, Piece, PieceKind, Position, Square};

const FILES: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
const RANKS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// The Japanese name of a square: `７六` for `7f`.
pub fn square_name(sq: Square) -> String {
    let mut s = String::with_capacity(6);
    s.push(FILES[sq.file() as usize - 1]);
    s.push(RANKS[sq.rank() as usize - 1]);
    s
}

/// A number 1..=18 in kanji (一 .. 十八), as hand counts are written.
pub(crate) fn kanji_number(n: u8) -> String {
    let mut s = String::new();
    if n >= 10 {
        s.push('十');
    }
    if !n.is_multiple_of(10) {
        s.push(RANKS[(n % 10) as usize - 1]);
    }
    s
}

/// Reads a kanji number 1..=18 (一 .. 十八), the inverse of [`kanji_number`].
pub(crate) fn parse_kanji_number(text: &str) -> Option<u8> {
    let mut chars = text.chars().peekable();
    let mut n = 0u8;
    if chars.peek() == Some(&'十') {
        chars.next();
        n = 10;
    }
    match chars.next() {
        None if n == 10 => Some(10),
        None => None,
        Some(c) => {
            let d = RANKS.iter().position(|&r| r == c)? as u8 + 1;
            chars.next().is_none().then_some(n + d)
        }
    }
}

/// The digit 1..=9 of a file or rank character: full-width or ASCII digit, or kanji numeral.
pub(crate) fn digit_value(c: char) -> Option<u8> {
    if let Some(i) = FILES.iter().position(|&f| f == c) {
        return Some(i as u8 + 1);
    }
    if let Some(i) = RANKS.iter().position(|&r| r == c) {
        return Some(i as u8 + 1);
    }
    c.to_digit(10)
        .filter(|d| (1..=9).contains(d))
        .map(|d| d as u8)
}

/// The side mark: ▲ for Black, △ for White.
pub fn side_mark(color: Color) -> char {
    match color {
        Color::Black => '▲',
        Color::White => '△',
    }
}

/// Reads a piece name as move notation and diagrams write it (成銀 or 全, 龍 or 竜, 玉 or 王).
/// Returns the kind and the number of characters used.
pub(crate) fn parse_piece_name(text: &str) -> Option<(PieceKind, usize)> {
    let mut chars = text.chars();
    let first = chars.next()?;
    if first == '成' {
        let kind = match chars.next()? {
            '銀' => PieceKind::ProSilver,
            '桂' => PieceKind::ProKnight,
            '香' => PieceKind::ProLance,
            _ => return None,
        };
        return Some((kind, 2));
    }
    let kind = match first {
        '王' => PieceKind::King,
        '竜' => PieceKind::Dragon,
        c => *PieceKind::ALL.iter().find(|k| k.kanji_short() == c)?,
    };
    Some((kind, 1))
}

/// How a move is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Notation {
    /// KI2 and display: side mark, disambiguation words (`▲５八金左`).
    Ki2,
    /// KIF: no mark, drops always 打, the origin square in parentheses (`５八金(69)`).
    Kif,
}

/// The Japanese name of a legal move in `pos` (KI2 style, as the JSA writes it): `▲７六歩`,
/// `△同　銀`, `▲５八金左`, `▲５五角打`, `▲２二角成`, `▲２二角不成`.
///
/// 同 is written when the move lands where the previous move in `pos`'s history
/// ([`Position::last_move`]) landed.
///
/// ```
/// use koma_core::Position;
/// use koma_record::japanese::move_name;
/// let mut pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/3GKG3 b - 1").unwrap();
/// assert_eq!(move_name(&pos, "6i5h".parse().unwrap()), "▲５八金左");
/// assert_eq!(move_name(&pos, "4i5h".parse().unwrap()), "▲５八金右");
/// ```
pub fn move_name(pos: &Position, m: Move) -> String {
    write_move(pos, m, Notation::Ki2)
}

/// Writes a legal move of `pos` in the given notation.
pub(crate) fn write_move(pos: &Position, m: Move, notation: Notation) -> String {
    let us = pos.side_to_move();
    let mut s = String::with_capacity(24);
    if notation == Notation::Ki2 {
        s.push(side_mark(us));
    }
    if pos.last_move().map(Move::to) == Some(m.to()) {
        s.push_str("同　");
    } else {
        s.push_str(&square_name(m.to()));
    }
    match (m.from(), m.drop_kind()) {
        (Some(from), _) => {
            let kind = pos.piece_at(from).map_or(PieceKind::Pawn, Piece::kind);
            s.push_str(kind.kanji());
            if notation == Notation::Ki2 {
                s.push_str(&modifiers(pos, from, m.to(), kind));
            }
            if m.is_promotion() {
                s.push('成');
            } else if kind.can_promote()
                && (from.in_promotion_zone(us) || m.to().in_promotion_zone(us))
            {
                s.push_str("不成");
            }
            if notation == Notation::Kif {
                s.push_str(&format!("({}{})", from.file(), from.rank()));
            }
        }
        (None, Some(kind)) => {
            s.push_str(kind.kanji());
            if notation == Notation::Kif || !candidates(pos, kind, m.to()).is_empty() {
                s.push('打');
            }
        }
        (None, None) => {}
    }
    s
}

/// The squares of the side to move's pieces of `kind` that can legally move to `to`.
pub(crate) fn candidates(pos: &Position, kind: PieceKind, to: Square) -> Vec<Square> {
    let mut out: Vec<Square> = Vec::new();
    for m in pos.legal_moves().iter() {
        if let Some(from) = m.from()
            && m.to() == to
            && pos.piece_at(from).map(Piece::kind) == Some(kind)
            && !out.contains(&from)
        {
            out.push(from);
        }
    }
    out
}

/// The direction of a move as the mover sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Direction {
    /// 上: forward.
    Up,
    /// 引: backward.
    Down,
    /// 寄: sideways.
    Sideways,
}

impl Direction {
    fn of(color: Color, from: Square, to: Square) -> Direction {
        let (f, t) = (from.relative_rank(color), to.relative_rank(color));
        match t.cmp(&f) {
            std::cmp::Ordering::Less => Direction::Up,
            std::cmp::Ordering::Greater => Direction::Down,
            std::cmp::Ordering::Equal => Direction::Sideways,
        }
    }

    fn word(self) -> char {
        match self {
            Direction::Up => '上',
            Direction::Down => '引',
            Direction::Sideways => '寄',
        }
    }
}

/// How far left a square is as `color` sees the board (Black's left is file 9).
fn leftness(color: Color, sq: Square) -> u8 {
    match color {
        Color::Black => sq.file(),
        Color::White => 10 - sq.file(),
    }
}

/// Whether `sq` is strictly left (or right, with `left == false`) of every square of `others`.
fn outermost(color: Color, sq: Square, others: &[Square], left: bool) -> bool {
    let x = leftness(color, sq);
    others.iter().all(|&o| {
        if left {
            x > leftness(color, o)
        } else {
            x < leftness(color, o)
        }
    })
}

fn straight_up(color: Color, from: Square, to: Square) -> bool {
    from.file() == to.file() && Direction::of(color, from, to) == Direction::Up
}

/// The disambiguation words for a board move of `kind` from `from` to `to` (empty if none needed).
pub(crate) fn modifiers(pos: &Position, from: Square, to: Square, kind: PieceKind) -> String {
    let us = pos.side_to_move();
    let others: Vec<Square> = candidates(pos, kind, to)
        .into_iter()
        .filter(|&o| o != from)
        .collect();
    if others.is_empty() {
        return String::new();
    }
    let dir = Direction::of(us, from, to);
    let same_dir: Vec<Square> = others
        .iter()
        .copied()
        .filter(|&o| Direction::of(us, o, to) == dir)
        .collect();
    if same_dir.is_empty() {
        return dir.word().to_string();
    }
    let long_range = matches!(kind, PieceKind::Dragon | PieceKind::Horse);
    if !long_range && straight_up(us, from, to) {
        return "直".to_owned();
    }
    for (left, word) in [(true, '左'), (false, '右')] {
        if outermost(us, from, &others, left) {
            return word.to_string();
        }
    }
    for (left, word) in [(true, '左'), (false, '右')] {
        if outermost(us, from, &same_dir, left) {
            return format!("{word}{}", dir.word());
        }
    }
    dir.word().to_string()
}

/// A move as written in Japanese, before it is matched against a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct MoveText {
    /// The destination; `None` for 同.
    pub to: Option<Square>,
    /// The piece named.
    pub kind: PieceKind,
    /// 成 (`Some(true)`), 不成 or 生 (`Some(false)`), or nothing.
    pub promote: Option<bool>,
    /// 打 was written.
    pub drop: bool,
    /// 上 引 寄 (行 and 入 read as 上).
    pub direction: Option<Direction>,
    /// 左 (`Some(true)`) or 右 (`Some(false)`).
    pub side: Option<bool>,
    /// 直 was written.
    pub straight: bool,
    /// The origin square KIF gives in parentheses.
    pub from: Option<Square>,
}

/// Reads the Japanese move at the start of `text` (after an optional ▲△☗☖▽▼ mark). Returns
/// the move and the number of characters used, or what was expected and the column (from 1)
/// where it was not found.
pub(crate) fn parse_move_text(text: &str) -> Result<(MoveText, usize), (usize, &'static str)> {
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    if matches!(chars.first(), Some('▲' | '△' | '☗' | '☖' | '▽' | '▼')) {
        i += 1;
    }
    let mut to = None;
    if let (Some(&f), Some(&r)) = (chars.get(i), chars.get(i + 1))
        && let (Some(f), Some(r)) = (digit_value(f), digit_value(r))
    {
        to = Square::from_file_rank(f, r);
        i += 2;
    }
    if chars.get(i) == Some(&'同') {
        i += 1;
        while matches!(chars.get(i), Some('　' | ' ')) {
            i += 1;
        }
    } else if to.is_none() {
        return Err((i + 1, "a square like ７六 or 同"));
    }
    let rest: String = chars[i..].iter().collect();
    let (kind, n) = parse_piece_name(&rest).ok_or((
        i + 1,
        "a piece name (歩 香 桂 銀 金 角 飛 玉 と 成香 成桂 成銀 馬 龍)",
    ))?;
    i += n;
    let mut mt = MoveText {
        to,
        kind,
        promote: None,
        drop: false,
        direction: None,
        side: None,
        straight: false,
        from: None,
    };
    loop {
        match chars.get(i) {
            Some('上' | '行' | '入') if mt.direction.is_none() => {
                mt.direction = Some(Direction::Up)
            }
            Some('引') if mt.direction.is_none() => mt.direction = Some(Direction::Down),
            Some('寄') if mt.direction.is_none() => mt.direction = Some(Direction::Sideways),
            Some('左') if mt.side.is_none() => mt.side = Some(true),
            Some('右') if mt.side.is_none() => mt.side = Some(false),
            Some('直') => mt.straight = true,
            Some('打') => mt.drop = true,
            Some('成') if mt.promote.is_none() => mt.promote = Some(true),
            Some('生') if mt.promote.is_none() => mt.promote = Some(false),
            Some('不') if mt.promote.is_none() && matches!(chars.get(i + 1), Some('成' | '生')) =>
            {
                mt.promote = Some(false);
                i += 1;
            }
            _ => break,
        }
        i += 1;
    }
    // Some writers put a space between the move and its origin (`同銀　(79)`, Kifu for
    // Android); skip it only when an origin follows, so that a time `( 0:16/…)` stays the
    // caller's.
    let spaces = chars[i.min(chars.len())..]
        .iter()
        .take_while(|c| c.is_whitespace())
        .count();
    if spaces > 0 && is_origin(&chars[i + spaces..]) {
        i += spaces;
    }
    if chars.get(i) == Some(&'(') {
        let (f, r) = (
            chars.get(i + 1).copied().and_then(digit_value),
            chars.get(i + 2).copied().and_then(digit_value),
        );
        match (f, r, chars.get(i + 3)) {
            (Some(f), Some(r), Some(')')) => {
                mt.from = Square::from_file_rank(f, r);
                i += 4;
            }
            _ => return Err((i + 1, "an origin square like (77)")),
        }
    }
    Ok((mt, i))
}

/// Whether `chars` start with an origin square in parentheses, `(77)`.
fn is_origin(chars: &[char]) -> bool {
    matches!(chars, ['(', f, r, ')', ..] if digit_value(*f).is_some() && digit_value(*r).is_some())
}

/// Why a Japanese move does not name one legal move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum JapaneseMoveError {
    /// The text is not Japanese move notation.
    #[error("`{text}` is not a Japanese move: expected {expected} at column {column}")]
    Syntax {
        /// The text.
        text: String,
        /// Where the problem is, from 1.
        column: usize,
        /// What was expected.
        expected: &'static str,
    },
    /// No legal move fits.
    #[error("no legal move fits `{text}`")]
    Illegal {
        /// The text.
        text: String,
    },
    /// More than one legal move fits.
    #[error("`{text}` fits more than one legal move: {candidates}")]
    Ambiguous {
        /// The text.
        text: String,
        /// The moves, USI, space-separated.
        candidates: String,
    },
}

/// Reads a Japanese move (KI2 style, `▲７六歩`, `同　銀`, `５八金左`, or KIF style with the
/// origin, `７六歩(77)`) in `pos`. Extra text after the move is an error.
///
/// ```
/// use koma_core::Position;
/// use koma_record::japanese::parse_move;
/// let pos = Position::startpos();
/// assert_eq!(parse_move(&pos, "▲７六歩").unwrap().to_string(), "7g7f");
/// assert_eq!(parse_move(&pos, "５八金右").unwrap().to_string(), "4i5h");
/// assert!(parse_move(&pos, "５八金").is_err()); // two golds can go there
/// ```
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, JapaneseMoveError> {
    let syntax = |column, expected| JapaneseMoveError::Syntax {
        text: text.to_owned(),
        column,
        expected,
    };
    let trimmed = text.trim();
    let (mt, used) = parse_move_text(trimmed).map_err(|(c, e)| syntax(c, e))?;
    if used != trimmed.chars().count() {
        return Err(syntax(used + 1, "the end of the move"));
    }
    resolve(pos, &mt).map_err(|candidates| match candidates.len() {
        0 => JapaneseMoveError::Illegal {
            text: text.to_owned(),
        },
        _ => JapaneseMoveError::Ambiguous {
            text: text.to_owned(),
            candidates: usi_list(&candidates),
        },
    })
}

/// Moves in USI, space-separated.
pub(crate) fn usi_list(moves: &[Move]) -> String {
    moves
        .iter()
        .map(Move::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The one legal move of `pos` that `mt` names, or every legal move it fits (none or several).
pub(crate) fn resolve(pos: &Position, mt: &MoveText) -> Result<Move, Vec<Move>> {
    let us = pos.side_to_move();
    let Some(to) = mt.to.or_else(|| pos.last_move().map(Move::to)) else {
        return Err(Vec::new());
    };
    let promote = mt.promote == Some(true);
    // KIF names the origin, or 打 for a drop: that one move is checked directly, without
    // generating every legal move (the same answer as the search below).
    if mt.direction.is_none() && mt.side.is_none() && !mt.straight {
        let direct = match (mt.from, mt.drop) {
            (Some(from), false) if pos.piece_at(from).map(Piece::kind) == Some(mt.kind) => {
                Move::new(from, to, promote)
            }
            (None, true) if !promote => Move::drop(mt.kind, to),
            _ => None,
        };
        if let Some(m) = direct.filter(|&m| pos.is_legal(m)) {
            return Ok(m);
        }
    }
    let mut fits: Vec<Move> = Vec::new();
    for m in pos.legal_moves().iter().copied() {
        if m.to() != to {
            continue;
        }
        let ok = match (m.from(), m.drop_kind()) {
            (Some(from), _) => {
                pos.piece_at(from).map(Piece::kind) == Some(mt.kind)
                    && m.is_promotion() == promote
                    && mt.from.is_none_or(|f| f == from)
                    && !mt.drop
            }
            (None, Some(kind)) => kind == mt.kind && !promote && mt.from.is_none(),
            (None, None) => false,
        };
        if ok {
            fits.push(m);
        }
    }
    // A drop is written 打 when a board move could also land there; without 打, the board move.
    if fits.iter().any(|m| !m.is_drop()) {
        fits.retain(|m| !m.is_drop());
    }
    if let Some(dir) = mt.direction {
        fits.retain(|m| m.from().is_some_and(|f| Direction::of(us, f, to) == dir));
    }
    if mt.straight {
        fits.retain(|m| m.from().is_some_and(|f| straight_up(us, f, to)));
    }
    if let Some(left) = mt.side {
        let froms: Vec<Square> = fits.iter().filter_map(|m| m.from()).collect();
        fits.retain(|m| {
            m.from().is_some_and(|f| {
                let others: Vec<Square> = froms.iter().copied().filter(|&o| o != f).collect();
                outermost(us, f, &others, left)
            })
        });
    }
    match fits.as_slice() {
        [m] => Ok(*m),
        _ => Err(fits),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(sfen: &str) -> Position {
        Position::from_sfen(sfen).unwrap()
    }

    /// Writes `usi` in `sfen`, checks the text, and reads it back.
    fn check(sfen: &str, usi: &str, expected: &str) {
        let p = pos(sfen);
        let m: Move = usi.parse().unwrap();
        assert!(p.is_legal(m), "{usi} illegal in {sfen}");
        assert_eq!(move_name(&p, m), expected, "{usi} in {sfen}");
        assert_eq!(parse_move(&p, expected), Ok(m), "{expected} in {sfen}");
    }

    #[test]
    fn plain_moves() {
        let start = koma_core::STARTPOS_SFEN;
        check(start, "7g7f", "▲７六歩");
        check(start, "2h5h", "▲５八飛");
        check(
            "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3",
            "8h2b+",
            "▲２二角成",
        );
        check(
            "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3",
            "8h2b",
            "▲２二角不成",
        );
        check("4k4/9/9/9/9/9/9/9/4K4 b B 1", "B*5e", "▲５五角");
    }

    #[test]
    fn same_square() {
        let mut p = pos("lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3");
        p.do_move("8h2b+".parse().unwrap());
        let m: Move = "3a2b".parse().unwrap();
        assert_eq!(move_name(&p, m), "△同　銀");
        assert_eq!(parse_move(&p, "同銀"), Ok(m));
        assert_eq!(parse_move(&p, "△同　銀"), Ok(m));
        assert_eq!(write_move(&p, m, Notation::Kif), "同　銀(31)");
        assert_eq!(parse_move(&p, "同　銀(31)"), Ok(m));
    }

    #[test]
    fn golds_left_right_straight() {
        // Golds on 6九 and 4九 going to 5八: 左 and 右.
        check("4k4/9/9/9/9/9/9/9/3G1G2K b - 1", "6i5h", "▲５八金左");
        check("4k4/9/9/9/9/9/9/9/3G1G2K b - 1", "4i5h", "▲５八金右");
        // Golds on 6九 and 5九: 左 and 直.
        check("4k4/9/9/9/9/9/9/9/3GG3K b - 1", "6i5h", "▲５八金左");
        check("4k4/9/9/9/9/9/9/9/3GG3K b - 1", "5i5h", "▲５八金直");
        // Three golds on 6九 5九 4九.
        check("4k4/9/9/9/9/9/9/9/3GGG2K b - 1", "4i5h", "▲５八金右");
        check("4k4/9/9/9/9/9/9/9/3GGG2K b - 1", "5i5h", "▲５八金直");
    }

    #[test]
    fn direction_words() {
        // Golds on 6八 and 5九 to 5八? 5九 goes 上, 6八 goes 寄.
        check("4k4/9/9/9/9/9/9/3G5/4G3K b - 1", "5i5h", "▲５八金上");
        check("4k4/9/9/9/9/9/9/3G5/4G3K b - 1", "6h5h", "▲５八金寄");
        // Golds on 5七 (straight back to 5八 is 引) and 4九 (上).
        check("4k4/9/9/9/9/9/4G4/9/5G2K b - 1", "5g5h", "▲５八金引");
        check("4k4/9/9/9/9/9/4G4/9/5G2K b - 1", "4i5h", "▲５八金上");
    }

    #[test]
    fn combined_words() {
        // Silvers on 6九 4九 6七 4七, all can reach 5八.
        let sfen = "4k4/9/9/9/9/9/3S1S3/9/3S1S2K b - 1";
        check(sfen, "6i5h", "▲５八銀左上");
        check(sfen, "4i5h", "▲５八銀右上");
        check(sfen, "6g5h", "▲５八銀左引");
        check(sfen, "4g5h", "▲５八銀右引");
    }

    #[test]
    fn white_sees_the_board_turned() {
        // White golds on 4一 and 6一 going to 5二: for White, 4一 is on the left.
        check("3g1g3/9/9/9/9/9/9/9/K3k4 w - 1", "4a5b", "△５二金左");
        check("3g1g3/9/9/9/9/9/9/9/K3k4 w - 1", "6a5b", "△５二金右");
    }

    #[test]
    fn dragons_never_straight() {
        // Dragons on 5九 and 1八... going to 5八: 5九 moves 上 straight, 1八 moves 寄.
        check("k8/9/9/9/9/9/9/8+R/4+R3K b - 1", "5i5h", "▲５八龍上");
        // Dragons on 5九 and 4九 both going to 5八: 5九 straight up, 4九 diagonally; both 上.
        check("k8/9/9/9/9/9/9/9/4+R+R2K b - 1", "5i5h", "▲５八龍左");
        check("k8/9/9/9/9/9/9/9/4+R+R2K b - 1", "4i5h", "▲５八龍右");
    }

    #[test]
    fn dragons_both_moving_back() {
        // Dragons on 1三 and 2二 both go back (引) to 2四: 右 and 左.
        let sfen = "k8/7+R1/8+R/9/9/9/9/9/8K b - 1";
        check(sfen, "1c2d", "▲２四龍右");
        check(sfen, "2b2d", "▲２四龍左");
        // Horses on 9一 and 8一 both go back to 8二.
        let sfen = "+B+B6k/9/9/9/9/9/9/9/8K b - 1";
        check(sfen, "9a8b", "▲８二馬左");
        check(sfen, "8a8b", "▲８二馬右");
    }

    #[test]
    fn drops_and_promotion_words() {
        // A gold in hand and a gold on 6九 that can reach 5八: the drop says 打.
        check("4k4/9/9/9/9/9/9/9/3G4K b G 1", "G*5h", "▲５八金打");
        check("4k4/9/9/9/9/9/9/9/3G4K b G 1", "6i5h", "▲５八金");
        // Silver into the zone: 成 or 不成; 生 reads as 不成.
        let sfen = "4k4/9/9/4S4/9/9/9/9/4K4 b - 1";
        check(sfen, "5d5c+", "▲５三銀成");
        check(sfen, "5d5c", "▲５三銀不成");
        assert_eq!(
            parse_move(&pos(sfen), "５三銀生"),
            Ok("5d5c".parse().unwrap())
        );
        // Knights from 7九 and 5九 to 6七.
        check("4k4/9/9/9/9/9/9/9/2N1N3K b - 1", "7i6g", "▲６七桂左");
        check("4k4/9/9/9/9/9/9/9/2N1N3K b - 1", "5i6g", "▲６七桂右");
    }

    #[test]
    fn reading_errors() {
        let p = Position::startpos();
        assert!(matches!(
            parse_move(&p, "５八金"),
            Err(JapaneseMoveError::Ambiguous { .. })
        ));
        assert!(matches!(
            parse_move(&p, "７五歩"),
            Err(JapaneseMoveError::Illegal { .. })
        ));
        assert!(matches!(
            parse_move(&p, "７六"),
            Err(JapaneseMoveError::Syntax { column: 3, .. })
        ));
        assert!(matches!(
            parse_move(&p, "同歩"),
            Err(JapaneseMoveError::Illegal { .. })
        ));
        assert!(matches!(
            parse_move(&p, "７六歩x"),
            Err(JapaneseMoveError::Syntax { column: 4, .. })
        ));
    }

    #[test]
    fn kanji_numbers() {
        for n in 1..=18 {
            assert_eq!(parse_kanji_number(&kanji_number(n)), Some(n));
        }
        assert_eq!(kanji_number(18), "十八");
        assert_eq!(parse_kanji_number("十十"), None);
    }

    /// Every legal move of positions along random games names itself uniquely.
    #[test]
    fn every_move_reads_back() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..20 {
            let mut p = Position::startpos();
            for _ in 0..120 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &m in moves.iter() {
                    let ki2 = move_name(&p, m);
                    assert_eq!(parse_move(&p, &ki2), Ok(m), "{ki2} in {}", p.to_sfen());
                    let kif = write_move(&p, m, Notation::Kif);
                    assert_eq!(parse_move(&p, &kif), Ok(m), "{kif} in {}", p.to_sfen());
                }
                let m = moves[(next() % moves.len() as u64) as usize];
                p.do_move(m);
            }
        }
    }
}
