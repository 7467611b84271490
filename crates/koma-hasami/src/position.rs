//! The position, move generation, captures (sandwich 挟む and enclosure 囲む), do/undo and the
//! end-of-game status. The rules are those of docs/hasami-rules.md.

use crate::square::{Dir, FULL, Square, flood, neighbours, squares};
use crate::zobrist;
use koma_core::Color;

/// A move: a piece slides from `from` to `to` along a file or rank (`9i9e`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Start square.
    pub from: Square,
    /// Destination square.
    pub to: Square,
}

/// What `Position::do_move` changed, for `Position::undo_move`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    /// The move made.
    pub mv: Move,
    /// The enemy pieces it captured.
    pub captured: u128,
}

/// The result of the rules applied to a position alone (no history): ongoing or won.
/// Draws need the game history and live in [`crate::game::Game`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The side to move must move.
    Ongoing,
    /// This side has won.
    Won(Color),
}

/// Most moves a position can have: 18 pieces at most (9 a side) times 16 destinations.
pub const MAX_MOVES: usize = 9 * 16;

/// A fixed-capacity move list (no allocation in search).
#[derive(Clone, Debug)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    fn new() -> MoveList {
        let null = Move {
            from: Square::SQ_9A,
            to: Square::SQ_9A,
        };
        MoveList {
            moves: [null; MAX_MOVES],
            len: 0,
        }
    }

    /// The moves as a slice, in generation order.
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice (for reordering).
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    /// Number of moves.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when there is no move.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

/// A hasami shogi position: both sides' pieces, the side to move and the ply number.
///
/// Built from the start position or from a [`crate::notation::Setup`] by a validating constructor,
/// so a `Position` always has at most 9 pieces a side on 81 squares.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pieces: [u128; 2],
    side: Color,
    ply: u32,
    key: u64,
}

impl Default for Position {
    fn default() -> Position {
        Position::startpos()
    }
}

impl Position {
    /// The start position: Black's nine pieces on rank i, White's on rank a, Black to move, ply 1.
    pub fn startpos() -> Position {
        let white = (1u128 << 9) - 1;
        let black = white << 72;
        Position::from_parts(black, white, Color::Black, 1)
    }

    /// Builds a position from bitboards; callers guarantee disjoint boards of at most 9 pieces.
    pub(crate) fn from_parts(black: u128, white: u128, side: Color, ply: u32) -> Position {
        debug_assert_eq!(black & white, 0);
        let mut key = if side == Color::White {
            zobrist::WHITE_TO_MOVE
        } else {
            0
        };
        for sq in squares(black) {
            key ^= zobrist::piece(Color::Black, sq);
        }
        for sq in squares(white) {
            key ^= zobrist::piece(Color::White, sq);
        }
        Position {
            pieces: [black, white],
            side,
            ply,
            key,
        }
    }

    /// The side to move.
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The ply number (1 at the start position, +1 per move).
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The Zobrist key of (pieces, side to move).
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The bitboard of `color`'s pieces.
    pub fn pieces(&self, color: Color) -> u128 {
        self.pieces[color.index()]
    }

    /// Number of pieces `color` has.
    pub fn count(&self, color: Color) -> u32 {
        self.pieces[color.index()].count_ones()
    }

    /// The empty squares.
    pub fn empty(&self) -> u128 {
        !(self.pieces[0] | self.pieces[1]) & FULL
    }

    /// The piece on `sq`, if any.
    pub fn at(&self, sq: Square) -> Option<Color> {
        if self.pieces[0] & sq.bit() != 0 {
            Some(Color::Black)
        } else if self.pieces[1] & sq.bit() != 0 {
            Some(Color::White)
        } else {
            None
        }
    }

    /// Calls `f` for every legal move of the side to move, in the fixed generation order: pieces in
    /// square index order (rank a to i, file 9 to 1 within a rank), for each piece the directions
    /// up, down, left, right ([`Dir::ALL`]), nearest destination first.
    pub fn for_each_move(&self, mut f: impl FnMut(Move)) {
        let empty = self.empty();
        for from in squares(self.pieces(self.side)) {
            for dir in Dir::ALL {
                let mut cur = from;
                while let Some(to) = cur.step(dir) {
                    if empty & to.bit() == 0 {
                        break;
                    }
                    f(Move { from, to });
                    cur = to;
                }
            }
        }
    }

    /// All legal moves, in generation order (see [`Position::for_each_move`]).
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.for_each_move(|m| {
            list.moves[list.len] = m;
            list.len += 1;
        });
        list
    }

    /// Number of moves the piece on `from` has (0 if the square is empty).
    pub fn piece_mobility(&self, from: Square) -> u32 {
        let empty = self.empty();
        let mut n = 0;
        for dir in Dir::ALL {
            let mut cur = from;
            while let Some(to) = cur.step(dir) {
                if empty & to.bit() == 0 {
                    break;
                }
                n += 1;
                cur = to;
            }
        }
        n
    }

    /// True if `mv` is a legal move here.
    pub fn is_legal(&self, mv: Move) -> bool {
        let mut found = false;
        self.for_each_move(|m| found |= m == mv);
        found
    }

    /// The enemy pieces that `mv` (assumed legal) would capture, without making it.
    ///
    /// Sandwich: in each direction from the destination, a run of one or more enemy pieces followed
    /// by a mover's piece. Enclosure: each enemy group orthogonally adjacent to the destination with
    /// no empty neighbour. Both are computed on the board right after the piece lands (before any
    /// piece is removed); removing one enemy group never gives another a liberty, so the order of
    /// the two rules does not matter, and the union counts each piece once.
    pub fn captures(&self, mv: Move) -> u128 {
        let us = self.side;
        let mine = (self.pieces(us) & !mv.from.bit()) | mv.to.bit();
        let theirs = self.pieces(us.flip());
        let mut captured = 0u128;
        for dir in Dir::ALL {
            let mut run = 0u128;
            let mut cur = mv.to;
            loop {
                match cur.step(dir) {
                    Some(next) if theirs & next.bit() != 0 => {
                        run |= next.bit();
                        cur = next;
                    }
                    Some(next) if mine & next.bit() != 0 => {
                        captured |= run;
                        break;
                    }
                    _ => break,
                }
            }
        }
        let empty = !(mine | theirs) & FULL;
        let mut adjacent = neighbours(mv.to.bit()) & theirs;
        while adjacent != 0 {
            let group = flood(adjacent & adjacent.wrapping_neg(), theirs);
            adjacent &= !group;
            if neighbours(group) & empty == 0 {
                captured |= group;
            }
        }
        captured
    }

    /// Makes a legal move: moves the piece, removes the captured pieces, passes the turn.
    pub fn do_move(&mut self, mv: Move) -> Undo {
        let captured = self.captures(mv);
        let us = self.side;
        let them = us.flip();
        self.pieces[us.index()] ^= mv.from.bit() | mv.to.bit();
        self.key ^= zobrist::piece(us, mv.from) ^ zobrist::piece(us, mv.to);
        self.pieces[them.index()] &= !captured;
        for sq in squares(captured) {
            self.key ^= zobrist::piece(them, sq);
        }
        self.side = them;
        self.key ^= zobrist::WHITE_TO_MOVE;
        self.ply += 1;
        Undo { mv, captured }
    }

    /// Takes back the move that `undo` came from (must be the last one made).
    pub fn undo_move(&mut self, undo: Undo) {
        let them = self.side;
        let us = them.flip();
        self.side = us;
        self.key ^= zobrist::WHITE_TO_MOVE;
        self.ply -= 1;
        self.pieces[them.index()] |= undo.captured;
        for sq in squares(undo.captured) {
            self.key ^= zobrist::piece(them, sq);
        }
        self.pieces[us.index()] ^= undo.mv.from.bit() | undo.mv.to.bit();
        self.key ^= zobrist::piece(us, undo.mv.from) ^ zobrist::piece(us, undo.mv.to);
    }

    /// Whether the game is over by the board alone (docs/hasami-rules.md, "End of the game"):
    /// - the side to move is down to 4 pieces: the opponent (who just moved) has won;
    /// - the side to move leads by 3 or more: its lead survived the reply, it has won;
    /// - the side to move has no legal move: it has lost.
    ///
    /// With the opponent leading by 3 the side to move must cut the lead now: still ongoing.
    pub fn status(&self) -> Status {
        let us = self.side;
        let them = us.flip();
        let (n_us, n_them) = (self.count(us), self.count(them));
        if n_us <= 4 {
            Status::Won(them)
        } else if n_them <= 4 || n_us >= n_them + 3 {
            Status::Won(us)
        } else if neighbours(self.pieces(us)) & self.empty() == 0 {
            Status::Won(them)
        } else {
            Status::Ongoing
        }
    }
}
