//! The [`Record`] type: an initial position, a tree of moves with times and comments, headers
//! and a result.

use koma_core::{Color, Move, Position};

/// A game record or problem, in no particular format.
///
/// The main line is [`Record::main`]; each move may hold variations, which are alternatives to
/// that move (they start at the same ply). Headers keep the order they were read in.
///
/// ```
/// use koma_record::Record;
/// let mut rec = Record::new(koma_core::Position::startpos());
/// rec.push("7g7f".parse().unwrap()).unwrap();
/// rec.push("3c3d".parse().unwrap()).unwrap();
/// assert_eq!(rec.position_after(2).to_sfen(),
///     "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// Headers as (key, value), in order. Keys use the KIF names (`先手`, `後手`, `開始日時`,
    /// `棋戦`, `場所`, `持ち時間`, `手合割`, ...); a key with no KIF name keeps its own spelling.
    pub headers: Vec<(String, String)>,
    /// The position before the first move. Its move number ([`Position::ply`]) numbers the moves.
    pub initial: Position,
    /// Comments on the initial position (before the first move).
    pub comments: Vec<String>,
    /// The main line.
    pub main: Line,
}

/// A sequence of moves and how it ended.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// The moves, in order.
    pub moves: Vec<RecordMove>,
    /// How the line ended (投了, 千日手, ...), if the record says.
    pub end: Option<GameEnd>,
}

/// One move of a record, with what the record says about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMove {
    /// The move.
    pub mv: Move,
    /// Time spent on it, if recorded.
    pub time: Option<MoveTime>,
    /// Comments after the move.
    pub comments: Vec<String>,
    /// Alternatives to this move (変化): each line starts at this move's ply.
    pub variations: Vec<Line>,
}

impl RecordMove {
    /// A move with no time, comment or variation.
    pub fn new(mv: Move) -> RecordMove {
        RecordMove {
            mv,
            time: None,
            comments: Vec::new(),
            variations: Vec::new(),
        }
    }
}

/// Time spent on a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveTime {
    /// Time used on this move, in milliseconds.
    pub used_ms: u64,
    /// The mover's total time used so far, in milliseconds, when the record states it (KIF does).
    pub total_ms: Option<u64>,
}

/// The end of a line: the special move and what the record says about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// What happened.
    pub kind: EndKind,
    /// Time spent, if recorded.
    pub time: Option<MoveTime>,
    /// Comments after it.
    pub comments: Vec<String>,
}

impl GameEnd {
    /// An end with no time or comment.
    pub fn new(kind: EndKind) -> GameEnd {
        GameEnd {
            kind,
            time: None,
            comments: Vec::new(),
        }
    }
}

/// How a game or line ended: CSA's special moves (`%TORYO`, ...) and KIF's end words (投了, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EndKind {
    /// The side to move resigned (投了, `%TORYO`).
    Resign,
    /// The game was stopped (中断, `%CHUDAN`).
    Interrupt,
    /// Four-fold repetition (千日手, `%SENNICHITE`).
    Repetition,
    /// The side to move ran out of time (切れ負け, `%TIME_UP`).
    TimeUp,
    /// The side to move lost by an illegal move (反則負け, `%ILLEGAL_MOVE`).
    IllegalMove,
    /// The side to move won by the opponent's illegal move (反則勝ち).
    IllegalWin,
    /// This side committed an illegal action and lost (`%+ILLEGAL_ACTION`, `%-ILLEGAL_ACTION`).
    IllegalAction(Color),
    /// Impasse, a draw (持将棋, `%JISHOGI`).
    Impasse,
    /// The side to move declared an entering-king win (入玉勝ち, `%KACHI`).
    DeclareWin,
    /// A draw agreed or declared (引き分け, `%HIKIWAKE`).
    Draw,
    /// The move limit was reached (最大手数, `%MAX_MOVES`).
    MaxMoves,
    /// The side to move is mated (詰み, `%TSUMI`).
    Mate,
    /// A problem with no mate (不詰, `%FUZUMI`).
    NoMate,
    /// An error (エラー, `%ERROR`).
    Error,
}

impl EndKind {
    /// Every kind.
    pub const ALL: [EndKind; 15] = [
        EndKind::Resign,
        EndKind::Interrupt,
        EndKind::Repetition,
        EndKind::TimeUp,
        EndKind::IllegalMove,
        EndKind::IllegalWin,
        EndKind::IllegalAction(Color::Black),
        EndKind::IllegalAction(Color::White),
        EndKind::Impasse,
        EndKind::DeclareWin,
        EndKind::Draw,
        EndKind::MaxMoves,
        EndKind::Mate,
        EndKind::NoMate,
        EndKind::Error,
    ];

    /// The CSA special move, given the side to move (which `反則勝ち` needs).
    pub fn csa(self, side_to_move: Color) -> &'static str {
        match self {
            EndKind::Resign => "%TORYO",
            EndKind::Interrupt => "%CHUDAN",
            EndKind::Repetition => "%SENNICHITE",
            EndKind::TimeUp => "%TIME_UP",
            EndKind::IllegalMove => "%ILLEGAL_MOVE",
            EndKind::IllegalWin => EndKind::IllegalAction(side_to_move.flip()).csa(side_to_move),
            EndKind::IllegalAction(Color::Black) => "%+ILLEGAL_ACTION",
            EndKind::IllegalAction(Color::White) => "%-ILLEGAL_ACTION",
            EndKind::Impasse => "%JISHOGI",
            EndKind::DeclareWin => "%KACHI",
            EndKind::Draw => "%HIKIWAKE",
            EndKind::MaxMoves => "%MAX_MOVES",
            EndKind::Mate => "%TSUMI",
            EndKind::NoMate => "%FUZUMI",
            EndKind::Error => "%ERROR",
        }
    }

    /// The KIF / KI2 end word, given the side to move (an illegal action becomes 反則勝ち or 反則負け).
    pub fn kif(self, side_to_move: Color) -> &'static str {
        match self {
            EndKind::Resign => "投了",
            EndKind::Interrupt => "中断",
            EndKind::Repetition => "千日手",
            EndKind::TimeUp => "切れ負け",
            EndKind::IllegalMove => "反則負け",
            EndKind::IllegalWin => "反則勝ち",
            EndKind::IllegalAction(c) if c == side_to_move => "反則負け",
            EndKind::IllegalAction(_) => "反則勝ち",
            EndKind::Impasse => "持将棋",
            EndKind::DeclareWin => "入玉勝ち",
            EndKind::Draw => "引き分け",
            EndKind::MaxMoves => "最大手数",
            EndKind::Mate => "詰み",
            EndKind::NoMate => "不詰",
            EndKind::Error => "エラー",
        }
    }

    /// Reads a CSA special move (`%TORYO`, ...).
    pub fn from_csa(text: &str) -> Option<EndKind> {
        EndKind::ALL
            .into_iter()
            .find(|k| k.csa(Color::Black) == text && *k != EndKind::IllegalWin)
    }

    /// Reads a KIF end word (投了, ...).
    pub fn from_kif(text: &str) -> Option<EndKind> {
        let kinds = EndKind::ALL
            .into_iter()
            .filter(|k| !matches!(k, EndKind::IllegalAction(_)));
        kinds
            .into_iter()
            .find(|k| k.kif(Color::Black) == text)
            .or(match text {
                "時間切れ" => Some(EndKind::TimeUp),
                "入玉宣言" => Some(EndKind::DeclareWin),
                _ => None,
            })
    }
}

/// Why a move could not be added to a record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {mv} is illegal in {sfen}")]
pub struct IllegalMoveError {
    /// The move.
    pub mv: Move,
    /// The position it was tried in.
    pub sfen: String,
}

impl Record {
    /// An empty record starting at `initial`.
    pub fn new(initial: Position) -> Record {
        Record {
            headers: Vec::new(),
            initial,
            comments: Vec::new(),
            main: Line::default(),
        }
    }

    /// The value of the first header with this key.
    pub fn header(&self, key: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Appends a move to the main line, if it is legal after the main line's moves.
    pub fn push(&mut self, mv: Move) -> Result<(), IllegalMoveError> {
        let mut pos = self.position_after(self.main.moves.len());
        if !pos.play(mv) {
            return Err(IllegalMoveError {
                mv,
                sfen: pos.to_sfen(),
            });
        }
        self.main.moves.push(RecordMove::new(mv));
        Ok(())
    }

    /// The main line's moves.
    pub fn moves(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.main.moves.iter().map(|m| m.mv)
    }

    /// The position after the first `n` moves of the main line (all of them if `n` is larger).
    /// The moves stay in the position's history, so [`Position::last_move`] is the `n`th move.
    pub fn position_after(&self, n: usize) -> Position {
        let mut pos = self.initial.clone();
        for m in self.main.moves.iter().take(n) {
            pos.do_move(m.mv);
        }
        pos
    }

    /// Whether any move of the main line has variations (formats without them, CSA and USI,
    /// write the main line only).
    pub fn has_variations(&self) -> bool {
        self.main.moves.iter().any(|m| !m.variations.is_empty())
    }
}

/// Builds a record's move tree while a reader reads it, keeping the position at the end of the
/// line being read. Variations are attached the way KIF numbers them (変化：N手).
pub(crate) struct Builder {
    record: Record,
    /// The path of the line being read: (move index in the parent line, variation index).
    path: Vec<(usize, usize)>,
    /// Every line opened so far, in reading order: its path and the number of its first move.
    opened: Vec<(Vec<(usize, usize)>, u32)>,
    pos: Position,
    /// Each side's time used along the line being read, before its next move.
    totals: [u64; 2],
    pending_comments: Vec<String>,
}

impl Builder {
    /// A builder for a record with these headers and initial position.
    pub(crate) fn new(record: Record) -> Builder {
        let pos = record.initial.clone();
        let start = pos.ply();
        Builder {
            record,
            path: Vec::new(),
            opened: vec![(Vec::new(), start)],
            pos,
            totals: [0; 2],
            pending_comments: Vec::new(),
        }
    }

    /// The position at the end of the line being read.
    pub(crate) fn pos(&self) -> &Position {
        &self.pos
    }

    fn line_mut(&mut self) -> &mut Line {
        let mut line = &mut self.record.main;
        for &(i, v) in &self.path {
            line = &mut line.moves[i].variations[v];
        }
        line
    }

    /// Whether the line being read has ended (an end word was read).
    pub(crate) fn ended(&mut self) -> bool {
        self.line_mut().end.is_some()
    }

    /// Appends a move the caller checked to be legal in [`Builder::pos`].
    /// A time as read, without its total when the total is just the sum of the mover's times
    /// (what a writer would compute), so that only a total that says something is kept.
    pub(crate) fn normalize_time(&self, t: MoveTime) -> MoveTime {
        let side = self.pos.side_to_move().index();
        let computed = self.totals[side].saturating_add(t.used_ms);
        MoveTime {
            used_ms: t.used_ms,
            total_ms: t.total_ms.filter(|&total| total != computed),
        }
    }

    pub(crate) fn push(&mut self, mv: Move, time: Option<MoveTime>) {
        let side = self.pos.side_to_move().index();
        self.totals[side] = self.totals[side].saturating_add(time.map_or(0, |t| t.used_ms));
        let comments = std::mem::take(&mut self.pending_comments);
        self.line_mut().moves.push(RecordMove {
            mv,
            time,
            comments,
            variations: Vec::new(),
        });
        self.pos.do_move(mv);
    }

    /// Ends the line being read.
    pub(crate) fn end(&mut self, end: GameEnd) {
        self.line_mut().end = Some(end);
    }

    /// Adds a header found among the moves.
    pub(crate) fn header(&mut self, key: &str, value: &str) {
        self.record.headers.push((key.to_owned(), value.to_owned()));
    }

    /// Sets the time of the last move (or end) of the line being read; ignored before any move.
    pub(crate) fn set_time(&mut self, time: MoveTime) {
        let line = self.line_mut();
        if let Some(end) = &mut line.end {
            end.time = Some(time);
        } else if let Some(m) = line.moves.last_mut() {
            m.time = Some(time);
        }
    }

    /// Adds a comment after the last move, end or initial position of the line being read.
    pub(crate) fn comment(&mut self, text: String) {
        let at_root = self.path.is_empty();
        let line = self.line_mut();
        if let Some(end) = &mut line.end {
            end.comments.push(text);
        } else if let Some(m) = line.moves.last_mut() {
            m.comments.push(text);
        } else if at_root {
            self.record.comments.push(text);
        } else {
            self.pending_comments.push(text);
        }
    }

    /// Starts a variation: an alternative to move number `number` in the most recently read line
    /// that holds that move. Returns `false` if no line holds it.
    pub(crate) fn start_variation(&mut self, number: u32) -> bool {
        self.pending_comments.clear();
        let mut target = None;
        for (path, start) in self.opened.iter().rev() {
            let len = self.line_at(path).moves.len() as u32;
            if *start <= number && number < start.saturating_add(len) {
                if *start == number && !path.is_empty() {
                    // A sibling of this variation: an alternative to the same move.
                    target = Some((path[..path.len() - 1].to_vec(), path[path.len() - 1].0));
                } else {
                    target = Some((path.clone(), (number - start) as usize));
                }
                break;
            }
        }
        let Some((parent, index)) = target else {
            return false;
        };
        self.path = parent;
        let line = self.line_mut();
        let node = &mut line.moves[index];
        node.variations.push(Line::default());
        let v = node.variations.len() - 1;
        self.path.push((index, v));
        self.opened.push((self.path.clone(), number));
        (self.pos, self.totals) = self.replay();
        true
    }

    fn line_at(&self, path: &[(usize, usize)]) -> &Line {
        let mut line = &self.record.main;
        for &(i, v) in path {
            line = &line.moves[i].variations[v];
        }
        line
    }

    /// The position at the end of the current line and each side's time used, replayed from
    /// the initial position.
    fn replay(&self) -> (Position, [u64; 2]) {
        let mut pos = self.record.initial.clone();
        let mut totals = [0u64; 2];
        let mut play = |pos: &mut Position, m: &RecordMove| {
            let side = pos.side_to_move().index();
            totals[side] = totals[side].saturating_add(m.time.map_or(0, |t| t.used_ms));
            pos.do_move(m.mv);
        };
        let mut line = &self.record.main;
        for &(i, v) in &self.path {
            for m in &line.moves[..i] {
                play(&mut pos, m);
            }
            line = &line.moves[i].variations[v];
        }
        for m in &line.moves {
            play(&mut pos, m);
        }
        (pos, totals)
    }

    /// The record read so far.
    pub(crate) fn record(&self) -> &Record {
        &self.record
    }

    /// The finished record.
    pub(crate) fn finish(self) -> Record {
        self.record
    }
}

/// Calls `f` for every variation of the record in the order KIF writes them: the variations of
/// a line's moves from the last move back to the first, each followed by its own. `f` gets the
/// line, the position before its first move, and each side's total time used before it.
pub(crate) fn walk_variations(record: &Record, mut f: impl FnMut(&Line, &Position, [u64; 2])) {
    fn walk(
        line: &Line,
        pos: &mut Position,
        totals: [u64; 2],
        f: &mut impl FnMut(&Line, &Position, [u64; 2]),
    ) {
        let mut before = Vec::with_capacity(line.moves.len());
        let mut t = totals;
        for m in &line.moves {
            before.push(t);
            let side = pos.side_to_move().index();
            t[side] = t[side].saturating_add(m.time.map_or(0, |t| t.used_ms));
            pos.do_move(m.mv);
        }
        for i in (0..line.moves.len()).rev() {
            pos.undo_move();
            for v in &line.moves[i].variations {
                f(v, pos, before[i]);
                walk(v, &mut pos.clone(), before[i], f);
            }
        }
    }
    walk(&record.main, &mut record.initial.clone(), [0; 2], &mut f);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        s.parse().unwrap()
    }

    #[test]
    fn push_rejects_illegal_moves() {
        let mut rec = Record::new(Position::startpos());
        rec.push(mv("7g7f")).unwrap();
        assert!(rec.push(mv("7f7e")).is_err());
        assert_eq!(rec.main.moves.len(), 1);
    }

    #[test]
    fn variations_attach_to_the_most_recent_line() {
        let mut b = Builder::new(Record::new(Position::startpos()));
        for m in ["7g7f", "3c3d", "2g2f", "8c8d"] {
            let m = mv(m);
            b.push(m, None);
        }
        // 変化：3手 then 変化：4手 (inside the variation) then 変化：2手 (main line).
        assert!(b.start_variation(3));
        b.push(mv("6g6f"), None);
        b.push(mv("8c8d"), None);
        assert!(b.start_variation(4));
        b.push(mv("4a3b"), None);
        assert!(b.start_variation(3));
        b.push(mv("5g5f"), None);
        assert!(b.start_variation(2));
        b.push(mv("8c8d"), None);
        assert!(!b.start_variation(9));
        let rec = b.finish();
        let main = &rec.main.moves;
        assert_eq!(main[2].variations.len(), 2);
        assert_eq!(
            main[2].variations[0].moves[1].variations[0].moves[0].mv,
            mv("4a3b")
        );
        assert_eq!(main[2].variations[1].moves[0].mv, mv("5g5f"));
        assert_eq!(main[1].variations[0].moves[0].mv, mv("8c8d"));
        let mut order = Vec::new();
        walk_variations(&rec, |line, pos, _| {
            order.push((pos.ply(), line.moves[0].mv))
        });
        assert_eq!(
            order,
            vec![
                (3, mv("6g6f")),
                (4, mv("4a3b")),
                (3, mv("5g5f")),
                (2, mv("8c8d"))
            ]
        );
    }

    #[test]
    fn end_names_read_back() {
        for k in EndKind::ALL {
            assert_eq!(
                EndKind::from_csa(k.csa(Color::Black)).map(|e| e.csa(Color::Black)),
                Some(k.csa(Color::Black))
            );
            assert!(EndKind::from_kif(k.kif(Color::Black)).is_some());
        }
    }
}
