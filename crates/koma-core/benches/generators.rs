//! Speed of the filtered generators a mate solver lives on: checking moves (王手) and evasions,
//! over every position of a small perft tree (the middle-game position to depth 2, 28,892
//! positions; the start position to depth 3 for quiet positions with few checks).
//!
//! `cargo bench -p koma-core --bench generators`. Results worth keeping go to docs/BENCHMARKS.md.
// criterion_group! defines an undocumented `pub fn`.
#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use koma_core::{MoveFilter, NonPromotions, Position};

const MIDGAME: &str = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1";

/// Every position of the legal move tree to `depth` below `pos` (the root included).
fn tree(pos: &mut Position, depth: u32, out: &mut Vec<Position>) {
    out.push(pos.clone());
    if depth == 0 {
        return;
    }
    for &m in pos.legal_moves().iter() {
        pos.do_move(m);
        tree(pos, depth - 1, out);
        pos.undo_move();
    }
}

fn bench(c: &mut Criterion) {
    for (name, sfen, depth) in [
        ("midgame", MIDGAME, 2),
        ("startpos", koma_core::STARTPOS_SFEN, 3),
    ] {
        let mut positions = Vec::new();
        let mut root = Position::from_sfen(sfen).expect("bench position");
        tree(&mut root, depth, &mut positions);
        let mut g = c.benchmark_group(format!("generators/{name}-tree-{depth}"));
        g.sample_size(10);
        g.throughput(Throughput::Elements(positions.len() as u64));
        for (id, filter) in [
            ("checks", MoveFilter::Checks),
            ("evasions", MoveFilter::Evasions),
            ("all", MoveFilter::All),
        ] {
            g.bench_function(id, |b| {
                b.iter(|| {
                    let mut n = 0u64;
                    for pos in &positions {
                        black_box(pos).generate(filter, NonPromotions::All, |_| n += 1);
                    }
                    n
                })
            });
        }
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
