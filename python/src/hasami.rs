//! `koma._koma.NativeHasami`: koma-batch's [`HasamiBatch`] (hasami shogi games of koma-hasami,
//! optionally against one of its agents) with numpy in and out, the GIL released while the batch
//! works. Used through `koma.hasami.VecEnv`.

use std::path::PathBuf;
use std::sync::Arc;

use koma_batch::hasami::{
    HasamiBatch, HasamiConfig, HasamiGame, LearnerColor, NUM_ACTIONS, NUM_PLANES, OBS_LEN, Opponent,
};
use koma_hasami::agents::AgentSpec;
use koma_hasami::ntuple::NTuple;
use koma_hasami::{Color, Game};
use numpy::ndarray::{ArrayD, IxDyn};
use numpy::{IntoPyArray, PyArray1, PyArrayDyn, PyReadonlyArray1};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;

use crate::arrays::{drawn_actions, mask_array, step_actions};
use crate::batch::{autoreset, autoreset_name};
use crate::batch_error;

/// B hasami shogi games stepped together, in self-play or against a koma-hasami agent.
#[pyclass(module = "koma._koma")]
pub struct NativeHasami {
    batch: HasamiBatch,
    /// The bytes of a model given by path (kept for pickling); `None`: the shipped model.
    model_bytes: Option<Vec<u8>>,
}

fn learner_color(name: &str) -> PyResult<LearnerColor> {
    match name {
        "black" => Ok(LearnerColor::Black),
        "white" => Ok(LearnerColor::White),
        "alternate" => Ok(LearnerColor::Alternate),
        _ => Err(PyValueError::new_err(format!(
            "learner {name:?} is not one of 'black', 'white', 'alternate'"
        ))),
    }
}

fn learner_name(c: LearnerColor) -> &'static str {
    match c {
        LearnerColor::Black => "black",
        LearnerColor::White => "white",
        LearnerColor::Alternate => "alternate",
    }
}

fn color_code(c: Color) -> i8 {
    match c {
        Color::Black => 0,
        Color::White => 1,
    }
}

/// The model of a `learned` opponent: the file at `path` (its bytes kept) or the shipped one.
fn load_model(
    agent: &AgentSpec,
    path: Option<PathBuf>,
) -> PyResult<(Arc<NTuple>, Option<Vec<u8>>)> {
    match (agent, path) {
        (_, None) => Ok((Opponent::new(*agent).model, None)),
        (AgentSpec::Learned(_), Some(path)) => {
            let bytes = std::fs::read(&path)
                .map_err(|e| PyOSError::new_err(format!("model file {}: {e}", path.display())))?;
            let model = NTuple::from_bytes(&bytes, &path.display().to_string())
                .map_err(|e| PyValueError::new_err(e.to_string()))?;
            Ok((Arc::new(model), Some(bytes)))
        }
        (_, Some(_)) => Err(PyValueError::new_err(format!(
            "a model is read only by a 'learned' opponent, not by {agent}"
        ))),
    }
}

#[allow(clippy::too_many_arguments)]
fn config(
    opponent: Option<AgentSpec>,
    learner: &str,
    max_plies: u32,
    opening_plies: u32,
    autoreset_mode: &str,
    seed: u64,
    model: Arc<NTuple>,
) -> PyResult<HasamiConfig> {
    if max_plies == 0 {
        return Err(PyValueError::new_err("max_plies must be at least 1"));
    }
    let learner = learner_color(learner)?;
    let opponent = opponent.map(|agent| Opponent {
        agent,
        learner,
        model,
    });
    Ok(HasamiConfig {
        ply_limit: max_plies,
        opening_plies,
        autoreset: autoreset(autoreset_mode)?,
        opponent,
        seed,
    })
}

fn parse_agent(name: Option<&str>) -> PyResult<Option<AgentSpec>> {
    name.map(|n| {
        n.parse::<AgentSpec>()
            .map_err(|e| PyValueError::new_err(e.to_string()))
    })
    .transpose()
}

/// A stored game (`position startpos moves ...`) read back, every move checked.
fn parse_game(i: usize, record: &str, ply_limit: u32) -> PyResult<Game> {
    Game::parse(record, ply_limit).map_err(|e| PyValueError::new_err(format!("game {i}: {e}")))
}

type State = (
    u32,
    Option<String>,
    String,
    u32,
    u32,
    String,
    u64,
    Option<Vec<u8>>,
    Vec<(u64, i8, String)>,
);

#[pymethods]
impl NativeHasami {
    /// `num_envs` games at the start of their first episode; `opponent` names a koma-hasami
    /// agent (`random`, `study:D`, `search[:D|:MSms]`, `learned[:D|:MSms|:greedy]`) that plays the
    /// other side inside each step, `None` for self-play.
    #[new]
    #[pyo3(signature = (num_envs=1, *, opponent=None, learner="alternate", max_plies=300, opening_plies=0, autoreset_mode="next_step", seed=0, model=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        num_envs: usize,
        opponent: Option<&str>,
        learner: &str,
        max_plies: u32,
        opening_plies: u32,
        autoreset_mode: &str,
        seed: u64,
        model: Option<PathBuf>,
    ) -> PyResult<NativeHasami> {
        let agent = parse_agent(opponent)?;
        let (model, model_bytes) = match &agent {
            Some(agent) => load_model(agent, model)?,
            None if model.is_some() => {
                return Err(PyValueError::new_err(
                    "a model is read only by a 'learned' opponent, not in self-play",
                ));
            }
            None => (Arc::new(NTuple::zero()), None),
        };
        let config = config(
            agent,
            learner,
            max_plies,
            opening_plies,
            autoreset_mode,
            seed,
            model,
        )?;
        let batch = py
            .detach(|| HasamiBatch::new(num_envs, config))
            .map_err(batch_error)?;
        Ok(NativeHasami { batch, model_bytes })
    }

    /// The number of games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.batch.len()
    }

    /// The opponent's name, `None` in self-play.
    #[getter]
    fn opponent(&self) -> Option<String> {
        self.batch
            .config()
            .opponent
            .as_ref()
            .map(|o| o.agent.to_string())
    }

    /// The learner's colour: 'black', 'white' or 'alternate'.
    #[getter]
    fn learner(&self) -> &'static str {
        learner_name(
            self.batch
                .config()
                .opponent
                .as_ref()
                .map_or(LearnerColor::Black, |o| o.learner),
        )
    }

    /// The ply limit.
    #[getter]
    fn max_plies(&self) -> u32 {
        self.batch.config().ply_limit
    }

    /// Random moves opening each episode.
    #[getter]
    fn opening_plies(&self) -> u32 {
        self.batch.config().opening_plies
    }

    /// The autoreset mode: 'next_step', 'same_step' or 'disabled'.
    #[getter]
    fn autoreset_mode(&self) -> &'static str {
        autoreset_name(self.batch.config().autoreset)
    }

    /// The seed of the openings and the opponent.
    #[getter]
    fn seed(&self) -> u64 {
        self.batch.config().seed
    }

    /// Rewards per game: 2 in self-play (Black, White), 1 against an opponent.
    #[getter]
    fn reward_width(&self) -> usize {
        self.batch.reward_width()
    }

    /// Sends every game to the start of its next episode; with `seed`, starts the batch afresh
    /// (episode 0) from that seed.
    #[pyo3(signature = (seed=None))]
    fn reset(&mut self, py: Python<'_>, seed: Option<u64>) -> PyResult<()> {
        match seed {
            None => py.detach(|| self.batch.reset()),
            Some(seed) => {
                let mut config = self.batch.config().clone();
                config.seed = seed;
                let n = self.batch.len();
                self.batch = py
                    .detach(|| HasamiBatch::new(n, config))
                    .map_err(batch_error)?;
            }
        }
        Ok(())
    }

    /// Plays one action per game (and the opponent's reply); returns (rewards float32 [B] or
    /// [B, 2], terminated bool [B], truncated bool [B]).
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
    ) -> PyResult<(
        Bound<'py, PyArrayDyn<f32>>,
        Bound<'py, PyArray1<bool>>,
        Bound<'py, PyArray1<bool>>,
    )> {
        let n = self.batch.len();
        let acts = step_actions(actions.as_slice()?, n, NUM_ACTIONS)?;
        let width = self.batch.reward_width();
        let batch = &mut self.batch;
        let (rewards, term, trunc) = py
            .detach(|| {
                let (mut r, mut t, mut u) =
                    (vec![0.0f32; width * n], vec![false; n], vec![false; n]);
                batch.step(&acts, &mut r, &mut t, &mut u)?;
                Ok((r, t, u))
            })
            .map_err(batch_error)?;
        let shape = if width == 1 { vec![n] } else { vec![n, width] };
        let rewards = ArrayD::from_shape_vec(IxDyn(&shape), rewards)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok((
            rewards.into_pyarray(py),
            term.into_pyarray(py),
            trunc.into_pyarray(py),
        ))
    }

    /// The action mask, bool [B, 6561] (all true for a game waiting for its reset).
    fn legal_action_mask<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Bound<'py, numpy::PyArray2<bool>>> {
        let rows = py.detach(|| self.batch.legal_action_mask_rows());
        mask_array(py, rows)
    }

    /// A uniformly random legal action per game, int64 [B], drawn from `seed`.
    fn random_actions<'py>(
        &self,
        py: Python<'py>,
        seed: u64,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        drawn_actions(py, self.batch.len(), |v| self.batch.random_actions(seed, v))
    }

    /// The observations, uint8 [B, 4, 9, 9].
    fn observations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArrayDyn<u8>>> {
        let n = self.batch.len();
        let v = py
            .detach(|| {
                let mut v = vec![0u8; n * OBS_LEN];
                self.batch.observations(&mut v).map(|_| v)
            })
            .map_err(batch_error)?;
        let a = ArrayD::from_shape_vec(IxDyn(&[n, NUM_PLANES, 9, 9]), v)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(a.into_pyarray(py))
    }

    /// For autoreset 'same_step': (index, record) of each game the last step ended.
    fn final_records(&self) -> Vec<(usize, String)> {
        self.batch
            .final_games()
            .iter()
            .enumerate()
            .filter_map(|(i, g)| g.map(|g| (i, g.record())))
            .collect()
    }

    /// The observations of the games of `final_records`, uint8 [N, 4, 9, 9].
    fn final_observations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArrayDyn<u8>>> {
        let v = self.batch.final_observations();
        let a = ArrayD::from_shape_vec(IxDyn(&[v.len() / OBS_LEN, NUM_PLANES, 9, 9]), v)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(a.into_pyarray(py))
    }

    /// The side to move of each game, int8 [B]: 0 Black, 1 White.
    fn current_players<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let v: Vec<i8> = self
            .batch
            .sides_to_move()
            .into_iter()
            .map(color_code)
            .collect();
        v.into_pyarray(py)
    }

    /// The learner's colour in each game's episode, int8 [B]: 0 Black, 1 White.
    fn learner_colors<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let v: Vec<i8> = self
            .batch
            .learner_colors()
            .into_iter()
            .map(color_code)
            .collect();
        v.into_pyarray(py)
    }

    /// Whether each game has ended and waits for its reset, bool [B].
    fn done<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.batch.done().into_pyarray(py)
    }

    /// The number of legal moves of each game's position, int32 [B].
    fn legal_move_counts<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i32>> {
        let v: Vec<i32> = self
            .batch
            .legal_move_counts()
            .into_iter()
            .map(|c| c as i32)
            .collect();
        v.into_pyarray(py)
    }

    /// The current positions in koma-hasami's notation (`ppppppppp/9/.../PPPPPPPPP b 1`).
    fn positions(&self) -> Vec<String> {
        (0..self.batch.len())
            .filter_map(|i| self.batch.position(i).map(|p| p.to_string()))
            .collect()
    }

    /// Each game of the current episode as `position startpos moves ...` (koma-hasami's engine
    /// protocol), opening and opponent moves included.
    fn records(&self) -> Vec<String> {
        (0..self.batch.len())
            .filter_map(|i| self.batch.game(i).map(Game::record))
            .collect()
    }

    /// The state for pickling: settings, the model bytes if one was loaded, and each game as
    /// (episode, learner colour, record).
    fn __getstate__(&self) -> State {
        let config = self.batch.config();
        let games = self
            .batch
            .games()
            .into_iter()
            .map(|g| (g.episode, color_code(g.learner), g.game.record()))
            .collect();
        (
            1,
            self.opponent(),
            self.learner().to_string(),
            config.ply_limit,
            config.opening_plies,
            self.autoreset_mode().to_string(),
            config.seed,
            self.model_bytes.clone(),
            games,
        )
    }

    /// Restores a state from `__getstate__`.
    fn __setstate__(&mut self, py: Python<'_>, state: State) -> PyResult<()> {
        let (version, opponent, learner, max_plies, opening, mode, seed, model_bytes, games) =
            state;
        if version != 1 {
            return Err(PyValueError::new_err(format!(
                "unknown NativeHasami state version {version}"
            )));
        }
        let agent = parse_agent(opponent.as_deref())?;
        let model = match (&model_bytes, agent) {
            (Some(bytes), _) => Arc::new(
                NTuple::from_bytes(bytes, "<pickled model>")
                    .map_err(|e| PyValueError::new_err(e.to_string()))?,
            ),
            (None, Some(agent)) => Opponent::new(agent).model,
            (None, None) => Arc::new(NTuple::zero()),
        };
        let config = config(agent, &learner, max_plies, opening, &mode, seed, model)?;
        let mut stored = Vec::with_capacity(games.len());
        for (i, (episode, learner, record)) in games.into_iter().enumerate() {
            let learner = match learner {
                0 => Color::Black,
                1 => Color::White,
                _ => {
                    return Err(PyValueError::new_err(format!(
                        "game {i}: learner colour {learner} is not 0 or 1"
                    )));
                }
            };
            stored.push(HasamiGame {
                episode,
                learner,
                game: parse_game(i, &record, max_plies)?,
            });
        }
        self.batch = py
            .detach(|| HasamiBatch::from_games(stored, config))
            .map_err(batch_error)?;
        self.model_bytes = model_bytes;
        Ok(())
    }

    fn __repr__(&self) -> String {
        format!(
            "NativeHasami(num_envs={}, opponent={:?}, max_plies={})",
            self.batch.len(),
            self.opponent(),
            self.batch.config().ply_limit
        )
    }
}
