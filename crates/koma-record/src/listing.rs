//! Move names for display, in Japanese (`▲７六歩`) or Western (`P-7f`) notation, and a record's
//! main line as a numbered list.

use koma_core::{Move, Position};

use crate::{Record, japanese, western};

/// Which notation names the moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Notation {
    /// `▲７六歩`, `△同　銀`, `▲５八金右` (see [`japanese::move_name`]).
    #[default]
    Japanese,
    /// `P-7f`, `Bx2b+`, `G6i-5h` (see [`western::move_name`]).
    Western,
}

impl Notation {
    /// The name of a legal move of `pos`.
    pub fn move_name(self, pos: &Position, m: Move) -> String {
        match self {
            Notation::Japanese => japanese::move_name(pos, m),
            Notation::Western => western::move_name(pos, m),
        }
    }
}

/// The main line's moves, numbered, ten to a line, then the end word if the record has one.
///
/// ```
/// use koma_record::{listing::{move_list, Notation}, usi};
/// let rec = usi::read("startpos moves 7g7f 3c3d 8h2b+ 3a2b resign").unwrap().record;
/// assert_eq!(move_list(&rec, Notation::Japanese), "1.▲７六歩 2.△３四歩 3.▲２二角成 4.△同　銀 投了\n");
/// assert_eq!(move_list(&rec, Notation::Western), "1.P-7f 2.P-3d 3.Bx2b+ 4.Sx2b 投了\n");
/// ```
pub fn move_list(record: &Record, notation: Notation) -> String {
    let mut pos = record.initial.clone();
    let mut out = String::new();
    for (i, m) in record.moves().enumerate() {
        out.push_str(&format!("{}.{}", pos.ply(), notation.move_name(&pos, m)));
        out.push(if i % 10 == 9 { '\n' } else { ' ' });
        pos.do_move(m);
    }
    if let Some(end) = &record.main.end {
        out.push_str(end.kind.kif(pos.side_to_move()));
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}
