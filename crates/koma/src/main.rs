//! The `koma` command: one binary in front of every koma capability.
//!
//! Each subcommand lives in its own module (`cmd_*.rs`) with an `Args` struct (clap derive)
//! and a `run(args) -> Result<(), CliError>` function. Library crates return typed errors;
//! this binary renders them as one line on stderr and exits non-zero.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cmd_core;

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
    /// Count the leaf nodes of the legal move tree (perft) and report the speed.
    Perft(cmd_core::PerftArgs),
    /// List the legal moves of a position.
    Moves(cmd_core::MovesArgs),
    /// Draw a position as a board diagram.
    Show(cmd_core::ShowArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Perft(args) => cmd_core::perft(args),
        Command::Moves(args) => cmd_core::moves(args),
        Command::Show(args) => cmd_core::show(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("koma: error: {e}");
            ExitCode::FAILURE
        }
    }
}
