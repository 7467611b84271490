//! Who may talk to the server. A server on loopback is still reachable from any page the user
//! opens: a foreign page can send requests to it (cross-site request forgery), and a foreign
//! name that resolves to 127.0.0.1 makes the browser treat the server as that site (DNS
//! rebinding). So every request must name an accepted host in `Host`, and a request that says
//! where it comes from (`Origin`, `Sec-Fetch-Site`) must come from the server's own pages.

use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::AppState;
use crate::error::ApiError;

/// The host name of a `Host` header value or an origin's authority: the port and the IPv6
/// brackets taken off, lowercased.
fn host_name(authority: &str) -> String {
    let a = authority.trim();
    let name = if let Some(rest) = a.strip_prefix('[') {
        rest.split(']').next().unwrap_or("")
    } else {
        a.rsplit_once(':').map_or(a, |(h, port)| {
            if port.bytes().all(|b| b.is_ascii_digit()) {
                h
            } else {
                a
            }
        })
    };
    name.to_ascii_lowercase()
}

/// Why a request is refused, or `None` to let it through.
fn refusal(headers: &HeaderMap, hosts: &[String]) -> Option<ApiError> {
    let forbidden = |code, msg: String| Some(ApiError::new(StatusCode::FORBIDDEN, code, msg));
    let Some(host) = headers.get(header::HOST).and_then(|h| h.to_str().ok()) else {
        return forbidden("no_host", "the request has no Host header".into());
    };
    let name = host_name(host);
    if !hosts.contains(&name) {
        return forbidden(
            "host_not_allowed",
            format!(
                "this server answers to {} only, not to {name:?} (a guard against DNS \
                 rebinding); open it by one of those names, or add the name to the server's \
                 accepted hosts",
                hosts.join(", ")
            ),
        );
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("");
        let own = ["http://", "https://"]
            .iter()
            .any(|scheme| origin.strip_prefix(scheme) == Some(host));
        if !own {
            return forbidden(
                "cross_origin",
                format!(
                    "requests from {origin:?} are refused: only the workbench's own pages may \
                     use its API"
                ),
            );
        }
    }
    if headers
        .get("sec-fetch-site")
        .is_some_and(|v| v.as_bytes() == b"cross-site")
    {
        return forbidden(
            "cross_site",
            "cross-site requests are refused: only the workbench's own pages may use its API"
                .into(),
        );
    }
    None
}

/// The middleware: refuses requests that fail [`refusal`], and adds headers that keep the
/// pages from being framed or their files from being reinterpreted.
pub async fn check(State(app): State<AppState>, req: Request, next: Next) -> Response {
    if let Some(e) = refusal(req.headers(), &app.hosts) {
        return e.into_response();
    }
    let mut resp = next.run(req).await;
    let h = resp.headers_mut();
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        "nosniff".parse().expect("static header"),
    );
    h.insert(
        header::X_FRAME_OPTIONS,
        "DENY".parse().expect("static header"),
    );
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; \
         connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
            .parse()
            .expect("static header"),
    );
    h.insert(
        header::REFERRER_POLICY,
        "no-referrer".parse().expect("static header"),
    );
    resp
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(*k, v.parse().unwrap());
        }
        h
    }

    #[test]
    fn host_names() {
        assert_eq!(host_name("localhost:8080"), "localhost");
        assert_eq!(host_name("[::1]:8080"), "::1");
        assert_eq!(host_name("127.0.0.1"), "127.0.0.1");
        assert_eq!(host_name("Evil.Example:80"), "evil.example");
    }

    #[test]
    fn foreign_hosts_and_origins_are_refused() {
        let hosts = vec![
            "localhost".to_string(),
            "127.0.0.1".to_string(),
            "::1".to_string(),
        ];
        assert!(refusal(&headers(&[("host", "127.0.0.1:8080")]), &hosts).is_none());
        assert!(refusal(&headers(&[("host", "[::1]:8080")]), &hosts).is_none());
        assert!(
            refusal(
                &headers(&[
                    ("host", "localhost:8080"),
                    ("origin", "http://localhost:8080")
                ]),
                &hosts
            )
            .is_none()
        );
        let refused = |h| refusal(&headers(h), &hosts).map(|e| e.detail().code);
        assert_eq!(
            refused(&[("host", "rebind.example:8080")]),
            Some("host_not_allowed")
        );
        assert_eq!(refused(&[]), Some("no_host"));
        assert_eq!(
            refused(&[
                ("host", "127.0.0.1:8080"),
                ("origin", "http://evil.example")
            ]),
            Some("cross_origin")
        );
        // Same name, other port: another origin.
        assert_eq!(
            refused(&[
                ("host", "127.0.0.1:8080"),
                ("origin", "http://127.0.0.1:9999")
            ]),
            Some("cross_origin")
        );
        assert_eq!(
            refused(&[("host", "127.0.0.1:8080"), ("sec-fetch-site", "cross-site")]),
            Some("cross_site")
        );
    }
}
