//! koma-server: the koma workbench, an HTTP server with a JSON API and an embedded web front
//! end over the koma libraries (`koma serve` is a thin front end over [`serve`]).
//!
//! * The API ([`api::router`]): position analysis (koma-core), records (koma-record), tsume
//!   solving and checking (koma-tsume) and placement runs (koma-place) as jobs, hasami games
//!   (koma-hasami); an OpenAPI document generated from the code at `/api/openapi.json`.
//! * Jobs ([`jobs`]) and their results live in an embedded SQLite database in the data
//!   directory ([`db`]), so a restart loses nothing: finished results stay, an interrupted
//!   count resumes from its finished tasks, a job that cannot resume is marked failed.
//! * Limits ([`Limits`]): body size, job time and memory, a bounded queue (429 when full), a few running
//!   jobs per session. Requests whose `Host` is not a loopback name or whose `Origin` is another
//!   site are refused (DNS rebinding, cross-site requests).
//! * The front end (TypeScript and SVG, built into `web/dist`) is embedded in the binary.
//!
//! ```no_run
//! # async fn run() -> Result<(), koma_server::ServerError> {
//! let config = koma_server::Config::new("127.0.0.1:8080".parse().unwrap(), "/tmp/koma".into());
//! koma_server::serve(config, async { let _ = tokio::signal::ctrl_c().await; }).await
//! # }
//! ```

#![warn(missing_docs)]

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

pub mod api;
mod assets;
pub mod db;
mod error;
mod guard;
pub mod hasami;
pub mod jobs;
pub mod place;
pub mod position;
pub mod record;
pub mod request;
pub mod tsume;

pub use error::{ApiError, ErrorBody, ErrorDetail};

/// The server's limits. [`Limits::default`] gives the values `koma serve` uses.
#[derive(Debug, Clone)]
pub struct Limits {
    /// Largest request body accepted, in bytes (413 above it).
    pub max_body_bytes: usize,
    /// Jobs waiting in the queue, in all (429 above it).
    pub queue_capacity: usize,
    /// Jobs waiting in the queue, per session (429 above it).
    pub queue_per_session: usize,
    /// Jobs running at once, in all.
    pub running_total: usize,
    /// Jobs running at once, per session.
    pub running_per_session: usize,
    /// Worker threads each job's solver uses.
    pub job_threads: usize,
    /// Most placements an `all` run stores.
    pub place_solutions_max: u64,
    /// Longest a placement run may take (a count resumes past it only by a new job).
    pub place_time_limit: Duration,
    /// Longest a hasami agent may think for one move.
    pub hasami_think: Duration,
    /// Longest a tsume solve or check may take.
    pub tsume_time_limit: Duration,
    /// Memory of a tsume job's transposition table, in MiB.
    pub tsume_hash_mib: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_body_bytes: 1 << 20,
            queue_capacity: 64,
            queue_per_session: 16,
            running_total: 2,
            running_per_session: 2,
            job_threads: 1,
            place_solutions_max: 100_000,
            place_time_limit: Duration::from_secs(6 * 3600),
            hasami_think: Duration::from_secs(5),
            tsume_time_limit: Duration::from_secs(300),
            tsume_hash_mib: 256,
        }
    }
}

/// How to run the server.
#[derive(Debug, Clone)]
pub struct Config {
    /// Address to listen on (loopback by default in `koma serve`).
    pub addr: SocketAddr,
    /// Directory of the database (created when missing).
    pub data_dir: PathBuf,
    /// Host names accepted in the `Host` header besides `localhost`, `127.0.0.1`, `::1` and
    /// the listening address.
    pub extra_hosts: Vec<String>,
    /// The limits.
    pub limits: Limits,
}

impl Config {
    /// A configuration with the default limits and no extra host names.
    pub fn new(addr: SocketAddr, data_dir: PathBuf) -> Config {
        Config {
            addr,
            data_dir,
            extra_hosts: Vec::new(),
            limits: Limits::default(),
        }
    }
}

/// The user's data directory for koma (`$XDG_DATA_HOME/koma`, `~/.local/share/koma`, and the
/// platform's equivalent elsewhere), or `./koma-data` when none is known.
pub fn default_data_dir() -> PathBuf {
    dirs::data_dir().map_or_else(|| PathBuf::from("koma-data"), |d| d.join("koma"))
}

/// Why the server could not start or run.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The data directory could not be created.
    #[error("data directory {path}: {source}")]
    DataDir {
        /// The directory.
        path: PathBuf,
        /// The failure.
        source: std::io::Error,
    },
    /// The database could not be opened or migrated.
    #[error("database in {path}: {source}")]
    Db {
        /// The data directory.
        path: PathBuf,
        /// The failure.
        source: db::DbError,
    },
    /// The address could not be listened on.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// The failure.
        source: std::io::Error,
    },
    /// Serving failed.
    #[error("serving failed: {0}")]
    Io(#[from] std::io::Error),
}

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    /// The database.
    pub db: Arc<db::Db>,
    /// The job system.
    pub jobs: Arc<jobs::Jobs>,
    /// The limits.
    pub limits: Arc<Limits>,
    /// Host names accepted in `Host` and `Origin`.
    pub hosts: Arc<Vec<String>>,
    /// Becomes true when the server shuts down (ends event streams).
    pub shutdown: tokio::sync::watch::Receiver<bool>,
    /// The learned hasami model, loaded on first use.
    pub hasami_model: Arc<OnceLock<Arc<koma_hasami::ntuple::NTuple>>>,
    /// Bounds hasami agent moves running at once.
    pub think_slots: Arc<tokio::sync::Semaphore>,
}

/// A server opened on its data directory: database migrated, interrupted jobs recovered, the
/// scheduler running. [`App::router`] gives the HTTP service; [`App::shutdown`] stops the jobs.
pub struct App {
    state: AppState,
    shutdown_tx: tokio::sync::watch::Sender<bool>,
}

impl App {
    /// Opens the data directory and starts the job system.
    pub fn open(config: &Config) -> Result<App, ServerError> {
        std::fs::create_dir_all(&config.data_dir).map_err(|source| ServerError::DataDir {
            path: config.data_dir.clone(),
            source,
        })?;
        let db_err = |source| ServerError::Db {
            path: config.data_dir.clone(),
            source,
        };
        let db = Arc::new(db::Db::open(&config.data_dir).map_err(db_err)?);
        jobs::recover(&db).map_err(db_err)?;
        let jobs = jobs::Jobs::start(Arc::clone(&db), config.limits.clone(), run_job)?;
        let mut hosts: Vec<String> = ["localhost", "127.0.0.1", "::1"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        if !config.addr.ip().is_unspecified() {
            hosts.push(config.addr.ip().to_string());
        }
        hosts.extend(config.extra_hosts.iter().map(|h| h.to_ascii_lowercase()));
        let mut seen = std::collections::HashSet::new();
        hosts.retain(|h| seen.insert(h.clone()));
        let (shutdown_tx, shutdown) = tokio::sync::watch::channel(false);
        Ok(App {
            state: AppState {
                db,
                jobs,
                limits: Arc::new(config.limits.clone()),
                hosts: Arc::new(hosts),
                shutdown,
                hasami_model: Arc::new(OnceLock::new()),
                think_slots: Arc::new(tokio::sync::Semaphore::new(
                    config.limits.running_total.max(1),
                )),
            },
            shutdown_tx,
        })
    }

    /// The HTTP service: API, OpenAPI document and front end, behind the guards and limits.
    pub fn router(&self) -> axum::Router {
        api::router(self.state.clone())
    }

    /// The shared state (for tests).
    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// Ends event streams and stops running jobs, which keep their checkpoints and go back to
    /// the queue for the next start.
    pub fn shutdown(&self) {
        let _ = self.shutdown_tx.send(true);
        self.state.jobs.shutdown();
    }
}

/// Runs a job by its kind's module: the one place that knows every kind of job.
fn run_job(kind: jobs::JobKind, ctx: &jobs::JobCtx<'_>) -> jobs::JobOutcome {
    match kind {
        jobs::JobKind::Place => place::run_job(ctx),
        jobs::JobKind::Tsume => tsume::run_job(ctx),
    }
}

/// Serves until `signal` completes, then shuts down gracefully: event streams end, running
/// jobs are stopped and checkpointed. Prints the address to open.
pub async fn serve(
    config: Config,
    signal: impl std::future::Future<Output = ()> + Send + 'static,
) -> Result<(), ServerError> {
    let app = App::open(&config)?;
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .map_err(|source| ServerError::Bind {
            addr: config.addr,
            source,
        })?;
    let addr = listener.local_addr()?;
    let shown = if addr.ip().is_unspecified() {
        SocketAddr::new([127, 0, 0, 1].into(), addr.port())
    } else {
        addr
    };
    println!(
        "koma workbench: open http://{shown}/  (data: {})",
        config.data_dir.display()
    );
    let (stop_tx, stop_rx) = tokio::sync::oneshot::channel::<()>();
    let shutdown_tx = app.shutdown_tx.clone();
    let graceful = async move {
        signal.await;
        // End the event streams first: graceful shutdown waits for open connections.
        let _ = shutdown_tx.send(true);
        let _ = stop_tx.send(());
    };
    let router = app.router();
    let server = axum::serve(listener, router).with_graceful_shutdown(graceful);
    let result = server.await;
    let _ = stop_rx.await;
    let jobs = Arc::clone(&app.state.jobs);
    tokio::task::spawn_blocking(move || jobs.shutdown())
        .await
        .map_err(std::io::Error::other)?;
    eprintln!(
        "koma workbench: stopped; running jobs were checkpointed and resume at the next start"
    );
    Ok(result?)
}
