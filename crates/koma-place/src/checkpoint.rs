//! The checkpoint of a long count: a file of JSON lines, a header naming the problem and how the
//! search is split, then one line per finished task, appended as the task finishes. Counting the
//! same problem again with the same file searches only the tasks it does not hold
//! ([`Options::resume`](crate::Options::resume)).
//!
//! ```text
//! {"koma_place_checkpoint":1,"koma":"0.1.0","pieces":"P18L4N4S4G4K2B2R2","both_ways":true,"split":512}
//! {"task":0,"of":600,"count":0,"mirror_fixed":0,"nodes":39}
//! ```
//!
//! Counts are exact JSON integers, also beyond 2⁶⁴. A board other than 9×9 adds `"files"` and
//! `"ranks"` to the header.
//!
//! ```
//! use koma_place::checkpoint::Checkpoint;
//! use koma_place::{Geometry, Options, Problem, Progress, solve};
//!
//! let problem = Problem::new("R2B2G2".parse()?, Geometry::new(5, 5)?, true)?;
//! let path = std::env::temp_dir().join(format!("koma-place-doc-{}.jsonl", std::process::id()));
//! # let _ = std::fs::remove_file(&path);
//! let count = |checkpoint: &Checkpoint| {
//!     let record = |p: Progress| checkpoint.record(&p.task, p.total);
//!     let opts = Options {
//!         split: checkpoint.split(),
//!         resume: checkpoint.resumed(),
//!         progress: Some(&record),
//!         ..Options::default()
//!     };
//!     solve(&problem, &opts, &|_| {})
//! };
//! let first = Checkpoint::open(&path, &problem, 64)?;
//! let full = count(&first);
//! first.finish(full.tasks)?;
//! // Everything is recorded now: a second run searches nothing and finds the same count.
//! let again = Checkpoint::open(&path, &problem, 64)?;
//! assert_eq!(again.resumed().len(), full.tasks);
//! let resumed = count(&again);
//! assert_eq!((resumed.count, resumed.nodes), (full.count, full.nodes));
//! # std::fs::remove_file(&path).unwrap();
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use crate::{Problem, TaskCount};

/// Format number of the checkpoint file; bumped whenever its lines change meaning.
pub const FORMAT: u32 = 1;

/// The first line: what is being counted and how the search is split.
#[derive(Serialize, Deserialize, Clone, PartialEq, Eq, Debug)]
pub struct CheckpointHeader {
    /// The format number ([`FORMAT`]), `koma_place_checkpoint` in the file.
    #[serde(rename = "koma_place_checkpoint")]
    pub format: u32,
    /// The koma-place version that wrote the file, `koma` in the file: task numbers depend on the
    /// search, so another version must not resume.
    #[serde(rename = "koma")]
    pub version: String,
    /// The piece set, spelled canonically.
    pub pieces: String,
    /// Two-directional placement.
    pub both_ways: bool,
    /// Files of the board (9 unless written).
    #[serde(default = "nine", skip_serializing_if = "is_nine")]
    pub files: u8,
    /// Ranks of the board (9 unless written).
    #[serde(default = "nine", skip_serializing_if = "is_nine")]
    pub ranks: u8,
    /// The split the search was made with ([`Options::split`](crate::Options::split)).
    pub split: usize,
}

fn nine() -> u8 {
    9
}

fn is_nine(n: &u8) -> bool {
    *n == 9
}

impl CheckpointHeader {
    /// The header of a checkpoint of `problem` searched with `split`, written by this version.
    pub fn new(problem: &Problem, split: usize) -> CheckpointHeader {
        CheckpointHeader {
            format: FORMAT,
            version: env!("CARGO_PKG_VERSION").to_owned(),
            pieces: problem.set().to_string(),
            both_ways: problem.both_ways(),
            files: problem.geometry().files(),
            ranks: problem.geometry().ranks(),
            split,
        }
    }

    /// True when both headers describe the same count, whatever their splits.
    pub fn same_problem(&self, other: &CheckpointHeader) -> bool {
        CheckpointHeader {
            split: other.split,
            ..self.clone()
        } == *other
    }
}

impl fmt::Display for CheckpointHeader {
    /// The problem, e.g. `P18L4N4S4G4K2B2R2 (both ways)` or `R2B2 on 6×6`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.pieces)?;
        if (self.files, self.ranks) != (9, 9) {
            write!(f, " on {}×{}", self.files, self.ranks)?;
        }
        if self.both_ways {
            f.write_str(" (both ways)")?;
        }
        Ok(())
    }
}

/// One finished task as the file records it.
#[derive(Serialize, Deserialize, Clone, Copy, PartialEq, Eq, Debug)]
pub struct RecordedTask {
    /// The task's number.
    pub task: usize,
    /// Tasks in the split the task belongs to.
    pub of: usize,
    /// Placements the task counted.
    pub count: u128,
    /// Of those, placements equal to their own mirror image.
    pub mirror_fixed: u128,
    /// Search nodes the task visited.
    pub nodes: u64,
}

impl RecordedTask {
    /// The task's result, to resume from.
    pub fn task_count(&self) -> TaskCount {
        TaskCount {
            task: self.task,
            count: self.count,
            mirror_fixed: self.mirror_fixed,
            nodes: self.nodes,
        }
    }
}

/// What is wrong with one line of a checkpoint file.
#[derive(Debug, thiserror::Error)]
pub enum LineError {
    /// The line could not be read.
    #[error("{0}")]
    Read(#[source] std::io::Error),
    /// The first line is not a checkpoint header (the file is something else).
    #[error("not a koma place checkpoint header: {0}")]
    NotAHeader(#[source] serde_json::Error),
    /// The header names another problem, version or format.
    #[error(
        "the checkpoint is for {found} (koma {}, format {}), not {expected} (koma {}, format {})",
        found.version, found.format, expected.version, expected.format
    )]
    OtherProblem {
        /// The file's header.
        found: Box<CheckpointHeader>,
        /// The header of the count asked for.
        expected: Box<CheckpointHeader>,
    },
    /// A line after the header (not the last) is not a task line.
    #[error("not a task line: {0}")]
    NotATask(#[source] serde_json::Error),
    /// A task number outside its split.
    #[error("task {task} of {of}")]
    TaskOutOfRange {
        /// The task number.
        task: usize,
        /// Tasks in its split.
        of: usize,
    },
}

/// A line of a checkpoint that cannot be used, and why.
#[derive(Debug, thiserror::Error)]
#[error("{line}: {error}")]
pub struct BadLine {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong with it.
    pub error: LineError,
}

/// Why a checkpoint could not be used.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    /// The file could not be opened, rewritten or appended to.
    #[error("{}: {source}", path.display())]
    Io {
        /// The checkpoint file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A line of the file is wrong; the file is left as it was.
    #[error("{}:{bad}", path.display())]
    Line {
        /// The checkpoint file.
        path: PathBuf,
        /// The line and what is wrong with it.
        bad: BadLine,
    },
    /// A finished task could not be written (the search went on; its count must not be trusted
    /// to survive another interruption).
    #[error("{}: could not record a finished task: {source}", path.display())]
    Record {
        /// The checkpoint file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// Tasks were resumed from lines written for another split of the search, so the count of
    /// this run cannot be trusted.
    #[error(
        "{}: written for a search split into {of} tasks, this one has {tasks}; the count is not reported, start a new checkpoint file",
        path.display()
    )]
    OtherSplit {
        /// The checkpoint file.
        path: PathBuf,
        /// Tasks in the split a resumed line was written for.
        of: usize,
        /// Tasks in this run's split.
        tasks: usize,
    },
}

/// Reads a checkpoint: its header, which must name the same problem as `expected` (its split may
/// differ), and its task lines. Returns no header for an empty input. A last line cut short (no
/// newline) by an interrupted write is dropped; any other fault is an error naming the line.
pub fn read(
    mut input: impl BufRead,
    expected: &CheckpointHeader,
) -> Result<(Option<CheckpointHeader>, Vec<RecordedTask>), BadLine> {
    let bad = |line, error| BadLine { line, error };
    let mut tasks = Vec::new();
    let mut header = None;
    let mut text = String::new();
    for number in 1.. {
        text.clear();
        let n = input
            .read_line(&mut text)
            .map_err(|e| bad(number, LineError::Read(e)))?;
        if n == 0 {
            break;
        }
        let whole = text.ends_with('\n');
        if header.is_none() {
            let found: CheckpointHeader =
                serde_json::from_str(&text).map_err(|e| bad(number, LineError::NotAHeader(e)))?;
            if !found.same_problem(expected) {
                let error = LineError::OtherProblem {
                    found: Box::new(found),
                    expected: Box::new(expected.clone()),
                };
                return Err(bad(number, error));
            }
            header = Some(found);
            continue;
        }
        match serde_json::from_str::<RecordedTask>(&text) {
            Ok(t) if t.task < t.of => tasks.push(t),
            Ok(t) => {
                let error = LineError::TaskOutOfRange {
                    task: t.task,
                    of: t.of,
                };
                return Err(bad(number, error));
            }
            // An interrupted write: the last line, cut short.
            Err(_) if !whole => break,
            Err(e) => return Err(bad(number, LineError::NotATask(e))),
        }
    }
    Ok((header, tasks))
}

/// An open checkpoint: what earlier runs finished, and the file new tasks are appended to.
#[derive(Debug)]
pub struct Checkpoint {
    path: PathBuf,
    split: usize,
    resumed: Vec<TaskCount>,
    /// The split size each resumed line was written for, checked against this run's.
    resumed_of: Vec<usize>,
    file: Mutex<File>,
    /// The first failed write: reported by `finish`, the search goes on.
    error: Mutex<Option<std::io::Error>>,
}

impl Checkpoint {
    /// Opens the checkpoint of `problem` at `path`: resumes from it when it exists, creates it
    /// (for a search split with `split`) otherwise.
    ///
    /// A last line cut short by an interrupted write is dropped, and the file is rewritten
    /// without it (through `FILE.rewrite`, so no other file is touched) before new lines are
    /// appended. Anything but an empty file or a checkpoint of this problem is refused and left
    /// as it was.
    ///
    /// # Errors
    /// [`CheckpointError::Line`] for a file that is not a checkpoint of `problem` or has a
    /// damaged line, [`CheckpointError::Io`] when it cannot be read or written.
    pub fn open(
        path: &Path,
        problem: &Problem,
        split: usize,
    ) -> Result<Checkpoint, CheckpointError> {
        let io = |source| CheckpointError::Io {
            path: path.to_owned(),
            source,
        };
        let here = CheckpointHeader::new(problem, split);
        let (header, tasks) = match File::open(path) {
            Ok(f) => read(BufReader::new(f), &here).map_err(|bad| CheckpointError::Line {
                path: path.to_owned(),
                bad,
            })?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => (None, Vec::new()),
            Err(e) => return Err(io(e)),
        };
        // An empty file holds nothing yet: start it.
        let header = header.unwrap_or(here);
        let mut text = json_line(&header);
        for t in &tasks {
            text += &json_line(t);
        }
        let mut rewrite = path.as_os_str().to_owned();
        rewrite.push(".rewrite");
        let rewrite = PathBuf::from(rewrite);
        std::fs::write(&rewrite, text)
            .and_then(|()| std::fs::rename(&rewrite, path))
            .map_err(io)?;
        let file = OpenOptions::new().append(true).open(path).map_err(io)?;
        Ok(Checkpoint {
            path: path.to_owned(),
            split: header.split,
            resumed: tasks.iter().map(RecordedTask::task_count).collect(),
            resumed_of: tasks.iter().map(|t| t.of).collect(),
            file: Mutex::new(file),
            error: Mutex::new(None),
        })
    }

    /// The split to search with ([`Options::split`](crate::Options::split)): the file's, when
    /// resuming.
    pub fn split(&self) -> usize {
        self.split
    }

    /// Tasks finished by earlier runs ([`Options::resume`](crate::Options::resume)).
    pub fn resumed(&self) -> &[TaskCount] {
        &self.resumed
    }

    /// Appends a finished task of a search split into `of` tasks, as one whole line written at
    /// once; safe to call from the search's progress callback on any thread. A failed write is
    /// kept for [`Checkpoint::finish`] and the search goes on.
    pub fn record(&self, task: &TaskCount, of: usize) {
        let line = json_line(&RecordedTask {
            task: task.task,
            of,
            count: task.count,
            mirror_fixed: task.mirror_fixed,
            nodes: task.nodes,
        });
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        if let Err(e) = file.write_all(line.as_bytes()) {
            self.error
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get_or_insert(e);
        }
    }

    /// Closes the checkpoint of a search that had `tasks` tasks.
    ///
    /// # Errors
    /// [`CheckpointError::Record`] when a finished task could not be written,
    /// [`CheckpointError::OtherSplit`] when resumed lines were written for another split of the
    /// search (their counts cannot be trusted).
    pub fn finish(self, tasks: usize) -> Result<(), CheckpointError> {
        if let Some(source) = self.error.into_inner().unwrap_or_else(|e| e.into_inner()) {
            return Err(CheckpointError::Record {
                path: self.path,
                source,
            });
        }
        if let Some(&of) = self.resumed_of.iter().find(|&&of| of != tasks) {
            return Err(CheckpointError::OtherSplit {
                path: self.path,
                of,
                tasks,
            });
        }
        Ok(())
    }
}

/// One JSON line (with its newline). The types written here always serialise.
fn json_line(value: &impl Serialize) -> String {
    let mut line = serde_json::to_string(value)
        .unwrap_or_else(|e| unreachable!("checkpoint lines serialise: {e}"));
    line.push('\n');
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Geometry;

    fn problem(pieces: &str, both_ways: bool) -> Problem {
        Problem::new(pieces.parse().unwrap(), Geometry::standard(), both_ways).unwrap()
    }

    fn temp(name: &str) -> PathBuf {
        let path = std::env::temp_dir().join(format!("koma-place-{}-{name}", std::process::id()));
        let _ = std::fs::remove_file(&path);
        path
    }

    fn task(task: usize) -> TaskCount {
        TaskCount {
            task,
            count: u128::from(u64::MAX) * 3 + task as u128,
            mirror_fixed: 2,
            nodes: 40,
        }
    }

    #[test]
    fn records_resume_and_a_cut_last_line_is_dropped() {
        let path = temp("resume.jsonl");
        let p = problem("R2B2", true);
        let c = Checkpoint::open(&path, &p, 16).unwrap();
        assert!(c.resumed().is_empty());
        c.record(&task(3), 20);
        c.record(&task(5), 20);
        c.finish(20).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with(
            "{\"koma_place_checkpoint\":1,\"koma\":\"0.1.0\",\"pieces\":\"B2R2\",\"both_ways\":true,\"split\":16}\n"
        ));
        // Half a third line, as a kill mid-write leaves it; another split asked for now.
        std::fs::write(&path, text.clone() + "{\"task\":7,\"of").unwrap();
        let c = Checkpoint::open(&path, &p, 99).unwrap();
        assert_eq!(c.split(), 16);
        assert_eq!(c.resumed(), [task(3), task(5)]);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        assert!(matches!(
            c.finish(21),
            Err(CheckpointError::OtherSplit {
                of: 20,
                tasks: 21,
                ..
            })
        ));
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn other_files_are_refused_and_left_alone() {
        let path = temp("other.jsonl");
        std::fs::write(&path, "my notes\n").unwrap();
        let err = Checkpoint::open(&path, &problem("R2", false), 8).unwrap_err();
        assert!(matches!(
            &err,
            CheckpointError::Line {
                bad: BadLine {
                    line: 1,
                    error: LineError::NotAHeader(_)
                },
                ..
            }
        ));
        let message = err.to_string();
        assert!(
            message.contains("other.jsonl:1: not a koma place checkpoint header: "),
            "{message}"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "my notes\n");

        std::fs::remove_file(&path).unwrap();
        Checkpoint::open(&path, &problem("R2", false), 8).unwrap();
        let err = Checkpoint::open(&path, &problem("R2", true), 8).unwrap_err();
        let CheckpointError::Line {
            bad:
                BadLine {
                    line: 1,
                    error: LineError::OtherProblem { found, expected },
                },
            ..
        } = &err
        else {
            panic!("{err}")
        };
        assert_eq!(
            (found.to_string(), expected.to_string()),
            ("R2".into(), "R2 (both ways)".into())
        );
        assert!(!err.to_string().contains("--"), "{err}");

        let text = std::fs::read_to_string(&path).unwrap()
            + "{\"tusk\":1}\n{\"task\":9,\"of\":9,\"count\":0,\"mirror_fixed\":0,\"nodes\":1}\n";
        std::fs::write(&path, &text).unwrap();
        let err = Checkpoint::open(&path, &problem("R2", false), 8).unwrap_err();
        assert!(
            matches!(
                &err,
                CheckpointError::Line {
                    bad: BadLine {
                        line: 2,
                        error: LineError::NotATask(_)
                    },
                    ..
                }
            ),
            "{err}"
        );
        let text = text.replace("{\"tusk\":1}\n", "");
        std::fs::write(&path, &text).unwrap();
        let err = Checkpoint::open(&path, &problem("R2", false), 8).unwrap_err();
        assert!(
            matches!(
                &err,
                CheckpointError::Line {
                    bad: BadLine {
                        line: 2,
                        error: LineError::TaskOutOfRange { task: 9, of: 9 }
                    },
                    ..
                }
            ),
            "{err}"
        );
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn boards_other_than_nine_by_nine_are_named() {
        let p = Problem::new("R2".parse().unwrap(), Geometry::new(6, 7).unwrap(), false).unwrap();
        let h = CheckpointHeader::new(&p, 4);
        let line = json_line(&h);
        assert!(line.contains("\"files\":6,\"ranks\":7"), "{line}");
        assert_eq!(h.to_string(), "R2 on 6×7");
        assert!(!h.same_problem(&CheckpointHeader::new(&problem("R2", false), 4)));
        let (read_back, tasks) = read(line.as_bytes(), &h).unwrap();
        assert_eq!((read_back, tasks), (Some(h), Vec::new()));
    }
}
