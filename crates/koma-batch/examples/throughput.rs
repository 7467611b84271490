//! Environment steps per second of a [`Batch`] from Rust: each step draws a random legal action
//! per game (`random_actions`), plays it (`step`) and computes the 2187 action mask, and with
//! `--features` the 119 dlshogi input planes too. One JSON line per batch size.
//!
//!     cargo run --release -p koma-batch --example throughput -- 1,16,256,1024,4096 [--seconds 2] [--features]
//!     valgrind --tool=callgrind target/release/examples/throughput 1024 --steps 50
//!
//! `--core` runs the same random play as a plain loop over koma-core positions on one thread
//! (legal moves as a `MoveList`, a random one played, no mask): the cost the batch is compared
//! with (docs/batch.md).

use std::time::{Duration, Instant};

use koma_batch::features::FEATURES_LEN;
use koma_batch::label::NUM_LABELS;
use koma_batch::{ActionKind, Batch, Config};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let sizes: Vec<usize> = args
        .first()
        .map(|s| s.split(',').filter_map(|x| x.parse().ok()).collect())
        .unwrap_or_else(|| vec![1, 16, 256, 1024, 4096]);
    let seconds: f64 = args
        .iter()
        .position(|a| a == "--seconds")
        .and_then(|i| args.get(i + 1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(2.0);
    let with_features = args.iter().any(|a| a == "--features");
    // A fixed number of steps instead of a time, for instruction counts (callgrind).
    let fixed_steps: Option<u64> = args
        .iter()
        .position(|a| a == "--steps")
        .and_then(|i| args.get(i + 1))
        .and_then(|s| s.parse().ok());
    if args.iter().any(|a| a == "--core") {
        core_loop(&sizes, seconds, fixed_steps);
        return;
    }
    for b in sizes {
        let mut batch = Batch::new(b, Config::default()).unwrap_or_else(|e| panic!("{e}"));
        let mut actions = vec![0u32; b];
        let (mut r, mut t, mut u) = (vec![0.0; 2 * b], vec![false; b], vec![false; b]);
        let mut mask = vec![false; b * NUM_LABELS];
        let mut planes = vec![0u8; if with_features { b * FEATURES_LEN } else { 0 }];
        let (start, mut steps, mut seed) = (Instant::now(), 0u64, 0u64);
        let mut calls = 0u64;
        while match fixed_steps {
            Some(k) => calls < k,
            None => start.elapsed() < Duration::from_secs_f64(seconds),
        } {
            calls += 1;
            seed += 1;
            batch.random_actions(seed, &mut actions);
            batch
                .step(&actions, ActionKind::Label, &mut r, &mut t, &mut u)
                .unwrap_or_else(|e| panic!("{e}"));
            batch
                .legal_action_mask(&mut mask)
                .unwrap_or_else(|e| panic!("{e}"));
            if with_features {
                batch
                    .features(&mut planes)
                    .unwrap_or_else(|e| panic!("{e}"));
            }
            steps += b as u64;
        }
        let rate = steps as f64 / start.elapsed().as_secs_f64();
        println!(
            "{{\"impl\": \"koma-rust\", \"batch\": {b}, \"features\": {with_features}, \"steps_per_s\": {rate:.0}}}"
        );
    }
}

/// Random play over plain koma-core positions, one thread: legal moves, one drawn, played.
fn core_loop(sizes: &[usize], seconds: f64, fixed_steps: Option<u64>) {
    use koma_core::Position;
    for &b in sizes {
        let mut games = vec![Position::startpos(); b];
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let (start, mut steps, mut calls) = (Instant::now(), 0u64, 0u64);
        while match fixed_steps {
            Some(k) => calls < k,
            None => start.elapsed() < Duration::from_secs_f64(seconds),
        } {
            calls += 1;
            for pos in games.iter_mut() {
                let moves = pos.legal_moves();
                if moves.is_empty() || pos.moves_played().len() >= 512 {
                    *pos = Position::startpos();
                    continue;
                }
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                pos.do_move(moves[(state % moves.len() as u64) as usize]);
            }
            steps += b as u64;
        }
        let rate = steps as f64 / start.elapsed().as_secs_f64();
        println!(
            "{{\"impl\": \"koma-core-loop\", \"batch\": {b}, \"features\": false, \"steps_per_s\": {rate:.0}}}"
        );
    }
}
