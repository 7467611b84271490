//! Speed of the hot paths: move generation, do/undo with captures, random playouts, evaluations
//! and a fixed-depth search. Run: `cargo bench -p koma-hasami`.
// criterion_group! defines an undocumented `pub fn`.
#![allow(missing_docs)]

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use koma_core::rng::Rng;
use koma_hasami::ntuple::NTuple;
use koma_hasami::search::{HandEval, Limit, Searcher};
use koma_hasami::{Game, Outcome, Position, study};

/// A middle-game position reached by a fixed random line.
fn middle_game() -> Position {
    let mut rng = Rng::new(42);
    let mut pos = Position::startpos();
    for _ in 0..30 {
        let moves = pos.legal_moves();
        if moves.is_empty() || pos.status() != koma_hasami::Status::Ongoing {
            break;
        }
        pos.do_move(moves.as_slice()[rng.below(moves.len())]);
    }
    pos
}

fn bench(c: &mut Criterion) {
    let mid = middle_game();
    c.bench_function("movegen/startpos", |b| {
        b.iter(|| black_box(Position::startpos()).legal_moves().len())
    });
    c.bench_function("movegen/middle", |b| {
        b.iter(|| black_box(&mid).legal_moves().len())
    });
    c.bench_function("do_undo_all/middle", |b| {
        let mut pos = mid.clone();
        let moves = pos.legal_moves();
        b.iter(|| {
            for &m in moves.as_slice() {
                let u = pos.do_move(m);
                pos.undo_move(black_box(u));
            }
        })
    });
    c.bench_function("playout/random", |b| {
        let mut rng = Rng::new(7);
        b.iter(|| {
            let mut g = Game::new(Position::startpos(), 300);
            while g.outcome() == Outcome::Ongoing {
                let moves = g.position().legal_moves();
                g.play(moves.as_slice()[rng.below(moves.len())]);
            }
            g.moves().len()
        })
    });
    let model = NTuple::shipped();
    c.bench_function("eval/ntuple", |b| b.iter(|| model.value(black_box(&mid))));
    c.bench_function("eval/study", |b| {
        b.iter(|| study::evaluate(black_box(&mid)))
    });
    c.bench_function("search/hand_depth4_startpos", |b| {
        b.iter(|| {
            let pos = Position::startpos();
            let mut s = Searcher::new(HandEval, 16);
            s.search(
                &pos,
                &[pos.key()],
                Limit {
                    depth: Some(4),
                    movetime: None,
                },
            )
            .nodes
        })
    });
    c.bench_function("study/depth3_startpos", |b| {
        b.iter(|| study::best_move(&mut Position::startpos(), 3))
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(3));
    targets = bench
}
criterion_main!(benches);
