//! The [`Record`] type: an initial position, a tree of moves with times and comments, headers
//! and a result.
//!
//! A record's moves are legal by construction: its fields are private, moves enter only through
//! checked calls ([`Record::push`], [`LineEditor::push`], [`LineEditor::add_variation`]) or
//! through the crate's readers, which check every move as they read it. Code that holds a
//! `Record` can replay it without checking again.

use koma_core::{Move, Position};

use crate::GameEnd;

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
/// assert!(rec.push("7g7f".parse().unwrap()).is_err()); // no pawn on 7g any more
/// assert_eq!(rec.position_after(2).to_sfen(),
///     "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) initial: Position,
    pub(crate) comments: Vec<String>,
    /// The bookmark (しおり, KIF's `&` line) on the initial position.
    pub(crate) bookmark: Option<String>,
    pub(crate) main: Line,
}

/// A sequence of moves and how it ended. Reached through [`Record::main`] and
/// [`RecordMove::variations`]; changed through a [`LineEditor`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    pub(crate) moves: Vec<RecordMove>,
    pub(crate) end: Option<GameEnd>,
}

impl Line {
    /// The moves, in order.
    pub fn moves(&self) -> &[RecordMove] {
        &self.moves
    }

    /// How the line ended (投了, 千日手, 封じ手, ...), if the record says.
    pub fn end(&self) -> Option<&GameEnd> {
        self.end.as_ref()
    }
}

/// One move of a record, with what the record says about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordMove {
    pub(crate) mv: Move,
    pub(crate) time: Option<MoveTime>,
    pub(crate) comments: Vec<String>,
    pub(crate) bookmark: Option<String>,
    pub(crate) variations: Vec<Line>,
}

impl RecordMove {
    pub(crate) fn new(mv: Move) -> RecordMove {
        RecordMove {
            mv,
            time: None,
            comments: Vec::new(),
            bookmark: None,
            variations: Vec::new(),
        }
    }

    /// The move (legal in the position before it).
    pub fn mv(&self) -> Move {
        self.mv
    }

    /// Time spent on it, if recorded.
    pub fn time(&self) -> Option<MoveTime> {
        self.time
    }

    /// Comments after the move.
    pub fn comments(&self) -> &[String] {
        &self.comments
    }

    /// The bookmark (しおり: KIF and KI2 write it as an `&` line) on the position after the
    /// move, if any.
    pub fn bookmark(&self) -> Option<&str> {
        self.bookmark.as_deref()
    }

    /// Alternatives to this move (変化): each line starts at this move's ply.
    pub fn variations(&self) -> &[Line] {
        &self.variations
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

/// Why a move could not be added to a record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("move {mv} is illegal in {sfen}")]
pub struct IllegalMoveError {
    /// The move.
    pub mv: Move,
    /// The position it was tried in.
    pub sfen: String,
}

/// Why a [`LineEditor`] could not make a change.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EditError {
    /// The move is not legal where it would go.
    #[error(transparent)]
    Illegal(#[from] IllegalMoveError),
    /// There is no move at this index of the line.
    #[error("the line has {len} moves, so no move {index} to vary")]
    NoMove {
        /// The index asked for.
        index: usize,
        /// How many moves the line has.
        len: usize,
    },
}

/// Where a line sits in a record: the main line, or a variation reached by steps of
/// (index of a move in the line, index of one of that move's variations).
///
/// ```
/// use koma_record::LinePath;
/// let second = LinePath::MAIN.variation(4, 1); // the second alternative to the fifth move
/// assert_eq!(second.steps(), &[(4, 1)]);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct LinePath(Vec<(usize, usize)>);

impl LinePath {
    /// The main line.
    pub const MAIN: LinePath = LinePath(Vec::new());

    /// The `variation`th alternative to move `move_index` of this line.
    pub fn variation(&self, move_index: usize, variation: usize) -> LinePath {
        let mut steps = self.0.clone();
        steps.push((move_index, variation));
        LinePath(steps)
    }

    /// The steps from the main line.
    pub fn steps(&self) -> &[(usize, usize)] {
        &self.0
    }
}

impl Record {
    /// An empty record starting at `initial`.
    pub fn new(initial: Position) -> Record {
        Record {
            headers: Vec::new(),
            initial,
            comments: Vec::new(),
            bookmark: None,
            main: Line::default(),
        }
    }

    /// The position before the first move. Its move number ([`Position::ply`]) numbers the moves.
    pub fn initial(&self) -> &Position {
        &self.initial
    }

    /// Headers as (key, value), in order. Keys use the KIF names (`先手`, `後手`, `開始日時`,
    /// `棋戦`, `場所`, `持ち時間`, `手合割`, ...); a key with no KIF name keeps its own spelling.
    pub fn headers(&self) -> &[(String, String)] {
        &self.headers
    }

    /// The headers, to change.
    pub fn headers_mut(&mut self) -> &mut Vec<(String, String)> {
        &mut self.headers
    }

    /// The value of the first header with this key.
    pub fn header(&self, key: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Comments on the initial position (before the first move).
    pub fn comments(&self) -> &[String] {
        &self.comments
    }

    /// The bookmark (しおり) on the initial position, if any.
    pub fn bookmark(&self) -> Option<&str> {
        self.bookmark.as_deref()
    }

    /// Whether any position of the record (the initial one, or after a move of any line) has a
    /// bookmark.
    pub fn has_bookmarks(&self) -> bool {
        fn any(line: &Line) -> bool {
            line.moves
                .iter()
                .any(|m| m.bookmark.is_some() || m.variations.iter().any(any))
        }
        self.bookmark.is_some() || any(&self.main)
    }

    /// The comments on the initial position, to change.
    pub fn comments_mut(&mut self) -> &mut Vec<String> {
        &mut self.comments
    }

    /// The main line.
    pub fn main(&self) -> &Line {
        &self.main
    }

    /// The line at `path`, if there is one.
    pub fn line(&self, path: &LinePath) -> Option<&Line> {
        let mut line = &self.main;
        for &(i, v) in path.steps() {
            line = line.moves.get(i)?.variations.get(v)?;
        }
        Some(line)
    }

    /// Appends a move to the main line, if it is legal after the main line's moves. (Replays the
    /// main line; to add many moves, use [`Record::edit`].)
    pub fn push(&mut self, mv: Move) -> Result<(), IllegalMoveError> {
        self.edit_main().push(mv)
    }

    /// An editor at the end of the main line.
    pub fn edit_main(&mut self) -> LineEditor<'_> {
        self.edit(&LinePath::MAIN)
            .unwrap_or_else(|| unreachable!("the main line always exists"))
    }

    /// An editor at the end of the line at `path`, if there is one.
    ///
    /// ```
    /// use koma_record::{EndKind, GameEnd, LinePath, Record};
    /// let mut rec = Record::new(koma_core::Position::startpos());
    /// let mut main = rec.edit_main();
    /// for m in ["7g7f", "3c3d", "2g2f"] {
    ///     main.push(m.parse().unwrap()).unwrap();
    /// }
    /// main.set_end(Some(GameEnd::new(EndKind::Interrupt)));
    /// // 2六歩 or, instead, 6六歩: a variation at the third move.
    /// let v = main.add_variation(2, "6g6f".parse().unwrap()).unwrap();
    /// rec.edit(&v).unwrap().push("8c8d".parse().unwrap()).unwrap();
    /// assert_eq!(rec.main().moves()[2].variations()[0].moves().len(), 2);
    /// assert_eq!(v, LinePath::MAIN.variation(2, 0));
    /// ```
    pub fn edit(&mut self, path: &LinePath) -> Option<LineEditor<'_>> {
        self.line(path)?;
        let pos = self.position_at_end(path.steps());
        Some(LineEditor {
            record: self,
            path: path.clone(),
            pos,
        })
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

    /// The line at `steps`; the caller knows it exists.
    fn line_mut(&mut self, steps: &[(usize, usize)]) -> &mut Line {
        let mut line = &mut self.main;
        for &(i, v) in steps {
            line = &mut line.moves[i].variations[v];
        }
        line
    }

    /// The position at the end of the line at `steps` (which exists).
    fn position_at_end(&self, steps: &[(usize, usize)]) -> Position {
        self.replay(steps, |_, _| {})
    }

    /// Plays the moves that lead to the end of the line at `steps` (which exists), calling
    /// `each` with the position before each move and the move; returns the position at the end.
    pub(crate) fn replay(
        &self,
        steps: &[(usize, usize)],
        mut each: impl FnMut(&Position, &RecordMove),
    ) -> Position {
        let mut pos = self.initial.clone();
        let mut play = |pos: &mut Position, m: &RecordMove| {
            each(pos, m);
            pos.do_move(m.mv);
        };
        let mut line = &self.main;
        for &(i, v) in steps {
            for m in &line.moves[..i] {
                play(&mut pos, m);
            }
            line = &line.moves[i].variations[v];
        }
        for m in &line.moves {
            play(&mut pos, m);
        }
        pos
    }
}

/// Changes one line of a record, keeping every move legal: it knows the position at the end of
/// the line, so [`LineEditor::push`] checks each move in constant time.
pub struct LineEditor<'a> {
    record: &'a mut Record,
    path: LinePath,
    pos: Position,
}

impl LineEditor<'_> {
    /// The position at the end of the line.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// Where the line is.
    pub fn path(&self) -> &LinePath {
        &self.path
    }

    fn line(&mut self) -> &mut Line {
        self.record.line_mut(self.path.steps())
    }

    /// Appends a move, if it is legal at the end of the line.
    pub fn push(&mut self, mv: Move) -> Result<(), IllegalMoveError> {
        if !self.pos.play(mv) {
            return Err(IllegalMoveError {
                mv,
                sfen: self.pos.to_sfen(),
            });
        }
        self.line().moves.push(RecordMove::new(mv));
        Ok(())
    }

    /// Sets (or clears) how the line ends.
    pub fn set_end(&mut self, end: Option<GameEnd>) {
        self.line().end = end;
    }

    /// The time of move `index` of the line, to change (`None` if there is no such move).
    pub fn time_mut(&mut self, index: usize) -> Option<&mut Option<MoveTime>> {
        self.line().moves.get_mut(index).map(|m| &mut m.time)
    }

    /// The comments after move `index` of the line, to change (`None` if there is no such move).
    pub fn comments_mut(&mut self, index: usize) -> Option<&mut Vec<String>> {
        self.line().moves.get_mut(index).map(|m| &mut m.comments)
    }

    /// The end of the line (its time and comments), to change.
    pub fn end_mut(&mut self) -> Option<&mut GameEnd> {
        self.line().end.as_mut()
    }

    /// Adds a variation: `mv`, an alternative to move `index` of this line, played in the
    /// position before that move. Returns the new line's path (edit it with [`Record::edit`]).
    pub fn add_variation(&mut self, index: usize, mv: Move) -> Result<LinePath, EditError> {
        let len = self.line().moves.len();
        if index >= len {
            return Err(EditError::NoMove { index, len });
        }
        let mut before = self.pos.clone();
        for _ in index..len {
            before.undo_move();
        }
        if !before.play(mv) {
            return Err(IllegalMoveError {
                mv,
                sfen: before.to_sfen(),
            }
            .into());
        }
        let node = &mut self.line().moves[index];
        let mut line = Line::default();
        line.moves.push(RecordMove::new(mv));
        node.variations.push(line);
        let v = node.variations.len() - 1;
        Ok(self.path.variation(index, v))
    }
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
    fn variations_are_checked_where_they_start() {
        let mut rec = Record::new(Position::startpos());
        let mut main = rec.edit_main();
        for m in ["7g7f", "3c3d", "8h2b+"] {
            main.push(mv(m)).unwrap();
        }
        // An alternative to 3c3d must be a White move from the position after 7g7f.
        assert!(main.add_variation(1, mv("2g2f")).is_err());
        assert_eq!(
            main.add_variation(3, mv("8c8d")),
            Err(EditError::NoMove { index: 3, len: 3 })
        );
        let v = main.add_variation(1, mv("8c8d")).unwrap();
        // The editor still stands at the end of its line.
        assert_eq!(main.position().ply(), 4);
        let mut var = rec.edit(&v).unwrap();
        assert_eq!(var.position().ply(), 3);
        var.push(mv("2g2f")).unwrap();
        assert!(var.push(mv("2f2e")).is_err());
        assert_eq!(rec.line(&v).unwrap().moves().len(), 2);
        assert!(rec.edit(&LinePath::MAIN.variation(0, 0)).is_none());
    }
}
