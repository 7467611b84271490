//! `koma._koma.NativeBatch`: koma-batch's [`Batch`] with numpy in and out, the GIL released
//! while the batch works. Every call returns new arrays, never a view of memory a later call
//! writes.

use koma_batch::features::FEATURES_LEN;
use koma_batch::tensor::{F_DIM, K_DIM, P_DIM, T_DIM, TENSOR_LEN};
use koma_batch::{ActionKind, AutoReset, Batch, Config, Game, parse_sfens};
use koma_core::{Move, Position};
use numpy::ndarray::{Array1, Array2, ArrayD, IxDyn};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArrayDyn, PyReadonlyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::arrays::{drawn_actions, mask_array, step_actions};
use crate::{SfenError, batch_error};

/// Bytes above which a dense tensor is refused: 4 GiB (about 15,000 positions).
const DENSE_LIMIT: usize = 4 << 30;

/// B shogi games stepped together (koma-batch). Used through `koma.VecEnv`.
#[pyclass(module = "koma._koma")]
pub struct NativeBatch {
    batch: Batch,
}

pub(crate) fn autoreset(mode: &str) -> PyResult<AutoReset> {
    match mode {
        "next_step" => Ok(AutoReset::NextStep),
        "same_step" => Ok(AutoReset::SameStep),
        "disabled" => Ok(AutoReset::Disabled),
        _ => Err(PyValueError::new_err(format!(
            "autoreset mode {mode:?} is not one of 'next_step', 'same_step', 'disabled'"
        ))),
    }
}

pub(crate) fn autoreset_name(mode: AutoReset) -> &'static str {
    match mode {
        AutoReset::NextStep => "next_step",
        AutoReset::SameStep => "same_step",
        AutoReset::Disabled => "disabled",
    }
}

fn action_kind(kind: &str) -> PyResult<ActionKind> {
    match kind {
        "label" => Ok(ActionKind::Label),
        "tensor" => Ok(ActionKind::Tensor),
        _ => Err(PyValueError::new_err(format!(
            "action kind {kind:?} is not 'label' or 'tensor'"
        ))),
    }
}

fn positions(py: Python<'_>, sfens: Vec<String>) -> PyResult<Vec<Position>> {
    py.detach(|| parse_sfens(&sfens)).map_err(batch_error)
}

#[pymethods]
impl NativeBatch {
    /// `num_envs` games from the start position, or one per SFEN of `sfens`; resets go to the
    /// start position, or with `reset_to_given` to each game's own SFEN.
    #[new]
    #[pyo3(signature = (num_envs=1, *, max_plies=512, declaration=false, autoreset_mode="next_step", sfens=None, reset_to_given=false))]
    fn new(
        py: Python<'_>,
        num_envs: usize,
        max_plies: u32,
        declaration: bool,
        autoreset_mode: &str,
        sfens: Option<Vec<String>>,
        reset_to_given: bool,
    ) -> PyResult<NativeBatch> {
        if max_plies == 0 {
            return Err(PyValueError::new_err("max_plies must be at least 1"));
        }
        let config = Config {
            max_plies,
            declaration,
            autoreset: autoreset(autoreset_mode)?,
        };
        let batch = match sfens {
            None => py.detach(|| Batch::new(num_envs, config)),
            Some(sfens) => {
                let given = positions(py, sfens)?;
                let starts = if reset_to_given {
                    given.clone()
                } else {
                    vec![Position::startpos()]
                };
                py.detach(|| Batch::from_positions(given, starts, config))
            }
        }
        .map_err(batch_error)?;
        Ok(NativeBatch { batch })
    }

    /// The number of games.
    #[getter]
    fn num_envs(&self) -> usize {
        self.batch.len()
    }

    /// The ply limit.
    #[getter]
    fn max_plies(&self) -> u32 {
        self.batch.config().max_plies
    }

    /// Whether the 27-point declaration ends games.
    #[getter]
    fn declaration(&self) -> bool {
        self.batch.config().declaration
    }

    /// The autoreset mode: 'next_step', 'same_step' or 'disabled'.
    #[getter]
    fn autoreset_mode(&self) -> &'static str {
        autoreset_name(self.batch.config().autoreset)
    }

    /// Sends every game to its start position.
    fn reset(&mut self, py: Python<'_>) {
        py.detach(|| self.batch.reset());
    }

    /// Replaces the positions resets go to (game i resets to sfens[i % len]).
    fn set_start_sfens(&mut self, py: Python<'_>, sfens: Vec<String>) -> PyResult<()> {
        let starts = positions(py, sfens)?;
        self.batch.set_start_positions(starts).map_err(batch_error)
    }

    /// Plays one action per game; returns (rewards float32 [B, 2], terminated bool [B],
    /// truncated bool [B]).
    #[pyo3(signature = (actions, kind="label"))]
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: PyReadonlyArray1<'py, i64>,
        kind: &str,
    ) -> PyResult<(
        Bound<'py, PyArray2<f32>>,
        Bound<'py, PyArray1<bool>>,
        Bound<'py, PyArray1<bool>>,
    )> {
        let kind = action_kind(kind)?;
        let n = self.batch.len();
        let acts = step_actions(actions.as_slice()?, n, kind.count())?;
        let batch = &mut self.batch;
        let (rewards, term, trunc) = py
            .detach(|| {
                let (mut r, mut t, mut u) = (vec![0.0f32; 2 * n], vec![false; n], vec![false; n]);
                batch.step(&acts, kind, &mut r, &mut t, &mut u)?;
                Ok((r, t, u))
            })
            .map_err(batch_error)?;
        let rewards = Array2::from_shape_vec((n, 2), rewards)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok((
            rewards.into_pyarray(py),
            term.into_pyarray(py),
            trunc.into_pyarray(py),
        ))
    }

    /// The dlshogi action mask, bool [B, 2187] (all true for a game waiting for its reset).
    fn legal_action_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<bool>>> {
        let rows = py.detach(|| self.batch.legal_action_mask_rows());
        mask_array(py, rows)
    }

    /// The dense legal-move tensor, bool [B, 21, 81, 81, 2].
    fn legal_moves_mat<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArrayDyn<bool>>> {
        let n = self.batch.len();
        if n * TENSOR_LEN > DENSE_LIMIT {
            return Err(PyValueError::new_err(format!(
                "a dense [{n}, 21, 81, 81, 2] tensor needs {} MB; use legal_moves_sparse() or a smaller batch",
                (n * TENSOR_LEN) >> 20
            )));
        }
        let v = py
            .detach(|| {
                let mut v = vec![false; n * TENSOR_LEN];
                self.batch.legal_moves_mat(&mut v).map(|_| v)
            })
            .map_err(batch_error)?;
        let a = ArrayD::from_shape_vec(IxDyn(&[n, K_DIM, F_DIM, T_DIM, P_DIM]), v)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(a.into_pyarray(py))
    }

    /// The legal-move tensor as sparse lists: (offsets int64 [B + 1], flat indices int32 [N]).
    fn legal_moves_sparse<'py>(
        &self,
        py: Python<'py>,
    ) -> (Bound<'py, PyArray1<i64>>, Bound<'py, PyArray1<i32>>) {
        let (offsets, indices) = py.detach(|| self.batch.legal_moves_sparse());
        let offsets: Vec<i64> = offsets.into_iter().map(|o| o as i64).collect();
        let indices: Vec<i32> = indices.into_iter().map(|i| i as i32).collect();
        (offsets.into_pyarray(py), indices.into_pyarray(py))
    }

    /// A uniformly random legal label per game, int64 [B], drawn from `seed`.
    fn random_actions<'py>(
        &self,
        py: Python<'py>,
        seed: u64,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        drawn_actions(py, self.batch.len(), |v| self.batch.random_actions(seed, v))
    }

    /// dlshogi input features, uint8 [B, 119, 9, 9].
    fn features<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArrayDyn<u8>>> {
        let n = self.batch.len();
        let v = py
            .detach(|| {
                let mut v = vec![0u8; n * FEATURES_LEN];
                self.batch.features(&mut v).map(|_| v)
            })
            .map_err(batch_error)?;
        let a = ArrayD::from_shape_vec(IxDyn(&[n, FEATURES_LEN / 81, 9, 9]), v)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(a.into_pyarray(py))
    }

    /// The side to move of each game, int8 [B]: 0 Black, 1 White.
    fn current_players<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i8>>> {
        let mut v = vec![0u8; self.batch.len()];
        self.batch.current_players(&mut v).map_err(batch_error)?;
        Ok(Array1::from_iter(v.into_iter().map(|c| c as i8)).into_pyarray(py))
    }

    /// Whether each game has ended and waits for its reset, bool [B].
    fn done<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        self.batch.done().into_pyarray(py)
    }

    /// Moves played in each game's episode, int32 [B].
    fn plies<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i32>> {
        let v: Vec<i32> = self.batch.plies().into_iter().map(|p| p as i32).collect();
        v.into_pyarray(py)
    }

    /// The current positions as SFEN.
    fn sfens(&self, py: Python<'_>) -> Vec<String> {
        py.detach(|| self.batch.sfens())
    }

    /// For autoreset 'same_step': (index, SFEN) of each game the last step ended.
    fn final_sfens(&self) -> Vec<(usize, String)> {
        self.batch
            .final_positions()
            .iter()
            .enumerate()
            .filter_map(|(i, p)| p.as_ref().map(|p| (i, p.to_sfen())))
            .collect()
    }

    /// The dlshogi features of the final positions of `final_sfens`, uint8 [N, 119, 9, 9].
    fn final_features<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArrayDyn<u8>>> {
        let finals: Vec<&Position> = self.batch.final_positions().iter().flatten().collect();
        let mut v = vec![0u8; finals.len() * FEATURES_LEN];
        for (p, out) in finals.iter().zip(v.chunks_mut(FEATURES_LEN)) {
            koma_batch::features::write_features(p, out);
        }
        let a = ArrayD::from_shape_vec(IxDyn(&[finals.len(), FEATURES_LEN / 81, 9, 9]), v)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(a.into_pyarray(py))
    }

    /// The state for pickling: settings, reset positions, and each game as its start SFEN and
    /// the USI moves of its episode.
    fn __getstate__(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let config = self.batch.config();
        let games: Vec<(String, Vec<String>)> = py.detach(|| {
            self.batch
                .games()
                .into_iter()
                .map(|g| {
                    (
                        g.start.to_sfen(),
                        g.moves.iter().map(|m| m.to_string()).collect(),
                    )
                })
                .collect()
        });
        let starts: Vec<String> = self
            .batch
            .start_positions()
            .iter()
            .map(Position::to_sfen)
            .collect();
        let state = (
            1u32,
            config.max_plies,
            config.declaration,
            autoreset_name(config.autoreset),
            starts,
            games,
        );
        Ok(state.into_pyobject(py)?.into_any().unbind())
    }

    /// Restores a state from `__getstate__`.
    #[allow(clippy::type_complexity)]
    fn __setstate__(
        &mut self,
        py: Python<'_>,
        state: (
            u32,
            u32,
            bool,
            String,
            Vec<String>,
            Vec<(String, Vec<String>)>,
        ),
    ) -> PyResult<()> {
        let (version, max_plies, declaration, mode, starts, games) = state;
        if version != 1 {
            return Err(PyValueError::new_err(format!(
                "unknown NativeBatch state version {version}"
            )));
        }
        let config = Config {
            max_plies,
            declaration,
            autoreset: autoreset(&mode)?,
        };
        let starts = positions(py, starts)?;
        let mut parsed = Vec::with_capacity(games.len());
        for (i, (sfen, moves)) in games.into_iter().enumerate() {
            let start = Position::from_sfen(&sfen)
                .map_err(|e| SfenError::new_err(format!("game {i}: {e}")))?;
            let moves = moves
                .iter()
                .map(|m| m.parse::<Move>())
                .collect::<Result<Vec<Move>, _>>()
                .map_err(|e| PyValueError::new_err(format!("game {i}: {e}")))?;
            parsed.push(Game { start, moves });
        }
        self.batch = py
            .detach(|| Batch::from_games(parsed, starts, config))
            .map_err(batch_error)?;
        Ok(())
    }

    fn __repr__(&self) -> String {
        format!(
            "NativeBatch(num_envs={}, max_plies={}, autoreset_mode='{}')",
            self.batch.len(),
            self.batch.config().max_plies,
            autoreset_name(self.batch.config().autoreset)
        )
    }
}
