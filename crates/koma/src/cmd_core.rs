//! `koma perft` and `koma moves`: the rules engine from the command line.

use std::time::Instant;

use clap::{Args, ValueEnum};
use koma_core::perft::{self, Counting};
use koma_core::{MoveFilter, NonPromotions, Position, usi};

use crate::CliError;

/// Reads a position given as words on the command line: `startpos`, an SFEN (quoted or not), or
/// a USI `position ... moves ...` string.
pub fn position_from_words(words: &[String]) -> Result<Position, CliError> {
    let text = words.join(" ");
    let text = if text.trim().is_empty() {
        "startpos"
    } else {
        text.as_str()
    };
    Ok(usi::parse_position(text)?)
}

/// Arguments of `koma perft`.
#[derive(Args)]
pub struct PerftArgs {
    /// Start from this SFEN instead of the start position.
    #[arg(long)]
    sfen: Option<String>,
    /// Moves (USI) to play from the start position or the SFEN first.
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    moves: Vec<String>,
    /// Depth in plies.
    #[arg(long, short)]
    depth: u32,
    /// Print the count below each legal move.
    #[arg(long)]
    divide: bool,
    /// Worker threads (root moves are shared among them).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Make and unmake every move down to the leaves instead of counting the last ply in bulk.
    #[arg(long)]
    materialized: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs `koma perft`.
pub fn perft(args: PerftArgs) -> Result<(), CliError> {
    let mut pos = match &args.sfen {
        Some(s) => Position::from_sfen(s)?,
        None => Position::startpos(),
    };
    usi::apply_moves(&mut pos, args.moves.iter().map(String::as_str))?;
    if args.threads == 0 {
        return Err("--threads must be at least 1".into());
    }
    let start = Instant::now();
    let counting = if args.materialized {
        Counting::Materialized
    } else {
        Counting::Bulk
    };
    let root = perft::divide_threaded(&pos, args.depth, counting, args.threads);
    let nodes = if args.depth == 0 {
        1
    } else {
        root.iter().map(|&(_, n)| n).sum()
    };
    let secs = start.elapsed().as_secs_f64();
    let mnps = nodes as f64 / secs.max(1e-9) / 1e6;
    if args.json {
        let divide: serde_json::Map<String, serde_json::Value> = root
            .iter()
            .map(|(m, n)| (m.to_string(), (*n).into()))
            .collect();
        let mut out = serde_json::json!({
            "sfen": pos.to_sfen(), "depth": args.depth, "nodes": nodes,
            "seconds": secs, "mnps": mnps, "threads": args.threads, "materialized": args.materialized,
        });
        if args.divide {
            out["divide"] = divide.into();
        }
        println!("{out}");
    } else {
        if args.divide {
            for (m, n) in &root {
                println!("{m}: {n}");
            }
        }
        println!("nodes {nodes}  time {secs:.3} s  {mnps:.1} Mnps");
    }
    Ok(())
}

/// Which moves `koma moves` lists.
#[derive(Clone, Copy, ValueEnum)]
enum Filter {
    All,
    Checks,
    Evasions,
    Captures,
    Quiets,
}

/// How `koma moves` writes each move.
#[derive(Clone, Copy, ValueEnum)]
enum Notation {
    /// USI: `7g7f`, `P*5e`.
    Usi,
    /// Japanese (KI2 style): `▲７六歩`, `▲５八金左`.
    Japanese,
    /// Western: `P-7f`, `Bx2b+`.
    Western,
}

/// Arguments of `koma moves`.
#[derive(Args)]
pub struct MovesArgs {
    /// The position: an SFEN, `startpos`, or a USI `position ... moves ...` string.
    #[arg(required = true, num_args = 1.., value_name = "POSITION")]
    position: Vec<String>,
    /// Which moves to list.
    #[arg(long, value_enum, default_value = "all")]
    filter: Filter,
    /// Leave out non-promotions that are never better than promoting.
    #[arg(long)]
    skip_useless: bool,
    /// How to write the moves.
    #[arg(long, value_enum, default_value = "usi")]
    notation: Notation,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Runs `koma moves`.
pub fn moves(args: MovesArgs) -> Result<(), CliError> {
    let pos = position_from_words(&args.position)?;
    let filter = match args.filter {
        Filter::All => MoveFilter::All,
        Filter::Checks => MoveFilter::Checks,
        Filter::Evasions => MoveFilter::Evasions,
        Filter::Captures => MoveFilter::Captures,
        Filter::Quiets => MoveFilter::Quiets,
    };
    let nonpro = if args.skip_useless {
        NonPromotions::SkipUseless
    } else {
        NonPromotions::All
    };
    let mut list = Vec::new();
    pos.generate(filter, nonpro, |m| list.push(m));
    let names: Vec<String> = list
        .iter()
        .map(|&m| match args.notation {
            Notation::Usi => m.to_string(),
            Notation::Japanese => koma_record::japanese::move_name(&pos, m),
            Notation::Western => koma_record::western::move_name(&pos, m),
        })
        .collect();
    if args.json {
        println!(
            "{}",
            serde_json::json!({ "sfen": pos.to_sfen(), "count": names.len(), "moves": names })
        );
    } else {
        println!("{}", names.join(" "));
        println!("{} moves", names.len());
    }
    Ok(())
}
