//! Players, each selectable by name: `random[:SEED]`, `study:D`, `search[:D|:MSms]`,
//! `learned[:D|:MSms|:greedy]`.
//!
//! ```
//! use koma_hasami::agents::AgentSpec;
//! let spec: AgentSpec = "study:3".parse().unwrap();
//! assert_eq!(spec.to_string(), "study:3");
//! assert!("search:fast".parse::<AgentSpec>().is_err());
//! ```

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use crate::game::Game;
use crate::ntuple::NTuple;
use crate::position::{Move, Status};
use crate::search::{HandEval, Limit, Searcher};
use crate::study;
use koma_core::rng::Rng;

/// Default depth of the `search` and `learned` agents when no limit is given.
pub const DEFAULT_DEPTH: u32 = 5;
const TT_BITS: u32 = 18;

/// Why an agent name could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AgentError {
    /// Unknown agent or bad parameter.
    #[error(
        "unknown agent {0:?}: use random[:SEED], study:D, search[:D|:MSms], learned[:D|:MSms|:greedy]"
    )]
    Unknown(String),
}

/// A player: given a game in progress, picks a move.
pub trait Agent: Send {
    /// Picks a move for the side to move (`None` when there is no legal move). `limit` overrides
    /// the agent's own depth/time where it has one (the engine's `go depth N movetime MS`).
    fn choose(&mut self, game: &Game, limit: Option<Limit>) -> Option<Move>;
    /// Called before a new game (clears tables).
    fn new_game(&mut self) {}
}

/// How the `learned` agent uses its model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LearnedMode {
    /// The model alone: the move whose resulting position the model values best (one ply).
    Greedy,
    /// The model as the evaluation of koma's searcher.
    Search(Limit),
}

/// A parsed agent name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AgentSpec {
    /// Uniform over legal moves; the seed is mixed with the arena's game seed.
    Random(u64),
    /// The study's alpha-beta at this depth.
    Study(u32),
    /// koma's searcher with the hand-written evaluation.
    Search(Limit),
    /// The learned n-tuple model, alone or inside the searcher.
    Learned(LearnedMode),
}

fn parse_limit(text: &str) -> Option<Limit> {
    if let Some(ms) = text.strip_suffix("ms") {
        let ms: u64 = ms.parse().ok().filter(|&m| m > 0)?;
        Some(Limit {
            depth: None,
            movetime: Some(Duration::from_millis(ms)),
        })
    } else {
        let d: u32 = text.parse().ok().filter(|&d| (1..=64).contains(&d))?;
        Some(Limit {
            depth: Some(d),
            movetime: None,
        })
    }
}

fn default_limit() -> Limit {
    Limit {
        depth: Some(DEFAULT_DEPTH),
        movetime: None,
    }
}

impl std::str::FromStr for AgentSpec {
    type Err = AgentError;

    fn from_str(text: &str) -> Result<AgentSpec, AgentError> {
        let err = || AgentError::Unknown(text.to_string());
        let (name, arg) = match text.split_once(':') {
            Some((n, a)) => (n, Some(a)),
            None => (text, None),
        };
        match (name, arg) {
            ("random", None) => Ok(AgentSpec::Random(0)),
            ("random", Some(a)) => a.parse().map(AgentSpec::Random).map_err(|_| err()),
            ("study", Some(a)) => match a.parse::<u32>() {
                Ok(d) if (1..=8).contains(&d) => Ok(AgentSpec::Study(d)),
                _ => Err(err()),
            },
            ("search", None) => Ok(AgentSpec::Search(default_limit())),
            ("search", Some(a)) => parse_limit(a).map(AgentSpec::Search).ok_or_else(err),
            ("learned", None) => Ok(AgentSpec::Learned(LearnedMode::Search(default_limit()))),
            ("learned", Some("greedy")) => Ok(AgentSpec::Learned(LearnedMode::Greedy)),
            ("learned", Some(a)) => parse_limit(a)
                .map(|l| AgentSpec::Learned(LearnedMode::Search(l)))
                .ok_or_else(err),
            _ => Err(err()),
        }
    }
}

fn fmt_limit(l: &Limit) -> String {
    match (l.depth, l.movetime) {
        (Some(d), _) => d.to_string(),
        (None, Some(t)) => format!("{}ms", t.as_millis()),
        (None, None) => DEFAULT_DEPTH.to_string(),
    }
}

impl fmt::Display for AgentSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentSpec::Random(0) => write!(f, "random"),
            AgentSpec::Random(s) => write!(f, "random:{s}"),
            AgentSpec::Study(d) => write!(f, "study:{d}"),
            AgentSpec::Search(l) => write!(f, "search:{}", fmt_limit(l)),
            AgentSpec::Learned(LearnedMode::Greedy) => write!(f, "learned:greedy"),
            AgentSpec::Learned(LearnedMode::Search(l)) => write!(f, "learned:{}", fmt_limit(l)),
        }
    }
}

impl AgentSpec {
    /// Builds the agent. `seed` feeds the random agent; `model` is used by `learned`.
    pub fn build(&self, seed: u64, model: &Arc<NTuple>) -> Box<dyn Agent> {
        match *self {
            AgentSpec::Random(s) => Box::new(RandomAgent {
                rng: Rng::derive(seed, s),
            }),
            AgentSpec::Study(depth) => Box::new(StudyAgent { depth }),
            AgentSpec::Search(limit) => Box::new(SearchAgent {
                searcher: Searcher::new(HandEval, TT_BITS),
                limit,
            }),
            AgentSpec::Learned(LearnedMode::Greedy) => Box::new(GreedyAgent {
                model: Arc::clone(model),
            }),
            AgentSpec::Learned(LearnedMode::Search(limit)) => Box::new(SearchAgent {
                searcher: Searcher::new(SharedModel(Arc::clone(model)), TT_BITS),
                limit,
            }),
        }
    }
}

/// Uniformly random legal moves from a seeded generator.
pub struct RandomAgent {
    rng: Rng,
}

impl Agent for RandomAgent {
    fn choose(&mut self, game: &Game, _: Option<Limit>) -> Option<Move> {
        let moves = game.position().legal_moves();
        if moves.is_empty() {
            None
        } else {
            Some(moves.as_slice()[self.rng.below(moves.len())])
        }
    }
}

/// The study's baseline (see [`crate::study`]); `go depth N` overrides its depth.
pub struct StudyAgent {
    depth: u32,
}

impl Agent for StudyAgent {
    fn choose(&mut self, game: &Game, limit: Option<Limit>) -> Option<Move> {
        let depth = limit.and_then(|l| l.depth).unwrap_or(self.depth);
        study::best_move(&mut game.position().clone(), depth).map(|(m, _, _)| m)
    }
}

/// An `Arc`'d model as an evaluator, so many agents share one copy of the weights.
struct SharedModel(Arc<NTuple>);

impl crate::search::Evaluator for SharedModel {
    fn evaluate(&self, pos: &crate::position::Position) -> i32 {
        self.0.evaluate(pos)
    }
}

/// koma's searcher around an evaluator.
pub struct SearchAgent<E> {
    searcher: Searcher<E>,
    limit: Limit,
}

impl<E: crate::search::Evaluator> Agent for SearchAgent<E> {
    fn choose(&mut self, game: &Game, limit: Option<Limit>) -> Option<Move> {
        self.searcher
            .search(game.position(), game.keys(), limit.unwrap_or(self.limit))
            .best
    }

    fn new_game(&mut self) {
        self.searcher.clear();
    }
}

/// The model alone: plays the move after which the opponent's value is lowest (a win at once is
/// taken; a move into a third repetition counts as a draw, value 0). Ties go to the first move.
pub struct GreedyAgent {
    model: Arc<NTuple>,
}

/// The value for the mover of playing `m` in `game`, by the model one ply deep: +1 for a win, 0
/// for a draw by repetition or the ply limit, otherwise minus the model's value of the reply position.
pub fn greedy_value(model: &NTuple, game: &mut Game, m: Move) -> f32 {
    let mover = game.position().side_to_move();
    game.play(m);
    let v = match game.outcome() {
        crate::game::Outcome::Win(c) if c == mover => 1.0,
        crate::game::Outcome::Win(_) => -1.0,
        crate::game::Outcome::Draw => 0.0,
        crate::game::Outcome::Ongoing => -model.value(game.position()),
    };
    game.undo();
    v
}

impl Agent for GreedyAgent {
    fn choose(&mut self, game: &Game, _: Option<Limit>) -> Option<Move> {
        if game.position().status() != Status::Ongoing {
            return None;
        }
        let mut g = game.clone();
        let moves = game.position().legal_moves();
        let mut best: Option<(Move, f32)> = None;
        for &m in moves.as_slice() {
            let v = greedy_value(&self.model, &mut g, m);
            if best.is_none_or(|(_, b)| v > b) {
                best = Some((m, v));
            }
        }
        best.map(|(m, _)| m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for name in [
            "random",
            "random:5",
            "study:3",
            "search:8",
            "search:100ms",
            "learned:greedy",
            "learned:6",
            "learned:50ms",
        ] {
            assert_eq!(name.parse::<AgentSpec>().unwrap().to_string(), name);
        }
        assert_eq!(
            "learned".parse::<AgentSpec>().unwrap().to_string(),
            "learned:5"
        );
        for bad in [
            "",
            "study",
            "study:0",
            "study:x",
            "search:0",
            "search:-1ms",
            "learned:fast",
            "alpha",
        ] {
            assert!(bad.parse::<AgentSpec>().is_err(), "{bad}");
        }
    }

    #[test]
    fn every_agent_plays_a_legal_move() {
        let model = Arc::new(NTuple::zero());
        let game = Game::parse("startpos moves 5i5e 5a5d", 300).unwrap();
        for name in [
            "random",
            "study:2",
            "search:2",
            "learned:greedy",
            "learned:2",
        ] {
            let mut a = name.parse::<AgentSpec>().unwrap().build(1, &model);
            let m = a.choose(&game, None).unwrap();
            assert!(game.position().is_legal(m), "{name} played {m}");
        }
    }
}
