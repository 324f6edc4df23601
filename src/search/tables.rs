//! What every search of one graph and goal shares: the move lists both
//! ways, the end sets, and on boards of at most 64 squares the same as bit
//! masks, with the tables that give a set's neighbours in eight lookups.

use std::borrow::Cow;

use super::Pruning;
use crate::halt::{self, Halt};

/// Cache only nodes with at least this many unvisited squares, by default:
/// three eighths of the board, at least 8. A lookup usually misses the
/// processor's cache, which costs more than recounting a small ending; the
/// share was measured best on the 6x6 and 7x7 knight counts (13 and 18).
pub(crate) fn memo_min(n: usize) -> u32 {
    (3 * n as u32 / 8).max(8)
}
/// And at most this many: larger endings rarely come back. (A count that
/// does not fit the cache's `u64` is simply not cached.)
pub(crate) const MEMO_MAX: u32 = 30;
/// Flood-fill only nodes with at least this many unvisited squares.
pub(crate) const PARTS_MIN: u32 = 4;

/// What the search needs of the graph and goal, shared by every worker.
/// The graph's own target lists are borrowed, not copied (on the largest
/// boards they are hundreds of megabytes); the reversed lists are kept only
/// for a graph that is not its own reverse.
pub struct Tables<'g> {
    pub n: usize,
    off: &'g [u32],
    tg: &'g [u32],
    roff: Cow<'g, [u32]>,
    rtg: Cow<'g, [u32]>,
    /// Every move can be made back.
    pub sym: bool,
    /// `E` for each *end class*: the squares a tour may end on. Every task
    /// has a class; class 0 allows every end any other class allows.
    pub ends: Vec<Vec<bool>>,
    /// For each end class, the ends whose tours count twice (see
    /// `count`'s reversal rule); empty sets when it does not apply.
    pub doubles: Vec<Vec<bool>>,
    /// Boards of at most 64 squares: targets and sources of each square as
    /// bit masks, `E` and all squares as masks, and for each byte `k` of a
    /// mask and each value `v` of it the union of the targets of the squares
    /// in `v << 8k` (a set's targets in eight lookups).
    pub succ_mask: Vec<u64>,
    pub pred_mask: Vec<u64>,
    pub end_masks: Vec<u64>,
    pub double_masks: Vec<u64>,
    pub all_mask: u64,
    /// When every move changes class (the move graph is two-coloured),
    /// the squares of each class (boards of at most 64 squares): a walk of
    /// `r` more moves from `h` ends on `h`'s class when `r` is even, on the
    /// other when it is odd.
    pub classes: Option<[u64; 2]>,
    pub spread: Vec<[u64; 256]>,
    pub rules: Pruning,
    /// Cache endings of `memo_min..=MEMO_MAX` squares.
    pub memo_min: u32,
}

impl<'g> Tables<'g> {
    /// Tables for counting walks in `g` that end in `ends[class]`, those
    /// ending in `doubles[class]` twice.
    /// Built under `halt`: on the largest boards the lists and their
    /// reverse take seconds.
    pub fn new<H: Halt>(
        g: &'g crate::model::MoveGraph,
        ends: Vec<Vec<bool>>,
        doubles: Vec<Vec<bool>>,
        rules: Pruning,
        memo_min: u32,
        halt: &H,
    ) -> Result<Tables<'g>, H::Stop> {
        let n = g.len();
        // Each step is a pass over every move: on the largest boards a
        // tenth of a second or more, so the halt is asked between them.
        g.prepare_lists(halt)?;
        let (off, tg) = g.raw();
        let (roff, rtg): (Cow<[u32]>, Cow<[u32]>) = if g.is_symmetric() {
            (Cow::Borrowed(off), Cow::Borrowed(tg))
        } else {
            halt::between_passes(halt, n)?;
            let rev = g.reversed();
            halt::between_passes(halt, n)?;
            rev.prepare_lists(halt)?;
            let (roff, rtg) = rev.raw();
            let roff = roff.to_vec();
            halt::between_passes(halt, n)?;
            (Cow::Owned(roff), Cow::Owned(rtg.to_vec()))
        };
        halt::between_passes(halt, n)?;
        let small = n <= 64;
        let mask_of = |l: &[u32]| l.iter().fold(0u64, |m, &t| m | 1 << (t & 63));
        let (mut succ_mask, mut pred_mask, mut spread) = (Vec::new(), Vec::new(), Vec::new());
        let mut all_mask = 0u64;
        let as_mask = |set: &Vec<bool>| {
            set.iter()
                .enumerate()
                .fold(0u64, |m, (s, &x)| if x { m | 1 << (s & 63) } else { m })
        };
        let (mut end_masks, mut double_masks) = (Vec::new(), Vec::new());
        let mut classes = None;
        if small {
            if let (_, Some(colour)) = crate::model::graph::walks::parts_and_colours(g, halt)? {
                let ones = (0..n).fold(0u64, |m, s| m | u64::from(colour[s]) << s);
                classes = Some([!ones & all_of(n), ones]);
            }
            succ_mask = (0..n as u32).map(|s| mask_of(g.targets(s))).collect();
            pred_mask = (0..n)
                .map(|s| mask_of(&rtg[roff[s] as usize..roff[s + 1] as usize]))
                .collect();
            for s in 0..n {
                all_mask |= 1 << s;
            }
            end_masks = ends.iter().map(as_mask).collect();
            double_masks = doubles.iter().map(as_mask).collect();
            spread = spread_tables(&succ_mask);
        }
        Ok(Tables {
            n,
            off,
            tg,
            roff,
            rtg,
            sym: g.is_symmetric(),
            ends,
            doubles,
            succ_mask,
            pred_mask,
            end_masks,
            double_masks,
            all_mask,
            classes,
            spread,
            rules,
            memo_min,
        })
    }

    /// The targets of `s`.
    #[inline]
    pub fn succ(&self, s: u32) -> &[u32] {
        &self.tg[self.off[s as usize] as usize..self.off[s as usize + 1] as usize]
    }

    /// The squares with a move to `s`.
    #[inline]
    pub fn pred(&self, s: u32) -> &[u32] {
        &self.rtg[self.roff[s as usize] as usize..self.roff[s as usize + 1] as usize]
    }

    /// The union of the targets of the squares in `set` (`n ≤ 64`).
    #[inline]
    pub fn targets_of(&self, set: u64) -> u64 {
        let mut out = 0u64;
        for (k, table) in self.spread.iter().enumerate() {
            out |= table[(set >> (8 * k)) as usize & 255];
        }
        out
    }

    /// Whether every square of `rest` is reachable from `h` by moves
    /// through `rest` (`n ≤ 64`).
    #[inline]
    pub fn reaches_all(&self, h: u32, rest: u64) -> bool {
        let mut reach = self.succ_mask[h as usize] & rest;
        let mut frontier = reach;
        while frontier != 0 {
            frontier = self.targets_of(frontier) & rest & !reach;
            reach |= frontier;
        }
        reach == rest
    }

    /// The squares of `rest` reachable from `h` by moves through `rest`
    /// (`n ≤ 64`).
    pub fn reach(&self, h: u32, rest: u64) -> u64 {
        let mut reach = self.succ_mask[h as usize] & rest;
        let mut frontier = reach;
        while frontier != 0 {
            frontier = self.targets_of(frontier) & rest & !reach;
            reach |= frontier;
        }
        reach
    }

    /// Whether `p` is a path of distinct squares along moves.
    pub fn is_path(&self, p: &[u32]) -> bool {
        let mut seen = vec![false; self.n];
        p.iter()
            .all(|&s| (s as usize) < self.n && !std::mem::replace(&mut seen[s as usize], true))
            && p.windows(2).all(|w| self.succ(w[0]).contains(&w[1]))
    }

    /// Whether the bit-parallel parts of the search (cache, flood fill) apply.
    #[inline]
    pub fn small(&self) -> bool {
        self.n <= 64
    }
}

/// The mask of the first `n` squares (`n ≤ 64`).
fn all_of(n: usize) -> u64 {
    if n >= 64 { u64::MAX } else { (1u64 << n) - 1 }
}

/// For each byte of a mask of up to 64 squares and each value of it, the
/// union of `masks` over the squares it holds: a set's neighbours in one
/// lookup a byte. Only the bytes that can hold a square get a table (a
/// 4x4 board two), each value built from the value without its lowest bit.
pub(crate) fn spread_tables(masks: &[u64]) -> Vec<[u64; 256]> {
    (0..masks.len().div_ceil(8).min(8))
        .map(|k| {
            let mut table = [0u64; 256];
            for v in 1..256usize {
                let s = 8 * k + v.trailing_zeros() as usize;
                table[v] = table[v & (v - 1)] | masks.get(s).copied().unwrap_or(0);
            }
            table
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::spread_tables;

    /// A set's neighbours by the tables are the union of its squares'
    /// masks, on boards of 1 to 64 squares.
    #[test]
    fn the_spread_tables_give_the_union_of_the_masks() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for n in 1..=64usize {
            let all = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
            let masks: Vec<u64> = (0..n).map(|_| next() & all).collect();
            let spread = spread_tables(&masks);
            assert_eq!(spread.len(), n.div_ceil(8));
            for _ in 0..50 {
                let set = next() & all;
                let want = (0..n)
                    .filter(|&s| set >> s & 1 == 1)
                    .fold(0, |m, s| m | masks[s]);
                let got = spread
                    .iter()
                    .enumerate()
                    .fold(0, |m, (k, t)| m | t[(set >> (8 * k)) as usize & 255]);
                assert_eq!(got, want, "{n} squares, set {set:#x}");
            }
        }
    }
}
