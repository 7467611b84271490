//! `koma.tsume`: thin bindings over koma-tsume's `solve`, `check` and `Solver`, results as dicts.

use std::time::Duration;

use koma_core::{Move, Position};
use koma_tsume::{Cancel, Mode, NotAProblem, Options, ProblemId, Report, Status, VerdictName};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList, PyString};
use serde_json::Value;

use crate::SfenError;

fn options(
    time: Option<f64>,
    nodes: Option<u64>,
    hash_mib: Option<usize>,
    any: bool,
) -> PyResult<Options> {
    let mut o = Options::default();
    if let Some(t) = time {
        if !(t > 0.0 && t.is_finite()) {
            return Err(PyValueError::new_err(format!(
                "time must be a positive number of seconds, got {t}"
            )));
        }
        o = o.time(Duration::from_secs_f64(t));
    }
    if let Some(n) = nodes {
        o = o.nodes(n);
    }
    if let Some(h) = hash_mib {
        if h == 0 {
            return Err(PyValueError::new_err("hash_mib must be at least 1"));
        }
        o = o.hash_mib(h);
    }
    if any {
        o = o.mode(Mode::Any);
    }
    Ok(o)
}

/// The problem position: `SfenError` when it is not a position, `ValueError` when it is no
/// mate problem (the side not to move has no king).
fn problem(sfen: &str) -> PyResult<Position> {
    let pos =
        koma_core::usi::parse_position(sfen).map_err(|e| SfenError::new_err(e.to_string()))?;
    match NotAProblem::of(&pos) {
        Some(why) => Err(not_a_problem(why)),
        None => Ok(pos),
    }
}

fn not_a_problem(why: NotAProblem) -> PyErr {
    PyValueError::new_err(why.to_string())
}

/// JSON data (koma-tsume's report types, serialised) as Python objects: dicts, lists, str,
/// int, float, bool, None.
fn py_value<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => PyBool::new(py, *b).to_owned().into_any(),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => u.into_pyobject(py)?.into_any(),
            (None, Some(i)) => i.into_pyobject(py)?.into_any(),
            (None, None) => n.as_f64().unwrap_or(f64::NAN).into_pyobject(py)?.into_any(),
        },
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(a) => {
            let l = PyList::empty(py);
            for x in a {
                l.append(py_value(py, x)?)?;
            }
            l.into_any()
        }
        Value::Object(o) => {
            let d = PyDict::new(py);
            for (k, x) in o {
                d.set_item(k, py_value(py, x)?)?;
            }
            d.into_any()
        }
    })
}

/// Solves `sfen` with `solver`'s table: the dict [`tsume_solve`] and [`Solver::solve`] return.
fn solve_with<'py>(
    py: Python<'py>,
    solver: &mut koma_tsume::Solver,
    sfen: &str,
    opts: &Options,
) -> PyResult<Bound<'py, PyDict>> {
    let pos = problem(sfen)?;
    let sol = py
        .detach(|| solver.solve(&pos, opts, &mut |_| {}, &Cancel::new()))
        .map_err(not_a_problem)?;
    let r = Report::from_solution(ProblemId::Number(1), &pos, &sol, None);
    let d = PyDict::new(py);
    d.set_item("outcome", r.status.name())?;
    if r.status == Status::Mate {
        d.set_item("moves", &r.moves)?;
        d.set_item("leftover", &r.leftover)?;
        d.set_item("optimal", r.optimal)?;
    }
    if let Some(why) = r.reason {
        d.set_item("reason", why.name())?;
    }
    d.set_item("nodes", r.nodes)?;
    d.set_item("seconds", sol.stats.elapsed.as_secs_f64())?;
    Ok(d)
}

/// Checks `sfen` with `solver`'s table: the dict [`tsume_check`] and [`Solver::check`] return.
fn check_with<'py>(
    py: Python<'py>,
    solver: &mut koma_tsume::Solver,
    sfen: &str,
    expected: Option<Vec<String>>,
    opts: &Options,
) -> PyResult<Bound<'py, PyDict>> {
    let pos = problem(sfen)?;
    let expected: Option<Vec<Move>> = expected
        .map(|v| {
            v.iter()
                .map(|s| {
                    s.parse::<Move>()
                        .map_err(|e| PyValueError::new_err(format!("{e} (in {s:?})")))
                })
                .collect::<PyResult<Vec<Move>>>()
        })
        .transpose()?;
    let c = py
        .detach(|| solver.check(&pos, opts, expected.as_deref(), &mut |_| {}, &Cancel::new()))
        .map_err(not_a_problem)?;
    let r = Report::from_check(ProblemId::Number(1), &pos, &c, expected.as_deref());
    let d = PyDict::new(py);
    if let Some(why) = r.reason {
        d.set_item("reason", why.name())?;
    }
    d.set_item("verdict", r.verdict.map(VerdictName::name))?;
    d.set_item("answer", r.length.map(|_| &r.moves))?;
    let findings = serde_json::to_value(r.findings.as_deref().unwrap_or_default())
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    d.set_item("findings", py_value(py, &findings)?)?;
    if let Some(cmp) = &r.expected {
        d.set_item("agrees", cmp.agrees)?;
        d.set_item("expected_mates", cmp.expected_mates)?;
        d.set_item(
            "first_difference",
            cmp.first_difference
                .as_ref()
                .map(|x| (x.ply, x.expected.clone(), x.answer.clone())),
        )?;
    }
    d.set_item("nodes", r.nodes)?;
    d.set_item("seconds", c.stats.elapsed.as_secs_f64())?;
    Ok(d)
}

/// Solves a mate problem (the side to move attacks). Returns a dict: `outcome` ('mate',
/// 'nomate', 'unknown'), for a mate `moves` (USI), `leftover` (pieces left in hand, SFEN hand
/// letters, '' for none), `optimal`; for unknown `reason`; and `nodes`, `seconds`. Raises
/// `SfenError` for a bad position and `ValueError` for one that is no mate problem (the side
/// not to move, the defender, has no king). Each call has a table of its own; a [`Solver`]
/// keeps one from call to call.
#[pyfunction]
#[pyo3(signature = (sfen, *, time=None, nodes=None, hash_mib=None, any_mate=false))]
pub fn tsume_solve<'py>(
    py: Python<'py>,
    sfen: &str,
    time: Option<f64>,
    nodes: Option<u64>,
    hash_mib: Option<usize>,
    any_mate: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let opts = options(time, nodes, hash_mib, any_mate)?;
    solve_with(py, &mut koma_tsume::Solver::new(), sfen, &opts)
}

/// Checks a mate problem by the rules of tsume. Returns a dict: `verdict` ('sound', 'flawed',
/// 'nomate', 'unknown'), `answer` (USI moves or None), `findings` (dicts with `kind`:
/// alternative_mate, alternative_final_move, equal_defence, longer_defence, leftover; the
/// fields of koma-tsume's `FindingReport`, as in `koma tsume --check --json`), and with
/// `expected` (USI moves) `agrees` and `first_difference` (ply, expected, answer). Raises as
/// `solve` does.
#[pyfunction]
#[pyo3(signature = (sfen, expected=None, *, time=None, nodes=None, hash_mib=None))]
pub fn tsume_check<'py>(
    py: Python<'py>,
    sfen: &str,
    expected: Option<Vec<String>>,
    time: Option<f64>,
    nodes: Option<u64>,
    hash_mib: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let opts = options(time, nodes, hash_mib, false)?;
    check_with(py, &mut koma_tsume::Solver::new(), sfen, expected, &opts)
}

/// A solver that keeps its transposition table's memory from one problem to the next (koma-tsume's
/// `Solver`): each solve or check starts from an empty table, as `solve` and `check` do, and
/// gives the same answers, but a loop over many problems does not pay for fresh memory each
/// time. The table is `hash_mib` MiB (default 1024), allocated at the first call and held until
/// the solver is dropped. One call at a time: a second thread's call while one runs raises
/// `RuntimeError`.
#[pyclass(module = "koma._koma", name = "TsumeSolver")]
pub struct Solver {
    inner: koma_tsume::Solver,
    hash_mib: Option<usize>,
}

#[pymethods]
impl Solver {
    #[new]
    #[pyo3(signature = (*, hash_mib=None))]
    fn new(hash_mib: Option<usize>) -> PyResult<Solver> {
        // The size is checked here, once, as every call would check it.
        options(None, None, hash_mib, false)?;
        Ok(Solver {
            inner: koma_tsume::Solver::new(),
            hash_mib,
        })
    }

    /// As `koma.tsume.solve`, with this solver's table.
    #[pyo3(signature = (sfen, *, time=None, nodes=None, any_mate=false))]
    fn solve<'py>(
        &mut self,
        py: Python<'py>,
        sfen: &str,
        time: Option<f64>,
        nodes: Option<u64>,
        any_mate: bool,
    ) -> PyResult<Bound<'py, PyDict>> {
        let opts = options(time, nodes, self.hash_mib, any_mate)?;
        solve_with(py, &mut self.inner, sfen, &opts)
    }

    /// As `koma.tsume.check`, with this solver's table.
    #[pyo3(signature = (sfen, expected=None, *, time=None, nodes=None))]
    fn check<'py>(
        &mut self,
        py: Python<'py>,
        sfen: &str,
        expected: Option<Vec<String>>,
        time: Option<f64>,
        nodes: Option<u64>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let opts = options(time, nodes, self.hash_mib, false)?;
        check_with(py, &mut self.inner, sfen, expected, &opts)
    }

    fn __repr__(&self) -> String {
        match self.hash_mib {
            Some(h) => format!("TsumeSolver(hash_mib={h})"),
            None => "TsumeSolver()".to_string(),
        }
    }
}
