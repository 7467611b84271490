//! `koma.Board`: one position with the moves that led to it, for per-position work (supervised
//! learning from records, debugging an agent) beside the batched `VecEnv`.

use koma_batch::features::{FEATURES_LEN, write_features};
use koma_batch::label::{NUM_LABELS, label_move, move_label};
use koma_core::{Move, Position, Repetition, Status};
use numpy::ndarray::{Array1, ArrayD, IxDyn};
use numpy::{IntoPyArray, PyArray1, PyArrayDyn};
use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;

use crate::{IllegalMoveError, RecordError, SfenError};

/// Reads one game record: format detected from the content (bytes or text, any encoding
/// koma-record knows), or the format named.
fn read_record(data: &Bound<'_, PyAny>, format: Option<&str>) -> PyResult<koma_record::Record> {
    let read = match format {
        None => {
            let bytes: Vec<u8> = match data.extract::<String>() {
                Ok(text) => text.into_bytes(),
                Err(_) => data.extract::<Vec<u8>>().map_err(|_| {
                    pyo3::exceptions::PyTypeError::new_err("a record is given as str or bytes")
                })?,
            };
            koma_record::input::read_one(&bytes, None)
        }
        Some(name) => {
            let fmt = record_format(name)?;
            let text: String = data.extract().map_err(|_| {
                pyo3::exceptions::PyTypeError::new_err(
                    "with a format named, the record is given as str (bytes are detected without one)",
                )
            })?;
            fmt.read(&text)
        }
    };
    read.map(|r| r.record)
        .map_err(|e| RecordError::new_err(e.to_string()))
}

fn record_format(name: &str) -> PyResult<koma_record::Format> {
    koma_record::Format::from_name(name).ok_or_else(|| {
        PyValueError::new_err(format!(
            "record format {name:?} is not one of csa, kif, ki2, usi, sfen, bod, jkf"
        ))
    })
}

/// Training pairs: features `[N, 119, 9, 9]` and labels `[N]`.
type Examples<'py> = (Bound<'py, PyArrayDyn<u8>>, Bound<'py, PyArray1<i64>>);

/// The features and labels of every position of a record's main line and the move played from
/// it, for supervised learning: (features uint8 [N, 119, 9, 9], labels int64 [N]).
#[pyfunction]
#[pyo3(signature = (data, format=None))]
pub fn record_examples<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyAny>,
    format: Option<&str>,
) -> PyResult<Examples<'py>> {
    let record = read_record(data, format)?;
    let moves: Vec<Move> = record.moves().collect();
    let mut pos = record.initial().clone();
    let mut planes = vec![0u8; moves.len() * FEATURES_LEN];
    let mut labels = Vec::with_capacity(moves.len());
    for (m, out) in moves.iter().zip(planes.chunks_mut(FEATURES_LEN)) {
        write_features(&pos, out);
        labels.push(move_label(*m, pos.side_to_move()) as i64);
        pos.do_move(*m);
    }
    let a = ArrayD::from_shape_vec(IxDyn(&[moves.len(), FEATURES_LEN / 81, 9, 9]), planes)
        .map_err(|e| PyValueError::new_err(e.to_string()))?;
    Ok((
        a.into_pyarray(py),
        Array1::from_vec(labels).into_pyarray(py),
    ))
}

/// A shogi position and the moves played on it since it was set up.
///
/// `Board()` is the start position; `Board(text)` takes `startpos`, any legal position in SFEN,
/// or a USI line `position startpos moves 7g7f ...` (whose moves are then played on the board).
#[pyclass(module = "koma._koma", eq)]
#[derive(Clone, PartialEq)]
pub struct Board {
    pos: Position,
}

/// `startpos`, an SFEN, or a USI `position ... moves ...` line.
fn parse_position(text: &str) -> PyResult<Position> {
    koma_core::usi::parse_position(text)
        .map_err(|e| SfenError::new_err(format!("{e} (in {:?})", excerpt(text))))
}

/// At most 80 characters of user text for an error message.
fn excerpt(s: &str) -> String {
    let mut e: String = s.chars().take(80).collect();
    if s.chars().count() > 80 {
        e.push('…');
    }
    e
}

impl Board {
    /// The legal move an action label names.
    fn resolve_label(&self, label: i64) -> PyResult<Move> {
        if !(0..NUM_LABELS as i64).contains(&label) {
            return Err(PyValueError::new_err(format!(
                "action label {label} is out of range 0..{NUM_LABELS}"
            )));
        }
        label_move(&self.pos, label as usize).ok_or_else(|| {
            IllegalMoveError::new_err(format!(
                "action label {label} is not a legal move in {}",
                self.pos.to_sfen()
            ))
        })
    }

    /// The legal move a USI string or an action label names.
    fn resolve(&self, mv: &Bound<'_, PyAny>) -> PyResult<Move> {
        if let Ok(label) = mv.extract::<i64>() {
            return self.resolve_label(label);
        }
        let usi: String = mv.extract().map_err(|_| {
            pyo3::exceptions::PyTypeError::new_err(
                "a move is a USI string such as '7g7f' or an action label (int)",
            )
        })?;
        let m: Move = usi
            .parse()
            .map_err(|e| PyValueError::new_err(format!("{e} (in {:?})", excerpt(&usi))))?;
        if !self.pos.is_legal(m) {
            return Err(IllegalMoveError::new_err(format!(
                "{m} is not a legal move in {}",
                self.pos.to_sfen()
            )));
        }
        Ok(m)
    }
}

#[pymethods]
impl Board {
    #[new]
    #[pyo3(signature = (sfen=None))]
    fn new(sfen: Option<&str>) -> PyResult<Board> {
        let pos = match sfen {
            None => Position::startpos(),
            Some(s) => parse_position(s)?,
        };
        Ok(Board { pos })
    }

    /// The position as SFEN.
    fn sfen(&self) -> String {
        self.pos.to_sfen()
    }

    /// The side to move: 0 Black (sente), 1 White (gote).
    #[getter]
    fn turn(&self) -> u8 {
        self.pos.side_to_move().index() as u8
    }

    /// The move number of SFEN (1 for the start position).
    #[getter]
    fn ply(&self) -> u32 {
        self.pos.ply()
    }

    /// The legal moves, as USI strings.
    #[getter]
    fn legal_moves(&self) -> Vec<String> {
        self.pos
            .legal_moves()
            .iter()
            .map(|m| m.to_string())
            .collect()
    }

    /// The action labels of the legal moves, int64, in the order of `legal_moves`.
    fn legal_labels<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let side = self.pos.side_to_move();
        Array1::from_iter(
            self.pos
                .legal_moves()
                .iter()
                .map(|&m| move_label(m, side) as i64),
        )
        .into_pyarray(py)
    }

    /// The dlshogi action mask, bool [2187].
    fn legal_action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<bool>> {
        let side = self.pos.side_to_move();
        let mut mask = vec![false; NUM_LABELS];
        for &m in self.pos.legal_moves().iter() {
            mask[move_label(m, side) as usize] = true;
        }
        mask.into_pyarray(py)
    }

    /// Plays a legal move given as USI (`'7g7f'`, `'P*5e'`, `'8h2b+'`) or as an action label.
    fn push(&mut self, mv: &Bound<'_, PyAny>) -> PyResult<()> {
        let m = self.resolve(mv)?;
        self.pos.do_move(m);
        Ok(())
    }

    /// Takes back the last move and returns it as USI.
    fn pop(&mut self) -> PyResult<String> {
        self.pos
            .undo_move()
            .map(|m| m.to_string())
            .ok_or_else(|| PyIndexError::new_err("pop from a board with no moves played"))
    }

    /// The moves played since the board was set up, as USI.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.pos.moves_played().map(|m| m.to_string()).collect()
    }

    /// Whether the side to move is in check.
    fn is_check(&self) -> bool {
        self.pos.in_check()
    }

    /// Whether `mv` (USI or label) is a legal move here.
    fn is_legal(&self, mv: &Bound<'_, PyAny>) -> bool {
        self.resolve(mv).is_ok()
    }

    /// How the game stands: 'ongoing', 'checkmate', 'no_legal_moves', 'repetition_draw',
    /// 'perpetual_check_black_loses' or 'perpetual_check_white_loses'.
    fn status(&self) -> &'static str {
        match self.pos.status() {
            Status::Ongoing => "ongoing",
            Status::Checkmate => "checkmate",
            Status::NoLegalMoves => "no_legal_moves",
            Status::RepetitionDraw => "repetition_draw",
            Status::PerpetualCheck { loser } => match loser {
                koma_core::Color::Black => "perpetual_check_black_loses",
                koma_core::Color::White => "perpetual_check_white_loses",
            },
        }
    }

    /// How many times the current position has occurred in the moves played (1 if new).
    fn repetition_count(&self) -> u32 {
        match self.pos.repetition() {
            None => 1,
            Some(Repetition::Repeated { count }) => count,
            Some(_) => 4,
        }
    }

    /// Whether the side to move may declare a win by the 27-point rule (入玉宣言).
    fn can_declare_win(&self) -> bool {
        self.pos.can_declare_win()
    }

    /// The action label of a legal move given as USI (the board is turned for White).
    fn move_label(&self, usi: &Bound<'_, PyAny>) -> PyResult<i64> {
        let m = self.resolve(usi)?;
        Ok(move_label(m, self.pos.side_to_move()) as i64)
    }

    /// The USI move of a legal action label.
    fn label_to_usi(&self, label: i64) -> PyResult<String> {
        Ok(self.resolve_label(label)?.to_string())
    }

    /// The dlshogi input features of the position, uint8 [119, 9, 9].
    fn features<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArrayDyn<u8>>> {
        let mut v = vec![0u8; FEATURES_LEN];
        write_features(&self.pos, &mut v);
        let a = ArrayD::from_shape_vec(IxDyn(&[FEATURES_LEN / 81, 9, 9]), v)
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(a.into_pyarray(py))
    }

    /// A board from a game record (CSA, KIF, KI2, USI, SFEN, BOD, JKF; read by koma-record):
    /// the record's initial position with its main line played. The format and encoding are
    /// detected from the content unless `format` names one.
    #[staticmethod]
    #[pyo3(signature = (data, format=None))]
    fn from_record(data: &Bound<'_, PyAny>, format: Option<&str>) -> PyResult<Board> {
        let record = read_record(data, format)?;
        let mut pos = record.initial().clone();
        for m in record.moves() {
            pos.do_move(m);
        }
        Ok(Board { pos })
    }

    /// The game so far as a record in `format` (csa, kif, ki2, usi, sfen, bod, jkf), written by
    /// koma-record: the position the board was set up from and the moves played since.
    #[pyo3(signature = (format="kif"))]
    fn to_record(&self, format: &str) -> PyResult<String> {
        let fmt = record_format(format)?;
        let mut start = self.pos.clone();
        let mut moves = Vec::new();
        while let Some(m) = start.undo_move() {
            moves.push(m);
        }
        let mut record = koma_record::Record::new(start);
        for m in moves.into_iter().rev() {
            record
                .push(m)
                .map_err(|e| IllegalMoveError::new_err(e.to_string()))?;
        }
        Ok(fmt.write(&record))
    }

    /// A copy, with the moves played.
    fn copy(&self) -> Board {
        self.clone()
    }

    fn __copy__(&self) -> Board {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Board {
        self.clone()
    }

    /// The state for pickling: the SFEN it was set up from and the USI moves since.
    fn __getstate__(&self) -> (String, Vec<String>) {
        let mut start = self.pos.clone();
        while start.undo_move().is_some() {}
        (start.to_sfen(), self.moves())
    }

    fn __setstate__(&mut self, state: (String, Vec<String>)) -> PyResult<()> {
        let mut pos = parse_position(&state.0)?;
        for usi in &state.1 {
            let m: Move = usi
                .parse()
                .map_err(|e| PyValueError::new_err(format!("{e} (in {usi:?})")))?;
            if !pos.play(m) {
                return Err(IllegalMoveError::new_err(format!(
                    "{m} is not a legal move in {}",
                    pos.to_sfen()
                )));
            }
        }
        self.pos = pos;
        Ok(())
    }

    fn __repr__(&self) -> String {
        format!("Board('{}')", self.pos.to_sfen())
    }
}
