//! Tsume (詰将棋, koma-tsume) as jobs: solve a problem for the composer's answer, or check it
//! (alternative mates, equal and longer defences, leftover pieces, a recorded answer compared),
//! with progress, cancel and limits on time and memory.

use axum::extract::State;
use axum::http::StatusCode;
use koma_core::{Move, Position};
use koma_tsume::{
    Cancel, Check, Finding, FindingReport, Options, Outcome, Phase, Progress, Solution, Status,
    Verdict, VerdictName, hand_letters,
};
use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::ToSchema;

use crate::error::{ApiError, ErrorBody};
use crate::jobs::{JobCtx, JobError, JobKind, JobOutcome, JobView};
use crate::record::moves_view;
use crate::request::{ApiJson, Session, submit, time_limit};
use crate::{AppState, Limits};

/// Solve or check.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum TsumeMode {
    /// The composer's answer.
    #[default]
    Solve,
    /// The answer and every flaw along it.
    Check,
}

/// A problem to solve or check.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct TsumeRequest {
    /// The problem as SFEN; the side to move attacks.
    #[schema(example = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1")]
    pub sfen: String,
    /// `solve` (default) or `check`.
    #[serde(default)]
    pub mode: TsumeMode,
    /// For `check`: a recorded answer in USI moves, compared with the composer's answer.
    pub expected: Option<Vec<String>>,
    /// Give up after this many seconds (default and most: the server's limit).
    pub time_limit_secs: Option<f64>,
}

/// The parameters of a tsume job as stored.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct TsumeParams {
    sfen: String,
    mode: TsumeMode,
    expected: Option<Vec<String>>,
    time_limit_secs: f64,
    hash_mib: usize,
}

fn check_request(req: &TsumeRequest, limits: &Limits) -> Result<TsumeParams, ApiError> {
    let pos = Position::from_sfen(req.sfen.trim())
        .map_err(|e| ApiError::bad_input("bad_sfen", format!("sfen: {e}")).field("sfen"))?;
    // koma-core accepts a position whose side not to move has no king; no mate problem.
    if let Some(why) = koma_tsume::NotAProblem::of(&pos) {
        return Err(ApiError::bad_input("not_a_problem", format!("sfen: {why}")).field("sfen"));
    }
    if let Some(moves) = &req.expected {
        if req.mode != TsumeMode::Check {
            return Err(ApiError::bad_input(
                "expected_needs_check",
                "an expected answer is compared only when checking: send mode \"check\"",
            )
            .field("expected"));
        }
        parse_moves(moves).map_err(|e| e.field("expected"))?;
    }
    let time = time_limit(req.time_limit_secs, limits.tsume_time_limit)?;
    Ok(TsumeParams {
        sfen: pos.to_sfen(),
        mode: req.mode,
        expected: req.expected.clone(),
        time_limit_secs: time,
        hash_mib: limits.tsume_hash_mib,
    })
}

fn parse_moves(moves: &[String]) -> Result<Vec<Move>, ApiError> {
    moves
        .iter()
        .enumerate()
        .map(|(i, m)| {
            m.trim()
                .parse::<Move>()
                .map_err(|e| ApiError::bad_input("bad_move", format!("move {} {m:?}: {e}", i + 1)))
        })
        .collect()
}

/// Solves or checks a mate problem as a job.
#[utoipa::path(post, path = "/api/tsume", request_body = TsumeRequest, tag = "tsume",
    responses(
        (status = 202, description = "queued", body = JobView),
        (status = 400, description = "not a legal position, no mate problem (the side not to move has no king), a bad expected move or time limit", body = ErrorBody),
        (status = 429, description = "the job queue is full", body = ErrorBody)))]
pub async fn create(
    State(app): State<AppState>,
    session: Session,
    ApiJson(req): ApiJson<TsumeRequest>,
) -> Result<(StatusCode, axum::Json<JobView>), ApiError> {
    submit(
        &app,
        JobKind::Tsume,
        &session,
        &check_request(&req, &app.limits)?,
    )
}

fn phase_name(p: Phase) -> String {
    match p {
        Phase::Proof => "proof".into(),
        Phase::Shortening { upper } => format!("shortening (≤ {upper})"),
        Phase::Answer { ply } => format!("answer (ply {ply})"),
        Phase::Check { ply } => format!("check (ply {ply})"),
    }
}

/// The position after the first `n` moves of `line`.
fn after(pos: &Position, line: &[Move], n: usize) -> Position {
    let mut p = pos.clone();
    for &m in &line[..n.min(line.len())] {
        p.do_move(m);
    }
    p
}

/// A finding for the page: koma-tsume's [`FindingReport`] (kind, ply, whether it is a flaw, its
/// moves in USI) with its sentence in English and in Japanese, the moves named.
#[derive(Serialize)]
struct FindingView {
    #[serde(flatten)]
    report: FindingReport,
    text_en: String,
    text_ja: String,
}

fn finding_view(pos: &Position, answer: &[Move], f: &Finding) -> FindingView {
    let n = answer.len();
    let text = f.describe(n, &mut |ply, line| {
        moves_view(&after(pos, answer, ply - 1), line)
            .iter()
            .map(|m| m.name.as_str())
            .collect::<Vec<_>>()
            .join(" ")
    });
    let ply = f.ply(n);
    FindingView {
        report: FindingReport::new(f, n),
        text_en: format!("ply {ply}: {}", text.en),
        text_ja: format!("{ply}手目：{}", text.ja),
    }
}

fn solution_json(pos: &Position, sol: &Solution) -> serde_json::Value {
    let mut v = match &sol.outcome {
        Outcome::Mate(a) => json!({
            "outcome": Status::Mate.name(),
            "length": a.len(),
            "moves": moves_view(pos, &a.moves),
            "leftover": hand_letters(a.leftover),
            "optimal": a.optimal,
        }),
        Outcome::NoMate => json!({"outcome": Status::NoMate.name()}),
        Outcome::Unknown(r) => json!({"outcome": Status::Unknown.name(), "reason": r.name()}),
    };
    v["nodes"] = json!(sol.stats.nodes);
    v["elapsed_secs"] = json!(sol.stats.elapsed.as_secs_f64());
    v
}

fn check_json(pos: &Position, c: &Check) -> serde_json::Value {
    let answer: &[Move] = c.answer.as_ref().map_or(&[], |a| &a.moves);
    let reason = match c.verdict {
        Verdict::Unknown(r) => Some(r.name()),
        _ => None,
    };
    let mut v = json!({
        "outcome": Status::of_verdict(&c.verdict).name(),
        "verdict": VerdictName::of(&c.verdict).name(),
        "findings": c.findings.iter().map(|f| finding_view(pos, answer, f)).collect::<Vec<_>>(),
        "nodes": c.stats.nodes,
        "elapsed_secs": c.stats.elapsed.as_secs_f64(),
    });
    if let Some(r) = reason {
        v["reason"] = json!(r);
    }
    if let Some(a) = &c.answer {
        v["length"] = json!(a.len());
        v["moves"] = json!(moves_view(pos, &a.moves));
        v["leftover"] = json!(hand_letters(a.leftover));
        v["optimal"] = json!(a.optimal);
    }
    if let Some(e) = &c.expected {
        v["expected_agrees"] = json!(e.agrees);
        v["expected_mates"] = json!(e.expected_mates);
        v["expected_differs_at"] = json!(e.first_difference.map(|d| d.ply));
    }
    v
}

/// Runs a tsume job (on a job thread).
pub fn run_job(ctx: &JobCtx<'_>) -> JobOutcome {
    let p: TsumeParams = serde_json::from_value(ctx.params.clone())?;
    let pos = Position::from_sfen(&p.sfen)?;
    let options = Options::default()
        .hash_mib(p.hash_mib)
        .time(std::time::Duration::from_secs_f64(p.time_limit_secs));
    let cancel = Cancel::new();
    let token = cancel.clone();
    let mut progress = |pr: &Progress| {
        if ctx.cancel.load(std::sync::atomic::Ordering::Relaxed) {
            token.cancel();
        }
        ctx.progress(json!({
            "nodes": pr.nodes,
            "elapsed_secs": pr.elapsed.as_secs_f64(),
            "hashfull": pr.hashfull,
            "phase": phase_name(pr.phase),
        }));
    };
    Ok(match p.mode {
        TsumeMode::Solve => solution_json(
            &pos,
            &koma_tsume::solve(&pos, &options, &mut progress, &cancel)?,
        ),
        TsumeMode::Check => {
            let expected = match &p.expected {
                Some(m) => {
                    Some(parse_moves(m).map_err(|e| JobError::Request(e.field("expected")))?)
                }
                None => None,
            };
            let c = koma_tsume::check(&pos, &options, expected.as_deref(), &mut progress, &cancel)?;
            check_json(&pos, &c)
        }
    })
}
