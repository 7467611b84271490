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
//!
//! `--cost [--repeat R]` times, in one run and in turn (R rounds, median), the plain koma-core
//! loop, the batch step without the mask and the batch step with it, and prints the time per
//! position of each and the ratio of the mask step to the core loop. Run it with
//! `RAYON_NUM_THREADS=1` so that all three loops use one core:
//!
//!     RAYON_NUM_THREADS=1 target/release/examples/throughput 1024 --cost --seconds 2 --repeat 5

use std::time::{Duration, Instant};

use koma_batch::features::FEATURES_LEN;
use koma_batch::label::NUM_LABELS;
use koma_batch::{ActionKind, Batch, Config};

/// How long a loop runs: a time, or a fixed number of calls (for callgrind).
#[derive(Clone, Copy)]
enum Budget {
    Seconds(f64),
    Steps(u64),
}

impl Budget {
    fn more(self, start: Instant, calls: u64) -> bool {
        match self {
            Budget::Seconds(s) => start.elapsed() < Duration::from_secs_f64(s),
            Budget::Steps(k) => calls < k,
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let sizes: Vec<usize> = args
        .first()
        .map(|s| s.split(',').filter_map(|x| x.parse().ok()).collect())
        .unwrap_or_else(|| vec![1, 16, 256, 1024, 4096]);
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
    };
    let seconds: f64 = value("--seconds")
        .and_then(|s| s.parse().ok())
        .unwrap_or(2.0);
    let repeat: usize = value("--repeat").and_then(|s| s.parse().ok()).unwrap_or(3);
    let with_features = args.iter().any(|a| a == "--features");
    // A fixed number of steps instead of a time, for instruction counts (callgrind).
    let budget = match value("--steps").and_then(|s| s.parse().ok()) {
        Some(k) => Budget::Steps(k),
        None => Budget::Seconds(seconds),
    };
    if args.iter().any(|a| a == "--core") {
        for &b in &sizes {
            report("koma-core-loop", b, false, core_loop(b, budget));
        }
    } else if args.iter().any(|a| a == "--cost") {
        for &b in &sizes {
            cost(b, budget, repeat);
        }
    } else {
        for &b in &sizes {
            report(
                "koma-rust",
                b,
                with_features,
                batch_loop(b, budget, true, with_features),
            );
        }
    }
}

fn report(name: &str, b: usize, features: bool, rate: f64) {
    println!(
        "{{\"impl\": \"{name}\", \"batch\": {b}, \"features\": {features}, \"steps_per_s\": {rate:.0}}}"
    );
}

/// Steps per second of a batch of `b` games: random actions, a step, and the mask if `mask`.
fn batch_loop(b: usize, budget: Budget, mask: bool, with_features: bool) -> f64 {
    let mut batch = Batch::new(b, Config::default()).unwrap_or_else(|e| panic!("{e}"));
    let mut actions = vec![0u32; b];
    let (mut r, mut t, mut u) = (vec![0.0; 2 * b], vec![false; b], vec![false; b]);
    let mut masks = vec![false; if mask { b * NUM_LABELS } else { 0 }];
    let mut planes = vec![0u8; if with_features { b * FEATURES_LEN } else { 0 }];
    let (start, mut calls) = (Instant::now(), 0u64);
    while budget.more(start, calls) {
        calls += 1;
        batch.random_actions(calls, &mut actions).unwrap();
        batch
            .step(&actions, ActionKind::Label, &mut r, &mut t, &mut u)
            .unwrap_or_else(|e| panic!("{e}"));
        if mask {
            batch
                .legal_action_mask(&mut masks)
                .unwrap_or_else(|e| panic!("{e}"));
        }
        if with_features {
            batch
                .features(&mut planes)
                .unwrap_or_else(|e| panic!("{e}"));
        }
    }
    (calls * b as u64) as f64 / start.elapsed().as_secs_f64()
}

/// Random play over plain koma-core positions, one thread: legal moves, one drawn, played.
fn core_loop(b: usize, budget: Budget) -> f64 {
    use koma_core::Position;
    let mut games = vec![Position::startpos(); b];
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let (start, mut calls) = (Instant::now(), 0u64);
    while budget.more(start, calls) {
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
    }
    (calls * b as u64) as f64 / start.elapsed().as_secs_f64()
}

/// The time per position of the core loop, the batch step and the batch step with the mask,
/// measured in turn for `repeat` rounds; medians, and the ratio of the mask step to the core loop.
fn cost(b: usize, budget: Budget, repeat: usize) {
    let mut ns: [Vec<f64>; 3] = Default::default();
    for _ in 0..repeat.max(1) {
        ns[0].push(1e9 / core_loop(b, budget));
        ns[1].push(1e9 / batch_loop(b, budget, false, false));
        ns[2].push(1e9 / batch_loop(b, budget, true, false));
    }
    let [core, step, mask] = ns.map(|mut v| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    });
    println!(
        "{{\"batch\": {b}, \"rounds\": {}, \"ns_per_position\": {{\"core_loop\": {core:.1}, \"step\": {step:.1}, \"step_mask\": {mask:.1}}}, \"mask_step_over_core\": {:.2}, \"step_over_core\": {:.2}}}",
        repeat.max(1),
        mask / core,
        step / core
    );
}
