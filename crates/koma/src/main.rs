//! The `koma` command: one binary in front of every koma capability.
//!
//! Each subcommand lives in its own module (`cmd_*.rs`) with an `Args` struct (clap derive)
//! and a `run(args) -> Result<(), CliError>` function (`koma tsume` returns its exit code, which
//! says mate, no mate, unknown or flawed). Library crates return typed errors; this binary
//! renders them as one line on stderr and exits non-zero (1; 2 for a usage error).

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod cmd_core;
mod cmd_hasami;
mod cmd_place;
mod cmd_record;
mod cmd_serve;
mod cmd_tsume;
mod cmd_usi;

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
    /// Solve or check tsume (詰将棋) problems: the composer's answer, a soundness verdict,
    /// KIF output, batches as JSON lines.
    Tsume(cmd_tsume::TsumeArgs),
    /// A USI engine for shogi GUIs: `go mate` solves tsume, `go` plays a mate it finds.
    Usi(cmd_usi::UsiArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let done = |r: Result<(), CliError>| r.map(|()| ExitCode::SUCCESS);
    let result = match cli.command {
        Command::Serve(args) => done(cmd_serve::serve(args)),
        Command::Perft(args) => done(cmd_core::perft(args)),
        Command::Moves(args) => done(cmd_core::moves(args)),
        Command::Convert(args) => done(cmd_record::convert(args)),
        Command::Show(args) => done(cmd_record::show(args)),
        Command::Hasami(args) => done(cmd_hasami::run(args)),
        Command::Place(args) => done(cmd_place::run(args)),
        Command::Tsume(args) => cmd_tsume::run(args),
        Command::Usi(args) => done(cmd_usi::run(args)),
    };
    match result {
        Ok(code) => code,
        Err(e) => {
            eprintln!("koma: error: {e}");
            ExitCode::FAILURE
        }
    }
}
