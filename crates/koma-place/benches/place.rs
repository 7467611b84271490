//! Benchmarks of `koma place` searches. Ids keep their meaning; summaries go to docs/place.md.
// criterion_group! defines an undocumented `pub fn`.
#![allow(missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};
use koma_place::{Geometry, Mode, Options, Problem, solve};

fn run(pieces: &str, both: bool, mode: Mode) -> u128 {
    let problem = Problem::new(pieces.parse().unwrap(), Geometry::standard(), both).unwrap();
    let opts = Options {
        mode,
        ..Options::default()
    };
    solve(&problem, &opts, &|_| {}).count
}

fn place(c: &mut Criterion) {
    let mut g = c.benchmark_group("place");
    g.sample_size(10);
    g.bench_function("one_way_40_count", |b| {
        b.iter(|| assert_eq!(run("P18L4N4S4G4K2R2B2", false, Mode::Count), 3720))
    });
    g.bench_function("one_way_40_enumerate", |b| {
        b.iter(|| {
            let all = Mode::Enumerate { limit: None };
            assert_eq!(run("P18L4N4S4G4K2R2B2", false, all), 3720)
        })
    });
    g.bench_function("two_way_44_count", |b| {
        b.iter(|| assert_eq!(run("P22L4N4S4G4K2R2B2", true, Mode::Count), 51_058_048))
    });
    g.bench_function("two_way_47_stones_refute", |b| {
        b.iter(|| assert_eq!(run("P18L4N4S4G4K2R2B2X7", true, Mode::Count), 0))
    });
    g.finish();
    let mut heavy = c.benchmark_group("place_heavy");
    heavy.sample_size(10);
    heavy.bench_function("one_way_39_count", |b| {
        b.iter(|| assert_eq!(run("P17L4N4S4G4K2R2B2", false, Mode::Count), 14_032_268))
    });
    heavy.finish();
}

criterion_group!(benches, place);
criterion_main!(benches);
