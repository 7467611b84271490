//! Records (koma-record): read a KIF/KI2/CSA/USI/SFEN/BOD text into a tree the page can step
//! through (each move with its Japanese name and the position after it), and convert between
//! formats.

use axum::Json;
use base64::Engine as _;
use koma_core::{Color, Position};
use koma_record::input::{self, Options, Records};
use koma_record::{Format, Line, Read, ReadError, Record, Warning, japanese};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::{ApiError, ErrorBody};
use crate::request::ApiJson;

/// A record to read: pasted `text`, or a file's bytes in `base64` (whose encoding, UTF-8,
/// Shift-JIS or EUC-JP, is detected).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RecordRequest {
    /// The record: KIF, KI2, CSA, JKF, a USI position string, an SFEN or a BOD diagram.
    pub text: Option<String>,
    /// Or a file's bytes, base64-encoded.
    pub base64: Option<String>,
    /// The file's name, if any: its extension is a hint when the content shows no format.
    pub name: Option<String>,
    /// Its format (`kif`, `ki2`, `csa`, `jkf`, `usi`, `sfen`, `bod`); detected from the content
    /// when left out.
    pub format: Option<String>,
}

/// A record as a tree of moves.
#[derive(Debug, Serialize, ToSchema)]
pub struct RecordView {
    /// The format read.
    pub format: &'static str,
    /// Headers (先手, 後手, 棋戦, ...), in order, as `[key, value]`.
    pub headers: Vec<[String; 2]>,
    /// The position before the first move.
    pub initial_sfen: String,
    /// Comments on the initial position.
    pub comments: Vec<String>,
    /// The main line.
    pub main: LineView,
    /// What the reader noticed but accepted.
    pub warnings: Vec<WarningView>,
}

/// A warning of the record reader: what (`code`, `message`) and where (`line`, `excerpt`).
#[derive(Debug, Serialize, ToSchema)]
pub struct WarningView {
    /// A stable machine-readable code, e.g. `not_a_move`, `unknown_header`, `handicap_conflict`.
    pub code: &'static str,
    /// The line of the record it is about, from 1 (absent for the input as a whole).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// One sentence for a person, with the line (`line 5: …`).
    pub message: String,
    /// The text of the record it is about, a bounded excerpt, where it quotes one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub excerpt: Option<String>,
}

impl From<&Warning> for WarningView {
    fn from(w: &Warning) -> WarningView {
        WarningView {
            code: w.kind.code(),
            line: (w.line > 0).then_some(w.line),
            message: w.to_string(),
            excerpt: w.kind.excerpt().map(str::to_owned),
        }
    }
}

/// A line of moves.
#[derive(Debug, Serialize, ToSchema)]
pub struct LineView {
    /// The moves.
    #[schema(no_recursion)]
    pub moves: Vec<MoveNode>,
    /// How the line ended (投了, 詰み, ...), in Japanese, if the record says.
    pub end: Option<String>,
}

/// One move of a record.
#[derive(Debug, Serialize, ToSchema)]
pub struct MoveNode {
    /// Its ply number (1 for the first move of the game).
    pub ply: u32,
    /// The move in USI notation.
    pub usi: String,
    /// The move in Japanese (`▲７六歩`, `△同　銀`, `▲５八金左`).
    pub name: String,
    /// The position after it.
    pub sfen: String,
    /// Comments after it.
    pub comments: Vec<String>,
    /// Time spent on it, in milliseconds, if recorded.
    pub time_ms: Option<u64>,
    /// Alternatives to this move (変化), each starting from the position before it.
    #[schema(no_recursion)]
    pub variations: Vec<LineView>,
}

/// A move with its Japanese name and the position after it.
#[derive(Debug, Serialize, ToSchema)]
pub struct PlayedMove {
    /// The move in USI notation.
    pub usi: String,
    /// The move in Japanese (`▲７六歩`).
    pub name: String,
    /// The position after it.
    pub sfen: String,
}

/// Plays legal `moves` from `pos`, naming each.
pub fn moves_view(pos: &Position, moves: &[koma_core::Move]) -> Vec<PlayedMove> {
    let mut p = pos.clone();
    moves
        .iter()
        .map(|&m| {
            let name = japanese::move_name(&p, m);
            p.do_move(m);
            PlayedMove {
                usi: m.to_string(),
                name,
                sfen: p.to_sfen(),
            }
        })
        .collect()
}

/// A conversion.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ConvertRequest {
    /// The record as text.
    pub text: Option<String>,
    /// Or a file's bytes, base64-encoded.
    pub base64: Option<String>,
    /// The file's name, if any.
    pub name: Option<String>,
    /// Its format; detected from the content when left out.
    pub from: Option<String>,
    /// The format to write: `kif`, `ki2`, `csa`, `jkf`, `usi`, `sfen` or `bod`.
    pub to: String,
}

/// A converted record.
#[derive(Debug, Serialize, ToSchema)]
pub struct ConvertView {
    /// The format read.
    pub from: &'static str,
    /// The format written.
    pub to: &'static str,
    /// The record in that format.
    pub text: String,
}

fn format_named(name: &str, field: &'static str) -> Result<Format, ApiError> {
    Format::from_name(name.trim()).ok_or_else(|| {
        ApiError::bad_input(
            "bad_format",
            format!("unknown format {name:?}: use kif, ki2, csa, jkf, usi, sfen or bod"),
        )
        .field(field)
    })
}

/// The error for a record that could not be read, placed at its line and column.
pub fn read_error(e: &ReadError, format: Format) -> ApiError {
    ApiError::bad_input(
        "bad_record",
        format!("the {} record could not be read: {e}", format.name()),
    )
    .field("text")
    .at(
        (e.line > 0).then_some(e.line),
        (e.column > 0).then_some(e.column),
    )
}

/// Reads one record from bytes with koma-record's input detection (encoding and format from the
/// content; `name`'s extension as a hint), or in the given format.
pub fn read_bytes(
    bytes: &[u8],
    name: Option<&str>,
    format: Option<&str>,
) -> Result<(Format, Read), ApiError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(ApiError::bad_input(
            "empty_record",
            "the record is empty: paste a KIF, KI2, CSA, JKF, USI or SFEN record",
        )
        .field("text"));
    }
    let forced = format.map(|f| format_named(f, "format")).transpose()?;
    let (format, read) = match forced {
        None => (
            input::detect(bytes, name).format,
            input::read_one(bytes, name),
        ),
        Some(f) => {
            let options = Options {
                format: Some(f),
                encoding: None,
            };
            let mut records = Records::new(bytes, name, options).map_err(|e| read_error(&e, f))?;
            let Some(read) = records.next() else {
                return Err(ApiError::bad_input(
                    "empty_record",
                    format!("the text holds no {} record", f.name()),
                )
                .field("text"));
            };
            (f, read)
        }
    };
    read.map(|r| (format, r))
        .map_err(|e| read_error(&e, format))
}

/// The bytes of a request's record: its `text`, or its `base64` decoded.
fn input_bytes(text: Option<&str>, b64: Option<&str>) -> Result<Vec<u8>, ApiError> {
    match (text, b64) {
        (Some(text), None) => Ok(text.as_bytes().to_vec()),
        (None, Some(b64)) => base64::engine::general_purpose::STANDARD
            .decode(b64.trim())
            .map_err(|e| {
                ApiError::bad_input("bad_base64", format!("base64: not base64 ({e})"))
                    .field("base64")
            }),
        _ => Err(ApiError::bad_input(
            "one_input",
            "give exactly one of text and base64",
        )),
    }
}

/// Reads a pasted record text.
pub fn read_text(text: &str, format: Option<&str>) -> Result<(Format, Read), ApiError> {
    read_bytes(text.as_bytes(), None, format)
}

fn line_view(line: &Line, mut pos: Position) -> LineView {
    let mut moves = Vec::with_capacity(line.moves().len());
    for m in line.moves() {
        let variations = m
            .variations()
            .iter()
            .map(|v| line_view(v, pos.clone()))
            .collect();
        let name = japanese::move_name(&pos, m.mv());
        let ply = pos.ply();
        pos.do_move(m.mv());
        moves.push(MoveNode {
            ply,
            usi: m.mv().to_string(),
            name,
            sfen: pos.to_sfen(),
            comments: m.comments().to_vec(),
            time_ms: m.time().map(|t| t.used_ms),
            variations,
        });
    }
    LineView {
        moves,
        end: line
            .end()
            .map(|e| e.kind.kif(pos.side_to_move()).to_owned()),
    }
}

/// The tree view of a record.
pub fn view(format: Format, read: &Read) -> RecordView {
    let rec: &Record = &read.record;
    RecordView {
        format: format.name(),
        headers: rec
            .headers()
            .iter()
            .map(|(k, v)| [k.clone(), v.clone()])
            .collect(),
        initial_sfen: rec.initial().to_sfen(),
        comments: rec.comments().to_vec(),
        main: line_view(rec.main(), rec.initial().clone()),
        warnings: read.warnings.iter().map(WarningView::from).collect(),
    }
}

/// Reads a record into a tree of moves with the position after each.
#[utoipa::path(post, path = "/api/record", request_body = RecordRequest, tag = "record",
    responses(
        (status = 200, description = "the record", body = RecordView),
        (status = 400, description = "the text is not a record koma can read; line and column say where", body = ErrorBody)))]
pub async fn read(ApiJson(req): ApiJson<RecordRequest>) -> Result<Json<RecordView>, ApiError> {
    let bytes = input_bytes(req.text.as_deref(), req.base64.as_deref())?;
    let (format, read) = read_bytes(&bytes, req.name.as_deref(), req.format.as_deref())?;
    Ok(Json(view(format, &read)))
}

/// Converts a record to another format.
#[utoipa::path(post, path = "/api/record/convert", request_body = ConvertRequest, tag = "record",
    responses(
        (status = 200, description = "the record in the new format", body = ConvertView),
        (status = 400, description = "unknown format or unreadable record", body = ErrorBody)))]
pub async fn convert(ApiJson(req): ApiJson<ConvertRequest>) -> Result<Json<ConvertView>, ApiError> {
    let to = format_named(&req.to, "to")?;
    let bytes = input_bytes(req.text.as_deref(), req.base64.as_deref())?;
    let (from, read) = read_bytes(&bytes, req.name.as_deref(), req.from.as_deref())?;
    Ok(Json(ConvertView {
        from: from.name(),
        to: to.name(),
        text: to.write(&read.record),
    }))
}

/// The colour's name in the API.
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}
