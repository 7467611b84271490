//! Game status on hand-made positions and move sequences: checkmate and no legal move, 打ち歩詰め
//! (pawn-drop mate is illegal, pawn-push mate and pawn-drop check are fine), repetition
//! (千日手: counts, the fourth occurrence, perpetual check loses for the checker, checks by only
//! part of the cycle do not), and the 27-point declaration (入玉宣言: king in camp, ten pieces,
//! 28/27 points, not in check). The comparison of repetition and declaration with cshogi is in
//! `differential.rs`.

use koma_core::{Color, Position, Repetition, Status};

fn pos(sfen: &str) -> Position {
    Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn play(p: &mut Position, moves: &str) {
    for m in moves.split_whitespace() {
        assert!(
            p.play(m.parse().unwrap()),
            "{m} is illegal in {}",
            p.to_sfen()
        );
    }
}

// ----- mate, no legal move, 打ち歩詰め -----

#[test]
fn checkmate_and_ongoing() {
    // Head gold supported by a pawn: 頭金.
    let mut p = pos("4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
    assert_eq!(p.status(), Status::Ongoing);
    play(&mut p, "G*5b");
    assert!(p.in_check() && p.is_checkmate());
    assert_eq!(p.status(), Status::Checkmate);
}

#[test]
fn no_legal_move_without_check_is_reported() {
    // White's king on 1a is boxed in by attacked squares and White has nothing else: not in
    // check, no legal move. (Impossible to reach in a real game only in theory.)
    let p = pos("8k/6G2/7G1/9/9/9/9/9/K8 w - 1");
    assert!(!p.in_check());
    assert_eq!(p.count_legal_moves(), 0);
    assert_eq!(p.status(), Status::NoLegalMoves);
}

#[test]
fn pawn_drop_mate_is_illegal_but_pawn_push_mate_is_legal() {
    // P*1b would mate: illegal. Pushing a pawn to the same square mates legally.
    let p = pos("7lk/9/8S/9/9/9/9/7L1/8K b P 1");
    assert!(p.is_pseudo_legal("P*1b".parse().unwrap()));
    assert!(!p.is_legal("P*1b".parse().unwrap()));
    let mut q = pos("7lk/9/7SP/9/9/9/9/7L1/8K b - 1");
    play(&mut q, "1c1b");
    assert_eq!(q.status(), Status::Checkmate);
}

#[test]
fn pawn_drop_check_that_is_not_mate_is_legal() {
    // The king can take the undefended pawn.
    let p = pos("8k/9/9/9/9/9/9/9/K8 b P 1");
    let m = "P*1b".parse().unwrap();
    assert!(p.is_legal(m) && p.gives_check(m));
    // The pawn is defended but the king escapes to 2a.
    let p = pos("8k/9/8S/9/9/9/9/9/K8 b P 1");
    assert!(p.is_legal("P*1b".parse().unwrap()));
    // Defended, no escape, but White's gold on 2a takes it.
    let p = pos("7gk/7l1/8S/9/9/9/9/9/K8 b P 1");
    assert!(p.is_legal("P*1b".parse().unwrap()));
}

#[test]
fn pawn_drop_mate_when_the_only_taker_is_pinned() {
    // White's gold on 2b could take a pawn on 1b but is pinned by the bishop on 4d (through 3c);
    // the king has no square: the drop mates and is illegal.
    let p = pos("7nk/7g1/8S/5B3/9/9/9/9/K8 b P 1");
    let m = "P*1b".parse().unwrap();
    assert!(p.gives_check(m));
    assert!(
        !p.is_legal(m),
        "a pinned defender does not save the pawn-drop mate"
    );
    assert!(!p.legal_moves().contains(&m));
}

// ----- repetition (千日手) -----

/// Four moves that bring the start position back: rooks out and home.
const ROOK_SHUFFLE: &str = "2h5h 8b5b 5h2h 5b8b";

#[test]
fn repetition_counts_up_to_a_draw_on_the_fourth_occurrence() {
    let mut p = Position::startpos();
    assert_eq!(p.repetition(), None);
    play(&mut p, ROOK_SHUFFLE);
    assert_eq!(p.repetition(), Some(Repetition::Repeated { count: 2 }));
    assert_eq!(p.status(), Status::Ongoing);
    play(&mut p, ROOK_SHUFFLE);
    assert_eq!(p.repetition(), Some(Repetition::Repeated { count: 3 }));
    play(&mut p, "2h5h");
    assert_eq!(
        p.repetition(),
        Some(Repetition::Repeated { count: 3 }),
        "5h position seen at plies 1, 5, 9"
    );
    play(&mut p, "8b5b 5h2h 5b8b");
    assert_eq!(p.repetition(), Some(Repetition::Draw));
    assert_eq!(p.status(), Status::RepetitionDraw);
    // Undo takes the status back.
    p.undo_move();
    assert_eq!(p.repetition(), Some(Repetition::Repeated { count: 3 }));
}

#[test]
fn same_board_with_the_other_side_to_move_is_not_a_repetition() {
    // Black's king steps out and back in three moves while White makes two: the board returns
    // with the other side to move (Black's hand and board are the same, side differs).
    let mut p = pos("4k4/9/9/9/9/9/9/9/4K4 b - 1");
    play(&mut p, "5i4i 5a4a 4i4h 4a5a 4h5i");
    assert_eq!(p.to_sfen().split(' ').next(), Some("4k4/9/9/9/9/9/9/9/4K4"));
    assert_eq!(p.side_to_move(), Color::White);
    assert_eq!(p.repetition(), None);
}

#[test]
fn same_board_with_other_hands_is_not_a_repetition() {
    // Two positions that differ only by who holds the pawn have different keys, so they can
    // never count as the same position.
    let a = pos("4k4/9/9/9/9/9/9/9/4K4 b P 1");
    let b = pos("4k4/9/9/9/9/9/9/9/4K4 b p 1");
    assert_ne!(a.key(), b.key());
}

/// Black's rook checks White's king from file 1 and file 2 in turn; the king steps 1a↔2b.
const CHECKING_CYCLE: &str = "2h1h 1a2b 1h2h 2b1a";
const CHECK_START: &str = "8k/9/9/9/9/9/9/7R1/K8 b - 1";

#[test]
fn perpetual_check_loses_for_the_checker() {
    let mut p = pos(CHECK_START);
    for _ in 0..2 {
        play(&mut p, CHECKING_CYCLE);
    }
    assert_eq!(p.repetition(), Some(Repetition::Repeated { count: 3 }));
    play(&mut p, CHECKING_CYCLE);
    assert_eq!(
        p.repetition(),
        Some(Repetition::PerpetualCheck {
            loser: Color::Black
        })
    );
    assert_eq!(
        p.status(),
        Status::PerpetualCheck {
            loser: Color::Black
        }
    );
}

#[test]
fn perpetual_check_judged_on_a_position_with_the_checked_side_to_move() {
    // Count occurrences of the position after Black's first check (White to move, in check).
    let mut p = pos(CHECK_START);
    play(&mut p, "2h1h");
    for _ in 0..3 {
        play(&mut p, "1a2b 1h2h 2b1a 2h1h");
    }
    assert!(p.in_check());
    assert_eq!(
        p.repetition(),
        Some(Repetition::PerpetualCheck {
            loser: Color::Black
        })
    );
}

#[test]
fn checks_on_only_some_moves_of_the_cycle_make_a_plain_draw() {
    // Black's rook goes 2h→3h (no check) and back to 2h (check): not every Black move of the
    // cycle gives check.
    let start = "8k/9/9/9/9/9/9/7R1/K8 b - 1";
    let cycle = "2h3h 1a2a 3h2h 2a1a";
    let mut p = pos(start);
    for _ in 0..3 {
        play(&mut p, cycle);
    }
    assert_eq!(p.repetition(), Some(Repetition::Draw));
    // A cycle where only the checker's moves of the last stretch check is still a draw: the
    // first stretch had quiet moves. Cycle A (quiet) twice, then the checking cycle... the
    // positions differ, so build one position reachable both ways instead: Black's rook reaches
    // 2h from 3h (quiet) or from 1h (check).
    let mut q = pos(start);
    play(&mut q, "2h3h 1a2a 3h2h 2a1a"); // quiet cycle: occurrence 2
    play(&mut q, "2h1h 1a2b 1h2h 2b1a"); // checking cycle: occurrence 3
    play(&mut q, "2h1h 1a2b 1h2h 2b1a"); // checking cycle: occurrence 4
    assert_eq!(
        q.repetition(),
        Some(Repetition::Draw),
        "checks only since the second occurrence: not perpetual over the four occurrences"
    );
}

#[test]
fn perpetual_check_by_white() {
    // Mirror: White checks, Black's king shuffles.
    let mut p = pos("k8/7r1/9/9/9/9/9/9/8K w - 1");
    for _ in 0..3 {
        play(&mut p, "2b1b 1i2h 1b2b 2h1i");
    }
    assert_eq!(
        p.repetition(),
        Some(Repetition::PerpetualCheck {
            loser: Color::White
        })
    );
}

#[test]
fn repetition_only_counts_moves_since_the_position_was_built() {
    // A position read from SFEN has no history: its first repetition is the second occurrence
    // after it.
    let mut p = Position::startpos();
    play(&mut p, ROOK_SHUFFLE);
    play(&mut p, ROOK_SHUFFLE);
    let fresh = pos(&p.to_sfen());
    assert_eq!(p.repetition(), Some(Repetition::Repeated { count: 3 }));
    assert_eq!(fresh.repetition(), None);
}

// ----- 27-point declaration (入玉宣言) -----

/// Black: king on 5a, ten pieces in White's camp (two dragons = 10 points, eight pawns promoted =
/// 8 points) = 18, plus hand.
fn declaration(hand: &str, side: char) -> String {
    format!("+R+R2K4/+P+P+P+P+P+P+P+P1/9/9/9/9/9/9/4k4 {side} {hand} 1")
}

#[test]
fn declaration_needs_28_points_for_black() {
    // 18 on board + 2 bishops (10) = 28.
    assert!(pos(&declaration("2B", 'b')).can_declare_win());
    // 18 + bishop (5) + 4 golds (4) = 27: one short for Black.
    assert!(!pos(&declaration("B4G", 'b')).can_declare_win());
    assert!(pos(&declaration("B4GP", 'b')).can_declare_win());
}

#[test]
fn declaration_needs_27_points_for_white() {
    // The mirror position for White: 27 points are enough.
    let mirror = "4K4/9/9/9/9/9/9/1+p+p+p+p+p+p+p+p/4k2+r+r w b4g 1";
    let p = pos(mirror);
    assert!(p.can_declare_win(), "{}", p.to_sfen());
    let p = pos("4K4/9/9/9/9/9/9/1+p+p+p+p+p+p+p+p/4k2+r+r w b3g 1");
    assert!(!p.can_declare_win());
}

#[test]
fn declaration_needs_ten_pieces_in_camp_the_king_in_camp_and_no_check() {
    // Nine pieces in camp (one promoted pawn fewer), lots of points in hand.
    let nine = "+R+R2K4/+P+P+P+P+P+P+P2/9/9/9/9/9/9/4k4 b 2B4G 1";
    assert!(!pos(nine).can_declare_win());
    // King outside the camp (rank d).
    let out = "+R+R7/+P+P+P+P+P+P+P+P1/9/4K4/9/9/9/9/4k4 b 2B4G 1";
    assert!(!pos(out).can_declare_win());
    // King on rank c (the edge of the camp) counts.
    let edge = "+R+R7/+P+P+P+P+P+P+P+P1/4K4/9/9/9/9/9/4k4 b 2B 1";
    assert!(pos(edge).can_declare_win());
    // In check from White's gold on 6a.
    let check = "+R+R1gK4/+P+P+P+P+P+P+P+P1/9/9/9/9/9/9/4k4 b 2B 1";
    assert!(!pos(check).can_declare_win());
    // Only the side to move may declare.
    assert!(!pos(&declaration("2B", 'w')).can_declare_win());
}
