//! `make` of a puzzle that asks for a magic tour ("complete the magic
//! tour"): the tour is the magic search's first (the puzzle's clues, if it
//! gives any, narrow the search: a whole tour given as clues is the tour),
//! every step of it a clue; then clues are taken out one at a time, in
//! random order, while the magic search proves that the tour is the only
//! magic one that fits those left. Clues 1 and n stay, as in every puzzle
//! made. A search that runs out of nodes proves nothing, and its clue
//! stays; a second solution found is kept, and a later clue whose removal
//! it also fits stays without a search.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{Checks, Difficulty, Failure, Made, MakeOptions, Proof, Target, deduced};
use crate::halt::{Halt, Limit, Limits, Stop};
use crate::model::{Constraints, MoveGraph};
use crate::progress::{Progress, Unit};
use crate::puzzle::Puzzle;
use crate::search::event::NoObserver;
use crate::solve::backtrack::{BacktrackOptions, Order};
use crate::solve::runner::{self, InvalidTour};
use crate::solve::{Outcome, Run, SolverSpec, Task, magic};

/// Makes a magic puzzle of `puzzle` on its move graph `graph`, within
/// `limits`; `progress` counts the clues tried.
pub(super) fn make(
    puzzle: &Puzzle,
    graph: &MoveGraph,
    opts: &MakeOptions,
    limits: Limits<'_>,
    progress: &Progress,
) -> Result<Made, Failure> {
    let n = graph.len();
    let tour = first_tour(puzzle, graph, limits, progress)?;
    let mut rng = ChaCha8Rng::seed_from_u64(opts.seed);
    let mut present = vec![true; n];
    let mut left = n;
    let mut order: Vec<usize> = (1..n.saturating_sub(1)).collect();
    for i in (1..order.len()).rev() {
        let j = rng.random_range(0..=i);
        order.swap(i, j);
    }
    let clues_of = |present: &[bool]| -> Vec<(u32, u32)> {
        (0..n)
            .filter(|&k| present[k])
            .map(|k| (k as u32 + 1, tour[k]))
            .collect()
    };
    let mut checks = Checks::default();
    let mut proof = Proof::Deductions;
    let mut stopped = None;
    let mut others: Vec<Vec<u32>> = Vec::new();
    let searches = Progress::new();
    progress.start(Unit::Clues, Some(order.len() as u64));
    for k in order {
        if let Target::Clues(target) = opts.target
            && left <= target
        {
            break;
        }
        if let Err(stop) = limits.check() {
            stopped = Some(stop);
            break;
        }
        present[k] = false;
        let clues = clues_of(&present);
        let known = others
            .iter()
            .any(|o| clues.iter().all(|&(s, q)| o[s as usize - 1] == q));
        if known {
            checks.known += 1;
            present[k] = true;
            progress.add(1);
            continue;
        }
        match second(
            puzzle,
            graph,
            &clues,
            &tour,
            opts.node_limit,
            limits,
            &searches,
        )? {
            (Second::None, nodes) => {
                checks.nodes += nodes;
                checks.searched += 1;
                left -= 1;
                proof = Proof::Magic(nodes);
            }
            (Second::Other(o), nodes) => {
                checks.nodes += nodes;
                checks.multiple += 1;
                others.push(o);
                present[k] = true;
            }
            (Second::Unknown, nodes) => {
                checks.nodes += nodes;
                checks.unknown += 1;
                present[k] = true;
            }
            (Second::Stopped(stop), _) => {
                present[k] = true;
                stopped = Some(stop);
                break;
            }
        }
        progress.add(1);
    }
    if let Some(stop @ (Stop::Interrupted | Stop::Cancelled)) = stopped {
        return Err(Failure::Stopped(stop));
    }
    let clues = clues_of(&present);
    let filled = deduced(graph, puzzle, &clues, &tour)?.filled();
    Ok(Made {
        tour,
        clues,
        filled,
        difficulty: Difficulty::of(filled, n),
        proof,
        attempt: 1,
        checks,
        stopped,
    })
}

/// The magic search's first tour of `puzzle`: a proof that there is none,
/// or a limit, ends the making.
fn first_tour(
    puzzle: &Puzzle,
    graph: &MoveGraph,
    limits: Limits<'_>,
    progress: &Progress,
) -> Result<Vec<u32>, Failure> {
    let report = runner::solve(
        &puzzle.task(graph),
        SolverSpec::Auto,
        Run::new(limits, progress, NoObserver),
    )
    .map_err(Failure::Bug)?;
    match report.outcome {
        Outcome::Found(t) => Ok(t),
        Outcome::Impossible(why) => Err(Failure::NoTour(why)),
        Outcome::GaveUp { limit, .. } => Err(Failure::Stopped(Stop::Limit(limit))),
        Outcome::Interrupted { .. } => Err(Failure::Stopped(Stop::Interrupted)),
    }
}

/// What a search for a second magic solution found.
enum Second {
    /// None exists.
    None,
    /// This one, verified.
    Other(Vec<u32>),
    /// The node budget ran out.
    Unknown,
    /// A limit of the whole making (time, Ctrl-C) stopped it.
    Stopped(Stop),
}

/// Looks for a magic solution of `puzzle` with `clues` other than `tour`,
/// within `budget` nodes of the magic search; with the nodes it took.
fn second(
    puzzle: &Puzzle,
    graph: &MoveGraph,
    clues: &[(u32, u32)],
    tour: &[u32],
    budget: u64,
    limits: Limits<'_>,
    progress: &Progress,
) -> Result<(Second, u64), Failure> {
    let c = Constraints {
        clues: clues.to_vec(),
        magic: puzzle.constraints.magic,
        ..Constraints::default()
    };
    let task = Task::new(graph, &puzzle.board, &puzzle.piece, puzzle.goal).with_constraints(&c);
    let opts = BacktrackOptions {
        order: Order::Warnsdorff,
        node_limit: Some(budget),
    };
    let (report, other) = magic::unique(opts, &task, Run::new(limits, progress, NoObserver));
    let nodes = report.stats.nodes;
    let bug = |problem: String| {
        Failure::Bug(InvalidTour {
            solver: "the magic search for a second solution".to_string(),
            problem,
        })
    };
    let checked = |t: Vec<u32>| -> Result<Second, Failure> {
        crate::verify::verify(&puzzle.board, &puzzle.piece, &puzzle.goal, &t)
            .and_then(|()| {
                crate::verify::verify_constraints(&puzzle.board, puzzle.goal.closed, &c, &t)
            })
            .map_err(bug)?;
        Ok(Second::Other(t))
    };
    let verdict = match (report.outcome, other) {
        (Outcome::Found(a), None) if a == tour => Second::None,
        (Outcome::Found(a), Some(b)) => checked(if a == tour { b } else { a })?,
        (Outcome::Found(a), None) => checked(a)?,
        (
            Outcome::GaveUp {
                limit: Limit::Nodes,
                ..
            },
            _,
        ) => Second::Unknown,
        (Outcome::GaveUp { limit, .. }, _) => Second::Stopped(Stop::Limit(limit)),
        (Outcome::Interrupted { .. }, _) => Second::Stopped(Stop::Interrupted),
        (Outcome::Impossible(why), _) => {
            return Err(bug(format!(
                "it found no solution where there is one: {why}"
            )));
        }
    };
    Ok((verdict, nodes))
}
