//! Building a record while a reader reads it, and walking its variations in KIF order.

use koma_core::{Move, Position};

use crate::error::excerpt;
use crate::{
    BookmarkSkip, EndKind, GameEnd, Line, MoveTime, ReadError, Record, RecordMove, Warning,
    WarningKind,
};

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
    /// A well-formed move that is not legal, held while the reader sees whether the record
    /// ends with it as a foul (反則: a 二歩 in a professional game), with the comments after it.
    foul: Option<(ReadError, String, Vec<String>)>,
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
            foul: None,
        }
    }

    /// Holds an illegal move (`error`, and its text as written) that may be the foul the record
    /// ends with. The reader calls [`Builder::settle_foul`] with what follows it.
    pub(crate) fn hold_foul(&mut self, error: ReadError, text: String) {
        self.foul = Some((error, text, Vec::new()));
    }

    /// Settles a held illegal move, if any, by what follows it: `Some(kind)`, an end that says
    /// the side that made it lost by a foul (`IllegalMove`), ends the line there, the move and
    /// the comments after it kept in the end's comments, with a warning; anything else (another
    /// move, another end, the end of the text) makes it the error it is.
    pub(crate) fn settle_foul(
        &mut self,
        end: Option<EndKind>,
        warnings: &mut Vec<Warning>,
    ) -> Result<(), ReadError> {
        let Some((error, text, comments)) = self.foul.take() else {
            return Ok(());
        };
        if end != Some(EndKind::IllegalMove) {
            return Err(error);
        }
        warnings.push(Warning::new(
            error.line,
            WarningKind::FoulEndsRecord {
                text: excerpt(&text),
                ply: self.pos.ply(),
            },
        ));
        let mut end = GameEnd::new(EndKind::IllegalMove);
        end.comments.push(format!("反則手 {text}"));
        end.comments.extend(comments);
        self.end(end);
        Ok(())
    }

    /// Whether an illegal move is held (see [`Builder::hold_foul`]).
    pub(crate) fn holds_foul(&self) -> bool {
        self.foul.is_some()
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

    /// Appends a move the caller checked to be legal in [`Builder::pos`].
    pub(crate) fn push(&mut self, mv: Move, time: Option<MoveTime>) {
        debug_assert!(self.pos.is_legal(mv), "{mv} in {}", self.pos.to_sfen());
        let side = self.pos.side_to_move().index();
        self.totals[side] = self.totals[side].saturating_add(time.map_or(0, |t| t.used_ms));
        let comments = std::mem::take(&mut self.pending_comments);
        self.line_mut().moves.push(RecordMove {
            mv,
            time,
            comments,
            bookmark: None,
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
        if let Some((_, _, comments)) = &mut self.foul {
            comments.push(text);
            return;
        }
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

    /// Puts a bookmark (しおり) on the position reached last on the line being read: after its
    /// last move (an end, such as 投了, leaves the position as it was), or the initial position
    /// before the main line's first move. Says why not, with nothing changed, where the
    /// position has a bookmark already, after an illegal move, or before a variation's first
    /// move (a position the variation does not hold).
    pub(crate) fn bookmark(&mut self, name: String) -> Result<(), BookmarkSkip> {
        if self.foul.is_some() {
            return Err(BookmarkSkip::AfterIllegalMove);
        }
        let at_root = self.path.is_empty();
        let line = self.line_mut();
        let slot = match line.moves.last_mut() {
            Some(m) => &mut m.bookmark,
            None if at_root => &mut self.record.bookmark,
            None => return Err(BookmarkSkip::BeforeVariation),
        };
        if slot.is_some() {
            return Err(BookmarkSkip::Taken);
        }
        *slot = Some(name);
        Ok(())
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

    /// Opens a new variation of move `index` of the line being read (an alternative to it) and
    /// reads on in it; [`Builder::back`] returns to where the builder was.
    pub(crate) fn fork(&mut self, index: usize) -> Saved {
        let saved = Saved {
            path: self.path.clone(),
            pos: self.pos.clone(),
            totals: self.totals,
        };
        let node = &mut self.line_mut().moves[index];
        node.variations.push(Line::default());
        let v = node.variations.len() - 1;
        self.path.push((index, v));
        (self.pos, self.totals) = self.replay();
        saved
    }

    /// Returns to the line a [`Builder::fork`] left.
    pub(crate) fn back(&mut self, saved: Saved) {
        self.path = saved.path;
        self.pos = saved.pos;
        self.totals = saved.totals;
    }

    /// How many moves the line being read has.
    pub(crate) fn line_len(&mut self) -> usize {
        self.line_mut().moves.len()
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
        let mut totals = [0u64; 2];
        let pos = self.record.replay(&self.path, |pos, m| {
            let side = pos.side_to_move().index();
            totals[side] = totals[side].saturating_add(m.time.map_or(0, |t| t.used_ms));
        });
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

/// Where a [`Builder`] was before a [`Builder::fork`].
pub(crate) struct Saved {
    path: Vec<(usize, usize)>,
    pos: Position,
    totals: [u64; 2],
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
}
