//! `koma tsume`: solve or check tsume (詰将棋) problems, one at a time or in batches.
//!
//! The solving, the check, problem lines and result records are koma-tsume's; reading problem
//! files, naming moves and writing KIF are koma-record's. This module parses arguments, shows
//! progress and prints.

mod batch;

use std::io::{BufRead, Cursor, Write as _};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use koma_core::text::{EXCERPT_CHARS, excerpt};
use koma_core::{Move, Position, STARTPOS_SFEN};
use koma_record::encoding::Encoding;
use koma_record::input::{Options as ReadOptions, Records};
use koma_record::output::RecordWriter;
use koma_record::{EndKind, Format, GameEnd, Record, japanese};
use koma_tsume::{
    Answer, Cancel, Check, Comparison, DEFAULT_HASH_MIB, Finding, Mode, NotAProblem, Options,
    Outcome, Phase, ProblemId, Progress, Report, Solution, Stats, UnknownReason, Verdict, check,
    hand_text, plies, solve,
};

use crate::CliError;
use crate::cmd_record::{open, parse_encoding, parse_format, print_warnings};

/// Exit code: no mate.
pub const EXIT_NOMATE: u8 = 3;
/// Exit code: not known within the limits.
pub const EXIT_UNKNOWN: u8 = 4;
/// Exit code: the check found a flaw.
pub const EXIT_FLAWED: u8 = 5;

/// Arguments of `koma tsume` (the exit codes are in its help text).
#[derive(Args)]
#[command(
    after_help = "Exit codes: 0 mate (--check: sound; --batch: every line read), \
1 error (--batch: some lines could not be read), 2 usage, 3 no mate, 4 unknown (a limit struck \
first), 5 flawed (--check)."
)]
pub struct TsumeArgs {
    /// The problem: an SFEN, a USI position string (`sfen ... moves ...`: the position after
    /// the moves), a problem file (KIF/KI2/BOD, CSA, JKF, SFEN; moves in a KIF/CSA/JKF file are
    /// its answer, compared with koma's) or `-` for standard input.
    #[arg(required_unless_present = "batch", conflicts_with = "batch")]
    input: Option<String>,
    /// Solve every problem of FILE (`-`: standard input): one SFEN or USI position a line, or
    /// JSON lines with `sfen`, optional `id` and optional `solution_usi`. Results are written
    /// as JSON lines as they come; bad lines give an error record and the batch goes on.
    #[arg(long, value_name = "FILE")]
    batch: Option<String>,
    /// With --batch: write the results to FILE. If FILE exists, the problems whose id it holds
    /// are skipped and new results appended (resume; a line cut short by a kill is dropped).
    #[arg(long, value_name = "FILE", requires = "batch")]
    out: Option<PathBuf>,
    /// With --batch: problems solved at once; the hash is divided among them.
    #[arg(long, default_value_t = 1, requires = "batch")]
    threads: usize,
    /// Check the problem by the rules of tsume: sound, or 余詰 / 変長 / 駒余り with the ply
    /// and the move; 最終手余詰 and 変同 reported as allowed blemishes.
    #[arg(long)]
    check: bool,
    /// Stop at the first proven mate (fast: says mate or no mate; the line may not be the
    /// composer's answer).
    #[arg(long, conflicts_with_all = ["check", "kif"])]
    any: bool,
    /// Print the result as one JSON object (--batch always writes JSON lines).
    #[arg(long)]
    json: bool,
    /// Write the answer as a KIF record to FILE (`-`: standard output; a .kif file is
    /// Shift-JIS), the defender's equal-length alternatives as 変化 branches. Runs the check
    /// to find them.
    #[arg(long, value_name = "FILE", conflicts_with = "batch")]
    kif: Option<String>,
    /// Give up after this many seconds (per problem with --batch): the answer is then
    /// "unknown", or a verified mate that may not be the shortest.
    #[arg(long, value_name = "SECS")]
    time_limit: Option<f64>,
    /// Give up after this many search nodes (per problem with --batch).
    #[arg(long, value_name = "N")]
    nodes: Option<u64>,
    /// Transposition table size in MiB (the total: --batch divides it among --threads).
    #[arg(long, value_name = "MiB", default_value_t = DEFAULT_HASH_MIB)]
    hash: usize,
    /// Input format of a file (default: detected from the content).
    #[arg(long, value_parser = parse_format)]
    from: Option<Format>,
    /// Input encoding of a file: utf-8, shift-jis or euc-jp (default: detected).
    #[arg(long, value_parser = parse_encoding)]
    encoding: Option<Encoding>,
}

/// Runs `koma tsume`.
pub fn run(args: TsumeArgs) -> Result<ExitCode, CliError> {
    let options = options(&args)?;
    match &args.batch {
        Some(file) => batch::run(&args, file, options),
        None => single(&args, options),
    }
}

fn options(args: &TsumeArgs) -> Result<Options, CliError> {
    if args.hash == 0 {
        return Err("--hash must be at least 1 (MiB)".into());
    }
    if args.threads == 0 {
        return Err("--threads must be at least 1".into());
    }
    let mut o = Options::default().hash_mib(args.hash);
    if args.any {
        o = o.mode(Mode::Any);
    }
    if let Some(t) = args.time_limit {
        if !(t > 0.0 && t.is_finite() && t < 1e9) {
            return Err("--time-limit must be a positive number of seconds".into());
        }
        o = o.time(Duration::from_secs_f64(t));
    }
    if let Some(n) = args.nodes {
        o = o.nodes(n);
    }
    Ok(o)
}

/// One problem as read: the position, the answer the input records, and its headers.
struct Input {
    position: Position,
    expected: Option<Vec<Move>>,
    headers: Vec<(String, String)>,
}

/// Reads the problem argument: a file or `-` through koma-record's detection, else the text
/// itself (an SFEN or USI position string, or a pasted record).
fn read_input(args: &TsumeArgs) -> Result<Input, CliError> {
    let arg = args.input.as_deref().unwrap_or("-");
    let options = ReadOptions {
        format: args.from,
        encoding: args.encoding,
    };
    // A word without spaces is a file name (SFEN and USI strings have spaces), but `startpos`.
    let is_file = arg == "-"
        || Path::new(arg).is_file()
        || (!arg.contains(char::is_whitespace) && arg != "startpos");
    let (mut records, name) = if is_file {
        // The name as given, control characters escaped (it is quoted in every message).
        (open(arg, options)?, excerpt(arg, usize::MAX))
    } else {
        let src: Box<dyn BufRead> = Box::new(Cursor::new(arg.as_bytes().to_vec()));
        let records = Records::new(src, None, options)?;
        (records, format!("`{}`", excerpt(arg, EXCERPT_CHARS)))
    };
    let format = records.detected().format;
    let read = match records.next() {
        Some(Ok(read)) => read,
        Some(Err(e)) if is_file => return Err(format!("{name}: {e}").into()),
        // One line: its text is already shown.
        Some(Err(e)) if e.line <= 1 => {
            return Err(format!(
                "{name} is not a file, an SFEN or a USI position: {}",
                e.kind
            )
            .into());
        }
        Some(Err(e)) => return Err(format!("{name}: {e}").into()),
        None => return Err(format!("{name}: no problem in the input").into()),
    };
    if records.next().is_some() {
        return Err(format!(
            "{name}: the input holds several problems (solve them all with --batch {name})"
        )
        .into());
    }
    print_warnings(&name, &read);
    let record = read.record;
    let moves: Vec<Move> = record.moves().collect();
    let (at, expected) = match format {
        // A USI position string names the position after its moves.
        Format::Usi | Format::Sfen => (record.position_after(moves.len()), None),
        // A problem file's moves are its answer; a game from the start is no problem.
        _ if record.initial().to_sfen() == STARTPOS_SFEN => {
            return Err(format!(
                "{name}: a game from the start position, not a problem (no diagram); pick a \
                 position with `koma convert {name} --to sfen --move N`"
            )
            .into());
        }
        _ => (
            record.initial().clone(),
            Some(moves).filter(|m| !m.is_empty()),
        ),
    };
    // The problem is the diagram: no game history before it.
    let position = Position::from_sfen(&at.to_sfen())?;
    if let Some(why) = NotAProblem::of(&position) {
        return Err(format!("{name}: {why}").into());
    }
    Ok(Input {
        position,
        expected,
        headers: record.headers().to_vec(),
    })
}

/// A solve's or a check's result, typed, for the output for people.
enum Done {
    Solved(Solution),
    Checked(Check),
}

fn single(args: &TsumeArgs, options: Options) -> Result<ExitCode, CliError> {
    let input = read_input(args)?;
    let pos = &input.position;
    let expected = input.expected.as_deref();
    let bar = spinner();
    let mut progress = |p: &Progress| bar.set_message(progress_message(p));
    let cancel = Cancel::new();
    let id = ProblemId::Number(1);
    let done = if args.check || args.kif.is_some() {
        Done::Checked(check(pos, &options, expected, &mut progress, &cancel)?)
    } else {
        Done::Solved(solve(pos, &options, &mut progress, &cancel)?)
    };
    bar.finish_and_clear();
    let (report, answer) = match &done {
        Done::Solved(s) => (
            Report::from_solution(id, pos, s, expected),
            match &s.outcome {
                Outcome::Mate(a) => Some(a),
                _ => None,
            },
        ),
        Done::Checked(c) => (Report::from_check(id, pos, c, expected), c.answer.as_ref()),
    };
    if let Some(path) = &args.kif {
        match answer {
            Some(a) => write_kif(path, &input, a)?,
            None => eprintln!("koma: warning: no mate, so no KIF record written"),
        }
    }
    let text = if args.json {
        serde_json::to_string(&report)? + "\n"
    } else {
        for_people(&input, &done)
    };
    let mut out: Box<dyn std::io::Write> = if args.kif.as_deref() == Some("-") {
        Box::new(std::io::stderr())
    } else {
        Box::new(std::io::stdout().lock())
    };
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(ExitCode::from(exit_code(&done)))
}

fn exit_code(done: &Done) -> u8 {
    match done {
        Done::Solved(s) => match s.outcome {
            Outcome::Mate(_) => 0,
            Outcome::NoMate => EXIT_NOMATE,
            Outcome::Unknown(_) => EXIT_UNKNOWN,
        },
        Done::Checked(c) => match c.verdict {
            Verdict::Sound => 0,
            Verdict::Flawed => EXIT_FLAWED,
            Verdict::NoMate => EXIT_NOMATE,
            Verdict::Unknown(_) => EXIT_UNKNOWN,
        },
    }
}

/// A spinner on standard error (drawn only on a terminal) for a long solve.
fn spinner() -> ProgressBar {
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template("{spinner} {elapsed} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

fn progress_message(p: &Progress) -> String {
    let phase = match p.phase {
        Phase::Proof => "proving".to_owned(),
        Phase::Shortening { upper } => format!("shortening (mate in {upper} proven)"),
        Phase::Answer { ply } => format!("choosing ply {ply}"),
        Phase::Check { ply } => format!("checking ply {ply}"),
    };
    let secs = p.elapsed.as_secs_f64().max(1e-6);
    format!(
        "{phase}: {} nodes, {:.0} nodes/s, hash {:.1} % used",
        p.nodes,
        p.nodes as f64 / secs,
        p.hashfull as f64 / 10.0
    )
}

/// Names moves for people, each in the position it is played in.
struct Namer<'a> {
    start: &'a Position,
    answer: &'a [Move],
}

impl Namer<'_> {
    /// The position before ply `ply` (from 1) of the answer, with the moves before it in its
    /// history (so that 同 is written where it applies).
    fn before(&self, ply: usize) -> Position {
        let mut p = self.start.clone();
        for &m in self.answer.iter().take(ply.saturating_sub(1)) {
            p.do_move(m);
        }
        p
    }

    /// `line` played from before ply `ply`, in Japanese (USI for a move that is not legal
    /// there, which a recorded answer may hold).
    fn line(&self, ply: usize, line: &[Move]) -> String {
        let mut p = self.before(ply);
        let mut names = Vec::with_capacity(line.len());
        for &m in line {
            if p.legal_moves().contains(&m) {
                names.push(japanese::move_name(&p, m));
                p.do_move(m);
            } else {
                names.push(m.to_string());
                break;
            }
        }
        names.join(" ")
    }
}

fn usi_line(moves: &[Move]) -> String {
    moves
        .iter()
        .map(Move::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Why a solve stopped, for people, with the option that helps where one does.
fn reason_text(why: UnknownReason) -> String {
    match why {
        UnknownReason::Memory => format!("{why} (try more --hash)"),
        _ => why.to_string(),
    }
}

/// The result for people: the answer in Japanese and USI, its length and leftover pieces, the
/// check's findings, the comparison with the input's answer, and what the search cost.
fn for_people(input: &Input, done: &Done) -> String {
    let (outcome, stats, check) = match done {
        Done::Solved(s) => (s.outcome.clone(), s.stats, None),
        Done::Checked(c) => {
            let outcome = match (&c.answer, c.verdict) {
                (Some(a), _) => Outcome::Mate(a.clone()),
                (None, Verdict::NoMate) => Outcome::NoMate,
                (None, Verdict::Unknown(why)) => Outcome::Unknown(why),
                (None, _) => Outcome::Unknown(UnknownReason::Inconsistent),
            };
            (outcome, c.stats, Some(c))
        }
    };
    let mut out = String::new();
    let answer: &[Move] = match &outcome {
        Outcome::Mate(a) => &a.moves,
        _ => &[],
    };
    let namer = Namer {
        start: &input.position,
        answer,
    };
    match &outcome {
        Outcome::Mate(a) => answer_text(&mut out, &namer, a),
        Outcome::NoMate => out.push_str("不詰 (no mate)\n"),
        Outcome::Unknown(why) => out.push_str(&format!("unknown: {}\n", reason_text(*why))),
    }
    if let Some(c) = check {
        check_text(&mut out, &namer, c);
    }
    if let Some(expected) = &input.expected {
        let cmp = match check.and_then(|c| c.expected.clone()) {
            Some(cmp) => cmp,
            None => Comparison::new(&input.position, expected, answer_of(&outcome)),
        };
        comparison_text(&mut out, &namer, expected, &cmp, !answer.is_empty());
    }
    stats_text(&mut out, &stats);
    out
}

fn answer_of(outcome: &Outcome) -> Option<&Answer> {
    match outcome {
        Outcome::Mate(a) => Some(a),
        _ => None,
    }
}

fn answer_text(out: &mut String, namer: &Namer, a: &Answer) {
    out.push_str(&format!(
        "{} まで{}手詰\n",
        namer.line(1, &a.moves),
        a.len()
    ));
    out.push_str(&format!("usi       {}\n", usi_line(&a.moves)));
    let kind = if a.optimal {
        "the composer's answer"
    } else {
        "a verified mate, not necessarily the shortest"
    };
    out.push_str(&format!("length    {} ({kind})\n", plies(a.len())));
    out.push_str(&format!("leftover  {}\n", hand_text(a.leftover)));
}

fn check_text(out: &mut String, namer: &Namer, c: &Check) {
    let verdict = match c.verdict {
        Verdict::Sound => "sound".to_owned(),
        Verdict::Flawed => "flawed".to_owned(),
        Verdict::NoMate => "no mate".to_owned(),
        Verdict::Unknown(why) => format!("unknown: {}", reason_text(why)),
    };
    out.push_str(&format!("verdict   {verdict}\n"));
    let answer_len = c.answer.as_ref().map_or(0, Answer::len);
    for f in &c.findings {
        let place = match f {
            Finding::Leftover { .. } => "end".to_owned(),
            _ => format!("ply {}", f.ply(answer_len)),
        };
        let text = f
            .describe(answer_len, &mut |ply, line| namer.line(ply, line))
            .en;
        out.push_str(&format!("  {place:<8} {text}\n"));
    }
}

fn comparison_text(
    out: &mut String,
    namer: &Namer,
    expected: &[Move],
    cmp: &Comparison,
    mate: bool,
) {
    let n = plies(expected.len());
    if cmp.agrees {
        out.push_str(&format!("input     its answer ({n}) agrees\n"));
        return;
    }
    let mates = if cmp.expected_mates {
        "is a mate by continuous checks"
    } else {
        "is not a mate by continuous checks"
    };
    match (&cmp.first_difference, mate) {
        (Some(d), true) => {
            let name = |m: Option<Move>| match m {
                Some(m) => namer.line(d.ply, &[m]),
                None => "(the line ended)".to_owned(),
            };
            out.push_str(&format!(
                "input     its answer ({n}) differs at ply {}: {} in the input, {} here; \
                 the input's line {mates}\n",
                d.ply,
                name(d.expected),
                name(d.answer)
            ));
        }
        _ => out.push_str(&format!("input     its answer ({n}) {mates}\n")),
    }
}

fn stats_text(out: &mut String, s: &Stats) {
    out.push_str(&format!(
        "search    {} nodes in {:.3} s ({} nodes/s), hash {} MiB, {:.1} % used\n",
        s.nodes,
        s.elapsed.as_secs_f64(),
        s.nps(),
        s.hash_bytes >> 20,
        s.hashfull as f64 / 10.0
    ));
}

/// The answer as a record: the main line ending in 詰み, each equal-length defence as a 変化.
fn answer_record(input: &Input, a: &Answer) -> Result<Record, CliError> {
    let mut rec = Record::new(input.position.clone());
    *rec.headers_mut() = input.headers.clone();
    let mut main = rec.edit_main();
    for &m in &a.moves {
        main.push(m)?;
    }
    main.set_end(Some(GameEnd::new(EndKind::Mate)));
    let mut branches = Vec::with_capacity(a.variations.len());
    for v in &a.variations {
        if let Some((&first, rest)) = v.moves.split_first() {
            branches.push((main.add_variation(v.ply - 1, first)?, rest));
        }
    }
    for (path, rest) in branches {
        let mut line = rec
            .edit(&path)
            .ok_or_else(|| format!("no variation at {path:?}"))?;
        for &m in rest {
            line.push(m)?;
        }
        line.set_end(Some(GameEnd::new(EndKind::Mate)));
    }
    Ok(rec)
}

fn write_kif(path: &str, input: &Input, a: &Answer) -> Result<(), CliError> {
    let record = answer_record(input, a)?;
    let (out, encoding): (Box<dyn std::io::Write>, Encoding) = if path == "-" {
        (Box::new(std::io::stdout().lock()), Encoding::Utf8)
    } else {
        let f = std::fs::File::create(path).map_err(|e| format!("{path}: {e}"))?;
        (
            Box::new(std::io::BufWriter::new(f)),
            Encoding::for_path(path),
        )
    };
    let mut w = RecordWriter::new(out, Format::Kif, encoding);
    w.write(&record).map_err(|e| format!("{path}: {e}"))?;
    w.finish().map_err(|e| format!("{path}: {e}"))?;
    Ok(())
}
