//! The 将棋図巧 benchmark: every problem of data/tsume/zukou.jsonl solved one after another on one
//! thread, with a time cap each. Reports solved/total, agreement of the answer's length with the
//! recorded one, total and median time.
//!
//! ```text
//! cargo bench -p koma-tsume --bench zukou -- [--cap SECS] [--nodes N] [--hash MiB] [--any] [--only ID,ID]
//!     [--off estimates,mate1,lazy,delay_non_promotions,max_drops,max_interpositions,tca,
//!            wide_refutation,floors,tentative,budgets,long_line,lazy_first_look,line_trials]
//! ```
//!
//! `--off` switches accelerators off, to measure each one (node counts are deterministic, so
//! they compare on a loaded machine).

use std::time::Duration;

use koma_core::Position;
use koma_tsume::{Cancel, Mode, Options, Outcome, Solver};

/// CPU time of this process in seconds (Linux: /proc/self/stat), to compare runs on a loaded
/// machine; `None` elsewhere.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

/// The status word of an unknown outcome: why it stopped.
fn unknown(r: koma_tsume::UnknownReason) -> &'static str {
    use koma_tsume::UnknownReason::*;
    match r {
        Time => "unknown(time)",
        Nodes => "unknown(nodes)",
        Memory => "unknown(memory)",
        Depth => "unknown(depth)",
        Cancelled => "unknown(cancelled)",
        Inconsistent => "unknown(inconsistent)",
    }
}

fn main() {
    let mut cap = 30.0;
    let mut hash = 1024;
    let mut node_cap: Option<u64> = None;
    let mut mode = Mode::Composer;
    let mut only: Option<Vec<String>> = None;
    let mut tuning = koma_tsume::Tuning::default();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--cap" => {
                i += 1;
                cap = args[i].parse().expect("seconds");
            }
            "--hash" => {
                i += 1;
                hash = args[i].parse().expect("MiB");
            }
            "--any" => mode = Mode::Any,
            "--nodes" => {
                i += 1;
                node_cap = Some(args[i].parse().expect("nodes"));
            }
            "--only" => {
                i += 1;
                only = Some(args[i].split(',').map(str::to_string).collect());
            }
            "--off" => {
                i += 1;
                for name in args[i].split(',') {
                    match name {
                        "estimates" => tuning.estimates = false,
                        "mate1" => tuning.mate1 = false,
                        "lazy" => tuning.lazy = false,
                        "delay_non_promotions" => tuning.delay_non_promotions = false,
                        "lazy_first_look" => tuning.lazy_first_look = false,
                        "max_drops" => tuning.max_drops = false,
                        "max_interpositions" => tuning.max_interpositions = false,
                        "tca" => tuning.tca = false,
                        "wide_refutation" => tuning.wide_refutation = false,
                        "floors" => tuning.floors = false,
                        "tentative" => tuning.tentative = false,
                        "budgets" => tuning.budgets = false,
                        "long_line" => tuning.long_line = 0,
                        "line_trials" => tuning.line_trials = false,
                        "none" => {}
                        other => panic!("unknown accelerator {other}"),
                    }
                }
            }
            "--bench" => {}
            other => panic!("unknown argument {other}"),
        }
        i += 1;
    }
    let cpu0 = cpu_seconds();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/tsume/zukou.jsonl");
    let text = std::fs::read_to_string(path).expect("data/tsume/zukou.jsonl");
    let mut opts = Options::default()
        .hash_mib(hash)
        .time(Duration::from_secs_f64(cap))
        .mode(mode);
    opts.tuning = tuning;
    if let Some(n) = node_cap {
        opts = opts.nodes(n);
    }
    let (mut solved, mut agree, mut total) = (0, 0, 0);
    let mut times = Vec::new();
    let mut nodes = 0u64;
    // One solver for the run, as `koma tsume --batch` holds one: its table's memory is taken
    // from the system once, not at every problem.
    let mut solver = Solver::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: serde_json::Value = serde_json::from_str(line).expect("JSON line");
        let id = v["id"].as_str().unwrap_or("?").to_string();
        if only
            .as_ref()
            .is_some_and(|o| !o.iter().any(|x| id.ends_with(x.as_str())))
        {
            continue;
        }
        let sfen = v["sfen"].as_str().expect("sfen");
        let recorded = v["length"].as_u64().unwrap_or(0) as usize;
        let pos = Position::from_sfen(sfen).expect("legal SFEN");
        let sol = solver
            .solve(&pos, &opts, &mut |_| {}, &Cancel::new())
            .expect("a mate problem");
        total += 1;
        nodes += sol.stats.nodes;
        times.push(sol.stats.elapsed);
        let (status, len, opt) = match &sol.outcome {
            Outcome::Mate(a) => {
                solved += 1;
                if a.len() == recorded {
                    agree += 1;
                }
                ("mate", a.len(), a.optimal)
            }
            Outcome::NoMate => ("nomate", 0, false),
            Outcome::Unknown(r) => (unknown(*r), 0, false),
        };
        println!(
            "{id} {status} len {len} rec {recorded} {} optimal {opt} nodes {} ms {}",
            if len == recorded { "=" } else { "!=" },
            sol.stats.nodes,
            sol.stats.elapsed.as_millis()
        );
    }
    times.sort();
    let sum: Duration = times.iter().sum();
    let median = times.get(times.len() / 2).copied().unwrap_or_default();
    let cpu = match (cpu0, cpu_seconds()) {
        (Some(a), Some(b)) => format!(", cpu {:.1} s", b - a),
        _ => String::new(),
    };
    println!(
        "solved {solved}/{total}, length = record {agree}, total {:.1} s, median {:.3} s, nodes {nodes}{cpu}",
        sum.as_secs_f64(),
        median.as_secs_f64()
    );
}
