//! Helpers shared by the integration tests: the `engine` command, puzzles,
//! checks of printed tours, temporary files and Ctrl-C.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

use engine::halt::Never;
use engine::model::{Board, Cell, MoveGraph, Piece};
use engine::progress::Progress;
use engine::puzzle::Puzzle;
use engine::search::event::{NoObserver, Observer};
use engine::solve::{Goal, Limits, Outcome, Report, Run, Solver, Task};
use engine::verify::verify;

/// The `engine` binary built for these tests, as a plain process (to spawn
/// it and signal it).
pub fn engine_process() -> Command {
    Command::new(env!("CARGO_BIN_EXE_engine"))
}

/// The `engine` binary built for these tests, to run and assert on.
pub fn engine() -> assert_cmd::Command {
    assert_cmd::Command::from_std(engine_process())
}

/// Sends SIGINT, as Ctrl-C does, to a running child.
pub fn ctrl_c(child: &Child) {
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap_or_else(|e| panic!("kill: {e}"));
    assert!(sent.success());
}

/// Starts `cmd` with its output captured, presses Ctrl-C after `wait`, and
/// returns what it printed and how it exited.
pub fn interrupt_after(cmd: &mut Command, wait: Duration) -> Output {
    let child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("engine does not start: {e}"));
    std::thread::sleep(wait);
    ctrl_c(&child);
    child.wait_with_output().unwrap_or_else(|e| panic!("{e}"))
}

/// A temporary directory holding one puzzle file, `p.ron`.
pub fn setup(puzzle: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let file = dir.path().join("p.ron");
    std::fs::write(&file, puzzle).unwrap_or_else(|e| panic!("{e}"));
    (dir, file)
}

/// The names of the files in `dir`, sorted.
pub fn files(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| {
            e.unwrap_or_else(|e| panic!("{e}"))
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    v.sort();
    v
}

/// Loads a puzzle file through the library.
pub fn load(path: &Path) -> Puzzle {
    Puzzle::load(path).unwrap_or_else(|e| panic!("{} does not load:\n{e}", path.display()))
}

/// Parses a puzzle's text through the library.
pub fn puzzle(text: &str) -> Puzzle {
    Puzzle::parse("test.ron", text).unwrap_or_else(|e| panic!("{e}"))
}

/// Solves `p` the way `engine run` does; any tour found must pass `verify`.
pub fn solve(p: &Puzzle) -> Report {
    solve_within(p, Limits::none(), NoObserver)
}

/// [`solve`] within `limits`, watched by `observer`.
pub fn solve_within<O: Observer>(p: &Puzzle, limits: Limits<'_>, observer: O) -> Report {
    let g = graph_of(p);
    let progress = Progress::new();
    let r =
        engine::solve::runner::solve(&p.task(&g), p.solver, Run::new(limits, &progress, observer))
            .unwrap_or_else(|e| panic!("{e}"));
    if let Outcome::Found(t) = &r.outcome {
        assert_eq!(verify(&p.board, &p.piece, &p.goal, t), Ok(()));
        assert_eq!(
            engine::verify::verify_constraints(&p.board, p.goal.closed, &p.constraints, t),
            Ok(())
        );
    }
    r
}

/// The move graph of a puzzle.
pub fn graph_of(p: &Puzzle) -> MoveGraph {
    let Ok(g) = p.graph(&Never);
    g
}

/// What `engine check` knows of `g` (built on `board`) for `goal`.
pub fn analysis(g: &MoveGraph, goal: &Goal, board: &Board) -> engine::analysis::Analysis {
    let Ok(a) = engine::analysis::analyse(g, goal, board, &Never);
    a
}

/// The move graph of `piece` on `board`.
pub fn graph(board: &Board, piece: &Piece) -> MoveGraph {
    let Ok(g) = MoveGraph::build(board, piece, &Never);
    g
}

/// Runs `solver` on the graph `g` of `piece` on `board` for `goal` with
/// `seed`, within `limits`, watched by `observer` (the tour is not checked).
#[allow(clippy::too_many_arguments)]
pub fn run_solver<S: Solver, O: Observer>(
    solver: &S,
    g: &MoveGraph,
    board: &Board,
    piece: &Piece,
    goal: &Goal,
    seed: u64,
    limits: Limits<'_>,
    observer: O,
) -> Report {
    let task = Task::new(g, board, piece, *goal).with_seed(seed);
    let progress = Progress::new();
    solver.solve(&task, Run::new(limits, &progress, observer))
}

/// The knight.
pub fn knight() -> Piece {
    Piece::leaper(1, 2, 1)
}

/// Open tours from `start`.
pub fn open_from(start: u32) -> Goal {
    Goal {
        start: Some(start),
        ..Goal::default()
    }
}

/// Closed tours.
pub fn closed() -> Goal {
    Goal {
        closed: true,
        ..Goal::default()
    }
}

/// Turns a JSON `tour` (list of `[x, y]`) into square numbers of `p`'s board.
pub fn tour_from_json(p: &Puzzle, v: &serde_json::Value) -> Vec<u32> {
    v["tour"]
        .as_array()
        .unwrap_or_else(|| panic!("no tour array in {v}"))
        .iter()
        .map(|xy| {
            let x = xy[0].as_u64().unwrap_or(u64::MAX) as u32;
            let y = xy[1].as_u64().unwrap_or(u64::MAX) as u32;
            p.board
                .square_at(Cell::new(x, y))
                .unwrap_or_else(|| panic!("[{x},{y}] is not a square"))
        })
        .collect()
}

/// The squares named in `names` (a JSON list of names, `"c3"`) on `p`'s
/// board.
pub fn squares(p: &Puzzle, names: &serde_json::Value) -> Vec<u32> {
    names
        .as_array()
        .unwrap_or_else(|| panic!("no list of squares: {names}"))
        .iter()
        .map(|n| {
            let n = n.as_str().unwrap_or_else(|| panic!("{n} is no name"));
            (0..p.board.len() as u32)
                .find(|&s| p.board.name(s) == n)
                .unwrap_or_else(|| panic!("{n} is no square"))
        })
        .collect()
}

/// Asserts the JSON result's tour is a valid tour of `p` (through the verifier).
pub fn assert_verified(p: &Puzzle, v: &serde_json::Value) {
    let tour = tour_from_json(p, v);
    let closed = v["closed"].as_bool().unwrap_or(false);
    let mut goal = p.goal;
    goal.closed = closed;
    if let Err(e) = verify(&p.board, &p.piece, &goal, &tour) {
        panic!("tour of {} fails verification: {e}", p.name);
    }
    if let Err(e) = engine::verify::verify_constraints(&p.board, closed, &p.constraints, &tour) {
        panic!("tour of {} breaks its clues or symmetry: {e}", p.name);
    }
    let names: Vec<String> = tour.iter().map(|&s| p.board.name(s)).collect();
    let squares: Vec<String> = v["squares"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|s| s.as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(names, squares, "`squares` and `tour` disagree");
}

/// `m[a][b]`: whether the verifier's geometry allows the move from square `a`
/// to square `b` (for brute forces independent of the move graph).
pub fn legal_moves(board: &Board, piece: &Piece) -> Vec<Vec<bool>> {
    let n = board.len() as u32;
    (0..n)
        .map(|a| {
            (0..n)
                .map(|b| engine::verify::legal(board, piece, board.cell(a), board.cell(b)))
                .collect()
        })
        .collect()
}

/// The squares a tour of `goal` may start on, among `n`.
pub fn start_squares(goal: &Goal, n: usize) -> Vec<u32> {
    match goal.start {
        Some(s) => vec![s],
        None => (0..n as u32).collect(),
    }
}

/// `engine serve` on a free loopback port: its process and the address it
/// printed (`http://127.0.0.1:PORT/`). Stopped with Ctrl-C when dropped,
/// and killed if it has not stopped 10 s later.
pub struct Served {
    /// The server's process.
    pub child: Child,
    /// The address it serves.
    pub url: String,
}

impl Served {
    /// Starts `engine serve --port 0` with `args`, once it says where it is.
    pub fn start<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Served {
        use std::io::{BufRead, BufReader};
        let mut child = engine_process()
            .args(["serve", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("engine serve starts");
        let mut line = String::new();
        let out = child.stdout.as_mut().expect("its output");
        BufReader::new(out).read_line(&mut line).expect("a line");
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Served { child, url }
    }

    /// The address as `127.0.0.1:PORT`.
    pub fn addr(&self) -> &str {
        self.url.trim_start_matches("http://").trim_end_matches('/')
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        if let Ok(Some(_)) = self.child.try_wait() {
            return;
        }
        ctrl_c(&self.child);
        let began = std::time::Instant::now();
        while began.elapsed() < Duration::from_secs(10) {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The JSON of `count` with `args`, and its exit code.
pub fn count_json(args: &[&str]) -> (serde_json::Value, i32) {
    let out = engine()
        .args(["count", "--format", "json", "--quiet"])
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{e}"));
    let v = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{e}: {} {}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (v, out.status.code().unwrap_or(-1))
}
