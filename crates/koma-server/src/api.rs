//! The router, the job endpoints (state, list, cancel, progress events), sessions and the
//! OpenAPI document.

use std::convert::Infallible;
use std::time::Duration;

use axum::extract::{DefaultBodyLimit, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::Stream;
use serde::Serialize;
use utoipa::{OpenApi, ToSchema};

use crate::error::{ApiError, ErrorBody};
use crate::jobs::JobView;
use crate::request::{ApiPath, Session, random_id};
use crate::{AppState, assets, guard, hasami, place, position, record, tsume};

/// A new session id.
#[derive(Debug, Serialize, ToSchema)]
pub struct SessionView {
    /// Send it as the `X-Koma-Session` header with job requests.
    pub session: String,
}

/// Starts a session: the page keeps the id and sends it with its job requests.
#[utoipa::path(post, path = "/api/session", tag = "jobs",
    responses((status = 200, description = "a new session", body = SessionView)))]
pub async fn new_session() -> Json<SessionView> {
    Json(SessionView {
        session: random_id(),
    })
}

/// A job's state, progress and result.
#[utoipa::path(get, path = "/api/jobs/{id}", tag = "jobs",
    params(("id" = i64, Path, description = "job number")),
    responses(
        (status = 200, description = "the job", body = JobView),
        (status = 400, description = "not a job number", body = ErrorBody),
        (status = 404, description = "no such job", body = ErrorBody)))]
pub async fn job(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<i64>,
) -> Result<Json<JobView>, ApiError> {
    app.jobs
        .view(id)?
        .map(Json)
        .ok_or_else(|| ApiError::not_found(format!("there is no job {id}")))
}

/// The session's newest jobs (up to 50), newest first.
#[utoipa::path(get, path = "/api/jobs", tag = "jobs",
    params(("x-koma-session" = Option<String>, Header, description = "the session")),
    responses((status = 200, description = "the jobs", body = [JobView])))]
pub async fn jobs(
    State(app): State<AppState>,
    session: Session,
) -> Result<Json<Vec<JobView>>, ApiError> {
    Ok(Json(app.jobs.list(&session.0)?))
}

/// Cancels a queued or running job.
#[utoipa::path(post, path = "/api/jobs/{id}/cancel", tag = "jobs",
    params(("id" = i64, Path, description = "job number")),
    responses(
        (status = 200, description = "cancelled (a running job stops within moments)", body = JobView),
        (status = 404, description = "no such job", body = ErrorBody),
        (status = 409, description = "the job had already finished", body = ErrorBody)))]
pub async fn cancel(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<i64>,
) -> Result<Json<JobView>, ApiError> {
    Ok(Json(app.jobs.cancel(id)?))
}

/// Server-sent events of a job: `progress` events with the job (as `GET /api/jobs/{id}`) while
/// it changes, then one `end` event once it is done, failed or cancelled.
#[utoipa::path(get, path = "/api/jobs/{id}/events", tag = "jobs",
    params(("id" = i64, Path, description = "job number")),
    responses(
        (status = 200, description = "text/event-stream of JobView", content_type = "text/event-stream", body = JobView),
        (status = 404, description = "no such job", body = ErrorBody)))]
pub async fn events(
    State(app): State<AppState>,
    ApiPath(id): ApiPath<i64>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, ApiError> {
    if app.jobs.view(id)?.is_none() {
        return Err(ApiError::not_found(format!("there is no job {id}")));
    }
    struct St {
        app: AppState,
        id: i64,
        last: Option<String>,
        ended: bool,
    }
    let start = St {
        app,
        id,
        last: None,
        ended: false,
    };
    let stream = futures_util::stream::unfold(start, |mut st| async move {
        if st.ended {
            return None;
        }
        loop {
            if *st.app.shutdown.borrow() {
                return None;
            }
            let view = match st.app.jobs.view(st.id) {
                Ok(Some(v)) => v,
                _ => return None,
            };
            let text = serde_json::to_string(&view).unwrap_or_default();
            let fin = view.is_final();
            if st.last.as_deref() != Some(text.as_str()) {
                let event = Event::default()
                    .event(if fin { "end" } else { "progress" })
                    .data(text.clone());
                st.last = Some(text);
                st.ended = fin;
                return Some((Ok(event), st));
            }
            let mut shutdown = st.app.shutdown.clone();
            tokio::select! {
                _ = tokio::time::sleep(Duration::from_millis(200)) => {}
                _ = shutdown.changed() => return None,
            }
        }
    });
    Ok(Sse::new(stream).keep_alive(KeepAlive::default()))
}

/// What the server is and allows.
#[derive(Debug, Serialize, ToSchema)]
pub struct InfoView {
    /// koma's version.
    pub version: &'static str,
    /// Largest request body, in bytes.
    pub max_body_bytes: usize,
    /// Jobs that may wait in the queue, in all and per session.
    pub queue_capacity: usize,
    /// See `queue_capacity`.
    pub queue_per_session: usize,
    /// Jobs that may run at once, in all and per session.
    pub running_total: usize,
    /// See `running_total`.
    pub running_per_session: usize,
    /// Most placements an `all` run stores.
    pub place_solutions_max: u64,
    /// Longest a tsume job may take, in seconds.
    pub tsume_time_limit_secs: u64,
    /// Memory of a tsume job's table, in MiB.
    pub tsume_hash_mib: usize,
    /// Longest a hasami agent thinks for a move, in milliseconds.
    pub hasami_think_ms: u64,
    /// The hasami agents the server offers.
    pub hasami_agents: Vec<&'static str>,
}

/// The server's version and limits.
#[utoipa::path(get, path = "/api/info", tag = "server",
    responses((status = 200, description = "version and limits", body = InfoView)))]
pub async fn info(State(app): State<AppState>) -> Json<InfoView> {
    let l = &app.limits;
    Json(InfoView {
        version: env!("CARGO_PKG_VERSION"),
        max_body_bytes: l.max_body_bytes,
        queue_capacity: l.queue_capacity,
        queue_per_session: l.queue_per_session,
        running_total: l.running_total,
        running_per_session: l.running_per_session,
        place_solutions_max: l.place_solutions_max,
        tsume_time_limit_secs: l.tsume_time_limit.as_secs(),
        tsume_hash_mib: l.tsume_hash_mib,
        hasami_think_ms: l.hasami_think.as_millis() as u64,
        hasami_agents: hasami::AGENTS.to_vec(),
    })
}

/// The API description.
#[derive(OpenApi)]
#[openapi(
    info(title = "koma workbench API", description = "Shogi positions, records, tsume solving, placement runs and hasami games. Errors are JSON: {\"error\": {\"code\", \"message\", \"field\"?, \"line\"?, \"column\"?}}. Requests must come from the page's own origin (Host and Origin are checked)."),
    paths(
        info, new_session, job, jobs, cancel, events,
        position::analyse,
        record::read, record::convert,
        tsume::create,
        place::create, place::solutions,
        hasami::create, hasami::get_game, hasami::play, hasami::ai_move,
    ),
    components(schemas(ErrorBody, JobView, SessionView, InfoView)),
    tags(
        (name = "server", description = "the server"),
        (name = "jobs", description = "long work: state, progress events, cancel"),
        (name = "position", description = "shogi positions (koma-core)"),
        (name = "record", description = "game records (koma-record)"),
        (name = "tsume", description = "mate problems (koma-tsume)"),
        (name = "place", description = "non-attacking placement (koma-place)"),
        (name = "hasami", description = "hasami shogi games (koma-hasami)"),
    )
)]
pub struct ApiDoc;

/// The OpenAPI 3 document of this API, generated from the handlers' annotations.
pub async fn openapi() -> impl IntoResponse {
    Json(ApiDoc::openapi())
}

async fn api_not_found(uri: axum::http::Uri) -> ApiError {
    ApiError::not_found(format!(
        "no API endpoint {}; the endpoints are listed in /api/openapi.json",
        uri.path()
    ))
}

/// Any body-less request to a JSON endpoint with the wrong method.
async fn method_not_allowed(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let resp = next.run(req).await;
    if resp.status() == axum::http::StatusCode::METHOD_NOT_ALLOWED {
        return ApiError::new(
            axum::http::StatusCode::METHOD_NOT_ALLOWED,
            "method_not_allowed",
            "this endpoint does not take that method; see /api/openapi.json",
        )
        .into_response();
    }
    resp
}

fn panic_response(_: Box<dyn std::any::Any + Send + 'static>) -> Response {
    ApiError::internal("the request failed inside koma (a bug; please report it)").into_response()
}

/// The whole service.
pub fn router(state: AppState) -> Router {
    let api = Router::new()
        .route("/api/info", get(info))
        .route("/api/openapi.json", get(openapi))
        .route("/api/session", post(new_session))
        .route("/api/jobs", get(jobs))
        .route("/api/jobs/{id}", get(job))
        .route("/api/jobs/{id}/cancel", post(cancel))
        .route("/api/jobs/{id}/events", get(events))
        .route("/api/jobs/{id}/solutions", get(place::solutions))
        .route("/api/position", post(position::analyse))
        .route("/api/record", post(record::read))
        .route("/api/record/convert", post(record::convert))
        .route("/api/place", post(place::create))
        .route("/api/tsume", post(tsume::create))
        .route("/api/hasami/games", post(hasami::create))
        .route("/api/hasami/games/{id}", get(hasami::get_game))
        .route("/api/hasami/games/{id}/move", post(hasami::play))
        .route("/api/hasami/games/{id}/ai", post(hasami::ai_move))
        .route("/api/{*rest}", axum::routing::any(api_not_found))
        .layer(axum::middleware::from_fn(method_not_allowed));
    Router::new()
        .merge(api)
        .fallback(assets::serve)
        .layer(DefaultBodyLimit::max(state.limits.max_body_bytes))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            guard::check,
        ))
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(
            panic_response,
        ))
        .with_state(state)
}
