//! Malformed and illegal input: every bad SFEN or USI `position` string gives a typed error that
//! names the problem and where (field, rank, column, move index), never a panic. Covers bad rank
//! counts and lengths, unknown letters, bad promotions, hand counts out of range, missing and
//! extra fields, a bad side character, bad move numbers (including one that would overflow when
//! a move is played), illegal positions, and bad or illegal moves in a `moves` list.

use koma_core::usi::{UsiPositionError, parse_position};
use koma_core::{Color, FromSfenError, PieceKind, Position, Setup, SetupProblem, SfenError};

fn sfen_err(s: &str) -> SfenError {
    match Setup::from_sfen(s) {
        Ok(_) => panic!("accepted: {s}"),
        Err(e) => e,
    }
}

/// Asserts that the SFEN is rejected with an error matching the pattern, showing it otherwise.
macro_rules! assert_sfen_err {
    ($s:expr, $($pat:tt)+) => {{
        let e = sfen_err($s);
        assert!(matches!(e, $($pat)+), "{}: got {e:?}", $s);
    }};
}

fn problems(s: &str) -> Vec<SetupProblem> {
    match Position::from_sfen(s) {
        Err(FromSfenError::Illegal(e)) => e.problems,
        other => panic!("{s}: expected an illegal position, got {other:?}"),
    }
}

#[test]
fn board_errors_name_rank_and_column() {
    use SfenError::*;
    assert_eq!(
        sfen_err("9/9/9/9/9/9/9/9/9/9 b - 1"),
        RankCount { ranks: 10 }
    );
    assert_eq!(
        sfen_err("9/9/9/9/9/9/9/9/ b - 1"),
        RankLength {
            rank: 9,
            squares: 0,
            column: 17
        }
    );
    assert_eq!(
        sfen_err("lnsgkgsnl/1r5b/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1").to_string(),
        "rank 2 of the board describes 8 squares, expected 9 (column 11)"
    );
    assert_sfen_err!(
        "lnsgkgsnlp/9/9/9/9/9/9/9/9 b - 1",
        RankLength {
            rank: 1,
            squares: 10,
            column: 1
        }
    );
    assert_sfen_err!(
        "4k4/9/9/9/9/9/9/9/4X4 b - 1",
        UnexpectedChar {
            field: "board",
            found: 'X',
            column: 20
        }
    );
    assert_sfen_err!(
        "4k4/9/9/9/9/9/9/9/4K0 b - 1",
        UnexpectedChar { found: '0', .. }
    );
    assert_sfen_err!(
        "4k4/9/9/9/9/9/9/9/4K4é b - 1",
        UnexpectedChar { found: 'é', .. }
    );
    assert_sfen_err!("4k4/9/9/9/9/9/9/9/3+K4 b - 1", BadPromotion { column: 20 });
    assert_sfen_err!("4k4/9/9/9/9/9/9/9/3++P4 b - 1", BadPromotion { .. });
    assert_sfen_err!("4k4/9/9/9/9/9/9/9/4K3+ b - 1", BadPromotion { .. });
}

#[test]
fn field_errors() {
    use SfenError::*;
    assert_eq!(sfen_err("   "), MissingField { field: "board" });
    assert_eq!(
        sfen_err("4k4/9/9/9/9/9/9/9/4K4"),
        MissingField {
            field: "side to move"
        }
    );
    assert_eq!(
        sfen_err("4k4/9/9/9/9/9/9/9/4K4 b"),
        MissingField { field: "hand" }
    );
    assert_eq!(
        sfen_err("4k4/9/9/9/9/9/9/9/4K4 b -"),
        MissingField {
            field: "move number"
        }
    );
    assert_sfen_err!(
        "4k4/9/9/9/9/9/9/9/4K4 b - 1 moves 7g7f",
        ExtraField { column: 29, .. }
    );
    assert_sfen_err!("4k4/9/9/9/9/9/9/9/4K4 B - 1", BadSide { column: 23, .. });
    assert_sfen_err!("4k4/9/9/9/9/9/9/9/4K4 black - 1", BadSide { .. });
    assert_sfen_err!("4k4/9/9/9/9/9/9/9/4K4 b - x", BadPly { column: 27, .. });
    assert_sfen_err!("4k4/9/9/9/9/9/9/9/4K4 b - 0", BadPly { .. });
    assert_sfen_err!("4k4/9/9/9/9/9/9/9/4K4 b - 99999999999", BadPly { .. });
}

#[test]
fn hand_errors() {
    use SfenError::*;
    assert_sfen_err!("4k4/9/9/9/9/9/9/9/4K4 b 19P 1", BadHand { column: 25, .. });
    assert_sfen_err!("4k4/9/9/9/9/9/9/9/4K4 b 3R 1", BadHand { .. });
    assert_sfen_err!("4k4/9/9/9/9/9/9/9/4K4 b 5g 1", BadHand { .. });
    assert_sfen_err!("4k4/9/9/9/9/9/9/9/4K4 b 0S 1", BadHand { .. });
    assert_sfen_err!(
        "4k4/9/9/9/9/9/9/9/4K4 b 99999999999999999999P 1",
        BadHand { .. }
    );
    assert_sfen_err!("4k4/9/9/9/9/9/9/9/4K4 b PP 1", BadHand { .. });
    assert_sfen_err!("4k4/9/9/9/9/9/9/9/4K4 b 2 1", BadHand { .. });
    assert_sfen_err!(
        "4k4/9/9/9/9/9/9/9/4K4 b K 1",
        UnexpectedChar {
            field: "hand",
            found: 'K',
            ..
        }
    );
    assert_sfen_err!(
        "4k4/9/9/9/9/9/9/9/4K4 b +P 1",
        UnexpectedChar {
            field: "hand",
            found: '+',
            ..
        }
    );
    assert_sfen_err!(
        "4k4/9/9/9/9/9/9/9/4K4 b -P 1",
        UnexpectedChar { field: "hand", .. }
    );
    let e = sfen_err("4k4/9/9/9/9/9/9/9/4K4 b 19P 1").to_string();
    assert!(e.contains("column 25") && e.contains("19"), "{e}");
}

#[test]
fn illegal_positions_list_every_problem() {
    use SetupProblem::*;
    assert_eq!(
        problems("9/9/9/9/9/9/9/9/9 b - 1"),
        vec![MissingKing(Color::White)]
    );
    assert_eq!(
        problems("4k4/9/9/9/9/9/9/9/3KK4 b - 1"),
        vec![
            TooManyKings {
                color: Color::Black,
                count: 2
            },
            TooManyPieces {
                kind: PieceKind::King,
                count: 3,
                max: 2
            }
        ]
    );
    let p = problems("P3k4/9/9/9/9/9/4P4/4P4/4K4 b 18p 1");
    assert!(
        p.contains(&DeadPiece {
            square: "9a".parse().unwrap(),
            piece: "P".into()
        }),
        "{p:?}"
    );
    assert!(
        p.contains(&TwoPawns {
            color: Color::Black,
            file: 5
        }),
        "{p:?}"
    );
    assert!(
        p.iter().any(|x| matches!(
            x,
            TooManyPieces {
                kind: PieceKind::Pawn,
                count: 21,
                max: 18
            }
        )),
        "{p:?}"
    );
    assert_eq!(
        problems("4k4/9/9/9/9/9/9/9/n3K4 w - 1"),
        vec![DeadPiece {
            square: "9i".parse().unwrap(),
            piece: "n".into()
        }]
    );
    assert_eq!(
        problems("4k4/4R4/9/9/9/9/9/9/4K4 b - 1"),
        vec![OpponentInCheck]
    );
    assert!(matches!(
        Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 3B 1"),
        Err(FromSfenError::Sfen(SfenError::BadHand { .. }))
    ));
}

#[test]
fn usi_position_errors_name_the_move() {
    let e = parse_position("position startpos moves 7g7f 3c3d 2b8h").unwrap_err();
    match &e {
        UsiPositionError::IllegalMove { index, text, sfen } => {
            assert_eq!((*index, text.as_str()), (3, "2b8h"));
            assert!(sfen.ends_with(" b - 3"), "{sfen}");
        }
        other => panic!("{other:?}"),
    }
    assert!(e.to_string().contains("move 3 `2b8h` is illegal"));
    // Pawn-drop mate in a moves list.
    let e = parse_position("position sfen 7lk/9/8S/9/9/9/9/7L1/8K b P 1 moves P*1b").unwrap_err();
    assert!(
        matches!(e, UsiPositionError::IllegalMove { index: 1, .. }),
        "{e:?}"
    );
    // Two pawns, dead drop, moving the opponent's piece, promotion outside the zone.
    for (moves, index) in [
        ("P*7e", 1),
        ("7g7f P*7a", 2),
        ("3c3d", 1),
        ("7g7f 3c3d 2h2g+", 3),
    ] {
        let text = format!("startpos moves {moves}");
        let r = parse_position(&text);
        let ok = matches!(r, Err(UsiPositionError::IllegalMove { index: i, .. }) if i == index);
        assert!(ok, "{text}: {r:?}");
    }
    assert!(matches!(
        parse_position("startpos moves 7g7f 7z7y"),
        Err(UsiPositionError::BadMove { index: 2, .. })
    ));
    assert!(parse_position("startpos moves").is_ok());
    assert!(matches!(
        parse_position("position"),
        Err(UsiPositionError::BadStart(_))
    ));
    assert!(matches!(
        parse_position("sfen"),
        Err(UsiPositionError::Sfen(_))
    ));
    assert!(matches!(
        parse_position("sfen 4k4/9/9/9/9/9/9/9/4K4 b - 1 2 moves"),
        Err(UsiPositionError::Sfen(_))
    ));
    assert!(matches!(
        parse_position("startpos nonsense"),
        Err(UsiPositionError::ExpectedMoves(_))
    ));
}

#[test]
fn the_largest_move_number_does_not_overflow() {
    // SFEN accepts any positive u32 move number; playing a move from the largest one must not
    // overflow (a panic in debug builds, a move number 0 that no SFEN reader accepts in release).
    let mut pos = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b - 4294967295").unwrap();
    assert!(pos.play("5i5h".parse().unwrap()));
    let sfen = pos.to_sfen();
    assert!(Position::from_sfen(&sfen).is_ok(), "{sfen}");
    pos.undo_move();
    assert_eq!(pos.ply(), 4_294_967_295);
    let r = parse_position("sfen 4k4/9/9/9/9/9/9/9/4K4 b - 4294967295 moves 5i5h 5a5b");
    assert!(r.is_ok(), "{r:?}");
}
