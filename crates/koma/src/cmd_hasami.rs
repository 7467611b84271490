//! `koma hasami`: hasami shogi (挟み将棋) — training, matches, play and an engine protocol.
//! All logic lives in the koma-hasami library; this module parses arguments, shows progress,
//! draws the training curve and prints.

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Arc;

use clap::{Args, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use koma_hasami::agents::AgentSpec;
use koma_hasami::arena::{self, ArenaConfig, ArenaProgress};
use koma_hasami::ntuple::NTuple;
use koma_hasami::plot;
use koma_hasami::train::{self, TrainConfig, TrainError, TrainProgress};
use koma_hasami::{Color, Game, Position};

use crate::CliError;

/// Arguments of `koma hasami`.
#[derive(Args)]
pub struct HasamiArgs {
    #[command(subcommand)]
    command: HasamiCommand,
}

#[derive(Subcommand)]
enum HasamiCommand {
    /// Train the learned player by self-play (resumes from the checkpoint next to --out).
    Train(TrainArgs),
    /// Play a match between two agents on all cores and print the result table.
    Arena(ArenaArgs),
    /// Play against an agent in the terminal.
    Play(PlayArgs),
    /// Drive an agent over a line protocol on stdin/stdout.
    Engine(EngineArgs),
}

#[derive(Args)]
struct TrainArgs {
    /// Stop after this many hours of training in this session.
    #[arg(long)]
    hours: Option<f64>,
    /// Stop after this many self-play games in total.
    #[arg(long, default_value_t = 60_000)]
    games: u64,
    /// Model file to write; checkpoint, CSV and SVG curve go next to it.
    #[arg(long, default_value = "hasami.ntw")]
    out: PathBuf,
    /// Seed of everything random.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Evaluate and checkpoint every this many games.
    #[arg(long, default_value_t = 5_000)]
    eval_every: u64,
    /// Self-play search depth: 0 = the model one ply deep (default, measured best per CPU hour),
    /// N = koma's searcher at depth N with the model.
    #[arg(long, default_value_t = 0)]
    search_depth: u32,
    /// Ignore an existing checkpoint and start from an untrained model.
    #[arg(long)]
    fresh: bool,
}

/// Model selection shared by the commands that build agents.
#[derive(Args)]
struct ModelArg {
    /// n-tuple model for `learned` agents (default: the model shipped with koma).
    #[arg(long)]
    model: Option<PathBuf>,
}

impl ModelArg {
    fn load(&self) -> Result<Arc<NTuple>, CliError> {
        Ok(Arc::new(match &self.model {
            Some(p) => NTuple::load(p)?,
            None => NTuple::shipped(),
        }))
    }
}

#[derive(Args)]
struct ArenaArgs {
    /// Agent playing Black (先手): random, study:D, search[:D|:MSms], learned[:D|:MSms|:greedy].
    #[arg(long)]
    black: String,
    /// Agent playing White (後手).
    #[arg(long)]
    white: String,
    /// Games per colour assignment.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Also play every opening with colours swapped.
    #[arg(long)]
    swap: bool,
    /// Random plies that start each game (the same for both colour assignments).
    #[arg(long, default_value_t = 4)]
    opening_plies: u32,
    /// Seed of the openings and random agents.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Ply limit (draw).
    #[arg(long, default_value_t = koma_hasami::DEFAULT_PLY_LIMIT)]
    ply_limit: u32,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    model: ModelArg,
}

#[derive(Args)]
struct PlayArgs {
    /// The agent to play against.
    #[arg(long, default_value = "learned")]
    ai: String,
    /// Your colour: b (先手, moves first) or w.
    #[arg(long, default_value = "b")]
    color: String,
    #[command(flatten)]
    model: ModelArg,
}

#[derive(Args)]
struct EngineArgs {
    /// The agent to start with (changed by `setoption name Agent value ...`).
    #[arg(long, default_value = "learned")]
    ai: String,
    #[command(flatten)]
    model: ModelArg,
}

/// Runs `koma hasami ...`.
pub fn run(args: HasamiArgs) -> Result<(), CliError> {
    match args.command {
        HasamiCommand::Train(a) => run_train(a),
        HasamiCommand::Arena(a) => run_arena(a),
        HasamiCommand::Play(a) => run_play(a),
        HasamiCommand::Engine(a) => run_engine(a),
    }
}

fn run_train(a: TrainArgs) -> Result<(), CliError> {
    if a.hours.is_some_and(|h| h.is_nan() || h <= 0.0) || a.games == 0 || a.eval_every == 0 {
        return Err("--hours, --games and --eval-every must be positive".into());
    }
    let config = TrainConfig {
        hours: a.hours,
        games: a.games,
        eval_every: a.eval_every,
        search_depth: a.search_depth,
        fresh: a.fresh,
        ..TrainConfig::new(a.out, a.seed)
    };
    let svg_path = train::side_file(&config.out, ".svg");
    let bar = ProgressBar::new(config.games);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} games {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    // The curve is drawn at every evaluation point; a plot that cannot be written stops training
    // there (the checkpoint is saved) and is reported.
    let mut plot_error = None;
    let report = train::train(&config, |p| {
        match p {
            TrainProgress::Started { games, total } => {
                bar.set_length(total);
                bar.set_position(games);
            }
            TrainProgress::Played { games } => bar.set_position(games),
            TrainProgress::Evaluated { curve } => {
                if let Some(p) = curve.last() {
                    bar.set_message(format!(
                        "loss {:.4}, greedy vs random {:.0}%, vs study:2 {:.0}%",
                        p.loss.unwrap_or(0.0),
                        100.0 * p.vs_random,
                        100.0 * p.vs_study2
                    ));
                }
                if let Err(e) = plot::write_curve_svg(curve, &svg_path) {
                    plot_error = Some(e);
                    return ControlFlow::Break(());
                }
            }
        }
        ControlFlow::Continue(())
    });
    bar.finish();
    let report = report.map_err(|e| match e {
        TrainError::SeedMismatch { .. } => format!("{e}; use --fresh to start over").into(),
        e => CliError::from(e),
    })?;
    if let Some(e) = plot_error {
        return Err(e.into());
    }
    if report.resumed_from > 0 {
        eprintln!("resumed from game {}", report.resumed_from);
    }
    println!("games\tseconds\ttd_loss\tgreedy_vs_random\tgreedy_vs_study2");
    for p in &report.curve {
        let loss = p
            .loss
            .map(|l| format!("{l:.4}"))
            .unwrap_or_else(|| "-".into());
        println!(
            "{}\t{:.0}\t{loss}\t{:.2}\t{:.2}",
            p.games, p.seconds, p.vs_random, p.vs_study2
        );
    }
    println!(
        "model: {} ({} games, {:.0} s of training)",
        config.out.display(),
        report.games,
        report.seconds
    );
    Ok(())
}

fn run_arena(a: ArenaArgs) -> Result<(), CliError> {
    let config = ArenaConfig {
        black: a.black.parse::<AgentSpec>()?,
        white: a.white.parse::<AgentSpec>()?,
        games: a.games,
        swap: a.swap,
        opening_plies: a.opening_plies,
        seed: a.seed,
        ply_limit: a.ply_limit,
    };
    let model = a.model.load()?;
    let bar = ProgressBar::new(0);
    let on_game = |p: ArenaProgress| {
        // Games finish on several threads: count them rather than trust `done`'s order.
        bar.set_length(p.total as u64);
        bar.inc(1);
    };
    let report = arena::run(&config, &model, &on_game);
    bar.finish_and_clear();
    if a.json {
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        print!("{}", report.table());
    }
    Ok(())
}

fn run_play(a: PlayArgs) -> Result<(), CliError> {
    let human = match a.color.as_str() {
        "b" | "black" => Color::Black,
        "w" | "white" => Color::White,
        other => return Err(format!("--color must be b or w, got {other:?}").into()),
    };
    let spec: AgentSpec = a.ai.parse()?;
    let mut agent = spec.build(seed_from_clock(), &a.model.load()?);
    let game = Game::new(Position::startpos(), koma_hasami::DEFAULT_PLY_LIMIT);
    let stdin = std::io::stdin();
    koma_hasami::play::play(game, human, agent.as_mut(), stdin.lock(), std::io::stdout())?;
    Ok(())
}

/// A seed for the random agent in interactive play, where reproducibility is not wanted.
fn seed_from_clock() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

fn run_engine(a: EngineArgs) -> Result<(), CliError> {
    let spec: AgentSpec = a.ai.parse()?;
    let stdin = std::io::stdin();
    koma_hasami::engine::run(stdin.lock(), std::io::stdout(), spec, a.model.load()?)?;
    Ok(())
}
