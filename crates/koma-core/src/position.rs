//! A legal position and making and unmaking moves.

use std::fmt;

use crate::attacks::{self, between, king_attacks};
use crate::{Bitboard, Color, Hand, Move, Piece, PieceKind, Setup, SfenError, Square, zobrist};

/// One reason a [`Setup`] is not a legal position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupProblem {
    /// Neither side has a king (named: the side not to move). One side may lack its king, as a
    /// mate problem's attacker does, whichever side is to move.
    #[error("no king on the board ({0:?}, not to move, has none)")]
    MissingKing(Color),
    /// A side has two kings or more.
    #[error("{color:?} has {count} kings")]
    TooManyKings {
        /// The side.
        color: Color,
        /// How many kings it has.
        count: u32,
    },
    /// An unpromoted pawn or lance on its last rank, or knight on its last two (行き所のない駒).
    #[error("{piece} on {square} can never move (dead piece)")]
    DeadPiece {
        /// Where.
        square: Square,
        /// The piece in SFEN notation.
        piece: String,
    },
    /// Two unpromoted pawns of one side on one file (二歩).
    #[error("{color:?} has two pawns on file {file} (二歩)")]
    TwoPawns {
        /// The side.
        color: Color,
        /// The file, 1..=9.
        file: u8,
    },
    /// The side that is not to move is in check: the side to move could capture the king.
    #[error("the side not to move is in check")]
    OpponentInCheck,
    /// More pieces of a kind (promoted or not, on the board and in hands) than a set holds.
    #[error("{count} pieces of kind {kind:?}, a set has {max}")]
    TooManyPieces {
        /// The base kind.
        kind: PieceKind,
        /// How many there are.
        count: u32,
        /// How many a set has.
        max: u8,
    },
}

/// Every reason a setup is not a legal position (never empty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError {
    /// The problems, in a fixed order: kings, dead pieces, 二歩, check, piece counts.
    pub problems: Vec<SetupProblem>,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("illegal position: ")?;
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for PositionError {}

/// An error reading an SFEN into a legal position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FromSfenError {
    /// The text is not SFEN.
    #[error(transparent)]
    Sfen(#[from] SfenError),
    /// The text is SFEN but not a legal position.
    #[error(transparent)]
    Illegal(#[from] PositionError),
}

/// What [`Position::do_move`] remembers to undo a move.
#[derive(Clone, Copy, Debug)]
struct StateInfo {
    key: u64,
    mv: Move,
    captured: Option<Piece>,
    /// The move number before the move: restored exactly even where `do_move` saturated it.
    ply: u32,
    checkers: Bitboard,
}

/// A legal shogi position: the board, both hands, the side to move, and the moves that led here
/// (kept for undo and repetition).
///
/// Built only from a [`Setup`] through [`Position::from_setup`] (or [`Position::from_sfen`]), so
/// code holding a `Position` never re-checks legality. Checkers are computed once per move and
/// kept; pinned pieces once per move generation (see docs/DECISIONS.md).
///
/// ```
/// use koma_core::Position;
/// let mut pos = Position::startpos();
/// assert_eq!(pos.legal_moves().len(), 30);
/// let m = "7g7f".parse().unwrap();
/// assert!(pos.is_legal(m));
/// pos.do_move(m);
/// pos.undo_move();
/// assert_eq!(pos, Position::startpos());
/// ```
#[derive(Clone)]
pub struct Position {
    board: [Option<Piece>; 81],
    by_color: [Bitboard; 2],
    by_kind: [Bitboard; 14],
    hands: [Hand; 2],
    side: Color,
    ply: u32,
    kings: [Option<Square>; 2],
    key: u64,
    checkers: Bitboard,
    history: Vec<StateInfo>,
}

impl PartialEq for Position {
    /// Positions are equal when board, hands, side to move and move number are; the history of
    /// moves that led to them is not compared.
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board
            && self.hands == other.hands
            && self.side == other.side
            && self.ply == other.ply
    }
}

impl Eq for Position {}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.to_sfen())
    }
}

impl Position {
    /// The standard starting position.
    pub fn startpos() -> Position {
        match Position::from_sfen(crate::setup::STARTPOS_SFEN) {
            Ok(p) => p,
            Err(_) => unreachable!("the start position is legal"),
        }
    }

    /// Reads SFEN and validates it (see [`Position::from_setup`]).
    pub fn from_sfen(sfen: &str) -> Result<Position, FromSfenError> {
        Ok(Position::from_setup(&Setup::from_sfen(sfen)?)?)
    }

    /// Validates a setup: returns the position, or every reason it is not legal.
    ///
    /// Accepted: one side without a king (a mate problem's attacker, to move or not). Rejected: a
    /// board without any king, two kings of one colour, dead pieces, 二歩, the side not to move in
    /// check, and more pieces of a kind than a set holds.
    ///
    /// ```
    /// use koma_core::{Position, SetupProblem};
    /// let err = Position::from_sfen("4k3P/9/9/9/9/9/4P4/4P4/9 b - 1").unwrap_err();
    /// assert!(err.to_string().contains("二歩"));
    /// assert!(err.to_string().contains("dead piece"));
    /// ```
    pub fn from_setup(setup: &Setup) -> Result<Position, PositionError> {
        let mut pos = Position {
            board: setup.board,
            by_color: [Bitboard::EMPTY; 2],
            by_kind: [Bitboard::EMPTY; 14],
            hands: setup.hands,
            side: setup.side_to_move,
            ply: setup.ply,
            kings: [None; 2],
            key: 0,
            checkers: Bitboard::EMPTY,
            history: Vec::with_capacity(64),
        };
        let mut problems = Vec::new();
        let mut totals = [0u32; 8];
        for sq in Square::all() {
            if let Some(p) = setup.board[sq.index()] {
                pos.by_color[p.color().index()] |= Bitboard::from_square(sq);
                pos.by_kind[p.kind().index()] |= Bitboard::from_square(sq);
                pos.key ^= zobrist::piece_square(p, sq);
                totals[p.kind().unpromote().index()] += 1;
                if p.kind() == PieceKind::King {
                    pos.kings[p.color().index()] = Some(sq);
                }
                let min_rank = match p.kind() {
                    PieceKind::Pawn | PieceKind::Lance => 2,
                    PieceKind::Knight => 3,
                    _ => 1,
                };
                if sq.relative_rank(p.color()) < min_rank {
                    problems.push(SetupProblem::DeadPiece {
                        square: sq,
                        piece: p.sfen(),
                    });
                }
            }
        }
        for color in Color::ALL {
            for kind in PieceKind::HAND {
                let n = setup.hands[color.index()].count(kind);
                totals[kind.index()] += n as u32;
                pos.key ^= zobrist::hand(color, kind, n);
            }
        }
        if pos.side == Color::White {
            pos.key ^= zobrist::SIDE;
        }
        let not_to_move = pos.side.flip();
        for color in Color::ALL {
            let count =
                (pos.by_color[color.index()] & pos.by_kind[PieceKind::King.index()]).count();
            if count > 1 {
                problems.insert(0, SetupProblem::TooManyKings { color, count });
            }
        }
        if pos.kings == [None, None] {
            problems.insert(0, SetupProblem::MissingKing(not_to_move));
        }
        for color in Color::ALL {
            let pawns = pos.pieces(color, PieceKind::Pawn);
            for file in 1..=9 {
                if (pawns & Bitboard::file_mask(file)).count() > 1 {
                    problems.push(SetupProblem::TwoPawns { color, file });
                }
            }
        }
        let kings_ok = !problems
            .iter()
            .any(|p| matches!(p, SetupProblem::TooManyKings { .. }));
        if kings_ok
            && let Some(k) = pos.kings[not_to_move.index()]
            && pos.is_attacked(pos.side, k)
        {
            problems.push(SetupProblem::OpponentInCheck);
        }
        for kind in PieceKind::ALL[..8].iter().copied() {
            let count = totals[kind.index()];
            if count > kind.set_count() as u32 {
                problems.push(SetupProblem::TooManyPieces {
                    kind,
                    count,
                    max: kind.set_count(),
                });
            }
        }
        if !problems.is_empty() {
            return Err(PositionError { problems });
        }
        pos.update_check_info();
        Ok(pos)
    }

    /// The position as a setup (board, hands, side, move number).
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board,
            hands: self.hands,
            side_to_move: self.side,
            ply: self.ply,
        }
    }

    /// Canonical SFEN of the position.
    pub fn to_sfen(&self) -> String {
        self.to_setup().to_sfen()
    }

    // ----- accessors -----

    /// The piece on `sq`.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// The kind the piece moved or dropped by `m` has on its destination: promoted if `m`
    /// promotes. `None` if `m` moves from an empty square (so is not a move of this position).
    ///
    /// ```
    /// use koma_core::{Move, PieceKind, Position};
    /// let pos = Position::startpos();
    /// let m: Move = "8h2b+".parse().unwrap();
    /// assert_eq!(pos.moved_kind(m), Some(PieceKind::Horse));
    /// assert_eq!(pos.moved_kind("P*5e".parse().unwrap()), Some(PieceKind::Pawn));
    /// assert_eq!(pos.moved_kind("5e5d".parse().unwrap()), None);
    /// ```
    #[inline]
    pub fn moved_kind(&self, m: Move) -> Option<PieceKind> {
        match m.from() {
            None => m.drop_kind(),
            Some(from) => {
                let kind = self.piece_at(from)?.kind();
                Some(if m.is_promotion() {
                    kind.promote().unwrap_or(kind)
                } else {
                    kind
                })
            }
        }
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The move number (SFEN's fourth field): 1 at the start, one more after each move.
    #[inline]
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The hand of `color`.
    #[inline]
    pub fn hand(&self, color: Color) -> Hand {
        self.hands[color.index()]
    }

    /// Squares holding a piece of `color`.
    #[inline]
    pub fn pieces_of(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// Squares holding a piece of `kind` of either colour.
    #[inline]
    pub fn pieces_of_kind(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()]
    }

    /// Squares holding a piece of `color` and `kind`.
    #[inline]
    pub fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.by_color[color.index()] & self.by_kind[kind.index()]
    }

    /// All occupied squares.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// The king of `color`, if it has one (a mate problem's attacker has none).
    #[inline]
    pub fn king(&self, color: Color) -> Option<Square> {
        self.kings[color.index()]
    }

    /// The 64-bit Zobrist key of board, both hands and side to move (see [`crate::zobrist`]).
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// Whether the side to move is in check (王手).
    #[inline]
    pub fn in_check(&self) -> bool {
        self.checkers.is_any()
    }

    /// The side to move's pieces pinned to its own king. Computed on each call: generators call
    /// it once per generation.
    #[inline]
    pub fn pinned(&self) -> Bitboard {
        let us = self.side;
        match self.kings[us.index()] {
            Some(k) => {
                self.sole_blockers(k, us.flip(), self.occupied()) & self.by_color[us.index()]
            }
            None => Bitboard::EMPTY,
        }
    }

    /// The side to move's pieces that give discovered check when they leave their line to the
    /// enemy king. Computed on each call (it is needed only to find checking moves).
    #[inline]
    pub fn discoverers(&self) -> Bitboard {
        let us = self.side;
        match self.kings[us.flip().index()] {
            Some(k) => self.sole_blockers(k, us, self.occupied()) & self.by_color[us.index()],
            None => Bitboard::EMPTY,
        }
    }

    /// The moves played since the position was built, oldest first.
    pub fn moves_played(&self) -> impl ExactSizeIterator<Item = Move> + '_ {
        self.history.iter().map(|s| s.mv)
    }

    /// (key, in check) of each position before a move played, oldest first.
    pub(crate) fn history_states(&self) -> impl ExactSizeIterator<Item = (u64, bool)> + '_ {
        self.history.iter().map(|s| (s.key, s.checkers.is_any()))
    }

    /// The last move played, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.history.last().map(|s| s.mv)
    }

    // ----- attacks -----

    /// The pieces of both colours grouped by the way they attack, for [`Position::attackers_to`],
    /// [`Position::attackers_to_both`] and [`Position::attack_sets`].
    #[inline]
    fn movers(&self) -> Movers {
        let k = |kind: PieceKind| self.by_kind[kind.index()];
        Movers {
            golds: k(PieceKind::Gold)
                | k(PieceKind::ProPawn)
                | k(PieceKind::ProLance)
                | k(PieceKind::ProKnight)
                | k(PieceKind::ProSilver),
            kings: k(PieceKind::King) | k(PieceKind::Horse) | k(PieceKind::Dragon),
            rooks: k(PieceKind::Rook) | k(PieceKind::Dragon),
            bishops: k(PieceKind::Bishop) | k(PieceKind::Horse),
        }
    }

    /// Pieces of `attacker` that attack `sq`, with `occupied` blocking sliding pieces.
    pub fn attackers_to(&self, attacker: Color, sq: Square, occupied: Bitboard) -> Bitboard {
        let defender = attacker.flip();
        let k = |kind: PieceKind| self.by_kind[kind.index()];
        let Movers {
            golds,
            kings,
            rooks,
            bishops,
        } = self.movers();
        let steppers = (attacks::step_attacks(defender, PieceKind::Pawn, sq) & k(PieceKind::Pawn))
            | (attacks::step_attacks(defender, PieceKind::Knight, sq) & k(PieceKind::Knight))
            | (attacks::step_attacks(defender, PieceKind::Silver, sq) & k(PieceKind::Silver))
            | (attacks::gold_attacks(defender, sq) & golds)
            | (king_attacks(sq) & kings);
        let sliders = (attacks::rook_attacks(sq, occupied) & rooks)
            | (attacks::bishop_attacks(sq, occupied) & bishops)
            | (attacks::lance_attacks(defender, sq, occupied) & k(PieceKind::Lance));
        (steppers | sliders) & self.by_color[attacker.index()]
    }

    /// Pieces of either colour that attack `sq`, with `occupied` blocking sliding pieces: the
    /// union of [`Position::attackers_to`] for both colours, with the sliding lines traced once
    /// (for counting both sides' pieces on one square).
    pub fn attackers_to_both(&self, sq: Square, occupied: Bitboard) -> Bitboard {
        let k = |kind: PieceKind| self.by_kind[kind.index()];
        let black = self.by_color[Color::Black.index()];
        let white = self.by_color[Color::White.index()];
        let Movers {
            golds,
            kings,
            rooks,
            bishops,
        } = self.movers();
        // The steps of `color`'s pieces that reach `sq`: the steps of the other colour's from it.
        let steppers = |color: Color| {
            let from = color.flip();
            (attacks::step_attacks(from, PieceKind::Pawn, sq) & k(PieceKind::Pawn))
                | (attacks::step_attacks(from, PieceKind::Knight, sq) & k(PieceKind::Knight))
                | (attacks::step_attacks(from, PieceKind::Silver, sq) & k(PieceKind::Silver))
                | (attacks::gold_attacks(from, sq) & golds)
        };
        let steps = (steppers(Color::Black) & black)
            | (steppers(Color::White) & white)
            | (king_attacks(sq) & kings);
        // Lines are traced only where a sliding piece stands on one of `sq`'s lines.
        let lances = k(PieceKind::Lance);
        let on_file_or_rank = attacks::rook_pseudo_attacks(sq) & (rooks | lances);
        let on_diagonal = attacks::bishop_pseudo_attacks(sq) & bishops;
        let mut sliders = Bitboard::EMPTY;
        if on_file_or_rank.is_any() {
            let file_and_rank = attacks::rook_attacks(sq, occupied);
            let black_lances = attacks::lance_pseudo_attacks(Color::White, sq) & black;
            let white_lances = attacks::lance_pseudo_attacks(Color::Black, sq) & white;
            sliders = file_and_rank & (rooks | (lances & (black_lances | white_lances)));
        }
        if on_diagonal.is_any() {
            sliders |= attacks::bishop_attacks(sq, occupied) & bishops;
        }
        steps | sliders
    }

    /// Whether any piece of `attacker` attacks `sq` (with the current occupancy).
    #[inline]
    pub fn is_attacked(&self, attacker: Color, sq: Square) -> bool {
        self.is_attacked_with(attacker, sq, self.occupied())
    }

    /// Whether any piece of `attacker` attacks `sq` with `occupied` blocking sliding pieces (the
    /// answer of `attackers_to(..).is_any()`, with early exits). For many squares of one position,
    /// [`Position::attack_sets`] once and [`AttackSets::attacks`] per square.
    #[inline]
    pub fn is_attacked_with(&self, attacker: Color, sq: Square, occupied: Bitboard) -> bool {
        self.attack_sets(attacker).attacks(sq, occupied)
    }

    /// The pieces of `attacker` grouped by how they attack, for attack tests on many squares.
    #[inline]
    pub fn attack_sets(&self, attacker: Color) -> AttackSets {
        let theirs = self.by_color[attacker.index()];
        let k = |kind: PieceKind| self.by_kind[kind.index()] & theirs;
        let movers = self.movers();
        AttackSets {
            attacker,
            pawns: k(PieceKind::Pawn),
            knights: k(PieceKind::Knight),
            silvers: k(PieceKind::Silver),
            golds: movers.golds & theirs,
            kings: movers.kings & theirs,
            rooks: movers.rooks & theirs,
            bishops: movers.bishops & theirs,
            lances: k(PieceKind::Lance),
        }
    }

    /// Pieces (of either colour) that stand alone between `king`'s square and a sliding piece of
    /// `slider_color` aiming at it, with `occupied` as the board's occupancy.
    pub(crate) fn sole_blockers(
        &self,
        king: Square,
        slider_color: Color,
        occupied: Bitboard,
    ) -> Bitboard {
        let them = self.by_color[slider_color.index()];
        let k = |kind: PieceKind| self.by_kind[kind.index()];
        let snipers = ((attacks::rook_pseudo_attacks(king)
            & (k(PieceKind::Rook) | k(PieceKind::Dragon)))
            | (attacks::bishop_pseudo_attacks(king)
                & (k(PieceKind::Bishop) | k(PieceKind::Horse)))
            | (attacks::lance_pseudo_attacks(slider_color.flip(), king) & k(PieceKind::Lance)))
            & them;
        let mut blockers = Bitboard::EMPTY;
        for s in snipers {
            let b = between(king, s) & occupied;
            if b.is_any() && !b.has_more_than_one() {
                blockers |= b;
            }
        }
        blockers
    }

    fn update_check_info(&mut self) {
        let us = self.side;
        self.checkers = match self.kings[us.index()] {
            Some(k) => self.attackers_to(us.flip(), k, self.occupied()),
            None => Bitboard::EMPTY,
        };
    }

    // ----- making moves -----

    /// Puts or lifts `p` on `sq` in the board, bitboards and key (XOR toggles both ways).
    #[inline(always)]
    fn toggle(&mut self, p: Piece, sq: Square, present: bool) {
        self.board[sq.index()] = if present { Some(p) } else { None };
        let bb = Bitboard::from_square(sq);
        self.by_color[p.color().index()] ^= bb;
        self.by_kind[p.kind().index()] ^= bb;
        self.key ^= zobrist::piece_square(p, sq);
    }

    /// As [`Position::toggle`] without the key, for undo (which restores the key saved).
    #[inline(always)]
    fn toggle_keyless(&mut self, p: Piece, sq: Square, present: bool) {
        self.board[sq.index()] = if present { Some(p) } else { None };
        let bb = Bitboard::from_square(sq);
        self.by_color[p.color().index()] ^= bb;
        self.by_kind[p.kind().index()] ^= bb;
    }

    /// Plays a legal move. The caller promises `self.is_legal(m)` (moves from the generators are);
    /// anything else may leave the position inconsistent. Use [`Position::play`] for a move from
    /// outside.
    #[inline(always)]
    pub fn do_move(&mut self, m: Move) {
        debug_assert!(self.is_legal(m), "illegal move {m} in {}", self.to_sfen());
        let us = self.side;
        let them = us.flip();
        let to = m.to();
        let mut st = StateInfo {
            key: self.key,
            mv: m,
            captured: None,
            ply: self.ply,
            checkers: self.checkers,
        };
        // The square a board move leaves: it may open a line to the enemy king.
        let mut discovered_from = None;
        let moved_kind = match m.from() {
            None => {
                let kind = m.drop_kind().unwrap_or(PieceKind::Pawn);
                let hand = &mut self.hands[us.index()];
                let n = hand.count(kind);
                hand.remove(kind);
                self.key ^= zobrist::hand(us, kind, n) ^ zobrist::hand(us, kind, n - 1);
                self.toggle(Piece::new(us, kind), to, true);
                kind
            }
            Some(from) => {
                let Some(p) = self.board[from.index()] else {
                    unreachable!("no piece on {from} for {m}")
                };
                if let Some(c) = self.board[to.index()] {
                    self.toggle(c, to, false);
                    let kind = c.kind().unpromote();
                    let hand = &mut self.hands[us.index()];
                    let n = hand.count(kind);
                    hand.add(kind);
                    self.key ^= zobrist::hand(us, kind, n) ^ zobrist::hand(us, kind, n + 1);
                    st.captured = Some(c);
                }
                self.toggle(p, from, false);
                let kind = if m.is_promotion() {
                    p.kind().promote().unwrap_or(p.kind())
                } else {
                    p.kind()
                };
                self.toggle(Piece::new(us, kind), to, true);
                if kind == PieceKind::King {
                    self.kings[us.index()] = Some(to);
                }
                discovered_from = Some(from);
                kind
            }
        };
        self.history.push(st);
        self.side = them;
        self.key ^= zobrist::SIDE;
        self.ply = self.ply.saturating_add(1);
        // Checkers of the side now to move (`them`): the moved piece, or a slider it uncovered.
        self.checkers = Bitboard::EMPTY;
        if let Some(k) = self.kings[them.index()] {
            let occ = self.occupied();
            if moved_kind != PieceKind::King && attacks::attacks_square(us, moved_kind, to, k, occ)
            {
                self.checkers = Bitboard::from_square(to);
            }
            // A discovered check comes from the first piece beyond the vacated square on its line
            // from the king (the moved piece itself, if it landed there, is counted either way).
            if let Some((hit, l)) = discovered_from.and_then(|f| attacks::first_on_line(k, f, occ))
            {
                let kinds =
                    |a: PieceKind, b: PieceKind| self.by_kind[a.index()] | self.by_kind[b.index()];
                let sliders = match l {
                    attacks::Line::Diagonal => kinds(PieceKind::Bishop, PieceKind::Horse),
                    attacks::Line::Rank => kinds(PieceKind::Rook, PieceKind::Dragon),
                    attacks::Line::File(c) if c == us => {
                        kinds(PieceKind::Rook, PieceKind::Dragon)
                            | self.by_kind[PieceKind::Lance.index()]
                    }
                    attacks::Line::File(_) => kinds(PieceKind::Rook, PieceKind::Dragon),
                };
                self.checkers |= hit & sliders & self.by_color[us.index()];
            }
        }
    }

    /// Takes back the last move played. Returns it, or `None` if no move was played since the
    /// position was built.
    #[inline(always)]
    pub fn undo_move(&mut self) -> Option<Move> {
        let st = self.history.pop()?;
        let m = st.mv;
        self.side = self.side.flip();
        self.ply = st.ply;
        let us = self.side;
        let to = m.to();
        match m.from() {
            None => {
                let kind = m.drop_kind().unwrap_or(PieceKind::Pawn);
                self.toggle_keyless(Piece::new(us, kind), to, false);
                self.hands[us.index()].add(kind);
            }
            Some(from) => {
                let Some(p) = self.board[to.index()] else {
                    unreachable!("no piece on {to} to undo {m}")
                };
                self.toggle_keyless(p, to, false);
                let kind = if m.is_promotion() {
                    p.kind().unpromote()
                } else {
                    p.kind()
                };
                self.toggle_keyless(Piece::new(us, kind), from, true);
                if kind == PieceKind::King {
                    self.kings[us.index()] = Some(from);
                }
                if let Some(c) = st.captured {
                    self.hands[us.index()].remove(c.kind().unpromote());
                    self.toggle_keyless(c, to, true);
                }
            }
        }
        self.key = st.key;
        self.checkers = st.checkers;
        Some(m)
    }
}

/// One side's pieces grouped by attack pattern (gold-like pieces together, king steps of king,
/// horse and dragon together, the sliding part of horse and dragon with bishop and rook), taken
/// from a position by [`Position::attack_sets`]. Valid for that position only.
#[derive(Clone, Copy, Debug)]
pub struct AttackSets {
    attacker: Color,
    pawns: Bitboard,
    knights: Bitboard,
    silvers: Bitboard,
    golds: Bitboard,
    kings: Bitboard,
    rooks: Bitboard,
    bishops: Bitboard,
    lances: Bitboard,
}

impl AttackSets {
    /// Whether any of the pieces attacks `sq` with `occupied` blocking sliding pieces. Step
    /// attacks are table lookups; a sliding piece is looked at only if it stands on one of `sq`'s
    /// lines, and then only the squares between it and `sq` are tested.
    #[inline]
    pub fn attacks(&self, sq: Square, occupied: Bitboard) -> bool {
        let defender = self.attacker.flip();
        let steppers = (attacks::step_attacks(defender, PieceKind::Pawn, sq) & self.pawns)
            | (attacks::step_attacks(defender, PieceKind::Knight, sq) & self.knights)
            | (attacks::step_attacks(defender, PieceKind::Silver, sq) & self.silvers)
            | (attacks::gold_attacks(defender, sq) & self.golds)
            | (king_attacks(sq) & self.kings);
        if steppers.is_any() {
            return true;
        }
        let sliders = (attacks::rook_pseudo_attacks(sq) & self.rooks)
            | (attacks::bishop_pseudo_attacks(sq) & self.bishops)
            | (attacks::lance_pseudo_attacks(defender, sq) & self.lances);
        sliders
            .into_iter()
            .any(|s| (between(s, sq) & occupied).is_empty())
    }
}

/// Pieces of both colours grouped by the way they attack (see `Position::movers`).
struct Movers {
    /// Golds and the pieces that move as a gold (promoted pawn, lance, knight, silver).
    golds: Bitboard,
    /// Pieces with the king's steps: kings, horses and dragons.
    kings: Bitboard,
    /// Rooks and dragons (file and rank lines).
    rooks: Bitboard,
    /// Bishops and horses (diagonal lines).
    bishops: Bitboard,
}
