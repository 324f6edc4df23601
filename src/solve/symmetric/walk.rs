//! The fast way to a half path on a large board: a Warnsdorff walk over the
//! orbits, repaired by twisted Pósa rotations when it gets stuck and closed
//! by them when it ends on the wrong square. It never proves anything; the
//! depth-first search in `search.rs` does.
//!
//! A **twisted rotation**: when the end `p_L` of the half path has a move
//! to `h^a(p_i)`, an image of an earlier square, the path
//! `p_0 … p_i, h^-a(p_L), h^-a(p_L-1), …, h^-a(p_i+1)` is a half path too:
//! the same orbits, the same head, a new end `h^-a(p_i+1)` (with `a = 0`
//! this is the plain rotation). It needs moves that can be made back and a
//! set of kept moves that the symmetry maps onto itself, which the
//! quotients of a two-way move graph are.

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use super::super::backtrack::Searching;
use super::super::{Stats, Stop};
use super::half::{Ends, Quotient};
use crate::halt::Halt;
use crate::search::event::{Change, Event, Observer};

/// Not on the path.
const NONE: u32 = u32::MAX;

/// How many rotations ahead a rotating walk looks before it commits.
const HORIZON: usize = 3;

/// What one walk may spend on rotations before it is given up.
#[derive(Clone, Copy, Debug)]
pub(super) struct Budget {
    /// Rotations left.
    pub rotations: u64,
    /// Squares moved by rotations, left.
    pub work: u64,
}

/// The walk's state: the half path and the index of each orbit on it.
struct Walk<'w> {
    q: &'w Quotient,
    /// The symmetry's powers: `pw[j][s]` is the j-th image of `s`.
    pw: &'w [Vec<u32>],
    path: Vec<u32>,
    /// Index on the path of each orbit, or [`NONE`].
    pos: Vec<u32>,
}

impl Walk<'_> {
    /// Whether `s` has a kept move to an orbit not yet on the path.
    fn has_way_on(&self, s: u32) -> bool {
        self.q
            .moves(s)
            .iter()
            .any(|&t| self.pos[self.q.orbit_of(t) as usize] == NONE)
    }

    /// The rotations open to the end: `(i, a)` for each kept move of the
    /// end to `h^a(path[i])`, except the trivial one back along the path.
    fn pivots(&self, out: &mut Vec<(usize, usize)>) {
        out.clear();
        let last = self.path.len() - 1;
        let end = self.path[last];
        for &w in self.q.moves(end) {
            let i = self.pos[self.q.orbit_of(w) as usize];
            if i == NONE {
                continue;
            }
            let i = i as usize;
            let Some(a) = (0..self.pw.len()).find(|&a| self.pw[a][self.path[i] as usize] == w)
            else {
                continue;
            };
            if i + 1 == last && a == 0 {
                continue;
            }
            out.push((i, a));
        }
    }

    /// Makes the rotation `(i, a)`.
    fn rotate(&mut self, (i, a): (usize, usize)) {
        let k = self.pw.len();
        let back = &self.pw[(k - a) % k];
        let tail = &mut self.path[i + 1..];
        tail.reverse();
        for (j, s) in tail.iter_mut().enumerate() {
            *s = back[*s as usize];
            self.pos[self.q.orbit_of(*s) as usize] = (i + 1 + j) as u32;
        }
    }

    /// The square at position `q` after the pending rotations `v` (each
    /// maps a position `p > i` to `i + 1 + last - p` and its square by
    /// `h^-a`), without moving any square.
    fn virtual_at(&self, v: &[(usize, usize)], q: usize) -> u32 {
        let k = self.pw.len();
        let last = self.path.len() - 1;
        let (mut q, mut twist) = (q, 0);
        for &(i, a) in v.iter().rev() {
            if q > i {
                q = i + 1 + last - q;
                twist = (twist + k - a) % k;
            }
        }
        self.pw[twist][self.path[q] as usize]
    }

    /// The position of orbit `o` after the pending rotations `v`.
    fn virtual_pos(&self, v: &[(usize, usize)], o: u32) -> usize {
        let last = self.path.len() - 1;
        let mut p = self.pos[o as usize] as usize;
        for &(i, _) in v {
            if p > i {
                p = i + 1 + last - p;
            }
        }
        p
    }

    /// The rotations open to the end after the pending rotations `v`.
    fn virtual_pivots(&self, v: &[(usize, usize)], out: &mut Vec<(usize, usize)>) {
        out.clear();
        let last = self.path.len() - 1;
        let end = self.virtual_at(v, last);
        for &w in self.q.moves(end) {
            let o = self.q.orbit_of(w);
            if self.pos[o as usize] == NONE {
                continue;
            }
            let i = self.virtual_pos(v, o);
            let at = self.virtual_at(v, i);
            let Some(a) = (0..self.pw.len()).find(|&a| self.pw[a][at as usize] == w) else {
                continue;
            };
            if !(i + 1 == last && a == 0) {
                out.push((i, a));
            }
        }
    }

    /// Depth-first search over sequences of up to `depth` more rotations
    /// after `v`, keeping in `best` the one whose end has the lowest `key`
    /// (shortest among equals); stops once a key is 0.
    fn look_ahead(
        &self,
        v: &mut Vec<(usize, usize)>,
        depth: usize,
        key: &impl Fn(u32) -> u32,
        best: &mut (u32, Vec<(usize, usize)>),
    ) {
        let mut options = Vec::new();
        self.virtual_pivots(v, &mut options);
        let last = self.path.len() - 1;
        for o in options {
            v.push(o);
            let k = key(self.virtual_at(v, last));
            if k < best.0 || (k == best.0 && v.len() < best.1.len()) {
                best.0 = k;
                best.1.clear();
                best.1.extend_from_slice(v);
            }
            if k > 0 && depth > 1 {
                self.look_ahead(v, depth - 1, key, best);
            }
            v.pop();
            if best.0 == 0 {
                return;
            }
        }
    }

    /// Rotates until `done(end)`. Each step looks [`HORIZON`] rotations
    /// ahead and makes the sequence whose end is done or `score`s lowest,
    /// if that is lower than the current end's; else one random rotation,
    /// to leave a plateau. False when `budget` runs out.
    #[allow(clippy::too_many_arguments)]
    fn rotate_until<O: Observer>(
        &mut self,
        done: impl Fn(&Walk, u32) -> bool,
        score: impl Fn(u32) -> u32,
        budget: &mut Budget,
        rng: &mut ChaCha8Rng,
        run: &mut Searching,
        obs: &mut O,
        stats: &mut Stats,
    ) -> Result<bool, Stop> {
        let mut options = Vec::new();
        let mut pending = Vec::with_capacity(HORIZON);
        loop {
            let end = self.path[self.path.len() - 1];
            if done(self, end) {
                return Ok(true);
            }
            if budget.rotations == 0 {
                return Ok(false);
            }
            if budget.rotations.is_multiple_of(256) {
                run.limits.check()?;
            }
            let key = |e: u32| {
                if done(self, e) {
                    0
                } else {
                    score(e).saturating_add(1)
                }
            };
            let mut best = (key(end), Vec::new());
            pending.clear();
            self.look_ahead(&mut pending, HORIZON, &key, &mut best);
            let plan = if best.1.is_empty() {
                self.pivots(&mut options);
                if options.is_empty() {
                    return Ok(false);
                }
                vec![options[rng.random_range(0..options.len())]]
            } else {
                best.1
            };
            for pick in plan {
                let cost = (self.path.len() - 1 - pick.0) as u64;
                if cost > budget.work || budget.rotations == 0 {
                    return Ok(false);
                }
                budget.work -= cost;
                budget.rotations -= 1;
                self.rotate(pick);
                stats.rotations += 1;
                if O::ACTIVE {
                    obs.event(
                        Event::Rewrite {
                            from: pick.0 + 1,
                            how: Change::Rotation,
                        },
                        &self.path,
                    );
                }
            }
        }
    }
}

/// Breadth-first distances over the kept moves from the squares `from`
/// (u32::MAX where unreached), walked backwards: a square's distance is the
/// number of kept moves from it to one of them. The quotients a walk uses
/// are two-way, so forwards serves.
pub(super) fn distances(q: &Quotient, from: &[bool]) -> Vec<u32> {
    let mut dist = vec![u32::MAX; from.len()];
    let mut queue: std::collections::VecDeque<u32> = std::collections::VecDeque::new();
    for (s, &f) in from.iter().enumerate() {
        if f {
            dist[s] = 0;
            queue.push_back(s as u32);
        }
    }
    while let Some(s) = queue.pop_front() {
        let d = dist[s as usize] + 1;
        for &t in q.moves(s) {
            if dist[t as usize] == u32::MAX {
                dist[t as usize] = d;
                queue.push_back(t);
            }
        }
    }
    dist
}

/// One walk from `ends.head`: a half path ending on a tail square, or None
/// when it got stuck beyond repair within `budget`. `far` is each square's
/// distance to the tail squares (see [`distances`]): among candidates with
/// equally few onward orbits the walk takes the farthest, so it tends to
/// finish near where it must end; the rest of the ties are random.
#[allow(clippy::too_many_arguments)]
pub(super) fn walk<O: Observer>(
    q: &Quotient,
    pw: &[Vec<u32>],
    ends: &Ends<'_>,
    far: &[u32],
    budget: &mut Budget,
    rng: &mut ChaCha8Rng,
    run: &mut Searching,
    obs: &mut O,
    stats: &mut Stats,
) -> Result<Option<Vec<u32>>, Stop> {
    let m = q.orbits();
    let mut w = Walk {
        q,
        pw,
        path: Vec::with_capacity(m),
        pos: vec![NONE; m],
    };
    // Unvisited neighbour orbits of each orbit.
    let mut free: Vec<u32> = (0..m as u32)
        .map(|o| q.neighbours(o).len() as u32)
        .collect();
    let enter = |w: &mut Walk, free: &mut [u32], s: u32| {
        let o = q.orbit_of(s);
        w.pos[o as usize] = w.path.len() as u32;
        w.path.push(s);
        for &p in q.neighbours(o) {
            free[p as usize] -= 1;
        }
    };
    run.tick(stats.nodes)?;
    // An orbit's distance: its nearest square's.
    let mut orbit_far = vec![u32::MAX; m];
    for (s, &d) in far.iter().enumerate() {
        let o = &mut orbit_far[q.orbit_of(s as u32) as usize];
        *o = (*o).min(d);
    }
    enter(&mut w, &mut free, ends.head);
    stats.nodes += 1;
    obs.event(Event::Advance, &w.path);
    loop {
        if w.path.len() == m {
            let tail = ends.tail;
            let ok = w.rotate_until(
                |_, s| tail[s as usize],
                |s| far[s as usize],
                budget,
                rng,
                run,
                obs,
                stats,
            )?;
            return Ok(ok.then_some(w.path));
        }
        let end = w.path[w.path.len() - 1];
        let last = w.path.len() + 1 == m;
        let mut pick = NONE;
        let mut key = (u32::MAX, 0u32, 0u32);
        for &t in q.moves(end) {
            let o = q.orbit_of(t);
            if w.pos[o as usize] != NONE || (!last && ends.last_only == Some(o)) {
                continue;
            }
            let k = (
                free[o as usize],
                u32::MAX - orbit_far[o as usize].min(u32::MAX - 1),
                rng.random::<u32>(),
            );
            if k < key {
                key = k;
                pick = t;
            }
        }
        if pick != NONE {
            run.tick(stats.nodes)?;
            enter(&mut w, &mut free, pick);
            stats.nodes += 1;
            obs.event(Event::Advance, &w.path);
            continue;
        }
        // Stuck: rotate until the end has a way on.
        stats.repairs += 1;
        // Towards the nearest square of an orbit not yet on the path.
        let unvisited: Vec<bool> = (0..q.orbit_len() as u32)
            .map(|s| w.pos[q.orbit_of(s) as usize] == NONE)
            .collect();
        let near = distances(q, &unvisited);
        let ok = w.rotate_until(
            |w, s| w.has_way_on(s),
            |s| near[s as usize],
            budget,
            rng,
            run,
            obs,
            stats,
        )?;
        if !ok {
            return Ok(None);
        }
    }
}
