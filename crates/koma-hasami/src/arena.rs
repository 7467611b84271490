//! Matches between agents on both cores, with the study's result table and a 95% interval.
//!
//! Variety: the study agent and koma's searchers are deterministic, so every game pair starts from
//! its own seeded random opening of `opening_plies` plies (uniform legal moves, re-drawn if the
//! opening ends the game). Game `i` uses the same opening in both colour assignments, so neither
//! agent gets easier starts. The random agent draws from a seed derived from (seed, game, side).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use rayon::prelude::*;

use crate::agents::AgentSpec;
use crate::game::{Game, Outcome};
use crate::ntuple::NTuple;
use crate::position::Position;
use koma_core::Color;
use koma_core::rng::Rng;

/// What to play.
#[derive(Clone, Debug)]
pub struct ArenaConfig {
    /// The agent playing Black (先手) in the first assignment.
    pub black: AgentSpec,
    /// The agent playing White (後手) in the first assignment.
    pub white: AgentSpec,
    /// Games per colour assignment.
    pub games: usize,
    /// Also play every opening with colours swapped.
    pub swap: bool,
    /// Random plies before the agents take over (shared by both assignments).
    pub opening_plies: u32,
    /// Seed of the openings and of random agents.
    pub seed: u64,
    /// Ply limit (draw).
    pub ply_limit: u32,
}

/// Results of one colour assignment: a row of the study's table.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Row {
    /// 先手 (Black) agent.
    pub black: String,
    /// 後手 (White) agent.
    pub white: String,
    /// 先手勝: Black wins.
    pub black_wins: u32,
    /// 後手勝: White wins.
    pub white_wins: u32,
    /// 引分: draws.
    pub draws: u32,
}

/// The whole match.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct ArenaReport {
    /// One row per colour assignment.
    pub rows: Vec<Row>,
    /// The first-named agent (`--black`).
    pub agent: String,
    /// Its wins over all games.
    pub wins: u32,
    /// Its losses.
    pub losses: u32,
    /// Draws.
    pub draws: u32,
    /// Its win rate (wins / games).
    pub win_rate: f64,
    /// Wilson 95% interval of the win rate.
    pub interval: (f64, f64),
    /// Mean game length in plies.
    pub mean_plies: f64,
    /// How variety between games is created.
    pub variety: String,
}

/// The Wilson score interval (95%) for `k` successes in `n` trials.
pub fn wilson(k: u32, n: u32) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (n, p, z) = (n as f64, k as f64 / n as f64, 1.96f64);
    let centre = p + z * z / (2.0 * n);
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    let denom = 1.0 + z * z / n;
    (
        ((centre - half) / denom).max(0.0),
        ((centre + half) / denom).min(1.0),
    )
}

/// The seeded random opening of game `index`: `plies` uniform random moves from the start position,
/// re-drawn until the game is still going after them.
pub fn opening(seed: u64, index: u64, plies: u32, ply_limit: u32) -> Game {
    let mut rng = Rng::derive(seed, index);
    loop {
        let mut g = Game::new(Position::startpos(), ply_limit);
        for _ in 0..plies {
            if g.outcome() != Outcome::Ongoing {
                break;
            }
            let moves = g.position().legal_moves();
            g.play(moves.as_slice()[rng.below(moves.len())]);
        }
        if g.outcome() == Outcome::Ongoing {
            return g;
        }
    }
}

/// Plays one game from `start` between two built agents; returns the outcome and the game.
pub fn play_game(
    mut start: Game,
    black: &mut dyn crate::agents::Agent,
    white: &mut dyn crate::agents::Agent,
) -> (Outcome, Game) {
    black.new_game();
    white.new_game();
    loop {
        let outcome = start.outcome();
        if outcome != Outcome::Ongoing {
            return (outcome, start);
        }
        let choice = if start.position().side_to_move() == Color::Black {
            black.choose(&start, None)
        } else {
            white.choose(&start, None)
        };
        match choice {
            Some(m) if start.position().is_legal(m) => start.play(m),
            // No move or an illegal one (an agent bug) loses, so a match always finishes.
            _ => {
                return (Outcome::Win(start.position().side_to_move().flip()), start);
            }
        }
    }
}

/// How far a match is, reported after each game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArenaProgress {
    /// Games finished.
    pub done: usize,
    /// Games in the match.
    pub total: usize,
}

/// Plays the match on rayon's pool (both cores), calling `on_game` after each game (from the
/// worker threads, in the order games finish).
pub fn run(
    config: &ArenaConfig,
    model: &Arc<NTuple>,
    on_game: &(dyn Fn(ArenaProgress) + Sync),
) -> ArenaReport {
    let assignments: Vec<Assignment> = if config.swap {
        vec![
            (config.black, config.white, false),
            (config.white, config.black, true),
        ]
    } else {
        vec![(config.black, config.white, false)]
    };
    let (results, plies) = play_all(config, &assignments, model, on_game);
    tally(config, &assignments, results, plies)
}

/// Who plays Black, who plays White, and whether the agent under test (`config.black`) is White.
type Assignment = (AgentSpec, AgentSpec, bool);

/// Plays every game of every assignment in parallel: each game's assignment index and outcome
/// (in game order), and the plies played in all.
fn play_all(
    config: &ArenaConfig,
    assignments: &[Assignment],
    model: &Arc<NTuple>,
    on_game: &(dyn Fn(ArenaProgress) + Sync),
) -> (Vec<(usize, Outcome)>, u64) {
    let plies_total = AtomicU64::new(0);
    let done = AtomicUsize::new(0);
    let total = config.games * assignments.len();
    let jobs: Vec<(usize, usize)> = (0..config.games)
        .flat_map(|i| (0..assignments.len()).map(move |a| (a, i)))
        .collect();
    let results = jobs
        .par_iter()
        .map(|&(a, i)| {
            let (b, w, _) = assignments[a];
            let start = opening(
                config.seed,
                i as u64,
                config.opening_plies,
                config.ply_limit,
            );
            let game_seed = config.seed ^ (i as u64).wrapping_mul(0x9e37_79b9) ^ (a as u64) << 40;
            let mut black = b.build(game_seed, model);
            let mut white = w.build(game_seed ^ 1, model);
            let (outcome, game) = play_game(start, black.as_mut(), white.as_mut());
            plies_total.fetch_add(game.moves().len() as u64, Ordering::Relaxed);
            let done = done.fetch_add(1, Ordering::Relaxed) + 1;
            on_game(ArenaProgress { done, total });
            (a, outcome)
        })
        .collect();
    (results, plies_total.into_inner())
}

/// The report: wins, losses and draws per assignment and for the agent under test, with its
/// win rate, Wilson interval and the mean game length.
fn tally(
    config: &ArenaConfig,
    assignments: &[Assignment],
    results: Vec<(usize, Outcome)>,
    plies: u64,
) -> ArenaReport {
    let mut rows: Vec<Row> = assignments
        .iter()
        .map(|(b, w, _)| Row {
            black: b.to_string(),
            white: w.to_string(),
            black_wins: 0,
            white_wins: 0,
            draws: 0,
        })
        .collect();
    let (mut wins, mut losses, mut draws) = (0, 0, 0);
    for (a, outcome) in results {
        let swapped = assignments[a].2;
        let row = &mut rows[a];
        match outcome {
            Outcome::Win(Color::Black) => row.black_wins += 1,
            Outcome::Win(Color::White) => row.white_wins += 1,
            _ => row.draws += 1,
        }
        match (outcome, swapped) {
            (Outcome::Win(Color::Black), false) | (Outcome::Win(Color::White), true) => wins += 1,
            (Outcome::Win(_), _) => losses += 1,
            _ => draws += 1,
        }
    }
    let n = wins + losses + draws;
    ArenaReport {
        rows,
        agent: config.black.to_string(),
        wins,
        losses,
        draws,
        win_rate: if n > 0 { wins as f64 / n as f64 } else { 0.0 },
        interval: wilson(wins, n),
        mean_plies: if n > 0 { plies as f64 / n as f64 } else { 0.0 },
        variety: format!(
            "each game pair starts from a seeded random opening of {} plies (seed {}), the same in both colour assignments",
            config.opening_plies, config.seed
        ),
    }
}

impl ArenaReport {
    /// The study-style table and the summary line, for people.
    pub fn table(&self) -> String {
        let mut s = format!(
            "{:<18} {:<18} {:>6} {:>6} {:>6}\n",
            "先手", "後手", "先手勝", "後手勝", "引分"
        );
        for r in &self.rows {
            s.push_str(&format!(
                "{:<20} {:<20} {:>7} {:>7} {:>7}\n",
                r.black, r.white, r.black_wins, r.white_wins, r.draws
            ));
        }
        s.push_str(&format!(
            "{}: {} wins, {} losses, {} draws — win rate {:.1}% (95% CI {:.1}–{:.1}%), mean {:.0} plies\n",
            self.agent,
            self.wins,
            self.losses,
            self.draws,
            100.0 * self.win_rate,
            100.0 * self.interval.0,
            100.0 * self.interval.1,
            self.mean_plies
        ));
        s.push_str(&format!("variety: {}\n", self.variety));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_brackets_the_rate() {
        let (lo, hi) = wilson(95, 100);
        assert!(lo < 0.95 && hi > 0.95 && lo > 0.88 && hi < 0.99);
        assert_eq!(wilson(0, 0), (0.0, 1.0));
        let (lo, hi) = wilson(200, 200);
        assert!(lo > 0.98 && hi == 1.0);
    }

    #[test]
    fn openings_are_seeded_and_shared() {
        let a = opening(7, 3, 4, 300);
        let b = opening(7, 3, 4, 300);
        assert_eq!(a.moves(), b.moves());
        assert_eq!(a.moves().len(), 4);
        assert_ne!(opening(7, 4, 4, 300).moves(), a.moves());
    }

    #[test]
    fn small_match_counts_add_up_and_study_beats_random() {
        let config = ArenaConfig {
            black: "study:1".parse().unwrap(),
            white: "random".parse().unwrap(),
            games: 4,
            swap: true,
            opening_plies: 2,
            seed: 1,
            ply_limit: 300,
        };
        let games = std::sync::Mutex::new(Vec::new());
        let on_game = |p: ArenaProgress| games.lock().unwrap().push(p);
        let report = run(&config, &Arc::new(NTuple::zero()), &on_game);
        let mut games = games.into_inner().unwrap();
        games.sort_by_key(|p| p.done);
        assert_eq!(
            games,
            (1..=8)
                .map(|done| ArenaProgress { done, total: 8 })
                .collect::<Vec<_>>()
        );
        assert_eq!(report.rows.len(), 2);
        assert_eq!(report.wins + report.losses + report.draws, 8);
        let row_total: u32 = report
            .rows
            .iter()
            .map(|r| r.black_wins + r.white_wins + r.draws)
            .sum();
        assert_eq!(row_total, 8);
        assert!(report.wins >= 6, "{}", report.table());
        assert!(report.table().contains("先手勝"));
    }
}
