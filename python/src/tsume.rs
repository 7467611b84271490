//! `koma.tsume`: thin bindings over koma-tsume's `solve` and `check`, results as dicts.

use std::time::Duration;

use koma_core::{Move, Position};
use koma_tsume::{
    Cancel, Finding, Mode, Options, Outcome, Status, Verdict, VerdictName, hand_letters,
};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

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

fn position(sfen: &str) -> PyResult<Position> {
    koma_core::usi::parse_position(sfen).map_err(|e| SfenError::new_err(e.to_string()))
}

fn usi(moves: &[Move]) -> Vec<String> {
    moves.iter().map(Move::to_string).collect()
}

/// Solves a mate problem (the side to move attacks). Returns a dict: `outcome` ('mate',
/// 'nomate', 'unknown'), for a mate `moves` (USI), `leftover` (pieces left in hand, SFEN hand
/// letters, '' for none), `optimal`; for unknown `reason`; and `nodes`, `seconds`.
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
    let pos = position(sfen)?;
    let opts = options(time, nodes, hash_mib, any_mate)?;
    let sol = py.detach(|| koma_tsume::solve(&pos, &opts, &mut |_| {}, &Cancel::new()));
    let d = PyDict::new(py);
    match &sol.outcome {
        Outcome::Mate(a) => {
            d.set_item("outcome", Status::Mate.name())?;
            d.set_item("moves", usi(&a.moves))?;
            d.set_item("leftover", hand_letters(a.leftover))?;
            d.set_item("optimal", a.optimal)?;
        }
        Outcome::NoMate => d.set_item("outcome", Status::NoMate.name())?,
        Outcome::Unknown(r) => {
            d.set_item("outcome", Status::Unknown.name())?;
            d.set_item("reason", r.name())?;
        }
    }
    d.set_item("nodes", sol.stats.nodes)?;
    d.set_item("seconds", sol.stats.elapsed.as_secs_f64())?;
    Ok(d)
}

/// Checks a mate problem by the rules of tsume. Returns a dict: `verdict` ('sound', 'flawed',
/// 'nomate', 'unknown'), `answer` (USI moves or None), `findings` (dicts with `kind`:
/// alternative_mate, alternative_final_move, equal_defence, longer_defence, leftover), and with
/// `expected` (USI moves) `agrees` and `first_difference` (ply, expected, answer).
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
    let pos = position(sfen)?;
    let opts = options(time, nodes, hash_mib, false)?;
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
    let c = py.detach(|| {
        koma_tsume::check(
            &pos,
            &opts,
            expected.as_deref(),
            &mut |_| {},
            &Cancel::new(),
        )
    });
    let d = PyDict::new(py);
    if let Verdict::Unknown(r) = c.verdict {
        d.set_item("reason", r.name())?;
    }
    d.set_item("verdict", VerdictName::of(&c.verdict).name())?;
    d.set_item("answer", c.answer.as_ref().map(|a| usi(&a.moves)))?;
    let findings = PyList::empty(py);
    for f in &c.findings {
        let fd = PyDict::new(py);
        fd.set_item("flaw", f.is_flaw())?;
        match f {
            Finding::AlternativeMate { ply, mv, within } => {
                fd.set_item("kind", "alternative_mate")?;
                fd.set_item("ply", ply)?;
                fd.set_item("move", mv.to_string())?;
                fd.set_item("within", within)?;
            }
            Finding::AlternativeFinalMove { ply, mv } => {
                fd.set_item("kind", "alternative_final_move")?;
                fd.set_item("ply", ply)?;
                fd.set_item("move", mv.to_string())?;
            }
            Finding::EqualDefence {
                ply,
                line,
                leftover,
            }
            | Finding::LongerDefence {
                ply,
                line,
                leftover,
            } => {
                let kind = if matches!(f, Finding::EqualDefence { .. }) {
                    "equal_defence"
                } else {
                    "longer_defence"
                };
                fd.set_item("kind", kind)?;
                fd.set_item("ply", ply)?;
                fd.set_item("line", usi(line))?;
                fd.set_item("leftover", hand_letters(*leftover))?;
                if let Some(n) = c
                    .answer
                    .as_ref()
                    .and_then(|a| f.minimax_beyond_line(a.len()))
                {
                    fd.set_item("minimax_length", n)?;
                }
            }
            Finding::Leftover { pieces } => {
                fd.set_item("kind", "leftover")?;
                fd.set_item("pieces", hand_letters(*pieces))?;
            }
        }
        findings.append(fd)?;
    }
    d.set_item("findings", findings)?;
    if let Some(cmp) = &c.expected {
        d.set_item("agrees", cmp.agrees)?;
        d.set_item("expected_mates", cmp.expected_mates)?;
        d.set_item(
            "first_difference",
            cmp.first_difference.map(|x| {
                (
                    x.ply,
                    x.expected.map(|m| m.to_string()),
                    x.answer.map(|m| m.to_string()),
                )
            }),
        )?;
    }
    d.set_item("nodes", c.stats.nodes)?;
    d.set_item("seconds", c.stats.elapsed.as_secs_f64())?;
    Ok(d)
}
