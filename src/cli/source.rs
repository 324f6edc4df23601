//! Where a command's puzzle comes from: a file, standard input (`-`), or
//! flags alone, and the flags that change it (`--board`, `--piece`,
//! `--start`, `--end`, `--open`, `--closed`). Shared by `run`, `check`,
//! `count` and `make`.

use std::path::PathBuf;

use engine::error::{Error, ErrorKind};
use engine::halt::{Limits, Stop};
use engine::puzzle::Puzzle;

use super::{Format, GAVE_UP, INTERRUPTED_CODE, out, watch};

/// Puzzle files (and flags) up to this many bytes are read on the
/// command's own thread.
const QUICK_BYTES: u64 = 16 << 10;

/// How a command's JSON names a stop (see [`PuzzleArgs::stopped`]).
#[derive(Clone, Copy, Debug)]
pub enum StopWords {
    /// `status` (`gave_up` or `interrupted`) and `reason`, as `run` and
    /// `make` report any stop.
    Status,
    /// `status: "stopped"` and the stop in `stopped`, as `count` and
    /// `check` report one.
    Stopped,
    /// `valid: null` and the stop in `reason`, as `verify` would.
    Valid,
}

/// The puzzle and the flags that change it.
#[derive(clap::Args, Clone)]
pub struct PuzzleArgs {
    /// The puzzle file (RON), or `-` for standard input; may be left out
    /// when --board or --piece is given (the other then defaults to 8x8 or
    /// knight).
    puzzle: Option<PathBuf>,
    /// The board, as in a puzzle file (`8x8`, `10x10 torus`, …), instead
    /// of the file's.
    #[arg(long, value_name = "BOARD")]
    board: Option<String>,
    /// The piece, as in a puzzle file (`zebra`, `leaper 2 3`, `ffN`, …),
    /// instead of the file's.
    #[arg(long, value_name = "PIECE")]
    piece: Option<String>,
    /// Ask for a closed tour.
    #[arg(long, conflicts_with = "open")]
    closed: bool,
    /// Ask for an open tour.
    #[arg(long)]
    open: bool,
    /// Start square, like `b1`, `(1,0)` or `any`.
    #[arg(long, value_name = "SQ")]
    start: Option<String>,
    /// End square of an open tour, like `h8`, `(7,7)` or `any`.
    #[arg(long, value_name = "SQ")]
    end: Option<String>,
}

impl PuzzleArgs {
    /// The puzzle file's path, if the puzzle comes from a file (not `-`).
    pub fn file(&self) -> Option<&std::path::Path> {
        self.puzzle.as_deref().filter(|p| p.as_os_str() != "-")
    }

    /// Whether the puzzle is read from standard input (`-`).
    pub fn reads_stdin(&self) -> bool {
        self.puzzle.as_deref().is_some_and(|p| p.as_os_str() == "-")
    }

    /// The flag and value of `--piece`, else of `--board`, if either
    /// changes the puzzle.
    pub fn changed_board_or_piece(&self) -> Option<(&'static str, &str)> {
        match (&self.board, &self.piece) {
            (_, Some(p)) => Some(("--piece", p)),
            (Some(b), None) => Some(("--board", b)),
            (None, None) => None,
        }
    }

    /// These flags with `board` as the board when neither a file nor
    /// `--board` gives one (`make --text` chooses the board).
    pub fn or_board(&self, board: &str) -> PuzzleArgs {
        let mut args = self.clone();
        if args.puzzle.is_none() && args.board.is_none() {
            args.board = Some(board.to_string());
        }
        args
    }

    /// Whether the board is given, by a file or `--board`.
    pub fn gives_board(&self) -> bool {
        self.puzzle.is_some() || self.board.is_some()
    }

    /// [`PuzzleArgs::load`] under `limits`: the puzzle is read and checked on
    /// a thread of its own, so that standard input left open, a slow
    /// device or a file that takes long to check stops at the time limit
    /// or Ctrl-C like the work after it. `Err` when the limits stopped the
    /// reading (the caller ends with [`PuzzleArgs::stopped`]).
    ///
    /// A puzzle given by a small regular file or by flags alone is read
    /// here instead ([`PuzzleArgs::quick`]): its reading cannot block, and
    /// its checking takes milliseconds at most, so the thread would cost
    /// more than the wait it guards.
    pub fn load_within(&self, limits: &Limits<'_>) -> Result<Result<Puzzle, Error>, Stop> {
        if self.quick() {
            return Ok(self.load());
        }
        let args = self.clone();
        watch::within(limits, move || args.load())
    }

    /// Whether the puzzle comes from a regular file of at most
    /// [`QUICK_BYTES`] (or from no file), with flags as short. Such a
    /// puzzle is read in well under a millisecond, or in tens of
    /// milliseconds when it names one of the largest boards.
    fn quick(&self) -> bool {
        let flags: usize = [&self.board, &self.piece, &self.start, &self.end]
            .iter()
            .map(|f| f.as_deref().map_or(0, str::len))
            .sum();
        if flags > QUICK_BYTES as usize {
            return false;
        }
        match &self.puzzle {
            None => true,
            Some(p) if p.as_os_str() == "-" => false,
            Some(p) => std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.len() <= QUICK_BYTES),
        }
    }

    /// Says that `stop` came before the puzzle was read (on standard error),
    /// and gives the exit code. With `--format json` standard output gets
    /// one object too, in the command's own words (`words`) and with
    /// `"stage": "reading"`, so that a script always has an answer to read.
    pub fn stopped(&self, stop: Stop, format: Format, words: StopWords) -> u8 {
        let name = match &self.puzzle {
            Some(p) if p.as_os_str() == "-" => engine::puzzle::STDIN_NAME.to_string(),
            Some(p) => p.display().to_string(),
            None => "the puzzle".to_string(),
        };
        out::warn(format_args!(
            "{name}: {stop} before the puzzle was read; nothing is proven"
        ));
        if format == Format::Json {
            let object = match words {
                StopWords::Status => {
                    let (status, reason) = match stop {
                        Stop::Limit(l) => ("gave_up", l.to_string()),
                        Stop::Interrupted | Stop::Cancelled => ("interrupted", stop.to_string()),
                    };
                    serde_json::json!({ "status": status, "reason": reason, "stage": "reading" })
                }
                StopWords::Stopped => serde_json::json!({
                    "status": "stopped", "stopped": stop.to_string(), "stage": "reading"
                }),
                StopWords::Valid => serde_json::json!({
                    "valid": null, "reason": format!("{stop} before the puzzle was read"),
                    "stage": "reading"
                }),
            };
            // The exit code says the same; a closed standard output cannot
            // change it.
            let _ = out::print(&format!("{object}\n"));
        }
        match stop {
            Stop::Limit(_) => GAVE_UP,
            Stop::Interrupted | Stop::Cancelled => INTERRUPTED_CODE,
        }
    }

    /// Reads the puzzle and applies the flags: board and piece first, then
    /// the tour kind, then the start and end squares on the board.
    pub fn load(&self) -> Result<Puzzle, Error> {
        let mut p = match &self.puzzle {
            Some(path) => {
                let mut p = Puzzle::load(path)?;
                if let Some(b) = &self.board {
                    p.set_board(b)?;
                }
                if let Some(q) = &self.piece {
                    p.set_piece(q)?;
                }
                p
            }
            None if self.board.is_none() && self.piece.is_none() => {
                return Err(Error::about(
                    ErrorKind::Usage,
                    "engine",
                    "no puzzle: give a puzzle file, `-` for standard input, or --board and --piece",
                ));
            }
            None => Puzzle::from_flags(self.board.as_deref(), self.piece.as_deref())?,
        };
        // `--end any` drops the file's end first, so `--closed` may follow.
        if self.end.as_deref().is_some_and(|e| e.trim() == "any") {
            p.set_end("any")?;
        }
        if self.closed {
            p.set_closed()?;
        }
        if self.open {
            p.set_open();
        }
        if let Some(s) = &self.start {
            p.set_start(s)?;
        }
        if let Some(e) = &self.end {
            p.set_end(e)?;
        }
        p.rewrite_text();
        Ok(p)
    }
}
