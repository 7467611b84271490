//! The solver against an independent brute force on small boards: every assignment of squares
//! (and facings) to the pieces, attacks computed with real blocking, boards deduplicated.

mod common;

use std::collections::HashSet;
use std::sync::Mutex;

use common::{Board, valid};
use koma_place::{Color, Facing, Geometry, Kind, Mode, Options, PieceSet, Problem, solve};

fn brute(files: u8, ranks: u8, set: &PieceSet, both: bool) -> (u128, u128) {
    let mut pieces: Vec<(Kind, Vec<Color>)> = Vec::new();
    for kind in Kind::ALL {
        for facing in [Facing::Free, Facing::Black, Facing::White] {
            let colors = match (facing, both && !kind.is_direction_free()) {
                (_, false) | (Facing::Black, true) => vec![Color::Black],
                (Facing::White, true) => vec![Color::White],
                (Facing::Free, true) => vec![Color::Black, Color::White],
            };
            for _ in 0..set.count(kind, facing) {
                pieces.push((kind, colors.clone()));
            }
        }
    }
    let n = files as usize * ranks as usize;
    let mut found: HashSet<Board> = HashSet::new();
    let mut board: Board = Vec::new();
    fn rec(
        i: usize,
        pieces: &[(Kind, Vec<Color>)],
        n: usize,
        dims: (i32, i32),
        board: &mut Board,
        found: &mut HashSet<Board>,
    ) {
        if i == pieces.len() {
            if valid(dims.0, dims.1, board) {
                let mut b = board.clone();
                b.sort();
                found.insert(b);
            }
            return;
        }
        for s in 0..n {
            if board.iter().any(|&(t, _, _)| t == s) {
                continue;
            }
            for &c in &pieces[i].1 {
                board.push((s, pieces[i].0, c));
                rec(i + 1, pieces, n, dims, board, found);
                board.pop();
            }
        }
    }
    rec(
        0,
        &pieces,
        n,
        (files as i32, ranks as i32),
        &mut board,
        &mut found,
    );
    let mirror = |b: &Board| {
        let mut m: Board = b
            .iter()
            .map(|&(s, k, c)| {
                (
                    (files as usize - 1 - s / ranks as usize) * ranks as usize + s % ranks as usize,
                    k,
                    c,
                )
            })
            .collect();
        m.sort();
        m
    };
    let fixed = found.iter().filter(|b| mirror(b) == **b).count() as u128;
    let total = found.len() as u128;
    (total, (total + fixed) / 2)
}

fn check(files: u8, ranks: u8, pieces: &str, both: bool) {
    let set: PieceSet = pieces.parse().unwrap();
    let (total, classes) = brute(files, ranks, &set, both);
    let problem = Problem::new(set, Geometry::new(files, ranks).unwrap(), both).unwrap();
    for mode in [Mode::Count, Mode::Enumerate { limit: None }] {
        for symmetry in [false, true] {
            for prune in [false, true] {
                let seen = Mutex::new(HashSet::new());
                let opts = Options {
                    mode,
                    symmetry,
                    prune,
                    threads: 2,
                    ..Options::default()
                };
                let out = solve(&problem, &opts, &|p| {
                    assert!(
                        seen.lock().unwrap().insert(p.to_sfen()),
                        "duplicate {}",
                        p.to_sfen()
                    );
                });
                let what = format!(
                    "{files}x{ranks} {pieces} both={both} {mode:?} sym={symmetry} prune={prune}"
                );
                assert!(out.complete, "{what}");
                assert_eq!(
                    (out.count, out.count_mirror_identified),
                    (total, classes),
                    "{what}"
                );
                if mode != Mode::Count {
                    assert_eq!(seen.lock().unwrap().len() as u128, total, "{what}");
                }
            }
        }
    }
}

#[test]
fn one_directional_small_boards() {
    for (f, r, set) in [
        (3, 3, "R2K"),
        (3, 3, "RX2"),
        (3, 3, "GSP"),
        (3, 3, "N2P2"),
        (3, 3, "+R+BX"),
        (3, 3, "KP3"),
        (4, 3, "LNSP"),
        (4, 3, "G2P2"),
        (3, 4, "B2NP"),
        (4, 4, "RBKP"),
        (4, 3, "P2X2"),
        (4, 4, "GSNL"),
        (3, 4, "+P+L+NX"),
        (3, 4, "P3X2"),
        (3, 3, "G+PX"),
        (3, 4, "G2+PP"),
        (4, 3, "L2P2"),
        (3, 4, "SL2P"),
    ] {
        check(f, r, set, false);
    }
}

#[test]
fn two_directional_small_boards() {
    for (f, r, set) in [
        (3, 3, "P4"),
        (3, 3, "GSP"),
        (3, 3, "LNX"),
        (3, 4, "P3X"),
        (3, 4, "^Pp2"),
        (3, 4, "^P2N"),
        (4, 3, "SLK"),
        (3, 3, "RP2"),
        (4, 3, "P2X2"),
        (4, 4, "GGPN"),
        (3, 5, "NNPP"),
        (3, 4, "L2P2"),
        (4, 3, "LLPX"),
        (3, 3, "L2P"),
        (3, 4, "G+P2"),
        (3, 3, "+P+SX"),
        (4, 3, "G+PL"),
        (3, 4, "^G+P2"),
        (3, 4, "+p+PL"),
    ] {
        check(f, r, set, true);
    }
}

/// Sets whose short-range pieces (kings, gold-likes, silvers, knights next to each other) the
/// count takes file by file, on boards wide and tall enough for knight jumps and for a centre
/// file (odd widths) or two middle files (even widths) in the mirror-symmetric count.
#[test]
fn short_range_tails_on_wider_boards() {
    for (f, r, set, both) in [
        (5, 3, "KGN", true),
        (4, 4, "KSNL", true),
        (5, 4, "SN2P", true),
        (4, 5, "GN2P", true),
        (5, 3, "RNSP", true),
        (4, 4, "BKNP", true),
        (5, 3, "G+P+SN", true),
        (4, 4, "G+P+SN", true),
        (3, 5, "KNLP", false),
        (5, 4, "KSN2", false),
        (4, 5, "G+PNP", false),
    ] {
        check(f, r, set, both);
    }
}

#[test]
fn limit_and_mirror_identification() {
    for (pieces, files, ranks, both) in [
        ("P3X", 3, 4, true),
        ("KP3", 3, 4, false),
        ("GP3", 4, 4, true),
        ("R2P3", 4, 4, false),
        ("G+P2", 3, 4, true),
        ("G+PL", 3, 4, false),
    ] {
        let geo = Geometry::new(files, ranks).unwrap();
        let problem = Problem::new(pieces.parse().unwrap(), geo, both).unwrap();
        let full = solve(&problem, &Options::default(), &|_| {});
        let seen = Mutex::new(HashSet::new());
        let opts = Options {
            mode: Mode::Enumerate { limit: None },
            identify_mirror: true,
            ..Options::default()
        };
        let out = solve(&problem, &opts, &|p| {
            assert!(seen.lock().unwrap().insert(p.to_sfen()));
        });
        assert_eq!(
            seen.lock().unwrap().len() as u128,
            full.count_mirror_identified,
            "{pieces}"
        );
        assert_eq!(
            (out.count, out.count_mirror_identified),
            (full.count, full.count_mirror_identified)
        );
        let seen = Mutex::new(0u128);
        let opts = Options {
            mode: Mode::Enumerate { limit: Some(5) },
            ..Options::default()
        };
        let out = solve(&problem, &opts, &|_| *seen.lock().unwrap() += 1);
        assert_eq!(*seen.lock().unwrap(), 5.min(full.count));
        if full.count > 5 {
            assert!(!out.complete, "{pieces}: a limit that cut the search");
        }
    }
}
