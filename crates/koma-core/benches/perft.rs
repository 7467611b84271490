//! Perft speed, koma beside the public Rust shogi move generators (shunsai, haitaka), in one run.
//!
//! `cargo bench -p koma-core --bench perft` measures start-position perft at depth 5 (set
//! `KOMA_PERFT_DEPTH=6` for depth 6) and the middle-game position at depth 3: with bulk
//! counting of the last ply, and materialized (every leaf made and unmade). Bench ids never change meaning; results worth keeping go to
//! docs/BENCHMARKS.md.
// criterion_group! defines an undocumented `pub fn`.
#![allow(missing_docs)]

use std::hint::black_box;
use std::ops::ControlFlow;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use koma_core::{Position, perft};

fn depth() -> u32 {
    std::env::var("KOMA_PERFT_DEPTH")
        .ok()
        .and_then(|d| d.parse().ok())
        .unwrap_or(5)
}

const NODES: [u64; 7] = [1, 30, 900, 25_470, 719_731, 19_861_490, 547_581_517];

mod shunsai_perft {
    use super::*;
    use shunsai::Position;

    pub fn bulk(pos: &mut Position, depth: u32) -> u64 {
        if depth == 1 {
            let mut n = 0;
            let _ = pos.generate_moves(|set| {
                n += set.len() as u64;
                ControlFlow::Continue(())
            });
            return n;
        }
        let mut n = 0;
        for mv in pos.legal_moves() {
            let undo = pos.do_move(mv);
            n += bulk(pos, depth - 1);
            pos.undo_move(mv, undo);
        }
        n
    }

    pub fn materialized(pos: &mut Position, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut n = 0;
        for mv in pos.legal_moves() {
            let undo = pos.do_move(mv);
            n += materialized(pos, depth - 1);
            pos.undo_move(mv, undo);
        }
        n
    }
}

mod haitaka_perft {
    use haitaka::Board;

    /// haitaka's `PieceMoves::len` undercounts (19,804,276 at depth 5 from the start position,
    /// measured 2026-11-22 with haitaka 0.3.2), so the last ply counts its iterator instead.
    pub fn bulk(board: &Board, depth: u32) -> u64 {
        let mut n = 0;
        if depth == 1 {
            board.generate_moves(|moves| {
                n += moves.into_iter().count() as u64;
                false
            });
            return n;
        }
        board.generate_moves(|moves| {
            for mv in moves {
                let mut child = board.clone();
                child.play_unchecked(mv);
                n += bulk(&child, depth - 1);
            }
            false
        });
        n
    }

    pub fn materialized(board: &Board, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut n = 0;
        board.generate_moves(|moves| {
            for mv in moves {
                let mut child = board.clone();
                child.play_unchecked(mv);
                n += materialized(&child, depth - 1);
            }
            false
        });
        n
    }
}

/// The middle-game perft position (many drops): 207 / 28,684 / 4,809,015.
const MIDGAME: &str = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1";

fn bench(c: &mut Criterion) {
    let d = depth();
    let cases = [
        ("startpos", koma_core::STARTPOS_SFEN, d, NODES[d as usize]),
        ("midgame", MIDGAME, 3, 4_809_015),
    ];
    for (name, sfen, d, expected) in cases {
        for (variant, materialized) in [("bulk", false), ("materialized", true)] {
            bench_group(c, name, sfen, d, expected, variant, materialized);
        }
    }
}

fn bench_group(
    c: &mut Criterion,
    name: &str,
    sfen: &str,
    d: u32,
    expected: u64,
    variant: &str,
    materialized: bool,
) {
    let mut g = c.benchmark_group(format!("perft/{name}/{d}/{variant}"));
    g.sample_size(10);
    g.throughput(Throughput::Elements(expected));
    let koma = Position::from_sfen(sfen).expect("bench position");
    g.bench_function("koma", |b| {
        b.iter(|| {
            let n = if materialized {
                perft::perft_materialized(black_box(&koma), d)
            } else {
                perft::perft(black_box(&koma), d)
            };
            assert_eq!(n, expected);
        })
    });
    g.bench_function("shunsai", |b| {
        let partial = <shogi_core::PartialPosition as shogi_usi_parser::FromUsi>::from_usi(
            &format!("sfen {sfen}"),
        )
        .expect("bench position");
        let mut pos = shunsai::Position::new(partial);
        b.iter(|| {
            let n = if materialized {
                shunsai_perft::materialized(black_box(&mut pos), d)
            } else {
                shunsai_perft::bulk(black_box(&mut pos), d)
            };
            assert_eq!(n, expected);
        })
    });
    g.bench_function("haitaka", |b| {
        let board = haitaka::Board::from_sfen(sfen).expect("bench position");
        b.iter(|| {
            let n = if materialized {
                haitaka_perft::materialized(black_box(&board), d)
            } else {
                haitaka_perft::bulk(black_box(&board), d)
            };
            assert_eq!(n, expected);
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
