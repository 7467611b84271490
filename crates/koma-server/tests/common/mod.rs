//! A test server on 127.0.0.1 (a free port) over a fresh data directory, and a minimal
//! HTTP/1.1 client, so the tests go through real sockets like a browser does.

#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use koma_server::{App, Config, Limits};
use serde_json::Value;

/// A running test server.
pub struct TestServer {
    pub addr: SocketAddr,
    pub app: std::sync::Arc<App>,
    runtime: Option<tokio::runtime::Runtime>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

/// A fresh, empty data directory under the build's temporary directory (`target/tmp`).
pub fn temp_dir(name: &str) -> PathBuf {
    let d = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "koma-server-test-{name}-{}-{}",
        std::process::id(),
        koma_server::request::random_id()
    ));
    std::fs::create_dir_all(&d).unwrap();
    d
}

impl TestServer {
    pub fn start(dir: &Path, limits: Limits) -> TestServer {
        let mut config = Config::new("127.0.0.1:0".parse().unwrap(), dir.to_owned());
        config.limits = limits;
        let app = std::sync::Arc::new(App::open(&config).unwrap());
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let listener = runtime
            .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
            .unwrap();
        let addr = listener.local_addr().unwrap();
        let router = app.router();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        runtime.spawn(async move {
            axum::serve(listener, router)
                .with_graceful_shutdown(async {
                    let _ = stopped.await;
                })
                .await
                .unwrap();
        });
        TestServer {
            addr,
            app,
            runtime: Some(runtime),
            stop: Some(stop),
        }
    }

    /// Stops serving and stops the jobs (they are checkpointed and re-queued).
    pub fn stop(mut self) {
        self.shutdown();
    }

    fn shutdown(&mut self) {
        if let Some(s) = self.stop.take() {
            let _ = s.send(());
        }
        self.app.shutdown();
        if let Some(rt) = self.runtime.take() {
            rt.shutdown_timeout(Duration::from_secs(5));
        }
    }

    pub fn get(&self, path: &str) -> Resp {
        self.request("GET", path, None, &[])
    }

    pub fn post(&self, path: &str, body: &Value) -> Resp {
        self.request("POST", path, Some(&body.to_string()), &[])
    }

    pub fn post_as(&self, session: &str, path: &str, body: &Value) -> Resp {
        self.request(
            "POST",
            path,
            Some(&body.to_string()),
            &[("X-Koma-Session", session)],
        )
    }

    /// A request with the page's headers (Host, and Content-Type for a body) plus `extra`.
    pub fn request(
        &self,
        method: &str,
        path: &str,
        body: Option<&str>,
        extra: &[(&str, &str)],
    ) -> Resp {
        let mut head = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
        if !extra.iter().any(|(k, _)| k.eq_ignore_ascii_case("host")) {
            head += &format!("Host: {}\r\n", self.addr);
        }
        if body.is_some()
            && !extra
                .iter()
                .any(|(k, _)| k.eq_ignore_ascii_case("content-type"))
        {
            head += "Content-Type: application/json\r\n";
        }
        for (k, v) in extra {
            head += &format!("{k}: {v}\r\n");
        }
        let body = body.unwrap_or("");
        head += &format!("Content-Length: {}\r\n\r\n", body.len());
        raw(self.addr, &(head + body))
    }

    /// Waits (at most `secs`) until the job's state is final; returns the job.
    pub fn wait_job(&self, id: i64, secs: u64) -> Value {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            let j = self.get(&format!("/api/jobs/{id}")).json();
            if ["done", "failed", "cancelled"].contains(&j["state"].as_str().unwrap_or("")) {
                return j;
            }
            assert!(Instant::now() < deadline, "job {id} not finished: {j}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits until `pred` holds for the job.
    pub fn wait_until(&self, id: i64, secs: u64, pred: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            let j = self.get(&format!("/api/jobs/{id}")).json();
            if pred(&j) {
                return j;
            }
            assert!(
                Instant::now() < deadline,
                "job {id}: condition not met: {j}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// An answer.
#[derive(Debug)]
pub struct Resp {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Resp {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {} {}", self.status, self.body))
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Asserts the status and a JSON error with this code; returns the error object.
    pub fn error(&self, status: u16, code: &str) -> Value {
        assert_eq!(self.status, status, "{}", self.body);
        let e = self.json()["error"].clone();
        assert_eq!(e["code"], code, "{}", self.body);
        assert!(
            e["message"].as_str().is_some_and(|m| m.len() > 10),
            "no message a person can act on: {}",
            self.body
        );
        e
    }
}

/// Sends raw request text and reads the whole answer (the server closes the connection).
pub fn raw(addr: SocketAddr, text: &str) -> Resp {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    s.write_all(text.as_bytes()).unwrap();
    let mut buf = Vec::new();
    let _ = s.read_to_end(&mut buf);
    parse(&buf)
}

fn parse(buf: &[u8]) -> Resp {
    let split = buf
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or(buf.len());
    let head = String::from_utf8_lossy(&buf[..split]);
    let body = buf.get(split + 4..).unwrap_or(&[]);
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned()))
        .collect();
    let chunked = headers
        .iter()
        .any(|(k, v)| k.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked"));
    let body = if chunked {
        dechunk(body)
    } else {
        body.to_vec()
    };
    Resp {
        status,
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    }
}

fn dechunk(mut s: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(line_end) = s.windows(2).position(|w| w == b"\r\n") {
        let size = String::from_utf8_lossy(&s[..line_end]);
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        let rest = &s[line_end + 2..];
        if n == 0 || rest.len() < n {
            break;
        }
        out.extend_from_slice(&rest[..n]);
        s = rest[n..].strip_prefix(b"\r\n").unwrap_or(&rest[n..]);
    }
    out
}

/// Limits for tests: the defaults.
pub fn limits() -> Limits {
    Limits::default()
}
