//! The counting search for boards of at most 64 squares: the rules of
//! `search` (proved there) with every set of squares a 64-bit mask, and the
//! counters `inh` and `outr` held *bit-sliced* — plane `i` holds bit `i` of
//! every square's counter — so that taking one off the counters of a whole
//! set of squares is a handful of word operations, and "which squares have
//! a count of 0, of 1, of at most 1" are masks. A node's state is a few words
//! and lives on the stack, so stepping back is just popping it.
//!
//! The rules run by the [driver](super::driver) in both modes: counting,
//! and *path mode*, the search `Backtrack` runs on these boards: see
//! [`BitRules`].

use super::aim::Aim;
use super::driver::{Rules, Sofar, Verdict};
use super::event::Why;
use super::memo::Memo;
use super::tables::{MEMO_MAX, PARTS_MIN, Tables};

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

    /// Squares whose counter is 2.
    #[inline]
    fn two(&self) -> u64 {
        !self.0[0] & self.0[1] & !(self.0[2] | self.0[3] | self.0[4] | self.0[5])
    }
}

/// A node on the driver's stack: head, unvisited squares, counters, the
/// moves still to try, and the count before it (for the cache).
#[derive(Default)]
pub struct Node {
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

/// A node's verdict: counted outright (0 when dead), or these moves to try;
/// when the reason is asked for, a dead node with its reason.
enum Eval {
    Count(u64),
    Moves(u64),
    Dead(Why),
}

/// Returns from [`eval`] with a dead node: its reason when `WHY` asks for
/// it (the reason is not even worked out otherwise), else a count of 0.
macro_rules! dead {
    ($why:expr) => {
        return if WHY {
            Eval::Dead($why)
        } else {
            Eval::Count(0)
        }
    };
}

/// The lowest square of a mask.
#[inline]
fn low(m: u64) -> u32 {
    m.trailing_zeros()
}

/// The second lowest square of a mask.
#[inline]
fn second(m: u64) -> u32 {
    (m & m.wrapping_sub(1)).trailing_zeros()
}

/// No previous head: the node is a task's first.
const ROOT: u32 = u32::MAX;

/// The rules at a node with head `h` and unvisited squares `rest`, reached
/// by a move from `prev` (or [`ROOT`]). With `PATHS` an ending of one
/// square is not counted outright: its move is returned, if it can end a
/// tour, so that the last square is entered like every other. With `WHY` a
/// dead node is [`Eval::Dead`] with its reason, and so is a node whose
/// every move the rules cut (the search counts it as no tour either way).
#[inline]
#[allow(clippy::too_many_arguments)]
fn eval<const DIRECTED: bool, const PATHS: bool, const WHY: bool>(
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
    let r = rest.count_ones();
    // When every move changes class, the walk ends on the class the
    // number of moves left gives.
    let ends = match t.classes {
        Some(c) if rules.ends => {
            let class = c[((c[1] >> h) as usize & 1) ^ (r as usize & 1)];
            Ends {
                all: ends.all & class,
                double: ends.double & class,
            }
        }
        _ => ends,
    };
    match r {
        0 if WHY && ends.weight(1 << h) == 0 => dead!(Why::WrongEnd),
        0 => return Eval::Count(ends.weight(1 << h)),
        1 if WHY && succ == 0 => dead!(Why::NoMoves),
        1 if WHY && succ & ends.all == 0 => dead!(Why::LastNotEnd(low(succ))),
        1 if PATHS => return Eval::Moves(succ & ends.all),
        1 => return Eval::Count(ends.weight(succ)),
        _ => {}
    }
    if rules.entry && rest & inh.zero() != 0 {
        dead!(Why::NoEntry(low(rest & inh.zero())));
    }
    let ends_left = rest & ends.all;
    let last = rest
        & if DIRECTED {
            outr.zero()
        } else {
            inh.at_most_one()
        };
    if rules.ends && (last.count_ones() > 1 || last & !ends.all != 0 || ends_left == 0) {
        dead!(if last.count_ones() > 1 {
            Why::TwoLast(low(last), second(last))
        } else if last & !ends.all != 0 {
            Why::LastNotEnd(low(last & !ends.all))
        } else {
            Why::NoEnd
        });
    }
    if rules.parts && r >= PARTS_MIN {
        let whole = DIRECTED || prev == ROOT;
        let ok = if whole {
            t.reaches_all(h, rest)
        } else {
            still_connected(t, prev, h, rest)
        };
        if !ok {
            dead!(Why::Split(low(rest & !t.reach(h, rest))));
        }
    }
    let mut moves = succ;
    if WHY && moves == 0 {
        dead!(Why::NoMoves);
    }
    if rules.entry {
        let forced = moves & inh.one();
        if forced.count_ones() > 1 {
            dead!(Why::TwoForced(low(forced), second(forced)));
        }
        if forced != 0 {
            moves = forced;
        }
    }
    if rules.ends {
        let before = moves;
        moves &= !last;
        if ends_left.count_ones() == 1 {
            moves &= !ends_left;
        }
        if WHY && moves == 0 {
            dead!(Why::OnlyLast(low(before)));
        }
    }
    if !DIRECTED && rules.pairs {
        match pairs(t, ends, h, rest, inh, last) {
            Pairs::Dead(w) => dead!(Why::Pairs(w)),
            Pairs::Next(m) => {
                let before = moves;
                moves &= m;
                if WHY && moves == 0 {
                    dead!(Why::Pairs(low(before)));
                }
            }
            Pairs::Free => {}
        }
    }
    Eval::Moves(moves)
}

/// What the pairs rule says of a node.
enum Pairs {
    /// No tour goes on from here: too many squares with two ways in are
    /// joined to this one.
    Dead(u32),
    /// The next square is one of these.
    Next(u64),
    /// Nothing.
    Free,
}

/// The pairs rule, when every move can be made back. A square `w` of `R`
/// with exactly two ways in (`inh = 2`: two squares of `R ∪ {h}` joined to
/// it) is either the last square or, as `uᵢ` with `i < r`, joined on the
/// walk to both of them. So:
/// - of the squares with two ways in joined to the head, all but one are
///   last unless the one left is `u₁` (the head has one move left): three
///   or more make the node dead; two mean one is next and the other last
///   (dead if a square of `L` must be last, or neither is an end; the one
///   that is not an end is next); one,
///   `w`, is next when it cannot be last (a square of `L` is, or `w` is not
///   an end);
/// - a square `u` of `R` is on the walk beside at most two squares (one if
///   it is last): four or more of them joined to it leave two to be last,
///   which is dead; three leave one, dead when a square of `L` must be last;
///   two joined to the square of `L` (which is last) leave one, dead.
#[inline]
fn pairs(t: &Tables, ends: Ends, h: u32, rest: u64, inh: &Counts, last: u64) -> Pairs {
    let two = rest & inh.two();
    if two == 0 {
        return Pairs::Free;
    }
    // How many squares of `two` each square of R is joined to: 1, 2, 3, 4+.
    let (mut once, mut twice, mut thrice, mut four) = (0u64, 0u64, 0u64, 0u64);
    let mut m = two;
    while m != 0 {
        let s = t.succ_mask[m.trailing_zeros() as usize] & rest;
        m &= m - 1;
        four |= thrice & s;
        thrice |= twice & s;
        twice |= once & s;
        once |= s;
    }
    if four != 0 {
        return Pairs::Dead(low(four));
    }
    if last != 0 && (thrice != 0 || twice & last != 0) {
        return Pairs::Dead(low(if thrice != 0 { thrice } else { last }));
    }
    let near = t.succ_mask[h as usize] & two;
    match near.count_ones() {
        0 => Pairs::Free,
        1 if last != 0 || near & !ends.all != 0 => Pairs::Next(near),
        1 => Pairs::Free,
        2 if last != 0 || near & ends.all == 0 => Pairs::Dead(h),
        // The one that is not an end, if one is not, must be next.
        2 if near & !ends.all != 0 => Pairs::Next(near & !ends.all),
        2 => Pairs::Next(near),
        _ => Pairs::Dead(h),
    }
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

/// The rules on boards of at most 64 squares, each node's state a few words
/// kept on the driver's stack (so stepping back is popping it). `DIRECTED`:
/// some move cannot be made back; `PATHS`: path mode (moves in the order of
/// [`Aim`], the path kept for the observer).
pub struct BitRules<'t, const DIRECTED: bool, const PATHS: bool> {
    t: &'t Tables<'t>,
    memo: &'t Memo,
    ends: Ends,
    /// The cache key's head carries the end class: counts depend on both.
    tag: u32,
    /// The path: its first squares, and in path mode every square since.
    path: Vec<u32>,
    aim: Aim,
    /// Moves allowed from the first node (symmetry: one of each orbit).
    root_moves: u64,
}

impl<'t, const DIRECTED: bool, const PATHS: bool> BitRules<'t, DIRECTED, PATHS> {
    /// Rules for walks from `prefix` (a path of distinct squares along
    /// moves), counting end class `class`, with the cache `memo`.
    pub fn new(
        t: &'t Tables<'t>,
        memo: &'t Memo,
        class: usize,
        prefix: &[u32],
        aim: Aim,
    ) -> BitRules<'t, DIRECTED, PATHS> {
        let mut path = Vec::with_capacity(if PATHS { t.n } else { prefix.len() });
        path.extend_from_slice(prefix);
        BitRules {
            t,
            memo,
            ends: Ends {
                all: t.end_masks[class],
                double: t.double_masks[class],
            },
            tag: 64 * class as u32,
            path,
            aim,
            root_moves: u64::MAX,
        }
    }

    /// Starts over from `prefix`, counting end class `class` (the driver
    /// restarts with it).
    pub fn reset(&mut self, class: usize, prefix: &[u32]) {
        let t = self.t;
        self.ends = Ends {
            all: t.end_masks[class],
            double: t.double_masks[class],
        };
        self.tag = 64 * class as u32;
        self.path.clear();
        self.path.extend_from_slice(prefix);
    }

    /// Allows only the moves in `m` from the first node (before the first
    /// run).
    pub fn restrict_first_moves(&mut self, m: u64) {
        self.root_moves = m;
    }

    /// Takes the squares of `m` out of `E` from now on (a search for one
    /// tour only; see `general::State::forbid_end`).
    pub fn forbid_ends(&mut self, m: u64) {
        self.ends.all &= !m;
    }

    /// Uses `memo` as the cache from now on.
    pub fn set_memo(&mut self, memo: &'t Memo) {
        self.memo = memo;
    }

    #[inline]
    fn cacheable(&self, rest: u64) -> bool {
        self.t.rules.memo && (self.t.memo_min..=MEMO_MAX).contains(&rest.count_ones())
    }

    /// The next move to try from `node`: in path mode with an order, the
    /// one with the fewest onward moves (on ties a closed tour keeps the
    /// squares next to its start for later, then the lowest square);
    /// otherwise the lowest square.
    #[inline]
    fn pick(&self, node: &Node) -> u32 {
        if !PATHS || !self.aim.ordered {
            return node.moves.trailing_zeros();
        }
        let closers = if self.aim.closed { self.ends.all } else { 0 };
        let mut best = u32::MAX;
        let mut pick = node.moves.trailing_zeros();
        let mut m = node.moves;
        while m != 0 {
            let w = m.trailing_zeros();
            m &= m - 1;
            let onward = (self.t.succ_mask[w as usize] & node.rest & !(1 << w)).count_ones();
            let key = 2 * onward + (closers >> w & 1) as u32;
            if key < best {
                best = key;
                pick = w;
            }
        }
        pick
    }

    /// Why the node the path ends on holds no tour: entered from `parent`
    /// (None: the first node) and settled as a leaf (see
    /// [`Rules::why_leaf`]). The node's counters are worked out again from
    /// the parent's and the rules run once more, naming what they find.
    fn explain(&self, parent: Option<&Node>, tours: u64) -> Why {
        if tours > 0 {
            return Why::Tour;
        }
        let t = self.t;
        let Some(&head) = self.path.last() else {
            return Why::Unsaid;
        };
        let (prev, rest, inh, outr) = match parent {
            Some(node) => (
                node.head,
                node.rest & !(1 << head),
                node.inh.minus(t.succ_mask[node.head as usize]),
                if DIRECTED {
                    node.outr.minus(t.pred_mask[head as usize])
                } else {
                    node.outr
                },
            ),
            None => {
                let rest = self.path.iter().fold(t.all_mask, |m, &s| m & !(1 << s));
                let open = rest | 1 << head;
                (
                    ROOT,
                    rest,
                    Counts::new(t.n, |w| (t.pred_mask[w] & open).count_ones()),
                    Counts::new(t.n, |w| (t.succ_mask[w] & rest).count_ones()),
                )
            }
        };
        match eval::<DIRECTED, PATHS, true>(t, self.ends, prev, head, rest, &inh, &outr) {
            Eval::Dead(why) => why,
            Eval::Count(c) if c > 0 => Why::Tour,
            Eval::Count(_) => Why::Unsaid,
            // The rules let it be: the cache knew it holds no tour.
            Eval::Moves(m) if m != 0 => Why::Cached,
            Eval::Moves(_) => Why::NoMoves,
        }
    }

    /// The node reached by a move from `prev` to the head `head`, with
    /// unvisited squares `rest` and these counters: counted outright or
    /// taken from the cache (its tours), or a branch written into `child`.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn settle(
        &self,
        prev: u32,
        head: u32,
        rest: u64,
        inh: Counts,
        outr: Counts,
        sofar: Sofar,
        child: &mut Node,
    ) -> Option<u64> {
        match eval::<DIRECTED, PATHS, false>(self.t, self.ends, prev, head, rest, &inh, &outr) {
            Eval::Count(c) => Some(c),
            Eval::Dead(_) => Some(0),
            Eval::Moves(moves) => {
                let cached = self.cacheable(rest);
                if cached
                    && let Some(c) = self.memo.get((rest, head + self.tag))
                    // Path mode: a known number of tours is no tour in
                    // hand, so until one is, only "none" is taken.
                    && (!PATHS || c == 0 || sofar.tour)
                {
                    return Some(c);
                }
                if moves == 0 {
                    return Some(0);
                }
                *child = Node {
                    rest,
                    inh,
                    outr,
                    head,
                    moves,
                    base: sofar.total,
                    cached,
                };
                None
            }
        }
    }
}

impl<const DIRECTED: bool, const PATHS: bool> Rules for BitRules<'_, DIRECTED, PATHS> {
    const PATHS: bool = PATHS;
    const IN_PLACE: bool = true;
    type Node = Node;

    fn root(&mut self, sofar: Sofar) -> Verdict<Node> {
        let t = self.t;
        let Some(&head) = self.path.last() else {
            return Verdict::Leaf(0);
        };
        let rest = self.path.iter().fold(t.all_mask, |m, &s| m & !(1 << s));
        let open = rest | 1 << head;
        let inh = Counts::new(t.n, |w| (t.pred_mask[w] & open).count_ones());
        let outr = Counts::new(t.n, |w| (t.succ_mask[w] & rest).count_ones());
        // The first node is not looked up in the cache.
        match eval::<DIRECTED, PATHS, false>(t, self.ends, ROOT, head, rest, &inh, &outr) {
            Eval::Count(c) => Verdict::Leaf(c),
            Eval::Dead(_) => Verdict::Leaf(0),
            Eval::Moves(moves) => Verdict::Branch(Node {
                rest,
                inh,
                outr,
                head,
                moves: moves & self.root_moves,
                base: sofar.total,
                cached: self.cacheable(rest),
            }),
        }
    }

    #[inline(always)]
    fn next(&mut self, node: &mut Node) -> Option<u32> {
        (node.moves != 0).then(|| self.pick(node))
    }

    #[inline(always)]
    fn take(&mut self, node: &mut Node, to: u32) {
        node.moves &= !(1 << to);
    }

    #[inline(always)]
    fn descend(&mut self, node: &Node, to: u32, sofar: Sofar) -> Verdict<Node> {
        let mut child = Node::default();
        match self.descend_into(node, to, sofar, &mut child) {
            Some(c) => Verdict::Leaf(c),
            None => Verdict::Branch(child),
        }
    }

    #[inline(always)]
    fn descend_into(
        &mut self,
        node: &Node,
        to: u32,
        sofar: Sofar,
        child: &mut Node,
    ) -> Option<u64> {
        let t = self.t;
        let rest = node.rest & !(1 << to);
        // The old head leaves R ∪ {head}; `to` leaves R.
        let inh = node.inh.minus(t.succ_mask[node.head as usize]);
        let outr = if DIRECTED {
            node.outr.minus(t.pred_mask[to as usize])
        } else {
            node.outr
        };
        if PATHS {
            self.path.push(to);
        }
        self.settle(node.head, to, rest, inh, outr, sofar, child)
    }

    #[inline(always)]
    fn ascend(&mut self) {
        if PATHS {
            self.path.pop();
        }
    }

    #[inline(always)]
    fn finished(&mut self, node: &Node, total: u128) {
        if node.cached
            && let Ok(c) = u64::try_from(total - node.base)
        {
            self.memo.put((node.rest, node.head + self.tag), c);
        }
    }

    fn path(&self) -> &[u32] {
        &self.path
    }

    fn why_leaf(&self, parent: Option<&Node>, tours: u64) -> Why {
        self.explain(parent, tours)
    }

    fn forbid_end(&mut self, square: u32) {
        self.ends.all &= !(1 << (square & 63));
    }
}
