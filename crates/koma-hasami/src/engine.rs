//! A line protocol on stdin/stdout so that any program can drive an agent (USI-like):
//!
//! | in | out |
//! |---|---|
//! | `usi` | `id name koma-hasami`, `usiok` |
//! | `isready` | `readyok` |
//! | `setoption name Agent value <agent>` | (nothing) |
//! | `usinewgame` | (nothing; clears the agent's tables) |
//! | `position startpos\|sfen <pos> [moves ...]` | (nothing) |
//! | `go [depth N] [movetime MS]` | `bestmove <move>` or `bestmove none` |
//! | `quit` | the loop ends |
//!
//! A malformed line gets `info string error: ...` and is otherwise ignored; the loop never exits on
//! bad input, only on `quit` or the end of the input.
//!
//! ```
//! use std::sync::Arc;
//! use koma_hasami::{engine, ntuple::NTuple};
//! let input = "isready\nposition startpos moves 9i9e\nbogus\ngo depth 1\nquit\n";
//! let mut out = Vec::new();
//! engine::run(input.as_bytes(), &mut out, "random".parse().unwrap(), Arc::new(NTuple::zero())).unwrap();
//! let out = String::from_utf8(out).unwrap();
//! assert!(out.starts_with("readyok\ninfo string error: "));
//! assert!(out.lines().last().unwrap().starts_with("bestmove "));
//! ```

use std::io::{BufRead, Write};
use std::sync::Arc;
use std::time::Duration;

use crate::agents::{Agent, AgentError, AgentSpec};
use crate::game::{DEFAULT_PLY_LIMIT, Game, Outcome};
use crate::notation::ParseError;
use crate::ntuple::NTuple;
use crate::position::Position;
use crate::search::Limit;

/// Why a protocol line was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    /// The first word is not a command.
    #[error("unknown command {0:?}")]
    UnknownCommand(String),
    /// `position` with a bad position or move list.
    #[error("position: {0}")]
    Position(#[from] ParseError),
    /// `go` with bad arguments.
    #[error("go: {0}")]
    Go(#[from] GoError),
    /// `setoption` that is not `name Agent value <agent>`.
    #[error("setoption: expected `setoption name Agent value <agent>`")]
    SetOption,
    /// An unknown agent.
    #[error(transparent)]
    Agent(#[from] AgentError),
}

/// What is wrong with the arguments of `go`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GoError {
    /// `depth` or `movetime` without a value.
    #[error("{0} needs a value")]
    MissingValue(String),
    /// A value that is not a whole number.
    #[error("{key} {value}: not a number")]
    NotANumber {
        /// `depth` or `movetime`.
        key: String,
        /// The value given.
        value: String,
    },
    /// `depth` outside 1..=64 or `movetime` 0.
    #[error("{key} {value} out of range")]
    OutOfRange {
        /// `depth` or `movetime`.
        key: String,
        /// The value given.
        value: u64,
    },
    /// An argument `go` does not take.
    #[error("unknown argument {0:?}")]
    UnknownArgument(String),
}

/// Engine state: the current game and agent.
pub struct Engine {
    spec: AgentSpec,
    agent: Box<dyn Agent>,
    model: Arc<NTuple>,
    game: Game,
}

impl Engine {
    /// An engine playing `spec` (with `model` for `learned`) from the start position.
    pub fn new(spec: AgentSpec, model: Arc<NTuple>) -> Engine {
        let agent = spec.build(0, &model);
        Engine {
            spec,
            agent,
            model,
            game: Game::new(Position::startpos(), DEFAULT_PLY_LIMIT),
        }
    }

    /// The agent's name.
    pub fn agent(&self) -> AgentSpec {
        self.spec
    }

    /// Handles one line; returns the reply lines, or `None` for `quit`. A rejected line is
    /// answered `info string error: ...`.
    pub fn handle(&mut self, line: &str) -> Option<Vec<String>> {
        match self.execute(line) {
            Ok(reply) => reply,
            Err(e) => Some(vec![format!("info string error: {e}")]),
        }
    }

    /// Carries out one line: the reply lines, `None` for `quit`, or why the line was rejected
    /// (the engine's state is then unchanged).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use koma_hasami::engine::{Engine, EngineError, GoError};
    /// use koma_hasami::ntuple::NTuple;
    /// let mut engine = Engine::new("random".parse().unwrap(), Arc::new(NTuple::zero()));
    /// assert_eq!(
    ///     engine.execute("go depth 0"),
    ///     Err(EngineError::Go(GoError::OutOfRange { key: "depth".into(), value: 0 }))
    /// );
    /// assert_eq!(engine.execute("quit"), Ok(None));
    /// ```
    pub fn execute(&mut self, line: &str) -> Result<Option<Vec<String>>, EngineError> {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, rest)) = words.split_first() else {
            return Ok(Some(Vec::new()));
        };
        let reply = match cmd {
            "quit" => return Ok(None),
            "usi" => vec![
                "id name koma-hasami".into(),
                format!("option name Agent type string default {}", self.spec),
                "usiok".into(),
            ],
            "isready" => vec!["readyok".into()],
            "usinewgame" => {
                self.agent.new_game();
                Vec::new()
            }
            "position" => {
                self.game = Game::parse(&rest.join(" "), DEFAULT_PLY_LIMIT)?;
                Vec::new()
            }
            "setoption" => {
                let value = match rest {
                    ["name", name, "value", value] if name.eq_ignore_ascii_case("agent") => value,
                    _ => return Err(EngineError::SetOption),
                };
                let spec: AgentSpec = value.parse()?;
                self.agent = spec.build(0, &self.model);
                self.spec = spec;
                Vec::new()
            }
            "go" => vec![self.go(rest)?],
            other => return Err(EngineError::UnknownCommand(other.to_string())),
        };
        Ok(Some(reply))
    }

    fn go(&mut self, args: &[&str]) -> Result<String, EngineError> {
        let mut limit = Limit::default();
        let mut it = args.iter();
        while let Some(&key) = it.next() {
            let value = it.next().ok_or_else(|| GoError::MissingValue(key.into()))?;
            let n: u64 = value.parse().map_err(|_| GoError::NotANumber {
                key: key.into(),
                value: value.to_string(),
            })?;
            match key {
                "depth" if (1..=64).contains(&n) => limit.depth = Some(n as u32),
                "movetime" if n > 0 => limit.movetime = Some(Duration::from_millis(n)),
                "depth" | "movetime" => {
                    let key = key.into();
                    return Err(GoError::OutOfRange { key, value: n }.into());
                }
                other => return Err(GoError::UnknownArgument(other.into()).into()),
            }
        }
        let limit = (limit != Limit::default()).then_some(limit);
        if self.game.outcome() != Outcome::Ongoing {
            return Ok("bestmove none".into());
        }
        Ok(match self.agent.choose(&self.game, limit) {
            Some(m) => format!("bestmove {m}"),
            None => "bestmove none".into(),
        })
    }
}

/// Runs the protocol until `quit` or the end of `input`.
pub fn run(
    input: impl BufRead,
    mut output: impl Write,
    spec: AgentSpec,
    model: Arc<NTuple>,
) -> std::io::Result<()> {
    let mut engine = Engine::new(spec, model);
    for line in input.lines() {
        let line = match line {
            Ok(l) => l,
            // Bytes that are not UTF-8 are one more malformed line, not a reason to stop.
            Err(e) if e.kind() == std::io::ErrorKind::InvalidData => {
                writeln!(output, "info string error: input is not UTF-8")?;
                continue;
            }
            Err(e) => return Err(e),
        };
        match engine.handle(&line) {
            None => break,
            Some(reply) => {
                for r in reply {
                    writeln!(output, "{r}")?;
                }
                output.flush()?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(input: &str) -> Vec<String> {
        let mut out = Vec::new();
        run(
            input.as_bytes(),
            &mut out,
            "search:1".parse().unwrap(),
            Arc::new(NTuple::zero()),
        )
        .unwrap();
        String::from_utf8(out)
            .unwrap()
            .lines()
            .map(String::from)
            .collect()
    }

    #[test]
    fn protocol_round_trip() {
        let out =
            session("usi\nisready\nposition startpos moves 9i9e 1a1e\ngo depth 2\nquit\ngo\n");
        assert_eq!(
            out[..4],
            [
                "id name koma-hasami",
                "option name Agent type string default search:1",
                "usiok",
                "readyok"
            ]
        );
        assert!(out[4].starts_with("bestmove "));
        assert_eq!(out.len(), 5, "nothing after quit");
        let mv: crate::Move = out[4]["bestmove ".len()..].parse().unwrap();
        let game = Game::parse("startpos moves 9i9e 1a1e", 300).unwrap();
        assert!(game.position().is_legal(mv));
    }

    #[test]
    fn bad_lines_are_reported_and_ignored() {
        let out = session(
            "fly\nposition\nposition startpos moves 9i9i\nposition sfen x y z\ngo depth\ngo depth 0\ngo nodes 5\n\
             setoption name Agent value alpha\nsetoption foo\n\nisready\n",
        );
        assert_eq!(out.len(), 10);
        assert!(
            out[..9]
                .iter()
                .all(|l| l.starts_with("info string error: ")),
            "{out:?}"
        );
        assert_eq!(out[9], "readyok");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(200))]

        /// Any line, however mangled, gets an answer and never stops the engine (except `quit`).
        #[test]
        fn arbitrary_lines_never_panic_or_stop(line in "(position|go|setoption|isready|usi)?[ a-z0-9/PpA-Z:]{0,40}") {
            let mut e = Engine::new("study:1".parse().unwrap(), Arc::new(NTuple::zero()));
            let first = line.split_whitespace().next();
            proptest::prop_assert_eq!(e.handle(&line).is_none(), first == Some("quit"));
            proptest::prop_assert_eq!(e.handle("isready"), Some(vec!["readyok".to_string()]));
        }
    }

    #[test]
    fn no_move_or_game_over_gives_bestmove_none_and_agent_can_change() {
        let out = session(
            "position sfen PPPPPp3/ppppp4/9/9/9/9/9/9/9 b 1\ngo\n\
             setoption name Agent value study:1\nposition sfen pppppp3/9/9/9/9/9/9/9/PPPPPPPPP b 1\ngo\n\
             position startpos\ngo movetime 20\n",
        );
        assert_eq!(out, ["bestmove none", "bestmove none", "bestmove 9i9b"]);
    }
}
