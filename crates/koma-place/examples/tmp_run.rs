use koma_place::*;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let both = args.get(2).is_some_and(|a| a == "both");
    let mode = if args.get(3).is_some_and(|a| a == "all") {
        Mode::Enumerate { limit: None }
    } else if args.get(3).is_some_and(|a| a == "first") {
        Mode::Enumerate { limit: Some(1) }
    } else {
        Mode::Count
    };
    let threads = args.get(4).map_or(0, |t| t.parse().unwrap());
    let p = Problem::new(args[1].parse().unwrap(), Geometry::standard(), both).unwrap();
    let n = std::sync::atomic::AtomicU64::new(0);
    let out = solve(
        &p,
        &Options {
            mode,
            threads,
            time_limit: Some(std::time::Duration::from_secs(
                args.get(5).map_or(300, |t| t.parse().unwrap()),
            )),
            progress: Some(&|p: Progress| {
                eprintln!(
                    "{} {}/{} {}",
                    std::time::SystemTime::now()
                        .duration_since(std::time::UNIX_EPOCH)
                        .unwrap()
                        .as_secs(),
                    p.done,
                    p.total,
                    p.found
                )
            }),
            ..Options::default()
        },
        &|pl| {
            if n.fetch_add(1, std::sync::atomic::Ordering::Relaxed) == 0 {
                println!("{}\n{}", pl.to_sfen(), pl.diagram());
            }
        },
    );
    println!("{out:?}");
}
