//! The `koma` command: one binary in front of every koma capability.
//!
//! Each subcommand lives in its own module (`cmd_*.rs`) with an `Args` struct (clap derive)
//! and a `run(args) -> Result<(), CliError>` function. Library crates return typed errors;
//! this binary renders them as one line on stderr and exits non-zero.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cmd_core;
mod cmd_hasami;
mod cmd_place;
mod cmd_record;
mod cmd_serve;

/// An error rendered for a person at the edge of the program.
pub type CliError = Box<dyn std::error::Error + Send + Sync>;

#[derive(Parser)]
#[command(name = "koma", version, about = "koma: a shogi computing workbench")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// The workbench in the browser: serve the web front end and JSON API (until Ctrl-C).
    Serve(cmd_serve::ServeArgs),
    /// Count the leaf nodes of the legal move tree (perft) and report the speed.
    Perft(cmd_core::PerftArgs),
    /// List the legal moves of a position.
    Moves(cmd_core::MovesArgs),
    /// Convert a game record or problem file between CSA, KIF, KI2, USI, SFEN, BOD and JKF.
    Convert(cmd_record::ConvertArgs),
    /// Draw a position (SFEN, USI position string or record file) as a board diagram.
    Show(cmd_record::ShowArgs),
    /// Hasami shogi (挟み将棋): train, arena, play and engine.
    Hasami(cmd_hasami::HasamiArgs),
    /// Place pieces so that none attacks another (利かずの駒並べ): count, enumerate, settle.
    Place(cmd_place::PlaceArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Serve(args) => cmd_serve::serve(args),
        Command::Perft(args) => cmd_core::perft(args),
        Command::Moves(args) => cmd_core::moves(args),
        Command::Convert(args) => cmd_record::convert(args),
        Command::Show(args) => cmd_record::show(args),
        Command::Hasami(args) => cmd_hasami::run(args),
        Command::Place(args) => cmd_place::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("koma: error: {e}");
            ExitCode::FAILURE
        }
    }
}
