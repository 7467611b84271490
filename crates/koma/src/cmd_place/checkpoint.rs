//! The checkpoint file of a long `koma place --count`: one JSON line naming the problem, then
//! one line per finished task, written as the task finishes. Running the same command again
//! with the same file searches only the tasks it does not hold.

use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use koma_place::{Problem, TaskCount};
use serde::{Deserialize, Serialize};

use crate::CliError;

/// Format number of the checkpoint file; bumped whenever its lines change meaning.
const FORMAT: u32 = 1;

/// The first line: what is being counted and how the search is split.
#[derive(Serialize, Deserialize, Clone, PartialEq, Eq, Debug)]
struct Header {
    koma_place_checkpoint: u32,
    /// The koma version: task numbers depend on the search, so another version must not resume.
    koma: String,
    pieces: String,
    both_ways: bool,
    split: usize,
}

/// One finished task.
#[derive(Serialize, Deserialize)]
struct Line {
    task: usize,
    /// Tasks in the split the task belongs to.
    of: usize,
    count: u128,
    mirror_fixed: u128,
    nodes: u64,
}

/// An open checkpoint: what earlier runs finished, and the file new tasks are appended to.
pub struct Checkpoint {
    path: PathBuf,
    /// The split to search with: the file's, when resuming.
    pub split: usize,
    /// Tasks finished by earlier runs.
    pub resumed: Vec<TaskCount>,
    /// The split size each resumed line was written for, checked against this run's.
    resumed_of: Vec<usize>,
    file: Mutex<File>,
    /// The first failed write: reported at the end, the search goes on.
    error: Mutex<Option<std::io::Error>>,
}

impl Checkpoint {
    /// Opens `path`, resuming from it when it exists, creating it (with `split`) otherwise.
    ///
    /// A last line cut short by an interrupted write is dropped, and the file is rewritten
    /// without it before new lines are appended.
    pub fn open(path: &Path, problem: &Problem, split: usize) -> Result<Checkpoint, CliError> {
        let here = Header {
            koma_place_checkpoint: FORMAT,
            koma: env!("CARGO_PKG_VERSION").to_owned(),
            pieces: problem.set().to_string(),
            both_ways: problem.both_ways(),
            split,
        };
        let name = path.display();
        let (header, lines) = match File::open(path) {
            Ok(f) => read(BufReader::new(f), &here).map_err(|e| format!("{name}:{e}"))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => (here, Vec::new()),
            Err(e) => return Err(format!("{name}: {e}").into()),
        };
        let mut text = serde_json::to_string(&header)? + "\n";
        for l in &lines {
            text += &(serde_json::to_string(l)? + "\n");
        }
        // Beside FILE, named after all of it, so no other file of the user's is overwritten.
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".rewrite");
        let tmp = PathBuf::from(tmp);
        std::fs::write(&tmp, text)
            .and_then(|()| std::fs::rename(&tmp, path))
            .map_err(|e| format!("{name}: {e}"))?;
        let file = OpenOptions::new()
            .append(true)
            .open(path)
            .map_err(|e| format!("{name}: {e}"))?;
        Ok(Checkpoint {
            path: path.to_owned(),
            split: header.split,
            resumed: lines
                .iter()
                .map(|l| TaskCount {
                    task: l.task,
                    count: l.count,
                    mirror_fixed: l.mirror_fixed,
                    nodes: l.nodes,
                })
                .collect(),
            resumed_of: lines.iter().map(|l| l.of).collect(),
            file: Mutex::new(file),
            error: Mutex::new(None),
        })
    }

    /// Appends a finished task (one whole line, written at once).
    pub fn record(&self, task: &TaskCount, of: usize) {
        let line = Line {
            task: task.task,
            of,
            count: task.count,
            mirror_fixed: task.mirror_fixed,
            nodes: task.nodes,
        };
        let result = serde_json::to_string(&line)
            .map_err(std::io::Error::other)
            .and_then(|text| {
                let mut f = self.file.lock().unwrap_or_else(|e| e.into_inner());
                f.write_all((text + "\n").as_bytes())
            });
        if let Err(e) = result {
            self.error
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get_or_insert(e);
        }
    }

    /// Reports a failed write, or resumed lines written for another split of the search
    /// (whose counts then cannot be trusted), once the search is over.
    pub fn finish(self, tasks: usize) -> Result<(), CliError> {
        let name = self.path.display();
        if let Some(e) = self.error.into_inner().unwrap_or_else(|e| e.into_inner()) {
            return Err(format!("{name}: could not record a finished task: {e}").into());
        }
        if let Some(of) = self.resumed_of.iter().find(|&&of| of != tasks) {
            return Err(format!(
                "{name}: written for a search split into {of} tasks, this one has {tasks}; \
                 the count is not reported, start a new checkpoint file"
            )
            .into());
        }
        Ok(())
    }
}

/// Reads a checkpoint: its header (which must match `here` but for the split) and task lines.
/// Errors start with the line number. Anything but an empty file or a checkpoint of this
/// problem is refused, so a file given by mistake is never overwritten.
fn read(mut r: impl BufRead, here: &Header) -> Result<(Header, Vec<Line>), String> {
    let mut lines = Vec::new();
    let mut header = None;
    let mut text = String::new();
    for number in 1.. {
        text.clear();
        let n = r
            .read_line(&mut text)
            .map_err(|e| format!("{number}: {e}"))?;
        if n == 0 {
            break;
        }
        let whole = text.ends_with('\n');
        if header.is_none() {
            let h: Header = serde_json::from_str(&text)
                .map_err(|e| format!("{number}: not a koma place checkpoint header: {e}"))?;
            let wanted = Header {
                split: h.split,
                ..here.clone()
            };
            if h != wanted {
                return Err(format!(
                    "{number}: the checkpoint is for {} (koma {}, format {}), not {} (koma {}, \
                     format {})",
                    describe(&h),
                    h.koma,
                    h.koma_place_checkpoint,
                    describe(here),
                    here.koma,
                    here.koma_place_checkpoint
                ));
            }
            header = Some(h);
            continue;
        }
        match serde_json::from_str::<Line>(&text) {
            Ok(l) if l.task < l.of => lines.push(l),
            Ok(l) => return Err(format!("{number}: task {} of {}", l.task, l.of)),
            // An interrupted write: the last line, cut short.
            Err(_) if !whole => break,
            Err(e) => return Err(format!("{number}: not a task line: {e}")),
        }
    }
    // An empty file holds nothing yet: start it.
    Ok((header.unwrap_or_else(|| here.clone()), lines))
}

fn describe(h: &Header) -> String {
    format!(
        "{}{}",
        h.pieces,
        if h.both_ways { " --both-ways" } else { "" }
    )
}
