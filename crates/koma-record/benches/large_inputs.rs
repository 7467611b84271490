//! Each reader on large inputs (about 50 MB): speed and peak heap memory.
//!
//! `cargo bench -p koma-record --bench large_inputs` (add `-- --mb 10` for smaller inputs,
//! `-- --runs 5` for more runs). Inputs are generated from a fixed seed: one long game (a random
//! walk of legal moves that never mates) written as KIF, KI2, CSA, JKF and a USI line, and files
//! of many records (SFEN lines, USI lines, CSA games separated by `/`). Each is read through
//! `input::Records` from a file, as `koma convert` reads; the median of the runs is printed with
//! the peak heap (a counting allocator) and the machine's load. Also the USI line at 100k, 200k
//! and 400k moves, which showed whether reading is linear.

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::Write as _;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use koma_core::{Move, Position};
use koma_record::encoding::Encoding;
use koma_record::input::{Options, Records};
use koma_record::output::RecordWriter;
use koma_record::{Format, MoveTime, Record};

/// Counts live heap bytes and their peak.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// A global allocator is an unsafe trait: counting the heap needs one.
#[allow(unsafe_code)]
// SAFETY: every call is forwarded to the system allocator unchanged; only counters are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract for `alloc` is passed on as is.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract for `dealloc` is passed on as is.
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract for `realloc` is passed on as is.
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size > layout.size() {
                let now = LIVE.fetch_add(new_size - layout.size(), Ordering::Relaxed) + new_size
                    - layout.size();
                PEAK.fetch_max(now, Ordering::Relaxed);
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        p
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// A small deterministic generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// `n` random legal moves from the start that never leave the side to move without a move.
fn random_walk(n: usize, rng: &mut Rng) -> Vec<Move> {
    let mut pos = Position::startpos();
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let moves: Vec<Move> = pos.legal_moves().to_vec();
        if moves.is_empty() {
            // Every move before mated: go back two plies and walk on another way.
            for _ in 0..2 {
                pos.undo_move();
                out.pop();
            }
            continue;
        }
        let start = rng.below(moves.len());
        let m = (0..moves.len())
            .map(|k| moves[(start + k) % moves.len()])
            .find(|&m| {
                // Only a check can leave the other side without a move (a drop-rich position
                // without check always has one); test those.
                if !pos.gives_check(m) {
                    return true;
                }
                pos.do_move(m);
                let alive = !pos.legal_moves().is_empty();
                pos.undo_move();
                alive
            })
            .unwrap_or(moves[start]);
        pos.do_move(m);
        out.push(m);
    }
    out
}

/// A record of `moves`, each with a time.
fn game(moves: &[Move], rng: &mut Rng) -> Record {
    let mut rec = Record::new(Position::startpos());
    let mut edit = rec.edit_main();
    for (i, &m) in moves.iter().enumerate() {
        edit.push(m).expect("a legal move");
        *edit.time_mut(i).expect("the move just pushed") = Some(MoveTime {
            used_ms: 1000 * rng.below(120) as u64,
            total_ms: None,
        });
    }
    rec
}

/// A walk made long cheaply: `random` random moves, then two pieces going back and forth (four
/// quiet moves, repeated) up to `n` moves. Reading costs the same per move either way.
fn long_walk(random: usize, n: usize, rng: &mut Rng) -> Vec<Move> {
    let mut walk = random_walk(random, rng);
    let mut pos = Position::startpos();
    for &m in &walk {
        pos.do_move(m);
    }
    let quiet = |pos: &Position| -> Vec<Move> {
        pos.legal_moves()
            .iter()
            .copied()
            .filter(|&m| {
                !m.is_drop()
                    && !m.is_promotion()
                    && pos.piece_at(m.to()).is_none()
                    && !pos.gives_check(m)
            })
            .collect()
    };
    let back = |m: Move| m.from().and_then(|f| Move::new(m.to(), f, false));
    let cycle = 'found: {
        for a in quiet(&pos) {
            pos.do_move(a);
            for b in quiet(&pos) {
                pos.do_move(b);
                let ra = back(a).filter(|&r| pos.is_legal(r) && !pos.gives_check(r));
                if let Some(ra) = ra {
                    pos.do_move(ra);
                    let rb = back(b).filter(|&r| pos.is_legal(r) && !pos.gives_check(r));
                    pos.undo_move();
                    if let Some(rb) = rb {
                        pos.undo_move();
                        pos.undo_move();
                        break 'found [a, b, ra, rb];
                    }
                }
                pos.undo_move();
            }
            pos.undo_move();
        }
        panic!("no quiet four-move cycle after the random walk");
    };
    while walk.len() < n {
        walk.push(cycle[(walk.len() - random) % 4]);
    }
    walk
}

fn long_game(n: usize, rng: &mut Rng) -> Record {
    let moves = random_walk(n, rng);
    game(&moves, rng)
}

/// Positions along random games, one SFEN each, until `bytes` are written.
fn sfen_lines(bytes: usize, rng: &mut Rng) -> String {
    let mut out = String::with_capacity(bytes + 100);
    while out.len() < bytes {
        let game = long_game(150, rng);
        for k in (0..=150).step_by(10) {
            out.push_str(&game.position_after(k).to_sfen());
            out.push('\n');
        }
    }
    out
}

/// Whole games, one USI line each (or CSA games separated by `/`), until `bytes` are written.
fn many_games(bytes: usize, format: Format, rng: &mut Rng) -> Vec<u8> {
    let mut w = RecordWriter::new(Vec::with_capacity(bytes + 10_000), format, Encoding::Utf8);
    let mut len = 0;
    while len < bytes {
        let game = long_game(120, rng);
        let text = format.write(&game);
        len += text.len() + 2;
        w.write_text(&text).expect("a Vec takes anything");
    }
    w.finish().expect("a Vec takes anything")
}

struct Figures {
    median: Duration,
    peak: usize,
    records: usize,
    moves: usize,
}

/// Reads a file through `input::Records` `runs` times; each run's records are counted and
/// dropped as they come (as `koma convert` writes each as it comes).
fn measure(path: &std::path::Path, runs: usize) -> Figures {
    let mut times = Vec::new();
    let (mut peak, mut records, mut moves) = (0, 0, 0);
    for _ in 0..runs {
        let base = LIVE.load(Ordering::Relaxed);
        PEAK.store(base, Ordering::Relaxed);
        let t = Instant::now();
        let file = std::io::BufReader::new(std::fs::File::open(path).expect("the input"));
        let (mut r, mut m) = (0, 0);
        for item in Records::new(file, path.to_str(), Options::default()).expect("a file") {
            let read = item.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            r += 1;
            m += read.record.main().moves().len();
        }
        times.push(t.elapsed());
        peak = peak.max(PEAK.load(Ordering::Relaxed) - base);
        (records, moves) = (r, m);
    }
    times.sort();
    Figures {
        median: times[times.len() / 2],
        peak,
        records,
        moves,
    }
}

fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".to_owned())
}

fn arg(name: &str, default: usize) -> usize {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The longest single game generated.
const MAX_MOVES: usize = 4_000_000;

fn main() {
    let mb = arg("--mb", 50);
    let runs = arg("--runs", 3);
    let target = mb * 1_000_000;
    let dir = std::env::temp_dir().join(format!("koma-record-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let mut rng = Rng(20261123);
    println!("# load before: {}", load());
    // One long walk; each format gets the prefix whose text is about `mb` MB (at most MAX_MOVES
    // moves: a record of one game is held whole in memory).
    let t = Instant::now();
    let walk = long_walk(
        100_000.min(target / 40),
        MAX_MOVES.min(target / 4),
        &mut rng,
    );
    println!(
        "# generated {} random legal moves in {:.1?}",
        walk.len(),
        t.elapsed()
    );
    let mut inputs: Vec<(String, Vec<u8>)> = Vec::new();
    for format in [
        Format::Kif,
        Format::Ki2,
        Format::Csa,
        Format::Jkf,
        Format::Usi,
    ] {
        let probe = format.write(&game(&walk[..2_000], &mut rng)).len();
        let n = (target * 2_000 / probe).min(walk.len());
        inputs.push((
            format!("long-game.{}", format.name()),
            format.write(&game(&walk[..n], &mut rng)).into_bytes(),
        ));
    }
    drop(walk);
    inputs.push((
        "many.sfen".to_owned(),
        sfen_lines(target, &mut rng).into_bytes(),
    ));
    inputs.push((
        "many-games.usi".to_owned(),
        many_games(target, Format::Usi, &mut rng),
    ));
    inputs.push((
        "many-games.csa".to_owned(),
        many_games(target, Format::Csa, &mut rng),
    ));
    println!("| input | MB | records | moves | median | MB/s | peak heap |");
    println!("|---|---|---|---|---|---|---|");
    for (name, bytes) in &inputs {
        let path = dir.join(name);
        std::fs::write(&path, bytes).expect("a temporary file");
        let f = measure(&path, runs);
        let size = bytes.len() as f64 / 1e6;
        println!(
            "| {name} | {size:.1} | {} | {} | {:.3} s | {:.0} | {:.0} MB |",
            f.records,
            f.moves,
            f.median.as_secs_f64(),
            size / f.median.as_secs_f64(),
            f.peak as f64 / 1e6
        );
        std::fs::remove_file(&path).expect("the temporary file");
    }
    drop(inputs);
    println!();
    println!("| USI line | moves | median | ms per 10k moves |");
    println!("|---|---|---|---|");
    let cycle = " 2h1h 8b9b 1h2h 9b8b";
    for n in [100_000usize, 200_000, 400_000] {
        let path = dir.join("line.usi");
        let mut f = std::fs::File::create(&path).expect("a temporary file");
        write!(f, "position startpos moves{}", cycle.repeat(n / 4)).expect("written");
        drop(f);
        let fig = measure(&path, runs);
        println!(
            "| usi-line/{n} | {} | {:.3} s | {:.1} |",
            fig.moves,
            fig.median.as_secs_f64(),
            fig.median.as_secs_f64() * 1000.0 / (n as f64 / 10_000.0)
        );
        std::fs::remove_file(&path).expect("the temporary file");
    }
    std::fs::remove_dir(&dir).ok();
    println!("# load after: {}", load());
}
