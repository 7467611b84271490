//! The one error type of the API: an HTTP status and a JSON body that says what went wrong and
//! what to do, rendered from the libraries' typed errors at this edge.

use axum::Json;
use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

/// An error answered to a client. The body is `{"error": {...}}` ([`ErrorBody`]).
#[derive(Debug, Clone)]
pub struct ApiError {
    status: StatusCode,
    detail: ErrorDetail,
}

/// The JSON body of every error answer.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ErrorBody {
    /// What went wrong.
    pub error: ErrorDetail,
}

/// What went wrong, for a person and for a program.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct ErrorDetail {
    /// A stable machine-readable code, e.g. `bad_sfen`, `queue_full`, `not_found`.
    pub code: &'static str,
    /// One sentence for a person: what is wrong and, where it helps, what to do.
    pub message: String,
    /// The request field the error is about, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<&'static str>,
    /// The line of the submitted text the error is at (1-based), for record text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// The column of that line (1-based), when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<usize>,
}

impl ApiError {
    /// An error with this status, code and message.
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            detail: ErrorDetail {
                code,
                message: message.into(),
                field: None,
                line: None,
                column: None,
            },
        }
    }

    /// 400: the request is well-formed JSON but its content is not acceptable.
    pub fn bad_input(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, code, message)
    }

    /// 404 for the named thing.
    pub fn not_found(what: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, "not_found", what)
    }

    /// 409: the request conflicts with the state of the thing it names.
    pub fn conflict(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, code, message)
    }

    /// 429: a limit on queued or running work was reached.
    pub fn too_many(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::TOO_MANY_REQUESTS, code, message)
    }

    /// 500: the server failed; the message says what failed, not how to fix the request.
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", message)
    }

    /// Names the request field the error is about.
    pub fn field(mut self, field: &'static str) -> ApiError {
        self.detail.field = Some(field);
        self
    }

    /// Places the error at a line (and column) of submitted text.
    pub fn at(mut self, line: Option<usize>, column: Option<usize>) -> ApiError {
        self.detail.line = line;
        self.detail.column = column;
        self
    }

    /// The HTTP status.
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// The body's detail.
    pub fn detail(&self) -> &ErrorDetail {
        &self.detail
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({})", self.detail.message, self.detail.code)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(ErrorBody { error: self.detail })).into_response()
    }
}

impl From<JsonRejection> for ApiError {
    fn from(r: JsonRejection) -> ApiError {
        let (code, message) = match &r {
            JsonRejection::MissingJsonContentType(_) => (
                "not_json",
                "send the request body as JSON with the header Content-Type: application/json"
                    .to_owned(),
            ),
            JsonRejection::JsonSyntaxError(e) => (
                "bad_json",
                format!("the body is not valid JSON: {}", e.body_text()),
            ),
            JsonRejection::JsonDataError(e) => (
                "bad_request_fields",
                format!(
                    "the JSON does not have the expected fields: {}",
                    e.body_text()
                ),
            ),
            JsonRejection::BytesRejection(_) => (
                "body_unreadable",
                format!("the body could not be read: {}", r.body_text()),
            ),
            _ => ("bad_body", r.body_text()),
        };
        let status = match r.status() {
            StatusCode::PAYLOAD_TOO_LARGE => StatusCode::PAYLOAD_TOO_LARGE,
            StatusCode::UNSUPPORTED_MEDIA_TYPE => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            _ => StatusCode::BAD_REQUEST,
        };
        let code = if status == StatusCode::PAYLOAD_TOO_LARGE {
            "body_too_large"
        } else {
            code
        };
        ApiError::new(status, code, message)
    }
}

impl From<PathRejection> for ApiError {
    fn from(r: PathRejection) -> ApiError {
        ApiError::bad_input("bad_path", r.body_text())
    }
}

impl From<QueryRejection> for ApiError {
    fn from(r: QueryRejection) -> ApiError {
        ApiError::bad_input("bad_query", r.body_text())
    }
}

impl From<crate::db::DbError> for ApiError {
    fn from(e: crate::db::DbError) -> ApiError {
        ApiError::internal(format!("the job database failed: {e}"))
    }
}
