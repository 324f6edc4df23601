//! The order in which the frontier counter takes the squares, and what each
//! step does to the frontier.
//!
//! Squares are taken one at a time. When square `v` is taken, every move
//! between `v` and a square taken earlier is decided (used by the tour or
//! not). The *frontier* after a step is the set of squares taken so far that
//! still have a move to a square not yet taken: only their degrees and how
//! their path pieces pair up matter to the rest of the board. A square whose
//! last neighbour has just been taken *retires*: its degree is final.
//!
//! The order is the one of a few sweeps (file by file, or rank by rank)
//! whose frontiers are smallest: along the board's longer side on a plain
//! rectangle, across the wrapping edges of a cylinder.

use crate::model::{Board, MoveGraph};

/// The most squares a frontier may hold (with the square being taken): a
/// state is then at most 36 codes of 5 bits, which fit the widest key.
pub const MAX_WIDTH: usize = 36;

/// The way squares are swept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sweep {
    /// File by file (a1 a2 … then b1 b2 …): along a board wider than tall.
    Files,
    /// Rank by rank (board order: a1 b1 … then a2 b2 …).
    Ranks,
}

impl Sweep {
    /// How the sweep is named in reports.
    pub fn describe(self) -> &'static str {
        match self {
            Sweep::Files => "file by file",
            Sweep::Ranks => "rank by rank",
        }
    }
}

/// One step: square `vertex` is taken.
#[derive(Clone, Debug, Default)]
pub struct Step {
    /// The square taken.
    pub vertex: u32,
    /// Slots (in the frontier before the step) of its neighbours taken
    /// earlier.
    pub back: Vec<u8>,
    /// Slots of the frontier before the step plus the new square (last,
    /// at slot `before`) that retire at this step.
    pub retire: Vec<u8>,
    /// Slots of that extended frontier that stay, in the order of the
    /// frontier after the step.
    pub keep: Vec<u8>,
    /// Slots (in the frontier after the step) whose square has exactly one
    /// neighbour still to be taken.
    pub last_move: Vec<u8>,
    /// Size of the frontier before the step.
    pub before: usize,
}

/// The whole sweep.
#[derive(Clone, Debug)]
pub struct Plan {
    /// How the squares are swept.
    pub sweep: Sweep,
    /// One step per square, in order.
    pub steps: Vec<Step>,
    /// The most squares any step looks at (its frontier and the new square).
    pub width: usize,
    /// For each square, its neighbours without repeats or itself.
    pub neighbours: Vec<Vec<u32>>,
    /// Automorphisms of the move graph other than the identity (each the
    /// image of every square), to merge states that a symmetry maps onto
    /// each other.
    pub symmetries: Vec<Vec<u32>>,
}

impl Plan {
    /// The plan of the sweep of `board` whose frontiers are smallest, for a
    /// graph whose every move can be made back; None when even that one
    /// is wider than [`MAX_WIDTH`].
    pub fn best(board: &Board, g: &MoveGraph) -> Option<Plan> {
        // Measure both sweeps before building any neighbour lists: on a
        // huge board both give up after a few dozen squares.
        let (sweep, order, _) = [Sweep::Files, Sweep::Ranks]
            .into_iter()
            .filter_map(|sweep| {
                let order = sweep_order(board, sweep);
                let profile = widths_within(g, &order, MAX_WIDTH).ok()?;
                Some((sweep, order, profile))
            })
            .min_by(|a, b| cost(&a.2).total_cmp(&cost(&b.2)))?;
        let mut plan = Plan::new(sweep, order, simple_neighbours(g));
        plan.symmetries = crate::count::Symmetries::of_board(board, g)
            .elements()
            .iter()
            .filter(|p| p.iter().enumerate().any(|(s, &t)| s as u32 != t))
            .cloned()
            .collect();
        Some(plan)
    }

    /// The plan that takes the squares in `order` (a permutation of the
    /// squares); its width may exceed [`MAX_WIDTH`].
    pub fn new(sweep: Sweep, order: Vec<u32>, neighbours: Vec<Vec<u32>>) -> Plan {
        let n = order.len();
        let mut pos = vec![0usize; n];
        for (i, &v) in order.iter().enumerate() {
            pos[v as usize] = i;
        }
        let last: Vec<usize> = (0..n)
            .map(|u| {
                neighbours[u]
                    .iter()
                    .map(|&w| pos[w as usize])
                    .fold(pos[u], usize::max)
            })
            .collect();
        // Later neighbours still to be taken, per square, as the sweep goes.
        let mut remaining: Vec<usize> = (0..n)
            .map(|u| {
                neighbours[u]
                    .iter()
                    .filter(|&&w| pos[w as usize] > pos[u])
                    .count()
            })
            .collect();
        let mut frontier: Vec<u32> = Vec::new();
        let mut steps = Vec::with_capacity(n);
        let mut width = 0;
        for (i, &v) in order.iter().enumerate() {
            let before = frontier.len();
            let mut back = Vec::new();
            for (slot, &u) in frontier.iter().enumerate() {
                if neighbours[v as usize].contains(&u) {
                    back.push(slot as u8);
                    remaining[u as usize] -= 1;
                }
            }
            let mut extended = frontier.clone();
            extended.push(v);
            width = width.max(extended.len());
            let mut retire = Vec::new();
            let mut keep = Vec::new();
            for (slot, &u) in extended.iter().enumerate() {
                if last[u as usize] <= i {
                    retire.push(slot as u8);
                } else {
                    keep.push(slot as u8);
                }
            }
            frontier = keep.iter().map(|&s| extended[s as usize]).collect();
            let last_move = frontier
                .iter()
                .enumerate()
                .filter(|&(_, &u)| remaining[u as usize] == 1)
                .map(|(slot, _)| slot as u8)
                .collect();
            steps.push(Step {
                vertex: v,
                back,
                retire,
                keep,
                last_move,
                before,
            });
        }
        Plan {
            sweep,
            steps,
            width,
            neighbours,
            symmetries: Vec::new(),
        }
    }

    /// The size of the frontier after each step.
    pub fn profile(&self) -> Vec<usize> {
        self.steps.iter().map(|s| s.keep.len()).collect()
    }
}

/// The squares of `board` in the order of `sweep`.
pub fn sweep_order(board: &Board, sweep: Sweep) -> Vec<u32> {
    let n = board.len() as u32;
    if sweep == Sweep::Ranks {
        return (0..n).collect();
    }
    // Squares are numbered rank by rank, so a counting sort on the file
    // keeps each file's squares in rank order.
    let mut start = vec![0usize; board.width() as usize + 1];
    for s in 0..n {
        start[board.cell(s).x as usize + 1] += 1;
    }
    for x in 1..start.len() {
        start[x] += start[x - 1];
    }
    let mut order = vec![0u32; n as usize];
    for s in 0..n {
        let x = board.cell(s).x as usize;
        order[start[x]] = s;
        start[x] += 1;
    }
    order
}

/// The frontier's size (with the square being taken) at each step of
/// `order`, or, as soon as it exceeds `max`, the size it reached. Looks
/// only at the squares up to that step and their moves.
pub fn widths_within(g: &MoveGraph, order: &[u32], max: usize) -> Result<Vec<usize>, usize> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    let mut pos = vec![0u32; order.len()];
    for (i, &v) in order.iter().enumerate() {
        pos[v as usize] = i as u32;
    }
    // The steps after which the squares in the frontier retire.
    let mut leaving = BinaryHeap::new();
    let mut profile = Vec::with_capacity(order.len());
    for (i, &v) in order.iter().enumerate() {
        let last = g
            .neighbours(v)
            .map(|w| pos[w as usize])
            .fold(i as u32, u32::max);
        leaving.push(Reverse(last));
        if leaving.len() > max {
            return Err(leaving.len());
        }
        profile.push(leaving.len());
        while leaving.peek().is_some_and(|&Reverse(l)| l as usize <= i) {
            leaving.pop();
        }
    }
    Ok(profile)
}

/// Each square's neighbours, without repeats or the square itself (a tour
/// uses a move between two squares at most once, whichever way, and never
/// stays put).
pub fn simple_neighbours(g: &MoveGraph) -> Vec<Vec<u32>> {
    (0..g.len() as u32)
        .map(|s| {
            let mut v: Vec<u32> = g.neighbours(s).filter(|&t| t != s).collect();
            v.sort_unstable();
            v.dedup();
            v
        })
        .collect()
}

/// A rough cost of a sweep with this profile: states grow about threefold
/// per frontier square.
pub fn cost(profile: &[usize]) -> f64 {
    profile.iter().map(|&w| 3f64.powi(w as i32)).sum()
}
