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
//! The order is the one whose frontiers are smallest (by [`cost`]) among
//! two sweeps (file by file, or rank by rank: along the board's longer
//! side on a plain rectangle, across the wrapping edges of a cylinder) and
//! a *greedy* order that follows the moves rather than the lines: from a
//! first square, each next square is the one that leaves the fewest
//! squares in the frontier (then the one with the most moves to it, then
//! the one with the fewest moves left, then the first in reading order:
//! rank by rank, or file by file on a board taller than wide, so that a
//! board and its turn get orders that are turns of each other), tried from
//! every first square.
//! On the knight's boards the greedy order keeps far smaller frontiers than
//! a sweep: 9 squares at most on 7x5 (a sweep: 12), 10 on 6x6 (14), 11 on
//! 8x5 (12). It is taken only when its widest frontier is narrower than the
//! sweep's, or when every sweep is too wide (the giraffe on 9x9: sweeps of
//! 38 squares, a greedy order of 14).

use crate::model::{Board, MoveGraph};

/// The most squares a frontier may hold (with the square being taken): a
/// state is then at most 36 codes of 5 bits, which fit the widest key.
pub const MAX_WIDTH: usize = 36;

/// The widest frontier a refusal names exactly; wider ones are "more than"
/// this (measuring them would cost a pass over a huge board).
pub const WIDTH_NAMED: usize = 4 * MAX_WIDTH;

/// The way squares are swept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sweep {
    /// File by file (a1 a2 … then b1 b2 …): along a board wider than tall.
    Files,
    /// Rank by rank (board order: a1 b1 … then a2 b2 …).
    Ranks,
    /// The greedy order (see the module docs).
    Greedy,
}

impl Sweep {
    /// How the sweep is named in reports.
    pub fn describe(self) -> &'static str {
        match self {
            Sweep::Files => "file by file",
            Sweep::Ranks => "rank by rank",
            Sweep::Greedy => "in greedy order",
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
    /// The plan whose frontiers are smallest (see the module docs), for a
    /// graph whose every move can be made back; None when every sweep and
    /// every greedy order is wider than [`MAX_WIDTH`].
    pub fn best(board: &Board, g: &MoveGraph) -> Option<Plan> {
        Plan::best_or_width(board, g).ok()
    }

    /// [`Plan::best`], or when there is none the narrowest sweep's widest
    /// frontier (up to [`WIDTH_NAMED`], then one more): each sweep is
    /// measured once, since on a huge board its order alone is a pass over
    /// every square.
    pub fn best_or_width(board: &Board, g: &MoveGraph) -> Result<Plan, usize> {
        // Measure both sweeps before building any neighbour lists: on a
        // huge board both give up after a few dozen squares.
        let mut narrowest = usize::MAX;
        let best_sweep = [Sweep::Files, Sweep::Ranks]
            .into_iter()
            .filter_map(|sweep| {
                let order = sweep_order(board, sweep);
                let profile = widths_within(g, &order, WIDTH_NAMED);
                let widest = match &profile {
                    Ok(p) => p.iter().copied().max().unwrap_or(0),
                    Err(reached) => *reached,
                };
                narrowest = narrowest.min(widest);
                let profile = profile.ok().filter(|_| widest <= MAX_WIDTH)?;
                Some((sweep, order, profile))
            })
            .min_by(|a, b| cost(&a.2).total_cmp(&cost(&b.2)));
        let narrowest = if narrowest == usize::MAX {
            0
        } else {
            narrowest
        };
        if best_sweep.is_none() && g.len() > GREEDY_SQUARES {
            return Err(narrowest);
        }
        let neighbours = simple_neighbours(g);
        let ranks = tie_ranks(board);
        let (sweep, order) = match best_sweep {
            Some((sweep, order, profile)) => {
                // Only a narrower frontier: at the same width the sweep,
                // which merges mirrored states, held fewer on 8x6 closed
                // (143,099 at the widest step against 191,652).
                let narrower = profile.iter().copied().max().unwrap_or(0).saturating_sub(1);
                match greedy_order(&neighbours, &ranks, cost(&profile), 1..=narrower) {
                    Some(greedy) => (Sweep::Greedy, greedy),
                    None => (sweep, order),
                }
            }
            // Every sweep is too wide: a greedy order may not be (the
            // giraffe on 9x9: sweeps of 38 squares).
            None => (
                Sweep::Greedy,
                greedy_order(&neighbours, &ranks, f64::INFINITY, 1..=MAX_WIDTH).ok_or(narrowest)?,
            ),
        };
        let mut plan = Plan::new(sweep, order, neighbours);
        plan.symmetries = crate::model::Symmetries::of_board(board, g)
            .elements()
            .iter()
            .filter(|p| p.iter().enumerate().any(|(s, &t)| s as u32 != t))
            .cloned()
            .collect();
        Ok(plan)
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

    /// The cheapest greedy order whose widest frontier is one square wider
    /// than this plan's, as a plan with the same symmetries (None when
    /// there is none, or it would be wider than [`MAX_WIDTH`]). Its states
    /// can be fewer: on the knight's boards four squares across, orders of
    /// 10 squares that pass the far corners early hold a quarter of the
    /// states of the narrowest, of 9 (`pilot`).
    pub fn wider(&self, board: &Board) -> Option<Plan> {
        let w = self.width + 1;
        if w > MAX_WIDTH {
            return None;
        }
        let order = greedy_order(&self.neighbours, &tie_ranks(board), f64::INFINITY, w..=w)?;
        let mut plan = Plan::new(Sweep::Greedy, order, self.neighbours.clone());
        plan.symmetries = self.symmetries.clone();
        Some(plan)
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

/// A rough cost of a sweep with this profile: states grow about 5.6 times
/// per frontier square (BENCHMARKS.md, the fit of the states).
pub fn cost(profile: &[usize]) -> f64 {
    profile.iter().map(|&w| GROWTH.powi(w as i32)).sum()
}

const GROWTH: f64 = 5.6;

/// Each square's place in the order that breaks the greedy orders' last
/// ties: rank by rank on a board at least as wide as tall, file by file on
/// a taller one. A board and its turn then get orders that are turns of
/// each other, and so count with as many states (5x8 open held 737,596
/// where 8x5 held 651,482).
pub fn tie_ranks(board: &Board) -> Vec<u32> {
    let (w, h) = (board.width(), board.height());
    (0..board.len() as u32)
        .map(|s| {
            let c = board.cell(s);
            if h > w { c.x * h + c.y } else { c.y * w + c.x }
        })
        .collect()
}

/// The greedy orders are tried on boards of at most this many squares, from
/// at most [`GREEDY_STARTS`] first squares spread over the board.
const GREEDY_SQUARES: usize = 400;
const GREEDY_STARTS: usize = 64;

/// The cheapest greedy order (see the module docs) whose [`cost`] is below
/// `below` and whose widest frontier (with the square being taken) holds a
/// number of squares in `widths`, if any; ties are broken by the least of
/// `ranks` (one per square, all different: [`tie_ranks`]).
pub fn greedy_order(
    neighbours: &[Vec<u32>],
    ranks: &[u32],
    below: f64,
    widths: std::ops::RangeInclusive<usize>,
) -> Option<Vec<u32>> {
    let n = neighbours.len();
    if !(2..=GREEDY_SQUARES).contains(&n) || ranks.len() != n {
        return None;
    }
    let mut by_rank: Vec<usize> = (0..n).collect();
    by_rank.sort_by_key(|&u| ranks[u]);
    let step = n.div_ceil(GREEDY_STARTS).max(1);
    let mut best: Option<(f64, Vec<u32>)> = None;
    let mut g = Greedy::new(n);
    for &start in by_rank.iter().step_by(step) {
        let bound = best.as_ref().map_or(below, |b| b.0.min(below));
        let widest = (*widths.end()).min(MAX_WIDTH);
        if let Some((c, w)) = g.grow(neighbours, &by_rank, ranks, start, bound, widest)
            && w >= *widths.start()
        {
            best = Some((c, g.order.clone()));
        }
    }
    best.map(|b| b.1)
}

/// The working space of the greedy orders.
struct Greedy {
    order: Vec<u32>,
    taken: Vec<bool>,
    /// Neighbours not yet taken, per square.
    left: Vec<u32>,
    in_front: Vec<bool>,
    front: Vec<u32>,
    /// Untaken squares next to a taken one, and whether each is listed.
    near: Vec<u32>,
    listed: Vec<bool>,
}

impl Greedy {
    fn new(n: usize) -> Greedy {
        Greedy {
            order: Vec::with_capacity(n),
            taken: vec![false; n],
            left: vec![0; n],
            in_front: vec![false; n],
            front: Vec::new(),
            near: Vec::new(),
            listed: vec![false; n],
        }
    }

    /// The greedy order from `start` into `self.order`, its cost and its
    /// widest frontier, or None as soon as its cost reaches `bound` or its
    /// frontier exceeds `widest` squares.
    fn grow(
        &mut self,
        nb: &[Vec<u32>],
        by_rank: &[usize],
        ranks: &[u32],
        start: usize,
        bound: f64,
        widest: usize,
    ) -> Option<(f64, usize)> {
        let n = nb.len();
        self.order.clear();
        self.taken.fill(false);
        self.in_front.fill(false);
        self.listed.fill(false);
        self.front.clear();
        self.near.clear();
        for (u, l) in self.left.iter_mut().enumerate() {
            *l = nb[u].len() as u32;
        }
        let mut total = 0.0;
        let mut most = 0;
        let mut next = start;
        loop {
            // Take `next`.
            let v = next;
            self.taken[v] = true;
            self.order.push(v as u32);
            for &w in &nb[v] {
                let w = w as usize;
                self.left[w] -= 1;
                if !self.taken[w] && !self.listed[w] {
                    self.listed[w] = true;
                    self.near.push(w as u32);
                }
            }
            let width = self.front.len() + 1;
            if width > widest {
                return None;
            }
            most = most.max(width);
            total += GROWTH.powi(width as i32);
            if total >= bound {
                return None;
            }
            if self.left[v] > 0 {
                self.in_front[v] = true;
                self.front.push(v as u32);
            }
            let (front, in_front, left) = (&mut self.front, &mut self.in_front, &self.left);
            front.retain(|&u| {
                let stays = left[u as usize] > 0;
                in_front[u as usize] = stays;
                stays
            });
            if self.order.len() == n {
                return Some((total, most));
            }
            let taken = &self.taken;
            self.near.retain(|&w| !taken[w as usize]);
            // The next square: the fewest in the frontier after it, then
            // the most moves to the frontier, then the fewest moves left,
            // then the least rank.
            let mut best: Option<((usize, i32, u32, u32), usize)> = None;
            for &w in &self.near {
                let w = w as usize;
                let (mut retire, mut conn) = (0, 0);
                for &u in &nb[w] {
                    let u = u as usize;
                    if self.in_front[u] {
                        conn += 1;
                        if self.left[u] == 1 {
                            retire += 1;
                        }
                    }
                }
                let size = self.front.len() - retire + usize::from(self.left[w] > 0);
                let key = (size, -conn, self.left[w], ranks[w]);
                if best.is_none_or(|(k, _)| key < k) {
                    best = Some((key, w));
                }
            }
            next = match best {
                Some((_, w)) => w,
                // Nothing next to the squares taken: the least rank left.
                None => by_rank.iter().copied().find(|&u| !self.taken[u])?,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::halt::Never;
    use crate::model::{Cell, Piece};

    /// The plan's order of the knight's squares on a `w` x `h` board.
    fn order(w: u32, h: u32) -> (Board, Vec<u32>) {
        let board = Board::rectangle(w, h);
        let Ok(g) = MoveGraph::build(&board, &Piece::leaper(1, 2, 1), &Never);
        let Some(plan) = Plan::best(&board, &g) else {
            panic!("no plan for {w}x{h}");
        };
        let order = plan.steps.iter().map(|s| s.vertex).collect();
        (board, order)
    }

    #[test]
    fn a_board_and_its_turn_get_turned_orders() {
        for (w, h) in [(8, 5), (10, 4), (9, 4), (7, 5), (6, 5), (12, 3)] {
            let (wide, a) = order(w, h);
            let (tall, b) = order(h, w);
            let turned: Vec<u32> = a
                .iter()
                .map(|&s| {
                    let c = wide.cell(s);
                    tall.square_at(Cell::new(c.y, c.x)).unwrap_or(u32::MAX)
                })
                .collect();
            assert_eq!(turned, b, "{w}x{h} and {h}x{w}");
        }
    }
}
