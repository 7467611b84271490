//! `koma place`: non-attacking piece placement (利かずの駒並べ).

use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use koma_place::checkpoint::{BadLine, Checkpoint, CheckpointError, CheckpointHeader, LineError};
use koma_place::{
    Geometry, Mode, Options, Outcome, PieceSet, PlaceError, Placement, Problem, Progress, solve,
};
use serde::Serialize;

use crate::CliError;

/// Place a set of pieces so that none attacks another.
#[derive(Args, Debug)]
pub struct PlaceArgs {
    /// Pieces with counts, e.g. P18L4N4S4G4K2R2B2; `+` promotes (+P8), X is a stone; with
    /// --both-ways `^P` fixes Black and lowercase (`p`) fixes White.
    pub pieces: String,
    /// Two-directional: each piece may face either way (the solver chooses).
    #[arg(long)]
    pub both_ways: bool,
    /// Stop at the first placement and print it.
    #[arg(long, conflicts_with_all = ["count", "all"])]
    pub first: bool,
    /// Count all placements (the default).
    #[arg(long, conflicts_with = "all")]
    pub count: bool,
    /// Print every placement as an SFEN line as soon as it is found.
    #[arg(long)]
    pub all: bool,
    /// With --all: stop after this many placements.
    #[arg(long)]
    pub limit: Option<u64>,
    /// Identify mirror images: --all and --first print one placement of each mirror pair.
    #[arg(long)]
    pub mirror: bool,
    /// Worker threads (default: one per core).
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Give up after this many seconds (the result then says complete: false).
    #[arg(long)]
    pub time_limit: Option<f64>,
    /// Write the result as JSON.
    #[arg(long)]
    pub json: bool,
    /// Time the search (counting, or enumerating without printing for --all) this many times
    /// and report the best and median wall-clock time.
    #[arg(long, value_name = "RUNS")]
    pub bench: Option<u32>,
    /// Counting: record each finished task in FILE as it finishes, and resume from FILE when it
    /// already exists (same pieces, direction and koma version), searching only what is left.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["first", "all", "bench"])]
    pub checkpoint: Option<PathBuf>,
}

/// The `--json` result. Counts are written as exact integers, however large.
#[derive(Serialize)]
struct JsonResult {
    pieces: String,
    both_ways: bool,
    count: u128,
    count_mirror_identified: u128,
    complete: bool,
    elapsed_seconds: f64,
    nodes: u64,
    tasks_done: usize,
    tasks: usize,
    /// Of the tasks done, those taken from the checkpoint file.
    tasks_resumed: usize,
    solutions: Option<Vec<String>>,
    stone_letter: &'static str,
}

fn mode(args: &PlaceArgs) -> Mode {
    if args.first {
        Mode::Enumerate { limit: Some(1) }
    } else if args.all {
        Mode::Enumerate { limit: args.limit }
    } else {
        Mode::Count
    }
}

/// Runs `koma place`.
pub fn run(args: PlaceArgs) -> Result<(), CliError> {
    let set: PieceSet = args.pieces.parse()?;
    let problem = Problem::new(set, Geometry::standard(), args.both_ways).map_err(with_hint)?;
    if let Some(t) = args.time_limit
        && !(t > 0.0 && t.is_finite())
    {
        return Err("--time-limit must be a positive number of seconds".into());
    }
    if let Some(runs) = args.bench {
        return bench(&problem, &args, runs.max(1));
    }
    let checkpoint = open_checkpoint(&args, &problem)?;
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} tasks, {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let progress = |p: Progress| {
        bar.set_length(p.total as u64);
        bar.set_position(p.done as u64);
        bar.set_message(format!("{} found", p.found));
        if let Some(c) = &checkpoint {
            c.record(&p.task, p.total);
        }
    };
    let opts = Options {
        mode: mode(&args),
        threads: args.threads,
        identify_mirror: args.mirror,
        time_limit: args.time_limit.map(Duration::from_secs_f64),
        progress: Some(&progress),
        split: checkpoint.as_ref().map_or(0, Checkpoint::split),
        resume: checkpoint.as_ref().map_or(&[], Checkpoint::resumed),
        ..Options::default()
    };
    let solutions = Mutex::new(Vec::new());
    let stdout = std::io::stdout();
    let write_error = Mutex::new(None);
    let on_solution = |p: &Placement| {
        if args.json || args.first {
            solutions
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .push(p.clone());
        } else {
            let mut out = stdout.lock();
            if let Err(e) = writeln!(out, "{}", p.to_sfen()) {
                *write_error.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
            }
        }
    };
    let outcome = solve(&problem, &opts, &on_solution);
    bar.finish_and_clear();
    let tasks_resumed = checkpoint.as_ref().map_or(0, |c| c.resumed().len());
    if let Some(c) = checkpoint {
        c.finish(outcome.tasks).map_err(checkpoint_error)?;
    }
    if let Some(e) = write_error.into_inner().unwrap_or_else(|e| e.into_inner())
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        return Err(e.into());
    }
    let solutions = solutions.into_inner().unwrap_or_else(|e| e.into_inner());
    print_result(&args, &problem, &outcome, &solutions, tasks_resumed)
}

/// The checkpoint `--checkpoint` names, opened (resumed, or created for this run's split).
fn open_checkpoint(args: &PlaceArgs, problem: &Problem) -> Result<Option<Checkpoint>, CliError> {
    let Some(path) = &args.checkpoint else {
        return Ok(None);
    };
    let split = Options {
        threads: args.threads,
        ..Options::default()
    }
    .split_target();
    Ok(Some(
        Checkpoint::open(path, problem, split).map_err(checkpoint_error)?,
    ))
}

/// Prints the outcome: one JSON object with `--json`, else the placements kept (`--first`) with
/// their diagrams and the summary (on stderr after `--all`'s stream of SFENs).
fn print_result(
    args: &PlaceArgs,
    problem: &Problem,
    outcome: &Outcome,
    solutions: &[Placement],
    tasks_resumed: usize,
) -> Result<(), CliError> {
    if args.json {
        let json = serde_json::to_string(&JsonResult {
            pieces: problem.set().to_string(),
            both_ways: args.both_ways,
            count: outcome.count,
            count_mirror_identified: outcome.count_mirror_identified,
            complete: outcome.complete,
            elapsed_seconds: outcome.elapsed.as_secs_f64(),
            nodes: outcome.nodes,
            tasks_done: outcome.tasks_done,
            tasks: outcome.tasks,
            tasks_resumed,
            solutions: (args.first || args.all)
                .then(|| solutions.iter().map(Placement::to_sfen).collect()),
            stone_letter: "X",
        })?;
        println!("{json}");
        return Ok(());
    }
    for p in solutions {
        println!("{}\n{}", p.to_sfen(), p.diagram());
    }
    let summary = summary(outcome);
    if args.all {
        eprint!("{summary}");
    } else {
        print!("{summary}");
    }
    Ok(())
}

/// The library's error, with the flag that helps where there is one.
fn with_hint(e: PlaceError) -> CliError {
    match e {
        PlaceError::WhiteInOneWay { .. } => format!("{e} (use --both-ways)").into(),
        e => e.into(),
    }
}

/// A checkpoint error for the person who typed the command: a header of another problem is
/// described by the arguments that would count it.
fn checkpoint_error(e: CheckpointError) -> CliError {
    let CheckpointError::Line {
        path,
        bad:
            BadLine {
                line,
                error: LineError::OtherProblem { found, expected },
            },
    } = &e
    else {
        return e.into();
    };
    let describe = |h: &CheckpointHeader| {
        format!(
            "{}{} (koma {}, format {})",
            h.pieces,
            if h.both_ways { " --both-ways" } else { "" },
            h.version,
            h.format
        )
    };
    format!(
        "{}:{line}: the checkpoint is for {}, not {}",
        path.display(),
        describe(found),
        describe(expected)
    )
    .into()
}

fn summary(o: &Outcome) -> String {
    format!(
        "count: {}\ncount_mirror_identified: {}\ncomplete: {}\nelapsed: {:.3} s ({} nodes, {}/{} tasks)\n",
        o.count,
        o.count_mirror_identified,
        o.complete,
        o.elapsed.as_secs_f64(),
        o.nodes,
        o.tasks_done,
        o.tasks
    )
}

fn bench(problem: &Problem, args: &PlaceArgs, runs: u32) -> Result<(), CliError> {
    let opts = Options {
        mode: mode(args),
        threads: args.threads,
        identify_mirror: args.mirror,
        time_limit: args.time_limit.map(Duration::from_secs_f64),
        ..Options::default()
    };
    let mut times = Vec::new();
    let mut last = None;
    for _ in 0..runs {
        let o = solve(problem, &opts, &|_| {});
        times.push(o.elapsed);
        last = Some(o);
    }
    times.sort();
    if let Some(o) = last {
        print!("{}", summary(&o));
    }
    println!(
        "bench: {} runs, best {:.4} s, median {:.4} s",
        runs,
        times[0].as_secs_f64(),
        times[times.len() / 2].as_secs_f64()
    );
    Ok(())
}
