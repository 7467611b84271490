//! The cost of a batch step and of a legal-action mask per position, beside koma-core's plain
//! legal move generation on the same positions, on one thread and on all cores.
//!
//!     cargo bench -p koma-batch --bench batch
// criterion_group! defines an undocumented `pub fn`.
#![allow(missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};
use koma_batch::label::NUM_LABELS;
use koma_batch::{ActionKind, Batch, Config};
use koma_core::Position;

const B: usize = 1024;

fn positions() -> Vec<Position> {
    let batch = Batch::random_play(B, 60, 1, Config::default()).unwrap();
    (0..B)
        .map(|i| Position::from_sfen(&batch.position(i).unwrap().to_sfen()).unwrap())
        .collect()
}

fn bench(c: &mut Criterion) {
    let positions = positions();
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    let mut g = c.benchmark_group("batch_1024");
    g.bench_function("core_legal_moves", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| p.legal_moves().len())
                .sum::<usize>()
        })
    });
    let batch =
        Batch::from_positions(positions.clone(), positions.clone(), Config::default()).unwrap();
    let mut mask = vec![false; B * NUM_LABELS];
    g.bench_function("mask_write_1thread", |b| {
        b.iter(|| one.install(|| batch.legal_action_mask(&mut mask).unwrap()))
    });
    let mut actions = vec![0u32; B];
    let (mut r, mut t, mut u) = (vec![0.0; 2 * B], vec![false; B], vec![false; B]);
    for (name, pool) in [("step_mask_1thread", Some(&one)), ("step_mask_all", None)] {
        let mut batch = Batch::new(B, Config::default()).unwrap();
        let mut seed = 0;
        let mut run = || {
            seed += 1;
            batch.random_actions(seed, &mut actions).unwrap();
            batch
                .step(&actions, ActionKind::Label, &mut r, &mut t, &mut u)
                .unwrap();
            batch.legal_action_mask(&mut mask).unwrap();
        };
        g.bench_function(name, |b| {
            b.iter(|| match pool {
                Some(p) => p.install(&mut run),
                None => run(),
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
