//! The command line's shape: the subcommands and their flags, the flags they
//! share, and the exit codes. Each subcommand's module turns its flags into a
//! checked plan and runs it.

pub mod archive;
pub mod check;
pub mod count;
mod gif;
mod interrupt;
pub mod make;
pub mod out;
mod player;
mod progress;
pub mod run;
pub mod serve;
mod source;
mod unique;
pub mod usage;
pub mod verify;
mod watch;

use std::path::{Path, PathBuf};

use clap::{Parser, Subcommand, ValueEnum};

use engine::error::{Error, ErrorKind, Names, Span};
use engine::puzzle::Puzzle;
use engine::solve::Outcome;

/// Exit code: done (a tour found, a count finished, a puzzle valid).
pub const DONE: u8 = 0;
/// Exit code: proven that no tour exists.
pub const IMPOSSIBLE: u8 = 1;
/// Exit code: bad input or usage.
pub const BAD_INPUT: u8 = 2;
/// Exit code: a limit ran out; nothing is proven.
pub const GAVE_UP: u8 = 3;
/// Exit code: `--unique` found two solutions.
pub const MULTIPLE: u8 = 4;
/// Exit code: a solver's tour failed verification (a bug).
pub const BUG: u8 = 101;
/// Exit code: interrupted by Ctrl-C.
pub const INTERRUPTED_CODE: u8 = 130;

/// The exit code for a search that ended with `outcome`.
pub fn exit_code(outcome: &Outcome) -> u8 {
    match outcome {
        Outcome::Found(_) => DONE,
        Outcome::Impossible(_) => IMPOSSIBLE,
        Outcome::GaveUp { .. } => GAVE_UP,
        Outcome::Interrupted { .. } => INTERRUPTED_CODE,
    }
}

/// Tours of a piece over a board, from a declarative puzzle file.
#[derive(Parser)]
#[command(name = "engine", version, about)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

impl Cli {
    /// Parses the process's arguments. A negative number is taken as the
    /// value of the flag before it (`--memory -5`), so that the flag's own
    /// check answers it, not the parser's advice to write `-- -5`.
    pub fn parse_args() -> Result<Cli, clap::Error> {
        fn negatives(c: clap::Command) -> clap::Command {
            c.allow_negative_numbers(true).mut_subcommands(negatives)
        }
        let matches = negatives(<Cli as clap::CommandFactory>::command()).try_get_matches()?;
        <Cli as clap::FromArgMatches>::from_arg_matches(&matches)
    }
}

/// The subcommands.
// Each command's arguments are built only when it is the one asked for
// (building them all took a fifth of a small run's start-up). Its flags'
// doc comment, applied then, is what `engine CMD --help` says of it: it
// says what the variant's says (the list in `engine --help`).
#[derive(Subcommand)]
#[command(defer = true)]
pub enum Command {
    /// Find a tour and print it.
    Run(run::RunArgs),
    /// Parse a puzzle and print what is known without searching.
    Check(check::CheckArgs),
    /// Count every tour exactly (directed; from the start square, or summed
    /// over every start).
    Count(count::CountArgs),
    /// Make a clue puzzle with one solution, and pictures of it.
    Make(make::MakeArgs),
    /// The local archive of tours saved with `run --save`.
    #[command(subcommand)]
    Archive(archive::ArchiveCommand),
    /// Check a tour written elsewhere (squares by name, a grid of step
    /// numbers, or JSON) against a puzzle.
    Verify(verify::VerifyArgs),
    /// The studio: a local web page to write puzzles and watch them solved.
    Serve(serve::ServeArgs),
}

/// Output format.
#[derive(Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum Format {
    /// For people.
    Text,
    /// One JSON object.
    Json,
}

/// `--archive`, shared by `run` and `archive`.
#[derive(clap::Args)]
pub struct ArchiveFlag {
    /// The archive file (default: $ENGINE_ARCHIVE, else the platform's data directory).
    #[arg(long, value_name = "DB")]
    pub archive: Option<PathBuf>,
}

impl ArchiveFlag {
    /// The archive file the flag (or the environment) names. A path ending
    /// in `/` names a folder and is refused, as an output path is.
    pub fn path(&self) -> Result<PathBuf, Error> {
        let path = engine::archive::resolve_path(self.archive.as_deref())?.ok_or_else(|| {
            Error::about(
                ErrorKind::Io,
                "--archive",
                "no data directory is known on this system; give --archive DB",
            )
        })?;
        if path
            .as_os_str()
            .to_string_lossy()
            .ends_with(std::path::is_separator)
        {
            let message = "the path ends in `/`, so it names a directory, not an archive file";
            return Err(match &self.archive {
                Some(flag) => flag_error(
                    ErrorKind::Io,
                    "--archive",
                    &flag.display().to_string(),
                    message,
                ),
                None => Error::about(ErrorKind::Io, engine::archive::ENV_VAR, message),
            });
        }
        Ok(path)
    }

    /// Opens the archive the flag (or the environment) names, which must
    /// exist: for the commands that only read it.
    pub fn open_existing(&self) -> Result<engine::archive::Archive, Error> {
        engine::archive::Archive::open_existing(&self.path()?)
    }
}

/// The command line's names for what the library names by a puzzle's
/// fields and options: its flags (and its commands, `engine run` and
/// `engine make`, for the library's solving and making). An
/// error about an option given on the command line is worded with these
/// ([`Error::named`]) before it is printed.
pub struct Flags;

impl Names for Flags {
    fn name(&self, option: &str) -> Option<&str> {
        Some(match option {
            "board" => "--board",
            "piece" => "--piece",
            "start" => "--start",
            "end" => "--end",
            "tour: Closed" => "--closed",
            "tour: Open" => "--open",
            "solver" => "--solver",
            "solutions: Unique" => "--unique",
            "save" => "--save",
            "method" => "--method",
            "shard" => "--shard",
            "list" => "--list",
            "magic" => "--magic",
            "node_limit" => "--node-limit",
            "make" => "engine make",
            "text" => "engine make --text",
            "run" => "engine run",
            _ => return None,
        })
    }
}

/// The first line of every report: name, piece, board and goal.
pub fn title(p: &Puzzle) -> String {
    format!(
        "{} — {} on {} — {} tour{}{}",
        p.name,
        p.piece_text,
        p.board.describe(),
        if p.goal.closed { "closed" } else { "open" },
        match p.goal.start {
            Some(s) => format!(" from {}", p.board.name(s)),
            None => String::new(),
        },
        match p.constraints.symmetry {
            Some(s) => format!(", symmetric under {}", s.describe()),
            None => String::new(),
        }
    )
}

/// Whether a report prints the board's grid and the tour's move list:
/// each always with its flag (`--grid`, `--moves`), else when the board
/// fits, saying where it does not which flag prints it.
pub fn grid_choice(grid: bool, moves: bool) -> engine::render::text::GridChoice<'static> {
    engine::render::text::GridChoice {
        always: grid,
        hint: Some("--grid prints it anyway"),
        moves,
        moves_hint: Some("--moves prints it anyway"),
    }
}

/// A value of a command-line flag that is not allowed (a
/// [`ErrorKind::BadValue`]), with a caret under all of it.
pub fn bad_flag(flag: &str, value: &str, message: impl Into<String>) -> Error {
    flag_error(ErrorKind::BadValue, flag, value, message)
}

/// An error of `kind` about the value of a command-line flag, with a caret
/// under all of it.
pub fn flag_error(kind: ErrorKind, flag: &str, value: &str, message: impl Into<String>) -> Error {
    Error::option(kind, flag, value, Span::new(0, value.len()), message)
}

/// The longest `--time-limit`, in seconds (about 30 years).
const MAX_SECONDS: f64 = 1e9;

/// Parses `--time-limit`: a number of seconds from 0 to [`MAX_SECONDS`],
/// judged as written (`1e400` is too large, not infinite).
pub fn seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(t) if (0.0..=MAX_SECONDS).contains(&t) => Ok(t),
        Ok(t) if t > MAX_SECONDS => Err(format!("a time limit is at most {MAX_SECONDS:e} seconds")),
        _ => Err("a time limit is a non-negative number of seconds".to_string()),
    }
}

/// Refuses outputs that would destroy an input or each other: each of
/// `outputs` (flag, path) must differ from each of `inputs` (what it is,
/// path) and from every other output. Run before any work, so nothing is
/// written when this fails.
pub fn distinct_outputs(
    outputs: &[(&str, Option<&Path>)],
    inputs: &[(&str, Option<&Path>)],
) -> Result<(), Error> {
    let outputs: Vec<(&str, &Path)> = outputs
        .iter()
        .filter_map(|(f, p)| p.map(|p| (*f, p)))
        .collect();
    for (i, (flag, path)) in outputs.iter().enumerate() {
        let shown = path.display().to_string();
        for (what, input) in inputs.iter().filter_map(|(w, p)| p.map(|p| (*w, p))) {
            if engine::output::same_file(path, input) {
                return Err(flag_error(
                    ErrorKind::Conflict,
                    flag,
                    &shown,
                    format!("this is {what}; it would be overwritten"),
                ));
            }
        }
        if let Some((other, _)) = outputs[..i]
            .iter()
            .find(|(_, p)| engine::output::same_file(path, p))
        {
            return Err(flag_error(
                ErrorKind::Conflict,
                flag,
                &shown,
                format!("{other} writes to this file already; give each output its own file"),
            ));
        }
    }
    Ok(())
}

/// Refuses an output `path` (given to `flag`) that exists and is not of its
/// own `kind` — a GIF asked over a puzzle file, a database, a text — unless
/// `force`: the message names the file and what it seems to be. Run before
/// any work, with [`distinct_outputs`].
pub fn own_kind(
    flag: &str,
    path: &Path,
    kind: &engine::output::Kind,
    force: bool,
) -> Result<(), Error> {
    if force {
        return Ok(());
    }
    engine::output::refuse_other_kind(path, kind).map_err(|seems| {
        let shown = path.display().to_string();
        flag_error(
            ErrorKind::Conflict,
            flag,
            &shown,
            format!(
                "`{shown}` seems to be {seems}, not {}: writing it would destroy the file",
                kind.name
            ),
        )
        .with_help("give another file, or --force to replace it anyway")
    })
}
