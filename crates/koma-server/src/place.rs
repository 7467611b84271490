//! Placement runs (利かずの駒並べ, koma-place) as jobs: count (resumable from the finished tasks
//! kept in the database), first, or all (solutions stored and browsed page by page).

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use axum::extract::State;
use axum::http::StatusCode;
use koma_place::{
    Geometry, Mode, Options, PieceSet, Placement, Problem, Progress, TaskCount, solve,
};
use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::ToSchema;

use crate::db::PlaceTaskRow;
use crate::error::{ApiError, ErrorBody};
use crate::jobs::{JobCtx, JobError, JobKind, JobOutcome, JobView};
use crate::request::{ApiJson, ApiPath, ApiQuery, Session, submit, time_limit};
use crate::{AppState, Limits};

/// What to do with the placements.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum PlaceMode {
    /// Count them all (resumable).
    #[default]
    Count,
    /// Find one.
    First,
    /// Enumerate them, up to `limit`, stored for paging.
    All,
}

/// A placement run to start.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlaceRequest {
    /// The piece set, e.g. `P18L4N4S4G4K2R2B2` (`+` promotes, `X` is a stone; two-directionally
    /// `^P` fixes Black and `p` fixes White).
    #[schema(example = "P18L4N4S4G4K2R2B2")]
    pub pieces: String,
    /// Each piece may face either way (two-directional).
    #[serde(default)]
    pub both_ways: bool,
    /// `count` (default), `first` or `all`.
    #[serde(default)]
    pub mode: PlaceMode,
    /// For `all`: stop after this many (at most the server's limit, which is also the default).
    pub limit: Option<u64>,
    /// For `first` and `all`: one placement of each mirror pair.
    #[serde(default)]
    pub mirror: bool,
    /// Give up after this many seconds (at most the server's limit, also the default).
    pub time_limit_secs: Option<f64>,
}

/// The parameters of a placement job as stored: the request, checked and completed.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct PlaceParams {
    pieces: String,
    both_ways: bool,
    mode: PlaceMode,
    limit: Option<u64>,
    mirror: bool,
    time_limit_secs: f64,
    threads: usize,
    /// The task split of a count: fixed at submission so a resumed count uses the same one.
    split: usize,
}

impl PlaceParams {
    fn problem(&self) -> Result<Problem, koma_place::PlaceError> {
        let set: PieceSet = self.pieces.parse()?;
        Problem::new(set, Geometry::standard(), self.both_ways)
    }
}

/// Checks a request against the rules and the limits.
fn check(req: &PlaceRequest, limits: &Limits) -> Result<PlaceParams, ApiError> {
    let set: PieceSet = req
        .pieces
        .trim()
        .parse()
        .map_err(|e: koma_place::PlaceError| {
            ApiError::bad_input("bad_pieces", format!("pieces: {e}")).field("pieces")
        })?;
    let problem = Problem::new(set, Geometry::standard(), req.both_ways)
        .map_err(|e| ApiError::bad_input("bad_pieces", format!("pieces: {e}")).field("pieces"))?;
    let time = time_limit(req.time_limit_secs, limits.place_time_limit)?;
    let limit = match (req.mode, req.limit) {
        (PlaceMode::All, None) => Some(limits.place_solutions_max),
        (PlaceMode::All, Some(0)) => {
            return Err(ApiError::bad_input(
                "bad_limit",
                "limit must be at least 1 (or left out for the server's maximum)",
            )
            .field("limit"));
        }
        (PlaceMode::All, Some(n)) => Some(n.min(limits.place_solutions_max)),
        (PlaceMode::First, _) => Some(1),
        (PlaceMode::Count, _) => None,
    };
    let threads = limits.job_threads;
    let split = Options {
        threads,
        ..Options::default()
    }
    .split_target();
    Ok(PlaceParams {
        pieces: problem.set().to_string(),
        both_ways: req.both_ways,
        mode: req.mode,
        limit,
        mirror: req.mirror,
        time_limit_secs: time,
        threads,
        split,
    })
}

/// Starts a placement run as a job.
#[utoipa::path(post, path = "/api/place", request_body = PlaceRequest, tag = "place",
    responses(
        (status = 202, description = "queued", body = JobView),
        (status = 400, description = "bad piece set or limit", body = ErrorBody),
        (status = 429, description = "the job queue is full", body = ErrorBody)))]
pub async fn create(
    State(app): State<AppState>,
    session: Session,
    ApiJson(req): ApiJson<PlaceRequest>,
) -> Result<(StatusCode, axum::Json<JobView>), ApiError> {
    submit(&app, JobKind::Place, &session, &check(&req, &app.limits)?)
}

/// A page of stored placements.
#[derive(Debug, Serialize, ToSchema)]
pub struct SolutionPage {
    /// The placements of this page, in the order found.
    pub items: Vec<SolutionItem>,
    /// The cursor of the next page, or none after the last stored placement.
    pub next_cursor: Option<u64>,
    /// Placements stored so far (the job may still be adding).
    pub total: u64,
}

/// One stored placement.
#[derive(Debug, Serialize, ToSchema)]
pub struct SolutionItem {
    /// Its number, from 0.
    pub index: u64,
    /// The board as SFEN (`X` is a stone).
    pub sfen: String,
}

/// Paging parameters.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
pub struct PageQuery {
    /// The first index to return (default 0).
    pub cursor: Option<u64>,
    /// How many to return (1-500, default 20).
    pub limit: Option<u32>,
}

/// Browses the placements a `first` or `all` job stored.
#[utoipa::path(get, path = "/api/jobs/{id}/solutions", tag = "place",
    params(("id" = i64, Path, description = "job number"), PageQuery),
    responses(
        (status = 200, description = "a page", body = SolutionPage),
        (status = 400, description = "bad cursor or limit", body = ErrorBody),
        (status = 404, description = "no such job", body = ErrorBody)))]
pub async fn solutions(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<i64>,
    ApiQuery(q): ApiQuery<PageQuery>,
) -> Result<axum::Json<SolutionPage>, ApiError> {
    let limit = q.limit.unwrap_or(20);
    if !(1..=500).contains(&limit) {
        return Err(ApiError::bad_input(
            "bad_limit",
            format!("limit must be between 1 and 500, not {limit}"),
        )
        .field("limit"));
    }
    let Some(job) = app.db.job(id)? else {
        return Err(ApiError::not_found(format!("there is no job {id}")));
    };
    if job.kind != JobKind::Place.name() {
        return Err(ApiError::bad_input(
            "not_a_placement",
            format!("job {id} is a {} job, which stores no placements", job.kind),
        ));
    }
    let cursor = q.cursor.unwrap_or(0);
    let (rows, total) = app.db.place_solutions(id, cursor, limit)?;
    let next_cursor = rows.last().map(|(i, _)| i + 1).filter(|&next| next < total);
    Ok(axum::Json(SolutionPage {
        items: rows
            .into_iter()
            .map(|(index, sfen)| SolutionItem { index, sfen })
            .collect(),
        next_cursor,
        total,
    }))
}

/// Runs a placement job (on a job thread).
pub fn run_job(ctx: &JobCtx<'_>) -> JobOutcome {
    let p: PlaceParams = serde_json::from_value(ctx.params.clone())?;
    let problem = p.problem()?;
    match p.mode {
        PlaceMode::Count => count(ctx, &p, &problem),
        PlaceMode::First | PlaceMode::All => enumerate(ctx, &p, &problem),
    }
}

fn count(ctx: &JobCtx<'_>, p: &PlaceParams, problem: &Problem) -> JobOutcome {
    let db_err = |source| JobError::Db {
        during: "the checkpoint database failed",
        source,
    };
    let resumed = ctx.db.place_tasks(ctx.id).map_err(db_err)?;
    let resume: Vec<TaskCount> = resumed
        .iter()
        .map(|r| TaskCount {
            task: r.task,
            count: r.count,
            mirror_fixed: r.mirror_fixed,
            nodes: r.nodes,
        })
        .collect();
    if let Some(first) = resumed.first() {
        // Resumed: show what the checkpoint holds at once, before the first new task ends.
        ctx.progress(json!({
            "tasks_done": resumed.len(),
            "tasks": first.tasks,
            "found": resumed.iter().map(|r| r.count).sum::<u128>().to_string(),
            "tasks_resumed": resumed.len(),
        }));
    }
    // Finished tasks are written in batches: at most a second's worth is lost to a crash.
    let pending: Mutex<(Vec<PlaceTaskRow>, Instant)> = Mutex::new((Vec::new(), Instant::now()));
    let write_error = Mutex::new(None);
    let flush = |pending: &mut (Vec<PlaceTaskRow>, Instant)| {
        if let Err(e) = ctx.db.add_place_tasks(ctx.id, &pending.0) {
            write_error
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get_or_insert(e);
        }
        pending.0.clear();
        pending.1 = Instant::now();
    };
    let progress = |pr: Progress| {
        let mut pend = pending.lock().unwrap_or_else(|e| e.into_inner());
        pend.0.push(PlaceTaskRow {
            task: pr.task.task,
            tasks: pr.total,
            count: pr.task.count,
            mirror_fixed: pr.task.mirror_fixed,
            nodes: pr.task.nodes,
        });
        if pend.1.elapsed() >= Duration::from_secs(1) {
            flush(&mut pend);
        }
        drop(pend);
        ctx.progress(json!({
            "tasks_done": pr.done,
            "tasks": pr.total,
            "found": pr.found.to_string(),
            "tasks_resumed": resume.len(),
        }));
    };
    let opts = Options {
        mode: Mode::Count,
        threads: p.threads,
        split: p.split,
        resume: &resume,
        progress: Some(&progress),
        cancel: Some(ctx.cancel),
        time_limit: Some(Duration::from_secs_f64(p.time_limit_secs)),
        ..Options::default()
    };
    let out = solve(problem, &opts, &|_| {});
    flush(&mut pending.lock().unwrap_or_else(|e| e.into_inner()));
    if let Some(e) = write_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(JobError::Db {
            during: "could not record finished tasks",
            source: e,
        });
    }
    if let Some(r) = resumed.iter().find(|r| r.tasks != out.tasks) {
        return Err(JobError::SplitChanged {
            checkpoint: r.tasks,
            now: out.tasks,
        });
    }
    Ok(json!({
        "count": out.count.to_string(),
        "count_mirror_identified": out.count_mirror_identified.to_string(),
        "complete": out.complete,
        "nodes": out.nodes,
        "tasks_done": out.tasks_done,
        "tasks": out.tasks,
        "tasks_resumed": resume.len(),
        "elapsed_secs": out.elapsed.as_secs_f64(),
    }))
}

fn enumerate(ctx: &JobCtx<'_>, p: &PlaceParams, problem: &Problem) -> JobOutcome {
    let db_err = |source| JobError::Db {
        during: "the solution database failed",
        source,
    };
    // An enumeration is not resumable (its order depends on the threads): it starts over.
    ctx.db.clear_place_solutions(ctx.id).map_err(db_err)?;
    let found = AtomicU64::new(0);
    let buffer: Mutex<(Vec<String>, u64)> = Mutex::new((Vec::new(), 0));
    let write_error = Mutex::new(None);
    let flush = |b: &mut (Vec<String>, u64)| {
        if let Err(e) = ctx.db.add_place_solutions(ctx.id, b.1, &b.0) {
            write_error
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get_or_insert(e);
        }
        b.1 += b.0.len() as u64;
        b.0.clear();
    };
    let on_solution = |pl: &Placement| {
        let mut b = buffer.lock().unwrap_or_else(|e| e.into_inner());
        b.0.push(pl.to_sfen());
        if b.0.len() >= 512 {
            flush(&mut b);
        }
        found.fetch_add(1, Ordering::Relaxed);
    };
    let progress = |pr: Progress| {
        ctx.progress(json!({
            "tasks_done": pr.done,
            "tasks": pr.total,
            "found": found.load(Ordering::Relaxed).to_string(),
        }));
    };
    let opts = Options {
        mode: Mode::Enumerate { limit: p.limit },
        threads: p.threads,
        identify_mirror: p.mirror,
        progress: Some(&progress),
        cancel: Some(ctx.cancel),
        time_limit: Some(Duration::from_secs_f64(p.time_limit_secs)),
        ..Options::default()
    };
    let out = solve(problem, &opts, &on_solution);
    flush(&mut buffer.lock().unwrap_or_else(|e| e.into_inner()));
    if let Some(e) = write_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(db_err(e));
    }
    let stored = found.load(Ordering::Relaxed);
    let limited = p.limit.is_some_and(|l| stored >= l);
    Ok(json!({
        "found": stored.to_string(),
        "complete": out.complete,
        "limit_reached": limited,
        "nodes": out.nodes,
        "elapsed_secs": out.elapsed.as_secs_f64(),
    }))
}
