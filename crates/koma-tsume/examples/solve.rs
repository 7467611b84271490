//! Solves one problem given as SFEN and prints the outcome.
//!
//! ```text
//! cargo run --release -p koma-tsume --example solve -- "SFEN" [--any] [--hash MiB] [--time SECS]
//! ```

use std::time::Duration;

use koma_core::Position;
use koma_tsume::{Cancel, Mode, Options, Outcome, solve};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(sfen) = args.first() else {
        eprintln!("usage: solve SFEN [--any] [--hash MiB] [--time SECS]");
        std::process::exit(2);
    };
    let mut opts = Options::default().hash_mib(256);
    let mut i = 1;
    while i < args.len() {
        match args[i].as_str() {
            "--any" => opts = opts.mode(Mode::Any),
            "--hash" => {
                i += 1;
                opts = opts.hash_mib(args[i].parse().expect("MiB"));
            }
            "--time" => {
                i += 1;
                opts = opts.time(Duration::from_secs_f64(args[i].parse().expect("seconds")));
            }
            other => panic!("unknown argument {other}"),
        }
        i += 1;
    }
    let pos = Position::from_sfen(sfen).expect("a legal SFEN");
    let sol =
        solve(&pos, &opts, &mut |p| eprintln!("{p:?}"), &Cancel::new()).expect("a mate problem");
    match &sol.outcome {
        Outcome::Mate(a) => {
            let line: Vec<String> = a.moves.iter().map(|m| m.to_string()).collect();
            println!(
                "mate in {} (optimal {}, leftover {:?}): {}",
                a.len(),
                a.optimal,
                a.leftover,
                line.join(" ")
            );
        }
        other => println!("{other:?}"),
    }
    println!(
        "nodes {} time {:?} nps {} hashfull {}",
        sol.stats.nodes,
        sol.stats.elapsed,
        sol.stats.nps(),
        sol.stats.hashfull
    );
}
