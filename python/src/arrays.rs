//! What the shogi and hasami bindings share on the numpy side: the check of an action array,
//! arrays made from the batches' outputs without copying them, and random actions.

use koma_batch::BatchError;
use numpy::ndarray::{Array1, Array2};
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use crate::batch_error;

/// The actions of a step as `u32`, one per environment: the array must have `n` elements and no
/// negative or too large number (the batch checks each against its legal moves).
pub(crate) fn step_actions(actions: &[i64], n: usize, limit: usize) -> PyResult<Vec<u32>> {
    if actions.len() != n {
        return Err(PyValueError::new_err(format!(
            "actions has {} elements, expected {n} (one per environment)",
            actions.len()
        )));
    }
    actions
        .iter()
        .enumerate()
        .map(|(env, &a)| {
            u32::try_from(a).map_err(|_| {
                PyValueError::new_err(format!(
                    "environment {env}: action {a} is out of range 0..{limit}"
                ))
            })
        })
        .collect()
}

/// An action mask `[B, W]` as a numpy array owning the rows' memory (no copy, no zeroing).
pub(crate) fn mask_array<'py, const W: usize>(
    py: Python<'py>,
    rows: Vec<[bool; W]>,
) -> PyResult<Bound<'py, PyArray2<bool>>> {
    let n = rows.len();
    let a = Array2::from_shape_vec((n, W), rows.into_flattened())
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok(a.into_pyarray(py))
}

/// `n` actions drawn by `draw` (a batch's `random_actions` into a buffer of one entry per game)
/// with the GIL released, as int64 `[B]`.
pub(crate) fn drawn_actions<'py>(
    py: Python<'py>,
    n: usize,
    draw: impl FnOnce(&mut [u32]) -> Result<(), BatchError> + Send,
) -> PyResult<Bound<'py, PyArray1<i64>>> {
    let v = py
        .detach(|| {
            let mut v = vec![0u32; n];
            draw(&mut v).map(|()| v)
        })
        .map_err(batch_error)?;
    Ok(Array1::from_iter(v.into_iter().map(i64::from)).into_pyarray(py))
}
