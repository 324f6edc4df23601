//! `engine make`: make a clue puzzle with one solution from a puzzle's
//! board, piece and goal, and write it as a puzzle file with a picture of
//! the blank puzzle and one of its solution.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::ValueEnum;

use engine::error::{Error, ErrorKind};
use engine::halt::Stop;
use engine::make::{self, Difficulty, Failure, Made, MakeOptions, Target, svg};
use engine::output::PendingFile;
use engine::progress::Progress;
use engine::puzzle::{Puzzle, Use};
use engine::words::{counted, many};

use super::source::{PuzzleArgs, StopWords};

mod words;
use super::{
    BAD_INPUT, BUG, DONE, Format, GAVE_UP, IMPOSSIBLE, INTERRUPTED_CODE, bad_flag, flag_error, out,
    progress,
};

/// The most squares `engine make` takes: the deductions keep a set of
/// squares per step, and uniqueness searches beyond this are hopeless.
pub const MAX_SQUARES: usize = 1024;

/// `--difficulty`.
#[derive(Clone, Copy, ValueEnum)]
pub enum Level {
    /// The deductions alone fill every square.
    Easy,
    /// They fill at least half of the squares, clues included, not all.
    Medium,
    /// They fill less than half.
    Hard,
}

/// `--magic`.
#[derive(Clone, Copy, ValueEnum)]
pub enum Sums {
    /// Every rank and every file sums alike.
    Semi,
    /// And both long diagonals (square boards).
    Diagonal,
}

/// Make a clue puzzle with one solution, and pictures of it.
#[derive(clap::Args)]
pub struct MakeArgs {
    #[command(flatten)]
    source: PuzzleArgs,
    /// Make a "complete the magic tour" puzzle: its solution is a magic
    /// tour (the magic search's first; the file's clues, if any, narrow it)
    /// and its clues leave it the only magic one.
    #[arg(long, value_enum, value_name = "SUMS")]
    magic: Option<Sums>,
    /// Write the puzzle file here; the pictures go beside it (OUT.svg and
    /// OUT-solution.svg, without OUT's `.ron`).
    #[arg(long, short, value_name = "OUT.ron")]
    output: PathBuf,
    /// Seed of every random choice (default: the file's `seed`, else 0).
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// Stop taking clues out when this many are left.
    #[arg(long, value_name = "N", conflicts_with = "minimal")]
    clues: Option<usize>,
    /// Take clues out until none can be (the default).
    #[arg(long)]
    minimal: bool,
    /// The band the measured difficulty must fall in.
    #[arg(long, value_enum)]
    difficulty: Option<Level>,
    /// Budget of each search for a second solution: nodes of the search
    /// over the steps (65,536 at most), an eighth of it in conflicts of the
    /// clause-learning search; conflicts of the final check (a search that
    /// runs out keeps its clue).
    #[arg(long, value_name = "N", default_value_t = make::DEFAULT_NODE_LIMIT)]
    node_limit: u64,
    /// Tours to try before giving up on --clues or --difficulty (exit 3).
    #[arg(long, value_name = "N", default_value_t = make::DEFAULT_ATTEMPTS)]
    attempts: u32,
    /// Stop after this many seconds: the puzzle as it stands then (unique,
    /// perhaps not minimal) is written, or with none yet, nothing (exit 3)
    /// [default: 60]
    #[arg(long, value_name = "SECS", value_parser = super::seconds)]
    time_limit: Option<f64>,
    /// Output format: `json` prints the report as one JSON object; the
    /// files are written alike.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// No progress display.
    #[arg(long, short)]
    quiet: bool,
    /// Replace an output file that exists even when it seems to be of
    /// another kind (judged by its first bytes: a puzzle written by hand,
    /// a database, a text…); without it such a file is refused.
    #[arg(long)]
    force: bool,
    /// Make this many puzzles (1 to 100), with the seeds from --seed on:
    /// OUT-1.ron, OUT-2.ron… and their pictures.
    #[arg(long, value_name = "K", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=MAX_COUNT as i64))]
    count: u32,
    /// Also print the puzzles on one sheet, SHEET.pdf (A4 pages) or
    /// SHEET.svg: pages of puzzles with a legend of the piece's moves, then
    /// their solutions.
    #[arg(long, value_name = "SHEET")]
    sheet: Option<PathBuf>,
    /// Make a word puzzle of this text instead: its letters (a syllable
    /// in brackets, `[sch]`, is one unit) laid along a tour that is the
    /// only one to read it; the board, unless given, is the smallest
    /// near-square rectangle with a square for each unit.
    #[arg(long, value_name = "TEXT", conflicts_with_all = ["text_file", "clues", "minimal", "difficulty", "sheet"])]
    text: Option<String>,
    /// The same, with the text read from this file.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["clues", "minimal", "difficulty", "sheet"])]
    text_file: Option<PathBuf>,
    /// The help printed with a word puzzle: `start` (the first square is
    /// given), `lengths` (the words' lengths), both (`start,lengths`) or
    /// `none` (the default).
    #[arg(long, value_name = "HINTS", value_delimiter = ',')]
    hint: Vec<words::Hint>,
}

/// The most puzzles one `make --count` makes.
pub const MAX_COUNT: u32 = 100;

/// What a sheet is written as, by its name's ending.
#[derive(Clone, Copy, PartialEq)]
enum SheetKind {
    Pdf,
    Svg,
}

/// The kind of the sheet at `path`, by its ending (`.pdf` or `.svg`, in
/// either case).
fn sheet_kind(path: &Path) -> Result<SheetKind, Error> {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    match ext.as_deref() {
        Some("pdf") => Ok(SheetKind::Pdf),
        Some("svg") => Ok(SheetKind::Svg),
        _ => Err(bad_flag(
            "--sheet",
            &path.display().to_string(),
            "a sheet is written as a PDF or an SVG: its name ends in .pdf or .svg",
        )),
    }
}

/// The files of the `i`-th puzzle (from 0) of `count` made to `out`: those
/// of [`output_paths`], with `-1`, `-2`… after the stem when there are
/// several.
fn puzzle_paths(out: &Path, i: u32, count: u32) -> [PathBuf; 3] {
    if count == 1 {
        return output_paths(out);
    }
    let text = out.as_os_str().to_string_lossy();
    let stem = text.strip_suffix(".ron").unwrap_or(&text);
    output_paths(Path::new(&format!("{stem}-{}.ron", i + 1)))
}

/// The three files `-o OUT` names: the puzzle, its blank picture and its
/// solution's.
pub fn output_paths(out: &Path) -> [PathBuf; 3] {
    let text = out.as_os_str().to_string_lossy();
    let stem = text.strip_suffix(".ron").unwrap_or(&text);
    [
        out.to_path_buf(),
        PathBuf::from(format!("{stem}.svg")),
        PathBuf::from(format!("{stem}-solution.svg")),
    ]
}

/// Refuses a puzzle `make` cannot start from: clues (it makes its own) or
/// a symmetry (no clue search honours one), as the rules of which options
/// combine say; or a board too large.
pub fn refusal(p: &Puzzle) -> Option<Error> {
    if let Some(e) = p.refusal(Use::Make) {
        return Some(e);
    }
    if p.board.len() > MAX_SQUARES {
        let message = format!(
            "the board has {} squares; `engine make` takes at most {MAX_SQUARES}",
            p.board.len()
        );
        return match p.field_span("board") {
            Some(span) => Some(
                Error::at(ErrorKind::TooBig, &p.file, &p.text, span, message)
                    .with_help("a smaller board"),
            ),
            None => Some(flag_error(
                ErrorKind::TooBig,
                "--board",
                &p.board_text,
                message,
            )),
        };
    }
    None
}

/// Runs `engine make`; the exit code.
pub fn exec(args: MakeArgs) -> Result<u8, Error> {
    if args.text.is_some() || args.text_file.is_some() {
        return words::exec(args);
    }
    if !args.hint.is_empty() {
        return Err(Error::about(
            ErrorKind::Usage,
            "--hint",
            "hints are printed with word puzzles: give --text or --text-file",
        ));
    }
    let started = Instant::now();
    super::interrupt::install();
    let budget = args
        .time_limit
        .unwrap_or(make::DEFAULT_SECONDS * f64::from(args.count));
    let limits = super::interrupt::limits().with_time_from(started, Some(budget));
    let mut puzzle = match args.source.load_within(&limits) {
        Ok(p) => p?,
        Err(stop) => return Ok(args.source.stopped(stop, args.format, StopWords::Status)),
    };
    if let Some(sums) = args.magic {
        let (magic, value) = match sums {
            Sums::Semi => (engine::model::Magic::Semi, "semi"),
            Sums::Diagonal => (engine::model::Magic::Diagonal, "diagonal"),
        };
        puzzle.ask_magic(magic, value)?;
    }
    if let Some(e) = refusal(&puzzle) {
        return Err(e);
    }
    let n = puzzle.board.len();
    let fewest = n.min(2);
    if let Some(k) = args.clues
        && k < fewest
    {
        return Err(bad_flag(
            "--clues",
            &k.to_string(),
            if fewest == 1 {
                "a puzzle made has at least 1 clue: step 1 is always given".to_string()
            } else {
                format!(
                    "a puzzle made has at least {fewest} clues: steps 1 and {n} are always given"
                )
            },
        ));
    }
    if args.node_limit == 0 {
        return Err(bad_flag(
            "--node-limit",
            "0",
            "each search needs at least 1 node",
        ));
    }
    if args.attempts == 0 {
        return Err(bad_flag("--attempts", "0", "at least 1 tour must be tried"));
    }
    let count = args.count;
    let sheet_kind = args.sheet.as_deref().map(sheet_kind).transpose()?;
    let all_paths: Vec<[PathBuf; 3]> = (0..count)
        .map(|i| puzzle_paths(&args.output, i, count))
        .collect();
    let flags = [
        "--output",
        "--output (its blank picture)",
        "--output (its solution's picture)",
    ];
    let mut named: Vec<(&str, Option<&Path>)> = all_paths
        .iter()
        .flat_map(|paths| {
            flags
                .iter()
                .zip(paths)
                .map(|(f, p)| (*f, Some(p.as_path())))
        })
        .collect();
    if let Some(sheet) = &args.sheet {
        named.push(("--sheet", Some(sheet.as_path())));
    }
    super::distinct_outputs(&named, &[("the puzzle file", args.source.file())])?;
    for paths in &all_paths {
        for (i, (flag, path)) in flags.iter().zip(paths).enumerate() {
            let kind = if i == 0 {
                make::file::KIND
            } else {
                engine::output::Kind::SVG
            };
            super::own_kind(flag, path, &kind, args.force)?;
        }
    }
    if let (Some(sheet), Some(kind)) = (&args.sheet, sheet_kind) {
        let kind = match kind {
            SheetKind::Pdf => engine::output::Kind::PDF,
            SheetKind::Svg => engine::output::Kind::SVG,
        };
        super::own_kind("--sheet", sheet, &kind, args.force)?;
    }
    let create = |flag: &str, path: &Path| {
        PendingFile::create(path).map_err(|e| {
            flag_error(
                ErrorKind::Io,
                flag,
                &path.display().to_string(),
                format!("cannot write here: {e}"),
            )
        })
    };
    let mut all_files = Vec::with_capacity(all_paths.len());
    for paths in &all_paths {
        let mut files = Vec::with_capacity(3);
        for (flag, path) in flags.iter().zip(paths) {
            files.push(create(flag, path)?);
        }
        all_files.push(files);
    }
    let sheet_file = match &args.sheet {
        Some(sheet) => Some(create("--sheet", sheet)?),
        None => None,
    };
    let seed = args.seed.unwrap_or(puzzle.seed);
    let opts = MakeOptions {
        seed,
        target: match args.clues {
            Some(k) => Target::Clues(k),
            None => Target::Minimal,
        },
        difficulty: args.difficulty.map(|l| match l {
            Level::Easy => Difficulty::Easy,
            Level::Medium => Difficulty::Medium,
            Level::Hard => Difficulty::Hard,
        }),
        node_limit: args.node_limit,
        attempts: args.attempts,
    };
    if !args.quiet && std::io::stderr().is_terminal() {
        out::warn(format_args!(
            "Making {} within {budget} s{}",
            if count == 1 {
                "a puzzle".to_string()
            } else {
                format!("{count} puzzles")
            },
            match args.time_limit {
                Some(_) => "",
                None => " (the default budget; --time-limit sets another)",
            }
        ));
    }
    let title = super::title(&puzzle);
    let mut mades = Vec::with_capacity(count as usize);
    for i in 0..count {
        let opts = MakeOptions {
            seed: seed.wrapping_add(u64::from(i)),
            ..opts
        };
        let prog = Progress::new();
        let made = progress::shown("making", &prog, args.quiet, || {
            let graph = puzzle.graph(&limits).map_err(Failure::Stopped)?;
            make::make(&puzzle, &graph, &opts, limits, &prog)
        });
        // Which of several puzzles failed, in the report.
        let which = if count == 1 {
            String::new()
        } else {
            format!("puzzle {} of {count} (seed {}): ", i + 1, opts.seed)
        };
        // No puzzle: the report says why (`reason`, a sentence) in text or JSON.
        let unmade = |status: &str, text: String, reason: String| {
            let reason = format!("{which}{reason}");
            out::print(&match args.format {
                Format::Text if which.is_empty() && text.starts_with("in the budget") => {
                    format!("{title}\nNo puzzle {text}\n")
                }
                Format::Text => format!("{title}\nNo puzzle: {which}{text}\n"),
                Format::Json => json_report(&puzzle, opts.seed, status, Some(&reason), None, None)?,
            })
        };
        let made = match made {
            Ok(m) => m,
            Err(Failure::NoTour(why)) => {
                unmade(
                    "impossible",
                    format!("no tour exists, so there is nothing to make clues of: {why}"),
                    why,
                )?;
                return Ok(IMPOSSIBLE);
            }
            Err(Failure::Stopped(stop)) => {
                let (status, code, reason) = match stop {
                    Stop::Limit(_) => (
                        "gave_up",
                        GAVE_UP,
                        format!("{stop} after {budget} s before one was made"),
                    ),
                    Stop::Interrupted | Stop::Cancelled => (
                        "interrupted",
                        INTERRUPTED_CODE,
                        format!("{stop} before one was made"),
                    ),
                };
                let text = match stop {
                    Stop::Limit(_) => format!("in the budget: {reason}; nothing was written"),
                    _ => format!("{reason}; nothing was written"),
                };
                unmade(status, text, reason)?;
                return Ok(code);
            }
            Err(Failure::Missed(why)) => {
                let why = why.words(&super::Flags);
                unmade("gave_up", format!("{why}; nothing was written"), why)?;
                return Ok(GAVE_UP);
            }
            Err(Failure::Bug(bug)) => {
                out::warn(bug);
                return Ok(BUG);
            }
        };
        mades.push((opts, made));
    }
    // Each puzzle's three files, and the sheet, are one output: each is
    // written whole to a temporary, and only when all are complete are they
    // renamed into place, in one moment; a failure before then leaves every
    // old file as it was.
    let cannot = |e: std::io::Error| {
        Error::about(
            ErrorKind::Io,
            &args.output.display().to_string(),
            format!(
                "cannot write the puzzle: {e}; none of the {} was written",
                if count == 1 && args.sheet.is_none() {
                    "three files"
                } else {
                    "files"
                }
            ),
        )
    };
    let mut staged = Vec::with_capacity(3 * mades.len() + 1);
    let mut written = Vec::with_capacity(mades.len());
    for ((opts, made), (files, paths)) in mades.iter().zip(all_files.into_iter().zip(&all_paths)) {
        let how = command_line(std::env::args_os().skip(1), opts.seed);
        let header = header(&puzzle, made, opts, n, &how);
        let name = format!("{}, seed {}", puzzle.name, opts.seed);
        let text = make::file::puzzle_text(&puzzle, made, &name, &header);
        // The file must read back as the puzzle made.
        match Puzzle::parse(&paths[0].display().to_string(), &text) {
            Ok(p) if p.constraints.clues == made.clues && p.board == puzzle.board => {}
            Ok(_) => {
                out::warn("internal error: the puzzle file written reads back as another puzzle");
                return Ok(BUG);
            }
            Err(e) => {
                out::warn(format_args!(
                    "internal error: the puzzle file written does not read back:\n{e}"
                ));
                return Ok(BUG);
            }
        }
        let [ron, blank, solution] = match <[PendingFile; 3]>::try_from(files) {
            Ok(f) => f,
            Err(_) => return Ok(BUG),
        };
        let subtitle = subtitle(&puzzle, made, n);
        let caption = svg::Legend {
            title: &name,
            subtitle: &subtitle,
        };
        let three = ron
            .stage(|w| std::io::Write::write_all(w, text.as_bytes()))
            .and_then(|((), ron)| {
                blank
                    .stage(|w| svg::write_puzzle(w, &puzzle.board, &made.clues, &caption))
                    .map(|((), blank)| [ron, blank])
            })
            .and_then(|[ron, blank]| {
                solution
                    .stage(|w| {
                        svg::write_solution(
                            w,
                            &puzzle.board,
                            &made.tour,
                            &made.clues,
                            puzzle.goal.closed,
                            &caption,
                        )
                    })
                    .map(|((), solution)| [ron, blank, solution])
            });
        match three {
            Ok(three) => staged.extend(three),
            Err(e) => {
                out::warn(cannot(e));
                return Ok(BAD_INPUT);
            }
        }
        written.push((header, name));
    }
    let mut pages = None;
    if let (Some(file), Some(kind)) = (sheet_file, sheet_kind) {
        let sheet = make::sheet::Sheet {
            title: format!(
                "{}: {} on {}",
                puzzle.name,
                puzzle.piece_spelled(),
                puzzle.board.describe()
            ),
            piece: puzzle.piece_spelled(),
            moves: &puzzle.piece,
            closed: puzzle.goal.closed,
            puzzles: mades
                .iter()
                .zip(&written)
                .map(|((_, made), (_, name))| make::sheet::Entry {
                    title: name.clone(),
                    board: &puzzle.board,
                    clues: &made.clues,
                    tour: &made.tour,
                    band: made.difficulty.name(),
                })
                .collect(),
        };
        let done = file.stage(|w| match kind {
            SheetKind::Pdf => make::sheet::write_pdf(w, &sheet),
            SheetKind::Svg => make::sheet::write_svg(w, &sheet),
        });
        match done {
            Ok((p, s)) => {
                pages = Some(p);
                staged.push(s);
            }
            Err(e) => {
                out::warn(cannot(e));
                return Ok(BAD_INPUT);
            }
        }
    }
    // After a Ctrl-C (while they were written) none is put in place: the
    // outputs are held, and the user's files stay.
    let committed = match engine::output::commit_all(staged) {
        Ok(c) => c,
        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {
            let reason = format!("{} after one was made", Stop::Interrupted);
            let text = format!("{reason}; nothing was written");
            out::print(&match args.format {
                Format::Text => format!("{title}\nNo puzzle: {text}\n"),
                Format::Json => {
                    json_report(&puzzle, seed, "interrupted", Some(&reason), None, None)?
                }
            })?;
            return Ok(INTERRUPTED_CODE);
        }
        Err(e) => {
            out::warn(cannot(e));
            return Ok(BAD_INPUT);
        }
    };
    let sheet_said = args.sheet.as_deref().zip(pages);
    let mut printed = Ok(());
    for (((opts, made), (header, name)), paths) in mades.iter().zip(&written).zip(&all_paths) {
        printed = report(
            &args, &puzzle, opts.seed, made, name, paths, header, &title, sheet_said,
        );
        if printed.is_err() {
            break;
        }
    }
    if printed.is_ok()
        && args.format == Format::Text
        && let Some((sheet, pages)) = sheet_said
    {
        printed = out::print(&format!(
            "Wrote {} ({}, {})\n",
            sheet.display(),
            counted(u64::from(count), "puzzle"),
            counted(pages as u64, "page")
        ));
    }
    // The report says the files were written: if it cannot be printed,
    // they are put back as they were.
    if let Err(e) = printed {
        let files = if count == 1 && args.sheet.is_none() {
            "the puzzle's three files"
        } else {
            "the files"
        };
        return Err(match committed.undo() {
            Ok(()) => e.with_help(format!("{files} were put back as they were")),
            Err(undo) => e.with_help(format!(
                "{files} were written, and could not be put back: {undo}"
            )),
        });
    }
    drop(committed);
    Ok(DONE)
}

/// Prints the report of a puzzle made and written to `paths`.
#[allow(clippy::too_many_arguments)]
fn report(
    args: &MakeArgs,
    puzzle: &Puzzle,
    seed: u64,
    made: &Made,
    name: &str,
    paths: &[PathBuf; 3],
    header: &[String],
    title: &str,
    sheet: Option<(&Path, usize)>,
) -> Result<(), Error> {
    if args.format == Format::Json {
        return out::print(&json_report(
            puzzle,
            seed,
            "made",
            None,
            Some((made, name, paths)),
            sheet.map(|(path, _)| path),
        )?);
    }
    let mut report = format!("{title}\n");
    for line in &header[1..] {
        report.push_str(line);
        report.push('\n');
    }
    report.push('\n');
    report.push_str(&make::file::picture(&puzzle.board, &made.clues, 4));
    report.push_str(&format!(
        "\nWrote {}, {} and {}\n",
        paths[0].display(),
        paths[1].display(),
        paths[2].display()
    ));
    out::print(&report)
}

/// The report of `make --format json`, printed as one JSON object on one
/// line (keys in the guide's chapter on the command line).
#[derive(serde::Serialize)]
struct MakeJson<'a> {
    /// The name of the puzzle it started from.
    name: &'a str,
    /// Its board, described.
    board: String,
    /// Its piece, as written.
    piece: &'a str,
    /// Whether closed tours were asked.
    closed: bool,
    /// The seed of the random choices.
    seed: u64,
    /// `made`, `impossible`, `gave_up` or `interrupted`.
    status: &'a str,
    /// Why there is no puzzle, else null.
    reason: Option<&'a str>,
    /// The puzzle made, else null.
    made: Option<MadeJson<'a>>,
    /// The sheet written with it (`--sheet`), else null.
    sheet: Option<String>,
}

/// The puzzle `make` made, in [`MakeJson`].
#[derive(serde::Serialize)]
struct MadeJson<'a> {
    /// The made puzzle's name.
    name: &'a str,
    /// Its clues: the step each shows, on its square.
    clues: Vec<ClueJson>,
    /// Squares of the board.
    squares: usize,
    /// Squares the deductions fill, clues included.
    filled: usize,
    /// The difficulty band.
    difficulty: &'static str,
    /// `deductions` or `clause-learning`: what proved it unique.
    proof: &'static str,
    /// The clause-learning proof's conflicts, else null.
    conflicts: Option<u64>,
    /// The attempt that made it.
    attempt: u32,
    /// What stopped the taking out of clues (the time limit), so that the
    /// puzzle may not be minimal; else null.
    stopped: Option<String>,
    /// The files written: the puzzle, its sheet and its solution.
    files: Vec<String>,
}

/// A clue of [`MadeJson`].
#[derive(serde::Serialize)]
struct ClueJson {
    /// The step shown, from 1.
    step: u32,
    /// The square, by name.
    square: String,
}

/// `make --format json`: the puzzle it started from, the `seed`, the
/// `status`, the `reason` there is no puzzle and what was `made`.
fn json_report(
    puzzle: &Puzzle,
    seed: u64,
    status: &str,
    reason: Option<&str>,
    made: Option<(&Made, &str, &[PathBuf; 3])>,
    sheet: Option<&Path>,
) -> Result<String, Error> {
    let board = &puzzle.board;
    let made = made.map(|(made, name, files)| {
        let (proof, conflicts) = match made.proof {
            make::Proof::Deductions => ("deductions", None),
            make::Proof::Sat(c) => ("clause-learning", Some(c)),
            make::Proof::Search(_) => ("search", None),
            make::Proof::Magic(_) => ("magic", None),
        };
        MadeJson {
            name,
            clues: made
                .clues
                .iter()
                .map(|&(step, square)| ClueJson {
                    step,
                    square: board.name(square),
                })
                .collect(),
            squares: board.len(),
            filled: made.filled,
            difficulty: made.difficulty.name(),
            proof,
            conflicts,
            attempt: made.attempt,
            stopped: made.stopped.map(|s| s.to_string()),
            files: files.iter().map(|f| f.display().to_string()).collect(),
        }
    });
    let report = MakeJson {
        name: &puzzle.name,
        board: board.describe(),
        piece: &puzzle.piece_text,
        closed: puzzle.goal.closed,
        seed,
        status,
        reason,
        made,
        sheet: sheet.map(|p| p.display().to_string()),
    };
    engine::render::json::line(&report)
        .map_err(|e| Error::about(ErrorKind::Internal, "the JSON output", e.to_string()))
}

/// The command that makes the file again, as a shell reads it: `engine`
/// and the arguments given (`args`, from `make` on), with `--seed` added
/// when the seed came from the file or the default. An argument with a
/// line break or a NUL (which no comment line holds) is shown as `…`.
pub fn command_line(args: impl Iterator<Item = std::ffi::OsString>, seed: u64) -> String {
    let mut words: Vec<String> = args.map(|a| a.to_string_lossy().into_owned()).collect();
    if !words
        .iter()
        .any(|a| a == "--seed" || a.starts_with("--seed="))
    {
        words.extend(["--seed".to_string(), seed.to_string()]);
    }
    let mut line = String::from("engine");
    for word in &words {
        line.push(' ');
        match shlex::try_quote(word) {
            Ok(quoted) if !word.contains(['\n', '\r']) => line.push_str(&quoted),
            _ => line.push('…'),
        }
    }
    line
}

/// The second line of the printed puzzle's caption: the piece, the board,
/// the clues, the difficulty and the steps to fill in (`n` squares).
pub fn subtitle(puzzle: &Puzzle, made: &Made, n: usize) -> String {
    format!(
        "{} on {}: {}, {}; fill in {}",
        puzzle.piece_spelled(),
        puzzle.board.describe(),
        counted(made.clues.len() as u64, "clue"),
        made.difficulty.name(),
        if n == 1 {
            "step 1".to_string()
        } else {
            format!("steps 1 to {n}")
        }
    )
}

/// The puzzle file's comment header, which `make` also prints (all but
/// its first line): how it was made (`how`, the command that makes it
/// again), its clues and proof, its difficulty.
pub fn header(
    puzzle: &Puzzle,
    made: &Made,
    opts: &MakeOptions,
    n: usize,
    how: &str,
) -> Vec<String> {
    let c = &made.checks;
    let proof = match made.proof {
        make::Proof::Deductions => "proved by the deductions".to_string(),
        make::Proof::Sat(conflicts) => format!(
            "proved by the clause-learning search in {}",
            many(conflicts, "conflict")
        ),
        make::Proof::Magic(nodes) => format!(
            "proved by the magic search when its last clue was taken out ({})",
            many(nodes, "node")
        ),
        make::Proof::Search(work) => format!(
            "proved by the search for a second solution when its last clue was taken out ({} and conflicts)",
            many(work, "node")
        ),
    };
    let kept = c.multiple + c.known + c.band + c.unknown;
    let stopped_at_target = matches!(opts.target, Target::Clues(k) if made.clues.len() == k);
    let tried = c.deduced + c.searched + kept;
    let minimal = if let Some(stop) = made.stopped {
        format!(
            " Not minimal: {stop} with {tried} of {} tried; more time may take out more.",
            counted(n.saturating_sub(2) as u64, "clue")
        )
    } else if stopped_at_target {
        String::new()
    } else if c.unknown > 0 && puzzle.constraints.magic.is_some() {
        format!(
            " Not proven minimal: {} stayed because the magic search for a second solution ran out of {}.",
            counted(c.unknown as u64, "clue"),
            many(opts.node_limit, "node")
        )
    } else if c.unknown > 0 {
        format!(
            " Not proven minimal: {} stayed because the search for a second solution ran out of {} and {}.",
            counted(c.unknown as u64, "clue"),
            many(opts.node_limit.min(make::STEPS_FIRST), "node"),
            many((opts.node_limit / 8).max(1), "conflict")
        )
    } else if let Some(d) = opts.difficulty.filter(|_| c.band > 0) {
        format!(
            " No clue can be taken out without a second solution or leaving the {} band.",
            d.name()
        )
    } else if n == 1 {
        " Minimal: the one square is both the first and the last step, and its clue stays."
            .to_string()
    } else {
        " Minimal: no clue but the first and the last can be taken out without a second solution."
            .to_string()
    };
    let pct = made.filled * 100 / n.max(1);
    vec![
        format!(
            "{}, seed {}: a clue puzzle made by `{how}` (attempt {}).",
            puzzle.name, opts.seed, made.attempt
        ),
        format!(
            "{} on {}; one solution, {proof}.{minimal}",
            counted(made.clues.len() as u64, "clue"),
            counted(n as u64, "square")
        ),
        format!(
            "Difficulty: {}. The deductions fill {} of {} ({pct}%, clues included) before a search must guess.",
            made.difficulty.name(),
            made.filled,
            counted(n as u64, "square")
        ),
        format!(
            "Clues tried: {} taken out ({} by the deductions, {} by the search), {} kept ({} with a second solution, {} by one found before, {} for the difficulty, {} out of nodes).",
            c.deduced + c.searched,
            c.deduced,
            c.searched,
            kept,
            c.multiple,
            c.known,
            c.band,
            c.unknown
        ),
    ]
}
