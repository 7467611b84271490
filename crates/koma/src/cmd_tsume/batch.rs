//! `koma tsume --batch`: many problems, results as JSON lines written as they come, `--threads`
//! problems at once, resumable from the output file.

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Read as _, Seek, SeekFrom, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::Mutex;
use std::sync::mpsc::{Receiver, Sender, channel, sync_channel};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use koma_tsume::{
    Cancel, ErrorReport, Options, Problem, ProblemId, Report, Solver, Status, Summary,
};
use serde::Deserialize;

use super::TsumeArgs;
use crate::CliError;

/// The longest problem line read; a longer one is an error record (and the batch goes on).
const MAX_LINE: usize = 1 << 20;

/// A line of a result file: a report or an error record.
#[derive(Deserialize)]
#[serde(untagged)]
enum ResultLine {
    Report(Report),
    Error(ErrorReport),
}

impl ResultLine {
    fn id(&self) -> &ProblemId {
        match self {
            ResultLine::Report(r) => &r.id,
            ResultLine::Error(e) => &e.id,
        }
    }
}

/// A problem line: its number and its bytes, or why they could not be read.
type Line = (usize, Result<Vec<u8>, &'static str>);

/// What a worker hands to the writer.
enum Done {
    Report(Report),
    Error(ErrorReport),
    /// Already in the output file.
    Skipped,
    /// A blank or comment line.
    Blank,
}

/// Where results go, and what an earlier run left there.
struct Output {
    out: Box<dyn Write + Send>,
    name: String,
    /// Ids already written by an earlier run.
    done: HashSet<ProblemId>,
    /// The earlier run's results, counted.
    earlier: Summary,
}

impl Output {
    fn stdout() -> Output {
        Output {
            out: Box::new(std::io::stdout()),
            name: "standard output".to_owned(),
            done: HashSet::new(),
            earlier: Summary::default(),
        }
    }

    /// Opens `path` to append results, reading the ids an earlier run wrote there. A last line
    /// cut short (by a kill) is cut off; any other line that is not a result refuses the file,
    /// so a file given by mistake is never appended to.
    fn open(path: &Path) -> Result<Output, CliError> {
        let name = path.display().to_string();
        let fail = |e: &dyn std::fmt::Display| -> CliError { format!("{name}: {e}").into() };
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .map_err(|e| fail(&e))?;
        let mut done = HashSet::new();
        let mut earlier = Summary::default();
        let mut reader = BufReader::new(&mut file);
        let (mut kept, mut number) = (0u64, 0usize);
        let mut bytes = Vec::new();
        let mut whole_last = true;
        loop {
            bytes.clear();
            let n = reader.read_until(b'\n', &mut bytes).map_err(|e| fail(&e))?;
            if n == 0 {
                break;
            }
            number += 1;
            let whole = bytes.ends_with(b"\n");
            let text = String::from_utf8_lossy(&bytes);
            if text.trim().is_empty() {
                kept += n as u64;
                continue;
            }
            match serde_json::from_str::<ResultLine>(&text) {
                Ok(line) => {
                    done.insert(line.id().clone());
                    match &line {
                        ResultLine::Report(r) => earlier.add(r),
                        ResultLine::Error(_) => earlier.add_error(),
                    }
                    kept += n as u64;
                    whole_last = whole;
                }
                // A result cut short by a kill (every result line starts so).
                Err(_) if !whole && text.starts_with("{\"id\":") => break,
                Err(_) => {
                    return Err(fail(&format!(
                        "line {number} is not a koma tsume result; not appending to this file"
                    )));
                }
            }
        }
        drop(reader);
        if kept < file.seek(SeekFrom::End(0)).map_err(|e| fail(&e))? {
            eprintln!("koma: warning: {name}: its last line was cut short; it is solved again");
            file.set_len(kept).map_err(|e| fail(&e))?;
        }
        if !whole_last {
            file.write_all(b"\n").map_err(|e| fail(&e))?;
        }
        Ok(Output {
            out: Box::new(file),
            name,
            done,
            earlier,
        })
    }

    /// Writes one JSON line at once and flushes it.
    fn write(&mut self, line: &impl serde::Serialize) -> Result<(), CliError> {
        let text = serde_json::to_string(line)? + "\n";
        self.out
            .write_all(text.as_bytes())
            .and_then(|()| self.out.flush())
            .map_err(|e| format!("{}: {e}", self.name).into())
    }
}

/// The problem lines of the input, read one at a time with their numbers.
fn open_input(file: &str) -> Result<Box<dyn BufRead + Send>, CliError> {
    if file == "-" {
        return Ok(Box::new(BufReader::new(std::io::stdin())));
    }
    let f = File::open(file).map_err(|e| format!("{file}: {e}"))?;
    Ok(Box::new(BufReader::new(f)))
}

/// Problem lines in a file (non-blank, not comments), for the progress bar; `None` for
/// standard input.
fn count_problems(file: &str) -> Option<u64> {
    if file == "-" {
        return None;
    }
    let f = File::open(file).ok()?;
    let mut n = 0;
    for line in BufReader::new(f).split(b'\n') {
        let line = line.ok()?;
        let t = line.trim_ascii();
        n += (!t.is_empty() && !t.starts_with(b"#")) as u64;
    }
    Some(n)
}

/// Reads the next line (without its end) into `buf`, at most [`MAX_LINE`] bytes of it; the rest
/// of a longer line is skipped. `Ok(None)` at the end, `Ok(Some(false))` for a line too long.
fn next_line(r: &mut dyn BufRead, buf: &mut Vec<u8>) -> std::io::Result<Option<bool>> {
    buf.clear();
    let n = r.take(MAX_LINE as u64 + 1).read_until(b'\n', buf)?;
    if n == 0 {
        return Ok(None);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        if buf.last() == Some(&b'\r') {
            buf.pop();
        }
        return Ok(Some(true));
    }
    if buf.len() <= MAX_LINE {
        return Ok(Some(true));
    }
    // Skip to the end of the long line.
    let mut rest = Vec::new();
    while r.read_until(b'\n', &mut rest)? > 0 && rest.last() != Some(&b'\n') {
        rest.clear();
    }
    Ok(Some(false))
}

/// Solves (or checks) one problem line with `solver`, or says why it cannot.
fn solve_line(
    solver: &mut Solver,
    number: usize,
    bytes: Result<Vec<u8>, &'static str>,
    options: &Options,
    checking: bool,
    done: &HashSet<ProblemId>,
) -> Done {
    let id = ProblemId::Number(number as u64);
    let error = |id: ProblemId, error: String| {
        if done.contains(&id) {
            Done::Skipped
        } else {
            Done::Error(ErrorReport {
                id,
                line: number,
                status: Status::Error,
                error,
            })
        }
    };
    let text = match bytes.map(String::from_utf8) {
        Ok(Ok(text)) => text,
        Ok(Err(_)) => return error(id, format!("line {number}: not UTF-8 text")),
        Err(why) => return error(id, format!("line {number}: {why}")),
    };
    let problem = match Problem::from_line(number, &text) {
        Ok(Some(p)) => p,
        Ok(None) => return Done::Blank,
        Err(e) => return error(e.id.clone(), e.to_string()),
    };
    if done.contains(&problem.id) {
        return Done::Skipped;
    }
    let pos = &problem.position;
    let expected = problem.expected.as_deref();
    let cancel = Cancel::new();
    // `Problem::from_line` refused what is no mate problem, so these answer.
    let report = if checking {
        solver
            .check(pos, options, expected, &mut |_| {}, &cancel)
            .map(|c| Report::from_check(problem.id.clone(), pos, &c, expected))
    } else {
        solver
            .solve(pos, options, &mut |_| {}, &cancel)
            .map(|s| Report::from_solution(problem.id.clone(), pos, &s, expected))
    };
    match report {
        Ok(r) => Done::Report(r),
        Err(why) => error(problem.id, format!("line {number}: {why}")),
    }
}

/// A worker: takes lines until there are none, hands each result to the writer. Its solver
/// keeps one table's memory for all its problems.
fn worker(
    lines: &Mutex<Receiver<Line>>,
    results: Sender<Done>,
    options: &Options,
    checking: bool,
    done: &HashSet<ProblemId>,
) {
    let mut solver = Solver::new();
    loop {
        let next = lines.lock().unwrap_or_else(|e| e.into_inner()).recv();
        let Ok((number, bytes)) = next else { return };
        if results
            .send(solve_line(
                &mut solver,
                number,
                bytes,
                options,
                checking,
                done,
            ))
            .is_err()
        {
            return;
        }
    }
}

fn bar(total: Option<u64>) -> ProgressBar {
    let bar = match total {
        Some(n) => ProgressBar::new(n),
        None => ProgressBar::new_spinner(),
    };
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} problems, {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar.enable_steady_tick(Duration::from_millis(500));
    bar
}

fn problems(n: usize) -> String {
    counted(n, "problem")
}

/// `n` and a noun, plural unless `n` is 1.
fn counted(n: usize, noun: &str) -> String {
    match n {
        1 => format!("1 {noun}"),
        n => format!("{n} {noun}s"),
    }
}

fn counts(s: &Summary) -> String {
    format!(
        "{} mate, {} no mate, {} unknown, {} unreadable",
        s.mate, s.nomate, s.unknown, s.errors
    )
}

/// Runs the batch.
pub(super) fn run(args: &TsumeArgs, file: &str, options: Options) -> Result<ExitCode, CliError> {
    let mut input = open_input(file)?;
    let mut output = match &args.out {
        Some(path) => Output::open(path)?,
        None => Output::stdout(),
    };
    let threads = args.threads;
    let per_problem = options.divided_among(threads);
    let bar = bar(count_problems(file));
    let mut summary = Summary::default();
    let mut skipped = 0usize;
    let (line_tx, line_rx) = sync_channel(threads * 2);
    let line_rx = Mutex::new(line_rx);
    let (done_tx, done_rx) = channel();
    let done = &std::mem::take(&mut output.done);
    let write_result = std::thread::scope(|s| -> Result<(), CliError> {
        let reader = s.spawn(move || -> std::io::Result<()> {
            let mut buf = Vec::new();
            let mut number = 0;
            while let Some(fits) = next_line(&mut input, &mut buf)? {
                number += 1;
                let item = if fits {
                    Ok(std::mem::take(&mut buf))
                } else {
                    Err("the line is longer than 1 MiB")
                };
                if line_tx.send((number, item)).is_err() {
                    break;
                }
            }
            Ok(())
        });
        for _ in 0..threads {
            let results = done_tx.clone();
            let (lines, opts) = (&line_rx, &per_problem);
            s.spawn(move || worker(lines, results, opts, args.check, done));
        }
        drop(done_tx);
        for d in done_rx {
            match d {
                Done::Report(r) => {
                    output.write(&r)?;
                    summary.add(&r);
                }
                Done::Error(e) => {
                    output.write(&e)?;
                    summary.add_error();
                }
                Done::Skipped => skipped += 1,
                Done::Blank => continue,
            }
            bar.inc(1);
            bar.set_message(counts(&summary));
        }
        reader
            .join()
            .map_err(|_| "the input reader stopped")?
            .map_err(|e| format!("{file}: {e}"))?;
        Ok(())
    });
    bar.finish_and_clear();
    write_result?;
    if summary.problems + skipped == 0 {
        return Err(format!(
            "{file}: no problems (expected one SFEN, USI position or JSON object a line)"
        )
        .into());
    }
    report_summary(&output, &summary, skipped);
    let errors = summary.errors + output.earlier.errors;
    if errors > 0 {
        return Err(format!(
            "{file}: {} could not be read (see the error records in {})",
            counted(errors, "line"),
            output.name
        )
        .into());
    }
    Ok(ExitCode::SUCCESS)
}

/// The final summary on standard error: this run, and the whole output file when resumed.
fn report_summary(output: &Output, run: &Summary, skipped: usize) {
    eprintln!("koma tsume: {}: {}", problems(run.problems), counts(run));
    if run.sound + run.flawed > 0 {
        eprintln!("  check: {} sound, {} flawed", run.sound, run.flawed);
    }
    if run.with_expected > 0 {
        eprintln!(
            "  the input's answers: {} given, {} agree, {} of the same length, {} not a mate as given",
            run.with_expected, run.agree, run.same_length, run.expected_not_mate
        );
    }
    let median = run.median_ms().unwrap_or(0);
    eprintln!(
        "  time: {:.3} s total, median {:.3} s per problem",
        run.total_ms as f64 / 1000.0,
        median as f64 / 1000.0
    );
    if skipped > 0 || output.earlier.problems > 0 {
        let mut whole = output.earlier.clone();
        whole.merge(run);
        eprintln!(
            "  resumed: {} skipped (already in {}); it now holds {}: {}",
            problems(skipped),
            output.name,
            problems(whole.problems),
            counts(&whole)
        );
    }
}
