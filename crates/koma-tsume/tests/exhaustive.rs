//! koma-tsume against an independent exhaustive search (tests/oracle/mod.rs: koma-core
//! only, every check and evasion to a fixed depth) on generated short problems. koma leaves out
//! exactly the useless interpositions, so its minimax length lies between the oracle's with the
//! free ones all left out and with every one counted; where the answer has no longer defence
//! (its line is then its minimax length) the two bounds must hold of the answer itself, and
//! where they meet, or the bounded uselessness test decided every interposition, they must
//! equal it.

mod oracle;

use koma_core::rng::Rng;
use koma_core::{Color, Hand, Piece, PieceKind, Position, Setup, Square};
use koma_tsume::{Cancel, Finding, Options, Verdict, check};
use oracle::{DfPn, Exhaustive, Interpositions, Oracle};

/// The depth the oracle searches to (plies).
const DEPTH: u16 = 7;

/// The kinds a hand holds (any order would do; the seed fixes the problems).
const KINDS: [PieceKind; 7] = PieceKind::HAND_WRITING_ORDER;

/// A random short problem near the defender's (White's) king in a corner region: a few pieces
/// of each side, one or two pieces in Black's hand, sometimes a pawn or a gold in White's (so
/// that interpositions arise). `None` when the setup is not a legal position.
fn problem(rng: &mut Rng) -> Option<Position> {
    let mut s = Setup::empty();
    let sq = |rng: &mut Rng, files: u8, ranks: u8| {
        Square::from_file_rank(
            1 + rng.below(files as usize) as u8,
            1 + rng.below(ranks as usize) as u8,
        )
    };
    let king = sq(rng, 4, 2)?;
    s.board[king.index()] = Some(Piece::new(Color::White, PieceKind::King));
    for (color, count, ranks) in [
        (Color::White, 1 + rng.below(3), 3),
        (Color::Black, 1 + rng.below(3), 5),
    ] {
        for _ in 0..count {
            let at = sq(rng, 6, ranks)?;
            let mut kind = KINDS[rng.below(KINDS.len())];
            if rng.below(4) == 0 {
                kind = kind.promote().unwrap_or(kind);
            }
            if s.board[at.index()].is_none() {
                s.board[at.index()] = Some(Piece::new(color, kind));
            }
        }
    }
    let mut black = Hand::EMPTY;
    for _ in 0..1 + rng.below(2) {
        black.add(KINDS[rng.below(KINDS.len())]);
    }
    let mut white = Hand::EMPTY;
    if rng.below(2) == 0 {
        white.add([PieceKind::Pawn, PieceKind::Gold][rng.below(2)]);
    }
    s.hands = [black, white];
    s.side_to_move = Color::Black;
    Position::from_setup(&s).ok()
}

#[test]
#[ignore = "heavy: about 15 s in release (scripts/test runs it), minutes in debug"]
fn koma_agrees_with_an_exhaustive_search_on_generated_short_problems() {
    let mut rng = Rng::new(0x7375_6d65);
    let options = Options::default().hash_mib(4).nodes(2_000_000);
    let (mut mates, mut exact, mut with_interpositions, mut tried) = (0, 0, 0, 0);
    while mates < 40 {
        tried += 1;
        assert!(tried < 20_000, "too few mates generated: {mates}");
        let Some(pos) = problem(&mut rng) else {
            continue;
        };
        let mut every = Exhaustive::new(Interpositions::Every);
        let upper = every.shortest(&pos, DEPTH);
        let mut free = Exhaustive::new(Interpositions::FreeLeftOut);
        let lower = free.shortest(&pos, DEPTH);
        let Some(lower) = lower else {
            // No mate within DEPTH even without the free interpositions: koma's is longer.
            continue;
        };
        let c = check(&pos, &options, None, &mut |_| {}, &Cancel::new()).expect("a mate problem");
        let sfen = pos.to_sfen();
        if matches!(c.verdict, Verdict::Unknown(_)) {
            continue;
        }
        assert_ne!(
            c.verdict,
            Verdict::NoMate,
            "{sfen}: the oracle mates within {lower}"
        );
        let answer = c.answer.as_ref().expect("a mate has an answer");
        let len = answer.len() as u16;
        mates += 1;
        if let Some(upper) = upper {
            assert!(
                len <= upper,
                "{sfen}: koma {len}, every interposition counted {upper}"
            );
        }
        let longer = c
            .findings
            .iter()
            .any(|f| matches!(f, Finding::LongerDefence { .. }));
        if longer {
            continue;
        }
        // No longer defence along the answer: its line is its minimax length.
        assert!(
            lower <= len,
            "{sfen}: koma {len}, free interpositions left out {lower}"
        );
        let mut tested = Exhaustive::new(Interpositions::Tested(DEPTH + 1));
        let decided = tested.shortest(&pos, DEPTH);
        with_interpositions += (every.counts().interpositions > 0) as usize;
        // The exact length where the bounds meet, or where the bounded test decided every
        // interposition (`None`: longer than DEPTH).
        let known = if Some(lower) == upper {
            Some(Some(lower))
        } else {
            (tested.counts().undecided == 0).then_some(decided)
        };
        match known {
            Some(Some(n)) => assert_eq!(len, n, "{sfen}: koma's length against the oracle's"),
            Some(None) => assert!(
                len > DEPTH,
                "{sfen}: koma {len}, the oracle none within {DEPTH}"
            ),
            None => continue,
        }
        exact += 1;
    }
    eprintln!(
        "{tried} tried, {mates} mates, {exact} exact, {with_interpositions} with interpositions"
    );
    assert!(
        exact >= 20 && with_interpositions >= 5,
        "exact {exact}, with interpositions {with_interpositions}"
    );
}

/// The oracle's df-pn (`DfPn`, the deep tool) gives the plain search's values on the same
/// problems, in each way of counting interpositions, from the attacker's nodes and from the
/// defender's after each check.
#[test]
#[ignore = "heavy: seconds in release (scripts/test runs it), minutes in debug"]
fn the_oracles_dfpn_agrees_with_its_plain_search() {
    let mut rng = Rng::new(0x6466_706e);
    let (mut mates, mut tried, mut interpositions, mut compared) = (0, 0, 0, 0);
    while mates < 12 {
        tried += 1;
        assert!(tried < 20_000, "too few mates generated: {mates}");
        let Some(pos) = problem(&mut rng) else {
            continue;
        };
        for mode in [
            Interpositions::Every,
            Interpositions::FreeLeftOut,
            Interpositions::Tested(DEPTH + 1),
        ] {
            let mut plain = Exhaustive::new(mode);
            let mut dfpn = DfPn::new(mode);
            let sfen = pos.to_sfen();
            let expected = plain.shortest(&pos, DEPTH);
            assert_eq!(dfpn.shortest(&pos, DEPTH), expected, "{sfen} {mode:?}");
            // Every depth, not only the shortest: "mate within d" is monotone in d, but the
            // df-pn's values are asked out of order here, from a table holding the others.
            for d in (1..=DEPTH).step_by(2).rev() {
                assert_eq!(
                    dfpn.attack(&pos, d),
                    plain.attack(&pos, d),
                    "{sfen} {mode:?} {d}"
                );
            }
            for m in pos.legal_moves().iter().copied() {
                let mut p = pos.clone();
                p.do_move(m);
                if !p.in_check() {
                    continue;
                }
                for d in [DEPTH - 1, 2] {
                    let mut fresh = DfPn::new(mode);
                    assert_eq!(
                        fresh.defend(&p, d),
                        plain.defend(&p, d),
                        "{sfen} {m} {mode:?} {d}"
                    );
                    compared += 1;
                }
            }
            if mode == Interpositions::Every {
                mates += usize::from(expected.is_some());
                interpositions += usize::from(plain.counts().interpositions > 0);
            }
        }
    }
    eprintln!(
        "{tried} tried, {mates} mates, {interpositions} with interpositions, {compared} defender values"
    );
    assert!(interpositions >= 3, "with interpositions {interpositions}");
}

/// A capture of an interposed piece that ends the check proves nothing about the interposition.
/// White's king on 1a, a knight in hand, is checked by Black's lance on 1d; Black's bishop next
/// to it on 2a is guarded by the horse on 4c. After △１三桂 the lance takes it for free: promoting
/// (1d1c+), the promoted lance no longer reaches 1a, which leaves White to move out of check, a
/// position that says nothing (there, every White move happens to lose within the bound);
/// unpromoted (1d1c), the attacker finds no mate without the knight within the test's bound
/// (nor within 31 plies: the example's `--dfpn`), so the interposition counts and White is not
/// mated within 2 plies (▲１三香不成 lets the king out to 2b). Asking about the promoting capture
/// left the interposition out and made it mate.
#[test]
fn a_capture_that_ends_the_check_does_not_make_an_interposition_useless() {
    let pos = Position::from_sfen("7Bk/9/5+B3/8L/9/9/9/9/9 w n 1").expect("a legal position");
    assert!(pos.in_check());
    let mode = Interpositions::Tested(DEPTH + 1);
    let mut plain = Exhaustive::new(mode);
    assert!(!plain.defend(&pos, 2));
    assert!(plain.counts().undecided > 0);
    assert!(!DfPn::new(mode).defend(&pos, 2));
    // Every interposition counted: the same value.
    assert!(!Exhaustive::new(Interpositions::Every).defend(&pos, 2));
}
