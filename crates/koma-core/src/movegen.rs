//! Fully legal move generation, and the move checks search engines rely on.
//!
//! The core path is a callback: each generator calls `f(move)` for every move, allocating
//! nothing. [`Position::legal_moves`] and friends wrap it in a [`MoveList`].

use crate::attacks::{self, between, king_attacks, line};
use crate::{Bitboard, Color, Move, MoveList, PieceKind, Position, Square};

/// Which moves a generator yields. Every kind yields only legal moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveFilter {
    /// All legal moves (evasions when in check, non-evasions otherwise).
    All,
    /// Answers to a check (回避手): king moves, captures of the checker, interpositions by move or
    /// drop. Nothing when not in check.
    Evasions,
    /// All legal moves when not in check; nothing when in check.
    NonEvasions,
    /// Legal moves that capture a piece.
    Captures,
    /// Legal moves that capture nothing (drops included).
    Quiets,
    /// Legal moves that give check (王手), direct or discovered, board moves and drops.
    Checks,
}

/// Whether generators include non-promotions that are legal but never better than promoting:
/// pawn, bishop and rook moves that could promote, and a lance to its second-to-last rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum NonPromotions {
    /// Generate every legal move (the rules, perft, tsume where 不成 matters).
    #[default]
    All,
    /// Skip the useless non-promotions (normal play).
    SkipUseless,
}

impl Position {
    /// All legal moves in a list.
    pub fn legal_moves(&self) -> MoveList {
        self.moves(MoveFilter::All)
    }

    /// The legal moves of one [`MoveFilter`] in a list, non-promotions included.
    pub fn moves(&self, filter: MoveFilter) -> MoveList {
        let mut list = MoveList::new();
        self.generate(filter, NonPromotions::All, |m| list.push(m));
        list
    }

    /// Calls `f` for every legal move of `filter`. The allocation-free core of move generation.
    ///
    /// ```
    /// use koma_core::{MoveFilter, NonPromotions, Position};
    /// let pos = Position::from_sfen("7lk/9/8S/9/9/9/9/7L1/8K b P 1").unwrap();
    /// let mut checks = Vec::new();
    /// pos.generate(MoveFilter::Checks, NonPromotions::All, |m| checks.push(m.to_string()));
    /// // P*1b would be mate by a pawn drop (打ち歩詰め), so it is not generated.
    /// assert!(!checks.contains(&"P*1b".to_string()));
    /// assert!(checks.contains(&"1c1b+".to_string()));
    /// ```
    pub fn generate(&self, filter: MoveFilter, nonpro: NonPromotions, mut f: impl FnMut(Move)) {
        let full = nonpro == NonPromotions::All;
        let us = self.side_to_move();
        let ours = self.pieces_of(us);
        let theirs = self.pieces_of(us.flip());
        let empty = !self.occupied();
        match filter {
            MoveFilter::All => self.gen_targets(!ours, empty, full, &mut f),
            MoveFilter::Evasions if self.in_check() => self.gen_targets(!ours, empty, full, &mut f),
            MoveFilter::NonEvasions if !self.in_check() => self.gen_targets(!ours, empty, full, &mut f),
            MoveFilter::Evasions | MoveFilter::NonEvasions => {}
            MoveFilter::Captures => self.gen_targets(theirs, Bitboard::EMPTY, full, &mut f),
            MoveFilter::Quiets => self.gen_targets(empty, empty, full, &mut f),
            MoveFilter::Checks => self.gen_checks(full, &mut f),
        }
    }

    /// The number of legal moves, counted without building a list (perft's leaf count).
    pub fn count_legal_moves(&self) -> u64 {
        let mut n = 0u64;
        self.generate(MoveFilter::All, NonPromotions::All, |_| n += 1);
        n
    }

    /// Whether the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        // Generators have no early exit; king moves and evasions are few, and this is called at
        // mate tests only.
        self.count_legal_moves() > 0
    }

    /// Generates legal moves whose destination is in `board_targets` (board moves and king moves)
    /// or `drop_targets` (drops), applying check evasion, pins and every drop rule.
    fn gen_targets(&self, board_targets: Bitboard, drop_targets: Bitboard, full: bool, f: &mut impl FnMut(Move)) {
        let us = self.side_to_move();
        let king = self.king(us);
        if let Some(k) = king {
            self.gen_king(k, board_targets, f);
        }
        let (board_targets, drop_targets) = match (king, self.checkers().first()) {
            (Some(k), Some(checker)) => {
                if self.checkers().has_more_than_one() {
                    return;
                }
                let block = between(k, checker);
                (board_targets & (block | Bitboard::from_square(checker)), drop_targets & block)
            }
            _ => (board_targets, drop_targets),
        };
        let no_king = Bitboard::from_square_opt(king);
        self.gen_board(self.pieces_of(us) & !no_king, board_targets, full, f);
        self.gen_drops(drop_targets, f);
    }

    fn gen_king(&self, k: Square, targets: Bitboard, f: &mut impl FnMut(Move)) {
        let them = self.side_to_move().flip();
        let occ = self.occupied().without(k);
        for to in king_attacks(k) & targets & !self.pieces_of(self.side_to_move()) {
            if self.attackers_to(them, to, occ).is_empty() {
                f(Move::board(k, to, false));
            }
        }
    }

    /// Board moves (kings excluded) of the pieces on `from_mask` to `targets`, respecting pins.
    fn gen_board(&self, from_mask: Bitboard, targets: Bitboard, full: bool, f: &mut impl FnMut(Move)) {
        let us = self.side_to_move();
        let occ = self.occupied();
        let pinned = self.pinned();
        let king = self.king(us);
        for from in from_mask {
            let Some(p) = self.piece_at(from) else { continue };
            let kind = p.kind();
            let mut dests = attacks::attacks(us, kind, from, occ) & targets;
            if pinned.contains(from) {
                if let Some(k) = king {
                    dests &= line(k, from);
                }
            }
            emit_board_moves(us, kind, from, dests, full, f);
        }
    }

    fn gen_drops(&self, targets: Bitboard, f: &mut impl FnMut(Move)) {
        let us = self.side_to_move();
        let hand = self.hand(us);
        if hand.is_empty() || targets.is_empty() {
            return;
        }
        for kind in PieceKind::HAND {
            if !hand.has(kind) {
                continue;
            }
            for to in targets & self.drop_squares(kind) {
                f(Move::drop_unchecked(kind, to));
            }
        }
    }

    /// Squares where the side to move may drop `kind` under the board rules: empty, not a dead
    /// square, not a second pawn on a file (二歩), and not a pawn-drop mate (打ち歩詰め).
    fn drop_squares(&self, kind: PieceKind) -> Bitboard {
        let us = self.side_to_move();
        let mut sqs = !self.occupied() & allowed_ranks(us, kind);
        if kind == PieceKind::Pawn {
            sqs &= !self.pawn_files(us);
            if let Some(target) = self.pawn_drop_check_square() {
                if sqs.contains(target) && self.is_pawn_drop_mate(target) {
                    sqs = sqs.without(target);
                }
            }
        }
        sqs
    }

    /// Files holding an unpromoted pawn of `color`, as a mask of whole files.
    fn pawn_files(&self, color: Color) -> Bitboard {
        let mut files = Bitboard::EMPTY;
        for sq in self.pieces(color, PieceKind::Pawn) {
            files |= Bitboard::file_mask(sq.file());
        }
        files
    }

    /// The square where a pawn of the side to move would check the enemy king, if it has one.
    fn pawn_drop_check_square(&self) -> Option<Square> {
        let them = self.side_to_move().flip();
        let k = self.king(them)?;
        attacks::step_attacks(them, PieceKind::Pawn, k).first()
    }

    /// Whether a pawn dropped on `to` (the square in front of the enemy king) would mate.
    fn is_pawn_drop_mate(&self, to: Square) -> bool {
        let us = self.side_to_move();
        let them = us.flip();
        let Some(k) = self.king(them) else { return false };
        let occ = self.occupied().with(to);
        let occ_no_king = occ.without(k);
        // The king takes the pawn if nothing defends it.
        if self.attackers_to(us, to, occ_no_king).is_empty() {
            return false;
        }
        // Another piece takes it, unless pinned (pins computed with the pawn on the board).
        let pinned = self.sole_blockers(k, us, occ) & self.pieces_of(them);
        let takers = self.attackers_to(them, to, occ) & !Bitboard::from_square(k) & !pinned;
        if takers.is_any() {
            return false;
        }
        // The king steps away.
        for esc in king_attacks(k) & !self.pieces_of(them) & !Bitboard::from_square(to) {
            if self.attackers_to(us, esc, occ_no_king).is_empty() {
                return false;
            }
        }
        true
    }

    /// Checking moves: exact, by filtering candidates (pieces that can discover check, and
    /// destinations from which some piece could attack the king) through [`Position::gives_check`].
    fn gen_checks(&self, full: bool, f: &mut impl FnMut(Move)) {
        let us = self.side_to_move();
        let Some(ek) = self.king(us.flip()) else { return };
        let mut filtered = |m: Move| {
            if self.gives_check(m) {
                f(m)
            }
        };
        if self.in_check() {
            let empty = !self.occupied();
            self.gen_targets(!self.pieces_of(us), empty, full, &mut filtered);
            return;
        }
        let occ = self.occupied();
        let ours = self.pieces_of(us);
        let king = self.king(us);
        let disc = self.discoverers();
        let near = attacks::rook_attacks(ek, occ)
            | attacks::bishop_attacks(ek, occ)
            | attacks::step_attacks(us.flip(), PieceKind::Knight, ek)
            | king_attacks(ek);
        let no_king = Bitboard::from_square_opt(king);
        self.gen_board(disc & !no_king, !ours, full, &mut filtered);
        self.gen_board(ours & !disc & !no_king, !ours & near, full, &mut filtered);
        if let Some(k) = king {
            if disc.contains(k) {
                self.gen_king(k, !ours & !line(k, ek), &mut filtered);
            }
        }
        self.gen_drops(!occ & near, &mut filtered);
    }

    // ----- checks on single moves -----

    /// Whether `m` obeys the board rules here (the piece is the mover's, its path is clear, the
    /// destination is not its own piece, promotion is allowed, no dead piece, the drop square is
    /// empty, the piece is in hand, no 二歩), though it may leave the mover's king in check and a
    /// pawn drop may mate. Use it on moves from elsewhere (hash move, killer, user input) before
    /// [`Position::is_legal`] or playing them.
    pub fn is_pseudo_legal(&self, m: Move) -> bool {
        let us = self.side_to_move();
        let to = m.to();
        match m.from() {
            None => {
                let Some(kind) = m.drop_kind() else { return false };
                self.hand(us).has(kind)
                    && self.piece_at(to).is_none()
                    && allowed_ranks(us, kind).contains(to)
                    && (kind != PieceKind::Pawn || !self.pawn_files(us).contains(to))
            }
            Some(from) => {
                let Some(p) = self.piece_at(from) else { return false };
                if p.color() != us || self.pieces_of(us).contains(to) {
                    return false;
                }
                if !attacks::attacks(us, p.kind(), from, self.occupied()).contains(to) {
                    return false;
                }
                if m.is_promotion() {
                    p.kind().can_promote() && (from.in_promotion_zone(us) || to.in_promotion_zone(us))
                } else {
                    allowed_ranks(us, p.kind()).contains(to)
                }
            }
        }
    }

    /// Whether `m` is legal here: pseudo-legal (see [`Position::is_pseudo_legal`]), not a
    /// suicide move (自殺手: a pinned piece off its line, a king onto an attacked square, a move
    /// that ignores a check), and not a pawn-drop mate (打ち歩詰め).
    pub fn is_legal(&self, m: Move) -> bool {
        self.is_pseudo_legal(m) && self.is_legal_pseudo(m)
    }

    /// The legality part of [`Position::is_legal`] for a move already known to be pseudo-legal.
    pub fn is_legal_pseudo(&self, m: Move) -> bool {
        let us = self.side_to_move();
        let to = m.to();
        if m.drop_kind() == Some(PieceKind::Pawn)
            && self.pawn_drop_check_square() == Some(to)
            && self.is_pawn_drop_mate(to)
        {
            return false;
        }
        let Some(k) = self.king(us) else { return true };
        if m.from() == Some(k) {
            return self.attackers_to(us.flip(), to, self.occupied().without(k)).is_empty();
        }
        if let Some(checker) = self.checkers().first() {
            if self.checkers().has_more_than_one() {
                return false;
            }
            if to != checker && !between(k, checker).contains(to) {
                return false;
            }
        }
        match m.from() {
            Some(from) if self.pinned().contains(from) => line(k, from).contains(to),
            _ => true,
        }
    }

    /// Whether the pseudo-legal move `m` gives check, directly or by discovery, judged before it
    /// is made.
    pub fn gives_check(&self, m: Move) -> bool {
        let us = self.side_to_move();
        let Some(ek) = self.king(us.flip()) else { return false };
        let to = m.to();
        match m.from() {
            None => {
                let Some(kind) = m.drop_kind() else { return false };
                attacks::attacks(us, kind, to, self.occupied()).contains(ek)
            }
            Some(from) => {
                let Some(p) = self.piece_at(from) else { return false };
                let kind = if m.is_promotion() { p.kind().promote().unwrap_or(p.kind()) } else { p.kind() };
                let occ = self.occupied().without(from).with(to);
                (kind != PieceKind::King && attacks::attacks(us, kind, to, occ).contains(ek))
                    || (self.discoverers().contains(from) && !line(ek, from).contains(to))
            }
        }
    }

    /// Whether the side to move is checkmated (in check with no legal move).
    pub fn is_checkmate(&self) -> bool {
        self.in_check() && !self.has_legal_move()
    }

    /// Plays `m` if it is legal here; otherwise returns `false` and changes nothing.
    pub fn play(&mut self, m: Move) -> bool {
        if self.is_legal(m) {
            self.do_move(m);
            true
        } else {
            false
        }
    }
}

/// Squares where an unpromoted `kind` of `color` may stand (not a dead square).
#[inline]
fn allowed_ranks(color: Color, kind: PieceKind) -> Bitboard {
    const fn not_ranks(a: u8, b: u8) -> Bitboard {
        Bitboard(!(Bitboard::rank_mask(a).0 | Bitboard::rank_mask(b).0) & Bitboard::FULL.0)
    }
    // [colour][0: pawn and lance, 1: knight]
    const ALLOWED: [[Bitboard; 2]; 2] = [[not_ranks(1, 1), not_ranks(1, 2)], [not_ranks(9, 9), not_ranks(9, 8)]];
    match kind {
        PieceKind::Pawn | PieceKind::Lance => ALLOWED[color.index()][0],
        PieceKind::Knight => ALLOWED[color.index()][1],
        _ => Bitboard::FULL,
    }
}

/// Emits the board moves of one piece to `dests`, with promotion and non-promotion as the rules
/// and the [`NonPromotions`] choice allow.
#[inline]
fn emit_board_moves(us: Color, kind: PieceKind, from: Square, dests: Bitboard, full: bool, f: &mut impl FnMut(Move)) {
    if !kind.can_promote() {
        for to in dests {
            f(Move::board(from, to, false));
        }
        return;
    }
    let from_zone = from.in_promotion_zone(us);
    for to in dests {
        let zone = from_zone || to.in_promotion_zone(us);
        if !zone {
            f(Move::board(from, to, false));
            continue;
        }
        f(Move::board(from, to, true));
        let rr = to.relative_rank(us);
        let keep_unpromoted = match kind {
            PieceKind::Pawn => full && rr > 1,
            PieceKind::Lance => rr > 2 || (full && rr == 2),
            PieceKind::Knight => rr > 2,
            PieceKind::Silver => true,
            _ => full,
        };
        if keep_unpromoted {
            f(Move::board(from, to, false));
        }
    }
}
