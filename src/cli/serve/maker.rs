//! The studio's puzzle maker (`POST /api/make`): `engine make` from the
//! page's form — board, piece, tour kind, clues or minimal, difficulty,
//! seed — through the same library (`engine::make`) and the same words,
//! answered with the puzzle file, the proof that it has one solution, and
//! its two printable pictures (the blank puzzle and its solution) made in
//! memory. It waits its turn with the searches for a slot.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use engine::halt::{Limits, Stop};
use engine::make::{self, Difficulty, Failure, MakeOptions, Target, svg};
use engine::progress::Progress;
use engine::puzzle::Puzzle;
use serde_json::json;

use super::Studio;
use super::api::error_json;
use super::http::{self, Refusal};
use super::wire::Request;
use crate::cli::{interrupt, make as cli_make};

/// What the page's form asks.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Ask {
    /// The board, as `--board` takes it.
    board: String,
    /// The piece, as `--piece` takes it.
    piece: String,
    /// A closed tour (`--closed`).
    #[serde(default)]
    closed: bool,
    /// Stop at this many clues (`--clues`); none: minimal.
    #[serde(default)]
    clues: Option<usize>,
    /// `easy`, `medium` or `hard` (`--difficulty`).
    #[serde(default)]
    difficulty: Option<String>,
    /// The seed of every random choice.
    #[serde(default)]
    seed: u64,
}

/// `POST /api/make`: makes the puzzle the form asks for.
pub fn make(studio: &Studio, request: Request) {
    let Some((request, ask)) = http::json_body::<Ask>(request, "a make form") else {
        return;
    };
    let bad = |request, e: &engine::error::Error| {
        http::json(request, 400, &json!({ "error": error_json(e) }))
    };
    let mut puzzle = match Puzzle::from_flags(Some(&ask.board), Some(&ask.piece)) {
        Ok(p) => p,
        Err(e) => return bad(request, &e),
    };
    if ask.closed
        && let Err(e) = puzzle.set_closed()
    {
        return bad(request, &e);
    }
    puzzle.name = "Studio puzzle".to_string();
    puzzle.rewrite_text();
    if let Some(e) = cli_make::refusal(&puzzle) {
        return bad(request, &e);
    }
    let n = puzzle.board.len();
    let fewest = n.min(2);
    if let Some(k) = ask.clues
        && k < fewest
    {
        return http::refuse(
            request,
            Refusal::new(
                400,
                format!(
                    "a puzzle made has at least {fewest} clues: the first and the last step are always given"
                ),
            ),
        );
    }
    let difficulty = match ask.difficulty.as_deref() {
        None | Some("") => None,
        Some("easy") => Some(Difficulty::Easy),
        Some("medium") => Some(Difficulty::Medium),
        Some("hard") => Some(Difficulty::Hard),
        Some(other) => {
            return http::refuse(
                request,
                Refusal::new(
                    400,
                    format!(
                        "the difficulty is easy, medium or hard, not `{}`",
                        engine::error::escape_controls(other)
                    ),
                ),
            );
        }
    };
    let opts = MakeOptions {
        seed: ask.seed,
        target: ask.clues.map_or(Target::Minimal, Target::Clues),
        difficulty,
        node_limit: make::DEFAULT_NODE_LIMIT,
        attempts: make::DEFAULT_ATTEMPTS,
    };
    let Some(slot) = studio.runs.wait_slot() else {
        return http::refuse(request, Refusal::new(503, "the studio is stopping"));
    };
    let seconds = studio.runs.time_limit().min(make::DEFAULT_SECONDS);
    // A page that goes away (closed or reloaded) stops the
    // making: the connection is looked at every tenth of a second.
    let gone = AtomicBool::new(false);
    let done = AtomicBool::new(false);
    let limits = Limits {
        interrupt: Some(&interrupt::INTERRUPTED),
        cancel: Some(&gone),
        ..Limits::none()
    }
    .with_time_from(Instant::now(), Some(seconds));
    let progress = Progress::new();
    let made = std::thread::scope(|scope| {
        scope.spawn(|| {
            while !done.load(Ordering::SeqCst) {
                if request.gone() {
                    gone.store(true, Ordering::SeqCst);
                    break;
                }
                std::thread::sleep(Duration::from_millis(100));
            }
        });
        let made = puzzle
            .graph(&limits)
            .map_err(Failure::Stopped)
            .and_then(|graph| make::make(&puzzle, &graph, &opts, limits, &progress));
        done.store(true, Ordering::SeqCst);
        made
    });
    drop(slot);
    let made = match made {
        Ok(m) => m,
        Err(failure) => {
            let why = match failure {
                Failure::NoTour(why) => {
                    format!("no tour exists, so there is nothing to make clues of: {why}")
                }
                Failure::Stopped(stop @ Stop::Limit(_)) => {
                    format!("{stop} after {seconds} s before one was made")
                }
                Failure::Stopped(Stop::Cancelled) => {
                    "the page went away before one was made".to_string()
                }
                Failure::Stopped(stop) => format!("{stop} before one was made"),
                Failure::Missed(miss) => miss.words(&crate::cli::Flags),
                Failure::Bug(bug) => format!("internal error: {bug}"),
            };
            return http::json(
                request,
                200,
                &json!({ "failed": format!("No puzzle: {why}") }),
            );
        }
    };
    // The command that makes the same file, as its header says.
    let mut args: Vec<String> = vec![
        "make".into(),
        "--board".into(),
        ask.board.clone(),
        "--piece".into(),
        ask.piece.clone(),
    ];
    if ask.closed {
        args.push("--closed".into());
    }
    if let Some(k) = ask.clues {
        args.extend(["--clues".into(), k.to_string()]);
    }
    if let Some(d) = difficulty {
        args.extend(["--difficulty".into(), d.name().to_string()]);
    }
    args.extend(["--seed".into(), opts.seed.to_string()]);
    args.extend(["-o".into(), "puzzle.ron".into()]);
    let how = cli_make::command_line(args.into_iter().map(Into::into), opts.seed);
    let header = cli_make::header(&puzzle, &made, &opts, n, &how);
    let name = format!("{}, seed {}", puzzle.name, opts.seed);
    let text = make::file::puzzle_text(&puzzle, &made, &name, &header);
    let subtitle = cli_make::subtitle(&puzzle, &made, n);
    let caption = svg::Legend {
        title: &name,
        subtitle: &subtitle,
    };
    let mut blank = Vec::new();
    let mut solution = Vec::new();
    let drawn =
        svg::write_puzzle(&mut blank, &puzzle.board, &made.clues, &caption).and_then(|()| {
            svg::write_solution(
                &mut solution,
                &puzzle.board,
                &made.tour,
                &made.clues,
                puzzle.goal.closed,
                &caption,
            )
        });
    if let Err(e) = drawn {
        return http::refuse(
            request,
            Refusal::new(500, format!("the pictures were not drawn: {e}")),
        );
    }
    let squares: Vec<String> = made.tour.iter().map(|&s| puzzle.board.name(s)).collect();
    http::json(
        request,
        200,
        &json!({
            "name": name,
            "file": format!("studio-puzzle-seed-{}.ron", opts.seed),
            "text": text,
            "report": header[1..].join("\n"),
            "picture": make::file::picture(&puzzle.board, &made.clues, 4),
            "clues": made.clues.len(),
            "difficulty": made.difficulty.name(),
            "puzzle_svg": String::from_utf8_lossy(&blank),
            "solution_svg": String::from_utf8_lossy(&solution),
            "solution": squares,
        }),
    );
}
