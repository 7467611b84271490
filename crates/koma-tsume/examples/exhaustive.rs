//! The exhaustive mate-within-N oracle (tests/oracle/mod.rs, koma-core only) as a dev tool,
//! to settle a length independently of koma-tsume:
//!
//! ```text
//! cargo run --release -p koma-tsume --example exhaustive -- [--dfpn] [--only MODE] [--at] MAX 'sfen ... [moves ...]'
//! ```
//!
//! `--dfpn` searches by depth-bounded df-pn (the oracle's `DfPn`: the same values, far deeper)
//! instead of the plain search; `--only every|free-left-out|tested` runs one way of counting;
//! `--at` asks only whether there is a mate within MAX plies (not for each shorter length).
//!
//! For the position (the side to move attacks; a defender to move in check is searched as a
//! defender node) it prints, for each way of counting interpositions, the shortest mate within
//! MAX plies or that there is none, with the nodes: `every` (at least koma's length),
//! `free-left-out` (at most koma's), `tested` (useless ones left out by a bounded test of MAX
//! plies: koma's length when `undecided` is 0). From a defender node it also lists each defence
//! with the plies to mate after it (`every`, `free-left-out`).
//!
//! These are minimax lengths; koma's line can be shorter where a longer defence ends with pieces
//! left (変長駒余り, rule 6 of docs/tsume.md).

#[path = "../tests/oracle/mod.rs"]
mod oracle;

use std::process::ExitCode;
use std::time::Instant;

use koma_core::Position;
use oracle::{DfPn, Exhaustive, Interpositions, Oracle};

/// The plain search or the df-pn one.
fn search(dfpn: bool, mode: Interpositions) -> Box<dyn Oracle> {
    if dfpn {
        Box::new(DfPn::new(mode))
    } else {
        Box::new(Exhaustive::new(mode))
    }
}

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let dfpn = args.first().is_some_and(|a| a == "--dfpn");
    if dfpn {
        args.remove(0);
    }
    let only = if args.first().is_some_and(|a| a == "--only") && args.len() > 1 {
        args.remove(0);
        Some(args.remove(0))
    } else {
        None
    };
    let at = args.first().is_some_and(|a| a == "--at");
    if at {
        args.remove(0);
    }
    let (Some(max), Some(text)) = (
        args.first().and_then(|a| a.parse::<u16>().ok()),
        args.get(1),
    ) else {
        eprintln!(
            "usage: exhaustive [--dfpn] [--only every|free-left-out|tested] [--at] MAX 'sfen ... [moves ...]'"
        );
        return ExitCode::from(2);
    };
    let pos: Position = match koma_core::usi::parse_position(text) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("exhaustive: {e}");
            return ExitCode::from(2);
        }
    };
    let defender = pos.in_check();
    for (name, mode) in [
        ("every", Interpositions::Every),
        ("free-left-out", Interpositions::FreeLeftOut),
        ("tested", Interpositions::Tested(max + max % 2)),
    ] {
        if only.as_ref().is_some_and(|o| o != name) {
            continue;
        }
        let t = Instant::now();
        let mut x = search(dfpn, mode);
        // From a defender node the lengths count from its move: even.
        let found = if at {
            // Only the one question: the length is at most MAX, or more.
            let d = if defender {
                max - max % 2
            } else {
                max - 1 + max % 2
            };
            x.within(&pos, d).then_some(d)
        } else if defender {
            (0..=max).step_by(2).find(|&d| x.defend(&pos, d))
        } else {
            x.shortest(&pos, max)
        };
        let what = match found {
            None => format!("no mate within {max}"),
            Some(n) if at => format!("mate within {n}"),
            Some(n) => format!("mate in {n}"),
        };
        let c = x.counts();
        println!(
            "{name:<14} {what} ({} nodes, {} interpositions, {} undecided, {:.1} s)",
            c.nodes,
            c.interpositions,
            c.undecided,
            t.elapsed().as_secs_f64()
        );
    }
    if defender {
        // Each defence on its own: the plies to mate after it, both bounds.
        let mut every = search(dfpn, Interpositions::Every);
        let mut free = search(dfpn, Interpositions::FreeLeftOut);
        for e in pos.legal_moves().iter().copied() {
            let mut p = pos.clone();
            p.do_move(e);
            let n = |x: Option<u16>| x.map_or(format!(">{}", max - 1), |n| n.to_string());
            println!(
                "  {e:<8} every {:>4}  free-left-out {:>4}",
                n(every.shortest(&p, max - 1)),
                n(free.shortest(&p, max - 1))
            );
        }
    }
    ExitCode::SUCCESS
}
