//! Hand-made positions for every capture shape and end-of-game rule of docs/hasami-rules.md, plus property
//! tests of the capture invariants and of do/undo.

use koma_hasami::{Color, Game, Move, Outcome, Position, Square, Status};
use proptest::prelude::*;

/// A position from nine 9-character rows (rank a first, file 9 first): `P` Black, `p` White, `.`.
fn board(rows: [&str; 9], side: char) -> Position {
    let mut text = String::new();
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(row.len(), 9, "row {i}");
        if i > 0 {
            text.push('/');
        }
        let mut run = 0;
        for ch in row.chars() {
            if ch == '.' {
                run += 1;
            } else {
                if run > 0 {
                    text.push_str(&run.to_string());
                    run = 0;
                }
                text.push(ch);
            }
        }
        if run > 0 {
            text.push_str(&run.to_string());
        }
    }
    Position::parse(&format!("{text} {side} 1")).expect("valid test position")
}

fn mv(text: &str) -> Move {
    text.parse().expect("valid move")
}

/// The squares captured by `m`, as sorted USI names; also checks the move is legal.
fn captured(pos: &Position, m: &str) -> Vec<String> {
    let m = mv(m);
    assert!(pos.is_legal(m), "{m} must be legal");
    let mut after = pos.clone();
    let undo = after.do_move(m);
    let mut v: Vec<String> = (0..81u8)
        .filter_map(Square::from_index)
        .filter(|s| undo.captured & s.bit() != 0)
        .map(|s| s.to_string())
        .collect();
    v.sort();
    v
}

// Most tests give White extra pieces in a far corner so that counts stay legal (≤ 9, > 4).

#[test]
fn sandwich_of_a_line_of_three() {
    let pos = board(
        [
            ".........",
            ".........",
            ".........",
            ".........",
            ".Pppp....",
            ".........",
            ".........",
            ".........",
            "pp...P...",
        ],
        'b',
    );
    // 4i4e closes 8e ▲ 7e 6e 5e ▽ ... 4e ▲.
    assert_eq!(captured(&pos, "4i4e"), ["5e", "6e", "7e"]);
}

#[test]
fn run_ending_at_edge_or_empty_square_is_not_captured() {
    let pos = board(
        [
            "...P.....",
            ".........",
            ".........",
            ".........",
            "ppp......",
            ".........",
            "...pp....",
            ".........",
            "p....P...",
        ],
        'b',
    );
    // 6a6e: run 7e 8e 9e ends at the edge (and the group has liberties on ranks d and f).
    assert!(captured(&pos, "6a6e").is_empty());
    // 4i4g: run 5g 6g then 7g is empty.
    assert!(captured(&pos, "4i4g").is_empty());
}

#[test]
fn single_piece_enclosed_against_the_edge() {
    let pos = board(
        [
            "...PpP...",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            "ppp.P.ppp",
        ],
        'b',
    );
    // 5i5b: up from 5b is 5a then the edge (no sandwich), but 5a is shut in: 6a, 4a, 5b, edge.
    assert_eq!(captured(&pos, "5i5b"), ["5a"]);
}

#[test]
fn single_piece_enclosed_in_the_corner() {
    let pos = board(
        [
            "pP.......",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            "P...ppppp",
        ],
        'b',
    );
    assert_eq!(captured(&pos, "9i9b"), ["9a"]);
}

#[test]
fn group_enclosed_against_the_edge() {
    let pos = board(
        [
            "..PppP...",
            "...P.....",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            "pp..P.ppp",
        ],
        'b',
    );
    // 6a 5a are a group; 7a, 4a, 6b are Black; 5i5b closes the last liberty.
    assert_eq!(captured(&pos, "5i5b"), ["5a", "6a"]);
}

#[test]
fn l_shaped_group_enclosed_in_the_corner() {
    let pos = board(
        [
            "ppP......",
            "pP.......",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            "P...ppppp",
        ],
        'b',
    );
    assert_eq!(captured(&pos, "9i9c"), ["8a", "9a", "9b"]);
}

#[test]
fn group_shut_in_in_the_middle_counted_once() {
    let pos = board(
        [
            ".........",
            ".........",
            ".........",
            "....P....",
            "...PpP...",
            "...PpP...",
            ".........",
            ".........",
            "pp..P....",
        ],
        'b',
    );
    // Both a sandwich (5d ▲ 5e 5f ▽ 5g ▲) and an enclosure take the same two pieces.
    assert_eq!(captured(&pos, "5i5g"), ["5e", "5f"]);
}

#[test]
fn group_with_one_liberty_survives_and_sandwich_takes_only_the_run() {
    let with_liberty = board(
        [
            "...P.....",
            ".........",
            ".........",
            "....P....",
            "..PppP...",
            "....P....",
            ".........",
            ".........",
            "ppppp....",
        ],
        'b',
    );
    // 6a6d closes 6e from above; 6f is empty so neither a line nor the group {6e, 5e} is taken.
    assert!(captured(&with_liberty, "6a6d").is_empty());
    let sandwich_only = board(
        [
            "...P.....",
            ".........",
            ".........",
            "....P....",
            "..PppP...",
            "...P.....",
            ".........",
            ".........",
            "ppppp....",
        ],
        'b',
    );
    // Now 6f is Black and 5f empty: 6d ▲ 6e ▽ 6f ▲ takes 6e alone; 5e keeps its liberty 5f.
    assert_eq!(captured(&sandwich_only, "6a6d"), ["6e"]);
}

#[test]
fn moving_into_a_sandwich_is_safe() {
    let pos = board(
        [
            "p.p......",
            ".........",
            ".........",
            "....p....",
            "...p.p...",
            ".........",
            ".........",
            ".........",
            "PPPPPP...",
        ],
        'b',
    );
    // 5i5e lands between 6e and 4e and under 5d; 8i8a lands between 9a and 7a on the edge.
    // Only the side that moves captures, so both are safe (and capture nothing themselves).
    for m in ["5i5e", "8i8a"] {
        let mut after = pos.clone();
        let undo = after.do_move(mv(m));
        assert_eq!(undo.captured, 0);
        assert_eq!(after.at(mv(m).to), Some(Color::Black));
        assert_eq!(after.count(Color::Black), 6);
        assert_eq!(after.status(), Status::Ongoing);
    }
}

#[test]
fn capture_in_two_directions_at_once() {
    let pos = board(
        [
            ".........",
            ".........",
            "....P....",
            "....p....",
            "..Pp.....",
            ".........",
            ".........",
            ".........",
            "pp..P.ppp",
        ],
        'b',
    );
    // 5e: left 6e ▽ then 7e ▲; up 5d ▽ then 5c ▲.
    assert_eq!(captured(&pos, "5i5e"), ["5d", "6e"]);
}

#[test]
fn five_captured_wins_at_once() {
    // Black 6, White 5 (d = 1): taking one more leaves White with 4, which ends the game at once.
    let pos = board(
        [
            "pppp.....",
            ".........",
            ".........",
            ".........",
            "..Pp.....",
            ".........",
            ".........",
            ".........",
            "PPP.P..P.",
        ],
        'b',
    );
    let mut g = Game::new(pos, 300);
    g.try_play(mv("5i5e")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.position().count(Color::White), 4);
    assert_eq!(g.outcome(), Outcome::Win(Color::Black));
}

#[test]
fn lead_of_three_that_survives_the_reply_wins() {
    // Black 9, White 7 (d = 2); ▲ 7i7e takes 8e: d = 3 with White to move — not over yet.
    let pos = board(
        [
            "pppppp...",
            ".........",
            ".........",
            ".........",
            "Pp.......",
            ".........",
            ".........",
            ".........",
            "PPPPPPPP.",
        ],
        'b',
    );
    let mut g = Game::new(pos, 300);
    g.try_play(mv("7i7e")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.position().count(Color::White), 6);
    assert_eq!(g.outcome(), Outcome::Ongoing);
    assert_eq!(g.position().status(), Status::Ongoing);
    // White does not take back a piece: the lead survived the reply, Black wins.
    g.try_play(mv("9a9b")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.outcome(), Outcome::Win(Color::Black));
    // A move after the end is refused.
    assert!(g.try_play(mv("9i9h")).is_err());
}

#[test]
fn lead_of_three_taken_back_play_continues() {
    let pos = board(
        [
            "ppp..pp..",
            ".........",
            ".........",
            ".........",
            "Pp.....Pp",
            ".........",
            ".........",
            ".........",
            "PPPPPPP..",
        ],
        'b',
    );
    let mut g = Game::new(pos, 300);
    // ▲ 7i7e takes 8e (9e ▲ 8e ▽ 7e ▲): 9 against 6, d = 3, White to move.
    g.try_play(mv("7i7e")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        (
            g.position().count(Color::Black),
            g.position().count(Color::White)
        ),
        (9, 6)
    );
    assert_eq!(g.outcome(), Outcome::Ongoing);
    // ▽ 3a3e takes back 2e (3e ▽ 2e ▲ 1e ▽): d = 2, play continues.
    g.try_play(mv("3a3e")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        (
            g.position().count(Color::Black),
            g.position().count(Color::White)
        ),
        (8, 6)
    );
    assert_eq!(g.outcome(), Outcome::Ongoing);
}

#[test]
fn a_side_with_no_move_loses() {
    let pos = board(
        [
            "PPPPPp...",
            "ppppp....",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
            ".........",
        ],
        'b',
    );
    assert!(pos.legal_moves().is_empty());
    assert_eq!(pos.status(), Status::Won(Color::White));
}

#[test]
fn threefold_repetition_and_ply_limit_draw() {
    let mut g = Game::new(Position::startpos(), 300);
    for _ in 0..2 {
        for m in ["9i9h", "1a1b", "9h9i", "1b1a"] {
            assert_eq!(g.outcome(), Outcome::Ongoing);
            g.try_play(mv(m)).unwrap();
        }
    }
    assert_eq!(g.outcome(), Outcome::Draw);
    let mut g = Game::new(Position::startpos(), 3);
    for m in ["9i9h", "1a1b", "9h9g"] {
        g.try_play(mv(m)).unwrap();
    }
    assert_eq!(g.outcome(), Outcome::Draw);
}

#[test]
fn notation_errors_are_typed() {
    assert!(Position::parse("ppppppppp/9/9 b 1").is_err());
    assert!(Position::parse("ppppppppp/9/9/9/9/9/9/9/PPPPPPPP b 1").is_err());
    assert!(Position::parse("ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP x 1").is_err());
    assert!(Position::parse("ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP b 0").is_err());
    assert!(Position::parse("ppppppppq/9/9/9/9/9/9/9/PPPPPPPPP b 1").is_err());
    assert!("9i9".parse::<Move>().is_err());
    assert!("0i9e".parse::<Move>().is_err());
    assert!("9j9e".parse::<Move>().is_err());
    assert!(Game::parse("startpos moves 9i9i", 300).is_err());
    assert!(Game::parse("startpos moves 9i8h", 300).is_err());
    assert!(Game::parse("startpos junk", 300).is_err());
    assert!(Game::parse("", 300).is_err());
    assert!(Game::parse("position", 300).is_err());
    assert!(Game::parse("position position startpos", 300).is_err());
}

/// `Game::record` and `Game::parse` are one format: a record reads back to the same game, from
/// the start position and from an SFEN start, with and without the leading `position`.
#[test]
fn a_record_reads_back() {
    let mut from_start = Game::new(Position::startpos(), 300);
    let mut from_sfen = Game::new(
        Position::parse("ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP w 2").unwrap(),
        300,
    );
    for game in [&mut from_start, &mut from_sfen] {
        for _ in 0..6 {
            let mv = game.position().legal_moves().as_slice()[3];
            game.play(mv);
        }
        let record = game.record();
        assert!(record.starts_with("position "), "{record}");
        for text in [record.as_str(), record.trim_start_matches("position ")] {
            let again = Game::parse(text, 300).unwrap();
            assert_eq!(again.moves(), game.moves(), "{text}");
            assert_eq!(again.position(), game.position(), "{text}");
            assert_eq!(again.record(), record);
        }
    }
    assert!(from_sfen.record().starts_with("position sfen ppppppppp/"));
}

fn random_game_moves() -> impl Strategy<Value = Vec<usize>> {
    prop::collection::vec(0usize..1000, 0..120)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn do_undo_and_capture_invariants(choices in random_game_moves()) {
        let mut pos = Position::startpos();
        let mut history = Vec::new();
        for c in choices {
            if pos.status() != Status::Ongoing {
                break;
            }
            let moves = pos.legal_moves();
            let m = moves.as_slice()[c % moves.len()];
            let before = pos.clone();
            let us = pos.side_to_move();
            let them = us.flip();
            let undo = pos.do_move(m);
            // Only enemy pieces are captured, the mover keeps all its pieces, counts add up.
            prop_assert_eq!(undo.captured & before.pieces(them), undo.captured);
            prop_assert_eq!(pos.count(us), before.count(us));
            prop_assert_eq!(pos.count(them) + undo.captured.count_ones(), before.count(them));
            prop_assert_eq!(pos.at(m.to), Some(us));
            prop_assert_eq!(pos.at(m.from), None);
            // No enemy group next to the landing square is left without a liberty.
            for dir in koma_hasami::Dir::ALL {
                if let Some(n) = m.to.step(dir)
                    && pos.at(n) == Some(them)
                {
                    let group = koma_hasami::square::flood(n.bit(), pos.pieces(them));
                    prop_assert!(koma_hasami::square::neighbours(group) & pos.empty() != 0);
                }
            }
            // The incremental key equals the key of the position rebuilt from its text.
            let rebuilt = Position::parse(&pos.to_string()).unwrap();
            prop_assert_eq!(rebuilt.key(), pos.key());
            prop_assert_eq!(&rebuilt, &pos);
            // Undo restores everything.
            let mut back = pos.clone();
            back.undo_move(undo);
            prop_assert_eq!(&back, &before);
            history.push(undo);
        }
        while let Some(u) = history.pop() {
            pos.undo_move(u);
        }
        prop_assert_eq!(pos, Position::startpos());
    }
}
