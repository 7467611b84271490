//! `koma usi` end to end: a GUI's session through the binary's standard input and output.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// The chase beside a sacrifice (issue 13): ▲３四飛 △同玉 ▲４四飛成.
const CHASE: &str = "5R3/4g2p1/6k2/9/5PN2/7G1/9/9/9 b R2b2g4s3n4l16p 1";
/// 将棋図巧 第100番「寿」(611 plies): far beyond a debug build in these tests' time.
const KOTOBUKI: &str =
    "g3p3+r/3lPG3/1s4ppp/1l1B4P/L2b1kPl1/3+p3+R+p/3+p2+s1S/+NP+p1gS3/1g+p2P3 b 4P3n 1";

/// A running engine: commands in, lines out.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Everything seen, for failure messages.
    transcript: Vec<String>,
}

impl Engine {
    fn start() -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_koma"))
            .arg("usi")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
            transcript: Vec::new(),
        }
    }

    fn send(&mut self, command: &str) {
        self.transcript.push(format!("> {command}"));
        writeln!(self.stdin, "{command}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Lines up to and including the first that starts with `prefix`, within `within`.
    fn until(&mut self, prefix: &str, within: Duration) -> Vec<String> {
        let deadline = Instant::now() + within;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.transcript.push(format!("< {line}"));
                    let done = line.starts_with(prefix);
                    got.push(line);
                    if done {
                        return got;
                    }
                }
                Err(_) => panic!(
                    "no `{prefix}` within {within:?}; transcript:\n{}",
                    self.transcript.join("\n")
                ),
            }
        }
    }

    /// The next line, which must come within `within`.
    fn next(&mut self, within: Duration) -> String {
        self.until("", within).pop().unwrap()
    }
}

const SOON: Duration = Duration::from_secs(10);

#[test]
fn a_gui_session() {
    let mut e = Engine::start();
    e.send("usi");
    let hello = e.until("usiok", SOON);
    assert!(hello[0].starts_with("id name koma "), "{hello:?}");
    assert!(
        hello
            .iter()
            .any(|l| l.starts_with("option name USI_Hash type spin default 1024"))
    );
    assert!(
        hello
            .iter()
            .any(|l| l.starts_with("option name Threads type spin"))
    );
    e.send("setoption name USI_Hash value 16");
    e.send("setoption name Threads value 2");
    e.send("isready");
    assert_eq!(e.next(SOON), "readyok");
    e.send("usinewgame");

    // go mate: the answer, after info lines with nodes, nps and hashfull.
    e.send(&format!("position sfen {CHASE}"));
    e.send("go mate 30000");
    let out = e.until("checkmate", Duration::from_secs(60));
    assert_eq!(out.last().unwrap(), "checkmate R*3d 3c3d 4a4d+");
    let info = &out[out.len() - 2];
    for word in [" nodes ", " nps ", " hashfull "] {
        assert!(
            info.starts_with("info time ") && info.contains(word),
            "{info}"
        );
    }
    // The same through a start position and moves.
    e.send("position startpos");
    e.send("go mate 5000");
    assert_eq!(
        e.until("checkmate", SOON).last().unwrap(),
        "checkmate nomate"
    );

    // No mate problem (the side not to move has no king): said why, and no mate.
    e.send("position sfen 9/9/9/9/9/9/9/9/4K4 b G 1");
    e.send("go mate 5000");
    let out = e.until("checkmate", SOON);
    assert_eq!(out.last().unwrap(), "checkmate nomate");
    assert!(
        out.iter()
            .any(|l| l.starts_with("info string not a mate problem") && l.contains("no king")),
        "{out:?}"
    );

    // A search that cannot finish: stop answers promptly; isready is answered meanwhile.
    e.send(&format!("position sfen {KOTOBUKI}"));
    e.send("go mate infinite");
    std::thread::sleep(Duration::from_millis(300));
    e.send("isready");
    e.until("readyok", SOON);
    e.send("go mate 1000");
    e.until("info string error: a search is running", SOON);
    let asked = Instant::now();
    e.send("stop");
    assert_eq!(
        e.until("checkmate", SOON).last().unwrap(),
        "checkmate timeout"
    );
    assert!(
        asked.elapsed() < Duration::from_secs(2),
        "{:?}",
        asked.elapsed()
    );
    // A time limit gives the same answer without a stop.
    e.send("go mate 300");
    assert_eq!(
        e.until("checkmate", SOON).last().unwrap(),
        "checkmate timeout"
    );

    // A game move: the first move of a mate, else resign.
    e.send(&format!("position sfen {CHASE}"));
    e.send("go btime 0 wtime 0 byoyomi 20000");
    let out = e.until("bestmove", Duration::from_secs(60));
    assert_eq!(out.last().unwrap(), "bestmove R*3d");
    assert!(
        out.iter().any(|l| l.contains("score mate 3 pv R*3d")),
        "{out:?}"
    );
    e.send("position startpos moves 7g7f 3c3d");
    e.send("go btime 1000 wtime 1000 byoyomi 1000");
    assert_eq!(e.until("bestmove", SOON).last().unwrap(), "bestmove resign");
    // go infinite answers only after stop.
    e.send(&format!("position sfen {CHASE}"));
    e.send("go infinite");
    std::thread::sleep(Duration::from_millis(1500));
    e.send("isready");
    let before = e.until("readyok", SOON);
    assert!(
        !before.iter().any(|l| l.starts_with("bestmove")),
        "{before:?}"
    );
    e.send("stop");
    assert_eq!(e.until("bestmove", SOON).last().unwrap(), "bestmove R*3d");

    // Malformed commands: an info string each, and the engine goes on.
    for (command, says) in [
        (
            "setoption name USI_Hash value lots",
            "info string error: option USI_Hash: expected a value from 1",
        ),
        (
            "setoption name NoSuchOption value 1",
            "info string error: unknown option `NoSuchOption`",
        ),
        ("setoption", "info string error: expected `setoption name"),
        ("position sfen 9/9 b - 1", "info string error: position: "),
        (
            "position startpos moves 7g7f 7g7f",
            "info string error: position: move 2 `7g7f` is illegal",
        ),
        (
            "go mate soon",
            "info string error: go: `mate`: expected milliseconds",
        ),
        ("go btime", "info string error: go: `btime` needs a number"),
        (
            "frobnicate now",
            "info string error: unknown command `frobnicate`",
        ),
    ] {
        e.send(command);
        let line = e.next(SOON);
        assert!(line.starts_with(says), "{command}: {line}");
    }
    // The bad position left the last good one in place.
    e.send("go mate 30000");
    assert_eq!(
        e.until("checkmate", Duration::from_secs(60))
            .last()
            .unwrap(),
        "checkmate R*3d 3c3d 4a4d+"
    );

    // quit in the middle of a search ends the engine at once.
    e.send(&format!("position sfen {KOTOBUKI}"));
    e.send("go mate infinite");
    std::thread::sleep(Duration::from_millis(200));
    let asked = Instant::now();
    e.send("quit");
    let status = e.child.wait().unwrap();
    assert!(status.success());
    assert!(
        asked.elapsed() < Duration::from_secs(3),
        "{:?}",
        asked.elapsed()
    );
}

#[test]
fn the_end_of_the_input_ends_the_engine() {
    let mut e = Engine::start();
    e.send("isready");
    assert_eq!(e.next(SOON), "readyok");
    drop(e.stdin);
    assert!(e.child.wait().unwrap().success());
}
