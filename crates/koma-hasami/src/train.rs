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
//! Files written next to `out` (the model, `.ntw`): `out.state.json` (checkpoint) and `out.csv`
//! (the training curve: win rates of the greedy model against `random` and `study:2`, and the
//! mean squared TD error). Progress goes to a callback ([`TrainProgress`]); front ends draw bars
//! and plots from it (`koma hasami train` adds `out.svg`, see [`crate::plot`]).

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use koma_core::rng::Rng;

use crate::agents::{AgentSpec, LearnedMode, greedy_value};
use crate::arena::{self, ArenaConfig};
use crate::curve::{self, CurvePoint};
use crate::game::{Game, Outcome};
use crate::ntuple::{ModelError, NTuple};
use crate::position::{Move, MoveList, Position};
use crate::search::{Limit, Searcher, WIN};

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
    /// Reading or writing the checkpoint or the curve.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// The checkpoint file is not a training checkpoint.
    #[error("{}: {source}", path.display())]
    Checkpoint {
        /// The checkpoint file.
        path: PathBuf,
        /// Where and why its JSON does not fit.
        source: serde_json::Error,
    },
    /// The checkpoint belongs to a run with another seed (start over to train with this one).
    #[error("checkpoint {} was made with seed {found}, not {expected}", path.display())]
    SeedMismatch {
        /// The checkpoint file.
        path: PathBuf,
        /// Its seed.
        found: u64,
        /// The seed asked for.
        expected: u64,
    },
}

/// What training reports as it goes, to a callback that may stop it.
#[derive(Clone, Copy, Debug)]
pub enum TrainProgress<'a> {
    /// The session starts at game `games` of `total` (above 0 when resuming).
    Started {
        /// Games played by earlier sessions.
        games: u64,
        /// Games to reach.
        total: u64,
    },
    /// A self-play game ended.
    Played {
        /// Games played so far, earlier sessions included.
        games: u64,
    },
    /// An evaluation point: the model, checkpoint and CSV are saved, and `curve` (the whole curve
    /// so far) ends with the new point.
    Evaluated {
        /// The curve, oldest point first.
        curve: &'a [CurvePoint],
    },
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

/// `out` with `ext` appended (`m.ntw` → `m.ntw.csv`): the files training writes beside the model.
pub fn side_file(out: &Path, ext: &str) -> PathBuf {
    let mut s = out.as_os_str().to_owned();
    s.push(ext);
    PathBuf::from(s)
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
            (one_ply_target(model, &mut game, &moves, &mut values), None)
        } else {
            searched_target(model, &game, config.search_depth)
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

/// The TD target by the model one ply deep: the best of the `moves`' values, each left in
/// `values` (in move order) for the choice of a move.
fn one_ply_target(model: &NTuple, game: &mut Game, moves: &MoveList, values: &mut Vec<f32>) -> f32 {
    values.clear();
    for &m in moves.as_slice() {
        values.push(greedy_value(model, game, m));
    }
    values.iter().copied().fold(f32::NEG_INFINITY, f32::max)
}

/// The TD target by koma's searcher with the model at `depth` (a win or loss found is ±1, other
/// scores squashed back to the value scale), and the move it chose.
fn searched_target(model: &NTuple, game: &Game, depth: u32) -> (f32, Option<Move>) {
    let mut searcher = Searcher::new(model, 4);
    let limit = Limit {
        depth: Some(depth),
        movetime: None,
    };
    let r = searcher.search(game.position(), game.keys(), limit);
    let value = if r.score.abs() >= WIN - 256 {
        r.score.signum() as f32
    } else {
        (r.score as f32 / 1000.0).tanh()
    };
    (value, r.best)
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
        arena::run(&config, &model, &|_| {}).win_rate
    };
    (rate("random"), rate("study:2"))
}

/// Trains (or resumes training of) the model at `config.out`, saving a checkpoint and the curve
/// CSV at every evaluation point and telling `on_progress` what happens. Stops at
/// `config.games`, after `config.hours`, or when `on_progress` breaks (the last checkpoint is
/// kept: resuming then replays the same games, so the result stays a function of (seed, games)).
pub fn train(
    config: &TrainConfig,
    mut on_progress: impl FnMut(TrainProgress<'_>) -> ControlFlow<()>,
) -> Result<TrainReport, TrainError> {
    let state_path = side_file(&config.out, ".state.json");
    let (mut model, mut ck) = resume_or_start(config, &state_path)?;
    let resumed_from = ck.games;
    let mut rng = Rng::new(ck.rng_state);
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
    let report = |ck: Checkpoint| TrainReport {
        games: ck.games,
        seconds: ck.seconds,
        curve: ck.curve,
        resumed_from,
    };
    let start = TrainProgress::Started {
        games: ck.games,
        total: config.games,
    };
    if on_progress(start).is_break() {
        return Ok(report(ck));
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
        if on_progress(TrainProgress::Played { games: ck.games }).is_break() {
            break;
        }
        if ck.games % config.eval_every == 0 || ck.games == config.games {
            ck.seconds += last.elapsed().as_secs_f64();
            let loss = if n > 0 { sq / n as f64 } else { 0.0 };
            evaluation_point(&model, &mut ck, config, loss);
            (sq, n) = (0.0, 0);
            ck.rng_state = rng.state();
            save(&model, &ck, config, &state_path)?;
            if on_progress(TrainProgress::Evaluated { curve: &ck.curve }).is_break() {
                break;
            }
            last = Instant::now();
        }
    }
    Ok(report(ck))
}

/// The model and checkpoint to continue from: the saved ones, unless `config.fresh` or there are
/// none; then an untrained model and the seed's generator.
fn resume_or_start(
    config: &TrainConfig,
    state_path: &Path,
) -> Result<(NTuple, Checkpoint), TrainError> {
    if config.fresh || !state_path.exists() {
        let ck = Checkpoint {
            seed: config.seed,
            games: 0,
            rng_state: Rng::derive(config.seed, 0).state(),
            seconds: 0.0,
            curve: Vec::new(),
        };
        return Ok((NTuple::zero(), ck));
    }
    let text = std::fs::read_to_string(state_path).map_err(|source| TrainError::Io {
        path: state_path.to_owned(),
        source,
    })?;
    let ck: Checkpoint = serde_json::from_str(&text).map_err(|source| TrainError::Checkpoint {
        path: state_path.to_owned(),
        source,
    })?;
    if ck.seed != config.seed {
        return Err(TrainError::SeedMismatch {
            path: state_path.to_owned(),
            found: ck.seed,
            expected: config.seed,
        });
    }
    Ok((NTuple::load(&config.out)?, ck))
}

/// Evaluates the model against the fixed opponents and appends the point to the curve.
fn evaluation_point(model: &NTuple, ck: &mut Checkpoint, config: &TrainConfig, loss: f64) {
    let (r, s) = evaluate(
        model,
        config.eval_games,
        config.seed ^ 0xe7a1 ^ ck.games,
        config.ply_limit,
    );
    ck.curve.push(CurvePoint {
        games: ck.games,
        seconds: ck.seconds,
        loss: Some(loss),
        vs_random: r,
        vs_study2: s,
    });
}

fn save(
    model: &NTuple,
    ck: &Checkpoint,
    config: &TrainConfig,
    state_path: &Path,
) -> Result<(), TrainError> {
    model.save(&config.out)?;
    let io = |path: &Path| {
        let path = path.to_owned();
        move |source| TrainError::Io { path, source }
    };
    let json = serde_json::to_string_pretty(ck).map_err(|source| TrainError::Checkpoint {
        path: state_path.to_owned(),
        source,
    })?;
    std::fs::write(state_path, json).map_err(io(state_path))?;
    let csv_path = side_file(&config.out, ".csv");
    std::fs::write(&csv_path, curve::to_csv(&ck.curve)).map_err(io(&csv_path))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quiet(_: TrainProgress<'_>) -> ControlFlow<()> {
        ControlFlow::Continue(())
    }

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
        train(&tiny(a.clone(), 4), quiet).unwrap();
        train(&tiny(b.clone(), 2), quiet).unwrap();
        let resumed = train(&tiny(b.clone(), 4), quiet).unwrap();
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
        let other_seed = TrainConfig {
            seed: 10,
            ..tiny(b.clone(), 6)
        };
        assert!(matches!(
            train(&other_seed, quiet),
            Err(TrainError::SeedMismatch { .. })
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn progress_is_reported_and_a_break_stops_after_the_checkpoint() {
        let dir = std::env::temp_dir().join(format!("koma-hasami-stop-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let out = dir.join("s.ntw");
        let mut seen = Vec::new();
        let report = train(&tiny(out.clone(), 6), |p| {
            seen.push(match p {
                TrainProgress::Started { games, total } => format!("start {games}/{total}"),
                TrainProgress::Played { games } => format!("game {games}"),
                TrainProgress::Evaluated { curve } => format!("eval {}", curve.len()),
            });
            match p {
                TrainProgress::Evaluated { curve } if curve.len() == 3 => ControlFlow::Break(()),
                _ => ControlFlow::Continue(()),
            }
        })
        .unwrap();
        assert_eq!(
            seen,
            [
                "start 0/6",
                "game 1",
                "game 2",
                "eval 2",
                "game 3",
                "game 4",
                "eval 3"
            ]
        );
        assert_eq!(report.games, 4);
        let resumed = train(&tiny(out, 6), quiet).unwrap();
        assert_eq!((resumed.resumed_from, resumed.games), (4, 6));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
