//! The counting search for boards of at most 64 squares: the rules of
//! `search` (proved there) with every set of squares a 64-bit mask, and the
//! counters `inh` and `outr` held *bit-sliced* — plane `i` holds bit `i` of
//! every square's counter — so that taking one off the counters of a whole
//! set of squares is a handful of word operations, and "which squares have
//! a count of 0, of 1, of at most 1" are masks. A node's state is a few words
//! and lives on the stack, so stepping back is just popping it.

use super::search::{MEMO_MAX, Memo, PARTS_MIN, Tables};
use crate::halt::{Cadence, Halt};

/// Planes of a counter: enough for 63, the most moves into a square of a
/// 64-square board.
const PLANES: usize = 6;

/// One small counter per square, bit-sliced.
#[derive(Clone, Copy, Default)]
struct Counts([u64; PLANES]);

impl Counts {
    fn new(n: usize, count: impl Fn(usize) -> u32) -> Counts {
        let mut c = Counts::default();
        for s in 0..n {
            let v = count(s);
            for (i, plane) in c.0.iter_mut().enumerate() {
                if v >> i & 1 == 1 {
                    *plane |= 1 << s;
                }
            }
        }
        c
    }

    /// Takes one off the counter of every square in `m` (binary subtraction
    /// with a borrow per square, all squares at once). Counters that were 0
    /// wrap; only squares outside `R` can be there, and their counters are
    /// never read again.
    #[inline]
    fn minus(self, m: u64) -> Counts {
        let mut c = self.0;
        let mut borrow = m;
        for plane in &mut c {
            let old = *plane;
            *plane = old ^ borrow;
            borrow &= !old;
        }
        Counts(c)
    }

    /// Squares whose counter is at most 1.
    #[inline]
    fn at_most_one(&self) -> u64 {
        !(self.0[1] | self.0[2] | self.0[3] | self.0[4] | self.0[5])
    }

    /// Squares whose counter is 0.
    #[inline]
    fn zero(&self) -> u64 {
        !self.0[0] & self.at_most_one()
    }

    /// Squares whose counter is 1.
    #[inline]
    fn one(&self) -> u64 {
        self.0[0] & self.at_most_one()
    }
}

/// A node on the stack: head, unvisited squares, counters, the moves still
/// to try, and the count before it (for the cache).
struct Node {
    rest: u64,
    inh: Counts,
    outr: Counts,
    head: u32,
    moves: u64,
    base: u128,
    cached: bool,
}

/// A task's end class as masks: `E`, and the ends that count twice.
#[derive(Clone, Copy)]
struct Ends {
    all: u64,
    double: u64,
}

impl Ends {
    /// What the tours ending on the squares of `m` count for.
    #[inline]
    fn weight(self, m: u64) -> u64 {
        u64::from((m & self.all).count_ones() + (m & self.double).count_ones())
    }
}

/// A node's verdict: counted outright (0 when dead), or these moves to try.
enum Eval {
    Count(u64),
    Moves(u64),
}

/// No previous head: the node is a task's first.
const ROOT: u32 = u32::MAX;

/// The rules at a node with head `h` and unvisited squares `rest`, reached
/// by a move from `prev` (or [`ROOT`]).
#[inline]
fn eval<const DIRECTED: bool>(
    t: &Tables,
    ends: Ends,
    prev: u32,
    h: u32,
    rest: u64,
    inh: &Counts,
    outr: &Counts,
) -> Eval {
    let rules = t.rules;
    let succ = t.succ_mask[h as usize] & rest;
    match rest.count_ones() {
        0 => return Eval::Count(ends.weight(1 << h)),
        1 => return Eval::Count(ends.weight(succ)),
        _ => {}
    }
    if rules.entry && rest & inh.zero() != 0 {
        return Eval::Count(0);
    }
    let ends_left = rest & ends.all;
    let last = rest
        & if DIRECTED {
            outr.zero()
        } else {
            inh.at_most_one()
        };
    if rules.ends && (last.count_ones() > 1 || last & !ends.all != 0 || ends_left == 0) {
        return Eval::Count(0);
    }
    if rules.parts && rest.count_ones() >= PARTS_MIN {
        let whole = DIRECTED || prev == ROOT;
        let ok = if whole {
            t.reaches_all(h, rest)
        } else {
            still_connected(t, prev, h, rest)
        };
        if !ok {
            return Eval::Count(0);
        }
    }
    let mut moves = succ;
    if rules.entry {
        let forced = moves & inh.one();
        if forced.count_ones() > 1 {
            return Eval::Count(0);
        }
        if forced != 0 {
            moves = forced;
        }
    }
    if rules.ends {
        moves &= !last;
        if ends_left.count_ones() == 1 {
            moves &= !ends_left;
        }
    }
    Eval::Moves(moves)
}

/// The parts rule at a child, when every move can be made back. The parent
/// passed it (it had at least as many unvisited squares, so it was checked,
/// or it was a task's first node, checked whole), so `C = R ∪ {h} ∪ {prev}`
/// was connected; now `C` has lost `prev`. Removing one square from a
/// connected graph leaves its other squares connected exactly when the
/// squares that were joined to it still reach each other — every other path
/// can be rerouted through them. So flood from `h` (one of them) until all
/// are reached.
#[inline]
fn still_connected(t: &Tables, prev: u32, h: u32, rest: u64) -> bool {
    let c = rest | 1 << h;
    let need = t.succ_mask[prev as usize] & c;
    if need & need.wrapping_sub(1) == 0 {
        return true;
    }
    let mut reach = 1u64 << h;
    let mut frontier = reach;
    while frontier != 0 {
        if need & !reach == 0 {
            return true;
        }
        let mut next = 0u64;
        let mut f = frontier;
        while f != 0 {
            next |= t.succ_mask[f.trailing_zeros() as usize];
            f &= f - 1;
        }
        frontier = next & c & !reach;
        reach |= frontier;
    }
    need & !reach == 0
}

/// Counts the tours that extend `prefix` (a path of distinct squares along
/// moves); like `search::count_from`.
pub(super) fn count_prefix<H: Halt>(
    t: &Tables,
    class: usize,
    prefix: &[u32],
    memo: &Memo,
    nodes: &mut u64,
    cadence: &mut Cadence,
    halt: &H,
) -> Result<u128, u128> {
    if t.sym {
        run::<false, H>(t, class, prefix, memo, nodes, cadence, halt)
    } else {
        run::<true, H>(t, class, prefix, memo, nodes, cadence, halt)
    }
}

#[allow(clippy::too_many_arguments)]
fn run<const DIRECTED: bool, H: Halt>(
    t: &Tables,
    class: usize,
    prefix: &[u32],
    memo: &Memo,
    nodes: &mut u64,
    cadence: &mut Cadence,
    halt: &H,
) -> Result<u128, u128> {
    let Some(&head) = prefix.last() else {
        return Ok(0);
    };
    let ends = Ends {
        all: t.end_masks[class],
        double: t.double_masks[class],
    };
    // The cache key's head carries the end class: counts depend on both.
    let tag = 64 * class as u32;
    let rest = prefix.iter().fold(t.all_mask, |m, &s| m & !(1 << s));
    let open = rest | 1 << head;
    let inh = Counts::new(t.n, |w| (t.pred_mask[w] & open).count_ones());
    let outr = Counts::new(t.n, |w| (t.succ_mask[w] & rest).count_ones());
    let cacheable =
        |rest: u64| t.rules.memo && (t.memo_min..=MEMO_MAX).contains(&rest.count_ones());
    let mut stack: Vec<Node> = Vec::with_capacity(t.n + 1);
    match eval::<DIRECTED>(t, ends, ROOT, head, rest, &inh, &outr) {
        Eval::Count(c) => return Ok(u128::from(c)),
        Eval::Moves(moves) => stack.push(Node {
            rest,
            inh,
            outr,
            head,
            moves,
            base: 0,
            cached: cacheable(rest),
        }),
    }
    let mut total: u128 = 0;
    while let Some(top) = stack.last_mut() {
        if top.moves == 0 {
            if top.cached
                && let Ok(c) = u64::try_from(total - top.base)
            {
                memo.put((top.rest, top.head + tag), c);
            }
            stack.pop();
            continue;
        }
        let to = top.moves.trailing_zeros();
        let top_head = top.head;
        top.moves &= top.moves - 1;
        let rest = top.rest & !(1 << to);
        // The old head leaves R ∪ {head}; `to` leaves R.
        let inh = top.inh.minus(t.succ_mask[top.head as usize]);
        let outr = if DIRECTED {
            top.outr.minus(t.pred_mask[to as usize])
        } else {
            top.outr
        };
        *nodes += 1;
        if cadence.tick(halt, *nodes).is_err() {
            return Err(total);
        }
        match eval::<DIRECTED>(t, ends, top_head, to, rest, &inh, &outr) {
            Eval::Count(c) => total += u128::from(c),
            Eval::Moves(moves) => {
                let cached = cacheable(rest);
                if cached && let Some(c) = memo.get((rest, to + tag)) {
                    total += u128::from(c);
                    continue;
                }
                if moves != 0 {
                    stack.push(Node {
                        rest,
                        inh,
                        outr,
                        head: to,
                        moves,
                        base: total,
                        cached,
                    });
                }
            }
        }
    }
    Ok(total)
}
