//! The embedded SQLite database in the data directory: jobs, their progress and results, the
//! placement checkpoints and solutions, and hasami games. Schema changes are numbered
//! migrations applied in order at open (`PRAGMA user_version` holds how many ran).

use std::path::Path;
use std::sync::{Mutex, MutexGuard};
use std::time::{SystemTime, UNIX_EPOCH};

use rusqlite::{Connection, OptionalExtension, params};

/// A failure of the database.
#[derive(Debug, thiserror::Error)]
pub enum DbError {
    /// SQLite reported an error.
    #[error("{0}")]
    Sqlite(#[from] rusqlite::Error),
    /// The database was written by a newer koma with a schema this one does not know.
    #[error(
        "the database has schema version {found}, newer than this koma knows ({known}); \
         use a newer koma or another data directory"
    )]
    TooNew {
        /// Version found in the file.
        found: i64,
        /// Newest version this build knows.
        known: i64,
    },
    /// A stored JSON value could not be read back.
    #[error("a stored value is not valid JSON: {0}")]
    Json(#[from] serde_json::Error),
}

/// The migrations, in order. Never edit one that has shipped: append a new one.
const MIGRATIONS: &[&str] = &[
    // 1: jobs, placement checkpoints and solutions, hasami games.
    "CREATE TABLE jobs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        kind TEXT NOT NULL,
        session TEXT NOT NULL,
        state TEXT NOT NULL,
        params TEXT NOT NULL,
        progress TEXT,
        result TEXT,
        error TEXT,
        restarts INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        started_at INTEGER,
        finished_at INTEGER
    );
    CREATE INDEX jobs_by_state ON jobs(state, id);
    CREATE INDEX jobs_by_session ON jobs(session, id);
    CREATE TABLE place_tasks (
        job INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
        task INTEGER NOT NULL,
        tasks INTEGER NOT NULL,
        count TEXT NOT NULL,
        mirror_fixed TEXT NOT NULL,
        nodes INTEGER NOT NULL,
        PRIMARY KEY (job, task)
    );
    CREATE TABLE place_solutions (
        job INTEGER NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
        idx INTEGER NOT NULL,
        sfen TEXT NOT NULL,
        PRIMARY KEY (job, idx)
    );
    CREATE TABLE hasami_games (
        id TEXT PRIMARY KEY,
        session TEXT NOT NULL,
        agent TEXT NOT NULL,
        human TEXT NOT NULL,
        ply_limit INTEGER NOT NULL,
        record TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
    );",
];

/// Seconds since the Unix epoch.
pub fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// The database: one connection behind a mutex (every statement is short).
pub struct Db {
    conn: Mutex<Connection>,
}

/// A job as stored, and as the API shows it (`JobView`).
#[derive(Debug, Clone, serde::Serialize, utoipa::ToSchema)]
#[schema(as = JobView)]
pub struct JobRow {
    /// The job's number.
    pub id: i64,
    /// `place` or `tsume`.
    pub kind: String,
    /// The session that submitted it (not shown).
    #[serde(skip)]
    pub session: String,
    /// `queued`, `running`, `done`, `failed` or `cancelled`.
    pub state: String,
    /// Its parameters, as submitted and checked by the server.
    #[schema(value_type = Object)]
    pub params: serde_json::Value,
    /// The latest progress (kind-specific; counts as decimal strings).
    #[schema(value_type = Option<Object>)]
    pub progress: Option<serde_json::Value>,
    /// The result, once `done` (kind-specific).
    #[schema(value_type = Option<Object>)]
    pub result: Option<serde_json::Value>,
    /// Why it failed or was cancelled, or a note on an interruption it recovered from.
    pub error: Option<JobNote>,
    /// Times it was started again after an interruption.
    pub restarts: i64,
    /// Submitted, started, finished (Unix seconds).
    pub created_at: i64,
    /// See `created_at`.
    pub started_at: Option<i64>,
    /// See `created_at`.
    pub finished_at: Option<i64>,
}

impl JobRow {
    /// True once the job will not change any more.
    pub fn is_final(&self) -> bool {
        matches!(self.state.as_str(), "done" | "failed" | "cancelled")
    }
}

/// A finished placement count task, as the checkpoint keeps it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlaceTaskRow {
    /// Task number.
    pub task: usize,
    /// Tasks in the split it belongs to.
    pub tasks: usize,
    /// Placements it found.
    pub count: u128,
    /// Of those, placements equal to their mirror image.
    pub mirror_fixed: u128,
    /// Nodes it visited.
    pub nodes: u64,
}

/// A stored hasami game.
#[derive(Debug, Clone)]
pub struct GameRow {
    /// Its id.
    pub id: String,
    /// The session that created it.
    pub session: String,
    /// The opponent agent's name.
    pub agent: String,
    /// The colour the person plays: `b`, `w` or `both`.
    pub human: String,
    /// Ply limit.
    pub ply_limit: u32,
    /// The game as `position ... moves ...`.
    pub record: String,
}

/// Why a job failed or was cancelled, or a note on an interruption, as stored and served: the
/// shape of the API's errors (`code`, `message`, `field`), rendered from the job's typed error
/// ([`crate::jobs::JobError`]).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
pub struct JobNote {
    /// A stable machine-readable code, e.g. `bad_pieces`, `interrupted`, `internal`.
    pub code: String,
    /// One sentence for a person.
    pub message: String,
    /// The job parameter it is about, when there is one (`pieces`, `sfen`, `expected`).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub field: Option<String>,
}

impl JobNote {
    /// Reads a stored note; a plain sentence (what databases written before notes were typed
    /// hold) reads as one with the code `error`.
    fn from_stored(text: String) -> JobNote {
        serde_json::from_str(&text).unwrap_or(JobNote {
            code: "error".to_owned(),
            message: text,
            field: None,
        })
    }

    fn to_stored(&self) -> String {
        serde_json::json!(self).to_string()
    }
}

const JOB_COLUMNS: &str = "id, kind, session, state, params, progress, result, error, restarts, \
                           created_at, started_at, finished_at";

fn job_from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<(JobRow, [Option<String>; 3])> {
    let params: String = r.get(4)?;
    Ok((
        JobRow {
            id: r.get(0)?,
            kind: r.get(1)?,
            session: r.get(2)?,
            state: r.get(3)?,
            params: serde_json::Value::Null,
            progress: None,
            result: None,
            error: r.get::<_, Option<String>>(7)?.map(JobNote::from_stored),
            restarts: r.get(8)?,
            created_at: r.get(9)?,
            started_at: r.get(10)?,
            finished_at: r.get(11)?,
        },
        [Some(params), r.get(5)?, r.get(6)?],
    ))
}

fn decode(row: (JobRow, [Option<String>; 3])) -> Result<JobRow, DbError> {
    let (mut job, [params, progress, result]) = row;
    let parse = |t: Option<String>| -> Result<Option<serde_json::Value>, DbError> {
        Ok(match t {
            Some(t) => Some(serde_json::from_str(&t)?),
            None => None,
        })
    };
    job.params = parse(params)?.unwrap_or(serde_json::Value::Null);
    job.progress = parse(progress)?;
    job.result = parse(result)?;
    Ok(job)
}

impl Db {
    /// Opens (creating) `koma.sqlite3` in `dir` and brings its schema up to date.
    pub fn open(dir: &Path) -> Result<Db, DbError> {
        Db::with_connection(Connection::open(dir.join("koma.sqlite3"))?)
    }

    /// An in-memory database (for tests).
    pub fn open_in_memory() -> Result<Db, DbError> {
        Db::with_connection(Connection::open_in_memory()?)
    }

    fn with_connection(mut conn: Connection) -> Result<Db, DbError> {
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        migrate(&mut conn)?;
        Ok(Db {
            conn: Mutex::new(conn),
        })
    }

    fn conn(&self) -> MutexGuard<'_, Connection> {
        self.conn.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The schema version in force.
    pub fn schema_version(&self) -> Result<i64, DbError> {
        Ok(self
            .conn()
            .query_row("PRAGMA user_version", [], |r| r.get(0))?)
    }

    /// Stores a new queued job and returns its number.
    pub fn insert_job(
        &self,
        kind: &str,
        session: &str,
        params: &serde_json::Value,
    ) -> Result<i64, DbError> {
        let conn = self.conn();
        conn.execute(
            "INSERT INTO jobs (kind, session, state, params, created_at) \
             VALUES (?1, ?2, 'queued', ?3, ?4)",
            params![kind, session, params.to_string(), now()],
        )?;
        Ok(conn.last_insert_rowid())
    }

    /// One job.
    pub fn job(&self, id: i64) -> Result<Option<JobRow>, DbError> {
        let row = self
            .conn()
            .query_row(
                &format!("SELECT {JOB_COLUMNS} FROM jobs WHERE id = ?1"),
                [id],
                job_from_row,
            )
            .optional()?;
        row.map(decode).transpose()
    }

    /// Jobs in a state, oldest first.
    pub fn jobs_in_state(&self, state: &str) -> Result<Vec<JobRow>, DbError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(&format!(
            "SELECT {JOB_COLUMNS} FROM jobs WHERE state = ?1 ORDER BY id"
        ))?;
        let rows = stmt.query_map([state], job_from_row)?;
        rows.map(|r| decode(r?)).collect()
    }

    /// The newest jobs of a session, newest first.
    pub fn session_jobs(&self, session: &str, limit: u32) -> Result<Vec<JobRow>, DbError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(&format!(
            "SELECT {JOB_COLUMNS} FROM jobs WHERE session = ?1 ORDER BY id DESC LIMIT ?2"
        ))?;
        let rows = stmt.query_map(params![session, limit], job_from_row)?;
        rows.map(|r| decode(r?)).collect()
    }

    /// Queued jobs in all, and of one session.
    pub fn queued_counts(&self, session: &str) -> Result<(usize, usize), DbError> {
        Ok(self.conn().query_row(
            "SELECT COUNT(*), COALESCE(SUM(session = ?1), 0) FROM jobs WHERE state = 'queued'",
            [session],
            |r| Ok((r.get::<_, i64>(0)? as usize, r.get::<_, i64>(1)? as usize)),
        )?)
    }

    /// Marks a job running.
    pub fn set_running(&self, id: i64) -> Result<(), DbError> {
        self.conn().execute(
            "UPDATE jobs SET state = 'running', started_at = ?2 WHERE id = ?1",
            params![id, now()],
        )?;
        Ok(())
    }

    /// Records progress.
    pub fn set_progress(&self, id: i64, progress: &serde_json::Value) -> Result<(), DbError> {
        self.conn().execute(
            "UPDATE jobs SET progress = ?2 WHERE id = ?1",
            params![id, progress.to_string()],
        )?;
        Ok(())
    }

    /// Ends a job: `done` with a result, or `failed`/`cancelled` with a reason.
    pub fn finish(
        &self,
        id: i64,
        state: &str,
        result: Option<&serde_json::Value>,
        error: Option<&JobNote>,
    ) -> Result<(), DbError> {
        self.conn().execute(
            "UPDATE jobs SET state = ?2, result = ?3, error = ?4, finished_at = ?5 WHERE id = ?1",
            params![
                id,
                state,
                result.map(|r| r.to_string()),
                error.map(JobNote::to_stored),
                now()
            ],
        )?;
        Ok(())
    }

    /// Puts a job back in the queue after an interruption, with a note saying so.
    pub fn requeue(&self, id: i64, note: &JobNote) -> Result<(), DbError> {
        self.conn().execute(
            "UPDATE jobs SET state = 'queued', error = ?2, restarts = restarts + 1 WHERE id = ?1",
            params![id, note.to_stored()],
        )?;
        Ok(())
    }

    /// The finished tasks of a placement count (its checkpoint).
    pub fn place_tasks(&self, job: i64) -> Result<Vec<PlaceTaskRow>, DbError> {
        let conn = self.conn();
        let mut stmt = conn.prepare(
            "SELECT task, tasks, count, mirror_fixed, nodes FROM place_tasks WHERE job = ?1 \
             ORDER BY task",
        )?;
        let rows = stmt.query_map([job], |r| {
            let count: String = r.get(2)?;
            let fixed: String = r.get(3)?;
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, i64>(1)?,
                count,
                fixed,
                r.get::<_, i64>(4)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (task, tasks, count, fixed, nodes) = row?;
            let bad = |what: &str| {
                rusqlite::Error::FromSqlConversionFailure(
                    0,
                    rusqlite::types::Type::Text,
                    format!("place_tasks of job {job}: bad {what}").into(),
                )
            };
            out.push(PlaceTaskRow {
                task: task as usize,
                tasks: tasks as usize,
                count: count.parse().map_err(|_| bad("count"))?,
                mirror_fixed: fixed.parse().map_err(|_| bad("mirror_fixed"))?,
                nodes: nodes as u64,
            });
        }
        Ok(out)
    }

    /// Records finished placement count tasks, in one transaction.
    pub fn add_place_tasks(&self, job: i64, rows: &[PlaceTaskRow]) -> Result<(), DbError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        {
            let mut stmt = tx.prepare_cached(
                "INSERT OR REPLACE INTO place_tasks (job, task, tasks, count, mirror_fixed, nodes) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?;
            for r in rows {
                stmt.execute(params![
                    job,
                    r.task as i64,
                    r.tasks as i64,
                    r.count.to_string(),
                    r.mirror_fixed.to_string(),
                    r.nodes as i64
                ])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// Removes a job's stored placement solutions (before an enumeration starts again).
    pub fn clear_place_solutions(&self, job: i64) -> Result<(), DbError> {
        self.conn()
            .execute("DELETE FROM place_solutions WHERE job = ?1", [job])?;
        Ok(())
    }

    /// Appends placement solutions, numbered from `first`.
    pub fn add_place_solutions(
        &self,
        job: i64,
        first: u64,
        sfens: &[String],
    ) -> Result<(), DbError> {
        let mut conn = self.conn();
        let tx = conn.transaction()?;
        {
            let mut stmt = tx.prepare_cached(
                "INSERT OR REPLACE INTO place_solutions (job, idx, sfen) VALUES (?1, ?2, ?3)",
            )?;
            for (i, s) in sfens.iter().enumerate() {
                stmt.execute(params![job, (first + i as u64) as i64, s])?;
            }
        }
        tx.commit()?;
        Ok(())
    }

    /// A page of placement solutions: up to `limit` from index `cursor` on, and the total stored.
    pub fn place_solutions(
        &self,
        job: i64,
        cursor: u64,
        limit: u32,
    ) -> Result<(Vec<(u64, String)>, u64), DbError> {
        let conn = self.conn();
        let mut stmt = conn.prepare_cached(
            "SELECT idx, sfen FROM place_solutions WHERE job = ?1 AND idx >= ?2 ORDER BY idx \
             LIMIT ?3",
        )?;
        let rows = stmt.query_map(params![job, cursor as i64, limit], |r| {
            Ok((r.get::<_, i64>(0)? as u64, r.get::<_, String>(1)?))
        })?;
        let page = rows.collect::<Result<Vec<_>, _>>()?;
        let total: i64 = conn.query_row(
            "SELECT COUNT(*) FROM place_solutions WHERE job = ?1",
            [job],
            |r| r.get(0),
        )?;
        Ok((page, total as u64))
    }

    /// Stores a new hasami game.
    pub fn insert_game(&self, g: &GameRow) -> Result<(), DbError> {
        let t = now();
        self.conn().execute(
            "INSERT INTO hasami_games (id, session, agent, human, ply_limit, record, created_at, \
             updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)",
            params![g.id, g.session, g.agent, g.human, g.ply_limit, g.record, t],
        )?;
        Ok(())
    }

    /// Replaces a game's record if it is still `old`; false when another writer changed it.
    pub fn update_game(&self, id: &str, old: &str, new: &str) -> Result<bool, DbError> {
        let n = self.conn().execute(
            "UPDATE hasami_games SET record = ?3, updated_at = ?4 WHERE id = ?1 AND record = ?2",
            params![id, old, new, now()],
        )?;
        Ok(n == 1)
    }

    /// A stored hasami game.
    pub fn game(&self, id: &str) -> Result<Option<GameRow>, DbError> {
        Ok(self
            .conn()
            .query_row(
                "SELECT id, session, agent, human, ply_limit, record FROM hasami_games WHERE id = ?1",
                [id],
                |r| {
                    Ok(GameRow {
                        id: r.get(0)?,
                        session: r.get(1)?,
                        agent: r.get(2)?,
                        human: r.get(3)?,
                        ply_limit: r.get(4)?,
                        record: r.get(5)?,
                    })
                },
            )
            .optional()?)
    }
}

fn migrate(conn: &mut Connection) -> Result<(), DbError> {
    let known = MIGRATIONS.len() as i64;
    let found: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    if found > known {
        return Err(DbError::TooNew { found, known });
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(found as usize) {
        let tx = conn.transaction()?;
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", i as i64 + 1)?;
        tx.commit()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn job_notes_read_back_typed_and_from_plain_text() {
        let note = JobNote {
            code: "bad_pieces".into(),
            message: "pieces: x".into(),
            field: Some("pieces".into()),
        };
        assert_eq!(JobNote::from_stored(note.to_stored()), note);
        let old = JobNote::from_stored("cancelled while running".into());
        assert_eq!(
            (old.code.as_str(), old.message.as_str()),
            ("error", "cancelled while running")
        );
    }

    #[test]
    fn migrations_run_once_and_newer_schemas_are_refused() {
        let dir = std::env::temp_dir().join(format!("koma-db-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        {
            let db = Db::open(&dir).unwrap();
            assert_eq!(db.schema_version().unwrap(), MIGRATIONS.len() as i64);
            db.insert_job("place", "s", &serde_json::json!({"pieces": "R"}))
                .unwrap();
        }
        // Opening again keeps the data and runs nothing twice.
        let db = Db::open(&dir).unwrap();
        assert_eq!(db.jobs_in_state("queued").unwrap().len(), 1);
        db.conn().pragma_update(None, "user_version", 99).unwrap();
        drop(db);
        let err = Db::open(&dir).err().unwrap();
        assert!(matches!(err, DbError::TooNew { found: 99, .. }), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn place_tasks_keep_counts_beyond_u64() {
        let db = Db::open_in_memory().unwrap();
        let job = db.insert_job("place", "s", &serde_json::json!({})).unwrap();
        let big = PlaceTaskRow {
            task: 3,
            tasks: 10,
            count: 1_881_364_205_598_115_808_000,
            mirror_fixed: 7,
            nodes: 12,
        };
        db.add_place_tasks(job, &[big]).unwrap();
        assert_eq!(db.place_tasks(job).unwrap(), vec![big]);
    }
}
