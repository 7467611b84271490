//! Self-play training of the n-tuple model by TD learning with a one-ply greedy backup
//! (TD(0) on positions, target = the best one-ply value, as in TD-leaf at depth 1).
//!
//! Each game starts from a few seeded random plies; then both sides play the model's greedy move,
//! or with probability ε a uniformly random move. Before every move the position's value is moved
//! towards the best one-ply value among its moves (a win at once counts +1, a draw 0), by the
//! cross-entropy gradient on the logit. Everything random comes from one seeded [`Rng`], so a run is
//! a function of its seed and its number of games; checkpoints store the generator state, so a
//! resumed run continues exactly as an uninterrupted one would.
//!
//! Files written next to `out` (the model, `.ntw`): `out.state.json` (checkpoint), `out.csv` and
//! `out.svg` (the training curve: win rates of the greedy model against `random` and `study:2`,
//! and the mean squared TD error).

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use crate::agents::{AgentSpec, LearnedMode, greedy_value};
use crate::arena::{self, ArenaConfig};
use crate::game::{Game, Outcome};
use crate::ntuple::{ModelError, NTuple};
use crate::position::Position;
use crate::search::{Limit, Searcher, WIN};
use koma_core::rng::Rng;

/// Training settings.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// The model file to write (checkpoints go next to it).
    pub out: PathBuf,
    /// Seed of everything random.
    pub seed: u64,
    /// Stop after this many self-play games in total (including earlier sessions).
    pub games: u64,
    /// Also stop after this much wall time in this session, in hours.
    pub hours: Option<f64>,
    /// Step size per weight.
    pub alpha: f32,
    /// Depth of the search that gives targets and moves in self-play: 0 is the model alone one
    /// ply deep; 1 or more uses koma's searcher (quiescence included) with the model (TD-root).
    pub search_depth: u32,
    /// Probability of a random move in self-play.
    pub epsilon: f64,
    /// Random plies at the start of each self-play game: uniform in 0..=this.
    pub opening_plies: u32,
    /// Evaluate (and checkpoint) every this many games.
    pub eval_every: u64,
    /// Evaluation games per opponent and colour.
    pub eval_games: usize,
    /// Ply limit of self-play and evaluation games.
    pub ply_limit: u32,
    /// Start over even if a checkpoint exists.
    pub fresh: bool,
}

impl TrainConfig {
    /// The settings used for the shipped model, writing to `out`.
    pub fn new(out: PathBuf, seed: u64) -> TrainConfig {
        TrainConfig {
            out,
            seed,
            games: 60_000,
            hours: None,
            alpha: 0.002,
            epsilon: 0.05,
            search_depth: 0,
            opening_plies: 6,
            eval_every: 5_000,
            eval_games: 10,
            ply_limit: crate::game::DEFAULT_PLY_LIMIT,
            fresh: false,
        }
    }
}

/// Why training stopped early.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// Reading or writing the model.
    #[error(transparent)]
    Model(#[from] ModelError),
    /// Reading or writing the checkpoint, curve or plot.
    #[error("{path}: {reason}")]
    File {
        /// The file.
        path: String,
        /// What went wrong.
        reason: String,
    },
    /// The checkpoint belongs to a run with other settings.
    #[error(
        "checkpoint {path} was made with seed {found}, not {expected}; use --fresh to start over"
    )]
    SeedMismatch {
        /// The checkpoint file.
        path: String,
        /// Its seed.
        found: u64,
        /// The seed asked for.
        expected: u64,
    },
}

/// One point of the training curve.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct CurvePoint {
    /// Self-play games so far.
    pub games: u64,
    /// Training seconds so far (evaluation excluded).
    pub seconds: f64,
    /// Mean squared TD error since the previous point (none before training).
    pub loss: Option<f64>,
    /// Win rate of the greedy model against `random`.
    pub vs_random: f64,
    /// Win rate of the greedy model against `study:2`.
    pub vs_study2: f64,
}

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
struct Checkpoint {
    seed: u64,
    games: u64,
    rng_state: u64,
    seconds: f64,
    curve: Vec<CurvePoint>,
}

/// What a training session did.
#[derive(Clone, Debug)]
pub struct TrainReport {
    /// Games in total.
    pub games: u64,
    /// Training seconds in total.
    pub seconds: f64,
    /// The curve.
    pub curve: Vec<CurvePoint>,
    /// Games this session started from (0 for a fresh run).
    pub resumed_from: u64,
}

fn side_file(out: &Path, ext: &str) -> PathBuf {
    let mut s = out.as_os_str().to_owned();
    s.push(ext);
    PathBuf::from(s)
}

fn file_err(path: &Path, e: impl std::fmt::Display) -> TrainError {
    TrainError::File {
        path: path.display().to_string(),
        reason: e.to_string(),
    }
}

/// Plays one self-play game, updating `model`; returns (sum of squared TD errors, positions).
pub fn self_play_game(model: &mut NTuple, rng: &mut Rng, config: &TrainConfig) -> (f64, u64) {
    let mut game = Game::new(Position::startpos(), config.ply_limit);
    let random_plies = rng.below(config.opening_plies as usize + 1);
    let (mut sq_err, mut n) = (0.0f64, 0u64);
    let mut values = Vec::with_capacity(crate::position::MAX_MOVES);
    while game.outcome() == Outcome::Ongoing {
        let moves = game.position().legal_moves();
        let (target, searched) = if config.search_depth == 0 {
            values.clear();
            for &m in moves.as_slice() {
                values.push(greedy_value(model, &mut game, m));
            }
            (
                values.iter().copied().fold(f32::NEG_INFINITY, f32::max),
                None,
            )
        } else {
            let mut searcher = Searcher::new(&*model, 4);
            let limit = Limit {
                depth: Some(config.search_depth),
                movetime: None,
            };
            let r = searcher.search(game.position(), game.keys(), limit);
            let value = if r.score.abs() >= WIN - 256 {
                r.score.signum() as f32
            } else {
                (r.score as f32 / 1000.0).tanh()
            };
            (value, r.best)
        };
        let features = NTuple::features(game.position());
        let v = model.logit_of(&features).tanh();
        let err = target - v;
        model.add(&features, config.alpha * err);
        sq_err += (err * err) as f64;
        n += 1;
        let explore = game.moves().len() < random_plies || rng.unit() < config.epsilon;
        let index = if explore {
            rng.below(moves.len())
        } else if let Some(best) = searched {
            moves
                .as_slice()
                .iter()
                .position(|&m| m == best)
                .unwrap_or(0)
        } else {
            // Uniform among the best (ties are common early in training).
            let best: Vec<usize> = (0..values.len()).filter(|&i| values[i] == target).collect();
            best[rng.below(best.len())]
        };
        game.play(moves.as_slice()[index]);
    }
    (sq_err, n)
}

/// Win rates of the greedy model against `random` and `study:2`.
pub fn evaluate(model: &NTuple, games: usize, seed: u64, ply_limit: u32) -> (f64, f64) {
    let model = Arc::new(model.clone());
    let rate = |opponent: &str| {
        let config = ArenaConfig {
            black: AgentSpec::Learned(LearnedMode::Greedy),
            white: opponent.parse().unwrap_or(AgentSpec::Random(0)),
            games,
            swap: true,
            opening_plies: 4,
            seed,
            ply_limit,
        };
        arena::run(&config, &model, false).win_rate
    };
    (rate("random"), rate("study:2"))
}

/// Trains (or resumes training of) the model at `config.out`, showing a progress bar on stderr
/// if `progress`. Saves a checkpoint, curve CSV and SVG plot at every evaluation point.
pub fn train(config: &TrainConfig, progress: bool) -> Result<TrainReport, TrainError> {
    let state_path = side_file(&config.out, ".state.json");
    let (mut model, mut ck) = if !config.fresh && state_path.exists() {
        let text = std::fs::read_to_string(&state_path).map_err(|e| file_err(&state_path, e))?;
        let ck: Checkpoint = serde_json::from_str(&text).map_err(|e| file_err(&state_path, e))?;
        if ck.seed != config.seed {
            return Err(TrainError::SeedMismatch {
                path: state_path.display().to_string(),
                found: ck.seed,
                expected: config.seed,
            });
        }
        (NTuple::load(&config.out)?, ck)
    } else {
        let ck = Checkpoint {
            seed: config.seed,
            games: 0,
            rng_state: Rng::derive(config.seed, 0).state(),
            seconds: 0.0,
            curve: Vec::new(),
        };
        (NTuple::zero(), ck)
    };
    let resumed_from = ck.games;
    let mut rng = Rng::new(ck.rng_state);
    let bar = if progress {
        let bar = indicatif::ProgressBar::new(config.games);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{elapsed_precise} [{bar:30}] {pos}/{len} games {msg}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar.set_position(ck.games);
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    if ck.curve.is_empty() {
        let (r, s) = evaluate(
            &model,
            config.eval_games,
            config.seed ^ 0xe7a1,
            config.ply_limit,
        );
        ck.curve.push(CurvePoint {
            games: 0,
            seconds: 0.0,
            loss: None,
            vs_random: r,
            vs_study2: s,
        });
    }
    let session = Instant::now();
    let (mut sq, mut n) = (0.0f64, 0u64);
    let mut last = Instant::now();
    while ck.games < config.games
        && config
            .hours
            .is_none_or(|h| session.elapsed().as_secs_f64() < h * 3600.0)
    {
        let (e, k) = self_play_game(&mut model, &mut rng, config);
        sq += e;
        n += k;
        ck.games += 1;
        bar.inc(1);
        if ck.games % config.eval_every == 0 || ck.games == config.games {
            ck.seconds += last.elapsed().as_secs_f64();
            let (r, s) = evaluate(
                &model,
                config.eval_games,
                config.seed ^ 0xe7a1 ^ ck.games,
                config.ply_limit,
            );
            let loss = if n > 0 { sq / n as f64 } else { 0.0 };
            ck.curve.push(CurvePoint {
                games: ck.games,
                seconds: ck.seconds,
                loss: Some(loss),
                vs_random: r,
                vs_study2: s,
            });
            bar.set_message(format!(
                "loss {loss:.4}, greedy vs random {:.0}%, vs study:2 {:.0}%",
                100.0 * r,
                100.0 * s
            ));
            (sq, n) = (0.0, 0);
            ck.rng_state = rng.state();
            save(&model, &ck, config, &state_path)?;
            last = Instant::now();
        }
    }
    // A time-limited stop between evaluation points keeps the last checkpoint, so resuming replays
    // the same games and the result stays a function of (seed, games).
    bar.finish();
    Ok(TrainReport {
        games: ck.games,
        seconds: ck.seconds,
        curve: ck.curve,
        resumed_from,
    })
}

fn save(
    model: &NTuple,
    ck: &Checkpoint,
    config: &TrainConfig,
    state_path: &Path,
) -> Result<(), TrainError> {
    model.save(&config.out)?;
    let json = serde_json::to_string_pretty(ck).map_err(|e| file_err(state_path, e))?;
    std::fs::write(state_path, json).map_err(|e| file_err(state_path, e))?;
    let csv_path = side_file(&config.out, ".csv");
    let mut csv = String::from("games,seconds,td_loss,greedy_vs_random,greedy_vs_study2\n");
    for p in &ck.curve {
        let loss = p.loss.map(|l| format!("{l:.5}")).unwrap_or_default();
        csv.push_str(&format!(
            "{},{:.1},{loss},{:.3},{:.3}\n",
            p.games, p.seconds, p.vs_random, p.vs_study2
        ));
    }
    std::fs::write(&csv_path, csv).map_err(|e| file_err(&csv_path, e))?;
    let svg_path = side_file(&config.out, ".svg");
    crate::plot::curve_svg(&ck.curve, &svg_path).map_err(|e| file_err(&svg_path, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny(out: PathBuf, games: u64) -> TrainConfig {
        TrainConfig {
            games,
            eval_every: 2,
            eval_games: 1,
            ..TrainConfig::new(out, 9)
        }
    }

    #[test]
    fn training_is_reproducible_and_resumes_exactly() {
        let dir = std::env::temp_dir().join(format!("koma-hasami-train-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let a = dir.join("a.ntw");
        let b = dir.join("b.ntw");
        train(&tiny(a.clone(), 4), false).unwrap();
        train(&tiny(b.clone(), 2), false).unwrap();
        let resumed = train(&tiny(b.clone(), 4), false).unwrap();
        assert_eq!(resumed.resumed_from, 2);
        // (assert! rather than assert_eq!: a failure must not print half a million weights)
        assert!(NTuple::load(&a).unwrap() == NTuple::load(&b).unwrap());
        assert!(NTuple::load(&a).unwrap() != NTuple::zero());
        assert!(
            std::fs::read_to_string(side_file(&a, ".csv"))
                .unwrap()
                .lines()
                .count()
                == 4
        );
        assert!(
            std::fs::read_to_string(side_file(&a, ".svg"))
                .unwrap()
                .contains("<svg")
        );
        let other_seed = TrainConfig {
            seed: 10,
            ..tiny(b.clone(), 6)
        };
        assert!(matches!(
            train(&other_seed, false),
            Err(TrainError::SeedMismatch { .. })
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
