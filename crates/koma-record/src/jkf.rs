//! JKF, the JSON kifu format of Kifu for JS and ShogiHome (version 1.0): headers, the initial
//! position (a handicap preset or a board), moves with times and comments, the end (`special`)
//! and variations (`forks`, each an alternative to the move that holds it).
//!
//! ```
//! use koma_record::jkf;
//! let text = r#"{"header": {"先手": "na2hiro", "後手": "うひょ"},
//!   "moves": [{"comments": ["分岐の例"]},
//!     {"move": {"from": {"x": 7, "y": 7}, "to": {"x": 7, "y": 6}, "color": 0, "piece": "FU"}},
//!     {"move": {"from": {"x": 3, "y": 3}, "to": {"x": 3, "y": 4}, "color": 1, "piece": "FU"},
//!      "forks": [[{"move": {"from": {"x": 8, "y": 3}, "to": {"x": 8, "y": 4}, "color": 1, "piece": "FU"}}]]},
//!     {"special": "TORYO"}]}"#;
//! let rec = jkf::read(text).unwrap().record;
//! assert_eq!(rec.header("後手"), Some("うひょ"));
//! assert_eq!(rec.comments(), ["分岐の例"]);
//! assert_eq!(rec.main().moves()[1].variations()[0].moves()[0].mv().to_string(), "8c8d");
//! assert_eq!(jkf::read(&jkf::write(&rec)).unwrap().record, rec);
//! ```

use std::collections::{BTreeMap, VecDeque};
use std::fmt;

use koma_core::{Color, Hand, Move, Piece, PieceKind, Position, Setup, Square};
use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::bod::to_position;
use crate::builder::Builder;
use crate::csa::{NAMES, piece_kind};
use crate::japanese::{self, Direction, MoveText};
use crate::kif::resolve_move;
use crate::{EndKind, ErrorKind, GameEnd, Line, MoveTime, Read, ReadError, Record, handicap};

/// JKF's handicap presets and the KIF names of the same starts.
const PRESETS: [(&str, &str); 16] = [
    ("HIRATE", "平手"),
    ("KY", "香落ち"),
    ("KY_R", "右香落ち"),
    ("KA", "角落ち"),
    ("HI", "飛車落ち"),
    ("HIKY", "飛香落ち"),
    ("2", "二枚落ち"),
    ("3", "三枚落ち"),
    ("4", "四枚落ち"),
    ("5", "五枚落ち"),
    ("5_L", "左五枚落ち"),
    ("6", "六枚落ち"),
    ("7_L", "左七枚落ち"),
    ("7_R", "右七枚落ち"),
    ("8", "八枚落ち"),
    ("10", "十枚落ち"),
];

/// Headers in the order the file gives them (a JSON object read into a list).
#[derive(Default)]
struct Headers(Vec<(String, String)>);

impl<'de> Deserialize<'de> for Headers {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Headers, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Headers;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object of header strings")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Headers, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = map.next_entry::<String, String>()? {
                    out.push((k, v));
                }
                Ok(Headers(out))
            }
        }
        d.deserialize_map(V)
    }
}

impl Serialize for Headers {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

#[derive(Deserialize)]
struct Jkf {
    #[serde(default)]
    header: Headers,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    initial: Option<Initial>,
    #[serde(default)]
    moves: Vec<MoveFormat>,
}

#[derive(Deserialize, Serialize)]
struct Initial {
    preset: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    data: Option<State>,
}

#[derive(Deserialize, Serialize)]
struct State {
    color: u8,
    board: Vec<Vec<Cell>>,
    hands: Vec<BTreeMap<String, u8>>,
}

#[derive(Deserialize, Serialize, Default)]
struct Cell {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    color: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    kind: Option<String>,
}

#[derive(Deserialize, Serialize, Default)]
struct MoveFormat {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    comments: Option<Vec<String>>,
    #[serde(rename = "move", default, skip_serializing_if = "Option::is_none")]
    mv: Option<MoveMove>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    time: Option<Time>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    special: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    forks: Option<Vec<Vec<MoveFormat>>>,
}

#[derive(Deserialize, Serialize)]
struct MoveMove {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    color: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    from: Option<Place>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    to: Option<Place>,
    piece: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    same: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    promote: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    capture: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    relative: Option<String>,
}

#[derive(Deserialize, Serialize, Clone, Copy)]
struct Place {
    x: u8,
    y: u8,
}

#[derive(Deserialize, Serialize)]
struct Time {
    now: Clock,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    total: Option<Clock>,
}

#[derive(Deserialize, Serialize)]
struct Clock {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    h: Option<u64>,
    m: u64,
    s: u64,
}

impl Clock {
    fn ms(&self) -> u64 {
        let secs = self
            .h
            .unwrap_or(0)
            .saturating_mul(3600)
            .saturating_add(self.m.saturating_mul(60))
            .saturating_add(self.s);
        secs.saturating_mul(1000)
    }

    fn of(ms: u64, hours: bool) -> Clock {
        let s = ms / 1000;
        if hours {
            Clock {
                h: Some(s / 3600),
                m: s / 60 % 60,
                s: s % 60,
            }
        } else {
            Clock {
                h: None,
                m: s / 60,
                s: s % 60,
            }
        }
    }
}

/// An error at a place in the JSON tree (`moves[3].move.to`), which JKF gives no line for.
fn at(path: &str, expected: impl Into<String>) -> ReadError {
    ReadError::syntax(0, 0, path, expected)
}

/// Reads a JKF record.
///
/// # Errors
/// Text that is not JSON names its line and column, quoting the text just before it; JSON that
/// is not JKF, or a move that is not legal, names its place in the tree (`moves[12].move`). The
/// moves before the problem are kept in [`ReadError::partial`], for broken JSON too (a file cut
/// short keeps the moves written before the cut).
pub fn read(text: &str) -> Result<Read, ReadError> {
    let jkf: Jkf = serde_json::from_str(text).map_err(|e| json_error(text, &e))?;
    read_jkf(jkf)
}

/// The error for text that is not JKF JSON (cut short, or with a bad value), at serde's line and
/// column, quoting the text just before that place (where the problem usually is: serde names
/// the character after it, or the end of the text), with the moves of the part that reads.
fn json_error(text: &str, e: &serde_json::Error) -> ReadError {
    let (line, column) = (e.line().max(1), e.column().max(1));
    let here = text.lines().nth(line - 1).unwrap_or("");
    let from = column.saturating_sub(JSON_CONTEXT + 1);
    let quoted: String = here.chars().skip(from).collect();
    let error = ReadError::syntax(line, from + 1, &quoted, format!("JKF JSON ({e})"));
    match readable_part(text, byte_offset(text, line, column)) {
        Some(record) => error.with_partial(record),
        None => error,
    }
}

/// How many characters before serde's column a JSON error quotes.
const JSON_CONTEXT: usize = 16;

/// The byte offset of a line and character column (from 1) of `text`, or its end.
fn byte_offset(text: &str, line: usize, column: usize) -> usize {
    let start: usize = text
        .split_inclusive('\n')
        .take(line - 1)
        .map(str::len)
        .sum();
    text[start..]
        .char_indices()
        .nth(column - 1)
        .map_or(text.len(), |(i, _)| start + i)
}

/// The record of the longest readable part of JSON text that breaks at byte `end`: the text
/// cut after the last object or array that closed before `end`, with the brackets still open
/// there closed. A file cut short (a download stopped, an editor's crash) keeps its moves so.
/// Tries the last few places only (each try reads the text again).
fn readable_part(text: &str, end: usize) -> Option<Record> {
    const TRIES: usize = 16;
    let mut open: Vec<u8> = Vec::new();
    // The last places where a value closed, and the brackets still open after each.
    let mut cuts: VecDeque<(usize, Vec<u8>)> = VecDeque::with_capacity(TRIES);
    let (mut in_string, mut escaped) = (false, false);
    for (i, &b) in text.as_bytes()[..end.min(text.len())].iter().enumerate() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' => open.push(b'}'),
            b'[' => open.push(b']'),
            b'}' | b']' => {
                if open.pop() != Some(b) {
                    break;
                }
                if !open.is_empty() {
                    if cuts.len() == TRIES {
                        cuts.pop_front();
                    }
                    cuts.push_back((i + 1, open.clone()));
                }
            }
            _ => {}
        }
    }
    for (at, open) in cuts.iter().rev() {
        let mut json = String::with_capacity(at + open.len());
        json.push_str(&text[..*at]);
        json.extend(open.iter().rev().map(|&b| b as char));
        let Ok(jkf) = serde_json::from_str::<Jkf>(&json) else {
            continue;
        };
        match read_jkf(jkf) {
            Ok(read) => return Some(read.record),
            Err(e) if e.partial.is_some() => return e.partial.map(|r| *r),
            Err(_) => continue,
        }
    }
    None
}

/// Reads a parsed JKF tree.
fn read_jkf(jkf: Jkf) -> Result<Read, ReadError> {
    let mut record = Record::new(initial_position(jkf.initial.as_ref())?);
    record.headers = jkf.header.0;
    if let Some(name) = handicap::name(&record.initial).filter(|n| *n != "平手")
        && record.header("手合割").is_none()
    {
        record.headers.push(("手合割".to_owned(), name.to_owned()));
    }
    // Entry 0 holds the comments on the initial position.
    let mut moves = jkf.moves.iter();
    let mut first = 0;
    if let Some(head) = jkf
        .moves
        .first()
        .filter(|m| m.mv.is_none() && m.special.is_none())
    {
        record.comments = head.comments.clone().unwrap_or_default();
        moves.next();
        first = 1;
    }
    let mut b = Builder::new(record);
    read_line(&mut b, moves, "moves", first).map_err(|e| e.with_partial(b.record().clone()))?;
    Ok(Read {
        record: b.finish(),
        warnings: Vec::new(),
    })
}

fn initial_position(initial: Option<&Initial>) -> Result<Position, ReadError> {
    let Some(initial) = initial else {
        return Ok(Position::startpos());
    };
    if let Some((_, name)) = PRESETS.iter().find(|(p, _)| *p == initial.preset) {
        return handicap::position(name).ok_or_else(|| at("initial.preset", "a known preset"));
    }
    if initial.preset != "OTHER" {
        return Err(at(
            "initial.preset",
            "a preset: HIRATE, KY, KY_R, KA, HI, HIKY, 2, 3, 4, 5, 5_L, 6, 7_L, 7_R, 8, 10 or OTHER",
        ));
    }
    let Some(data) = &initial.data else {
        return Err(at("initial.data", "the board of an OTHER preset"));
    };
    // JKF has no lines: the problem is named by its place in the tree.
    to_position(&read_state(data)?, 0).map_err(|e| ReadError::new(0, 0, "initial.data", e.kind))
}

fn color(c: u8, path: &str) -> Result<Color, ReadError> {
    match c {
        0 => Ok(Color::Black),
        1 => Ok(Color::White),
        _ => Err(at(path, "a color, 0 (先手) or 1 (後手)")),
    }
}

fn read_state(data: &State) -> Result<Setup, ReadError> {
    let mut setup = Setup::empty();
    setup.side_to_move = color(data.color, "initial.data.color")?;
    if data.board.len() != 9 || data.board.iter().any(|col| col.len() != 9) {
        return Err(at("initial.data.board", "nine files of nine squares"));
    }
    for (x, column) in data.board.iter().enumerate() {
        for (y, cell) in column.iter().enumerate() {
            let path = format!("initial.data.board[{x}][{y}]");
            let piece = match (cell.color, cell.kind.as_deref()) {
                (None, None) => None,
                (Some(c), Some(kind)) => {
                    let kind = piece_kind(kind).ok_or_else(|| at(&path, "a CSA piece name"))?;
                    Some(Piece::new(color(c, &path)?, kind))
                }
                _ => return Err(at(&path, "a piece with both color and kind, or {}")),
            };
            let sq = Square::from_file_rank(x as u8 + 1, y as u8 + 1)
                .unwrap_or_else(|| unreachable!("x and y are below 9"));
            setup.board[sq.index()] = piece;
        }
    }
    if data.hands.len() != 2 {
        return Err(at("initial.data.hands", "two hands, 先手's then 後手's"));
    }
    for (i, hand) in data.hands.iter().enumerate() {
        let mut h = Hand::EMPTY;
        for (name, &count) in hand {
            let path = format!("initial.data.hands[{i}].{name}");
            let kind = piece_kind(name)
                .filter(|k| k.is_hand_kind())
                .ok_or_else(|| at(&path, "a hand piece: FU KY KE GI KI KA HI"))?;
            h = h
                .with_count(kind, count)
                .ok_or_else(|| at(&path, "a count no larger than a set holds"))?;
        }
        setup.hands[i] = h;
    }
    Ok(setup)
}

/// Reads a line's entries (`path` names it in errors; `ply` is the number of its first move).
fn read_line<'a>(
    b: &mut Builder,
    entries: impl Iterator<Item = &'a MoveFormat>,
    path: &str,
    first: usize,
) -> Result<(), ReadError> {
    for (i, entry) in entries.enumerate() {
        let here = format!("{path}[{}]", i + first);
        if let Some(special) = &entry.special {
            let kind = EndKind::from_csa(&format!("%{special}"))
                .ok_or_else(|| at(&here, "a special like TORYO, CHUDAN, SENNICHITE, TSUMI"))?;
            b.end(GameEnd {
                kind,
                time: entry.time.as_ref().map(|t| move_time(b, t)),
                comments: entry.comments.clone().unwrap_or_default(),
            });
            continue;
        }
        let Some(mv) = &entry.mv else {
            // An entry with comments only: they go after what came before.
            for c in entry.comments.iter().flatten() {
                b.comment(c.clone());
            }
            continue;
        };
        if b.ended() {
            return Err(at(&here, "nothing after the special that ended the line"));
        }
        let m = read_move(b.pos(), mv, &format!("{here}.move"))?;
        let time = entry.time.as_ref().map(|t| move_time(b, t));
        b.push(m, time);
        for c in entry.comments.iter().flatten() {
            b.comment(c.clone());
        }
        for (f, fork) in entry.forks.iter().flatten().enumerate() {
            let index = b.line_len() - 1;
            let saved = b.fork(index);
            let result = read_line(b, fork.iter(), &format!("{here}.forks[{f}]"), 0);
            b.back(saved);
            result?;
        }
    }
    Ok(())
}

fn move_time(b: &Builder, t: &Time) -> MoveTime {
    b.normalize_time(MoveTime {
        used_ms: t.now.ms(),
        total_ms: t.total.as_ref().map(Clock::ms),
    })
}

fn square(p: Place, path: &str) -> Result<Square, ReadError> {
    Square::from_file_rank(p.x, p.y).ok_or_else(|| at(path, "a square {\"x\": 1-9, \"y\": 1-9}"))
}

/// The legal move a JKF move names: by its origin, or (as KI2-derived JKF has it) by the piece
/// and its relative words.
fn read_move(pos: &Position, mv: &MoveMove, path: &str) -> Result<Move, ReadError> {
    let kind = piece_kind(&mv.piece).ok_or_else(|| at(path, "a CSA piece name like FU, UM"))?;
    if let Some(c) = mv.color
        && color(c, path)? != pos.side_to_move()
    {
        return Err(illegal(pos, path));
    }
    let to = match (mv.to, mv.same) {
        (Some(p), _) => Some(square(p, &format!("{path}.to"))?),
        (None, Some(true)) => None,
        (None, _) => return Err(at(path, "a destination `to`")),
    };
    let relative = mv.relative.as_deref().unwrap_or("");
    let mt = MoveText {
        to,
        kind,
        promote: mv.promote,
        drop: relative.contains('H'),
        direction: [
            ('U', Direction::Up),
            ('D', Direction::Down),
            ('M', Direction::Sideways),
        ]
        .into_iter()
        .find(|(c, _)| relative.contains(*c))
        .map(|(_, d)| d),
        side: match (relative.contains('L'), relative.contains('R')) {
            (true, false) => Some(true),
            (false, true) => Some(false),
            _ => None,
        },
        straight: relative.contains('C'),
        from: match mv.from {
            Some(p) => Some(square(p, &format!("{path}.from"))?),
            None => None,
        },
    };
    let m = resolve_move(pos, &mt).map_err(|kind| ReadError::new(0, 0, path, kind))?;
    Ok(m)
}

fn illegal(pos: &Position, path: &str) -> ReadError {
    let kind = ErrorKind::IllegalMove {
        ply: pos.ply(),
        sfen: pos.to_sfen(),
    };
    ReadError::new(0, 0, path, kind)
}

/// Writes a record as JKF (UTF-8 JSON, one entry a line).
pub fn write(record: &Record) -> String {
    let mut moves = vec![MoveFormat {
        comments: (!record.comments.is_empty()).then(|| record.comments.clone()),
        ..MoveFormat::default()
    }];
    let mut pos = record.initial.clone();
    write_line(&mut moves, &record.main, &mut pos, [0; 2]);
    // One entry a line: readable, and a third of the size of fully indented JSON.
    let mut out = String::from("{\n  \"header\": ");
    out.push_str(&json(&Headers(record.headers.clone())));
    if let Some(initial) = write_initial(&record.initial) {
        out.push_str(",\n  \"initial\": ");
        out.push_str(&json(&initial));
    }
    out.push_str(",\n  \"moves\": [\n");
    for (i, entry) in moves.iter().enumerate() {
        out.push_str("    ");
        out.push_str(&json(entry));
        out.push_str(if i + 1 < moves.len() { ",\n" } else { "\n" });
    }
    out.push_str("  ]\n}\n");
    out
}

/// A part of the JKF tree as compact JSON (its own types always serialize: strings, numbers,
/// string-keyed maps).
fn json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|e| unreachable!("a JKF tree serializes: {e}"))
}

fn write_initial(pos: &Position) -> Option<Initial> {
    let name = handicap::name(pos);
    if name == Some("平手") {
        return None;
    }
    if let Some((preset, _)) = PRESETS.iter().find(|(_, n)| Some(*n) == name) {
        return Some(Initial {
            preset: (*preset).to_owned(),
            data: None,
        });
    }
    let setup = pos.to_setup();
    let board = (1..=9u8)
        .map(|x| {
            (1..=9u8)
                .map(|y| {
                    let sq = Square::from_file_rank(x, y).unwrap_or_else(|| unreachable!());
                    match setup.piece_at(sq) {
                        None => Cell::default(),
                        Some(p) => Cell {
                            color: Some(p.color().index() as u8),
                            kind: Some(NAMES[p.kind().index()].to_owned()),
                        },
                    }
                })
                .collect()
        })
        .collect();
    let hands = setup
        .hands
        .iter()
        .map(|h| {
            PieceKind::HAND
                .iter()
                .map(|&k| (NAMES[k.index()].to_owned(), h.count(k)))
                .collect()
        })
        .collect();
    Some(Initial {
        preset: "OTHER".to_owned(),
        data: Some(State {
            color: setup.side_to_move.index() as u8,
            board,
            hands,
        }),
    })
}

fn place(sq: Square) -> Place {
    Place {
        x: sq.file(),
        y: sq.rank(),
    }
}

fn write_time(totals: &mut [u64; 2], side: Color, t: Option<MoveTime>) -> Option<Time> {
    let t = t?;
    totals[side.index()] = totals[side.index()].saturating_add(t.used_ms);
    let total = t.total_ms.unwrap_or(totals[side.index()]);
    Some(Time {
        now: Clock::of(t.used_ms, false),
        total: Some(Clock::of(total, true)),
    })
}

fn write_line(out: &mut Vec<MoveFormat>, line: &Line, pos: &mut Position, mut totals: [u64; 2]) {
    for m in &line.moves {
        let side = pos.side_to_move();
        let before = totals;
        let mut entry = MoveFormat {
            mv: Some(write_move(pos, m.mv)),
            time: write_time(&mut totals, side, m.time),
            comments: (!m.comments.is_empty()).then(|| m.comments.clone()),
            ..MoveFormat::default()
        };
        if !m.variations.is_empty() {
            entry.forks = Some(
                m.variations
                    .iter()
                    .map(|v| {
                        let mut fork = Vec::new();
                        write_line(&mut fork, v, &mut pos.clone(), before);
                        fork
                    })
                    .collect(),
            );
        }
        out.push(entry);
        pos.do_move(m.mv);
    }
    if let Some(end) = &line.end {
        let side = pos.side_to_move();
        out.push(MoveFormat {
            special: Some(end.kind.csa(side).trim_start_matches('%').to_owned()),
            time: write_time(&mut totals, side, end.time),
            comments: (!end.comments.is_empty()).then(|| end.comments.clone()),
            ..MoveFormat::default()
        });
    }
}

fn write_move(pos: &Position, m: Move) -> MoveMove {
    let us = pos.side_to_move();
    let kind = m
        .drop_kind()
        .or_else(|| m.from().and_then(|f| pos.piece_at(f)).map(Piece::kind))
        .unwrap_or(PieceKind::Pawn);
    let mut relative: String = match m.from() {
        Some(from) => japanese::modifiers(pos, from, m.to(), kind)
            .chars()
            .filter_map(|c| match c {
                '左' => Some('L'),
                '直' => Some('C'),
                '右' => Some('R'),
                '上' => Some('U'),
                '寄' => Some('M'),
                '引' => Some('D'),
                _ => None,
            })
            .collect(),
        None => String::new(),
    };
    if m.is_drop() && !japanese::candidates(pos, kind, m.to()).is_empty() {
        relative.push('H');
    }
    let promotable = m.from().is_some_and(|f| {
        kind.can_promote() && (f.in_promotion_zone(us) || m.to().in_promotion_zone(us))
    });
    MoveMove {
        color: Some(us.index() as u8),
        from: m.from().map(place),
        to: Some(place(m.to())),
        piece: NAMES[kind.index()].to_owned(),
        same: (pos.last_move().map(Move::to) == Some(m.to())).then_some(true),
        promote: promotable.then_some(m.is_promotion()),
        capture: pos
            .piece_at(m.to())
            .map(|p| NAMES[p.kind().index()].to_owned()),
        relative: (!relative.is_empty()).then_some(relative),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::walk_variations;

    /// How many lines a record has (the main line and every variation).
    fn lines(record: &Record) -> usize {
        let mut n = 1;
        walk_variations(record, |_, _, _| n += 1);
        n
    }

    #[test]
    fn handicap_and_other_initial_positions() {
        let text = r#"{"header": {}, "initial": {"preset": "6"}, "moves": [{},
            {"move":{"from":{"x":5,"y":1},"to":{"x":4,"y":2},"color":1,"piece":"OU"}}]}"#;
        let rec = read(text).unwrap().record;
        assert_eq!(rec.header("手合割"), Some("六枚落ち"));
        assert_eq!(rec.main.moves.len(), 1);
        let tsume = crate::usi::read("sfen 7nl/7k1/9/7pp/9/9/9/9/9 b GS2r2b3g3s3n3l16p 1")
            .unwrap()
            .record;
        let text = write(&tsume);
        assert!(text.contains("\"OTHER\""), "{text}");
        assert_eq!(read(&text).unwrap().record.initial, tsume.initial);
    }

    #[test]
    fn a_game_with_times_variations_and_ends_reads_back() {
        let kif = include_str!("../tests/data/yokofudori.kifu");
        let rec = crate::kif::read(kif).unwrap().record;
        let text = write(&rec);
        let back = read(&text).unwrap().record;
        assert_eq!(back, rec, "{text}");
        assert_eq!(lines(&back), 2);
        assert!(text.contains("\"special\":\"CHUDAN\"}"), "{text}");
    }

    #[test]
    fn moves_named_without_origin() {
        // As a KI2-derived JKF writes them: piece, destination, relative words.
        let text = r#"{"header": {}, "initial": {"preset": "OTHER", "data": {"color": 0,
            "board": [[{},{},{},{},{},{},{},{},{}],[{},{},{},{},{},{},{},{},{}],[{},{},{},{},{},{},{},{},{}],
                      [{},{},{},{},{},{},{},{},{"color":0,"kind":"KI"}],[{},{},{},{},{},{},{},{},{}],
                      [{},{},{},{},{},{},{},{},{"color":0,"kind":"KI"}],[{},{},{},{},{},{},{},{},{}],
                      [{},{},{},{},{},{},{},{},{"color":0,"kind":"OU"}],[{"color":1,"kind":"OU"},{},{},{},{},{},{},{},{}]],
            "hands": [{}, {}]}},
            "moves": [{}, {"move": {"to": {"x": 5, "y": 8}, "color": 0, "piece": "KI", "relative": "R"}}]}"#;
        let rec = read(text).unwrap().record;
        assert_eq!(rec.main.moves[0].mv.to_string(), "4i5h");
        let e = read(&text.replace(", \"relative\": \"R\"", "")).unwrap_err();
        assert!(matches!(e.kind, ErrorKind::Ambiguous { .. }), "{e}");
    }

    #[test]
    fn errors_name_their_place() {
        let e = read("{\"moves\": [{}, {\"move\": {\"to\": {\"x\": 7, \"y\": 5}, \"piece\": \"FU\", \"from\": {\"x\": 7, \"y\": 7}}}]}").unwrap_err();
        assert!(
            matches!(e.kind, ErrorKind::IllegalMove { ply: 1, .. }),
            "{e}"
        );
        assert_eq!(e.text, "moves[1].move");
        let e = read("{\"moves\": [\n{}, {\"move\": 3}]}").unwrap_err();
        assert_eq!(e.line, 2);
        let e = read("{\"moves\": [{}, {\"move\": {\"from\":{\"x\":7,\"y\":7},\"to\":{\"x\":7,\"y\":6},\"piece\":\"FU\"}}, {\"move\": {\"to\": {\"x\": 0, \"y\": 5}, \"piece\": \"FU\"}}]}").unwrap_err();
        assert_eq!(e.kept_moves(), 1);
        assert!(e.to_string().contains("moves[2].move.to"), "{e}");
    }

    /// JSON cut short or broken keeps the moves of the part that reads, and the error quotes
    /// the text before serde's column.
    #[test]
    fn broken_json_keeps_what_reads() {
        let kif = include_str!("../tests/data/yokofudori.kifu");
        let rec = crate::kif::read(kif).unwrap().record;
        let text = write(&rec);
        let n = rec.main.moves.len();
        // Cut anywhere in the last quarter of the text: the moves before the cut are kept.
        let chars: Vec<(usize, char)> = text.char_indices().collect();
        for &(at, _) in chars.iter().skip(chars.len() * 3 / 4).step_by(7) {
            let e = read(&text[..at]).unwrap_err();
            let kept = e.partial.as_ref().expect("a partial record");
            let k = kept.main.moves.len();
            assert!(k <= n, "{at}");
            // The last entry may be cut after its move, before its time or comments.
            let moves = |r: &Record| r.main.moves.iter().map(|m| m.mv).collect::<Vec<_>>();
            assert_eq!(moves(kept), moves(&rec)[..k], "{at}");
            let whole = k.saturating_sub(1);
            assert_eq!(kept.main.moves[..whole], rec.main.moves[..whole], "{at}");
            assert_eq!(kept.headers, rec.headers, "{at}");
        }
        // A bad literal in the middle: the moves before it.
        let broken = r#"{"header":{"先手":"a"},"moves":[{},{"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU"}},{"move":{"from":{"x":3,"y":3},"to":{"x":3,"y":4},"piece":"FU"}},{"move":{"from":{"x":8,"y":8},"to":{"x":2,"y":2},"piece":"KA","promote":tru}}]}"#;
        let e = read(broken).unwrap_err();
        assert_eq!(e.kept_moves(), 2, "{e}");
        assert!(e.text.contains("promote\":tru"), "{e}");
        assert_eq!(e.partial.unwrap().header("先手"), Some("a"));
        // Only the initial position: kept, with no moves; nothing readable: nothing kept.
        let e = read("{\"header\":{\"先手\":\"a\"},\"moves\": [{}, {\"mo").unwrap_err();
        assert_eq!(e.partial.unwrap().header("先手"), Some("a"));
        for text in ["[", "{\"moves\": 3", "not json"] {
            assert!(read(text).unwrap_err().partial.is_none(), "{text}");
        }
    }
}
