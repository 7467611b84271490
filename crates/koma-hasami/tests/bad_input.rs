//! Bad input never panics: arbitrary text and bytes, and valid inputs mutated byte by byte, fed
//! to the hasami notation (positions, setups, moves, games) and to the engine's line protocol.
//! Every rejection is a typed error; every acceptance is a well-formed value. Runs on the stable
//! toolchain in `cargo test` (the cargo-fuzz targets in `fuzz/` go further on nightly).

use std::sync::Arc;

use koma_hasami::engine::{self, Engine, EngineError};
use koma_hasami::ntuple::NTuple;
use koma_hasami::{Game, Move, ParseError, Position, Setup};
use koma_test_support::mutated_bytes;
use proptest::prelude::*;

/// Valid texts the mutations start from.
const POSITIONS: &[&str] = &[
    "ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP b 1",
    "pppp5/9/9/9/2Pp5/9/9/9/PPP1P2P1 b 1",
    "pppppp3/9/9/9/9/9/9/9/PPPPPPPPP w 2",
    "ppppppppp/9/9/9/4P4/9/9/9/PPPP1PPPP w 2",
];
const GAMES: &[&str] = &[
    "startpos moves 9i9e 1a1e 5i5f",
    "sfen pppp5/9/9/9/2Pp5/9/9/9/PPP1P2P1 b 1 moves 5i5e",
    "startpos",
];
const LINES: &[&str] = &[
    "usi",
    "isready",
    "usinewgame",
    "position startpos moves 9i9e 1a1e",
    "position sfen pppppp3/9/9/9/9/9/9/9/PPPPPPPPP w 2",
    "go depth 1",
    "go movetime 5",
    // Only agents that answer at once, whatever a mutation does to the depth.
    "setoption name Agent value random:3",
    "setoption name Agent value learned:greedy",
];

/// A valid text with up to four bytes replaced, inserted or removed, lossily back to a string.
fn mutated(valid: &'static [&'static str]) -> impl Strategy<Value = String> {
    mutated_bytes(valid).prop_map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
}

/// Text built from the notation's own alphabet, so that it gets past the first checks often.
fn notation_soup() -> impl Strategy<Value = String> {
    "[Pp1-9/ bw0-9a-imovestarpfn]{0,60}"
}

/// A position read from `text` writes back to a text that reads to the same position.
fn check_position(text: &str) -> Result<(), TestCaseError> {
    match Position::parse(text) {
        Ok(pos) => {
            let again = Position::parse(&pos.to_string()).expect("a written position reads back");
            prop_assert_eq!(again, pos);
        }
        Err(ParseError::Notation(_) | ParseError::Setup(_)) => {}
        Err(e) => prop_assert!(false, "a position text cannot fail on a move: {e}"),
    }
    if let Ok(setup) = text.parse::<Setup>() {
        prop_assert!(setup.ply > 0);
        prop_assert_eq!(setup.black & setup.white, 0);
    }
    Ok(())
}

/// A game read from `text` is ongoing or over by its last move, and its record reads back.
fn check_game(text: &str) -> Result<(), TestCaseError> {
    if let Ok(game) = Game::parse(text, 300) {
        let record = game.record();
        let again = Game::parse(&record, 300).expect("a game's record reads back");
        prop_assert_eq!(again.moves(), game.moves());
        prop_assert_eq!(again.position(), game.position());
    }
    Ok(())
}

/// One engine line: answered (or `quit`), the engine still answers `isready` afterwards, and a
/// rejected line leaves the game as it was.
fn check_line(engine: &mut Engine, line: &str) -> Result<(), TestCaseError> {
    let before = engine.execute("isready");
    prop_assert_eq!(before, Ok(Some(vec!["readyok".to_string()])));
    let quit = line.split_whitespace().next() == Some("quit");
    match engine.execute(line) {
        Ok(None) => prop_assert!(quit),
        Ok(Some(_)) => prop_assert!(!quit),
        Err(
            EngineError::UnknownCommand(_)
            | EngineError::Position(_)
            | EngineError::Go(_)
            | EngineError::SetOption
            | EngineError::Agent(_),
        ) => {}
    }
    prop_assert_eq!(
        engine.execute("isready"),
        Ok(Some(vec!["readyok".to_string()]))
    );
    Ok(())
}

fn engine() -> Engine {
    Engine::new("random".parse().unwrap(), Arc::new(NTuple::zero()))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_text_as_notation(text in any::<String>()) {
        check_position(&text)?;
        check_game(&text)?;
        let _ = text.parse::<Move>();
    }

    #[test]
    fn notation_soup_as_notation(text in notation_soup()) {
        check_position(&text)?;
        check_game(&text)?;
        check_game(&format!("startpos moves {text}"))?;
        check_game(&format!("sfen {text}"))?;
    }

    #[test]
    fn mutated_positions(text in mutated(POSITIONS)) {
        check_position(&text)?;
        check_game(&format!("sfen {text}"))?;
    }

    #[test]
    fn mutated_games(text in mutated(GAMES)) {
        check_game(&text)?;
    }

    #[test]
    fn mutated_moves(text in mutated(&["9i9e", "1a1e", "5i5b"])) {
        if let Ok(m) = text.parse::<Move>() {
            prop_assert_eq!(m.to_string().parse::<Move>(), Ok(m));
        }
    }

    #[test]
    fn arbitrary_engine_lines(line in any::<String>()) {
        check_line(&mut engine(), &line)?;
    }

    #[test]
    fn mutated_engine_lines(lines in prop::collection::vec(mutated(LINES), 1..6)) {
        let mut e = engine();
        for line in &lines {
            check_line(&mut e, line)?;
        }
    }

    /// The protocol loop over arbitrary bytes (not UTF-8, no newline at the end, NUL, CR) ends
    /// normally and answers every `isready` it reaches.
    #[test]
    fn arbitrary_bytes_into_the_protocol_loop(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let mut input = bytes.clone();
        input.extend_from_slice(b"\nisready\n");
        let mut out = Vec::new();
        engine::run(&input[..], &mut out, "random".parse().unwrap(), Arc::new(NTuple::zero()))
            .expect("writing to memory does not fail");
        let out = String::from_utf8(out).expect("the engine writes UTF-8");
        let quit = input
            .split(|&b| b == b'\n')
            .any(|l| std::str::from_utf8(l).is_ok_and(|l| l.split_whitespace().next() == Some("quit")));
        prop_assert!(quit || out.ends_with("readyok\n"), "{out}");
    }
}
