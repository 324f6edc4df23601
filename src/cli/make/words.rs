//! `engine make --text`: make a word puzzle — a text's units on the squares
//! of a tour that is the only one to read it — and write it as a puzzle
//! file with a picture of the grid and one of its solution.

use std::io::IsTerminal;
use std::time::Instant;

use clap::ValueEnum;

use engine::error::{Error, ErrorKind, Span};
use engine::halt::Stop;
use engine::make::words::{self as made_words, MadeWords, WordOptions};
use engine::make::{Failure, svg};
use engine::output::PendingFile;
use engine::progress::Progress;
use engine::puzzle::{Puzzle, letters};
use engine::words::{counted, many};

use super::super::source::StopWords;
use super::super::{
    BAD_INPUT, BUG, DONE, Format, GAVE_UP, IMPOSSIBLE, INTERRUPTED_CODE, bad_flag, flag_error, out,
    progress,
};
use super::{MAX_SQUARES, MakeArgs, command_line, json_report, output_paths, refusal};

/// `--hint`: the help printed with a word puzzle.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Hint {
    /// The first square is given.
    Start,
    /// The words' lengths are printed.
    Lengths,
    /// No help.
    None,
}

/// The text to make a puzzle of, and where errors in it point: the flag
/// `--text` (its value), or the file `--text-file` names.
struct Source {
    text: String,
    file: Option<String>,
}

impl Source {
    /// An error at `span` of the text.
    fn error(&self, kind: ErrorKind, span: Span, message: impl Into<String>) -> Error {
        match &self.file {
            Some(file) => Error::at(kind, file, &self.text, span, message),
            None => Error::option(kind, "--text", &self.text, span, message),
        }
    }
}

/// The name of a word puzzle made from flags alone.
const WORD_PUZZLE: &str = "Word puzzle";

/// Runs `engine make --text`; the exit code.
pub fn exec(args: MakeArgs) -> Result<u8, Error> {
    let started = Instant::now();
    super::super::interrupt::install();
    let source = match (&args.text, &args.text_file) {
        (Some(t), _) => Source {
            text: t.clone(),
            file: None,
        },
        (None, Some(path)) => {
            let (file, text) = engine::puzzle::read_text(path, "a text file")?;
            Source {
                text,
                file: Some(file),
            }
        }
        (None, None) => return Err(Error::about(ErrorKind::Usage, "--text", "no text given")),
    };
    let units = letters::parse_text(&source.text, 0).map_err(|e| {
        let err = source.error(e.kind, e.span, e.message);
        match e.help {
            Some(h) => err.with_help(h),
            None => err,
        }
    })?;
    let whole = Span::new(0, source.text.len());
    if units.len() > MAX_SQUARES {
        return Err(source.error(
            ErrorKind::TooBig,
            whole,
            format!(
                "the text has {} units; a word puzzle made has at most {MAX_SQUARES}",
                units.len()
            ),
        ));
    }
    if args.count != 1 {
        return Err(bad_flag(
            "--count",
            &args.count.to_string(),
            "word puzzles are made one at a time",
        ));
    }
    let hints = &args.hint;
    if hints.contains(&Hint::None) && hints.len() > 1 {
        return Err(Error::about(
            ErrorKind::BadValue,
            "--hint",
            "`none` asks for no help, and cannot come with another hint",
        ));
    }
    let budget = args.time_limit.unwrap_or(engine::make::DEFAULT_SECONDS);
    let limits = super::super::interrupt::limits().with_time_from(started, Some(budget));
    // The board: the file's, --board, or the first of the boards near a
    // square with room on which the piece has a tour.
    let mut chosen = made_words::boards_for(units.len()).into_iter();
    let first = chosen
        .next()
        .unwrap_or_else(|| made_words::board_for(units.len()));
    let args_source = args.source.or_board(&board_text(&first));
    let mut puzzle = match args_source.load_within(&limits) {
        Ok(p) => p?,
        Err(stop) => return Ok(args_source.stopped(stop, args.format, StopWords::Status)),
    };
    if args.source.file().is_none() && !args.source.reads_stdin() {
        puzzle.name = WORD_PUZZLE.to_string();
    }
    if let Some(e) = refusal(&puzzle) {
        return Err(e);
    }
    let n = puzzle.board.len();
    if n != units.len() {
        return Err(source.error(
            ErrorKind::Mismatch,
            whole,
            format!(
                "the text has {} and the board {}: a word puzzle has one unit a square",
                counted(units.len() as u64, "unit"),
                counted(n as u64, "square")
            ),
        )
        .with_help(if args.source.gives_board() {
            "a board with as many squares as the text has units (holes allowed), or leave the board out for the nearest square with room"
        } else {
            "a syllable in brackets, `[sch]`, is one unit"
        }));
    }
    if args.node_limit == 0 {
        return Err(bad_flag(
            "--node-limit",
            "0",
            "each search needs at least 1 node",
        ));
    }
    let paths = output_paths(&args.output);
    let flags = [
        "--output",
        "--output (its blank picture)",
        "--output (its solution's picture)",
    ];
    let named: Vec<(&str, Option<&std::path::Path>)> = flags
        .iter()
        .zip(&paths)
        .map(|(f, p)| (*f, Some(p.as_path())))
        .collect();
    super::super::distinct_outputs(
        &named,
        &[
            ("the puzzle file", args.source.file()),
            ("the text file", args.text_file.as_deref()),
        ],
    )?;
    for (i, (flag, path)) in flags.iter().zip(&paths).enumerate() {
        let kind = if i == 0 {
            engine::make::file::KIND
        } else {
            engine::output::Kind::SVG
        };
        super::super::own_kind(flag, path, &kind, args.force)?;
    }
    let mut files = Vec::with_capacity(3);
    for (flag, path) in flags.iter().zip(&paths) {
        files.push(PendingFile::create(path).map_err(|e| {
            flag_error(
                ErrorKind::Io,
                flag,
                &path.display().to_string(),
                format!("cannot write here: {e}"),
            )
        })?);
    }
    let seed = args.seed.unwrap_or(puzzle.seed);
    let opts = WordOptions {
        seed,
        attempts: if args.attempts == engine::make::DEFAULT_ATTEMPTS {
            made_words::DEFAULT_ATTEMPTS
        } else {
            args.attempts
        },
        conflicts: args.node_limit,
        start: hints.contains(&Hint::Start),
    };
    if opts.attempts == 0 {
        return Err(bad_flag("--attempts", "0", "at least 1 tour must be tried"));
    }
    if !args.quiet && std::io::stderr().is_terminal() {
        out::warn(format_args!(
            "Making a word puzzle within {budget} s{}",
            match args.time_limit {
                Some(_) => "",
                None => " (the default budget; --time-limit sets another)",
            }
        ));
    }
    let texts: Vec<String> = units.iter().map(|u| u.text.clone()).collect();
    let prog = Progress::new();
    let mut walked = false;
    let made = loop {
        let made = progress::shown("making", &prog, args.quiet, || {
            let graph = puzzle.graph(&limits).map_err(Failure::Stopped)?;
            made_words::make_words(&puzzle, &graph, &texts, &source.text, &opts, limits, &prog)
        });
        // A board chosen here without a tour gives way to the next; when
        // none has one, the squares of a path on the nearest rectangle
        // that has one.
        let next = match &made {
            Err(Failure::NoTour(_)) if !args.source.gives_board() => match chosen.next() {
                Some(board) => Some(board),
                None if !walked => {
                    walked = true;
                    path_board(&args, units.len(), seed, &limits)?
                }
                None => None,
            },
            _ => None,
        };
        let Some(board) = next else { break made };
        let args_source = args.source.or_board(&board_text(&board));
        let name = std::mem::take(&mut puzzle.name);
        puzzle = match args_source.load_within(&limits) {
            Ok(p) => p?,
            Err(stop) => return Ok(args_source.stopped(stop, args.format, StopWords::Status)),
        };
        puzzle.name = name;
    };
    let title = super::super::title(&puzzle);
    let unmade = |status: &str, text: String, reason: String| {
        out::print(&match args.format {
            Format::Text => format!("{title}\nNo puzzle: {text}\n"),
            Format::Json => json_report(&puzzle, seed, status, Some(&reason), None, None)?,
        })
    };
    let made = match made {
        Ok(m) => m,
        Err(Failure::NoTour(why)) => {
            unmade(
                "impossible",
                if args.source.gives_board() {
                    format!("no tour exists, so there is nothing to lay the text on: {why}")
                } else {
                    format!(
                        "the piece has no tour on any of the {} boards with room for {} tried, so there is nothing to lay the text on (the last: {why}); --board names one",
                        made_words::BOARDS_TRIED.min(made_words::boards_for(units.len()).len()),
                        counted(units.len() as u64, "unit")
                    )
                },
                why,
            )?;
            return Ok(IMPOSSIBLE);
        }
        Err(Failure::Stopped(stop)) => {
            let (status, code) = match stop {
                Stop::Limit(_) => ("gave_up", GAVE_UP),
                Stop::Interrupted | Stop::Cancelled => ("interrupted", INTERRUPTED_CODE),
            };
            let reason = format!("{stop} before one was made");
            unmade(status, format!("{reason}; nothing was written"), reason)?;
            return Ok(code);
        }
        Err(Failure::Missed(why)) => {
            let why = why.words(&super::super::Flags);
            unmade("gave_up", format!("{why}; nothing was written"), why)?;
            return Ok(GAVE_UP);
        }
        Err(Failure::Bug(bug)) => {
            out::warn(bug);
            return Ok(BUG);
        }
    };
    let lengths = hints
        .contains(&Hint::Lengths)
        .then(|| made_words::word_lengths(&source.text));
    let header = header(&puzzle, &made, seed, lengths.as_deref());
    let name = format!("{}, seed {seed}", puzzle.name);
    let text = made_words::puzzle_text(&puzzle, &made, &name, &header);
    // The file must read back as the puzzle made.
    match Puzzle::parse(&paths[0].display().to_string(), &text) {
        Ok(p)
            if p.board == puzzle.board
                && p.constraints.letters.as_ref().is_some_and(|l| {
                    l.written == made.letters.written && l.text == made.letters.text
                }) => {}
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
    let mut help = Vec::new();
    if let Some(s) = made.start {
        help.push(format!("the first square is {}", puzzle.board.name(s)));
    }
    if let Some(l) = &lengths {
        help.push(format!("words of {}", join(l)));
    }
    let subtitle = format!(
        "{} on {}: read the text, one move from square to square{}",
        puzzle.piece_spelled(),
        puzzle.board.describe(),
        if help.is_empty() {
            String::new()
        } else {
            format!("; {}", help.join("; "))
        }
    );
    let caption = svg::Legend {
        title: &name,
        subtitle: &subtitle,
    };
    let cannot = |e: std::io::Error| {
        Error::about(
            ErrorKind::Io,
            &args.output.display().to_string(),
            format!("cannot write the puzzle: {e}; none of the three files was written"),
        )
    };
    let [ron, blank, solution] = match <[PendingFile; 3]>::try_from(files) {
        Ok(f) => f,
        Err(_) => return Ok(BUG),
    };
    let board = &puzzle.board;
    let three = ron
        .stage(|w| std::io::Write::write_all(w, text.as_bytes()))
        .and_then(|((), ron)| {
            blank
                .stage(|w| svg::write_words(w, board, &made.letters, made.start, &caption))
                .map(|((), blank)| [ron, blank])
        })
        .and_then(|[ron, blank]| {
            solution
                .stage(|w| {
                    svg::write_words_solution(
                        w,
                        board,
                        &made.letters,
                        &made.tour,
                        made.start,
                        puzzle.goal.closed,
                        &caption,
                    )
                })
                .map(|((), solution)| [ron, blank, solution])
        });
    let staged = match three {
        Ok(three) => Vec::from(three),
        Err(e) => {
            out::warn(cannot(e));
            return Ok(BAD_INPUT);
        }
    };
    let committed = match engine::output::commit_all(staged) {
        Ok(c) => c,
        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {
            let reason = format!("{} after one was made", Stop::Interrupted);
            unmade(
                "interrupted",
                format!("{reason}; nothing was written"),
                reason,
            )?;
            return Ok(INTERRUPTED_CODE);
        }
        Err(e) => {
            out::warn(cannot(e));
            return Ok(BAD_INPUT);
        }
    };
    let printed = match args.format {
        Format::Json => json(&puzzle, seed, &made, &name, &paths, lengths.as_deref())
            .and_then(|line| out::print(&line)),
        Format::Text => {
            let mut report = format!("{title}\n");
            for line in &header[1..] {
                report.push_str(line);
                report.push('\n');
            }
            report.push('\n');
            report.push_str(&made_words::picture(board, &made.letters, 4));
            report.push_str(&format!(
                "\nWrote {}, {} and {}\n",
                paths[0].display(),
                paths[1].display(),
                paths[2].display()
            ));
            out::print(&report)
        }
    };
    if let Err(e) = printed {
        return Err(match committed.undo() {
            Ok(()) => e.with_help("the puzzle's three files were put back as they were"),
            Err(undo) => e.with_help(format!(
                "the puzzle's three files were written, and could not be put back: {undo}"
            )),
        });
    }
    drop(committed);
    Ok(DONE)
}

/// The board of the squares of a path of `units` squares of the piece on
/// the nearest rectangle that has one ([`made_words::path_board`]), if any.
fn path_board(
    args: &MakeArgs,
    units: usize,
    seed: u64,
    limits: &engine::halt::Limits<'_>,
) -> Result<Option<engine::model::Board>, Error> {
    for (w, h) in made_words::rectangles_for(units) {
        let Ok(Ok(puzzle)) = args
            .source
            .or_board(&format!("{w}x{h}"))
            .load_within(limits)
        else {
            continue;
        };
        let Ok(graph) = puzzle.graph(limits) else {
            return Ok(None);
        };
        match made_words::path_board(&puzzle.board, &graph, units, seed, limits) {
            Ok(Some(board)) => return Ok(Some(board)),
            Ok(None) => {}
            Err(_) => return Ok(None),
        }
    }
    Ok(None)
}

/// The board expression of `board`: its size and its removed squares.
fn board_text(board: &engine::model::Board) -> String {
    let removed: Vec<String> = (0..board.height())
        .flat_map(|y| (0..board.width()).map(move |x| engine::model::Cell::new(x, y)))
        .filter(|&c| !board.is_square(c))
        .map(|c| format!("{}{}", engine::model::file_name(c.x), c.y + 1))
        .collect();
    let mut t = format!("{}x{}", board.width(), board.height());
    if !removed.is_empty() {
        t.push_str(" - ");
        t.push_str(&removed.join(" "));
    }
    t
}

/// Numbers joined by spaces.
fn join(numbers: &[usize]) -> String {
    numbers
        .iter()
        .map(usize::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The puzzle file's comment header, which `make` also prints (all but
/// its first line): how it was made, its proof, its help.
fn header(puzzle: &Puzzle, made: &MadeWords, seed: u64, lengths: Option<&[usize]>) -> Vec<String> {
    let how = command_line(std::env::args_os().skip(1), seed);
    let n = puzzle.board.len();
    let mut help = Vec::new();
    if let Some(s) = made.start {
        help.push(format!("the first square, {}", puzzle.board.name(s)));
    }
    if let Some(l) = lengths {
        help.push(format!("the words' lengths, {}", join(l)));
    }
    let help = if help.is_empty() {
        "none".to_string()
    } else {
        help.join("; ")
    };
    vec![
        format!(
            "{}, seed {seed}: {} by `{how}` (attempt {}).",
            puzzle.name,
            if puzzle.name == WORD_PUZZLE {
                "made"
            } else {
                "a word puzzle made"
            },
            made.attempt
        ),
        format!(
            "{} on {}; one tour reads the text, proved by the clause-learning search {}.",
            counted(made.letters.reading.len() as u64, "unit"),
            counted(n as u64, "square"),
            match made.conflicts {
                0 => "by its deductions alone".to_string(),
                c => format!("in {}", many(c, "conflict")),
            }
        ),
        format!("Help: {help}."),
        format!(
            "Tours tried: {} ({} read by another tour too, {} out of conflicts).",
            made.attempt, made.multiple, made.unknown
        ),
    ]
}

/// The report of `make --text --format json`.
#[derive(serde::Serialize)]
struct WordsJson<'a> {
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
    /// `made`.
    status: &'a str,
    /// The puzzle made.
    made: MadeJson<'a>,
}

/// The word puzzle made, in [`WordsJson`].
#[derive(serde::Serialize)]
struct MadeJson<'a> {
    /// The made puzzle's name.
    name: &'a str,
    /// The text.
    text: &'a str,
    /// Its units, in reading order.
    units: Vec<&'a str>,
    /// The solution's squares, by name.
    squares: Vec<String>,
    /// The first square, when it is given, else null.
    start: Option<String>,
    /// The words' lengths, when they are printed, else null.
    lengths: Option<&'a [usize]>,
    /// `clause-learning`: what proved the reading unique.
    proof: &'static str,
    /// Its conflicts.
    conflicts: u64,
    /// The attempt that made it.
    attempt: u32,
    /// The files written: the puzzle, its grid and its solution.
    files: Vec<String>,
}

/// `make --text --format json`, one line.
fn json(
    puzzle: &Puzzle,
    seed: u64,
    made: &MadeWords,
    name: &str,
    paths: &[std::path::PathBuf; 3],
    lengths: Option<&[usize]>,
) -> Result<String, Error> {
    let board = &puzzle.board;
    let report = WordsJson {
        name: &puzzle.name,
        board: board.describe(),
        piece: &puzzle.piece_text,
        closed: puzzle.goal.closed,
        seed,
        status: "made",
        made: MadeJson {
            name,
            text: &made.letters.text,
            units: made
                .tour
                .iter()
                .map(|&s| made.letters.written[s as usize].as_str())
                .collect(),
            squares: made.tour.iter().map(|&s| board.name(s)).collect(),
            start: made.start.map(|s| board.name(s)),
            lengths,
            proof: "clause-learning",
            conflicts: made.conflicts,
            attempt: made.attempt,
            files: paths.iter().map(|p| p.display().to_string()).collect(),
        },
    };
    engine::render::json::line(&report)
        .map_err(|e| Error::about(ErrorKind::Internal, "the JSON output", e.to_string()))
}
