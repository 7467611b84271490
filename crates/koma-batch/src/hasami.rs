//! Hasami shogi (挟み将棋) for reinforcement learning: B games of koma-hasami stepped together
//! ([`HasamiBatch`]), either in self-play (every move is an action) or against one of
//! koma-hasami's agents (`random`, `study:D`, `search`, `learned`), which answers inside the step,
//! so the caller only ever sees its learner's turns.
//!
//! The rules are koma-hasami's: each game is a [`koma_hasami::Game`] (captures, the win by
//! material or a lead of three, threefold repetition, the ply limit), and the agents are built by
//! [`AgentSpec::build`].
//!
//! Actions and observations are seen from one side, the board turned 180° for White, so that
//! one network can play both colours:
//!
//! - an action is `from * 81 + to` ([`NUM_ACTIONS`] = 6,561), squares numbered as koma-hasami
//!   numbers them (`row * 9 + col`, 9a = 0, 1i = 80) for Black and `80 - index` for White;
//! - an observation is [`NUM_PLANES`] planes of 9×9, indexed `[row][col]` of that view (row 0 is
//!   the far rank): the viewer's pieces, the other side's pieces, all ones when the viewer is
//!   White, all ones when the current position occurred before in the game (a third occurrence
//!   draws).
//!
//! ```
//! use koma_batch::hasami::{HasamiBatch, HasamiConfig, NUM_ACTIONS, action};
//! use koma_batch::AutoReset;
//! use koma_hasami::Color;
//!
//! let mut batch = HasamiBatch::new(2, HasamiConfig::default()).unwrap();
//! let mut mask = vec![false; 2 * NUM_ACTIONS];
//! batch.legal_action_mask(&mut mask).unwrap();
//! assert_eq!(mask[..NUM_ACTIONS].iter().filter(|&&b| b).count(), 63);
//!
//! let a = action("9i9e".parse().unwrap(), Color::Black) as u32;
//! let (mut rewards, mut term, mut trunc) = (vec![0.0; 4], vec![false; 2], vec![false; 2]);
//! batch.step(&[a, a], &mut rewards, &mut term, &mut trunc).unwrap();
//! assert_eq!(batch.position(0).unwrap().to_string(), "ppppppppp/9/9/9/P8/9/9/9/1PPPPPPPP w 2");
//! ```

use std::sync::Arc;

use koma_core::Color;
use koma_core::rng::Rng;
use koma_hasami::agents::AgentSpec;
use koma_hasami::ntuple::NTuple;
use koma_hasami::{Game, Move, Outcome, Position, Square};
use rayon::prelude::*;

use crate::lanes::{self, CHUNK, Lane, check_len};
use crate::{AutoReset, BatchError};

/// The number of actions: every (from, to) pair of squares, `from * 81 + to`.
pub const NUM_ACTIONS: usize = 81 * 81;

/// Planes of an observation (see the module documentation).
pub const NUM_PLANES: usize = 4;

/// Bytes of one observation: [`NUM_PLANES`] × 9 × 9.
pub const OBS_LEN: usize = NUM_PLANES * 81;

/// The square index of `sq` as `viewer` sees the board (turned 180° for White).
fn view(sq: Square, viewer: Color) -> usize {
    match viewer {
        Color::Black => sq.index(),
        Color::White => 80 - sq.index(),
    }
}

/// The action of move `mv` for the side `side` (the side that plays it).
///
/// ```
/// use koma_batch::hasami::action;
/// use koma_hasami::Color;
/// assert_eq!(action("9i9e".parse().unwrap(), Color::Black), 72 * 81 + 36);
/// // White's mirror move has the same action.
/// assert_eq!(action("1a1e".parse().unwrap(), Color::White), 72 * 81 + 36);
/// ```
pub fn action(mv: Move, side: Color) -> u16 {
    (view(mv.from, side) * 81 + view(mv.to, side)) as u16
}

/// The move action `action` names for `side` (`None` out of range). The move need not be
/// legal anywhere: this only decodes the two squares.
///
/// ```
/// use koma_batch::hasami::action_move;
/// use koma_hasami::Color;
/// assert_eq!(action_move(72 * 81 + 36, Color::White).unwrap().to_string(), "1a1e");
/// assert!(action_move(6561, Color::Black).is_none());
/// ```
pub fn action_move(action: u32, side: Color) -> Option<Move> {
    if action as usize >= NUM_ACTIONS {
        return None;
    }
    let square = |i: u32| {
        let i = if side == Color::Black { i } else { 80 - i };
        Square::from_index(i as u8)
    };
    Some(Move {
        from: square(action / 81)?,
        to: square(action % 81)?,
    })
}

/// Which colour the learner plays against an [`Opponent`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum LearnerColor {
    /// Always Black (moves first).
    Black,
    /// Always White: the opponent's first move is played by the reset.
    White,
    /// Black and White by turns: episode `k` of game `i` has the learner Black when `i + k` is
    /// even, so a batch always holds both.
    #[default]
    Alternate,
}

/// A koma-hasami agent that plays the other side inside [`HasamiBatch::step`].
#[derive(Clone, Debug)]
pub struct Opponent {
    /// The agent (`random`, `study:D`, `search[:D|:MSms]`, `learned[...]`).
    pub agent: AgentSpec,
    /// The learner's colour.
    pub learner: LearnerColor,
    /// The n-tuple model of the `learned` agents.
    pub model: Arc<NTuple>,
}

impl Opponent {
    /// `agent` with the shipped model for `learned`, the learner's colour alternating.
    pub fn new(agent: AgentSpec) -> Opponent {
        let model = match agent {
            AgentSpec::Learned(_) => NTuple::shipped(),
            _ => NTuple::zero(),
        };
        Opponent {
            agent,
            learner: LearnerColor::Alternate,
            model: Arc::new(model),
        }
    }

    /// Whether a move of this agent takes long enough that each game should be its own task.
    fn is_slow(&self) -> bool {
        !matches!(self.agent, AgentSpec::Random(_))
    }
}

/// Rules and episode settings of a [`HasamiBatch`].
#[derive(Clone, Debug)]
pub struct HasamiConfig {
    /// Moves after which a game is drawn (the ply limit of docs/hasami-rules.md; reported as `truncated`).
    pub ply_limit: u32,
    /// Uniformly random moves that open every episode (as `koma hasami arena` does; 0: none).
    /// They count towards the ply limit.
    pub opening_plies: u32,
    /// What happens to ended games.
    pub autoreset: AutoReset,
    /// The agent playing the other side; `None` for self-play.
    pub opponent: Option<Opponent>,
    /// The seed of the openings and of the opponent's random choices.
    pub seed: u64,
}

impl Default for HasamiConfig {
    /// Self-play, the default ply limit (300), no opening, [`AutoReset::NextStep`], seed 0.
    fn default() -> HasamiConfig {
        HasamiConfig {
            ply_limit: koma_hasami::DEFAULT_PLY_LIMIT,
            opening_plies: 0,
            autoreset: AutoReset::NextStep,
            opponent: None,
            seed: 0,
        }
    }
}

/// One game of a [`HasamiBatch`] as it is stored and rebuilt: its episode number, the learner's
/// colour, and the game (which holds every move since the start position, opening included).
#[derive(Clone, Debug)]
pub struct HasamiGame {
    /// Episodes this environment finished before the current one.
    pub episode: u64,
    /// The learner's colour in this episode (Black in self-play).
    pub learner: Color,
    /// The game.
    pub game: Game,
}

/// The result of one environment's step, rewards per colour.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
struct StepResult {
    rewards: [f32; 2],
    terminated: bool,
    truncated: bool,
}

#[derive(Clone)]
struct Env {
    game: Game,
    legal: Vec<(u16, Move)>,
    learner: Color,
    episode: u64,
    done: bool,
}

impl Lane for Env {
    type Move = Move;
    fn done(&self) -> bool {
        self.done
    }
    fn legal(&self) -> &[(u16, Move)] {
        &self.legal
    }
}

impl Env {
    fn refresh(&mut self) {
        let pos = self.game.position();
        let side = pos.side_to_move();
        self.legal.clear();
        let legal = &mut self.legal;
        pos.for_each_move(|m| legal.push((action(m, side), m)));
    }

    /// The colour observations and actions are seen from: the learner's against an opponent,
    /// the side to move's in self-play.
    fn viewer(&self, config: &HasamiConfig) -> Color {
        match config.opponent {
            Some(_) => self.learner,
            None => self.game.position().side_to_move(),
        }
    }

    /// How the game stands: a win, a draw by repetition (terminated) or by the ply limit
    /// (truncated), or going on.
    fn judge(&self) -> StepResult {
        match self.game.outcome() {
            Outcome::Ongoing => StepResult::default(),
            Outcome::Win(c) => {
                let mut rewards = [-1.0; 2];
                rewards[c.index()] = 1.0;
                StepResult {
                    rewards,
                    terminated: true,
                    truncated: false,
                }
            }
            Outcome::Draw => {
                let repeated = occurrences(&self.game) >= 3;
                StepResult {
                    rewards: [0.0; 2],
                    terminated: repeated,
                    truncated: !repeated,
                }
            }
        }
    }
}

/// How often the current position (with its side to move) has occurred in the game.
fn occurrences(game: &Game) -> usize {
    let key = game.position().key();
    game.keys().iter().filter(|&&k| k == key).count()
}

/// B hasami shogi games advanced together: the batched environment behind
/// `koma.hasami.VecEnv`.
///
/// In self-play each step plays one move per game for the side to move. With an [`Opponent`],
/// each step plays the learner's move and then, if the game goes on, the agent's reply; a reset
/// plays the opening and, when the learner is White, the agent's first move. The agent is built
/// afresh for each of its moves from a seed derived from (seed, game, episode, ply), so the
/// games are reproducible whatever the number of threads, and a batch stored with
/// [`HasamiBatch::games`] continues exactly.
#[derive(Clone)]
pub struct HasamiBatch {
    envs: Vec<Env>,
    /// Under [`AutoReset::SameStep`]: the games the last step ended, with their viewer.
    finals: Vec<Option<(Game, Color)>>,
    config: HasamiConfig,
}

impl std::fmt::Debug for HasamiBatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HasamiBatch")
            .field("len", &self.len())
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl HasamiConfig {
    /// Checks that every episode can start: the opening (and the opponent's first move) must
    /// leave the game below its ply limit.
    fn check(&self) -> Result<(), BatchError> {
        if self.ply_limit <= self.opening_plies + 1 {
            return Err(BatchError::Settings(format!(
                "the ply limit ({}) must exceed the opening ({} plies) by at least 2",
                self.ply_limit, self.opening_plies
            )));
        }
        Ok(())
    }
}

impl HasamiBatch {
    /// `n` games, each at the start of its first episode.
    pub fn new(n: usize, config: HasamiConfig) -> Result<HasamiBatch, BatchError> {
        if n == 0 {
            return Err(BatchError::Empty);
        }
        config.check()?;
        let mut batch = HasamiBatch {
            envs: Vec::new(),
            finals: vec![None; n],
            config,
        };
        batch.envs = (0..n)
            .into_par_iter()
            .map(|i| batch.start_episode(i, 0))
            .collect();
        Ok(batch)
    }

    /// Rebuilds a batch from stored games ([`HasamiBatch::games`]). Ended games stay ended,
    /// waiting for their reset.
    pub fn from_games(
        games: Vec<HasamiGame>,
        config: HasamiConfig,
    ) -> Result<HasamiBatch, BatchError> {
        if games.is_empty() {
            return Err(BatchError::Empty);
        }
        config.check()?;
        let envs: Vec<Env> = games
            .into_iter()
            .map(|g| {
                let mut env = Env {
                    game: g.game,
                    legal: Vec::with_capacity(64),
                    learner: g.learner,
                    episode: g.episode,
                    done: false,
                };
                env.refresh();
                env.done = env.game.outcome() != Outcome::Ongoing;
                env
            })
            .collect();
        Ok(HasamiBatch {
            finals: vec![None; envs.len()],
            envs,
            config,
        })
    }

    /// Each game as it can be stored and rebuilt with [`HasamiBatch::from_games`].
    pub fn games(&self) -> Vec<HasamiGame> {
        self.envs
            .iter()
            .map(|e| HasamiGame {
                episode: e.episode,
                learner: e.learner,
                game: e.game.clone(),
            })
            .collect()
    }

    /// The number of games.
    pub fn len(&self) -> usize {
        self.envs.len()
    }

    /// Whether the batch holds no game (never: constructors refuse that).
    pub fn is_empty(&self) -> bool {
        self.envs.is_empty()
    }

    /// The settings.
    pub fn config(&self) -> &HasamiConfig {
        &self.config
    }

    /// Rewards per game a step writes: 2 in self-play (Black, White), 1 against an opponent
    /// (the learner's).
    pub fn reward_width(&self) -> usize {
        if self.config.opponent.is_some() { 1 } else { 2 }
    }

    /// The current position of game `i`.
    pub fn position(&self, i: usize) -> Option<&Position> {
        self.envs.get(i).map(|e| e.game.position())
    }

    /// Game `i` with its moves since the start position.
    pub fn game(&self, i: usize) -> Option<&Game> {
        self.envs.get(i).map(|e| &e.game)
    }

    /// Whether each game has ended and waits for its reset.
    pub fn done(&self) -> Vec<bool> {
        self.envs.iter().map(|e| e.done).collect()
    }

    /// The learner's colour in each game's current episode (Black in self-play).
    pub fn learner_colors(&self) -> Vec<Color> {
        self.envs.iter().map(|e| e.learner).collect()
    }

    /// The side to move of each game.
    pub fn sides_to_move(&self) -> Vec<Color> {
        self.envs
            .iter()
            .map(|e| e.game.position().side_to_move())
            .collect()
    }

    /// For [`AutoReset::SameStep`]: the final games the last step ended (and reset), `None` for
    /// the others.
    pub fn final_games(&self) -> Vec<Option<&Game>> {
        self.finals
            .iter()
            .map(|f| f.as_ref().map(|(g, _)| g))
            .collect()
    }

    /// The first episode of game `i` after `episode` finished ones: the opening, the learner's
    /// colour, and the opponent's first move when it is to move. An opening the opponent's reply
    /// would end is drawn again with the next episode number.
    fn start_episode(&self, i: usize, mut episode: u64) -> Env {
        let config = &self.config;
        let stream = Rng::derive(config.seed, i as u64).next_u64();
        loop {
            let game = koma_hasami::arena::opening(
                stream,
                episode,
                config.opening_plies,
                config.ply_limit,
            );
            let learner = match config.opponent.as_ref().map(|o| o.learner) {
                Some(LearnerColor::White) => Color::White,
                Some(LearnerColor::Alternate) if (i as u64 + episode) % 2 == 1 => Color::White,
                _ => Color::Black,
            };
            let mut env = Env {
                game,
                legal: Vec::with_capacity(64),
                learner,
                episode,
                done: false,
            };
            if env.game.position().side_to_move() != learner {
                self.opponent_moves(i, &mut env);
            }
            if env.game.outcome() == Outcome::Ongoing {
                env.refresh();
                return env;
            }
            episode += 1;
        }
    }

    /// The opponent's move in game `i`, if there is an opponent and the game goes on.
    fn opponent_moves(&self, i: usize, env: &mut Env) {
        let Some(opponent) = &self.config.opponent else {
            return;
        };
        if env.game.outcome() != Outcome::Ongoing {
            return;
        }
        let stream = Rng::derive(self.config.seed ^ 0x6f70_706f_6e65_6e74, i as u64).next_u64();
        let seed = Rng::derive(
            Rng::derive(stream, env.episode).next_u64(),
            env.game.moves().len() as u64,
        )
        .next_u64();
        let mut agent = opponent.agent.build(seed, &opponent.model);
        let legal = env.game.position().legal_moves();
        // koma-hasami's agents always answer a legal move while the game goes on (its tests and
        // ours check it); the fallback keeps a batch going should one ever not.
        let m = agent
            .choose(&env.game, None)
            .filter(|m| legal.as_slice().contains(m))
            .unwrap_or(legal.as_slice()[0]);
        env.game.play(m);
    }

    /// Sends every game to the start of its next episode.
    pub fn reset(&mut self) {
        let fresh: Vec<Env> = (0..self.len())
            .into_par_iter()
            .with_min_len(self.min_len())
            .map(|i| self.start_episode(i, self.envs[i].episode + 1))
            .collect();
        self.envs = fresh;
        self.finals.iter_mut().for_each(|f| *f = None);
    }

    fn min_len(&self) -> usize {
        match &self.config.opponent {
            Some(o) if o.is_slow() => 1,
            _ => CHUNK,
        }
    }

    /// The action mask `[B, 6561]` into `out`: `true` for the action of each legal move. A game
    /// that has ended and waits for its reset gets an all-true mask (any action is accepted and
    /// ignored).
    pub fn legal_action_mask(&self, out: &mut [bool]) -> Result<(), BatchError> {
        check_len("mask output", out.len(), self.len() * NUM_ACTIONS)?;
        lanes::fill_mask(self.envs.as_slice(), NUM_ACTIONS, out);
        Ok(())
    }

    /// The action mask as new memory, one `[bool; 6561]` row per game (as
    /// [`HasamiBatch::legal_action_mask`]), each byte written once.
    pub fn legal_action_mask_rows(&self) -> Vec<[bool; NUM_ACTIONS]> {
        lanes::mask_rows(self.envs.as_slice())
    }

    /// The number of legal moves of each game's current position.
    pub fn legal_move_counts(&self) -> Vec<u32> {
        self.envs.iter().map(|e| e.legal.len() as u32).collect()
    }

    /// A uniformly random legal action per game into `out` (`[B]`), drawn from `seed` and the
    /// game's index only. Games waiting for a reset get 0.
    pub fn random_actions(&self, seed: u64, out: &mut [u32]) -> Result<(), BatchError> {
        lanes::random_actions(self.envs.as_slice(), seed, out)
    }

    /// Plays one action in every game (and the opponent's reply, if any) and writes the rewards
    /// (`[B, 2]` per colour in self-play, `[B]` for the learner against an opponent: +1 win, −1
    /// loss, 0 otherwise), `terminated` (a win or a draw by repetition) and `truncated` (the ply
    /// limit) `[B]`.
    ///
    /// Every action is checked before any is played: an action out of range or not legal in its
    /// game returns an error and changes nothing. The action of a game waiting for its reset is
    /// ignored (any number in range is accepted); under [`AutoReset::NextStep`] that game starts
    /// its next episode.
    pub fn step(
        &mut self,
        actions: &[u32],
        rewards: &mut [f32],
        terminated: &mut [bool],
        truncated: &mut [bool],
    ) -> Result<(), BatchError> {
        let n = self.len();
        let width = self.reward_width();
        check_len("actions", actions.len(), n)?;
        check_len("rewards output", rewards.len(), width * n)?;
        check_len("terminated output", terminated.len(), n)?;
        check_len("truncated output", truncated.len(), n)?;
        let moves = self.find_moves(actions)?;
        let min_len = self.min_len();
        let mut envs = std::mem::take(&mut self.envs);
        let mut finals = std::mem::take(&mut self.finals);
        let this = &*self;
        envs.par_iter_mut()
            .zip(moves.par_iter())
            .zip(finals.par_iter_mut())
            .zip(rewards.par_chunks_mut(width))
            .zip(terminated.par_iter_mut().zip(truncated.par_iter_mut()))
            .enumerate()
            .with_min_len(min_len)
            .for_each(|(i, ((((e, m), fin), rew), (term, trunc)))| {
                *fin = None;
                let r = match m {
                    Some(m) => {
                        e.game.play(*m);
                        this.opponent_moves(i, e);
                        e.refresh();
                        let r = e.judge();
                        e.done = r.terminated || r.truncated;
                        r
                    }
                    None => {
                        if this.config.autoreset == AutoReset::NextStep {
                            *e = this.start_episode(i, e.episode + 1);
                        }
                        StepResult::default()
                    }
                };
                if width == 1 {
                    rew[0] = r.rewards[e.learner.index()];
                } else {
                    rew.copy_from_slice(&r.rewards);
                }
                *term = r.terminated;
                *trunc = r.truncated;
                if e.done && this.config.autoreset == AutoReset::SameStep {
                    let viewer = e.viewer(&this.config);
                    let next = this.start_episode(i, e.episode + 1);
                    *fin = Some((std::mem::replace(e, next).game, viewer));
                }
            });
        self.envs = envs;
        self.finals = finals;
        Ok(())
    }

    /// The legal move each action names, `None` for games waiting for their reset; the first
    /// bad action as an error.
    fn find_moves(&self, actions: &[u32]) -> Result<Vec<Option<Move>>, BatchError> {
        self.envs
            .par_iter()
            .zip(actions.par_iter())
            .enumerate()
            .with_min_len(CHUNK)
            .map(|(env, (e, &a))| {
                if a as usize >= NUM_ACTIONS {
                    return Err(BatchError::OutOfRange {
                        env,
                        action: a as u64,
                        limit: NUM_ACTIONS,
                    });
                }
                if e.done {
                    return Ok(None);
                }
                e.legal
                    .iter()
                    .find(|&&(l, _)| l as u32 == a)
                    .map(|&(_, m)| Some(m))
                    .ok_or_else(|| BatchError::Illegal {
                        env,
                        action: a as u64,
                        sfen: e.game.position().to_string(),
                    })
            })
            .collect()
    }

    /// The observations `[B, 4, 9, 9]` of the current positions into `out`, 0 or 1 (see the
    /// module documentation).
    pub fn observations(&self, out: &mut [u8]) -> Result<(), BatchError> {
        check_len("observation output", out.len(), self.len() * OBS_LEN)?;
        let config = &self.config;
        out.par_chunks_mut(OBS_LEN)
            .zip(self.envs.par_iter())
            .with_min_len(CHUNK)
            .for_each(|(o, e)| write_observation(&e.game, e.viewer(config), o));
        Ok(())
    }

    /// The observations of the games [`HasamiBatch::final_games`] holds, in game order, seen as
    /// their episode saw them, `[N, 4, 9, 9]` into a new vector.
    pub fn final_observations(&self) -> Vec<u8> {
        let finals: Vec<&(Game, Color)> = self.finals.iter().flatten().collect();
        let mut out = vec![0u8; finals.len() * OBS_LEN];
        for ((g, viewer), o) in finals.into_iter().zip(out.chunks_mut(OBS_LEN)) {
            write_observation(g, *viewer, o);
        }
        out
    }
}

/// The observation planes of `game`'s current position as `viewer` sees it into `out`
/// ([`OBS_LEN`] bytes).
pub fn write_observation(game: &Game, viewer: Color, out: &mut [u8]) {
    out.fill(0);
    let pos = game.position();
    for (plane, color) in [(0, viewer), (1, viewer.flip())] {
        let mut bb = pos.pieces(color);
        while bb != 0 {
            let sq = bb.trailing_zeros() as u8;
            bb &= bb - 1;
            if let Some(sq) = Square::from_index(sq) {
                out[plane * 81 + view(sq, viewer)] = 1;
            }
        }
    }
    if viewer == Color::White {
        out[2 * 81..3 * 81].fill(1);
    }
    if occurrences(game) >= 2 {
        out[3 * 81..4 * 81].fill(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opponent(name: &str, learner: LearnerColor) -> HasamiConfig {
        let mut o = Opponent::new(name.parse().unwrap());
        o.learner = learner;
        HasamiConfig {
            opponent: Some(o),
            seed: 5,
            ..HasamiConfig::default()
        }
    }

    fn run(batch: &mut HasamiBatch, steps: usize, seed: u64) -> (usize, f32) {
        let n = batch.len();
        let width = batch.reward_width();
        let (mut r, mut t, mut u) = (vec![0.0; width * n], vec![false; n], vec![false; n]);
        let mut actions = vec![0; n];
        let (mut ended, mut sum) = (0, 0.0);
        for s in 0..steps {
            batch.random_actions(seed + s as u64, &mut actions).unwrap();
            batch.step(&actions, &mut r, &mut t, &mut u).unwrap();
            ended += t.iter().zip(&u).filter(|(a, b)| **a || **b).count();
            sum += r.iter().sum::<f32>();
        }
        (ended, sum)
    }

    #[test]
    fn actions_round_trip_and_mirror() {
        for side in [Color::Black, Color::White] {
            let pos = match side {
                Color::Black => Position::startpos(),
                Color::White => Position::parse("ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP w 1").unwrap(),
            };
            for &m in pos.legal_moves().as_slice() {
                let a = action(m, side);
                assert_eq!(action_move(a as u32, side), Some(m));
            }
        }
        // Both sides' first moves have the same actions: the view is turned for White.
        let black: Vec<u16> = Position::startpos()
            .legal_moves()
            .as_slice()
            .iter()
            .map(|&m| action(m, Color::Black))
            .collect();
        let white_pos = Position::parse("ppppppppp/9/9/9/9/9/9/9/PPPPPPPPP w 1").unwrap();
        let mut white: Vec<u16> = white_pos
            .legal_moves()
            .as_slice()
            .iter()
            .map(|&m| action(m, Color::White))
            .collect();
        let mut b = black.clone();
        b.sort();
        white.sort();
        assert_eq!(b, white);
    }

    #[test]
    fn self_play_is_zero_sum_and_ends() {
        let config = HasamiConfig {
            ply_limit: 120,
            ..HasamiConfig::default()
        };
        let mut batch = HasamiBatch::new(16, config).unwrap();
        let (ended, sum) = run(&mut batch, 400, 1);
        assert!(ended >= 16, "{ended}");
        assert_eq!(sum, 0.0);
    }

    #[test]
    fn the_opponent_answers_and_the_learner_always_moves() {
        for learner in [
            LearnerColor::Black,
            LearnerColor::White,
            LearnerColor::Alternate,
        ] {
            let mut batch = HasamiBatch::new(8, opponent("random", learner)).unwrap();
            for _ in 0..60 {
                for (i, e) in batch.envs.iter().enumerate() {
                    if !e.done {
                        assert_eq!(e.game.position().side_to_move(), e.learner, "game {i}");
                    }
                }
                run(&mut batch, 1, 3);
            }
            let colors = batch.learner_colors();
            match learner {
                LearnerColor::Black => assert!(colors.iter().all(|&c| c == Color::Black)),
                LearnerColor::White => assert!(colors.iter().all(|&c| c == Color::White)),
                LearnerColor::Alternate => {
                    assert!(colors.contains(&Color::Black) && colors.contains(&Color::White))
                }
            }
        }
    }

    #[test]
    fn study_beats_random_learner() {
        let mut batch = HasamiBatch::new(4, opponent("study:1", LearnerColor::Alternate)).unwrap();
        let (ended, sum) = run(&mut batch, 300, 9);
        assert!(
            ended >= 4 && sum < -2.0,
            "{ended} games, learner total {sum}"
        );
    }

    #[test]
    fn stored_games_continue_exactly() {
        let mut config = opponent("random", LearnerColor::Alternate);
        config.opening_plies = 2;
        let mut a = HasamiBatch::new(6, config.clone()).unwrap();
        run(&mut a, 37, 4);
        let mut b = HasamiBatch::from_games(a.games(), config).unwrap();
        for s in 0..80 {
            let (ra, rb) = (run(&mut a, 1, 100 + s), run(&mut b, 1, 100 + s));
            assert_eq!(ra, rb);
        }
        for i in 0..6 {
            assert_eq!(a.game(i).unwrap().record(), b.game(i).unwrap().record());
        }
    }

    #[test]
    fn bad_actions_change_nothing() {
        let mut batch = HasamiBatch::new(2, HasamiConfig::default()).unwrap();
        let (mut r, mut t, mut u) = (vec![0.0; 4], vec![false; 2], vec![false; 2]);
        let before: Vec<String> = (0..2)
            .map(|i| batch.position(i).unwrap().to_string())
            .collect();
        let ok = action("9i9e".parse().unwrap(), Color::Black) as u32;
        for bad in [[ok, 0], [ok, NUM_ACTIONS as u32]] {
            assert!(batch.step(&bad, &mut r, &mut t, &mut u).is_err());
        }
        assert!(batch.step(&[ok], &mut r, &mut t, &mut u).is_err());
        let after: Vec<String> = (0..2)
            .map(|i| batch.position(i).unwrap().to_string())
            .collect();
        assert_eq!(before, after);
    }

    #[test]
    fn observations_are_seen_from_the_mover() {
        let mut batch = HasamiBatch::new(1, HasamiConfig::default()).unwrap();
        let mut o = vec![0u8; OBS_LEN];
        batch.observations(&mut o).unwrap();
        let black = o.clone();
        let a = action("5i5h".parse().unwrap(), Color::Black) as u32;
        let (mut r, mut t, mut u) = (vec![0.0; 2], vec![false], vec![false]);
        batch.step(&[a], &mut r, &mut t, &mut u).unwrap();
        batch.observations(&mut o).unwrap();
        // White to move sees its pieces on the near rank, as Black did.
        assert_eq!(o[..81], black[..81]);
        assert!(o[2 * 81..3 * 81].iter().all(|&x| x == 1));
        assert!(black[2 * 81..].iter().all(|&x| x == 0));
    }
}
