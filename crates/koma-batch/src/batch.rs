//! [`Batch`]: B games advanced together, with masks, tensors, features and rewards for all of
//! them at once, spread over the cores with rayon.

use koma_core::rng::Rng;
use koma_core::{
    Color, FromSfenError, MAX_MOVES, Move, MoveFilter, MoveSet, NonPromotions, PieceKind, Position,
    Square,
};
use rayon::prelude::*;

use crate::features::{FEATURES_LEN, write_features};
use crate::label::{NUM_LABELS, move_label, origin_label, origin_labels};
use crate::lanes::{self, CHUNK, Lanes, check_len};
use crate::tensor::{TENSOR_LEN, TensorIndex, tensor_index};

/// What happens to a game that has ended, following Gymnasium's vector-environment autoreset
/// modes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum AutoReset {
    /// The step after the one that ended a game resets it and ignores its action (Gymnasium's
    /// default `NEXT_STEP`).
    #[default]
    NextStep,
    /// The step that ends a game resets it at once; the final position is kept for
    /// [`Batch::final_positions`] (`SAME_STEP`).
    SameStep,
    /// Ended games stay ended, ignoring actions, until [`Batch::reset`] (`DISABLED`).
    Disabled,
}

/// Rules and episode settings of a [`Batch`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Config {
    /// Moves played in an episode after which it is truncated (a draw, `truncated` set).
    pub max_plies: u32,
    /// Whether the 27-point entering-king declaration (入玉宣言) ends a game: a side to move that
    /// meets its conditions wins.
    pub declaration: bool,
    /// What happens to ended games.
    pub autoreset: AutoReset,
}

impl Default for Config {
    /// 512 plies (as pgx), no declaration, [`AutoReset::NextStep`].
    fn default() -> Config {
        Config {
            max_plies: 512,
            declaration: false,
            autoreset: AutoReset::NextStep,
        }
    }
}

/// How an action of [`Batch::step`] is numbered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ActionKind {
    /// A dlshogi label, `0..2187` (see [`crate::label`]).
    Label,
    /// A flat index into the `[21, 81, 81, 2]` tensor (see [`crate::tensor`]).
    Tensor,
}

impl ActionKind {
    /// The number of distinct actions.
    pub fn count(self) -> usize {
        match self {
            ActionKind::Label => NUM_LABELS,
            ActionKind::Tensor => TENSOR_LEN,
        }
    }
}

/// What went wrong in a batch call. Nothing is changed when a call returns an error.
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    /// A batch must hold at least one game.
    #[error("a batch needs at least one environment")]
    Empty,
    /// A start position is not a legal position.
    #[error("position {index}: {source}")]
    Position {
        /// Its place in the list given.
        index: usize,
        /// What is wrong with it.
        source: FromSfenError,
    },
    /// A slice passed in has the wrong length.
    #[error("{what} has {got} elements, expected {expected}")]
    Length {
        /// Which argument.
        what: &'static str,
        /// Its length.
        got: usize,
        /// The length needed.
        expected: usize,
    },
    /// An action number outside the range of its kind.
    #[error("environment {env}: action {action} is out of range 0..{limit}")]
    OutOfRange {
        /// The environment.
        env: usize,
        /// The action.
        action: u64,
        /// The number of actions of that kind.
        limit: usize,
    },
    /// A stored game holds a move that is not legal where it is played.
    #[error("game {env}: move {ply} ({mv}) is not legal in {sfen}")]
    Replay {
        /// The game.
        env: usize,
        /// The move's number in the game, from 1.
        ply: usize,
        /// The move.
        mv: Move,
        /// The position it was played in.
        sfen: String,
    },
    /// An action that is no legal move in its environment's position.
    #[error("environment {env}: action {action} is not a legal move in {sfen}")]
    Illegal {
        /// The environment.
        env: usize,
        /// The action.
        action: u64,
        /// The position, as SFEN.
        sfen: String,
    },
    /// Settings that cannot make a game (for example an opening as long as the ply limit).
    #[error("{0}")]
    Settings(String),
}

/// One game of a batch as it can be stored and rebuilt ([`Batch::games`],
/// [`Batch::from_games`]): the position its episode started from and the moves played since.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The position the episode started from.
    pub start: Position,
    /// The moves played since, in order.
    pub moves: Vec<Move>,
}

/// Buckets of the per-game occurrence counter that gates the repetition scan.
const REP_BUCKETS: usize = 1024;

/// The result of one environment's step.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
struct StepResult {
    rewards: [f32; 2],
    terminated: bool,
    truncated: bool,
}

/// The games of a batch as a structure of arrays: game `i`'s position is `positions[i]` (board,
/// hands, side to move and the moves of its episode, in koma-core's own layout, so the rules stay
/// koma-core's), and its other state sits in flat arrays at fixed strides: the legal moves of the
/// current position with their labels (`MAX_MOVES` per game, `legal_len` of them used), the
/// occurrence counter (`REP_BUCKETS` per game) and the keys of the episode's earlier positions
/// (`key_cap` per game, `plies` of them used; the stride doubles when a game needs more).
#[derive(Clone)]
struct Games {
    positions: Vec<Position>,
    plies: Vec<u32>,
    done: Vec<bool>,
    legal: Vec<(u16, Move)>,
    legal_len: Vec<u16>,
    /// Positions of the episode counted by the top bits of their keys: a bucket below four means
    /// the current position cannot be a fourth occurrence, so the key scan is skipped.
    seen: Vec<u8>,
    keys: Vec<u64>,
    key_cap: usize,
}

/// The key stride a batch starts with.
const KEY_CAP: usize = 64;

/// What the unused entries of the flat legal-move buffer hold (never read: only the first
/// `legal_len` entries of a game are).
const FILLER: (u16, Move) = match Square::new(40) {
    Some(to) => match Move::drop(PieceKind::Pawn, to) {
        Some(m) => (0, m),
        None => panic!("a pawn drop is a move"),
    },
    None => panic!("square 40 is on the board"),
};

impl Lanes for Games {
    type Move = Move;
    fn lanes(&self) -> usize {
        self.positions.len()
    }
    fn done(&self, i: usize) -> bool {
        self.done[i]
    }
    fn legal(&self, i: usize) -> &[(u16, Move)] {
        &self.legal[i * MAX_MOVES..][..self.legal_len[i] as usize]
    }
}

impl Games {
    /// One game per position, each at the start of its episode with its legal moves computed.
    fn new(positions: Vec<Position>, key_cap: usize) -> Games {
        let n = positions.len();
        let key_cap = key_cap.max(KEY_CAP);
        let mut games = Games {
            positions,
            plies: vec![0; n],
            done: vec![false; n],
            legal: vec![FILLER; n * MAX_MOVES],
            legal_len: vec![0; n],
            seen: vec![0; n * REP_BUCKETS],
            keys: vec![0; n * key_cap],
            key_cap,
        };
        games.envs().for_each(|mut e| {
            e.count_position();
            e.refresh();
        });
        games
    }

    /// The games as mutable views, in order, for rayon.
    fn envs(&mut self) -> impl IndexedParallelIterator<Item = EnvMut<'_>> {
        self.positions
            .par_iter_mut()
            .zip(self.plies.par_iter_mut())
            .zip(self.done.par_iter_mut())
            .zip(self.legal.par_chunks_mut(MAX_MOVES))
            .zip(self.legal_len.par_iter_mut())
            .zip(self.seen.par_chunks_mut(REP_BUCKETS))
            .zip(self.keys.par_chunks_mut(self.key_cap))
            .map(
                |((((((pos, plies), done), legal), legal_len), seen), keys)| EnvMut {
                    pos,
                    plies,
                    done,
                    legal,
                    legal_len,
                    seen,
                    keys,
                },
            )
    }

    /// Makes room for one more key in every game (doubling the stride when a game is full).
    fn reserve_key(&mut self) {
        let needed = self.plies.iter().max().map_or(0, |&p| p as usize + 1);
        if needed <= self.key_cap {
            return;
        }
        let cap = needed.max(2 * self.key_cap);
        let mut keys = vec![0; self.positions.len() * cap];
        for ((new, old), &p) in keys
            .chunks_mut(cap)
            .zip(self.keys.chunks(self.key_cap))
            .zip(&self.plies)
        {
            new[..p as usize].copy_from_slice(&old[..p as usize]);
        }
        self.keys = keys;
        self.key_cap = cap;
    }
}

/// One game of [`Games`] seen through mutable references into its arrays.
struct EnvMut<'a> {
    pos: &'a mut Position,
    plies: &'a mut u32,
    done: &'a mut bool,
    legal: &'a mut [(u16, Move)],
    legal_len: &'a mut u16,
    seen: &'a mut [u8],
    keys: &'a mut [u64],
}

impl EnvMut<'_> {
    /// The legal moves of the current position with their labels.
    fn legal(&self) -> &[(u16, Move)] {
        &self.legal[..*self.legal_len as usize]
    }

    /// Counts the current position in its bucket; returns the bucket's count.
    fn count_position(&mut self) -> u8 {
        let b = &mut self.seen[(self.pos.key() >> 54) as usize % REP_BUCKETS];
        *b = b.saturating_add(1);
        *b
    }

    fn reset(&mut self, start: &Position) {
        self.pos.clone_from(start);
        self.seen.fill(0);
        self.count_position();
        *self.plies = 0;
        *self.done = false;
        self.refresh();
    }

    /// Recomputes the legal moves of the current position.
    fn refresh(&mut self) {
        let side = self.pos.side_to_move();
        let legal = &mut *self.legal;
        let mut n = 0;
        // Moves come in sets of one origin (pawn pushes aside): the origin's row of labels is
        // looked up once per set.
        self.pos
            .generate_sets(MoveFilter::All, NonPromotions::All, |set| {
                let origin = match set {
                    MoveSet::Board { from, .. } => from.index(),
                    MoveSet::Drop { kind, .. } => 81 + kind as usize,
                    MoveSet::Pawns { .. } => {
                        return set.for_each(|m| {
                            legal[n] = (move_label(m, side), m);
                            n += 1;
                        });
                    }
                };
                let labels = origin_labels(side, origin);
                set.for_each(|m| {
                    legal[n] = (origin_label(labels, m), m);
                    n += 1;
                });
            });
        *self.legal_len = n as u16;
    }

    /// Plays a legal move and judges the position reached. The game's key stride must have room
    /// for one more key ([`Games::reserve_key`]).
    fn play(&mut self, m: Move, config: &Config) -> StepResult {
        self.keys[*self.plies as usize] = self.pos.key();
        self.pos.do_move(m);
        *self.plies += 1;
        let bucket = self.count_position();
        self.refresh();
        let r = self.judge_with(config, bucket >= 4);
        *self.done = r.terminated || r.truncated;
        r
    }

    /// Whether the game has ended in the current position, and the rewards if so: 千日手
    /// (perpetual check loses), the declaration when enabled, no legal move (checkmate or not,
    /// the side to move loses), then the ply limit.
    fn judge(&self, config: &Config) -> StepResult {
        self.judge_with(config, true)
    }

    /// [`EnvMut::judge`], skipping the repetition scan when the occurrence counter rules it out.
    fn judge_with(&self, config: &Config, may_repeat: bool) -> StepResult {
        let us = self.pos.side_to_move();
        let win = |winner: Color| {
            let mut rewards = [-1.0; 2];
            rewards[winner.index()] = 1.0;
            StepResult {
                rewards,
                terminated: true,
                truncated: false,
            }
        };
        if may_repeat && self.may_repeat_fourfold() {
            match self.pos.repetition() {
                Some(koma_core::Repetition::Draw) => {
                    return StepResult {
                        terminated: true,
                        ..StepResult::default()
                    };
                }
                Some(koma_core::Repetition::PerpetualCheck { loser }) => return win(loser.flip()),
                _ => {}
            }
        }
        if config.declaration && self.pos.can_declare_win() {
            return win(us);
        }
        if *self.legal_len == 0 {
            return win(us.flip());
        }
        StepResult {
            truncated: *self.plies >= config.max_plies,
            ..StepResult::default()
        }
    }

    /// A quick filter before [`Position::repetition`]: the current key occurs at least three
    /// times among the earlier positions with the same side to move.
    fn may_repeat_fourfold(&self) -> bool {
        let key = self.pos.key();
        self.keys[..*self.plies as usize]
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .filter(|&&k| k == key)
            .nth(2)
            .is_some()
    }
}

/// The legal move an action names in a game whose legal moves are `legal`.
fn find(
    pos: &Position,
    legal: &[(u16, Move)],
    env: usize,
    action: u64,
    kind: ActionKind,
) -> Result<Move, BatchError> {
    if action >= kind.count() as u64 {
        return Err(BatchError::OutOfRange {
            env,
            action,
            limit: kind.count(),
        });
    }
    let found = match kind {
        ActionKind::Label => legal.iter().find(|(l, _)| *l as u64 == action),
        ActionKind::Tensor => {
            let e = TensorIndex::from_flat(action as usize);
            legal.iter().find(|(_, m)| Some(tensor_index(pos, *m)) == e)
        }
    };
    found.map(|&(_, m)| m).ok_or_else(|| BatchError::Illegal {
        env,
        action,
        sfen: pos.to_sfen(),
    })
}

/// B shogi games advanced together: the batched environment behind `koma.VecEnv`.
///
/// Each game is a koma-core [`Position`] (so the rules are koma-core's, not a copy) plus the keys
/// of the positions of its episode (for 千日手) and the legal moves of its current position,
/// computed once per step and shared by the action mask, random actions and the next step.
/// Outputs are written into slices the caller provides, laid out batch-first.
///
/// ```
/// use koma_batch::{Batch, Config, ActionKind};
/// let mut batch = Batch::new(4, Config::default()).unwrap();
/// let mut actions = vec![0u32; 4];
/// batch.random_actions(7, &mut actions).unwrap();
/// let (mut rewards, mut term, mut trunc) = (vec![0.0; 8], vec![false; 4], vec![false; 4]);
/// batch.step(&actions, ActionKind::Label, &mut rewards, &mut term, &mut trunc).unwrap();
/// assert!(batch.sfens().iter().all(|s| s.ends_with(" w - 2")));
/// ```
#[derive(Clone)]
pub struct Batch {
    games: Games,
    starts: Vec<Position>,
    finals: Vec<Option<Position>>,
    config: Config,
}

impl std::fmt::Debug for Batch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Batch")
            .field("len", &self.len())
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl Batch {
    /// `n` games from the start position; resets go to the start position.
    pub fn new(n: usize, config: Config) -> Result<Batch, BatchError> {
        Batch::from_positions(
            vec![Position::startpos(); n],
            vec![Position::startpos()],
            config,
        )
    }

    /// One game per position; resets go to `starts[i % starts.len()]` for game `i`.
    pub fn from_positions(
        positions: Vec<Position>,
        starts: Vec<Position>,
        config: Config,
    ) -> Result<Batch, BatchError> {
        if positions.is_empty() || starts.is_empty() {
            return Err(BatchError::Empty);
        }
        let mut games = Games::new(positions, KEY_CAP);
        // A given position may already be over (mate, or declarable).
        games
            .envs()
            .for_each(|e| *e.done = e.judge(&config).terminated);
        Ok(Batch {
            finals: vec![None; games.lanes()],
            games,
            starts,
            config,
        })
    }

    /// One game per SFEN; with `reset_to_given`, resets go back to game `i`'s own SFEN, otherwise
    /// to the start position.
    pub fn from_sfens<S: AsRef<str> + Sync>(
        sfens: &[S],
        reset_to_given: bool,
        config: Config,
    ) -> Result<Batch, BatchError> {
        let positions = parse_sfens(sfens)?;
        let starts = if reset_to_given {
            positions.clone()
        } else {
            vec![Position::startpos()]
        };
        Batch::from_positions(positions, starts, config)
    }

    /// `n` games, each `plies` uniformly random legal moves from the start position (fewer if a
    /// game ends first), drawn from `seed`; resets go to the start position.
    pub fn random_play(
        n: usize,
        plies: u32,
        seed: u64,
        config: Config,
    ) -> Result<Batch, BatchError> {
        let mut games = Games::new(vec![Position::startpos(); n], KEY_CAP);
        let mut rngs: Vec<Rng> = (0..n).map(|i| Rng::derive(seed, i as u64)).collect();
        let unlimited = Config {
            max_plies: u32::MAX,
            ..config
        };
        games
            .envs()
            .for_each(|e| *e.done = e.judge(&config).terminated);
        for _ in 0..plies {
            if games.done.iter().all(|&d| d) {
                break;
            }
            games.reserve_key();
            games
                .envs()
                .zip(rngs.par_iter_mut())
                .with_min_len(CHUNK)
                .for_each(|(mut e, rng)| {
                    if !*e.done {
                        let (_, m) = e.legal()[rng.below(e.legal().len())];
                        e.play(m, &unlimited);
                    }
                });
        }
        // Rebuilt from SFEN: the random moves are no part of the episode.
        let positions: Vec<Position> = games
            .positions
            .into_par_iter()
            .map(|p| Position::from_sfen(&p.to_sfen()).unwrap_or(p))
            .collect();
        Batch::from_positions(positions, vec![Position::startpos()], config)
    }

    /// Rebuilds a batch from stored games (see [`Batch::games`]), replaying each game's moves so
    /// that repetition, ply counts and ended games come out as they were. Resets go to
    /// `starts[i % starts.len()]`.
    pub fn from_games(
        games: Vec<Game>,
        starts: Vec<Position>,
        config: Config,
    ) -> Result<Batch, BatchError> {
        if games.is_empty() || starts.is_empty() {
            return Err(BatchError::Empty);
        }
        let key_cap = games.iter().map(|g| g.moves.len()).max().unwrap_or(0);
        let (positions, moves): (Vec<Position>, Vec<Vec<Move>>) =
            games.into_iter().map(|g| (g.start, g.moves)).unzip();
        let mut games = Games::new(positions, key_cap);
        games
            .envs()
            .zip(moves.par_iter())
            .enumerate()
            .try_for_each(|(i, (mut e, moves))| {
                *e.done = e.judge(&config).terminated;
                for (ply, &mv) in moves.iter().enumerate() {
                    if *e.done || !e.legal().iter().any(|&(_, m)| m == mv) {
                        return Err(BatchError::Replay {
                            env: i,
                            ply: ply + 1,
                            mv,
                            sfen: e.pos.to_sfen(),
                        });
                    }
                    e.play(mv, &config);
                }
                Ok(())
            })?;
        Ok(Batch {
            finals: vec![None; games.lanes()],
            games,
            starts,
            config,
        })
    }

    /// Each game's episode: its start position and the moves played since.
    pub fn games(&self) -> Vec<Game> {
        self.games
            .positions
            .par_iter()
            .zip(self.games.plies.par_iter())
            .map(|(pos, &plies)| {
                let mut start = pos.clone();
                let mut moves = Vec::with_capacity(plies as usize);
                for _ in 0..plies {
                    if let Some(m) = start.undo_move() {
                        moves.push(m);
                    }
                }
                moves.reverse();
                Game { start, moves }
            })
            .collect()
    }

    /// The number of games.
    pub fn len(&self) -> usize {
        self.games.lanes()
    }

    /// Whether the batch holds no game (never: constructors refuse that).
    pub fn is_empty(&self) -> bool {
        self.games.positions.is_empty()
    }

    /// The settings.
    pub fn config(&self) -> Config {
        self.config
    }

    /// The current position of game `i`, with the moves of its episode.
    pub fn position(&self, i: usize) -> Option<&Position> {
        self.games.positions.get(i)
    }

    /// The positions resets go to.
    pub fn start_positions(&self) -> &[Position] {
        &self.starts
    }

    /// Replaces the positions resets go to (game `i` resets to `starts[i % len]`).
    pub fn set_start_positions(&mut self, starts: Vec<Position>) -> Result<(), BatchError> {
        if starts.is_empty() {
            return Err(BatchError::Empty);
        }
        self.starts = starts;
        Ok(())
    }

    /// The current positions as SFEN.
    pub fn sfens(&self) -> Vec<String> {
        self.games
            .positions
            .par_iter()
            .map(Position::to_sfen)
            .collect()
    }

    /// Whether each game has ended and waits for a reset.
    pub fn done(&self) -> Vec<bool> {
        self.games.done.clone()
    }

    /// Moves played in each game's current episode.
    pub fn plies(&self) -> Vec<u32> {
        self.games.plies.clone()
    }

    /// For [`AutoReset::SameStep`]: the final positions of the games the last step ended (and
    /// reset), `None` for the others.
    pub fn final_positions(&self) -> &[Option<Position>] {
        &self.finals
    }

    /// Sends every game back to its start position.
    pub fn reset(&mut self) {
        let starts = &self.starts;
        self.games
            .envs()
            .enumerate()
            .for_each(|(i, mut e)| e.reset(&starts[i % starts.len()]));
        self.finals.iter_mut().for_each(|f| *f = None);
    }

    /// The side to move of each game, 0 for Black and 1 for White, into `out` (`[B]`).
    pub fn current_players(&self, out: &mut [u8]) -> Result<(), BatchError> {
        check_len("current_players output", out.len(), self.len())?;
        for (o, pos) in out.iter_mut().zip(&self.games.positions) {
            *o = pos.side_to_move().index() as u8;
        }
        Ok(())
    }

    /// The dlshogi action mask `[B, 2187]` into `out`: `true` for the label of each legal move.
    /// A game that has ended and waits for its reset gets an all-true mask (any action is
    /// accepted and ignored), as in pgx, so that normalising a policy over it never divides by 0.
    pub fn legal_action_mask(&self, out: &mut [bool]) -> Result<(), BatchError> {
        check_len("mask output", out.len(), self.len() * NUM_LABELS)?;
        lanes::fill_mask(&self.games, NUM_LABELS, out);
        Ok(())
    }

    /// The dlshogi action mask as new memory, one `[bool; 2187]` row per game (as
    /// [`Batch::legal_action_mask`]; `Vec::into_flattened` makes it `[B * 2187]` without a copy).
    /// Each byte is written once: for a caller that hands every mask away (the Python binding)
    /// this saves zeroing a buffer before filling it.
    pub fn legal_action_mask_rows(&self) -> Vec<[bool; NUM_LABELS]> {
        lanes::mask_rows(&self.games)
    }

    /// The number of legal moves of each game's current position.
    pub fn legal_move_counts(&self) -> Vec<u32> {
        self.games.legal_len.iter().map(|&n| u32::from(n)).collect()
    }

    /// The dense legal-move tensor `[B, 21, 81, 81, 2]` into `out` (see [`crate::tensor`]): the
    /// legal moves of each current position, whether its game has ended or not.
    pub fn legal_moves_mat(&self, out: &mut [bool]) -> Result<(), BatchError> {
        check_len("tensor output", out.len(), self.len() * TENSOR_LEN)?;
        out.par_chunks_mut(TENSOR_LEN)
            .enumerate()
            .for_each(|(i, t)| {
                t.fill(false);
                let pos = &self.games.positions[i];
                for &(_, m) in self.games.legal(i) {
                    t[tensor_index(pos, m).flat()] = true;
                }
            });
        Ok(())
    }

    /// The legal-move tensor as sparse lists: `(offsets, indices)`, where the flat tensor indices
    /// of game `i`'s legal moves are `indices[offsets[i]..offsets[i + 1]]`, ascending.
    pub fn legal_moves_sparse(&self) -> (Vec<u64>, Vec<u32>) {
        let lists: Vec<Vec<u32>> = (0..self.len())
            .into_par_iter()
            .with_min_len(CHUNK)
            .map(|i| {
                let pos = &self.games.positions[i];
                let mut v: Vec<u32> = self
                    .games
                    .legal(i)
                    .iter()
                    .map(|&(_, m)| tensor_index(pos, m).flat() as u32)
                    .collect();
                v.sort_unstable();
                v
            })
            .collect();
        let mut offsets = Vec::with_capacity(lists.len() + 1);
        offsets.push(0u64);
        let mut indices = Vec::with_capacity(lists.iter().map(Vec::len).sum());
        for l in lists {
            indices.extend_from_slice(&l);
            offsets.push(indices.len() as u64);
        }
        (offsets, indices)
    }

    /// A uniformly random legal action label for each game into `out` (`[B]`), drawn from `seed`
    /// and the game's index only, so the draw is the same on any number of threads. Games waiting
    /// for a reset get 0. `out` must hold one entry per game, else [`BatchError::Length`] and
    /// nothing is written.
    pub fn random_actions(&self, seed: u64, out: &mut [u32]) -> Result<(), BatchError> {
        lanes::random_actions(&self.games, seed, out)
    }

    /// Plays one action in every game and writes the rewards `[B, 2]` (Black, White; +1 win,
    /// −1 loss, 0 otherwise, zero-sum), `terminated` and `truncated` (`[B]`) of the step.
    ///
    /// Every action is checked before any is played: an action out of range or not legal in its
    /// game returns an error and changes nothing. The action of a game waiting for its reset is
    /// ignored (any number in range is accepted); under [`AutoReset::NextStep`] that game is reset.
    #[doc(alias = "apply_actions")]
    pub fn step(
        &mut self,
        actions: &[u32],
        kind: ActionKind,
        rewards: &mut [f32],
        terminated: &mut [bool],
        truncated: &mut [bool],
    ) -> Result<(), BatchError> {
        let n = self.len();
        check_len("actions", actions.len(), n)?;
        check_len("rewards output", rewards.len(), 2 * n)?;
        check_len("terminated output", terminated.len(), n)?;
        check_len("truncated output", truncated.len(), n)?;
        let games = &self.games;
        let moves: Vec<Option<Move>> = actions
            .par_iter()
            .enumerate()
            .with_min_len(CHUNK)
            .map(|(i, &a)| {
                if games.done[i] {
                    if a as usize >= kind.count() {
                        return Err(BatchError::OutOfRange {
                            env: i,
                            action: a as u64,
                            limit: kind.count(),
                        });
                    }
                    Ok(None)
                } else {
                    find(&games.positions[i], games.legal(i), i, a as u64, kind).map(Some)
                }
            })
            .collect::<Result<_, _>>()?;
        let config = self.config;
        let starts = &self.starts;
        self.games.reserve_key();
        self.games
            .envs()
            .zip(moves.par_iter())
            .zip(self.finals.par_iter_mut())
            .zip(rewards.par_chunks_mut(2))
            .zip(terminated.par_iter_mut().zip(truncated.par_iter_mut()))
            .enumerate()
            .with_min_len(CHUNK)
            .for_each(|(i, ((((mut e, m), fin), rew), (term, trunc)))| {
                *fin = None;
                let r = match m {
                    Some(m) => e.play(*m, &config),
                    None => {
                        if config.autoreset == AutoReset::NextStep {
                            e.reset(&starts[i % starts.len()]);
                        }
                        StepResult::default()
                    }
                };
                if *e.done && config.autoreset == AutoReset::SameStep {
                    *fin = Some(e.pos.clone());
                    e.reset(&starts[i % starts.len()]);
                }
                rew.copy_from_slice(&r.rewards);
                *term = r.terminated;
                *trunc = r.truncated;
            });
        Ok(())
    }

    /// The dlshogi input features `[B, 119, 9, 9]` of the current positions into `out`, 0 or 1
    /// (see [`crate::features`]).
    pub fn features(&self, out: &mut [u8]) -> Result<(), BatchError> {
        check_len("features output", out.len(), self.len() * FEATURES_LEN)?;
        out.par_chunks_mut(FEATURES_LEN)
            .zip(self.games.positions.par_iter())
            .with_min_len(CHUNK / 4)
            .for_each(|(o, pos)| {
                o.fill(0);
                write_features(pos, o);
            });
        Ok(())
    }
}

/// Parses SFEN strings in parallel, naming the first bad one by its index.
pub fn parse_sfens<S: AsRef<str> + Sync>(sfens: &[S]) -> Result<Vec<Position>, BatchError> {
    sfens
        .par_iter()
        .enumerate()
        .map(|(index, s)| {
            Position::from_sfen(s.as_ref()).map_err(|source| BatchError::Position { index, source })
        })
        .collect()
}
