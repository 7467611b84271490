//! Fuzz koma-hasami's engine protocol and notation: the bytes, as lines, go to the protocol loop
//! (which must end normally and answer the `isready` appended); each line also goes through
//! `Engine::execute`, where a rejected line must leave the engine answering; and the text is read
//! as a position and as a game, whose written forms must read back the same.
#![no_main]

use std::sync::Arc;

use koma_hasami::engine::{self, Engine};
use koma_hasami::ntuple::NTuple;
use koma_hasami::{Game, Position};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Deep searches are out of a fuzzer's time budget: lines that could choose another agent than
    // `random` (which answers at once) are left out.
    let fast = |line: &[u8]| {
        !line
            .windows(9)
            .any(|w| w.eq_ignore_ascii_case(b"setoption"))
    };
    let mut input: Vec<u8> = data
        .split(|&b| b == b'\n')
        .filter(|l| fast(l))
        .flat_map(|l| l.iter().copied().chain([b'\n']))
        .collect();
    input.extend_from_slice(b"isready\n");
    let model = Arc::new(NTuple::zero());
    let random = || "random".parse().expect("a valid agent");
    let mut out = Vec::new();
    engine::run(&input[..], &mut out, random(), model.clone()).expect("writing to memory");
    let quits = input
        .split(|&b| b == b'\n')
        .any(|l| std::str::from_utf8(l).is_ok_and(|l| l.split_whitespace().next() == Some("quit")));
    assert!(quits || out.ends_with(b"readyok\n"));
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let mut engine = Engine::new(random(), model);
    for line in text.lines().filter(|l| fast(l.as_bytes())) {
        let _ = engine.execute(line);
        assert_eq!(
            engine.execute("isready"),
            Ok(Some(vec!["readyok".to_string()]))
        );
    }
    if let Ok(pos) = Position::parse(text) {
        assert_eq!(Position::parse(&pos.to_string()).as_ref(), Ok(&pos));
    }
    if let Ok(game) = Game::parse(text, 300) {
        let record = game.record();
        let again = Game::parse(record.trim_start_matches("position "), 300).expect("reads back");
        assert_eq!(again.moves(), game.moves());
    }
});
