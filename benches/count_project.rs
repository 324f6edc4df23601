//! Projects the cost of a count too long for one machine from a sample of
//! its shards: counts `--sample` shards of `--shards`, spread evenly, and
//! multiplies their mean time by the number of shards. Shards take every
//! N-th prefix task, so each is a sample of the whole search.
//!
//! Run: `cargo bench --bench count_project -- [--puzzle FILE] [--shards N]
//! [--sample K] [--threads T] [--only K1,K2,..] [--memo-min M]` (default:
//! puzzles/count-knight7x7.ron, 2000 shards, 6 of them, 1 thread).

use std::time::Instant;

use engine::count::{self, CountOptions, Shard};
use engine::halt::{Limits, Never};
use engine::model::Symmetries;
use engine::progress::Progress;
use engine::puzzle::Puzzle;

fn arg<T: std::str::FromStr>(args: &[String], name: &str, default: T) -> T {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// CPU seconds this process has used, where the system tells (Linux:
/// `/proc/self/stat`, in ticks of 1/100 s); the wall clock overstates the
/// work on a shared, busy machine.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name, which is in parentheses.
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = f.get(11)?.parse().ok()?;
    let stime: f64 = f.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let file: String = arg(&args, "--puzzle", "puzzles/count-knight7x7.ron".to_string());
    let shards: u32 = arg(&args, "--shards", 2000);
    let sample: u32 = arg(&args, "--sample", 6).clamp(1, shards);
    let threads: usize = arg(&args, "--threads", 1);
    // Only for measuring the cache: endings of at least this many squares.
    let memo_min: Option<u32> = args
        .iter()
        .position(|a| a == "--memo-min")
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok());
    // Shards to count, instead of an even spread (e.g. `--only 7,334`).
    let only: Option<Vec<u32>> = args
        .iter()
        .position(|a| a == "--only")
        .and_then(|i| args.get(i + 1))
        .map(|v| v.split(',').filter_map(|k| k.parse().ok()).collect());
    let puzzle = match Puzzle::load(std::path::Path::new(&file)) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let Ok(g) = puzzle.graph(&Never);
    let sym = Symmetries::of_board(&puzzle.board, &g);
    println!(
        "{file}: {shards} shards, sampling {}, {threads} thread(s)",
        only.as_ref().map_or(sample as usize, Vec::len)
    );
    let mut secs = Vec::new();
    let mut cpus = Vec::new();
    let mut tours = 0u128;
    let picked: Vec<u32> =
        only.unwrap_or_else(|| (0..sample).map(|i| 1 + i * shards / sample).collect());
    for &k in &picked {
        let opts = CountOptions {
            threads: Some(threads),
            shard: Shard::new(k, shards),
            memo_min,
            ..CountOptions::default()
        };
        let started = Instant::now();
        let cpu0 = cpu_seconds();
        let c = count::dfs::count(
            &g,
            &puzzle.goal,
            &sym,
            &opts,
            &Limits::none(),
            &Progress::new(),
        );
        let wall = started.elapsed().as_secs_f64();
        let cpu = cpu_seconds().zip(cpu0).map(|(b, a)| b - a);
        println!(
            "shard {k}/{shards}: tours={} nodes={} tasks={} wall {wall:.2} s, cpu {}",
            c.tours,
            c.stats.nodes,
            c.tasks,
            cpu.map_or("?".to_string(), |c| format!("{c:.2} s"))
        );
        cpus.push(cpu.unwrap_or(wall));
        secs.push(wall);
        tours += c.tours;
    }
    let stats = |v: &[f64]| {
        let mean = v.iter().sum::<f64>() / v.len() as f64;
        let var = v.iter().map(|s| (s - mean).powi(2)).sum::<f64>() / v.len() as f64;
        // Standard error of the mean.
        (mean, (var / v.len() as f64).sqrt())
    };
    let (wall, wall_se) = stats(&secs);
    let (cpu, cpu_se) = stats(&cpus);
    let hours = |s: f64| s * f64::from(shards) / 3600.0;
    println!(
        "wall: mean {wall:.2} s per shard (± {wall_se:.2}); projected {:.1} ± {:.1} hours on {threads} thread(s)",
        hours(wall),
        hours(wall_se)
    );
    println!(
        "cpu:  mean {cpu:.2} s per shard (± {cpu_se:.2}); projected {:.1} ± {:.1} core-hours",
        hours(cpu),
        hours(cpu_se)
    );
    println!(
        "tours in the sample: {tours}; scaled to all shards: about {:.3e}",
        tours as f64 * f64::from(shards) / secs.len() as f64
    );
}
