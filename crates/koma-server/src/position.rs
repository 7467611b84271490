//! Position analysis (koma-core): legal moves with their Japanese names, check, and the
//! game status, from an SFEN, a USI position string or a record text.

use axum::Json;
use koma_core::{Position, Status, usi};
use koma_record::japanese;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::{ApiError, ErrorBody};
use crate::record::{color_name, read_text};
use crate::request::ApiJson;

/// A position to analyse: exactly one of `sfen`, `usi` and `text`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PositionRequest {
    /// An SFEN: `lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1`.
    pub sfen: Option<String>,
    /// A USI position string: `startpos moves 7g7f 3c3d`, `sfen ... moves ...`.
    pub usi: Option<String>,
    /// A record (KIF, KI2, CSA, BOD, ...): its position after `move` moves of the main line.
    pub text: Option<String>,
    /// With `text`: after this many moves (default: all).
    #[serde(rename = "move")]
    pub move_number: Option<usize>,
}

/// A legal move.
#[derive(Debug, Serialize, ToSchema)]
pub struct MoveView {
    /// USI notation: `7g7f`, `P*5e`, `8h2b+`.
    pub usi: String,
    /// Japanese notation: `▲７六歩`.
    pub name: String,
}

/// What koma-core says about a position.
#[derive(Debug, Serialize, ToSchema)]
pub struct PositionView {
    /// The position as SFEN.
    pub sfen: String,
    /// `black` or `white`.
    pub side_to_move: &'static str,
    /// The move number.
    pub ply: u32,
    /// The side to move is in check.
    pub in_check: bool,
    /// `ongoing`, `checkmate`, `no_legal_moves`, `repetition_draw` or `perpetual_check`.
    pub status: &'static str,
    /// The side to move may declare an entering-king win (入玉宣言).
    pub can_declare_win: bool,
    /// The squares of the pieces giving check (USI squares).
    pub checkers: Vec<String>,
    /// Every legal move.
    pub legal_moves: Vec<MoveView>,
}

fn status_name(s: Status) -> &'static str {
    match s {
        Status::Ongoing => "ongoing",
        Status::Checkmate => "checkmate",
        Status::NoLegalMoves => "no_legal_moves",
        Status::RepetitionDraw => "repetition_draw",
        Status::PerpetualCheck { .. } => "perpetual_check",
    }
}

/// The position a request names.
pub fn position_of(req: &PositionRequest) -> Result<Position, ApiError> {
    let given = [req.sfen.is_some(), req.usi.is_some(), req.text.is_some()];
    if given.iter().filter(|&&g| g).count() != 1 {
        return Err(ApiError::bad_input(
            "one_input",
            "give exactly one of sfen, usi and text",
        ));
    }
    if let Some(sfen) = &req.sfen {
        return Position::from_sfen(sfen.trim())
            .map_err(|e| ApiError::bad_input("bad_sfen", format!("sfen: {e}")).field("sfen"));
    }
    if let Some(text) = &req.usi {
        return usi::parse_position(text.trim())
            .map_err(|e| ApiError::bad_input("bad_usi", format!("usi: {e}")).field("usi"));
    }
    let text = req.text.as_deref().unwrap_or("");
    let (_, read) = read_text(text, None)?;
    let len = read.record.main().moves().len();
    let n = req.move_number.unwrap_or(len);
    if n > len {
        return Err(ApiError::bad_input(
            "bad_move_number",
            format!("move {n}: the main line has {len} moves (expected 0 to {len})"),
        )
        .field("move"));
    }
    Ok(read.record.position_after(n))
}

/// The analysis of a position.
pub fn analysis(pos: &Position) -> PositionView {
    let legal_moves = pos
        .legal_moves()
        .iter()
        .map(|&m| MoveView {
            usi: m.to_string(),
            name: japanese::move_name(pos, m),
        })
        .collect();
    PositionView {
        sfen: pos.to_sfen(),
        side_to_move: color_name(pos.side_to_move()),
        ply: pos.ply(),
        in_check: pos.in_check(),
        status: status_name(pos.status()),
        can_declare_win: pos.can_declare_win(),
        checkers: pos.checkers().into_iter().map(|s| s.to_string()).collect(),
        legal_moves,
    }
}

/// Legal moves, check and status of a position.
#[utoipa::path(post, path = "/api/position", request_body = PositionRequest, tag = "position",
    responses(
        (status = 200, description = "the analysis", body = PositionView),
        (status = 400, description = "not a position koma can read; the message says what and where", body = ErrorBody)))]
pub async fn analyse(
    ApiJson(req): ApiJson<PositionRequest>,
) -> Result<Json<PositionView>, ApiError> {
    let pos = position_of(&req)?;
    Ok(Json(analysis(&pos)))
}
