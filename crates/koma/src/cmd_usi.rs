//! `koma usi`: a USI engine for shogi GUIs (ShogiGUI, 将棋所, ShogiHome) on koma-tsume.
//!
//! `go mate` solves the position as a tsume problem and answers `checkmate <moves>`,
//! `checkmate nomate` or `checkmate timeout`; a plain `go` answers `bestmove` with the first
//! move of a mate proven in the time given, else `bestmove resign`. The search runs on a worker
//! thread, so `stop`, `quit` and `isready` are answered while it runs; `info` lines report
//! nodes, nodes/s and hash use from the solver's progress callback. A malformed command gets an
//! `info string` line naming the problem; the engine never stops on one.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use clap::Args;
use koma_core::text::excerpt;
use koma_core::{Color, Position};
use koma_tsume::{Cancel, DEFAULT_HASH_MIB, Mode, Options, Outcome, Progress, Solver};

use crate::CliError;

/// Arguments of `koma usi` (none: a GUI sets options through `setoption`).
#[derive(Args)]
pub struct UsiArgs {}

/// The largest USI_Hash accepted, in MiB.
const MAX_HASH_MIB: usize = 1 << 20;
/// The most Threads accepted.
const MAX_THREADS: usize = 256;
/// Time kept back from a `go` budget for the answer to reach the GUI.
const MARGIN: Duration = Duration::from_millis(100);

/// Lines to the GUI: whole lines, flushed, from the reading thread and the search alike.
#[derive(Clone)]
struct Gui(Arc<Mutex<Box<dyn Write + Send>>>);

impl Gui {
    fn say(&self, line: &str) {
        let mut out = self.0.lock().unwrap_or_else(|e| e.into_inner());
        // A GUI that closed the pipe has gone: nothing left to tell it.
        let _ = out
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|()| out.flush());
    }

    fn error(&self, what: &str) {
        self.say(&format!("info string error: {what}"));
    }
}

/// What a `go` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Go {
    /// `go mate <ms>` or `go mate infinite` (`None`).
    Mate(Option<Duration>),
    /// A game move within this time (`None`: until `stop`).
    Move(Option<Duration>),
}

/// A search on its worker thread.
struct Search {
    cancel: Cancel,
    /// Set just before the answer is sent: a GUI that has the answer may send the next `go`
    /// while the thread is still finishing.
    answered: Arc<AtomicBool>,
    handle: JoinHandle<()>,
}

/// The engine's state between commands.
struct Engine {
    gui: Gui,
    /// The solver every search uses in turn: its table's memory is kept between searches
    /// (each search still starts from an empty table).
    solver: Arc<Mutex<Solver>>,
    hash_mib: usize,
    position: Position,
    search: Option<Search>,
}

/// Runs the engine on standard input and output until `quit` or the end of the input.
pub fn run(_args: UsiArgs) -> Result<(), CliError> {
    let gui = Gui(Arc::new(Mutex::new(Box::new(std::io::stdout()))));
    let mut engine = Engine::new(gui);
    for line in std::io::stdin().lock().split(b'\n') {
        let line = line?;
        let text = String::from_utf8_lossy(&line);
        if !engine.command(text.trim()) {
            break;
        }
    }
    engine.stop();
    Ok(())
}

impl Engine {
    fn new(gui: Gui) -> Engine {
        Engine {
            gui,
            solver: Arc::default(),
            hash_mib: DEFAULT_HASH_MIB,
            position: Position::startpos(),
            search: None,
        }
    }

    /// Handles one command line; `false` to quit.
    fn command(&mut self, line: &str) -> bool {
        let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        match word {
            "" => {}
            "usi" => self.usi(),
            "isready" => self.gui.say("readyok"),
            "setoption" => self.setoption(rest),
            "usinewgame" => {}
            "position" => self.set_position(rest),
            "go" => self.go(rest),
            "stop" | "ponderhit" => self.stop(),
            "gameover" => self.stop(),
            "quit" => return false,
            other => {
                let shown = excerpt(other, 40);
                self.gui.error(&format!("unknown command `{shown}`"));
            }
        }
        true
    }

    fn usi(&self) {
        self.gui
            .say(&format!("id name koma {}", env!("CARGO_PKG_VERSION")));
        self.gui.say("id author the koma developers");
        self.gui.say(&format!(
            "option name USI_Hash type spin default {DEFAULT_HASH_MIB} min 1 max {MAX_HASH_MIB}"
        ));
        self.gui.say(&format!(
            "option name Threads type spin default 1 min 1 max {MAX_THREADS}"
        ));
        self.gui.say("usiok");
    }

    /// `setoption name <id> [value <x>]`.
    fn setoption(&mut self, rest: &str) {
        let Some(after) = rest.strip_prefix("name") else {
            return self.gui.error("expected `setoption name <id> value <x>`");
        };
        let (name, value) = match after.split_once(" value") {
            Some((n, v)) => (n.trim(), Some(v.trim())),
            None => (after.trim(), None),
        };
        let number = |max: usize| match value.map(str::parse::<usize>) {
            Some(Ok(v)) if (1..=max).contains(&v) => Ok(v),
            _ => Err(format!(
                "option {name}: expected a value from 1 to {max}, found `{}`",
                value.unwrap_or("")
            )),
        };
        let set = match name {
            "USI_Hash" | "Hash" => number(MAX_HASH_MIB).map(|v| self.hash_mib = v),
            // One solve runs on one thread (koma-tsume's search is sequential): the option is
            // checked and accepted for GUIs that always send it, and changes nothing.
            "Threads" => number(MAX_THREADS).map(|_| ()),
            "USI_Ponder" => Ok(()),
            _ => Err(format!("unknown option `{name}`")),
        };
        if let Err(e) = set {
            self.gui.error(&e);
        }
    }

    /// `position startpos|sfen ... [moves ...]`; on an error the position stays as it was.
    fn set_position(&mut self, rest: &str) {
        match koma_core::usi::parse_position(rest) {
            Ok(pos) => self.position = pos,
            Err(e) => self.gui.error(&format!("position: {e}")),
        }
    }

    fn go(&mut self, rest: &str) {
        if let Some(s) = &self.search
            && !s.answered.load(Ordering::Acquire)
        {
            return self.gui.error("a search is running (send stop first)");
        }
        self.join();
        let go = match parse_go(rest, self.position.side_to_move()) {
            Ok(go) => go,
            Err(e) => return self.gui.error(&format!("go: {e}")),
        };
        let cancel = Cancel::new();
        let mut options = Options::default().hash_mib(self.hash_mib);
        // `go infinite` answers after `stop`, as the protocol asks; `go mate` as soon as it knows.
        let (limit, hold) = match go {
            Go::Mate(t) => (t, false),
            Go::Move(t) => {
                options = options.mode(Mode::Any);
                (t, t.is_none())
            }
        };
        if let Some(t) = limit {
            options = options.time(t);
        }
        let (gui, pos, token) = (self.gui.clone(), self.position.clone(), cancel.clone());
        let solver = self.solver.clone();
        let answered = Arc::new(AtomicBool::new(false));
        let flag = answered.clone();
        let handle = std::thread::spawn(move || {
            // The previous search has been joined: the solver is free.
            let mut solver = solver.lock().unwrap_or_else(|e| e.into_inner());
            let job = Job {
                pos,
                options,
                go,
                hold,
            };
            search(&gui, &mut solver, job, &token, &flag)
        });
        self.search = Some(Search {
            cancel,
            answered,
            handle,
        });
    }

    /// Stops a running search (it answers at once) and waits for it.
    fn stop(&mut self) {
        if let Some(s) = &self.search {
            s.cancel.cancel();
        }
        self.join();
    }

    fn join(&mut self) {
        if let Some(s) = self.search.take() {
            // A search that panicked has already said nothing more; the engine goes on.
            let _ = s.handle.join();
        }
    }
}

/// Reads the words after `go`.
fn parse_go(rest: &str, us: Color) -> Result<Go, String> {
    let mut words = rest.split_whitespace();
    let mut times = [None::<u64>; 4]; // btime, wtime, byoyomi, inc of the side to move
    let mut infinite = false;
    while let Some(w) = words.next() {
        let mut ms = |name: &str| -> Result<u64, String> {
            let v = words.next().ok_or(format!("`{name}` needs a number"))?;
            v.parse()
                .map_err(|_| format!("`{name}`: expected milliseconds, found `{v}`"))
        };
        match w {
            "mate" => {
                return match words.next() {
                    None | Some("infinite") => Ok(Go::Mate(None)),
                    Some(v) => v
                        .parse()
                        .map(|ms| Go::Mate(Some(Duration::from_millis(ms))))
                        .map_err(|_| {
                            format!("`mate`: expected milliseconds or `infinite`, found `{v}`")
                        }),
                };
            }
            "btime" => times[0] = Some(ms(w)?),
            "wtime" => times[1] = Some(ms(w)?),
            "byoyomi" | "movetime" => times[2] = Some(ms(w)?),
            "binc" if us == Color::Black => times[3] = Some(ms(w)?),
            "winc" if us == Color::White => times[3] = Some(ms(w)?),
            "binc" | "winc" => {
                ms(w)?;
            }
            "infinite" | "ponder" => infinite = true,
            other => return Err(format!("unknown word `{other}`")),
        }
    }
    if infinite {
        return Ok(Go::Move(None));
    }
    let main = times[us.index()].unwrap_or(0);
    let budget = times[2].unwrap_or(0) + times[3].unwrap_or(0) + main / 40;
    let budget = Duration::from_millis(budget).saturating_sub(MARGIN);
    Ok(Go::Move(Some(budget.max(Duration::from_millis(10)))))
}

/// What one `go` asks of the search thread.
struct Job {
    pos: Position,
    options: Options,
    go: Go,
    /// Answer only after `stop` (`go infinite`).
    hold: bool,
}

/// The search thread: solves with `solver`, reports progress as `info` lines, answers.
fn search(gui: &Gui, solver: &mut Solver, job: Job, cancel: &Cancel, answered: &AtomicBool) {
    let Job {
        pos,
        options,
        go,
        hold,
    } = job;
    let start = Instant::now();
    let mut info = |p: &Progress| {
        let ms = p.elapsed.as_millis().max(1) as u64;
        gui.say(&format!(
            "info time {ms} nodes {} nps {} hashfull {}",
            p.nodes,
            p.nodes.saturating_mul(1000) / ms,
            p.hashfull
        ));
    };
    let outcome = match solver.solve(&pos, &options, &mut info, cancel) {
        Ok(sol) => sol.outcome,
        Err(why) => {
            // Nothing to mate: no mate, and said why.
            gui.say(&format!("info string {why}"));
            Outcome::NoMate
        }
    };
    while hold && !cancel.is_cancelled() {
        std::thread::sleep(Duration::from_millis(5));
    }
    let answer = match (go, &outcome) {
        (Go::Mate(_), Outcome::Mate(a)) => format!(
            "checkmate {}",
            a.moves
                .iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        ),
        (Go::Mate(_), Outcome::NoMate) => "checkmate nomate".to_owned(),
        (Go::Mate(_), Outcome::Unknown(_)) => "checkmate timeout".to_owned(),
        (Go::Move(_), Outcome::Mate(a)) => {
            let pv: Vec<String> = a.moves.iter().map(|m| m.to_string()).collect();
            gui.say(&format!(
                "info time {} score mate {} pv {}",
                start.elapsed().as_millis(),
                a.len(),
                pv.join(" ")
            ));
            format!("bestmove {}", pv[0])
        }
        (Go::Move(_), _) => "bestmove resign".to_owned(),
    };
    answered.store(true, Ordering::Release);
    gui.say(&answer);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_budgets() {
        let b = Color::Black;
        assert_eq!(
            parse_go("mate 1000", b),
            Ok(Go::Mate(Some(Duration::from_millis(1000))))
        );
        assert_eq!(parse_go("mate infinite", b), Ok(Go::Mate(None)));
        assert_eq!(parse_go("mate", b), Ok(Go::Mate(None)));
        assert_eq!(
            parse_go("btime 40000 wtime 0 byoyomi 3000", b),
            Ok(Go::Move(Some(Duration::from_millis(3900))))
        );
        assert_eq!(
            parse_go("btime 0 wtime 0 binc 500 winc 9000", Color::White),
            Ok(Go::Move(Some(Duration::from_millis(8900))))
        );
        assert_eq!(parse_go("infinite", b), Ok(Go::Move(None)));
        assert!(parse_go("mate soon", b).unwrap_err().contains("`soon`"));
        assert!(parse_go("btime", b).unwrap_err().contains("needs a number"));
        assert!(parse_go("wibble 3", b).unwrap_err().contains("`wibble`"));
    }
}
