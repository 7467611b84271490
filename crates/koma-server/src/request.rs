//! What the handlers share: extractors that answer bad requests with JSON errors, the session a
//! request belongs to, job submission with its time limit, and random ids.

use std::time::Duration;

use axum::Json;
use axum::extract::{FromRequest, FromRequestParts};
use axum::http::request::Parts;
use serde::Serialize;

use crate::AppState;
use crate::error::ApiError;
use crate::jobs::{JobKind, JobView};

/// A JSON body; a malformed one answers 400/413/415 with a JSON error.
#[derive(FromRequest)]
#[from_request(via(axum::Json), rejection(ApiError))]
pub struct ApiJson<T>(pub T);

/// A path parameter; a malformed one answers 400 with a JSON error.
#[derive(FromRequestParts)]
#[from_request(via(axum::extract::Path), rejection(ApiError))]
pub struct ApiPath<T>(pub T);

/// Query parameters; malformed ones answer 400 with a JSON error.
#[derive(FromRequestParts)]
#[from_request(via(axum::extract::Query), rejection(ApiError))]
pub struct ApiQuery<T>(pub T);

/// The session a request belongs to: the `X-Koma-Session` header the page sends (from
/// `POST /api/session`), or `anonymous`. Sessions share the job limits fairly.
pub struct Session(pub String);

/// The header naming the session.
pub const SESSION_HEADER: &str = "x-koma-session";

impl<S: Send + Sync> FromRequestParts<S> for Session {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Session, ApiError> {
        let Some(value) = parts.headers.get(SESSION_HEADER) else {
            return Ok(Session("anonymous".into()));
        };
        let text = value.to_str().unwrap_or("");
        let ok = (8..=64).contains(&text.len())
            && text
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if !ok {
            return Err(ApiError::bad_input(
                "bad_session",
                "the X-Koma-Session header must be 8-64 letters, digits, - or _ (get one from \
                 POST /api/session)",
            ));
        }
        Ok(Session(text.to_owned()))
    }
}

/// A job's time limit: the request's `time_limit_secs` (positive), at most `max`; `max` when
/// left out.
pub fn time_limit(asked: Option<f64>, max: Duration) -> Result<f64, ApiError> {
    let max = max.as_secs_f64();
    match asked {
        None => Ok(max),
        Some(t) if t > 0.0 && t.is_finite() => Ok(t.min(max)),
        Some(t) => Err(ApiError::bad_input(
            "bad_time_limit",
            format!("time_limit_secs must be a positive number of seconds, not {t}"),
        )
        .field("time_limit_secs")),
    }
}

/// Queues a job with checked parameters: 202 and the job, or 429 when the queue is full.
pub fn submit(
    app: &AppState,
    kind: JobKind,
    session: &Session,
    params: &impl Serialize,
) -> Result<(axum::http::StatusCode, Json<JobView>), ApiError> {
    let value = serde_json::to_value(params).map_err(|e| ApiError::internal(e.to_string()))?;
    let view = app.jobs.submit(kind, &session.0, &value)?;
    Ok((axum::http::StatusCode::ACCEPTED, Json(view)))
}

/// A random 128-bit id in hex (std's randomly keyed hasher; no guessable sequence).
pub fn random_id() -> String {
    use std::hash::{BuildHasher, RandomState};
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let a = RandomState::new().hash_one((n, now));
    let b = RandomState::new().hash_one((now, n, a));
    format!("{a:016x}{b:016x}")
}
