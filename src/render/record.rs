//! The recorder: a bounded summary of a long stream of search events — a
//! window of it kept event by event, the rest as a time-lapse.
//!
//! A search may take billions of steps; a GIF of it can show a few hundred.
//! [`Recorder`] is an [`Observer`] that keeps two kinds of sample:
//!
//! - **steps**: every event of a chosen window (`--steps`), each with the
//!   path after it, so a viewer can follow the search move by move;
//! - **intervals**: the rest of the stream cut into intervals of `k`
//!   events. Each keeps the *deepest* path reached in it (the longest; on a
//!   tie the first, unless the path was rewritten in place since), how much of the path stayed untouched all through it
//!   (`low`: the part the search had settled) and the counters at its end.
//!   When the intervals fill their share of the budget, neighbours are
//!   merged pairwise (the deeper path survives) and `k` doubles, so the
//!   intervals always cover the whole search so far, evenly, with memory
//!   bounded by the number of samples, not by the search's length.
//!
//! Each sample's path is stored as the part that differs from the previous
//! sample's (the length of the shared prefix and the squares after it), so
//! a long walk that only grows costs little more than the walk itself.
//! Between samples an event costs a few integer operations: the deepest
//! path is mirrored only while the path is the deepest, one square per
//! advance, and copied back in (from where the two last agreed) when the
//! path grows past it again. A depth-first search need not even tell it
//! those events ([`Observer::skip`]): it is told the advances that make the
//! path the interval's deepest, and the sum of the rest.
//!
//! ```
//! use engine::search::event::{Event, Observer, Why};
//! use engine::render::record::Recorder;
//!
//! // A walk that grows to 30 squares, steps back to 10 and grows to 20.
//! let mut rec = Recorder::new(4);
//! let mut path = Vec::new();
//! for s in 0..30u32 {
//!     path.push(s);
//!     rec.event(Event::Advance, &path);
//! }
//! while path.len() > 10 {
//!     let s = path.pop().unwrap();
//!     rec.event(Event::Retreat(s, Why::Tried), &path);
//! }
//! for s in 100..110u32 {
//!     path.push(s);
//!     rec.event(Event::Advance, &path);
//! }
//! let mut deepest = Vec::new();
//! rec.replay(|s| {
//!     deepest.push((s.path.len(), s.low));
//!     Ok::<_, ()>(())
//! })
//! .unwrap();
//! assert!(deepest.len() <= 4);
//! // 60 events in 4 intervals of 16: the first climbs to 16 squares, the
//! // second reaches 30, the last never went below 10.
//! assert_eq!(deepest[0].0, 16);
//! assert_eq!(deepest[1].0, 30);
//! assert_eq!(deepest.last().unwrap().1, 10);
//! ```

use super::lineage::Lineage;
use crate::search::event::{Event, Observer, Skip, Skipped};

/// One kept sample, as handed out by [`Recorder::replay`].
#[derive(Clone, Copy, Debug)]
pub struct Sample<'a> {
    /// Index of the event whose path `path` is (0-based; restarts are not
    /// counted as events).
    pub index: u64,
    /// The first event of the sample's interval (`index` itself for a step).
    pub first: u64,
    /// The last event of the interval.
    pub last: u64,
    /// Whether this is one event of the step window (else an interval of
    /// the time-lapse, which may also be one event long).
    pub step: bool,
    /// A step's own event; for an interval, the event that copied in the
    /// path shown (the advances that extended it after are not told apart).
    pub event: Event,
    /// The deepest path of the interval: a step's path after its event.
    pub path: &'a [u32],
    /// `path[..keep]` equals the previous sample's path (a lower bound on
    /// the shared prefix; 0 for the first sample).
    pub keep: usize,
    /// The path's first `low` squares stayed in place all through the
    /// interval, from the state before its first event on: what the
    /// search had settled while the rest churned.
    pub low: usize,
    /// Advances so far, at the interval's end: the search's nodes.
    pub nodes: u64,
    /// Retreats so far: steps taken back.
    pub backtracks: u64,
    /// Restarts so far.
    pub restarts: u64,
    /// The longest path so far.
    pub best: usize,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    index: u64,
    first: u64,
    last: u64,
    step: bool,
    event: Event,
    keep: usize,
    start: usize,
    end: usize,
    low: usize,
    high: usize,
    nodes: u64,
    backtracks: u64,
    restarts: u64,
    best: usize,
}

/// An [`Observer`] that keeps a window of the search event by event and a
/// bounded time-lapse of the rest (see the module documentation).
#[derive(Clone, Debug)]
pub struct Recorder {
    /// Events `window.0..window.1` are kept one by one.
    window: (u64, u64),
    /// The most closed intervals kept at once in the current phase (before
    /// the window, or after it).
    capacity: usize,
    /// The intervals' budget in all, before the window took its share.
    lapse: usize,
    /// Events per interval.
    stride: u64,
    events: u64,
    nodes: u64,
    backtracks: u64,
    restarts: u64,
    best: usize,
    /// Path length after the latest event.
    len: usize,
    /// The open interval: its first event, events so far, least and
    /// greatest path length, last event.
    open_first: u64,
    open: bool,
    open_low: usize,
    /// The open interval's greatest length, while not `mirror` (see
    /// [`Recorder::high`]).
    open_high: usize,
    /// The open interval's deepest path and the event it is from. While
    /// `mirror` is set it is the current path itself; otherwise the two
    /// agree on their first `deep_low` squares.
    deep: Vec<u32>,
    /// The event `deep` is from, while not `mirror`, and the event that
    /// last copied it in.
    deep_index: u64,
    deep_event: Event,
    mirror: bool,
    deep_low: usize,
    /// The least path length (or rewrite start) since the newest sample was
    /// closed: the current path shares this much with the path then.
    since_low: usize,
    /// The newest sample's path.
    last: Vec<u32>,
    entries: Vec<Entry>,
    /// The samples' changed suffixes, one after another.
    data: Vec<u32>,
    /// Samples before this one are never merged (those before and in the
    /// window, once it has begun).
    frozen: usize,
    /// Nothing more is stored (over the byte budget with nothing left to
    /// merge); the open interval takes in the rest of the search.
    full: bool,
    /// Events before this index need nothing but the counters and the
    /// deepest path's upkeep.
    due: u64,
    /// The most squares `data` keeps (see
    /// [`budget::RECORD`](crate::budget::RECORD)).
    max_data: usize,
    /// The latest generation event's generation and fitness.
    generation: (u64, usize),
    /// A genetic run's chart, repaired moves and first population.
    lineage: Lineage,
}

impl Recorder {
    /// A recorder keeping at most `max_samples` samples, all of them
    /// intervals of the time-lapse (no step window).
    pub fn new(max_samples: usize) -> Recorder {
        Recorder::with_steps(max_samples, 0..0)
    }

    /// A recorder keeping at most `max_samples` samples: the events in
    /// `steps` (0-based, at most `max_samples` of them) one by one, and the
    /// rest of the budget as a time-lapse of the events before and after.
    pub fn with_steps(max_samples: usize, steps: std::ops::Range<u64>) -> Recorder {
        let wanted = steps.end.saturating_sub(steps.start);
        // One sample is left for what comes after the window.
        let w = wanted.min(max_samples.saturating_sub(1) as u64);
        let lapse = max_samples - w as usize;
        Recorder {
            window: (steps.start, steps.start + w),
            capacity: even(lapse),
            lapse,
            stride: 1,
            events: 0,
            nodes: 0,
            backtracks: 0,
            restarts: 0,
            best: 0,
            len: 0,
            open_first: 0,
            open: false,
            open_low: 0,
            open_high: 0,
            deep: Vec::new(),
            deep_index: 0,
            deep_event: Event::Restart,
            mirror: false,
            deep_low: 0,
            since_low: 0,
            last: Vec::new(),
            entries: Vec::new(),
            data: Vec::new(),
            frozen: 0,
            full: false,
            due: 0,
            max_data: (crate::budget::RECORD / 4) as usize,
            generation: (0, 0),
            lineage: Lineage::default(),
        }
    }

    /// What was kept of a genetic run besides the samples: the fitness
    /// chart, the repaired moves of the kept walks (by the sample's
    /// `index`), generation 1's population when it held a tour.
    pub fn lineage(&self) -> &Lineage {
        &self.lineage
    }

    /// The most bytes the samples of `Recorder::with_steps(max_samples, _)`
    /// can hold for a search over `squares` squares, reckoned before it
    /// starts: every sample a whole path (as a genetic run's best walks may
    /// be; a depth-first search's samples mostly share a prefix and cost
    /// far less), plus the newest and the open interval's paths, but never
    /// more than the byte budget plus the sample that crosses it. Vectors
    /// may round their buffers up beyond this.
    pub fn max_bytes(max_samples: usize, squares: usize) -> u64 {
        let rec = Recorder::new(max_samples);
        let kept = max_samples as u64;
        let path = 4 * squares as u64;
        let entries = kept.saturating_mul(std::mem::size_of::<Entry>() as u64);
        let data = kept
            .saturating_mul(path)
            .min(4 * rec.max_data as u64 + 2 * path);
        entries
            .saturating_add(data)
            .saturating_add(2 * path)
            .saturating_add(Lineage::max_bytes(max_samples, squares))
    }

    /// Samples kept (the open interval included).
    pub fn len(&self) -> usize {
        self.entries.len() + usize::from(self.open)
    }

    /// True when nothing was kept.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Events seen (all but restarts, which are counted separately).
    pub fn events(&self) -> u64 {
        self.events
    }

    /// Advances seen: the search's nodes.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Retreats seen.
    pub fn backtracks(&self) -> u64 {
        self.backtracks
    }

    /// Restarts seen.
    pub fn restarts(&self) -> u64 {
        self.restarts
    }

    /// The longest path seen.
    pub fn best(&self) -> usize {
        self.best.max(self.high())
    }

    /// The open interval's greatest path length (0 if none is open).
    fn high(&self) -> usize {
        match (self.open, self.mirror) {
            (false, _) => 0,
            (true, true) => self.deep.len(),
            (true, false) => self.open_high,
        }
    }

    /// The event the open interval's deepest path is from.
    fn deep_at(&self) -> u64 {
        if self.mirror {
            self.events.saturating_sub(1)
        } else {
            self.deep_index
        }
    }

    /// The current length of the time-lapse's intervals, in events.
    pub fn stride(&self) -> u64 {
        self.stride
    }

    /// Squares held for all samples together (their changed suffixes).
    pub fn stored_squares(&self) -> usize {
        self.data.len()
    }

    /// The newest sample's path (the open interval's deepest; empty if
    /// none).
    pub fn last_path(&self) -> &[u32] {
        if self.open { &self.deep } else { &self.last }
    }

    /// Hands every sample, oldest first, to `f`; stops at its first error.
    pub fn replay<E>(&self, mut f: impl FnMut(&Sample<'_>) -> Result<(), E>) -> Result<(), E> {
        let mut path: Vec<u32> = Vec::new();
        fn sample<'p>(e: &Entry, path: &'p [u32], keep: usize) -> Sample<'p> {
            Sample {
                index: e.index,
                first: e.first,
                last: e.last,
                step: e.step,
                event: e.event,
                path,
                keep,
                low: e.low,
                nodes: e.nodes,
                backtracks: e.backtracks,
                restarts: e.restarts,
                best: e.best,
            }
        }
        for e in &self.entries {
            path.truncate(e.keep);
            path.extend_from_slice(&self.data[e.start..e.end]);
            f(&sample(e, &path, e.keep))?;
        }
        if self.open {
            let open = self.open_entry();
            let keep = self
                .entries
                .last()
                .map_or(0, |prev| prev.low.min(self.since_low))
                .min(path.len())
                .min(self.deep.len());
            f(&sample(&open, &self.deep, keep))?;
        }
        Ok(())
    }

    /// The open interval as an entry (its data is `deep`).
    fn open_entry(&self) -> Entry {
        Entry {
            index: self.deep_at(),
            first: self.open_first,
            last: self.events.saturating_sub(1),
            step: false,
            event: self.deep_event,
            keep: 0,
            start: 0,
            end: 0,
            low: self.open_low,
            high: self.high(),
            nodes: self.nodes,
            backtracks: self.backtracks,
            restarts: self.restarts,
            best: self.best.max(self.high()),
        }
    }

    /// Closes the open interval into a sample.
    #[cold]
    #[inline(never)]
    fn close(&mut self, step: bool) {
        let mut keep = match self.entries.last() {
            Some(prev) => prev.low.min(self.since_low),
            None => 0,
        };
        keep = keep.min(self.last.len()).min(self.deep.len());
        while keep < self.deep.len() && keep < self.last.len() && self.deep[keep] == self.last[keep]
        {
            keep += 1;
        }
        let start = self.data.len();
        self.data.extend_from_slice(&self.deep[keep..]);
        let mut e = self.open_entry();
        e.step = step;
        e.keep = keep;
        e.start = start;
        e.end = self.data.len();
        self.entries.push(e);
        self.last.truncate(keep);
        self.last.extend_from_slice(&self.deep[keep..]);
        self.best = self.best.max(self.high());
        self.since_low = self.len;
        self.open = false;
        self.open_high = 0;
        self.open_low = self.len;
        if step {
            if self.data.len() > self.max_data {
                self.full = true;
            }
            return;
        }
        if self.capacity >= 2 && self.entries.len() - self.frozen >= self.capacity {
            self.merge();
        }
        // Over the byte budget (long paths that share little, on a huge
        // board): merge early; when nothing is left to merge, store no more.
        while self.data.len() > self.max_data {
            if self.entries.len() - self.frozen < 2 {
                self.full = true;
                break;
            }
            self.merge();
        }
    }

    /// Merges the unfrozen intervals pairwise (the deeper path of each pair
    /// survives; on a tie the earlier) and doubles the stride. Works in
    /// place: a merged sample's suffix is never longer than the suffixes it
    /// replaces, so data only moves left.
    fn merge(&mut self) {
        let n = self.entries.len();
        if n - self.frozen < 2 {
            return;
        }
        // The path of the last frozen sample, the base of the first merged one.
        let mut path: Vec<u32> = Vec::new();
        for e in &self.entries[..self.frozen] {
            path.truncate(e.keep);
            path.extend_from_slice(&self.data[e.start..e.end]);
        }
        let mut prev = path.clone();
        let mut w = self.entries[self.frozen].start;
        let mut out = self.frozen;
        let mut j = self.frozen;
        // The least original `keep` read since the previous merged sample:
        // the paths in between share at least that much with it.
        let mut lb = usize::MAX;
        while j < n {
            let a = self.entries[j];
            let pair = j + 1 < n;
            let b = if pair { self.entries[j + 1] } else { a };
            let pick_b = pair && b.high > a.high;
            let mut chosen = a;
            for (k, e) in [a, b].iter().enumerate().take(if pair { 2 } else { 1 }) {
                lb = lb.min(e.keep);
                path.truncate(e.keep);
                path.extend_from_slice(&self.data[e.start..e.end]);
                if (k == 1) == pick_b {
                    chosen = *e;
                    // Re-express this path against the previous merged one.
                    let mut keep = lb.min(prev.len()).min(path.len());
                    while keep < path.len() && keep < prev.len() && path[keep] == prev[keep] {
                        keep += 1;
                    }
                    let suffix = path.len() - keep;
                    self.data[w..w + suffix].copy_from_slice(&path[keep..]);
                    prev.truncate(keep);
                    prev.extend_from_slice(&path[keep..]);
                    chosen.keep = keep;
                    chosen.start = w;
                    chosen.end = w + suffix;
                    w += suffix;
                    lb = usize::MAX;
                }
            }
            self.entries[out] = Entry {
                first: a.first,
                last: b.last,
                low: a.low.min(b.low),
                high: a.high.max(b.high),
                nodes: b.nodes,
                backtracks: b.backtracks,
                restarts: b.restarts,
                best: b.best,
                ..chosen
            };
            out += 1;
            j += 2;
        }
        self.entries.truncate(out);
        self.data.truncate(w);
        self.last = prev;
        self.stride = self.stride.saturating_mul(2);
    }

    /// The step window begins: close what came before, squeeze it to a
    /// quarter of the intervals' budget, and freeze it.
    #[cold]
    #[inline(never)]
    fn begin_window(&mut self) {
        if self.open && !self.full {
            self.close(false);
        }
        while self.entries.len() - self.frozen > (self.lapse / 4).max(1)
            && self.entries.len() - self.frozen >= 2
        {
            self.merge();
        }
        self.frozen = self.entries.len();
    }

    /// The step window is over: the intervals after it start afresh with
    /// what is left of the budget.
    #[cold]
    #[inline(never)]
    fn end_window(&mut self) {
        self.frozen = self.entries.len();
        let before = self.entries.iter().filter(|e| !e.step).count();
        self.capacity = even(self.lapse.saturating_sub(before));
        self.stride = 1;
    }
}

/// The most closed intervals to keep within `lapse` samples (one is the
/// open interval): an even number, so that merging pairs leaves intervals
/// of equal length; 0 when only the open interval fits.
fn even(lapse: usize) -> usize {
    if lapse >= 2 { lapse & !1 } else { 0 }
}

impl Recorder {
    /// Any event, in full: the window's and the intervals' edges, rewrites,
    /// generations and restarts (the common advance and retreat between
    /// edges take [`Observer::event`]'s short way).
    #[cold]
    #[inline(never)]
    fn slow(&mut self, event: Event, path: &[u32]) {
        let len = path.len();
        // How much of the path this event left in place.
        let low = match event {
            Event::Advance => {
                self.nodes += 1;
                len.saturating_sub(1)
            }
            Event::Retreat(..) => {
                self.backtracks += 1;
                len
            }
            Event::Rewrite { from, .. } => from.min(len),
            Event::Restart => {
                self.restarts += 1;
                self.len = 0;
                self.since_low = 0;
                self.open_low = 0;
                self.deep_low = 0;
                self.mirror = false;
                return;
            }
            Event::Generation {
                generation,
                fitness,
                ..
            } => {
                self.generation = (generation, fitness);
                0
            }
        };
        let index = self.events;
        self.events += 1;
        // The deepest path of the open interval.
        let shared = if self.mirror {
            low
        } else {
            self.deep_low.min(low)
        };
        let high = self.high();
        if !self.open || len > high || (self.mirror && len >= high) {
            self.sync(path, shared, index);
            self.deep_event = event;
        } else {
            if self.mirror {
                self.open_high = self.deep.len();
                self.deep_index = index.saturating_sub(1);
            }
            self.mirror = false;
            self.deep_low = shared;
        }
        if !self.open {
            self.open = true;
            self.open_first = index;
            self.open_low = low;
        } else {
            self.open_low = self.open_low.min(low);
        }
        self.since_low = self.since_low.min(low);
        self.len = len;
        if !self.full {
            let count = self.events - self.open_first;
            if index >= self.window.0 && index < self.window.1 {
                self.close(true);
            } else if count >= self.stride && self.capacity >= 2 {
                self.close(false);
            }
        }
        // The window's edges come after the event before them, so that
        // what is closed there is closed with its true end.
        let (w0, w1) = self.window;
        if self.events == w0 && w0 < w1 {
            self.begin_window();
        } else if self.events == w1 && w1 > w0 {
            self.end_window();
        }
        self.due = self.next_due();
    }

    /// Makes the current path the open interval's deepest, copying it in
    /// from `shared`, where the two still agree.
    #[inline]
    fn sync(&mut self, path: &[u32], shared: usize, index: u64) {
        let shared = shared.min(self.deep.len());
        self.deep.truncate(shared);
        self.deep.extend_from_slice(&path[shared..]);
        self.mirror = true;
        self.deep_index = index;
    }

    /// The next event that needs [`Recorder::slow`]: the first of a new
    /// interval, the one closing the open interval, or an edge of the
    /// window.
    fn next_due(&self) -> u64 {
        let next = self.events;
        if self.full {
            return u64::MAX;
        }
        if !self.open {
            return next;
        }
        let (w0, w1) = self.window;
        let edge = if next < w0 && w0 < w1 {
            w0 - 1
        } else if next < w1 {
            next
        } else {
            u64::MAX
        };
        let close = if self.capacity >= 2 {
            self.open_first.saturating_add(self.stride - 1)
        } else {
            u64::MAX
        };
        edge.min(close)
    }
}

impl Observer for Recorder {
    const HEAVY: bool = false;
    const SKIPS: bool = true;

    // Between the edges of intervals and of the window, an advance or a
    // retreat costs a few integer operations: an advance leaves the
    // interval's least length alone (its new length less one is the old
    // length) and, while the path is the deepest, appends one square to
    // the copy. A depth-first search does not even tell those
    // ([`Observer::skip`]) but the advances past the deepest path.
    #[inline(always)]
    fn event(&mut self, event: Event, path: &[u32]) {
        let index = self.events;
        let len = path.len();
        match event {
            Event::Advance if index < self.due => {
                self.events += 1;
                self.nodes += 1;
                if self.mirror {
                    if let Some(&s) = path.last() {
                        self.deep.push(s);
                    }
                } else if len > self.open_high {
                    let shared = self.deep_low.min(len.saturating_sub(1));
                    self.sync(path, shared, index);
                    self.deep_event = event;
                }
            }
            Event::Retreat(..) if index < self.due => {
                self.events += 1;
                self.backtracks += 1;
                if self.mirror {
                    self.mirror = false;
                    self.open_high = self.deep.len();
                    self.deep_index = index.saturating_sub(1);
                    self.deep_low = len;
                } else {
                    self.deep_low = self.deep_low.min(len);
                }
                self.open_low = self.open_low.min(len);
                self.since_low = self.since_low.min(len);
            }
            _ => self.slow(event, path),
        }
    }

    /// Until the next event that needs the recorder's slow path, the advances
    /// and retreats may go untold but those that make the path the
    /// interval's deepest (which the fast path would copy).
    #[inline(always)]
    fn skip(&self) -> Skip {
        let events = self.due.saturating_sub(self.events);
        if events == 0 {
            return Skip::NONE;
        }
        let above = if self.mirror {
            self.deep.len()
        } else {
            self.open_high
        };
        Skip { events, above }
    }

    /// What the fast path would have done with each untold event: none
    /// made the path the deepest, so only the counters and the least
    /// lengths move; the first retreat ends a mirror.
    #[inline]
    fn skipped(&mut self, s: Skipped) {
        let index = self.events;
        self.events += s.events;
        self.nodes += s.advances;
        self.backtracks += s.events - s.advances;
        if self.mirror && s.low < self.deep.len() {
            self.mirror = false;
            self.open_high = self.deep.len();
            self.deep_index = index.saturating_sub(1);
            self.deep_low = s.low;
        } else {
            self.deep_low = self.deep_low.min(s.low);
        }
        self.open_low = self.open_low.min(s.low);
        self.since_low = self.since_low.min(s.low);
    }

    /// Only the step window's retreats are told with their reasons.
    #[inline(always)]
    fn wants_why(&self) -> bool {
        (self.window.0..self.window.1).contains(&self.events)
    }

    fn generation(&mut self, mean: f64, repaired: &[bool]) {
        let (generation, best) = self.generation;
        self.lineage.chart_add(generation, best, mean);
        // The walk is the latest event's; kept while a sample shows it.
        let index = self.events.saturating_sub(1);
        let open = self.open.then(|| self.deep_at());
        let entries = &self.entries;
        let live =
            |i: u64| open == Some(i) || entries.binary_search_by_key(&i, |e| e.index).is_ok();
        self.lineage.keep_repaired(index, repaired, live);
        if self.lineage.repaired_kept() > 2 * self.entries.len() + 4 {
            self.lineage.prune(live);
        }
    }

    fn individual(&mut self, fitness: usize, walk: &[u32], repaired: &[bool]) {
        self.lineage.add_individual(fitness, walk, repaired);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::event::Why;

    fn gen_event(g: u32, n: u32) -> Event {
        Event::Generation {
            generation: u64::from(g),
            fitness: n as usize,
            legal: n as usize,
        }
    }

    /// Everything a recorder hands back, checked against the true paths.
    fn check(rec: &Recorder, truth: &[Vec<u32>]) -> Vec<(u64, u64, u64, usize)> {
        let mut seen = Vec::new();
        let mut prev: Vec<u32> = Vec::new();
        let mut next_first = 0;
        rec.replay(|s| {
            assert_eq!(s.path, &truth[s.index as usize][..], "event {}", s.index);
            assert_eq!(&s.path[..s.keep], &prev[..s.keep]);
            // The intervals tile the stream, and the path is the deepest.
            assert_eq!(s.first, next_first);
            next_first = s.last + 1;
            assert!(s.first <= s.index && s.index <= s.last);
            let range = &truth[s.first as usize..=s.last as usize];
            let deepest = range.iter().map(Vec::len).max().unwrap_or(0);
            assert_eq!(s.path.len(), deepest, "{}..={}", s.first, s.last);
            // Nothing below `low` moved.
            for p in range {
                assert!(p.len() >= s.low && p[..s.low] == s.path[..s.low]);
            }
            prev = s.path.to_vec();
            seen.push((s.first, s.last, s.index, s.low));
            Ok::<_, ()>(())
        })
        .unwrap();
        assert_eq!(next_first, truth.len() as u64);
        seen
    }

    #[test]
    fn max_bytes_bounds_what_is_kept() {
        // The worst case: each generation's walk differs from the last
        // sample's from the first square on, so nothing is shared.
        let n = 40u32;
        for frames in [1, 2, 3, 9, 60] {
            let mut rec = Recorder::new(frames);
            let bound = Recorder::max_bytes(frames, n as usize);
            for g in 0..2000u32 {
                let walk: Vec<u32> = (0..n).map(|i| (i + g) % n).collect();
                rec.event(gen_event(g, n), &walk);
                let kept = 4 * (rec.stored_squares() + rec.last.len() + rec.deep.len()) as u64
                    + (rec.entries.len() * std::mem::size_of::<Entry>()) as u64;
                assert!(kept <= bound, "{frames}: {kept} > {bound}");
            }
            assert!(rec.len() <= frames.max(1));
        }
    }

    /// Drives a depth-first walk over a pseudo-random tree, recording it
    /// with `rec`; the true path after every event.
    fn dfs(rec: &mut Recorder, events: u64) -> Vec<Vec<u32>> {
        let mut truth: Vec<Vec<u32>> = Vec::new();
        let mut path: Vec<u32> = Vec::new();
        let mut x: u64 = 12345;
        for _ in 0..events {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let up = path.len() < 3 || !(x >> 33).is_multiple_of(3) && path.len() < 40;
            if up {
                path.push((x >> 40) as u32 % 1000);
                rec.event(Event::Advance, &path);
            } else {
                let s = path.pop().unwrap_or(0);
                rec.event(Event::Retreat(s, Why::Tried), &path);
            }
            truth.push(path.clone());
        }
        truth
    }

    #[test]
    fn intervals_tile_the_search_and_keep_the_deepest_path() {
        for (events, cap) in [(10, 7), (100, 7), (5000, 9), (100_000, 599), (77_777, 600)] {
            let mut rec = Recorder::new(cap);
            let truth = dfs(&mut rec, events);
            let seen = check(&rec, &truth);
            assert!(seen.len() <= cap, "{events} {cap}: {}", seen.len());
            assert_eq!(rec.events(), events);
            if events > cap as u64 * 4 {
                // Evenly: every closed interval is one stride long, and the
                // budget is at least half used.
                let s = rec.stride();
                assert!(seen[..seen.len() - 1].iter().all(|w| w.1 - w.0 + 1 == s));
                assert!(seen.len() > cap / 2);
            }
            assert!(rec.stored_squares() <= cap * 40);
        }
    }

    #[test]
    fn a_window_is_kept_event_by_event() {
        let mut rec = Recorder::with_steps(100, 500..560);
        let truth = dfs(&mut rec, 20_000);
        let seen = check(&rec, &truth);
        assert!(seen.len() <= 100);
        let steps: Vec<u64> = seen
            .iter()
            .filter(|s| s.0 == s.1 && (500..560).contains(&s.0))
            .map(|s| s.0)
            .collect();
        assert_eq!(steps, (500..560).collect::<Vec<_>>());
        let mut n = 0;
        rec.replay(|s| {
            n += usize::from(s.step);
            if s.step {
                assert_eq!(s.index, s.first);
            }
            Ok::<_, ()>(())
        })
        .unwrap();
        assert_eq!(n, 60);
        // Both sides of the window have intervals.
        assert!(seen.iter().filter(|s| s.1 < 500).count() >= 2);
        assert!(seen.iter().filter(|s| s.0 >= 560).count() >= 10);
    }

    #[test]
    fn a_window_longer_than_the_search_keeps_it_all() {
        let mut rec = Recorder::with_steps(600, 0..300);
        let truth = dfs(&mut rec, 120);
        let seen = check(&rec, &truth);
        assert_eq!(seen.len(), 120);
    }

    #[test]
    fn byte_budget_merges_early_and_keeps_samples_exact() {
        // Walks that share nothing with the last sample, each of `n`
        // squares, against a budget of a few walks.
        let n = 1000u32;
        let mut rec = Recorder::new(599);
        rec.max_data = 5 * n as usize;
        let mut truth = Vec::new();
        for g in 0..20_000u32 {
            let walk: Vec<u32> = (0..n).map(|i| (i * 7 + g) % n).collect();
            rec.event(gen_event(g, n), &walk);
            truth.push(walk);
            assert!(rec.stored_squares() <= rec.max_data + 2 * n as usize);
        }
        let seen = check(&rec, &truth);
        assert!(seen.len() >= 3 && seen.len() <= 8, "{seen:?}");
        // A walk that only grows shares its prefixes: the budget never bites.
        let mut rec = Recorder::new(101);
        rec.max_data = 200_000;
        let mut path = Vec::new();
        for s in 0..100_000u32 {
            path.push(s);
            rec.event(Event::Advance, &path);
        }
        assert!(rec.len() > 50);
        assert!(rec.stored_squares() <= 100_000);
    }

    #[test]
    fn restarts_generations_and_rewrites_are_recorded() {
        let mut rec = Recorder::new(50);
        rec.event(Event::Advance, &[1]);
        rec.event(Event::Advance, &[1, 2]);
        rec.event(Event::Restart, &[]);
        rec.event(Event::Advance, &[7]);
        let generation = gen_event(3, 4);
        rec.event(generation, &[4, 5, 6, 4]);
        let rot = Event::Rewrite {
            from: 2,
            how: crate::search::event::Change::Rotation,
        };
        rec.event(rot, &[4, 5, 4, 6]);
        let mut got = Vec::new();
        rec.replay(|s| {
            got.push((s.path.to_vec(), s.event, s.restarts, s.nodes, s.low));
            Ok::<_, ()>(())
        })
        .unwrap();
        assert_eq!(got[2], (vec![7], Event::Advance, 1, 3, 0));
        assert_eq!(got[3], (vec![4, 5, 6, 4], generation, 1, 3, 0));
        assert_eq!(got[4], (vec![4, 5, 4, 6], rot, 1, 3, 2));
    }

    #[test]
    fn tiny_budgets() {
        for cap in [1, 2, 3] {
            let mut rec = Recorder::new(cap);
            let truth = dfs(&mut rec, 1000);
            let seen = check(&rec, &truth);
            assert!(!seen.is_empty() && seen.len() <= cap, "{cap}: {seen:?}");
        }
        let mut rec = Recorder::new(0);
        rec.event(Event::Advance, &[0]);
        assert_eq!(rec.events(), 1);
    }
}
