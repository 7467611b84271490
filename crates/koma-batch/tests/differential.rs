//! koma-batch against koma-core, the generator it wraps: masks, tensors, labels and steps over
//! random-play games, and the game-ending rules on constructed games.

use koma_batch::label::{NUM_LABELS, label_move, move_label};
use koma_batch::tensor::{TENSOR_LEN, TensorIndex, tensor_index, tensor_move};
use koma_batch::{ActionKind, AutoReset, Batch, Config};
use koma_core::{Move, Position};

struct Out {
    rewards: Vec<f32>,
    term: Vec<bool>,
    trunc: Vec<bool>,
}

fn step(batch: &mut Batch, actions: &[u32], kind: ActionKind) -> Out {
    let n = batch.len();
    let mut o = Out {
        rewards: vec![9.0; 2 * n],
        term: vec![true; n],
        trunc: vec![true; n],
    };
    batch
        .step(actions, kind, &mut o.rewards, &mut o.term, &mut o.trunc)
        .unwrap();
    o
}

/// Plays random games in a batch and checks every step against koma-core: the mask has exactly
/// the labels of koma-core's legal moves, each label and tensor entry decodes to its move, the
/// dense and sparse tensors agree, the next positions are koma-core's, rewards are zero-sum.
fn soak(n: usize, steps: usize, max_plies: u32, kind: ActionKind) -> (u64, u64) {
    let config = Config {
        max_plies,
        ..Config::default()
    };
    let mut batch = Batch::new(n, config).unwrap();
    let mut mask = vec![false; n * NUM_LABELS];
    let mut actions = vec![0u32; n];
    let (mut moves_checked, mut games) = (0u64, 0u64);
    for s in 0..steps {
        batch.legal_action_mask(&mut mask).unwrap();
        let (offsets, sparse) = batch.legal_moves_sparse();
        let done = batch.done();
        let before: Vec<Position> = (0..n).map(|i| batch.position(i).unwrap().clone()).collect();
        for (i, pos) in before.iter().enumerate() {
            let row = &mask[i * NUM_LABELS..(i + 1) * NUM_LABELS];
            if done[i] {
                assert!(row.iter().all(|&b| b), "mask of an ended game is all true");
                continue;
            }
            let legal = pos.legal_moves();
            let side = pos.side_to_move();
            let mut want = vec![false; NUM_LABELS];
            let mut want_sparse: Vec<u32> = Vec::new();
            for &m in legal.iter() {
                let l = move_label(m, side);
                want[l as usize] = true;
                assert_eq!(
                    label_move(pos, l as usize),
                    Some(m),
                    "label of {m} in {pos:?}"
                );
                let e = tensor_index(pos, m);
                assert_eq!(
                    tensor_move(pos, e),
                    Some(m),
                    "tensor entry of {m} in {pos:?}"
                );
                want_sparse.push(e.flat() as u32);
                moves_checked += 1;
            }
            want_sparse.sort_unstable();
            assert_eq!(row, &want[..], "mask of {pos:?}");
            let got = &sparse[offsets[i] as usize..offsets[i + 1] as usize];
            assert_eq!(got, &want_sparse[..], "sparse tensor of {pos:?}");
        }
        if s % 50 == 0 {
            let mut dense = vec![false; n * TENSOR_LEN];
            batch.legal_moves_mat(&mut dense).unwrap();
            for i in 0..n {
                let set: Vec<u32> = dense[i * TENSOR_LEN..(i + 1) * TENSOR_LEN]
                    .iter()
                    .enumerate()
                    .filter(|(_, b)| **b)
                    .map(|(j, _)| j as u32)
                    .collect();
                assert_eq!(set, &sparse[offsets[i] as usize..offsets[i + 1] as usize]);
            }
        }
        batch.random_actions(s as u64, &mut actions).unwrap();
        if kind == ActionKind::Tensor {
            for (i, a) in actions.iter_mut().enumerate() {
                if !done[i] {
                    let m = label_move(&before[i], *a as usize).unwrap();
                    *a = tensor_index(&before[i], m).flat() as u32;
                }
            }
        }
        let out = step(&mut batch, &actions, kind);
        for i in 0..n {
            let (r0, r1) = (out.rewards[2 * i], out.rewards[2 * i + 1]);
            assert_eq!(r0 + r1, 0.0, "rewards are zero-sum");
            assert!(!(out.term[i] && out.trunc[i]));
            if done[i] {
                // NextStep: the game was reset to the start position.
                assert_eq!(batch.position(i).unwrap(), &Position::startpos());
                assert_eq!((r0, out.term[i], out.trunc[i]), (0.0, false, false));
                continue;
            }
            let m: Move = match kind {
                ActionKind::Label => label_move(&before[i], actions[i] as usize).unwrap(),
                ActionKind::Tensor => tensor_move(
                    &before[i],
                    TensorIndex::from_flat(actions[i] as usize).unwrap(),
                )
                .unwrap(),
            };
            let mut next = before[i].clone();
            next.do_move(m);
            let now = batch.position(i).unwrap();
            assert_eq!(now, &next);
            assert_eq!(Position::from_sfen(&now.to_sfen()).unwrap(), next);
            let status = now.status();
            if out.term[i] {
                games += 1;
                assert_ne!(status, koma_core::Status::Ongoing, "{now:?}");
                let loser = match status {
                    koma_core::Status::RepetitionDraw => None,
                    koma_core::Status::PerpetualCheck { loser } => Some(loser),
                    _ => Some(now.side_to_move()),
                };
                let want = match loser {
                    None => [0.0, 0.0],
                    Some(koma_core::Color::Black) => [-1.0, 1.0],
                    Some(koma_core::Color::White) => [1.0, -1.0],
                };
                assert_eq!([r0, r1], want, "{now:?}");
            } else {
                assert_eq!(status, koma_core::Status::Ongoing, "{now:?}");
                assert_eq!(r0, 0.0);
            }
            if out.trunc[i] {
                games += 1;
                assert_eq!(now.moves_played().len() as u32, max_plies);
            }
        }
    }
    (moves_checked, games)
}

#[test]
fn random_play_matches_koma_core() {
    let (moves, games) = soak(16, 300, 120, ActionKind::Label);
    assert!(
        moves > 100_000 && games >= 16,
        "{moves} moves, {games} games"
    );
}

#[test]
fn tensor_actions_play_the_same_moves() {
    let (moves, _) = soak(8, 150, 60, ActionKind::Tensor);
    assert!(moves > 20_000, "{moves}");
}

#[test]
#[ignore = "heavy: run in release by scripts/test"]
fn random_play_matches_koma_core_heavy() {
    let (moves, games) = soak(64, 3000, 512, ActionKind::Label);
    assert!(
        moves > 10_000_000 && games > 300,
        "{moves} moves, {games} games"
    );
}

fn label_of(pos: &Position, usi: &str) -> u32 {
    move_label(usi.parse().unwrap(), pos.side_to_move()) as u32
}

/// Plays USI moves in a one-game batch; returns the last step's output.
fn play(batch: &mut Batch, moves: &[&str]) -> Out {
    let mut last = None;
    for usi in moves {
        let a = label_of(batch.position(0).unwrap(), usi);
        last = Some(step(batch, &[a], ActionKind::Label));
    }
    last.unwrap()
}

#[test]
fn checkmate_ends_the_game_and_rewards_the_mover() {
    let mut batch =
        Batch::from_sfens(&["4k4/9/4P4/9/9/9/9/9/4K4 b G 1"], true, Config::default()).unwrap();
    let out = play(&mut batch, &["G*5b"]);
    assert_eq!(
        (out.rewards.as_slice(), out.term[0]),
        (&[1.0, -1.0][..], true)
    );
    // NextStep: the next step ignores its action and resets to the given position.
    let out = step(&mut batch, &[2186], ActionKind::Label);
    assert_eq!(
        (out.rewards.as_slice(), out.term[0]),
        (&[0.0, 0.0][..], false)
    );
    assert_eq!(batch.sfens()[0], "4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
}

#[test]
fn fourfold_repetition_is_a_draw() {
    let mut batch = Batch::new(1, Config::default()).unwrap();
    let cycle = ["2h3h", "8b7b", "3h2h", "7b8b"];
    let mut moves = Vec::new();
    for _ in 0..3 {
        moves.extend_from_slice(&cycle);
    }
    let out = play(&mut batch, &moves[..11]);
    assert!(!out.term[0]);
    let out = play(&mut batch, &moves[11..]);
    assert_eq!(
        (out.rewards.as_slice(), out.term[0]),
        (&[0.0, 0.0][..], true)
    );
}

#[test]
fn perpetual_check_loses_for_the_checker() {
    let config = Config {
        autoreset: AutoReset::SameStep,
        ..Config::default()
    };
    let mut batch = Batch::from_sfens(&["8k/9/R8/9/9/9/9/9/K8 b - 1"], false, config).unwrap();
    let mut moves = vec!["9c9a"];
    for _ in 0..3 {
        moves.extend_from_slice(&["1a1b", "9a9b", "1b1a", "9b9a"]);
    }
    let out = play(&mut batch, &moves[..12]);
    assert!(!out.term[0]);
    let out = play(&mut batch, &moves[12..]);
    assert_eq!(
        (out.rewards.as_slice(), out.term[0]),
        (&[-1.0, 1.0][..], true)
    );
    // SameStep: reset at once to the start position, the final position kept.
    assert_eq!(batch.position(0).unwrap(), &Position::startpos());
    let fin = batch.final_positions()[0].as_ref().unwrap();
    assert_eq!(fin.to_sfen(), "R7k/9/9/9/9/9/9/9/K8 w - 14");
}

#[test]
fn the_ply_limit_truncates_and_disabled_autoreset_waits() {
    let config = Config {
        max_plies: 2,
        autoreset: AutoReset::Disabled,
        ..Config::default()
    };
    let mut batch = Batch::new(1, config).unwrap();
    let out = play(&mut batch, &["7g7f", "3c3d"]);
    assert_eq!((out.term[0], out.trunc[0]), (false, true));
    let out = step(&mut batch, &[0], ActionKind::Label);
    assert_eq!((out.term[0], out.trunc[0]), (false, false));
    assert_eq!(batch.position(0).unwrap().moves_played().len(), 2);
    batch.reset();
    assert_eq!(batch.position(0).unwrap(), &Position::startpos());
}

#[test]
fn the_declaration_wins_when_enabled() {
    // Black's king in White's camp with 10 pieces there and 28+ points: Black to move declares.
    let sfen = "KGGGSS1k1/+R+R+B+B+N+N+N2/PPPPPPPPP/9/9/9/9/9/9 w - 1";
    let config = Config {
        declaration: true,
        ..Config::default()
    };
    let mut batch = Batch::from_sfens(&[sfen], false, config).unwrap();
    let black_plays = batch.position(0).unwrap().legal_moves()[0];
    let a = move_label(black_plays, koma_core::Color::White) as u32;
    let out = step(&mut batch, &[a], ActionKind::Label);
    assert_eq!(
        (out.rewards.as_slice(), out.term[0]),
        (&[1.0, -1.0][..], true)
    );
}

#[test]
fn bad_actions_change_nothing() {
    let mut batch = Batch::new(2, Config::default()).unwrap();
    let n = 2;
    let (mut r, mut t, mut u) = (vec![0.0; 2 * n], vec![false; n], vec![false; n]);
    let e = batch
        .step(&[59, 5000], ActionKind::Label, &mut r, &mut t, &mut u)
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "environment 1: action 5000 is out of range 0..2187"
    );
    let e = batch
        .step(&[59], ActionKind::Label, &mut r, &mut t, &mut u)
        .unwrap_err();
    assert_eq!(e.to_string(), "actions has 1 elements, expected 2");
    let e = batch
        .step(&[59, 0], ActionKind::Tensor, &mut r, &mut t, &mut u)
        .unwrap_err();
    assert!(
        e.to_string()
            .starts_with("environment 0: action 59 is not a legal move in lnsg")
    );
    assert_eq!(batch.sfens()[0], Position::startpos().to_sfen());
    let e = Batch::from_sfens(&["startpos", "9/9/9 b - 1"], false, Config::default()).unwrap_err();
    assert!(e.to_string().starts_with("position 0: "), "{e}");
}

#[test]
fn games_round_trip_with_their_history() {
    let config = Config {
        autoreset: AutoReset::Disabled,
        ..Config::default()
    };
    let mut batch = Batch::new(3, config).unwrap();
    let mut actions = vec![0u32; 3];
    let (mut r, mut t, mut u) = (vec![0.0; 6], vec![false; 3], vec![false; 3]);
    for s in 0..40 {
        batch.random_actions(s, &mut actions).unwrap();
        batch
            .step(&actions, ActionKind::Label, &mut r, &mut t, &mut u)
            .unwrap();
    }
    let games = batch.games();
    assert_eq!(games[0].moves.len(), 40);
    let again = Batch::from_games(games.clone(), vec![Position::startpos()], config).unwrap();
    assert_eq!(again.sfens(), batch.sfens());
    assert_eq!(again.plies(), batch.plies());
    assert_eq!(again.games(), games);
    let mut bad = games;
    bad[1].moves.swap(0, 1);
    let e = Batch::from_games(bad, vec![Position::startpos()], config).unwrap_err();
    assert!(e.to_string().starts_with("game 1: move 1 ("), "{e}");
}

#[test]
fn random_actions_refuse_an_output_of_the_wrong_length() {
    let batch = Batch::new(3, Config::default()).unwrap();
    for len in [2, 4] {
        let mut out = vec![7u32; len];
        let e = batch.random_actions(1, &mut out).unwrap_err();
        assert!(matches!(e, koma_batch::BatchError::Length { .. }), "{e}");
        assert!(out.iter().all(|&a| a == 7), "written despite the error");
    }
}
