//! `engine count`: count every tour exactly, on all cores or as one shard
//! of a larger job.

use std::time::Instant;

use engine::analysis;
use engine::budget;
use engine::count::method::{self, Method};
use engine::count::{self, frontier};
use engine::error::{Error, ErrorKind};
use engine::halt::{Halt, Limits, Stop};
use engine::model::Symmetries;
use engine::model::{MoveGraph, TourSymmetry};
use engine::progress::Progress;
use engine::puzzle::{Puzzle, Use};
use engine::render::text;
use engine::solve::{clued, symmetric};

use super::source::PuzzleArgs;
use super::{
    DONE, Format, GAVE_UP, INTERRUPTED_CODE, bad_flag, flag_error, interrupt, out, progress,
};

/// `engine count`'s flags.
#[derive(clap::Args)]
pub struct CountArgs {
    #[command(flatten)]
    source: PuzzleArgs,
    /// Output format (JSON keys in the README).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Worker threads (default: one per core).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    threads: Option<u16>,
    /// Count only the K-th of N slices of the work (e.g. `3/8`) and print a
    /// machine-readable line; the N counts add up to the whole count.
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Stop after this many seconds (exit 3; the count so far is a lower bound).
    #[arg(long, value_name = "SECS", value_parser = super::seconds)]
    time_limit: Option<f64>,
    /// Counting method: depth-first search or the frontier method (default:
    /// the one estimated to be faster).
    #[arg(long, value_enum, value_name = "METHOD")]
    method: Option<MethodFlag>,
    /// The most memory a frontier count's states may take: bytes, or a
    /// whole number of KiB, MiB, GiB or TiB, like `512MiB` (default 16GiB).
    #[arg(long, value_name = "SIZE")]
    memory: Option<String>,
    /// No progress bar.
    #[arg(long, short)]
    quiet: bool,
}

/// `--method`.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum MethodFlag {
    /// Depth-first search.
    Dfs,
    /// Dynamic programming over the frontier.
    Frontier,
}

/// Parses `--shard K/N` (1 ≤ K ≤ N).
fn parse_shard(text: &str) -> Result<count::Shard, Error> {
    let bad = |msg: &str| bad_flag("--shard", text, msg.to_string());
    let Some((k, n)) = text.split_once('/') else {
        return Err(bad("a shard is written K/N, like 3/8 (the 3rd of 8)"));
    };
    let k: u32 = k
        .trim()
        .parse()
        .map_err(|_| bad("K in K/N must be a whole number from 1 to N"))?;
    let n: u32 = n
        .trim()
        .parse()
        .map_err(|_| bad("N in K/N must be a whole number, at least 1"))?;
    count::Shard::new(k, n).ok_or_else(|| {
        bad(&format!(
            "there is no shard {k} of {n}: K must be from 1 to N"
        ))
    })
}

/// Parses `--memory SIZE`.
fn parse_memory(text: &str) -> Result<u64, Error> {
    budget::parse_bytes(text).map_err(|msg| bad_flag("--memory", text, msg))
}

/// What `count` asks of the puzzle, for the rules of which options
/// combine.
fn counting(args: &CountArgs) -> Use<'_> {
    Use::Count {
        frontier: matches!(args.method, Some(MethodFlag::Frontier)),
        shard: args.shard.as_deref(),
    }
}

/// The exit code of work stopped by `stop`.
fn stopped_code(stop: Stop) -> u8 {
    match stop {
        Stop::Limit(_) => GAVE_UP,
        Stop::Interrupted | Stop::Cancelled => INTERRUPTED_CODE,
    }
}

/// Runs `engine count`; the exit code.
pub fn exec(args: CountArgs) -> Result<u8, Error> {
    let started = Instant::now();
    interrupt::install();
    let puzzle = args.source.load()?;
    let shard = args.shard.as_deref().map(parse_shard).transpose()?;
    let memory = match args.memory.as_deref() {
        Some(text) => parse_memory(text)?,
        None => budget::FRONTIER,
    };
    let limits = interrupt::limits().with_time_from(started, args.time_limit);
    if let Some(sym) = puzzle.constraints.symmetry {
        return count_symmetric(&args, &puzzle, sym, &limits);
    }
    let goal = puzzle.goal;
    let title = super::title(&puzzle);
    // What is counted, in the singular for a count of one.
    let what = |n: u128| text::count_subject(&puzzle.board, &goal, n == 1);
    // The limit covers building the graph and the proofs too.
    let json = |end: text::CountEnd<'_>| {
        format!(
            "{}\n",
            text::count_json(&puzzle.name, &puzzle.board, &goal, &end, shard)
        )
    };
    let stopped_before = |stop: Stop| {
        out::print(&match args.format {
            Format::Text => {
                let mut text = format!(
                    "{title}\nat least 0 {}{} (a lower bound: {stop} before counting began)\n",
                    what(0),
                    shard.map_or(String::new(), |s| format!(" in shard {}/{}", s.k(), s.n()))
                );
                if let Some(s) = shard {
                    text.push_str(&text::shard_line(
                        s,
                        0,
                        goal.closed.then_some(0),
                        false,
                        None,
                    ));
                }
                text
            }
            Format::Json => json(text::CountEnd::StoppedBefore(stop)),
        })?;
        Ok(stopped_code(stop))
    };
    // A shard's line gives its tasks, so the deadline does not stop its
    // setup (the graph, the proofs, the task list): it stops the count
    // before the first task instead. Ctrl-C stops it at once.
    let setup_limits = if shard.is_some() {
        Limits {
            deadline: None,
            ..limits
        }
    } else {
        limits
    };
    let graph = match puzzle.graph(&setup_limits) {
        Ok(g) => g,
        Err(stop) => return stopped_before(stop),
    };
    let proof =
        match analysis::analyse_board(&graph, &goal, &puzzle.board, &puzzle.piece, &setup_limits) {
            Ok(a) => a.impossible,
            Err(stop) => return stopped_before(stop),
        };
    let mut out = format!("{title}\n");
    if let Some(proof) = proof {
        match args.format {
            Format::Text => out.push_str(&text::count_proven(&what(0), &proof, goal.closed, shard)),
            Format::Json => out = json(text::CountEnd::Proven(&proof)),
        }
        super::out::print(&out)?;
        return Ok(DONE);
    }
    if let Err(stop) = setup_limits.check() {
        return stopped_before(stop);
    }
    let forced = args.method.map(|m| match m {
        MethodFlag::Dfs => Method::Dfs,
        MethodFlag::Frontier => Method::Frontier,
    });
    if !puzzle.constraints.clues.is_empty() {
        return count_clued(&args, &puzzle, &graph, &limits, out);
    }
    if let Some(e) = puzzle.refusal(counting(&args)) {
        return Err(e);
    }
    let choice = method::choose(
        &puzzle.board,
        &graph,
        &goal,
        forced,
        shard.is_some(),
        memory,
        &limits,
    )
    .map_err(|unfit| {
        flag_error(
            unfit_kind(&unfit),
            "--method",
            "frontier",
            unfit.to_string(),
        )
    })?;
    let mut why = choice.why.clone();
    if let Some(plan) = &choice.plan {
        let opts = frontier::FrontierOptions {
            threads: args.threads.map(usize::from),
            budget: memory,
            ..frontier::FrontierOptions::default()
        };
        let progress = Progress::new();
        let counted = progress::shown("counting", &progress, args.quiet, || {
            frontier::count(&graph, &goal, plan, &opts, &limits, &progress)
        });
        let counted = match counted {
            Ok(c) => Some(c),
            // Chosen with no estimate, or an estimate under the budget, its
            // states passed it: the search counts, as when the estimate is
            // over it.
            Err(frontier::Unfit::TooBig {
                at, budget: limit, ..
            }) if forced.is_none() => {
                why = format!(
                    "{}; its states passed {} at square {at} of {}",
                    choice.why,
                    budget::bytes(limit),
                    graph.len()
                );
                None
            }
            Err(unfit) => return frontier_failed(&unfit, forced.is_some()),
        };
        if let Some(counted) = counted {
            match args.format {
                Format::Text => {
                    out.push_str(&text::count_frontier_report(
                        &what(counted.tours),
                        &counted,
                        &why,
                    ));
                }
                Format::Json => out = json(text::CountEnd::Frontier(&counted)),
            }
            super::out::print(&out)?;
            return Ok(counted.stopped.map_or(DONE, stopped_code));
        }
    }
    let sym = Symmetries::of_board(&puzzle.board, &graph);
    let opts = count::CountOptions {
        threads: args.threads.map(usize::from),
        shard,
        ..count::CountOptions::default()
    };
    let progress = Progress::new();
    let counted = progress::shown("counting", &progress, args.quiet, || {
        count::count(&graph, &goal, &sym, &opts, &limits, &progress)
    });
    match args.format {
        Format::Text => {
            out.push_str(&text::count_report(&what(counted.tours), &counted, shard));
            if args.method.is_none() && shard.is_none() {
                out.push_str(&format!("method: depth-first ({why})\n"));
            }
        }
        Format::Json => out = json(text::CountEnd::Counted(&counted)),
    }
    super::out::print(&out)?;
    Ok(counted.stopped.map_or(DONE, stopped_code))
}

/// A frontier count that ended in `unfit`: asked for with `--method
/// frontier` (`asked`), a refusal at the flag (exit 2), as before the
/// start. A count past 128 bits, or a failure of a method the user did not
/// name, blames no flag: a plain error, and exit 3, as for a limit — no
/// count is printed and nothing is proven.
fn frontier_failed(unfit: &frontier::Unfit, asked: bool) -> Result<u8, Error> {
    if asked && *unfit != frontier::Unfit::Overflow {
        return Err(flag_error(
            unfit_kind(unfit),
            "--method",
            "frontier",
            unfit.to_string(),
        ));
    }
    out::warn(frontier_error(unfit));
    Ok(GAVE_UP)
}

/// The kind of error a frontier count that ended in `unfit` is: a puzzle
/// the method does not take, or more than it can hold.
fn unfit_kind(unfit: &frontier::Unfit) -> ErrorKind {
    match unfit {
        frontier::Unfit::Small | frontier::Unfit::OneWay => ErrorKind::Conflict,
        frontier::Unfit::TooWide { .. }
        | frontier::Unfit::TooBig { .. }
        | frontier::Unfit::Overflow => ErrorKind::TooBig,
    }
}

/// The plain error of a frontier count that ended in `unfit`.
fn frontier_error(unfit: &frontier::Unfit) -> Error {
    let error = Error::about(unfit_kind(unfit), "count", unfit.to_string());
    match unfit {
        frontier::Unfit::Overflow => error.with_help(
            "the frontier keeps counts of at most 128 bits (about 3.4 × 10^38); no count is printed",
        ),
        _ => error,
    }
}

/// `engine count` on a puzzle with clues: the clue search counts its
/// solutions (one thread, no shards, no frontier); `out` holds the title.
fn count_clued(
    args: &CountArgs,
    puzzle: &Puzzle,
    graph: &MoveGraph,
    limits: &Limits<'_>,
    mut out: String,
) -> Result<u8, Error> {
    if let Some(e) = puzzle.refusal(counting(args)) {
        return Err(e);
    }
    let task = puzzle.task(graph);
    let progress = Progress::new();
    let c = progress::shown("counting", &progress, args.quiet, || {
        clued::count(&task, limits, &progress)
    });
    let clues = puzzle.constraints.clues.len();
    let counted = count::Counted::one_search(u128::from(c.solutions), None, c.stopped, c.stats);
    match args.format {
        Format::Text => out.push_str(&text::count_clued_report(
            puzzle.goal.closed,
            clues,
            &counted,
        )),
        Format::Json => {
            out = format!(
                "{}\n",
                text::count_json(
                    &puzzle.name,
                    &puzzle.board,
                    &puzzle.goal,
                    &text::CountEnd::Clued(&counted, clues),
                    None
                )
            );
        }
    }
    super::out::print(&out)?;
    Ok(counted.stopped.map_or(DONE, stopped_code))
}

/// `engine count` on a puzzle with a `symmetry`: the symmetric solver's
/// complete searches count the tours it maps onto themselves (one thread,
/// no shards, no frontier), after the proofs of `engine check`.
fn count_symmetric(
    args: &CountArgs,
    puzzle: &Puzzle,
    sym: TourSymmetry,
    limits: &Limits<'_>,
) -> Result<u8, Error> {
    if let Some(e) = puzzle.refusal(counting(args)) {
        return Err(e);
    }
    let goal = puzzle.goal;
    // The limit covers building the graph and the proofs too.
    let mut c = symmetric::SymmetricCount::none(goal.closed);
    match puzzle.graph(limits) {
        Err(stop) => c.stopped = Some(stop),
        Ok(graph) => {
            match analysis::analyse_board(&graph, &goal, &puzzle.board, &puzzle.piece, limits) {
                Err(stop) => c.stopped = Some(stop),
                Ok(a) if a.impossible.is_some() => c.proof = a.impossible,
                Ok(_) => {
                    let task = puzzle.task(&graph);
                    let progress = Progress::new();
                    c = progress::shown("counting", &progress, args.quiet, || {
                        symmetric::count(&task, limits, &progress)
                    });
                }
            }
        }
    }
    let out = match args.format {
        Format::Text => format!(
            "{}\n{}",
            super::title(puzzle),
            text::count_symmetric_report(&puzzle.board, &goal, sym, &c)
        ),
        Format::Json => format!(
            "{}\n",
            text::count_json(
                &puzzle.name,
                &puzzle.board,
                &goal,
                &text::CountEnd::Symmetric(&c, sym),
                None
            )
        ),
    };
    super::out::print(&out)?;
    Ok(c.stopped.map_or(DONE, stopped_code))
}
