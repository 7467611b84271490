//! `koma convert` and `koma show`: game records and problem files (koma-record).
//! All logic lives in the koma-record library; this module reads files, parses arguments and
//! prints.

use std::io::{Read as _, Write as _};
use std::path::Path;

use clap::Args;
use koma_record::encoding::{self, Encoding};
use koma_record::{Format, Read, Record, bod, japanese, usi, western};

use crate::CliError;

/// Arguments of `koma convert`.
#[derive(Args)]
pub struct ConvertArgs {
    /// The record file to read, or `-` for standard input.
    file: String,
    /// Output format: csa, kif, ki2, usi, sfen or bod (sfen and bod give a position: the initial
    /// one, or the one after --move N).
    #[arg(long, value_parser = parse_format)]
    to: Format,
    /// Input format (default: from the file extension, else detected from the text).
    #[arg(long, value_parser = parse_format)]
    from: Option<Format>,
    /// Input encoding: utf-8 or shift-jis (default: detected).
    #[arg(long, value_parser = parse_encoding)]
    encoding: Option<Encoding>,
    /// Write here instead of standard output.
    #[arg(long)]
    out: Option<String>,
    /// Output encoding (default: shift-jis for a .kif or .ki2 --out file, else utf-8).
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
    /// Input format of a file (default: from the extension, else detected).
    #[arg(long, value_parser = parse_format)]
    from: Option<Format>,
    /// Input encoding of a file: utf-8 or shift-jis (default: detected).
    #[arg(long, value_parser = parse_encoding)]
    encoding: Option<Encoding>,
}

fn parse_format(s: &str) -> Result<Format, String> {
    Format::from_name(s)
        .ok_or_else(|| format!("unknown format `{s}` (expected csa, kif, ki2, usi, sfen or bod)"))
}

fn parse_encoding(s: &str) -> Result<Encoding, String> {
    Encoding::from_name(s)
        .ok_or_else(|| format!("unknown encoding `{s}` (expected utf-8 or shift-jis)"))
}

/// Reads a file or standard input and decodes it.
fn read_text(file: &str, encoding: Option<Encoding>) -> Result<String, CliError> {
    let mut bytes = Vec::new();
    if file == "-" {
        std::io::stdin().read_to_end(&mut bytes)?;
    } else {
        bytes = std::fs::read(file).map_err(|e| format!("{file}: {e}"))?;
    }
    let (text, _) = encoding::decode(&bytes, encoding).map_err(|e| format!("{file}: {e}"))?;
    if text.trim().is_empty() {
        return Err(format!("{file}: the input is empty (expected a record)").into());
    }
    Ok(text)
}

fn input_format(file: &str, from: Option<Format>, text: &str) -> Format {
    from.or_else(|| Format::from_path(file))
        .unwrap_or_else(|| Format::detect(text))
}

fn print_warnings(file: &str, read: &Read) {
    for w in &read.warnings {
        eprintln!("koma: warning: {file}: {w}");
    }
}

/// The position after `n` moves of the main line, or an error naming how many there are.
fn position_at(
    record: &Record,
    n: Option<usize>,
    default: usize,
) -> Result<koma_core::Position, CliError> {
    let n = n.unwrap_or(default);
    let len = record.main.moves.len();
    if n > len {
        return Err(
            format!("--move {n}: the main line has {len} moves (expected 0..={len})").into(),
        );
    }
    Ok(record.position_after(n))
}

/// `koma convert`.
pub fn convert(args: ConvertArgs) -> Result<(), CliError> {
    let text = read_text(&args.file, args.encoding)?;
    let from = input_format(&args.file, args.from, &text);
    let mut output = String::new();
    let mut failure = None;
    let lines = if from == Format::Sfen {
        usi::read_lines(&text)
    } else {
        Vec::new()
    };
    if lines.len() > 1 {
        // A problem file: one position per line, each converted on its own.
        for (i, rec) in lines.into_iter().enumerate() {
            let rec = rec.map_err(|e| format!("{}: {e}", args.file))?;
            if i > 0 && !matches!(args.to, Format::Sfen | Format::Usi) {
                output.push('\n');
            }
            output.push_str(&write_record(&rec, args.to, args.move_number)?);
        }
    } else {
        let record = match from.read(&text) {
            Ok(read) => {
                print_warnings(&args.file, &read);
                read.record
            }
            Err(mut e) => {
                let Some(partial) = e.partial.take() else {
                    return Err(format!("{}: {e}", args.file).into());
                };
                let n = partial.main.moves.len();
                failure = Some(format!(
                    "{}: {e} (the {n} moves before it were written)",
                    args.file
                ));
                *partial
            }
        };
        if record.has_variations() && matches!(args.to, Format::Csa | Format::Usi) {
            eprintln!(
                "koma: warning: {}: {} has no variations; only the main line is written",
                args.file,
                args.to.name()
            );
        }
        output = write_record(&record, args.to, args.move_number)?;
    }
    let out_enc = args.out_encoding.unwrap_or_else(|| {
        args.out
            .as_deref()
            .map_or(Encoding::Utf8, Encoding::for_path)
    });
    let bytes = encoding::encode(&output, out_enc)?;
    match &args.out {
        Some(path) => std::fs::write(path, bytes).map_err(|e| format!("{path}: {e}"))?,
        None => std::io::stdout().write_all(&bytes)?,
    }
    match failure {
        Some(msg) => Err(msg.into()),
        None => Ok(()),
    }
}

fn write_record(
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

/// `koma show`.
pub fn show(args: ShowArgs) -> Result<(), CliError> {
    let record = if args.input == "-" || Path::new(&args.input).is_file() {
        let text = read_text(&args.input, args.encoding)?;
        let format = input_format(&args.input, args.from, &text);
        let read = format
            .read(&text)
            .map_err(|e| format!("{}: {e}", args.input))?;
        print_warnings(&args.input, &read);
        read.record
    } else {
        usi::read_line(1, &args.input).map_err(|e| {
            format!(
                "`{}` is not a file, an SFEN or a USI position: {e}",
                args.input
            )
        })?
    };
    let mut out = String::new();
    for key in ["先手", "下手", "後手", "上手", "棋戦", "開始日時"] {
        if let Some(v) = record.header(key) {
            out.push_str(&format!("{key}：{v}\n"));
        }
    }
    let len = record.main.moves.len();
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
        out.push_str(&move_list(&record, args.western));
    }
    std::io::stdout().write_all(out.as_bytes())?;
    Ok(())
}

/// The main line's moves, numbered, ten to a line.
fn move_list(record: &Record, western_names: bool) -> String {
    let mut pos = record.initial.clone();
    let mut out = String::from("\n");
    for (i, m) in record.moves().enumerate() {
        let name = if western_names {
            western::move_name(&pos, m)
        } else {
            japanese::move_name(&pos, m)
        };
        out.push_str(&format!("{}.{name}", pos.ply()));
        out.push(if i % 10 == 9 { '\n' } else { ' ' });
        pos.do_move(m);
    }
    if let Some(end) = &record.main.end {
        out.push_str(end.kind.kif(pos.side_to_move()));
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}
