//! Long work as jobs: a bounded queue in the database, a scheduler that starts queued jobs
//! fairly (a few running per session, oldest first), worker threads with cancel, progress kept
//! in memory and written to the database, and recovery of interrupted jobs at start.

use std::collections::HashMap;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::Limits;
use crate::db::{Db, DbError, JobNote, JobRow};
use crate::error::ApiError;

/// The kinds of job, by the name stored in the database.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JobKind {
    /// A placement count or enumeration (koma-place).
    Place,
    /// A tsume solve or check (koma-tsume).
    Tsume,
}

impl JobKind {
    /// The stored name.
    pub fn name(self) -> &'static str {
        match self {
            JobKind::Place => "place",
            JobKind::Tsume => "tsume",
        }
    }

    fn from_name(name: &str) -> Option<JobKind> {
        match name {
            "place" => Some(JobKind::Place),
            "tsume" => Some(JobKind::Tsume),
            _ => None,
        }
    }
}

/// How many times a job is started again after interruptions before it is given up (a job that
/// brings the server down each time must not do so forever).
const MAX_RESTARTS: i64 = 3;

/// Why a running job was asked to stop.
const STOP_NONE: u8 = 0;
const STOP_CANCEL: u8 = 1;
const STOP_SHUTDOWN: u8 = 2;

/// What a job's code sees: its parameters, the database, the limits, the cancel flag and a
/// progress reporter.
pub struct JobCtx<'a> {
    /// The job's number.
    pub id: i64,
    /// Its checked parameters.
    pub params: &'a serde_json::Value,
    /// How many times it was started before (0 for the first run).
    pub restarts: i64,
    /// The database, for checkpoints and partial results.
    pub db: &'a Db,
    /// The server's limits.
    pub limits: &'a Limits,
    /// Set when the job must stop (cancel or shutdown); solvers poll it.
    pub cancel: &'a AtomicBool,
    progress: &'a Mutex<Option<serde_json::Value>>,
    saved: Mutex<Option<Instant>>,
}

impl JobCtx<'_> {
    /// Reports progress: kept in memory for readers at once, written to the database at most
    /// once a second.
    pub fn progress(&self, value: serde_json::Value) {
        let mut saved = self.saved.lock().unwrap_or_else(|e| e.into_inner());
        if saved.is_none_or(|t| t.elapsed() >= Duration::from_secs(1)) {
            *saved = Some(Instant::now());
            // Progress is advisory: a failed write is retried with the next report.
            let _ = self.db.set_progress(self.id, &value);
        }
        *self.progress.lock().unwrap_or_else(|e| e.into_inner()) = Some(value);
    }
}

/// What a job's run gives: a result, or why it failed.
pub type JobOutcome = Result<serde_json::Value, JobError>;

/// Why a job did not give a result (or, for [`JobError::Interrupted`], why it runs again): the
/// libraries' errors kept typed until they are stored as a [`JobNote`] (`code`, `message`,
/// `field`) for the API.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum JobError {
    /// The parameters stored with the job do not read back (a database from another koma).
    #[error("the stored job parameters cannot be read: {0}")]
    Params(#[from] serde_json::Error),
    /// The placement's piece set is not one koma-place accepts.
    #[error("pieces: {0}")]
    Pieces(#[from] koma_place::PlaceError),
    /// The problem's SFEN is not a legal position.
    #[error("sfen: {0}")]
    Sfen(#[from] koma_core::FromSfenError),
    /// The problem's position is legal but no mate problem.
    #[error("sfen: {0}")]
    NotAProblem(#[from] koma_tsume::NotAProblem),
    /// A parameter the request checks (the expected answer's moves) failed its check.
    #[error("{}", .0.detail().message)]
    Request(ApiError),
    /// The database failed while the job wrote its checkpoint or results.
    #[error("{during}: {source}")]
    Db {
        /// What the job was doing (`the checkpoint database failed`, ...).
        during: &'static str,
        /// The database's error.
        source: DbError,
    },
    /// A placement count resumed from a checkpoint of a search split another way.
    #[error(
        "the checkpoint was written for a search split into {checkpoint} tasks, this one has \
         {now}; start the count again as a new job"
    )]
    SplitChanged {
        /// Tasks in the checkpoint.
        checkpoint: usize,
        /// Tasks in this search.
        now: usize,
    },
    /// A job of a kind this koma does not know (a database from another koma).
    #[error("unknown job kind {0:?}")]
    UnknownKind(String),
    /// The job's code panicked: a bug in koma.
    #[error("the job failed inside koma (a bug; please report it): {0}")]
    Panic(String),
    /// Cancelled by its session, before it started (`running: false`) or while it ran.
    #[error("cancelled {}", if *running { "while running" } else { "before it started" })]
    Cancelled {
        /// Whether it was running.
        running: bool,
    },
    /// The server stopped while it ran; it runs again (or resumes) at the next start.
    #[error("{}", if *crashed {
        "interrupted when the server stopped; resumed at the next start"
    } else {
        "interrupted when the server stopped; it resumes when the server starts again"
    })]
    Interrupted {
        /// Whether the server was killed (found at start), rather than stopped in order.
        crashed: bool,
    },
    /// Interrupted too often to be started again.
    #[error(
        "interrupted {times} times (the server stopped while it ran each time); not started again"
    )]
    GivenUp {
        /// How many times it was interrupted.
        times: i64,
    },
    /// Interrupted, and of a kind this koma cannot resume.
    #[error("interrupted, and its kind {0:?} is unknown to this koma, so it cannot resume")]
    UnknownKindInterrupted(String),
}

impl JobError {
    /// A stable machine-readable code for the API.
    pub fn code(&self) -> &'static str {
        match self {
            JobError::Params(_) => "bad_stored_params",
            JobError::Pieces(_) => "bad_pieces",
            JobError::Sfen(_) => "bad_sfen",
            JobError::NotAProblem(_) => "not_a_problem",
            JobError::Request(e) => e.detail().code,
            JobError::Db { .. } => "database",
            JobError::SplitChanged { .. } => "checkpoint_split_changed",
            JobError::UnknownKind(_) | JobError::UnknownKindInterrupted(_) => "unknown_kind",
            JobError::Panic(_) => "internal",
            JobError::Cancelled { .. } => "cancelled",
            JobError::Interrupted { .. } => "interrupted",
            JobError::GivenUp { .. } => "interrupted_too_often",
        }
    }

    /// The job parameter the error is about, if any.
    pub fn field(&self) -> Option<&'static str> {
        match self {
            JobError::Pieces(_) => Some("pieces"),
            JobError::Sfen(_) | JobError::NotAProblem(_) => Some("sfen"),
            JobError::Request(e) => e.detail().field,
            _ => None,
        }
    }

    /// The error as stored with the job and shown by the API.
    pub fn note(&self) -> JobNote {
        JobNote {
            code: self.code().to_owned(),
            message: self.to_string(),
            field: self.field().map(str::to_owned),
        }
    }
}

/// Runs a job of a kind: the crate root hands the job system one that knows every kind, so this
/// module depends on none of them.
pub type JobRunner = fn(JobKind, &JobCtx<'_>) -> JobOutcome;

struct Running {
    session: String,
    cancel: Arc<AtomicBool>,
    stop: Arc<AtomicU8>,
    progress: Arc<Mutex<Option<serde_json::Value>>>,
}

#[derive(Default)]
struct Sched {
    running: HashMap<i64, Running>,
    shutting_down: bool,
}

/// The job system. Create with [`Jobs::start`]; stop with [`Jobs::shutdown`].
pub struct Jobs {
    db: Arc<Db>,
    limits: Limits,
    runner: JobRunner,
    sched: Mutex<Sched>,
    wake: Condvar,
    threads: Mutex<Vec<JoinHandle<()>>>,
}

/// A job as the API shows it: the stored job, with the live progress of a running one.
pub use crate::db::JobRow as JobView;

impl Jobs {
    /// Starts the scheduler thread, which runs each job with `runner`. Call [`recover`] on the
    /// database first.
    pub fn start(db: Arc<Db>, limits: Limits, runner: JobRunner) -> std::io::Result<Arc<Jobs>> {
        let jobs = Arc::new(Jobs {
            db,
            limits,
            runner,
            sched: Mutex::new(Sched::default()),
            wake: Condvar::new(),
            threads: Mutex::new(Vec::new()),
        });
        let me = Arc::clone(&jobs);
        let handle = std::thread::Builder::new()
            .name("koma-jobs".into())
            .spawn(move || me.schedule_loop())?;
        jobs.lock_threads().push(handle);
        Ok(jobs)
    }

    fn lock(&self) -> MutexGuard<'_, Sched> {
        self.sched.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn lock_threads(&self) -> MutexGuard<'_, Vec<JoinHandle<()>>> {
        self.threads.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Queues a job after checking the queue limits: a full queue answers 429.
    pub fn submit(
        &self,
        kind: JobKind,
        session: &str,
        params: &serde_json::Value,
    ) -> Result<JobView, ApiError> {
        let (all, mine) = self.db.queued_counts(session)?;
        if all >= self.limits.queue_capacity {
            return Err(ApiError::too_many(
                "queue_full",
                format!(
                    "the job queue is full ({all} jobs waiting); wait for some to finish or \
                     cancel one, then try again"
                ),
            ));
        }
        if mine >= self.limits.queue_per_session {
            return Err(ApiError::too_many(
                "session_queue_full",
                format!(
                    "you already have {mine} jobs waiting (at most {}); wait for them or cancel \
                     one",
                    self.limits.queue_per_session
                ),
            ));
        }
        let id = self.db.insert_job(kind.name(), session, params)?;
        self.wake.notify_all();
        self.view(id)?
            .ok_or_else(|| ApiError::internal("the job just stored could not be read back"))
    }

    /// A job as shown to clients, with the live progress of a running one.
    pub fn view(&self, id: i64) -> Result<Option<JobView>, DbError> {
        let Some(row) = self.db.job(id)? else {
            return Ok(None);
        };
        let live = self
            .lock()
            .running
            .get(&id)
            .and_then(|r| r.progress.lock().unwrap_or_else(|e| e.into_inner()).clone());
        let mut view = row;
        if live.is_some() {
            view.progress = live;
        }
        Ok(Some(view))
    }

    /// The newest jobs of a session.
    pub fn list(&self, session: &str) -> Result<Vec<JobView>, DbError> {
        let rows = self.db.session_jobs(session, 50)?;
        Ok(rows
            .into_iter()
            .map(|r| {
                let id = r.id;
                let mut v = r;
                if let Some(p) = self.lock().running.get(&id)
                    && let Some(live) = p.progress.lock().unwrap_or_else(|e| e.into_inner()).clone()
                {
                    v.progress = Some(live);
                }
                v
            })
            .collect())
    }

    /// Cancels a queued or running job. A finished job answers 409.
    pub fn cancel(&self, id: i64) -> Result<JobView, ApiError> {
        {
            let sched = self.lock();
            if let Some(r) = sched.running.get(&id) {
                r.stop.store(STOP_CANCEL, Ordering::SeqCst);
                r.cancel.store(true, Ordering::SeqCst);
            } else {
                let Some(row) = self.db.job(id)? else {
                    return Err(ApiError::not_found(format!("there is no job {id}")));
                };
                match row.state.as_str() {
                    "queued" => self.db.finish(
                        id,
                        "cancelled",
                        None,
                        Some(&JobError::Cancelled { running: false }.note()),
                    )?,
                    state => {
                        return Err(ApiError::conflict(
                            "job_finished",
                            format!("job {id} is already {state}; there is nothing to cancel"),
                        ));
                    }
                }
            }
        }
        self.view(id)?
            .ok_or_else(|| ApiError::not_found(format!("there is no job {id}")))
    }

    /// Stops the scheduler, asks running jobs to stop (they keep their checkpoints and go back
    /// to the queue) and waits for them.
    pub fn shutdown(&self) {
        {
            let mut sched = self.lock();
            sched.shutting_down = true;
            for r in sched.running.values() {
                r.stop.store(STOP_SHUTDOWN, Ordering::SeqCst);
                r.cancel.store(true, Ordering::SeqCst);
            }
        }
        self.wake.notify_all();
        loop {
            let handle = self.lock_threads().pop();
            match handle {
                Some(h) => {
                    let _ = h.join();
                }
                None => break,
            }
        }
    }

    /// Jobs running now, and of one session.
    pub fn running_counts(&self, session: &str) -> (usize, usize) {
        let sched = self.lock();
        let mine = sched
            .running
            .values()
            .filter(|r| r.session == session)
            .count();
        (sched.running.len(), mine)
    }

    fn schedule_loop(self: Arc<Self>) {
        let mut sched = self.lock();
        loop {
            if sched.shutting_down {
                return;
            }
            if let Err(e) = self.start_queued(&mut sched) {
                eprintln!("koma serve: the job scheduler could not read the queue: {e}");
            }
            sched = self
                .wake
                .wait_timeout(sched, Duration::from_secs(1))
                .map(|(g, _)| g)
                .unwrap_or_else(|e| e.into_inner().0);
        }
    }

    /// Starts queued jobs, oldest first, while the limits allow: at most `running_total` in
    /// all and `running_per_session` per session, so one session's queue cannot hold back
    /// another's first job.
    fn start_queued(self: &Arc<Self>, sched: &mut Sched) -> Result<(), DbError> {
        if sched.running.len() >= self.limits.running_total {
            return Ok(());
        }
        for job in self.db.jobs_in_state("queued")? {
            if sched.running.len() >= self.limits.running_total {
                break;
            }
            let mine = sched
                .running
                .values()
                .filter(|r| r.session == job.session)
                .count();
            if mine >= self.limits.running_per_session {
                continue;
            }
            self.db.set_running(job.id)?;
            let running = Running {
                session: job.session.clone(),
                cancel: Arc::new(AtomicBool::new(false)),
                stop: Arc::new(AtomicU8::new(STOP_NONE)),
                progress: Arc::new(Mutex::new(job.progress.clone())),
            };
            let (cancel, stop, progress) = (
                Arc::clone(&running.cancel),
                Arc::clone(&running.stop),
                Arc::clone(&running.progress),
            );
            sched.running.insert(job.id, running);
            let me = Arc::clone(self);
            let spawned = std::thread::Builder::new()
                .name(format!("koma-job-{}", job.id))
                .spawn(move || me.run_job(job, &cancel, &stop, &progress));
            match spawned {
                Ok(h) => {
                    let mut threads = self.lock_threads();
                    threads.retain(|t| !t.is_finished());
                    threads.push(h);
                }
                Err(e) => {
                    eprintln!("koma serve: could not start a job thread: {e}");
                    break;
                }
            }
        }
        Ok(())
    }

    fn run_job(
        self: Arc<Self>,
        job: JobRow,
        cancel: &AtomicBool,
        stop: &AtomicU8,
        progress: &Mutex<Option<serde_json::Value>>,
    ) {
        let ctx = JobCtx {
            id: job.id,
            params: &job.params,
            restarts: job.restarts,
            db: &self.db,
            limits: &self.limits,
            cancel,
            progress,
            saved: Mutex::new(None),
        };
        let outcome =
            std::panic::catch_unwind(AssertUnwindSafe(|| match JobKind::from_name(&job.kind) {
                Some(kind) => (self.runner)(kind, &ctx),
                None => Err(JobError::UnknownKind(job.kind.clone())),
            }))
            .unwrap_or_else(|panic| {
                let what = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_default();
                Err(JobError::Panic(what))
            });
        let last = progress.lock().unwrap_or_else(|e| e.into_inner()).clone();
        if let Some(p) = &last {
            let _ = self.db.set_progress(job.id, p);
        }
        let written = match (stop.load(Ordering::SeqCst), outcome) {
            (STOP_SHUTDOWN, _) => self
                .db
                .requeue(job.id, &JobError::Interrupted { crashed: false }.note()),
            (STOP_CANCEL, _) => self.db.finish(
                job.id,
                "cancelled",
                None,
                Some(&JobError::Cancelled { running: true }.note()),
            ),
            (_, Ok(result)) => self.db.finish(job.id, "done", Some(&result), None),
            (_, Err(reason)) => self.db.finish(job.id, "failed", None, Some(&reason.note())),
        };
        if let Err(e) = written {
            eprintln!(
                "koma serve: could not record the end of job {}: {e}",
                job.id
            );
        }
        self.lock().running.remove(&job.id);
        self.wake.notify_all();
    }
}

/// Jobs found `running` at start were interrupted by a crash or kill: each is queued again when
/// its kind can resume, or marked failed with the reason.
pub fn recover(db: &Db) -> Result<(), DbError> {
    for job in db.jobs_in_state("running")? {
        recover_one(db, &job)?;
    }
    Ok(())
}

fn recover_one(db: &Db, job: &JobRow) -> Result<(), DbError> {
    match JobKind::from_name(&job.kind) {
        _ if job.restarts >= MAX_RESTARTS => db.finish(
            job.id,
            "failed",
            None,
            Some(
                &JobError::GivenUp {
                    times: job.restarts + 1,
                }
                .note(),
            ),
        ),
        // A count resumes from its checkpoint; a solve starts again.
        Some(JobKind::Place | JobKind::Tsume) => {
            db.requeue(job.id, &JobError::Interrupted { crashed: true }.note())
        }
        None => db.finish(
            job.id,
            "failed",
            None,
            Some(&JobError::UnknownKindInterrupted(job.kind.clone()).note()),
        ),
    }
}
