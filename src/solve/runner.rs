//! Solving a puzzle end to end: the proofs (with a short search before the
//! slower ones where a tour found at once settles the puzzle), then the
//! chosen solver, then the independent verifier on whatever tour comes
//! out. This is the one place that chooses among solvers: `Auto` and its
//! fallback live here.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::backtrack::{BacktrackOptions, Order};
use super::clued;
use super::magic;
use super::symmetric::SymmetricOptions;
use super::warnsdorff::WarnsdorffOptions;
use super::{AutoPick, Limit, Outcome, Report, Run, Solver, SolverId, SolverSpec, Stats, Task};
use crate::analysis;
use crate::halt::{Halt, OrFlag, Stop};
use crate::search::event::{Event, Observer};
use crate::verify::verify;

/// A solver's answer failed verification: a bug, never a user error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidTour {
    /// The solver that produced it, for people.
    pub solver: String,
    /// What the verifier found wrong.
    pub problem: String,
}

impl std::fmt::Display for InvalidTour {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "internal error: {} produced a tour that fails verification: {}",
            self.solver, self.problem
        )
    }
}

/// Boards up to this many squares are small enough for `Auto` to search
/// exhaustively from the start (open tours).
pub const AUTO_SMALL_OPEN: usize = 64;

/// The same for closed tours.
pub const AUTO_SMALL_CLOSED: usize = 64;

/// On boards larger than that, when Warnsdorff's rule gives up, the
/// complete search gets this many nodes (a second or two) to find a tour.
pub const AUTO_FALLBACK_NODES: u64 = 1 << 23;

/// On small boards, the complete search's nodes before Warnsdorff's rule
/// gets a try (a few tens of milliseconds: most puzzles are settled
/// before, and a tour the rule finds at once can take the search minutes).
pub const AUTO_FIRST_NODES: u64 = 1 << 17;

/// What `Auto` picks for a task, and why. Small boards get the complete
/// backtracker; larger ones Warnsdorff's rule, which [`solve`] follows with
/// the backtracker if it gives up.
pub fn auto_choice(task: &Task<'_>) -> (SolverSpec, AutoPick) {
    let squares = task.graph.len();
    if task.constraints.magic.is_some() {
        return (
            SolverSpec::Backtrack(BacktrackOptions::default()),
            AutoPick::Magic,
        );
    }
    if task.constraints.on_steps() {
        let pick = if task.constraints.clues.is_empty() {
            AutoPick::Letters
        } else {
            AutoPick::Clues
        };
        return (SolverSpec::Backtrack(BacktrackOptions::default()), pick);
    }
    if task.constraints.symmetry.is_some() {
        return (
            SolverSpec::Symmetric(SymmetricOptions::default()),
            AutoPick::Symmetric,
        );
    }
    let small = if task.goal.closed {
        AUTO_SMALL_CLOSED
    } else {
        AUTO_SMALL_OPEN
    };
    if squares <= small {
        (
            SolverSpec::Backtrack(BacktrackOptions {
                order: Order::Warnsdorff,
                node_limit: None,
            }),
            AutoPick::Small {
                squares,
                first_nodes: Some(AUTO_FIRST_NODES),
            },
        )
    } else {
        (
            SolverSpec::Warnsdorff(WarnsdorffOptions::default()),
            AutoPick::Large {
                squares,
                fallback_nodes: Some(AUTO_FALLBACK_NODES),
            },
        )
    }
}

/// Boards with at least this many squares run the proofs beside the search,
/// on a second thread, instead of before it: on them the proofs take a
/// good part of the search's time. Whichever finishes first settles the
/// answer (a tour means no proof exists; a proof cancels the search).
pub const PROOFS_BESIDE: usize = 1 << 18;

/// Solves `task` with the solver `spec` within `run`: the proofs first (or
/// beside the search on large boards; on a small board a search of
/// [`TRIAL_NODES`] comes before the proof by a cut, on a middling one the
/// first walk of Warnsdorff's rule before any proof, and a tour either
/// finds is the answer), then the solver. Every tour is verified before it is
/// returned, its clues and symmetry included.
///
/// ```
/// use engine::halt::Never;
/// use engine::progress::Progress;
/// use engine::puzzle::Puzzle;
/// use engine::search::event::NoObserver;
/// use engine::solve::{Limits, Outcome, Run};
///
/// let p = Puzzle::parse("k.ron", r#"Puzzle(board: "5x5", piece: "knight", start: "a1")"#).unwrap();
/// let Ok(g) = p.graph(&Never);
/// let progress = Progress::new();
/// let run = Run::new(Limits::none(), &progress, NoObserver);
/// let report = engine::solve::runner::solve(&p.task(&g), p.solver, run).unwrap();
/// let Outcome::Found(tour) = report.outcome else { panic!() };
/// assert!(engine::verify::verify(&p.board, &p.piece, &p.goal, &tour).is_ok());
/// ```
pub fn solve<O: Observer>(
    task: &Task<'_>,
    spec: SolverSpec,
    mut run: Run<'_, O>,
) -> Result<Report, InvalidTour> {
    let started = Instant::now();
    let graph = task.graph;
    let proofs = |halt: &(dyn Fn() -> Result<(), Stop> + Sync)| {
        let halt = Checked(halt);
        analysis::analyse_board(graph, &task.goal, task.board, task.piece, &halt)
            .map(|a| a.impossible)
    };
    let proven = |proof: String| proven_report(proof, started);
    // A tour settles the puzzle (no proof can exist then): on a board of
    // more than 64 squares but too few for the proofs to run beside the
    // search, where the proofs cost as much as a walk of Warnsdorff's rule,
    // the rule's first walk comes first when it is the solver. Only where a
    // walk can succeed — every move can be made back, every square has one,
    // and no proof is in sight at once — so that a walk that gets stuck
    // costs little before the proofs. Not with an observer of the search,
    // which would see its first moves twice.
    let n = graph.len();
    if (65..PROOFS_BESIDE).contains(&n)
        && !O::ACTIVE
        && graph.is_symmetric()
        && (0..n as u32).all(|s| graph.degree(s) > 0)
        && matches!(
            analysis::obstruction_in_sight(graph, &task.goal, task.board, task.piece, &run.limits),
            Ok(false)
        )
        && let Some(report) = first_walk(spec, task, run.reborrow())
    {
        if let Outcome::Found(tour) = &report.outcome {
            check_tour(task, &report.solver.to_string(), tour)?;
        }
        return Ok(report);
    }
    let report = if graph.len() < PROOFS_BESIDE {
        let limits = run.limits;
        let halt = Checked(&|| limits.check());
        let (goal, board) = (&task.goal, task.board);
        match analysis::analyse_board_quick(graph, goal, board, task.piece, &halt) {
            Ok(a) => {
                if let Some(proof) = a.impossible {
                    return Ok(proven(proof));
                }
                // On a small board the cut proof tries thousands of cuts,
                // and a tour settles the puzzle (no proof exists then): a
                // short search first. Not with an observer of the search,
                // which would see its first moves twice.
                if analysis::cuts_tried(graph, &a)
                    && !O::ACTIVE
                    && let Some(report) = first_try(spec, task, run.reborrow(), TRIAL_NODES)
                {
                    if let Outcome::Found(tour) = &report.outcome {
                        check_tour(task, &report.solver.to_string(), tour)?;
                    }
                    return Ok(report);
                }
                match analysis::cut_proof(graph, goal, board, &a, &halt) {
                    Ok(Some(proof)) => return Ok(proven(proof)),
                    Ok(None) => search(spec, task, run),
                    Err(stop) => Report::stopped(stop, started.elapsed(), SolverId::default()),
                }
            }
            Err(stop) => Report::stopped(stop, started.elapsed(), SolverId::default()),
        }
    } else {
        let cancel = AtomicBool::new(false);
        let found = AtomicBool::new(false);
        let limits = run.limits;
        let (proof, report) = std::thread::scope(|scope| {
            let checker = scope.spawn(|| {
                let halt = OrFlag {
                    halt: &limits,
                    flag: &found,
                };
                let proof = proofs(&|| halt.check()).ok().flatten();
                if proof.is_some() {
                    cancel.store(true, Ordering::Relaxed);
                }
                proof
            });
            let beside = Run {
                limits: limits.with_cancel(&cancel),
                progress: run.progress,
                observer: &mut run.observer,
            };
            let report = search(spec, task, beside);
            if matches!(report.outcome, Outcome::Found(_)) {
                found.store(true, Ordering::Relaxed);
            }
            (checker.join().ok().flatten(), report)
        });
        match proof {
            Some(proof) => return Ok(proven(proof)),
            None => report,
        }
    };
    if let Outcome::Found(tour) = &report.outcome {
        check_tour(task, &report.solver.to_string(), tour)?;
    }
    Ok(report)
}

/// The nodes of the search tried, on a small board, before the proof by a
/// cut ([`solve`]): a few thousand, a fraction of a millisecond, where the
/// cut proof tries thousands of cuts.
pub const TRIAL_NODES: u64 = 1 << 12;

/// The first stage of `spec` (as [`search`] runs it) alone, within
/// `nodes`: its report, as [`search`] would give it, when it found a tour;
/// None otherwise (the search is then run again from the start, after the
/// proofs). Backtracking, Warnsdorff's rule, `Auto`, the clue search and
/// the magic search only: they find the same tour under a smaller budget, and their work is
/// counted in nodes.
fn first_try<O: Observer>(
    spec: SolverSpec,
    task: &Task<'_>,
    run: Run<'_, O>,
    nodes: u64,
) -> Option<Report> {
    let (spec, pick) = match spec {
        SolverSpec::Auto => {
            let (s, why) = auto_choice(task);
            (s, Some(why))
        }
        s => (s, None),
    };
    let run = Run {
        limits: run.limits.with_nodes(Some(nodes)),
        ..run
    };
    let mut report = if task.constraints.magic.is_some() {
        let opts = match spec {
            SolverSpec::Backtrack(o) => o,
            _ => BacktrackOptions::default(),
        };
        magic::solve(opts, task, run, 1).0
    } else if task.constraints.on_steps() {
        let opts = match spec {
            SolverSpec::Backtrack(o) => o,
            _ => BacktrackOptions::default(),
        };
        clued::solve(opts, task, run, 1).0
    } else {
        match first_stage(spec, pick.is_some()) {
            s @ (SolverSpec::Backtrack(_) | SolverSpec::Warnsdorff(_)) => run_spec(s, task, run),
            _ => return None,
        }
    };
    if !matches!(report.outcome, Outcome::Found(_)) {
        return None;
    }
    report.solver.auto = pick;
    Some(report)
}

/// The first walk of Warnsdorff's rule, when `spec` (or `Auto`) runs the
/// rule first: its report, as [`search`] would give it, when the walk found
/// a tour with no repair ([`WarnsdorffOptions::first_walk`]); None
/// otherwise.
fn first_walk<O: Observer>(spec: SolverSpec, task: &Task<'_>, run: Run<'_, O>) -> Option<Report> {
    let (spec, pick) = match spec {
        SolverSpec::Auto => {
            let (s, why) = auto_choice(task);
            (s, Some(why))
        }
        s => (s, None),
    };
    let SolverSpec::Warnsdorff(opts) = spec else {
        return None;
    };
    if task.constraints.on_steps() || task.constraints.magic.is_some() {
        return None;
    }
    let mut report = opts.first_walk(task, run);
    if !matches!(report.outcome, Outcome::Found(_)) {
        return None;
    }
    report.solver.auto = pick;
    Some(report)
}

/// The solver [`search`] runs first for `spec` (`auto`: picked by `Auto`).
fn first_stage(spec: SolverSpec, auto: bool) -> SolverSpec {
    match spec {
        SolverSpec::Backtrack(_) if auto => SolverSpec::Backtrack(BacktrackOptions {
            order: Order::Warnsdorff,
            node_limit: Some(AUTO_FIRST_NODES),
        }),
        s => s,
    }
}

/// The verifier's answer on `tour`, its clues and symmetry included.
fn check_tour(task: &Task<'_>, solver: &str, tour: &[u32]) -> Result<(), InvalidTour> {
    verify(task.board, task.piece, &task.goal, tour)
        .and_then(|()| {
            crate::verify::verify_constraints(task.board, task.goal.closed, task.constraints, tour)
        })
        .map_err(|problem| InvalidTour {
            solver: solver.to_string(),
            problem,
        })
}

/// A halt given as a check (the proofs run under the run's limits, or
/// beside a search under those limits and the flag its tour raises).
struct Checked<'a>(&'a (dyn Fn() -> Result<(), Stop> + Sync));

impl Halt for Checked<'_> {
    type Stop = Stop;
    fn check(&self) -> Result<(), Stop> {
        (self.0)()
    }
}

/// The solver `spec` names. `Auto` picks by size: on small boards
/// the complete search for [`AUTO_FIRST_NODES`] nodes, then Warnsdorff's
/// rule once, then the complete search again from the start with no node
/// limit; on large ones
/// Warnsdorff's rule, then the complete search for at most
/// [`AUTO_FALLBACK_NODES`].
fn search<O: Observer>(spec: SolverSpec, task: &Task<'_>, mut run: Run<'_, O>) -> Report {
    let (spec, pick) = match spec {
        SolverSpec::Auto => {
            let (s, why) = auto_choice(task);
            (s, Some(why))
        }
        s => (s, None),
    };
    if task.constraints.magic.is_some() {
        let opts = match spec {
            SolverSpec::Backtrack(o) => o,
            _ => BacktrackOptions::default(),
        };
        let (mut report, _) = magic::solve(opts, task, run, 1);
        report.solver.auto = pick;
        return report;
    }
    if task.constraints.on_steps() {
        let opts = match spec {
            SolverSpec::Backtrack(o) => o,
            _ => BacktrackOptions::default(),
        };
        let (mut report, _) = clued::solve(opts, task, run, 1);
        report.solver.auto = pick;
        return report;
    }
    let complete = |node_limit| BacktrackOptions {
        order: Order::Warnsdorff,
        node_limit,
    };
    let first = first_stage(spec, pick.is_some());
    let mut report = run_spec(first, task, run.reborrow());
    if pick.is_some() {
        // Each stage runs while the one before gave up on its own limit.
        let stages: Vec<(Limit, SolverSpec)> = match spec {
            SolverSpec::Symmetric(_) => Vec::new(),
            SolverSpec::Backtrack(_) => vec![
                (
                    Limit::Nodes,
                    SolverSpec::Warnsdorff(WarnsdorffOptions::default()),
                ),
                (Limit::Restarts, SolverSpec::Backtrack(complete(None))),
            ],
            _ => vec![(
                Limit::Restarts,
                SolverSpec::Backtrack(complete(Some(AUTO_FALLBACK_NODES))),
            )],
        };
        for (after, next) in stages {
            if !matches!(report.outcome, Outcome::GaveUp { limit, .. } if limit == after) {
                break;
            }
            let before = report;
            run.observer.event(Event::Restart, &[]);
            report = run_spec(next, task, run.reborrow());
            let mut ran = before.solver.ran;
            ran.append(&mut report.solver.ran);
            report.solver.ran = ran;
            report.stats.add(&before.stats);
            if report.starts.is_none() {
                report.starts = before.starts;
            }
        }
    }
    report.solver.auto = pick;
    report
}

/// Runs the solver `spec` names (`Auto`, never passed here, as the
/// complete search).
fn run_spec<O: Observer>(spec: SolverSpec, task: &Task<'_>, run: Run<'_, O>) -> Report {
    match spec {
        SolverSpec::Backtrack(o) => o.solve(task, run),
        SolverSpec::Warnsdorff(o) => o.solve(task, run),
        SolverSpec::Genetic(o) => o.solve(task, run),
        SolverSpec::Symmetric(o) => o.solve(task, run),
        SolverSpec::Auto => BacktrackOptions::default().solve(task, run),
    }
}

/// Solves `task` for one solution and a proof that it is the only one
/// (a puzzle's `solutions: Unique`): the proofs, then
/// the complete search over the steps asked for two solutions, then the
/// clause-learning search ([`clued::unique`]; a
/// `Backtrack(..)` solver's node limit applies). The report as
/// [`clued::unique`] gives it, and the second solution if there is one;
/// both are verified, clues included.
pub fn solve_unique<O: Observer>(
    task: &Task<'_>,
    spec: SolverSpec,
    run: Run<'_, O>,
) -> Result<(Report, Option<Vec<u32>>), InvalidTour> {
    let started = Instant::now();
    let halt = Checked(&|| run.limits.check());
    match analysis::analyse_board(task.graph, &task.goal, task.board, task.piece, &halt) {
        Ok(a) => {
            if let Some(proof) = a.impossible {
                return Ok((proven_report(proof, started), None));
            }
        }
        Err(stop) => {
            return Ok((
                Report::stopped(stop, started.elapsed(), SolverId::default()),
                None,
            ));
        }
    }
    let opts = match spec {
        SolverSpec::Backtrack(o) => o,
        _ => BacktrackOptions::default(),
    };
    let (report, second) = if task.constraints.magic.is_some() {
        magic::unique(opts, task, run)
    } else {
        clued::unique(opts, task, run)
    };
    let found = match &report.outcome {
        Outcome::Found(t) => Some(t),
        _ => None,
    };
    for tour in found.into_iter().chain(second.as_ref()) {
        check_tour(task, &report.solver.to_string(), tour)?;
    }
    Ok((report, second))
}

/// The report of a puzzle the proofs showed impossible, `started` being
/// when the run began.
fn proven_report(proof: String, started: Instant) -> Report {
    Report {
        outcome: Outcome::Impossible(proof),
        stats: Stats {
            elapsed: started.elapsed(),
            ..Stats::default()
        },
        solver: SolverId::proofs(),
        starts: None,
    }
}
