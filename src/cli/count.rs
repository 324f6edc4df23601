//! `engine count`: count every tour exactly, on all cores or as one shard
//! of a larger job.

use std::time::Instant;

use engine::budget;
use engine::count::list::{ListError, ListWant};
use engine::count::{self, Method, frontier};
use engine::error::{Error, ErrorKind};
use engine::halt::Stop;
use engine::progress::Progress;
use engine::puzzle::Use;
use engine::render::{json, text};

use super::source::{PuzzleArgs, StopWords};
use super::{
    BUG, DONE, Format, GAVE_UP, INTERRUPTED_CODE, bad_flag, flag_error, interrupt, out, progress,
};

/// Count every tour exactly (directed; from the start square, or summed
/// over every start).
#[derive(clap::Args)]
pub struct CountArgs {
    #[command(flatten)]
    source: PuzzleArgs,
    /// Output format (JSON keys in the README).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Worker threads (default: one per core; at most four per core).
    #[arg(long, value_name = "N", value_parser = threads)]
    threads: Option<usize>,
    /// Count only the K-th of N slices of the work (e.g. `3/8`) and print a
    /// machine-readable line; the N counts add up to the whole count (with
    /// --method frontier: pairs of start and end squares, parts at a cut
    /// square; else the search's prefix tasks).
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Add up the shards' output (the files they printed, or standard
    /// input when none is given): checks that every shard of one puzzle
    /// and one N is there, complete and consistent, and prints the total.
    #[arg(
        long,
        value_name = "FILE",
        num_args = 0..,
        conflicts_with_all = ["puzzle", "board", "piece", "closed", "open", "start", "end", "shard", "method", "memory", "spill", "checkpoint", "checkpoint_every", "threads", "time_limit", "list"]
    )]
    merge: Option<Vec<std::path::PathBuf>>,
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
    /// Where a frontier count writes its states when they pass --memory, in
    /// a folder of its own removed at the end (default with --method
    /// frontier: the system's folder for temporary files).
    #[arg(long, value_name = "DIR")]
    spill: Option<std::path::PathBuf>,
    /// Save a frontier count in this folder as it goes (after a square, at
    /// most every --checkpoint-every seconds, and when a limit or Ctrl-C
    /// stops it), and go on from what it saved when run again; a finished
    /// count's result stays there.
    #[arg(long, value_name = "DIR")]
    checkpoint: Option<std::path::PathBuf>,
    /// The least seconds between two saves to --checkpoint (default 600).
    #[arg(long, value_name = "SECS", value_parser = super::seconds, requires = "checkpoint")]
    checkpoint_every: Option<f64>,
    /// Also print the first N tours counted (`all`: every one, when there
    /// are at most 10,000), one a line, each checked by the verifier.
    #[arg(long, value_name = "N|all", conflicts_with = "shard")]
    list: Option<String>,
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
    /// Dynamic programming over the subsets of squares (and by steps, for a
    /// puzzle with clues).
    Subset,
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

/// The spill folder: `--spill DIR` (which must be a folder), else the
/// system's folder for temporary files when the frontier is asked for.
/// Kept for the life of the process, as the request is.
fn spill_folder(args: &CountArgs) -> Result<Option<&'static std::path::Path>, Error> {
    let folder = match &args.spill {
        Some(dir) => {
            if !dir.is_dir() {
                let text = dir.display().to_string();
                return Err(bad_flag(
                    "--spill",
                    &text,
                    "no such folder: --spill names a folder that exists",
                ));
            }
            dir.clone()
        }
        None if matches!(args.method, Some(MethodFlag::Frontier)) => std::env::temp_dir(),
        None => return Ok(None),
    };
    Ok(Some(Box::leak(folder.into_boxed_path())))
}

/// The checkpoint folder of `--checkpoint DIR` (made if missing), for a
/// frontier count only. Kept for the life of the process, as the request
/// is.
fn checkpoint(args: &CountArgs) -> Result<Option<&'static frontier::resume::Checkpoint>, Error> {
    let Some(dir) = &args.checkpoint else {
        return Ok(None);
    };
    let text = dir.display().to_string();
    if !matches!(args.method, Some(MethodFlag::Frontier)) {
        return Err(bad_flag(
            "--checkpoint",
            &text,
            "a checkpoint saves a frontier count: add --method frontier",
        ));
    }
    if let Err(e) = std::fs::create_dir_all(dir) {
        return Err(flag_error(
            ErrorKind::Io,
            "--checkpoint",
            &text,
            format!("cannot make the folder: {e}"),
        ));
    }
    let every = std::time::Duration::from_secs_f64(args.checkpoint_every.unwrap_or(600.0));
    Ok(Some(Box::leak(Box::new(frontier::resume::Checkpoint {
        dir: dir.clone(),
        every,
    }))))
}

/// Parses `--threads`: a whole number from 1 to
/// [`budget::max_threads`].
fn threads(text: &str) -> Result<usize, String> {
    let most = budget::max_threads();
    let cores = most / budget::THREADS_PER_CORE;
    let range = format!(
        "at most {most} worker threads ({} per core, and this machine has {})",
        budget::THREADS_PER_CORE,
        engine::words::counted(cores as u64, "core")
    );
    match text.trim().parse::<u64>() {
        Ok(n) if n >= 1 && n <= most as u64 => Ok(n as usize),
        Ok(0) => Err("a count runs at least 1 worker thread".to_string()),
        Ok(_) => Err(format!("a count runs {range}")),
        Err(_) if text.trim().bytes().all(|b| b.is_ascii_digit()) && !text.trim().is_empty() => {
            Err(format!("a count runs {range}"))
        }
        Err(_) => Err(format!(
            "a thread count is a whole number from 1 to {most} ({} per core, and this machine has {})",
            budget::THREADS_PER_CORE,
            engine::words::counted(cores as u64, "core")
        )),
    }
}

/// Parses `--list N|all`: a whole number of tours from 1, or `all`.
fn parse_list(text: &str) -> Result<ListWant, Error> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("all") {
        return Ok(ListWant::All);
    }
    match t.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(ListWant::First(n)),
        Ok(_) => Err(bad_flag("--list", text, "a list holds at least 1 tour")),
        Err(_) => Err(bad_flag(
            "--list",
            text,
            "how many tours to list: a whole number, like 10, or `all`",
        )),
    }
}

/// Parses `--memory SIZE`.
fn parse_memory(text: &str) -> Result<u64, Error> {
    budget::parse_bytes(text).map_err(|msg| bad_flag("--memory", text, msg))
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
    if let Some(files) = &args.merge {
        return merge(files, args.format);
    }
    let started = Instant::now();
    interrupt::install();
    // A shard's line is printed whatever the time limit (its setup is not
    // cut short): only Ctrl-C stops its reading.
    let reading = match args.shard {
        Some(_) => interrupt::limits(),
        None => interrupt::limits().with_time_from(started, args.time_limit),
    };
    let puzzle = match args.source.load_within(&reading) {
        Ok(p) => p?,
        Err(stop) => return Ok(args.source.stopped(stop, args.format, StopWords::Stopped)),
    };
    // Which options combine is the puzzle's rule; the count's own refusals
    // below stand behind it for what the rules do not know.
    if let Some(e) = puzzle.refusal(Use::Count {
        frontier: matches!(args.method, Some(MethodFlag::Frontier)),
        shard: args.shard.as_deref(),
        list: args.list.as_deref(),
    }) {
        return Err(e);
    }
    let want = args.list.as_deref().map(parse_list).transpose()?;
    let request = count::CountRequest {
        method: args.method.map(|m| match m {
            MethodFlag::Dfs => Method::Dfs,
            MethodFlag::Frontier => Method::Frontier,
            MethodFlag::Subset => Method::Subset,
        }),
        shard: args.shard.as_deref().map(parse_shard).transpose()?,
        threads: args.threads,
        memory: match args.memory.as_deref() {
            Some(text) => parse_memory(text)?,
            None => budget::FRONTIER,
        },
        spill: spill_folder(&args)?,
        checkpoint: checkpoint(&args)?,
    };
    // The limit covers building the graph and the proofs too.
    let limits = interrupt::limits().with_time_from(started, args.time_limit);
    let job = count::Job {
        board: &puzzle.board,
        piece: &puzzle.piece,
        goal: puzzle.goal,
        constraints: &puzzle.constraints,
    };
    let progress = Progress::new();
    let counted = progress::shown("counting", &progress, args.quiet, || {
        count::count_job(&job, &request, &limits, &progress)
    });
    let c = match counted {
        Ok(c) => c,
        Err(e) => return refused(&args, &e),
    };
    let listed = match want {
        Some(want) if c.stopped.is_none() => match list(&args, &puzzle, &c, want, &limits)? {
            Some(listed) => Some(listed),
            None => return Ok(BUG),
        },
        _ => None,
    };
    let out = match args.format {
        Format::Text => {
            let mut out = format!(
                "{}\n{}",
                super::title(&puzzle),
                text::count_text(&puzzle.board, &puzzle.goal, &c)
            );
            match (&listed, want) {
                (Some(l), Some(want)) => {
                    out.push_str(&text::listed_text(
                        &puzzle.board,
                        &l.tours,
                        want,
                        &c,
                        l.stopped,
                    ));
                }
                (None, Some(_)) => out.push_str("No tours listed: the count did not finish.\n"),
                _ => {}
            }
            out
        }
        Format::Json => {
            let mut report = json::CountJson::new(&puzzle.name, &puzzle.board, &puzzle.goal, &c);
            if let Some(l) = &listed {
                report = report.with_listed(&puzzle.board, &l.tours);
            }
            json::line(&report)
                .map_err(|e| Error::about(ErrorKind::Internal, "the JSON output", e.to_string()))?
        }
    };
    out::print(&out)?;
    let stopped = c.stopped.or(listed.and_then(|l| l.stopped));
    Ok(stopped.map_or(DONE, stopped_code))
}

/// Lists the tours of the count `c` of `puzzle` that `want` asks for, each
/// verified: refused at `--list` past the most a list of every tour holds;
/// a tour that fails the verifier, or a list of every tour that is not as
/// long as the count, is a bug, said here (None).
fn list(
    args: &CountArgs,
    puzzle: &engine::puzzle::Puzzle,
    c: &count::Count,
    want: ListWant,
    limits: &engine::halt::Limits<'_>,
) -> Result<Option<count::list::Listed>, Error> {
    let exact = (c.status() != count::Status::Stopped).then_some(c.tours);
    let progress = Progress::new();
    let listed = progress::shown("listing", &progress, args.quiet, || {
        let graph = match puzzle.graph(limits) {
            Ok(g) => g,
            Err(stop) => {
                return Ok(count::list::Listed {
                    tours: Vec::new(),
                    stopped: Some(stop),
                });
            }
        };
        count::list::list(&puzzle.task(&graph), want, exact, limits, &progress)
    });
    match listed {
        Ok(listed) => Ok(Some(listed)),
        Err(e) if matches!(e, ListError::TooMany(_) | ListError::Symmetric(_)) => {
            let kind = match e {
                ListError::TooMany(_) => ErrorKind::TooBig,
                _ => ErrorKind::Conflict,
            };
            let error = flag_error(
                kind,
                "--list",
                args.list.as_deref().unwrap_or_default(),
                e.to_string(),
            );
            Err(match e {
                ListError::TooMany(_) => error.with_help("--list 100 lists the first 100"),
                _ => error,
            })
        }
        Err(e) => {
            out::warn(Error::about(
                ErrorKind::Internal,
                "count --list",
                e.to_string(),
            ));
            Ok(None)
        }
    }
}

/// A count that gave no result: a request that cannot be met, refused at
/// its flag (exit 2, as before the start); or a frontier count that
/// failed where no flag is to blame — past 128 bits, or a method the user
/// did not name — a plain error, and exit 3, as for a limit: no count is
/// printed and nothing is proven.
fn refused(args: &CountArgs, e: &count::CountError) -> Result<u8, Error> {
    match e.field() {
        Some(count::Field::Shard) => Err(flag_error(
            ErrorKind::Conflict,
            "--shard",
            args.shard.as_deref().unwrap_or_default(),
            e.to_string(),
        )),
        Some(count::Field::Method) => {
            let message = e.to_string();
            let kind = match e {
                count::CountError::FrontierUnfit(unfit) => unfit_kind(unfit),
                count::CountError::SubsetUnfit(_) => ErrorKind::TooBig,
                _ => ErrorKind::Conflict,
            };
            let value = match e {
                count::CountError::SubsetUnfit(_) | count::CountError::SubsetRefused(_) => "subset",
                _ => "frontier",
            };
            Err(flag_error(kind, "--method", value, message))
        }
        None => {
            let error = match e {
                count::CountError::FrontierFailed(unfit) => {
                    Error::about(unfit_kind(unfit), "count", e.to_string())
                }
                _ => Error::about(ErrorKind::Conflict, "count", e.to_string()),
            };
            out::warn(match e {
                count::CountError::FrontierFailed(frontier::Unfit::Overflow) => error.with_help(
                    "the frontier keeps counts of at most 128 bits (about 3.4 × 10^38); no count is printed",
                ),
                _ => error,
            });
            Ok(GAVE_UP)
        }
    }
}

/// The kind of error a frontier count that ended in `unfit` is: a puzzle
/// the method does not take, or more than it can hold.
fn unfit_kind(unfit: &frontier::Unfit) -> ErrorKind {
    match unfit {
        frontier::Unfit::Small | frontier::Unfit::OneWay => ErrorKind::Conflict,
        frontier::Unfit::TooWide { .. }
        | frontier::Unfit::TooBig { .. }
        | frontier::Unfit::NoDisk { .. }
        | frontier::Unfit::Overflow => ErrorKind::TooBig,
        frontier::Unfit::Disk { .. } | frontier::Unfit::Checkpoint { .. } => ErrorKind::Io,
    }
}

/// `engine count --merge FILES…`: the shards' lines, added up; exit 0 when
/// every shard is there and complete, 3 (with a lower bound) when some are
/// missing or partial, 2 when the lines do not belong together.
fn merge(files: &[std::path::PathBuf], format: Format) -> Result<u8, Error> {
    use engine::count::merge;
    let mut lines = Vec::new();
    let stdin = files.is_empty() || files.iter().all(|f| f.as_os_str() == "-");
    let sources: Vec<Option<&std::path::PathBuf>> = if stdin {
        vec![None]
    } else {
        files.iter().map(Some).collect()
    };
    for source in sources {
        let (name, text) = match source {
            Some(path) if path.as_os_str() != "-" => {
                let name = path.display().to_string();
                let text = std::fs::read_to_string(path)
                    .map_err(|e| Error::whole_file(ErrorKind::Io, &name, e.to_string()))?;
                (name, text)
            }
            _ => {
                let mut text = String::new();
                std::io::Read::read_to_string(&mut std::io::stdin(), &mut text).map_err(|e| {
                    Error::whole_file(ErrorKind::Io, "standard input", e.to_string())
                })?;
                ("standard input".to_string(), text)
            }
        };
        lines.extend(merge::parse(&name, &text)?);
    }
    let m = merge::merge(&lines)?;
    let out = match format {
        Format::Text => text::merged_text(&m),
        Format::Json => json::line(&json::MergeJson::new(&m))
            .map_err(|e| Error::about(ErrorKind::Internal, "the JSON output", e.to_string()))?,
    };
    out::print(&out)?;
    Ok(if m.complete() { DONE } else { GAVE_UP })
}
