//! The front end, built from `web/src` into `web/dist` and embedded in the binary, so the
//! server needs no files and no Node.js at run time. Page paths (`/hasami`, `/tsume?sfen=...`)
//! all answer the one page, which picks its view from the path.

use axum::http::{Method, StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};

struct Asset {
    path: &'static str,
    mime: &'static str,
    body: &'static [u8],
}

const INDEX: &[u8] = include_bytes!("../../../web/dist/index.html");

const ASSETS: &[Asset] = &[
    Asset {
        path: "/app.js",
        mime: "text/javascript; charset=utf-8",
        body: include_bytes!("../../../web/dist/app.js"),
    },
    Asset {
        path: "/app.css",
        mime: "text/css; charset=utf-8",
        body: include_bytes!("../../../web/dist/app.css"),
    },
    Asset {
        path: "/favicon.svg",
        mime: "image/svg+xml",
        body: include_bytes!("../../../web/dist/favicon.svg"),
    },
];

/// The pages the front end knows; each answers `index.html`.
const PAGES: &[&str] = &["/", "/board", "/tsume", "/hasami", "/place"];

/// Answers a GET for an embedded file or a page.
pub async fn serve(method: Method, uri: Uri) -> Response {
    if method != Method::GET && method != Method::HEAD {
        return crate::ApiError::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "method_not_allowed",
            "only GET is answered outside /api",
        )
        .into_response();
    }
    let path = uri.path();
    if PAGES.contains(&path) {
        return file("text/html; charset=utf-8", INDEX);
    }
    match ASSETS.iter().find(|a| a.path == path) {
        Some(a) => file(a.mime, a.body),
        None => (
            StatusCode::NOT_FOUND,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            format!("no page {path}; the workbench is at /"),
        )
            .into_response(),
    }
}

fn file(mime: &'static str, body: &'static [u8]) -> Response {
    (
        [
            (header::CONTENT_TYPE, mime),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}
