//! `koma convert` and `koma show`: game records and problem files (koma-record).
//! All logic lives in the koma-record library; this module opens files, parses arguments,
//! words errors and hints with this command's flags, and prints.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufWriter, Write as _};
use std::path::{Path, PathBuf};

use clap::Args;
use koma_core::text::excerpt;
use koma_record::encoding::{EncodeError, Encoding};
use koma_record::input::{Options, Records};
use koma_record::listing::{Notation, move_list};
use koma_record::output::{RecordWriter, WriteError};
use koma_record::{Format, Read, ReadError, Record, bod, usi};

use crate::CliError;

/// Arguments of `koma convert`.
#[derive(Args)]
pub struct ConvertArgs {
    /// The record file to read, or `-` for standard input.
    file: String,
    /// Output format: csa, kif, ki2, usi, sfen, bod or jkf (sfen and bod give a position: the
    /// initial one, or the one after --move N).
    #[arg(long, value_parser = parse_format)]
    to: Format,
    /// Input format (default: detected from the content, whatever the extension says).
    #[arg(long, value_parser = parse_format)]
    from: Option<Format>,
    /// Input encoding: utf-8, shift-jis or euc-jp (default: detected).
    #[arg(long, value_parser = parse_encoding)]
    encoding: Option<Encoding>,
    /// Write here instead of standard output.
    #[arg(long, conflicts_with = "out_dir")]
    out: Option<String>,
    /// Write each record to its own file in this directory (for inputs of many records in a
    /// format that holds one a file, such as KIF).
    #[arg(long)]
    out_dir: Option<PathBuf>,
    /// Output encoding: utf-8, shift-jis or euc-jp (default: shift-jis for .kif and .ki2 files,
    /// else utf-8).
    #[arg(long, value_parser = parse_encoding)]
    out_encoding: Option<Encoding>,
    /// For sfen and bod output: the position after this many moves of the main line.
    #[arg(long = "move")]
    move_number: Option<usize>,
}

/// Arguments of `koma show`.
#[derive(Args)]
pub struct ShowArgs {
    /// A record file (`-` for standard input), an SFEN, or a USI position string
    /// (`startpos moves 7g7f`).
    input: String,
    /// Show the board after this many moves of the main line (default: after the last).
    #[arg(long = "move")]
    move_number: Option<usize>,
    /// Print every position of the main line, one after another.
    #[arg(long, conflicts_with = "move_number")]
    all: bool,
    /// A plain ASCII diagram instead of the Japanese BOD diagram.
    #[arg(long)]
    ascii: bool,
    /// Name moves in Western notation (P-7f) instead of Japanese (▲７六歩).
    #[arg(long)]
    western: bool,
    /// Input format of a file (default: detected from the content).
    #[arg(long, value_parser = parse_format)]
    from: Option<Format>,
    /// Input encoding of a file: utf-8, shift-jis or euc-jp (default: detected).
    #[arg(long, value_parser = parse_encoding)]
    encoding: Option<Encoding>,
}

pub(crate) fn parse_format(s: &str) -> Result<Format, String> {
    Format::from_name(s).ok_or_else(|| {
        format!("unknown format `{s}` (expected csa, kif, ki2, usi, sfen, bod or jkf)")
    })
}

pub(crate) fn parse_encoding(s: &str) -> Result<Encoding, String> {
    Encoding::from_name(s)
        .ok_or_else(|| format!("unknown encoding `{s}` (expected utf-8, shift-jis or euc-jp)"))
}

/// Opens a file or standard input (`-`) through the library's one detection call.
pub(crate) fn open(file: &str, options: Options) -> Result<Records<Box<dyn BufRead>>, CliError> {
    // The name as messages quote it: control characters escaped.
    let shown = excerpt(file, usize::MAX);
    let src: Box<dyn BufRead> = if file == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        let f = std::fs::File::open(file).map_err(|e| format!("{shown}: {e}"))?;
        Box::new(std::io::BufReader::new(f))
    };
    let name = (file != "-").then_some(file);
    let records = Records::new(src, name, options).map_err(|e| format!("{shown}: {e}"))?;
    for w in &records.detected().warnings {
        eprintln!("koma: warning: {shown}: {w}");
    }
    Ok(records)
}

pub(crate) fn print_warnings(file: &str, read: &Read) {
    let shown = excerpt(file, usize::MAX);
    for w in &read.warnings {
        eprintln!("koma: warning: {shown}: {w}");
    }
}

/// An encoding error worded with the flag that fixes it.
fn encode_hint(e: &EncodeError) -> String {
    format!("{e} (write it in UTF-8: --out-encoding utf-8)")
}

fn write_error(e: WriteError) -> CliError {
    match e {
        WriteError::Unrepresentable(e) => encode_hint(&e).into(),
        WriteError::OneRecordOnly { format, .. } => format!(
            "{} holds one record a file and the input holds several (write one file each with --out-dir DIR)",
            format.name().to_uppercase()
        )
        .into(),
        e => e.into(),
    }
}

/// A record that failed to read, worded for a person: where, what, and what was kept.
fn read_failure(file: &str, e: &ReadError) -> String {
    match &e.partial {
        Some(_) => format!(
            "{file}: {e} (the {} moves before it were written)",
            e.kept_moves()
        ),
        None => format!("{file}: {e}"),
    }
}

/// The position after `n` moves of the main line, or an error naming how many there are.
fn position_at(
    record: &Record,
    n: Option<usize>,
    default: usize,
) -> Result<koma_core::Position, CliError> {
    let n = n.unwrap_or(default);
    let len = record.main().moves().len();
    if n > len {
        return Err(
            format!("--move {n}: the main line has {len} moves (expected 0..={len})").into(),
        );
    }
    Ok(record.position_after(n))
}

/// The text of one record in the output format (`--move` picks a position for sfen and bod).
fn record_text(
    record: &Record,
    to: Format,
    move_number: Option<usize>,
) -> Result<String, CliError> {
    Ok(match (to, move_number) {
        (Format::Sfen, Some(_)) => format!("{}\n", position_at(record, move_number, 0)?.to_sfen()),
        (Format::Bod, Some(_)) => bod::write(&position_at(record, move_number, 0)?),
        (_, Some(_)) => return Err("--move applies to --to sfen and --to bod only".into()),
        _ => to.write(record),
    })
}

/// An output file written under a name of its own beside FILE and renamed over FILE only when
/// the conversion has something to show, so that a failed run leaves no empty or partial file
/// behind and an existing FILE as it was. Dropped without [`PendingFile::commit`], it removes
/// what it wrote.
struct PendingFile {
    tmp: PathBuf,
    dest: PathBuf,
    committed: bool,
}

impl PendingFile {
    /// Creates the file beside `dest`: `FILE.koma-partial` (or with a number after it), never
    /// a file that already exists, so no file of the user's is overwritten.
    fn create(dest: &Path) -> Result<(PendingFile, File), CliError> {
        let named = |e: std::io::Error| -> CliError { format!("{}: {e}", dest.display()).into() };
        for n in 0..100u32 {
            let mut tmp = dest.as_os_str().to_owned();
            tmp.push(".koma-partial");
            if n > 0 {
                tmp.push(n.to_string());
            }
            let tmp = PathBuf::from(tmp);
            match OpenOptions::new().write(true).create_new(true).open(&tmp) {
                Ok(file) => {
                    // A file that is replaced keeps its permissions.
                    if let Ok(meta) = std::fs::metadata(dest) {
                        let _ = std::fs::set_permissions(&tmp, meta.permissions());
                    }
                    let pending = PendingFile {
                        tmp,
                        dest: dest.to_owned(),
                        committed: false,
                    };
                    return Ok((pending, file));
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(named(e)),
            }
        }
        Err(format!(
            "{}: 100 files named {}.koma-partial… are in the way",
            dest.display(),
            dest.display()
        )
        .into())
    }

    /// Puts the written file in place of the destination.
    fn commit(mut self) -> Result<(), CliError> {
        std::fs::rename(&self.tmp, &self.dest)
            .map_err(|e| format!("{}: {e}", self.dest.display()))?;
        self.committed = true;
        Ok(())
    }
}

impl Drop for PendingFile {
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// Where converted records go: one stream, or a file each in a directory.
enum Sink {
    /// A writer, the name of where it writes (for errors), and the file to put in place when
    /// the output is a regular file.
    Stream(
        RecordWriter<Box<dyn std::io::Write>>,
        String,
        Option<PendingFile>,
    ),
    Dir {
        dir: PathBuf,
        stem: String,
        to: Format,
        encoding: Encoding,
        written: usize,
    },
}

impl Sink {
    fn write(&mut self, text: &str) -> Result<(), CliError> {
        match self {
            Sink::Stream(w, name, _) => w
                .write_text(text)
                .map_err(|e| format!("{name}: {}", write_error(e)).into()),
            Sink::Dir {
                dir,
                stem,
                to,
                encoding,
                written,
            } => {
                *written += 1;
                let path = dir.join(format!("{stem}-{:04}.{}", written, to.name()));
                let bytes =
                    koma_record::encoding::encode(text, *encoding).map_err(|e| encode_hint(&e))?;
                std::fs::write(&path, bytes).map_err(|e| format!("{}: {e}", path.display()))?;
                Ok(())
            }
        }
    }

    /// Flushes the output; with `keep`, puts an output file in place (else it is removed and
    /// a file it would have replaced is left as it was).
    fn finish(self, keep: bool) -> Result<(), CliError> {
        if let Sink::Stream(w, name, pending) = self {
            let out = w
                .finish()
                .map_err(|e| -> CliError { format!("{name}: {}", write_error(e)).into() })?;
            drop(out);
            if let Some(pending) = pending.filter(|_| keep) {
                pending.commit()?;
            }
        }
        Ok(())
    }
}

fn sink(args: &ConvertArgs) -> Result<Sink, CliError> {
    if let Some(dir) = &args.out_dir {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let stem = Path::new(&args.file)
            .file_stem()
            .and_then(|s| s.to_str())
            .filter(|_| args.file != "-")
            .unwrap_or("record")
            .to_owned();
        let encoding = args
            .out_encoding
            .unwrap_or_else(|| Encoding::for_path(&format!("x.{}", args.to.name())));
        return Ok(Sink::Dir {
            dir: dir.clone(),
            stem,
            to: args.to,
            encoding,
            written: 0,
        });
    }
    let encoding = args.out_encoding.unwrap_or_else(|| {
        args.out
            .as_deref()
            .map_or(Encoding::Utf8, Encoding::for_path)
    });
    let (out, pending): (Box<dyn std::io::Write>, _) = match &args.out {
        // A device or pipe (`--out /dev/stdout`) is written as it is.
        Some(path) if Path::new(path).exists() && !Path::new(path).is_file() => {
            let file = File::create(path).map_err(|e| format!("{path}: {e}"))?;
            (Box::new(BufWriter::new(file)), None)
        }
        Some(path) => {
            let (pending, file) = PendingFile::create(Path::new(path))?;
            (Box::new(BufWriter::new(file)), Some(pending))
        }
        None => (Box::new(BufWriter::new(std::io::stdout().lock())), None),
    };
    let name = args.out.as_deref().unwrap_or("standard output").to_owned();
    Ok(Sink::Stream(
        RecordWriter::new(out, args.to, encoding),
        name,
        pending,
    ))
}

/// The most failed records `koma convert` names one by one; the rest are counted.
const FAILURES_SHOWN: usize = 3;

/// `koma convert`: reads the records of the input one at a time and writes each as it comes.
pub fn convert(args: ConvertArgs) -> Result<(), CliError> {
    let options = Options {
        format: args.from,
        encoding: args.encoding,
    };
    let mut records = open(&args.file, options)?.peekable();
    let first = records.next();
    let several = records.peek().is_some();
    if several && !args.to.holds_many() && args.out_dir.is_none() {
        return Err(format!(
            "{}: the input holds several records and {} holds one a file (write one file each with --out-dir DIR)",
            args.file,
            args.to.name().to_uppercase()
        )
        .into());
    }
    let mut sink = sink(&args)?;
    let (mut total, mut written, mut failures) = (0usize, 0usize, Vec::new());
    for item in first.into_iter().chain(records) {
        total += 1;
        let record = match item {
            Ok(read) => {
                print_warnings(&args.file, &read);
                read.record
            }
            Err(mut e) => {
                let message = read_failure(&args.file, &e);
                let partial = e.partial.take();
                if several && failures.len() < FAILURES_SHOWN {
                    eprintln!("koma: error: {message}");
                }
                failures.push(message);
                match partial {
                    Some(p) => *p,
                    None => continue,
                }
            }
        };
        for loss in args.to.losses(&record) {
            eprintln!("koma: warning: {}: {loss}", args.file);
        }
        sink.write(&record_text(&record, args.to, args.move_number)?)?;
        written += 1;
    }
    // The good part of a record that failed is written; an output with nothing in it is not.
    sink.finish(written > 0)?;
    match failures.len() {
        0 => Ok(()),
        1 if total == 1 => Err(failures.remove(0).into()),
        n => Err(format!(
            "{}: {n} of {total} records could not be read whole (their good moves were written)",
            args.file
        )
        .into()),
    }
}

/// `koma show`.
pub fn show(args: ShowArgs) -> Result<(), CliError> {
    let record = if args.input == "-" || Path::new(&args.input).is_file() {
        let options = Options {
            format: args.from,
            encoding: args.encoding,
        };
        let mut records = open(&args.input, options)?;
        let read = match records.next() {
            Some(read) => read.map_err(|e| format!("{}: {e}", args.input))?,
            None => return Err(format!("{}: no record", args.input).into()),
        };
        if records.next().is_some() {
            eprintln!(
                "koma: warning: {}: the input holds several records; showing the first",
                args.input
            );
        }
        print_warnings(&args.input, &read);
        read.record
    } else {
        let read = usi::read_line(1, &args.input).map_err(|e| {
            if args.input.contains(char::is_whitespace) || args.input.contains('/') {
                format!("`{}`: {e}", args.input)
            } else {
                format!(
                    "{}: no such file, and not an SFEN or a USI position: {e}",
                    args.input
                )
            }
        })?;
        for w in &read.warnings {
            eprintln!("koma: warning: {w}");
        }
        read.record
    };
    let mut out = String::new();
    for key in ["先手", "下手", "後手", "上手", "棋戦", "開始日時"] {
        if let Some(v) = record.header(key) {
            out.push_str(&format!("{key}：{v}\n"));
        }
    }
    let len = record.main().moves().len();
    let shown: Vec<usize> = if args.all {
        (0..=len).collect()
    } else {
        vec![args.move_number.unwrap_or(len)]
    };
    for (i, &n) in shown.iter().enumerate() {
        let pos = position_at(&record, Some(n), len)?;
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&if args.ascii {
            bod::ascii(&pos)
        } else {
            bod::write(&pos)
        });
    }
    if len > 0 && !args.all {
        let notation = if args.western {
            Notation::Western
        } else {
            Notation::Japanese
        };
        out.push('\n');
        out.push_str(&move_list(&record, notation));
    }
    std::io::stdout().write_all(out.as_bytes())?;
    Ok(())
}
