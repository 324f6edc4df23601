//! What the magic search prepares once for a task: the moves out of and
//! into each square, the lines and their sums, the squares and steps the
//! clues (and a fixed start or end) fix, the distances between squares,
//! the colours of a bipartite move graph, and the symmetry's images.

use std::collections::VecDeque;

use crate::model::magic::Lines;
use crate::model::symmetry::square_maps;
use crate::model::{Magic, TourSymmetry};
use crate::solve::Task;

/// A square or step not known, or a distance too far to matter.
pub(super) const NONE: u32 = u32::MAX;

/// Boards up to this many squares keep the distance between every two
/// squares (a byte each): it bounds how far a run's end may be from a
/// square that must be reached by a given step.
const DISTANCES_UP_TO: usize = 1024;

/// A distance too far to keep (and the distance of an unreachable square).
pub(super) const FAR: u8 = u8::MAX;

/// How the symmetry of a task ties its steps together.
#[derive(Clone, Debug)]
pub(super) enum Tie {
    /// An open tour: the image of step `k` (from 0) is step `n − 1 − k`,
    /// placed with it.
    Ends(Vec<u32>),
    /// A closed tour: the image of each of its moves is one of its moves.
    /// The images and the inverse images of the squares.
    Moves(Vec<u32>, Vec<u32>),
}

/// A list of lists, flat.
#[derive(Clone, Debug, Default)]
pub(super) struct Flat {
    start: Vec<u32>,
    items: Vec<u32>,
}

impl Flat {
    fn new(lists: impl Iterator<Item = Vec<u32>>) -> Flat {
        let mut f = Flat {
            start: vec![0],
            items: Vec::new(),
        };
        for l in lists {
            f.items.extend_from_slice(&l);
            f.start.push(f.items.len() as u32);
        }
        f
    }

    /// List `i`.
    #[inline(always)]
    pub(super) fn of(&self, i: usize) -> &[u32] {
        &self.items[self.start[i] as usize..self.start[i + 1] as usize]
    }
}

/// A restriction a search for one tour tries in turns with the complete
/// search: the steps cut into `blocks` runs of `block` steps, and every
/// line holding the same share of each run's steps (its length over
/// `blocks`: two of each quarter's on every rank and file of 8x8). Many
/// magic tours are so balanced, the knight's of 8x8 among them; the
/// restriction brackets a line's sum block by block from its first steps,
/// where the sums alone bind only once lines fill. It is never what says
/// there is no tour.
#[derive(Clone, Debug)]
pub(super) struct Balance {
    /// Steps a block, and blocks.
    pub(super) block: usize,
    pub(super) blocks: usize,
    /// Each line's share of every block.
    pub(super) share: Vec<u32>,
}

impl Balance {
    /// The balance of a plan whose lines' lengths are `lengths`: where all
    /// are one even length from 4 on (a square board), blocks that give
    /// every line two steps of each; else none. (Ranks and files of
    /// different lengths were tried with halves, 12x4 for the king, and
    /// found tours later than the annealing.)
    fn of(lengths: &[u32], n: usize) -> Option<Balance> {
        let &length = lengths.first()?;
        if length < 4 || length % 2 != 0 || lengths.iter().any(|&l| l != length) {
            return None;
        }
        let blocks = (length / 2) as usize;
        Some(Balance {
            block: n / blocks,
            blocks,
            share: vec![2; lengths.len()],
        })
    }
}

/// The task, prepared for the magic search.
pub(super) struct Plan {
    /// Squares.
    pub(super) n: usize,
    /// The tour is closed.
    pub(super) closed: bool,
    /// Every move can be made back.
    pub(super) undirected: bool,
    /// The moves out of each square, and into it.
    pub(super) out: Flat,
    pub(super) into: Flat,
    /// The squares next to each square either way (undirected graphs).
    pub(super) near: Flat,
    /// The lines each square is on, and each line's sum (steps from 1).
    pub(super) lines_of: Flat,
    pub(super) target: Vec<i64>,

    /// The square each step (from 0) is fixed on, or `NONE`; and the step
    /// fixed on each square, or `NONE`.
    pub(super) fixed: Vec<u32>,
    pub(super) clue_of: Vec<u32>,
    /// For each step, the first fixed step at or after it, and the last at
    /// or before it (`NONE`: none).
    pub(super) next_fixed: Vec<u32>,
    pub(super) prev_fixed: Vec<u32>,
    /// The moves from every square to every other (`dist[a * n + b]`, at
    /// most [`FAR`]), on boards small enough.
    pub(super) dist: Option<Vec<u8>>,
    /// Each square's colour, when the moves make a bipartite graph.
    pub(super) colour: Option<Vec<u8>>,
    /// The symmetry, if the task asks for one.
    pub(super) tie: Option<Tie>,
    /// The balance a search for one tour may try, where the board's lines
    /// allow one and no clue, fixed end or symmetry is asked for.
    pub(super) balance: Option<Balance>,
}

impl Plan {
    /// The plan of `task`, which asks for `magic` sums on a full board.
    pub(super) fn new(task: &Task<'_>, magic: Magic) -> Plan {
        let g = task.graph;
        let n = g.len();
        let out = Flat::new((0..n as u32).map(|s| g.neighbours(s).collect()));
        let mut into_lists = vec![Vec::new(); n];
        for s in 0..n as u32 {
            for t in g.neighbours(s) {
                into_lists[t as usize].push(s);
            }
        }
        let near = Flat::new((0..n).map(|s| {
            let mut l: Vec<u32> = out.of(s).to_vec();
            l.extend_from_slice(&into_lists[s]);
            l.sort_unstable();
            l.dedup();
            l
        }));
        let into = Flat::new(into_lists.into_iter());
        let lines = Lines::new(task.board, magic);
        let lines_of = Flat::new(lines.of_square.iter().cloned());
        let target: Vec<i64> = lines.target.iter().map(|&t| t as i64).collect();
        let mut fixed = vec![NONE; n];
        for &(step, s) in &task.constraints.clues {
            if let Some(f) = fixed.get_mut(step as usize - 1) {
                *f = s;
            }
        }
        if let (Some(s), Some(f)) = (task.goal.start, fixed.first_mut()) {
            *f = s;
        }
        if !task.goal.closed
            && let (Some(e), Some(f)) = (task.goal.end, fixed.last_mut())
        {
            *f = e;
        }
        let mut clue_of = vec![NONE; n];
        for (k, &s) in fixed.iter().enumerate() {
            if s != NONE {
                clue_of[s as usize] = k as u32;
            }
        }
        let mut next_fixed = vec![NONE; n];
        let mut prev_fixed = vec![NONE; n];
        let mut next = NONE;
        for k in (0..n).rev() {
            if fixed[k] != NONE {
                next = k as u32;
            }
            next_fixed[k] = next;
        }
        let mut prev = NONE;
        for k in 0..n {
            if fixed[k] != NONE {
                prev = k as u32;
            }
            prev_fixed[k] = prev;
        }
        let dist = (n <= DISTANCES_UP_TO).then(|| distances(&out, n));
        let colour = colours(&near, n);
        let tie = task.constraints.symmetry.map(|sym| tie(task, sym));
        let mut lengths = vec![0u32; target.len()];
        for s in 0..n {
            for &l in lines_of.of(s) {
                lengths[l as usize] += 1;
            }
        }
        let free = fixed.iter().all(|&f| f == NONE) && tie.is_none();
        let balance = free.then(|| Balance::of(&lengths, n)).flatten();
        Plan {
            n,
            closed: task.goal.closed,
            undirected: g.is_symmetric(),
            out,
            into,
            near,
            lines_of,
            target,
            fixed,
            clue_of,
            next_fixed,
            prev_fixed,
            dist,
            colour,
            tie,
            balance,
        }
    }

    /// Whether a path of `steps` moves can go from `a` to `b`: near enough,
    /// and of the right parity on a bipartite move graph.
    #[inline(always)]
    pub(super) fn reach(&self, a: u32, b: u32, steps: usize) -> bool {
        if let Some(c) = &self.colour
            && ((c[a as usize] ^ c[b as usize]) as usize) != steps % 2
        {
            return false;
        }
        match &self.dist {
            Some(d) => {
                let d = d[a as usize * self.n + b as usize];
                // A distance kept as FAR may be anything from FAR on.
                d == FAR && steps >= FAR as usize || (d as usize) <= steps
            }
            None => true,
        }
    }

    /// Whether `s` has a move to `t`.
    #[inline(always)]
    pub(super) fn moves(&self, s: u32, t: u32) -> bool {
        self.out.of(s as usize).contains(&t)
    }

    /// Whether square `s` may take step `k`: the step's fixed square, or
    /// any square no step is fixed on when the step is free.
    #[inline(always)]
    pub(super) fn allowed(&self, s: u32, k: usize) -> bool {
        match self.fixed[k] {
            NONE => self.clue_of[s as usize] == NONE,
            f => f == s,
        }
    }
}

/// The moves from every square to every other, at most [`FAR`]:
/// a breadth-first search from each.
fn distances(out: &Flat, n: usize) -> Vec<u8> {
    let mut d = vec![FAR; n * n];
    let mut queue = VecDeque::new();
    for a in 0..n {
        let row = &mut d[a * n..(a + 1) * n];
        row[a] = 0;
        queue.clear();
        queue.push_back(a as u32);
        while let Some(v) = queue.pop_front() {
            let dv = row[v as usize];
            if dv >= FAR - 1 {
                continue;
            }
            for &t in out.of(v as usize) {
                if row[t as usize] == FAR {
                    row[t as usize] = dv + 1;
                    queue.push_back(t);
                }
            }
        }
    }
    d
}

/// Each square's colour when the moves (either way round) make a bipartite
/// graph, else None.
fn colours(near: &Flat, n: usize) -> Option<Vec<u8>> {
    let mut c = vec![u8::MAX; n];
    let mut queue = VecDeque::new();
    for root in 0..n {
        if c[root] != u8::MAX {
            continue;
        }
        c[root] = 0;
        queue.push_back(root as u32);
        while let Some(v) = queue.pop_front() {
            let cv = c[v as usize];
            for &u in near.of(v as usize) {
                match c[u as usize] {
                    u8::MAX => {
                        c[u as usize] = cv ^ 1;
                        queue.push_back(u);
                    }
                    cu if cu == cv => return None,
                    _ => {}
                }
            }
        }
    }
    Some(c)
}

/// How `sym` ties the steps of the task's tours together.
fn tie(task: &Task<'_>, sym: TourSymmetry) -> Tie {
    let maps = square_maps(task.board, &[sym.transform()]);
    let image = maps.into_iter().next().unwrap_or_default();
    if task.goal.closed {
        let mut inverse = vec![0; image.len()];
        for (s, &t) in image.iter().enumerate() {
            inverse[t as usize] = s as u32;
        }
        Tie::Moves(image, inverse)
    } else {
        Tie::Ends(image)
    }
}
