//! The search on boards of any size: the unvisited set and the counters of
//! the rules (see the [module docs](super)) kept in arrays and brought up to
//! date as the path moves ([`State`]), and the rules the
//! [driver](super::driver) runs over them ([`GeneralRules`]).

use super::aim::Aim;
use super::driver::{Rules, Sofar, Verdict};
use super::event::Why;
use super::memo::Memo;
use super::tables::{MEMO_MAX, PARTS_MIN, Tables};

/// What a node turned out to be.
pub enum Expand {
    /// No tour continues from here.
    Dead,
    /// Counted without going deeper.
    Leaf(u64),
    /// These moves (pushed onto the candidate list) remain to be tried.
    Moves,
}

/// The search state of one worker: the path, `R`, and the counters.
pub struct State<'t> {
    t: &'t Tables<'t>,
    /// The end class's `E` (a copy: a search for one tour may shrink it as
    /// it goes, see [`State::forbid_end`]) and doubled ends.
    is_end: Vec<bool>,
    double: &'t [bool],
    in_r: Vec<bool>,
    inh: Vec<u32>,
    outr: Vec<u32>,
    /// `R` as a bit mask (only when `n ≤ 64`).
    mask: u64,
    r: u32,
    /// Squares of `R` with `inh = 0`.
    nz: u32,
    /// Squares in `L` (must be last), the sum of their numbers (which names
    /// the square when there is one), and how many of them are not in `E`.
    nl: u32,
    lsum: u64,
    bad: u32,
    /// `|E ∩ R|`.
    e_left: u32,
    class: u32,
    pub path: Vec<u32>,
}

impl<'t> State<'t> {
    pub fn new(t: &'t Tables<'t>) -> State<'t> {
        State {
            t,
            is_end: t.ends[0].clone(),
            double: &t.doubles[0],
            in_r: vec![false; t.n],
            inh: vec![0; t.n],
            outr: vec![0; t.n],
            mask: 0,
            r: 0,
            nz: 0,
            nl: 0,
            lsum: 0,
            bad: 0,
            e_left: 0,
            class: 0,
            path: Vec::with_capacity(t.n),
        }
    }

    /// The tables this state searches.
    pub fn tables(&self) -> &'t Tables<'t> {
        self.t
    }

    /// Resets to the path `[start]`, counting tours of end class `class`.
    pub fn reset(&mut self, start: u32, class: usize) {
        let t = self.t;
        self.is_end.clone_from_slice(&t.ends[class]);
        self.double = &t.doubles[class];
        self.class = class as u32;
        self.in_r.fill(true);
        self.in_r[start as usize] = false;
        self.r = t.n as u32 - 1;
        self.mask = if t.small() {
            t.all_mask & !(1u64 << start)
        } else {
            0
        };
        (self.nz, self.nl, self.lsum, self.bad, self.e_left) = (0, 0, 0, 0, 0);
        for w in 0..t.n as u32 {
            // R ∪ {start} is every square.
            self.inh[w as usize] = t.pred(w).len() as u32;
            self.outr[w as usize] = t.succ(w).iter().filter(|&&u| u != start).count() as u32;
        }
        for w in 0..t.n as u32 {
            if w != start {
                self.join_r(w);
            }
        }
        self.path.clear();
        self.path.push(start);
    }

    /// Resets to the path `prefix` (a path of distinct squares along moves).
    pub fn set_prefix(&mut self, prefix: &[u32], class: usize) {
        if let Some((&first, rest)) = prefix.split_first() {
            self.reset(first, class);
            for &s in rest {
                self.enter(s);
            }
        }
    }

    /// Takes `x` out of `E` from now on: no walk found after this may end
    /// there. Only for a search for one tour (a cached count of a larger
    /// `E` would be too high for the smaller one; a cached "no tour" stays
    /// true).
    pub fn forbid_end(&mut self, x: u32) {
        let x = x as usize;
        if !self.is_end[x] {
            return;
        }
        if self.in_r[x] {
            self.e_left -= 1;
            if self.in_l(x as u32) {
                self.bad += 1;
            }
        }
        self.is_end[x] = false;
    }

    /// Whether a walk may end on `w`.
    #[inline]
    pub fn is_end(&self, w: u32) -> bool {
        self.is_end[w as usize]
    }

    /// What a tour ending on `w` counts for: 0 off `E`, 2 on a doubled end.
    #[inline]
    fn end_weight(&self, w: u32) -> u64 {
        u64::from(self.is_end[w as usize]) + u64::from(self.double[w as usize])
    }

    #[inline]
    fn in_l(&self, w: u32) -> bool {
        if self.t.sym {
            self.inh[w as usize] <= 1
        } else {
            self.outr[w as usize] == 0
        }
    }

    #[inline]
    fn add_l(&mut self, w: u32) {
        self.nl += 1;
        self.lsum += u64::from(w);
        self.bad += u32::from(!self.is_end[w as usize]);
    }

    #[inline]
    fn drop_l(&mut self, w: u32) {
        self.nl -= 1;
        self.lsum -= u64::from(w);
        self.bad -= u32::from(!self.is_end[w as usize]);
    }

    /// Books `w`'s contributions as a member of `R` (its counters are current).
    #[inline]
    fn join_r(&mut self, w: u32) {
        if self.in_l(w) {
            self.add_l(w);
        }
        if self.inh[w as usize] == 0 {
            self.nz += 1;
        }
        if self.is_end[w as usize] {
            self.e_left += 1;
        }
    }

    /// Moves the head to `to`, an unvisited target of the head.
    #[inline]
    pub fn enter(&mut self, to: u32) {
        let t = self.t;
        let h = self.path[self.path.len() - 1];
        // `to` leaves R.
        if self.in_l(to) {
            self.drop_l(to);
        }
        if self.inh[to as usize] == 0 {
            self.nz -= 1;
        }
        if self.is_end[to as usize] {
            self.e_left -= 1;
        }
        self.in_r[to as usize] = false;
        self.r -= 1;
        self.mask &= !(1u64 << (to & 63));
        // `h` leaves R ∪ {head}: its targets lose a possible entry.
        for &w in t.succ(h) {
            let c = &mut self.inh[w as usize];
            *c -= 1;
            if self.in_r[w as usize] {
                if *c == 0 {
                    self.nz += 1;
                }
                if t.sym && *c == 1 {
                    self.add_l(w);
                }
            }
        }
        if !t.sym {
            // `to` left R: its predecessors lose a way on.
            for &w in t.pred(to) {
                let c = &mut self.outr[w as usize];
                *c -= 1;
                if *c == 0 && self.in_r[w as usize] {
                    self.add_l(w);
                }
            }
        }
        self.path.push(to);
    }

    /// Undoes the last [`State::enter`].
    #[inline]
    pub fn leave(&mut self) {
        let t = self.t;
        let Some(to) = self.path.pop() else {
            return;
        };
        let h = self.path[self.path.len() - 1];
        if !t.sym {
            for &w in t.pred(to) {
                if self.outr[w as usize] == 0 && self.in_r[w as usize] {
                    self.drop_l(w);
                }
                self.outr[w as usize] += 1;
            }
        }
        for &w in t.succ(h) {
            let c = self.inh[w as usize];
            if self.in_r[w as usize] {
                if c == 0 {
                    self.nz -= 1;
                }
                if t.sym && c == 1 {
                    self.drop_l(w);
                }
            }
            self.inh[w as usize] = c + 1;
        }
        self.in_r[to as usize] = true;
        self.r += 1;
        self.mask |= 1u64 << (to & 63);
        self.join_r(to);
    }

    /// Looks at the node the path ends on: counts it outright, finds it dead,
    /// or pushes its remaining moves onto `out`. With `PATHS` (a search that
    /// shows its path) an ending of one square is not counted outright: the
    /// move to it is pushed, if it can end a tour, so that the tour's last
    /// square is entered like every other.
    #[inline]
    pub fn expand<const PATHS: bool>(&self, out: &mut Vec<u32>) -> Expand {
        let t = self.t;
        let rules = t.rules;
        let h = self.path[self.path.len() - 1];
        match self.r {
            0 => return Expand::Leaf(self.end_weight(h)),
            1 => {
                for &w in t.succ(h) {
                    if self.in_r[w as usize] {
                        if PATHS {
                            if self.is_end[w as usize] {
                                out.push(w);
                            }
                            return Expand::Moves;
                        }
                        return Expand::Leaf(self.end_weight(w));
                    }
                }
                return Expand::Leaf(0);
            }
            _ => {}
        }
        if rules.entry && self.nz > 0 {
            return Expand::Dead;
        }
        if rules.ends && (self.nl > 1 || self.bad > 0 || self.e_left == 0) {
            return Expand::Dead;
        }
        if rules.parts && t.small() && self.r >= PARTS_MIN && !t.reaches_all(h, self.mask) {
            return Expand::Dead;
        }
        let mut forced = u32::MAX;
        if rules.entry {
            for &w in t.succ(h) {
                if self.in_r[w as usize] && self.inh[w as usize] == 1 {
                    if forced != u32::MAX {
                        return Expand::Dead;
                    }
                    forced = w;
                }
            }
        }
        let last = (self.nl == 1).then_some(self.lsum);
        let allowed = |w: u32| {
            !rules.ends
                || (last != Some(u64::from(w)) && !(self.is_end[w as usize] && self.e_left == 1))
        };
        if forced != u32::MAX {
            if allowed(forced) {
                out.push(forced);
            }
        } else {
            for &w in t.succ(h) {
                if self.in_r[w as usize] && allowed(w) {
                    out.push(w);
                }
            }
        }
        Expand::Moves
    }

    /// Why the node the path ends on holds no tour, when its rules say so
    /// ([`State::expand`] again, naming the squares; None when they let it
    /// be). The squares are looked for next to the path's last two squares
    /// first, where a move changes the counters, and only then on the
    /// whole board: this is for searches someone watches.
    pub fn explain(&self) -> Option<Why> {
        let t = self.t;
        let rules = t.rules;
        let h = *self.path.last()?;
        let prev = self.path.len().checked_sub(2).map(|i| self.path[i]);
        match self.r {
            0 => return (self.end_weight(h) == 0).then_some(Why::WrongEnd),
            1 => {
                return match t.succ(h).iter().find(|&&w| self.in_r[w as usize]) {
                    None => Some(Why::NoMoves),
                    Some(&w) if !self.is_end[w as usize] => Some(Why::LastNotEnd(w)),
                    Some(_) => None,
                };
            }
            _ => {}
        }
        // Unvisited squares meeting `test`: first near the path's end, then
        // anywhere.
        let find = |test: &dyn Fn(u32) -> bool, most: usize| -> Vec<u32> {
            let near = prev
                .map(|p| t.succ(p))
                .unwrap_or(&[])
                .iter()
                .chain(t.succ(h))
                .chain(t.pred(h));
            let mut found: Vec<u32> = Vec::new();
            for &w in near {
                if self.in_r[w as usize] && test(w) && !found.contains(&w) {
                    found.push(w);
                }
            }
            if found.len() < most {
                for w in 0..t.n as u32 {
                    if self.in_r[w as usize] && test(w) && !found.contains(&w) {
                        found.push(w);
                        if found.len() >= most {
                            break;
                        }
                    }
                }
            }
            found
        };
        if rules.entry && self.nz > 0 {
            let w = find(&|w| self.inh[w as usize] == 0, 1);
            return Some(Why::NoEntry(w.first().copied().unwrap_or(h)));
        }
        if rules.ends && self.nl > 1 {
            let l = find(&|w| self.in_l(w), 2);
            if let [a, b, ..] = l[..] {
                return Some(Why::TwoLast(a.min(b), a.max(b)));
            }
        }
        if rules.ends && self.bad > 0 {
            return Some(Why::LastNotEnd(self.lsum as u32));
        }
        if rules.ends && self.e_left == 0 {
            return Some(Why::NoEnd);
        }
        if rules.parts && t.small() && self.r >= PARTS_MIN && !t.reaches_all(h, self.mask) {
            let cut = self.mask & !t.reach(h, self.mask);
            return Some(Why::Split(cut.trailing_zeros()));
        }
        let moves: Vec<u32> = t
            .succ(h)
            .iter()
            .copied()
            .filter(|&w| self.in_r[w as usize])
            .collect();
        if moves.is_empty() {
            return Some(Why::NoMoves);
        }
        let forced: Vec<u32> = moves
            .iter()
            .copied()
            .filter(|&w| rules.entry && self.inh[w as usize] == 1)
            .collect();
        if let [a, b, ..] = forced[..] {
            return Some(Why::TwoForced(a, b));
        }
        let last = (self.nl == 1).then_some(self.lsum);
        let allowed = |w: u32| {
            !rules.ends
                || (last != Some(u64::from(w)) && !(self.is_end[w as usize] && self.e_left == 1))
        };
        let tried: &[u32] = if forced.is_empty() { &moves } else { &forced };
        if !tried.iter().any(|&w| allowed(w)) {
            return Some(Why::OnlyLast(tried[0]));
        }
        None
    }

    /// The onward moves `w` would have if entered next: its targets in `R`
    /// other than itself (a candidate of the current node).
    #[inline]
    pub fn onward(&self, w: u32) -> u32 {
        if self.t.sym {
            // The head is one of the squares that can still enter `w`.
            self.inh[w as usize].saturating_sub(1)
        } else {
            self.outr[w as usize]
        }
    }

    /// The cache key of the current node, if it may be cached: `R`, and the
    /// head with the end class (the count depends on both).
    #[inline]
    fn memo_key(&self) -> Option<(u64, u32)> {
        (self.t.rules.memo && self.t.small() && (self.t.memo_min..=MEMO_MAX).contains(&self.r))
            .then(|| (self.mask, self.path[self.path.len() - 1] + 64 * self.class))
    }
}

/// How often (in nodes) a worker reports to the others and looks at the
/// limits.
pub(crate) const CHECK_EVERY: u64 = 1 << 14;

/// A node on the driver's stack: its candidate moves are
/// `cands[next..end]` of the rules' candidate list (`end` being where the
/// next node's begin), with the count before it and its cache key.
#[derive(Default)]
pub struct Frame {
    start: usize,
    next: usize,
    base: u128,
    key: Option<(u64, u32)>,
}

/// The rules on boards of any size, over a [`State`] brought up to date as
/// the path moves. `PATHS`: path mode (moves in the order of [`Aim`]).
pub struct GeneralRules<'t, const PATHS: bool> {
    /// The search state.
    pub st: State<'t>,
    memo: &'t Memo,
    cands: Vec<u32>,
    /// Length of the path the search began from.
    root: usize,
    aim: Aim,
    /// Moves allowed from the first node, if not all (symmetry: one of
    /// each orbit).
    root_moves: Option<Vec<u32>>,
}

impl<'t, const PATHS: bool> GeneralRules<'t, PATHS> {
    /// Rules on `t` with the cache `memo`, after what `aim` asks; set a
    /// path with [`GeneralRules::reset`] before the first run.
    pub fn new(t: &'t Tables<'t>, memo: &'t Memo, aim: Aim) -> GeneralRules<'t, PATHS> {
        GeneralRules {
            st: State::new(t),
            memo,
            cands: Vec::with_capacity(t.n * 4),
            root: 0,
            aim,
            root_moves: None,
        }
    }

    /// Starts over from the path `prefix`, counting end class `class` (the
    /// driver restarts with it).
    pub fn reset(&mut self, prefix: &[u32], class: usize) {
        self.st.set_prefix(prefix, class);
        self.cands.clear();
        self.root = prefix.len();
    }

    /// Allows only these first moves (before the first run).
    pub fn restrict_first_moves(&mut self, allowed: &[u32]) {
        self.root_moves = Some(allowed.to_vec());
    }

    /// Uses `memo` as the cache from now on.
    pub fn set_memo(&mut self, memo: &'t Memo) {
        self.memo = memo;
    }

    /// The node the path ends on, just entered: taken from the cache or
    /// counted outright (its tours), or a branch whose moves are pushed on
    /// the list and whose record is written into `frame`.
    #[inline(always)]
    fn arrive(&mut self, sofar: Sofar, frame: &mut Frame) -> Option<u64> {
        let st = &self.st;
        let key = st.memo_key();
        let hit = key.and_then(|k| self.memo.get(k));
        // Path mode: a known number of tours is no tour in hand, so until
        // one is, only "none" is taken from the cache.
        if let Some(c) = hit.filter(|&c| !PATHS || c == 0 || sofar.tour) {
            return Some(c);
        }
        let start = self.cands.len();
        match st.expand::<PATHS>(&mut self.cands) {
            Expand::Dead => Some(0),
            Expand::Leaf(c) => Some(c),
            Expand::Moves => {
                if st.path.len() == self.root
                    && let Some(allowed) = &self.root_moves
                {
                    let mut k = start;
                    for i in start..self.cands.len() {
                        if allowed.contains(&self.cands[i]) {
                            self.cands[k] = self.cands[i];
                            k += 1;
                        }
                    }
                    self.cands.truncate(k);
                }
                if PATHS && self.aim.ordered {
                    order_moves(st, &mut self.cands[start..], self.aim);
                }
                *frame = Frame {
                    start,
                    next: start,
                    base: sofar.total,
                    key,
                };
                None
            }
        }
    }
}

impl<const PATHS: bool> Rules for GeneralRules<'_, PATHS> {
    const PATHS: bool = PATHS;
    const IN_PLACE: bool = true;
    type Node = Frame;

    fn root(&mut self, sofar: Sofar) -> Verdict<Frame> {
        if self.st.path.is_empty() {
            return Verdict::Leaf(0);
        }
        let mut frame = Frame::default();
        match self.arrive(sofar, &mut frame) {
            Some(c) => Verdict::Leaf(c),
            None => Verdict::Branch(frame),
        }
    }

    #[inline(always)]
    fn next(&mut self, node: &mut Frame) -> Option<u32> {
        self.cands.get(node.next).copied()
    }

    #[inline(always)]
    fn take(&mut self, node: &mut Frame, _to: u32) {
        node.next += 1;
    }

    fn descend(&mut self, node: &Frame, to: u32, sofar: Sofar) -> Verdict<Frame> {
        let mut frame = Frame::default();
        match self.descend_into(node, to, sofar, &mut frame) {
            Some(c) => Verdict::Leaf(c),
            None => Verdict::Branch(frame),
        }
    }

    #[inline(always)]
    fn descend_into(&mut self, _: &Frame, to: u32, sofar: Sofar, frame: &mut Frame) -> Option<u64> {
        self.st.enter(to);
        self.arrive(sofar, frame)
    }

    #[inline(always)]
    fn ascend(&mut self) {
        self.st.leave();
    }

    #[inline(always)]
    fn finished(&mut self, node: &Frame, total: u128) {
        self.cands.truncate(node.start);
        if let Some(k) = node.key
            // A count too large for the cache is not cached.
            && let Ok(c) = u64::try_from(total - node.base)
        {
            self.memo.put(k, c);
        }
    }

    fn path(&self) -> &[u32] {
        &self.st.path
    }

    fn why_leaf(&self, _: Option<&Frame>, tours: u64) -> Why {
        if tours > 0 {
            return Why::Tour;
        }
        // The rules let it be: the cache knew it holds no tour.
        self.st.explain().unwrap_or(Why::Cached)
    }

    fn why_tried(&self, node: &Frame) -> Why {
        if node.next > node.start {
            return Why::Tried;
        }
        // No move was left to try: the rules cut them all, or the first
        // moves were cut to one of each orbit and none was left.
        self.st.explain().unwrap_or(Why::Tried)
    }

    fn forbid_end(&mut self, square: u32) {
        self.st.forbid_end(square);
    }
}

/// Sorts a node's candidate moves by the rule of [`Aim`]: fewest onward
/// moves first; on ties a closed tour keeps the squares next to its start
/// for later; then in move order (the sort is stable).
fn order_moves(st: &State, moves: &mut [u32], aim: Aim) {
    let key = |w: u32| 2 * st.onward(w) + u32::from(aim.closed && st.is_end(w));
    for i in 1..moves.len() {
        let w = moves[i];
        let k = key(w);
        let mut j = i;
        while j > 0 && key(moves[j - 1]) > k {
            moves[j] = moves[j - 1];
            j -= 1;
        }
        moves[j] = w;
    }
}
