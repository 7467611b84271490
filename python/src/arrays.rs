//! What the shogi and hasami bindings share on the numpy side: the check of an action array,
//! and arrays made from the batches' outputs without copying them.

use numpy::ndarray::{Array1, Array2};
use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

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

/// Action numbers as int64 `[B]`.
pub(crate) fn actions_array(py: Python<'_>, v: Vec<u32>) -> Bound<'_, PyArray1<i64>> {
    Array1::from_iter(v.into_iter().map(i64::from)).into_pyarray(py)
}
