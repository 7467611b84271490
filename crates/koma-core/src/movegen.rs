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

/// A group of legal moves with one origin, handed to the callback of
/// [`Position::generate_sets`]: destinations stay packed in bitboards, so code that only counts
/// moves (perft, mobility) never builds a [`Move`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveSet {
    /// Board moves of the piece of `kind` on `from`: to each square of `promote` with promotion,
    /// to each square of `stay` without. The two sets overlap where promotion is optional.
    Board {
        /// The kind of the moving piece.
        kind: PieceKind,
        /// Its square.
        from: Square,
        /// Destinations reached by promoting.
        promote: Bitboard,
        /// Destinations reached without promoting.
        stay: Bitboard,
    },
    /// One-square pawn pushes of several pawns of `color` at once: the pawn moving to a
    /// destination stands on the square behind it (from `color`'s side). Promotions to `promote`,
    /// non-promotions to `stay`, as in [`MoveSet::Board`].
    Pawns {
        /// The side whose pawns move.
        color: Color,
        /// Destinations reached by promoting.
        promote: Bitboard,
        /// Destinations reached without promoting.
        stay: Bitboard,
    },
    /// Drops of `kind` on each square of `to`.
    Drop {
        /// The kind dropped.
        kind: PieceKind,
        /// Where it may be dropped.
        to: Bitboard,
    },
}

impl MoveSet {
    /// The number of moves in the set.
    #[inline]
    pub fn len(&self) -> u32 {
        match *self {
            MoveSet::Board { promote, stay, .. } | MoveSet::Pawns { promote, stay, .. } => {
                promote.count_sparse() + stay.count_sparse()
            }
            MoveSet::Drop { to, .. } => to.count(),
        }
    }

    /// Whether the set holds no move.
    #[inline]
    pub fn is_empty(&self) -> bool {
        match *self {
            MoveSet::Board { promote, stay, .. } | MoveSet::Pawns { promote, stay, .. } => {
                (promote | stay).is_empty()
            }
            MoveSet::Drop { to, .. } => to.is_empty(),
        }
    }

    /// Calls `f` with each move of the set: promotions first, then non-promotions, each in square
    /// order.
    #[inline]
    pub fn for_each(self, mut f: impl FnMut(Move)) {
        match self {
            MoveSet::Board {
                from,
                promote,
                stay,
                ..
            } => {
                for to in promote {
                    f(Move::board(from, to, true));
                }
                for to in stay {
                    f(Move::board(from, to, false));
                }
            }
            MoveSet::Pawns {
                color,
                promote,
                stay,
            } => {
                let from = |to: Square| pawn_origin(color, to);
                for to in promote {
                    f(Move::board(from(to), to, true));
                }
                for to in stay {
                    f(Move::board(from(to), to, false));
                }
            }
            MoveSet::Drop { kind, to } => {
                for sq in to {
                    f(Move::drop_unchecked(kind, sq));
                }
            }
        }
    }
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
        self.generate_sets(filter, nonpro, |set| set.for_each(&mut f));
    }

    /// Calls `f` with every group of legal moves of `filter` that share an origin (see
    /// [`MoveSet`]). No set is empty.
    pub fn generate_sets(
        &self,
        filter: MoveFilter,
        nonpro: NonPromotions,
        mut f: impl FnMut(MoveSet),
    ) {
        let full = nonpro == NonPromotions::All;
        let us = self.side_to_move();
        let ours = self.pieces_of(us);
        let theirs = self.pieces_of(us.flip());
        let empty = !self.occupied();
        let f = &mut f;
        match filter {
            MoveFilter::All => self.gen_targets(!ours, empty, full, f),
            MoveFilter::Evasions if self.in_check() => self.gen_targets(!ours, empty, full, f),
            MoveFilter::NonEvasions if !self.in_check() => self.gen_targets(!ours, empty, full, f),
            MoveFilter::Evasions | MoveFilter::NonEvasions => {}
            MoveFilter::Captures => self.gen_targets(theirs, Bitboard::EMPTY, full, f),
            MoveFilter::Quiets => self.gen_targets(empty, empty, full, f),
            MoveFilter::Checks => self.gen_checks(full, f),
        }
    }

    /// The number of legal moves, counted without building a list (perft's leaf count).
    pub fn count_legal_moves(&self) -> u64 {
        let mut n = 0u64;
        self.generate_sets(MoveFilter::All, NonPromotions::All, |set| {
            n += set.len() as u64
        });
        n
    }

    /// Whether the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        if self.in_check() {
            return self.has_evasion();
        }
        // Not in check: almost every position has a move, and generation stops at nothing; this
        // is called at status tests only.
        self.count_legal_moves() > 0
    }

    /// Whether the side to move, in check, has a legal answer (回避手); `false` when not in
    /// check. Stops at the first answer found: king steps first, then captures of the checker and
    /// interpositions by board moves, then drops. A mate solver asks this of every check it
    /// tries, so it builds no move.
    ///
    /// ```
    /// use koma_core::Position;
    /// // Gold drop on 5b: the king on 5a has no answer.
    /// let mut pos = Position::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b G 1").unwrap();
    /// pos.do_move("G*5b".parse().unwrap());
    /// assert!(pos.in_check() && !pos.has_evasion());
    /// ```
    pub fn has_evasion(&self) -> bool {
        let us = self.side_to_move();
        let Some(k) = self.king(us) else {
            return false;
        };
        let checkers = self.checkers();
        let Some(checker) = checkers.first() else {
            return false;
        };
        let them = us.flip();
        let ours = self.pieces_of(us);
        let occ = self.occupied();
        let enemy = self.attack_sets(them);
        let occ_no_king = occ.without(k);
        for to in king_attacks(k) & !ours {
            if !enemy.attacks(to, occ_no_king) {
                return true;
            }
        }
        if checkers.has_more_than_one() {
            return false;
        }
        // A board move of a non-king piece to the checker or a square between: every piece that
        // attacks a square may move there (promoting where it must), unless pinned off its line.
        let block = between(k, checker);
        let pinned = self.pinned();
        let movers = |sq: Square| {
            let mut m = self.attackers_to(us, sq, occ).without(k);
            for p in m & pinned {
                if !line(k, p).contains(sq) {
                    m = m.without(p);
                }
            }
            m.is_any()
        };
        if movers(checker) || block.into_iter().any(movers) {
            return true;
        }
        block.is_any()
            && PieceKind::HAND
                .iter()
                .any(|&kind| self.hand(us).has(kind) && (block & self.drop_squares(kind)).is_any())
    }

    /// Generates legal moves whose destination is in `board_targets` (board moves and king moves)
    /// or `drop_targets` (drops), applying check evasion, pins and every drop rule.
    fn gen_targets(
        &self,
        board_targets: Bitboard,
        drop_targets: Bitboard,
        full: bool,
        f: &mut impl FnMut(MoveSet),
    ) {
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
                (
                    board_targets & (block | Bitboard::from_square(checker)),
                    drop_targets & block,
                )
            }
            _ => (board_targets, drop_targets),
        };
        self.gen_board(self.pieces_of(us), board_targets, self.pinned(), full, f);
        self.gen_drops(drop_targets, f);
    }

    fn gen_king(&self, k: Square, targets: Bitboard, f: &mut impl FnMut(MoveSet)) {
        let them = self.side_to_move().flip();
        let occ = self.occupied().without(k);
        let enemy = self.attack_sets(them);
        let mut stay = Bitboard::EMPTY;
        for to in king_attacks(k) & targets & !self.pieces_of(self.side_to_move()) {
            if !enemy.attacks(to, occ) {
                stay = stay.with(to);
            }
        }
        if stay.is_any() {
            f(MoveSet::Board {
                kind: PieceKind::King,
                from: k,
                promote: Bitboard::EMPTY,
                stay,
            });
        }
    }

    /// Board moves of the non-king pieces on `from_mask` to `targets`, keeping the pieces in
    /// `pinned` on their line to the king. One loop per kind, so each loop knows its attack
    /// function and promotion rule at compile time.
    #[inline]
    fn gen_board(
        &self,
        from_mask: Bitboard,
        targets: Bitboard,
        pinned: Bitboard,
        full: bool,
        f: &mut impl FnMut(MoveSet),
    ) {
        use PieceKind::*;
        let us = self.side_to_move();
        let occ = self.occupied();
        let king = self.king(us);
        let any_pinned = pinned.is_any();
        // All pawns step at once; a pinned pawn only along its line to the king.
        let of = |kind: PieceKind| self.pieces_of_kind(kind) & from_mask;
        let pawns = of(Pawn);
        let mut pushes = pawn_pushes(us, pawns & !pinned);
        if let Some(k) = king {
            for from in pawns & pinned {
                pushes |= pawn_pushes(us, Bitboard::from_square(from)) & line(k, from);
            }
        }
        let pushes = pushes & targets;
        if pushes.is_any() {
            f(pawn_set(us, pushes, full));
        }
        let mut one = |kind: PieceKind, from: Square, attacks: Bitboard| {
            let mut dests = attacks & targets;
            if any_pinned
                && pinned.contains(from)
                && let Some(k) = king
            {
                dests &= line(k, from);
            }
            if dests.is_any() {
                f(board_set(us, kind, from, dests, full));
            }
        };
        for from in of(Lance) {
            one(Lance, from, attacks::lance_attacks(us, from, occ));
        }
        for from in of(Knight) {
            one(Knight, from, attacks::step_attacks(us, Knight, from));
        }
        for from in of(Silver) {
            one(Silver, from, attacks::step_attacks(us, Silver, from));
        }
        for kind in [Gold, ProPawn, ProLance, ProKnight, ProSilver] {
            for from in of(kind) {
                one(kind, from, attacks::gold_attacks(us, from));
            }
        }
        for from in of(Bishop) {
            one(Bishop, from, attacks::bishop_attacks(from, occ));
        }
        for from in of(Rook) {
            one(Rook, from, attacks::rook_attacks(from, occ));
        }
        for from in of(Horse) {
            one(
                Horse,
                from,
                attacks::bishop_attacks(from, occ) | king_attacks(from),
            );
        }
        for from in of(Dragon) {
            one(
                Dragon,
                from,
                attacks::rook_attacks(from, occ) | king_attacks(from),
            );
        }
    }

    fn gen_drops(&self, targets: Bitboard, f: &mut impl FnMut(MoveSet)) {
        let us = self.side_to_move();
        let hand = self.hand(us);
        if hand.is_empty() || targets.is_empty() {
            return;
        }
        for kind in PieceKind::HAND {
            if !hand.has(kind) {
                continue;
            }
            let to = targets & self.drop_squares(kind);
            if to.is_any() {
                f(MoveSet::Drop { kind, to });
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
            if let Some(target) = self.pawn_drop_check_square()
                && sqs.contains(target)
                && self.is_pawn_drop_mate(target)
            {
                sqs = sqs.without(target);
            }
        }
        sqs
    }

    /// Files holding an unpromoted pawn of `color`, as a mask of whole files.
    fn pawn_files(&self, color: Color) -> Bitboard {
        self.pieces(color, PieceKind::Pawn).fill_files()
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
        let Some(k) = self.king(them) else {
            return false;
        };
        let occ = self.occupied().with(to);
        let occ_no_king = occ.without(k);
        let ours = self.attack_sets(us);
        // The king takes the pawn if nothing defends it.
        if !ours.attacks(to, occ_no_king) {
            return false;
        }
        // The king steps away (tested before the takers, whose pins cost more).
        for esc in king_attacks(k) & !self.pieces_of(them) & !Bitboard::from_square(to) {
            if !ours.attacks(esc, occ_no_king) {
                return false;
            }
        }
        // Another piece takes it, unless pinned (pins computed with the pawn on the board, and
        // only where some piece could take).
        let takers = self.attackers_to(them, to, occ).without(k);
        takers.is_empty()
            || (takers & !(self.sole_blockers(k, us, occ) & self.pieces_of(them))).is_empty()
    }

    /// Checking moves (王手), as sets. Exact and set-wise: a move checks directly when its
    /// destination is one from which the moved (or promoted) kind attacks the enemy king — the
    /// king's own attacks as that kind of the other colour, computed once — and by discovery when
    /// a discoverer leaves its line to the king. The occupancy used still holds the moving piece;
    /// that is exact because a slider that leaves a line through the king could only add an attack
    /// along it if it already attacked the king, which a legal position with us to move excludes.
    fn gen_checks(&self, full: bool, f: &mut impl FnMut(MoveSet)) {
        use PieceKind::*;
        let us = self.side_to_move();
        let Some(ek) = self.king(us.flip()) else {
            return;
        };
        let them = us.flip();
        let occ = self.occupied();
        let ours = self.pieces_of(us);
        let rook = attacks::rook_attacks(ek, occ);
        let bishop = attacks::bishop_attacks(ek, occ);
        // Filled kind by kind, not by a loop with a match over the fourteen kinds (a mate
        // solver generates checks at every attacker node).
        let mut check_squares = [Bitboard::EMPTY; 14];
        let step = |kind: PieceKind| attacks::step_attacks(them, kind, ek);
        let king_steps = king_attacks(ek);
        check_squares[Pawn.index()] = step(Pawn);
        check_squares[Lance.index()] = attacks::lance_attacks(them, ek, occ);
        check_squares[Knight.index()] = step(Knight);
        check_squares[Silver.index()] = step(Silver);
        check_squares[Gold.index()] = step(Gold);
        check_squares[Bishop.index()] = bishop;
        check_squares[Rook.index()] = rook;
        for kind in [ProPawn, ProLance, ProKnight, ProSilver] {
            check_squares[kind.index()] = step(kind);
        }
        check_squares[Horse.index()] = bishop | king_steps;
        check_squares[Dragon.index()] = rook | king_steps;
        let near = check_squares.iter().fold(Bitboard::EMPTY, |a, &b| a | b);
        let disc = self.discoverers();
        let mut disc_pawn_pushes = Bitboard::EMPTY;
        for from in self.pieces(us, Pawn) & disc {
            disc_pawn_pushes |= pawn_pushes(us, Bitboard::from_square(from)) & !line(ek, from);
        }
        let cs = |kind: PieceKind| check_squares[kind.index()];
        let mut checking = |set: MoveSet| {
            let set = match set {
                MoveSet::Board {
                    kind,
                    from,
                    promote,
                    stay,
                } => {
                    let open = if disc.contains(from) {
                        !line(ek, from)
                    } else {
                        Bitboard::EMPTY
                    };
                    let promoted = kind.promote().map_or(Bitboard::EMPTY, cs);
                    MoveSet::Board {
                        kind,
                        from,
                        promote: promote & (promoted | open),
                        stay: stay & (cs(kind) | open),
                    }
                }
                MoveSet::Pawns {
                    color,
                    promote,
                    stay,
                } => MoveSet::Pawns {
                    color,
                    promote: promote & (cs(ProPawn) | disc_pawn_pushes),
                    stay: stay & (cs(Pawn) | disc_pawn_pushes),
                },
                MoveSet::Drop { kind, to } => MoveSet::Drop {
                    kind,
                    to: to & cs(kind),
                },
            };
            if !set.is_empty() {
                f(set);
            }
        };
        if self.in_check() {
            self.gen_targets(!ours, !occ, full, &mut checking);
            return;
        }
        // Origins that can give a direct check: every slider, step pieces near enough.
        let mut direct = self.pieces(us, Lance)
            | self.pieces(us, Bishop)
            | self.pieces(us, Rook)
            | self.pieces(us, Horse)
            | self.pieces(us, Dragon);
        for kind in [
            Pawn, Knight, Silver, Gold, ProPawn, ProLance, ProKnight, ProSilver,
        ] {
            direct |= self.pieces(us, kind) & attacks::check_candidates(us, kind, ek);
        }
        let pinned = self.pinned();
        if disc.is_any() {
            self.gen_board(disc, !ours, pinned, full, &mut checking);
        }
        self.gen_board(direct & !disc, !ours & near, pinned, full, &mut checking);
        if let Some(k) = self.king(us)
            && disc.contains(k)
        {
            self.gen_king(k, !ours & !line(k, ek), &mut checking);
        }
        self.gen_drops(!occ & near, &mut checking);
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
                let Some(kind) = m.drop_kind() else {
                    return false;
                };
                self.hand(us).has(kind)
                    && self.piece_at(to).is_none()
                    && allowed_ranks(us, kind).contains(to)
                    && (kind != PieceKind::Pawn || !self.pawn_files(us).contains(to))
            }
            Some(from) => {
                let Some(p) = self.piece_at(from) else {
                    return false;
                };
                if p.color() != us || self.pieces_of(us).contains(to) {
                    return false;
                }
                if !attacks::attacks(us, p.kind(), from, self.occupied()).contains(to) {
                    return false;
                }
                if m.is_promotion() {
                    p.kind().can_promote()
                        && (from.in_promotion_zone(us) || to.in_promotion_zone(us))
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
            return !self.is_attacked_with(us.flip(), to, self.occupied().without(k));
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
        let Some(ek) = self.king(us.flip()) else {
            return false;
        };
        let to = m.to();
        match m.from() {
            None => {
                let Some(kind) = m.drop_kind() else {
                    return false;
                };
                attacks::attacks_square(us, kind, to, ek, self.occupied())
            }
            Some(from) => {
                let Some(kind) = self.moved_kind(m) else {
                    return false;
                };
                let occ = self.occupied().without(from).with(to);
                (kind != PieceKind::King && attacks::attacks_square(us, kind, to, ek, occ))
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
    const ALLOWED: [[Bitboard; 2]; 2] = [
        [not_ranks(1, 1), not_ranks(1, 2)],
        [not_ranks(9, 9), not_ranks(9, 8)],
    ];
    match kind {
        PieceKind::Pawn | PieceKind::Lance => ALLOWED[color.index()][0],
        PieceKind::Knight => ALLOWED[color.index()][1],
        _ => Bitboard::FULL,
    }
}

/// Squares one step ahead of `pawns` (of `color`). A pawn never stands on its last rank, so no
/// step leaves its file.
#[inline]
fn pawn_pushes(color: Color, pawns: Bitboard) -> Bitboard {
    // Square index = (file - 1) * 9 + rank - 1: ahead is one index down for Black, up for White.
    match color {
        Color::Black => Bitboard::from_bits(pawns.bits() >> 1),
        Color::White => Bitboard::from_bits(pawns.bits() << 1),
    }
}

/// The square of the `color` pawn that steps to `to`.
#[inline]
fn pawn_origin(color: Color, to: Square) -> Square {
    let i = to.index() as u8;
    Square::new_unchecked(match color {
        Color::Black => i + 1,
        Color::White => i - 1,
    })
}

/// Pawn pushes to `dests` split into promotions and non-promotions: every destination in the
/// zone may promote (a pawn enters or moves within the zone); the last rank only by promoting,
/// the rest of the zone not at all when useless non-promotions are skipped.
#[inline(always)]
fn pawn_set(us: Color, dests: Bitboard, full: bool) -> MoveSet {
    let c = us.index();
    MoveSet::Pawns {
        color: us,
        promote: dests & ZONE[c],
        stay: dests & !(if full { LAST1[c] } else { ZONE[c] }),
    }
}

const fn ranks(a: u8, b: u8, c: u8) -> Bitboard {
    Bitboard(Bitboard::rank_mask(a).0 | Bitboard::rank_mask(b).0 | Bitboard::rank_mask(c).0)
}
/// By colour: the promotion zone.
const ZONE: [Bitboard; 2] = [ranks(1, 2, 3), ranks(7, 8, 9)];
/// By colour: the last rank.
const LAST1: [Bitboard; 2] = [ranks(1, 1, 1), ranks(9, 9, 9)];
/// By colour: the last two ranks.
const LAST2: [Bitboard; 2] = [ranks(1, 2, 2), ranks(8, 9, 9)];

/// The board moves of one piece to `dests`, split into promotions and non-promotions as the rules
/// and the [`NonPromotions`] choice allow. Not for pawns ([`pawn_set`]).
#[inline(always)]
fn board_set(us: Color, kind: PieceKind, from: Square, dests: Bitboard, full: bool) -> MoveSet {
    debug_assert!(kind != PieceKind::Pawn, "pawn moves are split by pawn_set");
    let c = us.index();
    if !kind.can_promote() {
        return MoveSet::Board {
            kind,
            from,
            promote: Bitboard::EMPTY,
            stay: dests,
        };
    }
    let from_zone = ZONE[c].contains(from);
    let promote = if from_zone { dests } else { dests & ZONE[c] };
    let stay = match kind {
        PieceKind::Lance if full => dests & !LAST1[c],
        PieceKind::Lance | PieceKind::Knight => dests & !LAST2[c],
        PieceKind::Silver => dests,
        _ if full => dests,
        _ if from_zone => Bitboard::EMPTY,
        _ => dests & !ZONE[c],
    };
    MoveSet::Board {
        kind,
        from,
        promote,
        stay,
    }
}
