//! The native part of the Python package `koma` (`koma._koma`): thin bindings over koma-batch
//! and koma-core. The Pythonic surface (Gymnasium's `VecEnv`, the tensor reference) is in
//! `python/koma/`; logic and errors live in the Rust libraries, rendered here as Python
//! exceptions.

use pyo3::prelude::*;

mod arrays;
mod batch;
mod board;
mod hasami;
mod tsume;

pyo3::create_exception!(
    _koma,
    IllegalMoveError,
    pyo3::exceptions::PyValueError,
    "A move or action that is not legal in its position."
);
pyo3::create_exception!(
    _koma,
    RecordError,
    pyo3::exceptions::PyValueError,
    "A game record that cannot be read (the message names the line and column)."
);
pyo3::create_exception!(
    _koma,
    SfenError,
    pyo3::exceptions::PyValueError,
    "Text that is not a legal position in SFEN."
);

/// Renders a koma-batch error as the matching Python exception.
fn batch_error(e: koma_batch::BatchError) -> PyErr {
    use koma_batch::BatchError as E;
    match e {
        E::Position { .. } => SfenError::new_err(e.to_string()),
        E::Illegal { .. } | E::Replay { .. } => IllegalMoveError::new_err(e.to_string()),
        E::Length { .. } | E::OutOfRange { .. } | E::Empty | E::Settings(_) => {
            pyo3::exceptions::PyValueError::new_err(e.to_string())
        }
    }
}

#[pymodule]
fn _koma(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("IllegalMoveError", m.py().get_type::<IllegalMoveError>())?;
    m.add("SfenError", m.py().get_type::<SfenError>())?;
    m.add("RecordError", m.py().get_type::<RecordError>())?;
    m.add_function(wrap_pyfunction!(board::record_examples, m)?)?;
    m.add_function(wrap_pyfunction!(tsume::tsume_solve, m)?)?;
    m.add_function(wrap_pyfunction!(tsume::tsume_check, m)?)?;
    m.add_class::<tsume::Solver>()?;
    m.add("NUM_LABELS", koma_batch::label::NUM_LABELS)?;
    m.add("NUM_FEATURES", koma_batch::features::NUM_PLANES)?;
    m.add("STARTPOS_SFEN", koma_core::STARTPOS_SFEN)?;
    m.add_class::<batch::NativeBatch>()?;
    m.add_class::<board::Board>()?;
    m.add_class::<hasami::NativeHasami>()?;
    m.add("HASAMI_NUM_ACTIONS", koma_batch::hasami::NUM_ACTIONS)?;
    Ok(())
}
