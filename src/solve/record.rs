//! The recorder: bounded, even sampling of a long stream of search events.
//!
//! A search may take billions of steps; a GIF of it can show a few hundred.
//! [`Recorder`] is an [`Observer`] that keeps a snapshot of the path at every
//! k-th event. When its buffer is full it drops every other snapshot and
//! doubles k, so at any moment it holds at most `capacity` snapshots taken
//! at events `0, k, 2k, …`: evenly spread over the whole search so far, with
//! memory bounded by the number of snapshots, not by the search's length.
//!
//! Each snapshot is stored as the part of its path that differs from the
//! previous snapshot (the length of the shared prefix and the squares after
//! it), so a long walk that only grows costs little more than the walk
//! itself. Between snapshots an event costs a few integer operations.
//!
//! The snapshots are of the events as the solver sent them ([`Event`]):
//! each kept one holds its event and the whole path after it. A rewrite
//! (`Event::Rewrite { from }`) lowers the prefix known to be shared with the
//! last snapshot to `from`, so in-place changes are stored exactly.
//!
//! ```
//! use engine::solve::event::{Event, Observer};
//! use engine::solve::record::Recorder;
//!
//! let mut rec = Recorder::new(9);
//! let mut path = Vec::new();
//! for s in 0..1000u32 {
//!     path.push(s);
//!     rec.event(Event::Advance, &path);
//! }
//! assert!(rec.len() <= 9);
//! let mut lens = Vec::new();
//! rec.replay(|s| {
//!     lens.push(s.path.len());
//!     Ok::<_, ()>(())
//! })
//! .unwrap();
//! // Snapshots are evenly spaced: event e shows a path of e + 1 squares.
//! assert!(lens.windows(2).all(|w| w[1] - w[0] == lens[1] - lens[0]));
//! ```

use super::event::{Event, Observer};

/// One kept snapshot, as handed out by [`Recorder::replay`].
#[derive(Clone, Copy, Debug)]
pub struct Sample<'a> {
    /// Index of the event in the whole stream (0-based; restarts are not
    /// counted).
    pub index: u64,
    /// What happened.
    pub event: Event,
    /// The path (or walk) at that moment.
    pub path: &'a [u32],
    /// `path[..keep]` equals the previous sample's path (a lower bound on
    /// the shared prefix; 0 for the first sample).
    pub keep: usize,
    /// Advances so far, this one included: the search's nodes.
    pub nodes: u64,
    /// Restarts so far.
    pub restarts: u64,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    index: u64,
    event: Event,
    keep: usize,
    start: usize,
    end: usize,
    nodes: u64,
    restarts: u64,
}

/// An [`Observer`] that keeps at most `capacity` evenly spaced snapshots of
/// the search (see the module documentation).
#[derive(Clone, Debug)]
pub struct Recorder {
    capacity: usize,
    /// Keep every `stride`-th event.
    stride: u64,
    /// Event number of the next snapshot.
    next: u64,
    /// Events still to come before that one (0: never).
    left: u64,
    nodes: u64,
    restarts: u64,
    /// The path's first `low` squares are unchanged since the last snapshot.
    low: usize,
    /// The path at the last snapshot.
    last: Vec<u32>,
    entries: Vec<Entry>,
    /// The snapshots' changed suffixes, one after another.
    data: Vec<u32>,
    /// The most squares `data` keeps after a snapshot is taken (see
    /// [`budget::RECORD`](crate::budget::RECORD); only searches of long
    /// paths that share little on huge boards come near it).
    max_data: usize,
}

impl Recorder {
    /// A recorder keeping at most `max_samples` snapshots. An even number is
    /// rounded down to odd (so that thinning keeps the newest snapshot);
    /// 0 keeps none, 1 and 2 keep only the first event.
    pub fn new(max_samples: usize) -> Recorder {
        let capacity = match max_samples {
            0 => 0,
            1 | 2 => 1,
            m if m % 2 == 0 => m - 1,
            m => m,
        };
        Recorder {
            capacity,
            stride: 1,
            next: if capacity > 0 { 0 } else { u64::MAX },
            left: u64::from(capacity > 0),
            nodes: 0,
            restarts: 0,
            low: 0,
            last: Vec::new(),
            entries: Vec::new(),
            data: Vec::new(),
            max_data: (crate::budget::RECORD / 4) as usize,
        }
    }

    /// The most snapshots this recorder keeps at once.
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    /// The most bytes the snapshots of `Recorder::new(max_samples)` can
    /// hold for a search over `squares` squares, reckoned before it starts:
    /// every kept snapshot a whole path (as a genetic run's best walks may
    /// be; a depth-first search's snapshots mostly share a prefix and cost
    /// far less), plus the last path, but never more than the byte budget
    /// plus the snapshot that crosses it. Vectors may round their buffers
    /// up beyond this.
    pub fn max_bytes(max_samples: usize, squares: usize) -> u64 {
        let rec = Recorder::new(max_samples);
        let kept = rec.capacity as u64;
        let path = 4 * squares as u64;
        let entries = kept.saturating_mul(std::mem::size_of::<Entry>() as u64);
        let data = kept
            .saturating_mul(path)
            .min(4 * rec.max_data as u64 + 2 * path);
        entries.saturating_add(data).saturating_add(path)
    }

    /// Snapshots kept.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when nothing was kept.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Events seen (all but restarts, which are counted separately and are
    /// not sampled).
    pub fn events(&self) -> u64 {
        // `left` counts down to the event numbered `next` (wrapping once
        // sampling has stopped).
        self.next.wrapping_add(1).wrapping_sub(self.left)
    }

    /// Advances seen: the search's nodes.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Restarts seen.
    pub fn restarts(&self) -> u64 {
        self.restarts
    }

    /// The current spacing of snapshots, in events.
    pub fn stride(&self) -> u64 {
        self.stride
    }

    /// Squares held for all snapshots together (their changed suffixes).
    pub fn stored_squares(&self) -> usize {
        self.data.len()
    }

    /// The path of the newest snapshot (empty if none).
    pub fn last_path(&self) -> &[u32] {
        &self.last
    }

    /// Hands every kept snapshot, oldest first, to `f`; stops at its first
    /// error.
    pub fn replay<E>(&self, mut f: impl FnMut(&Sample<'_>) -> Result<(), E>) -> Result<(), E> {
        let mut path: Vec<u32> = Vec::new();
        for e in &self.entries {
            path.truncate(e.keep);
            path.extend_from_slice(&self.data[e.start..e.end]);
            f(&Sample {
                index: e.index,
                event: e.event,
                path: &path,
                keep: e.keep,
                nodes: e.nodes,
                restarts: e.restarts,
            })?;
        }
        Ok(())
    }

    /// Counts one sampled-kind event and snapshots it if it is due.
    #[inline(always)]
    fn tick(&mut self, event: Event, path: &[u32]) {
        // Wraps from 0 to u64::MAX once sampling has stopped: never due again.
        self.left = self.left.wrapping_sub(1);
        if self.left == 0 {
            self.take(event, path);
        }
    }

    #[cold]
    #[inline(never)]
    fn take(&mut self, event: Event, path: &[u32]) {
        let index = self.next;
        let mut keep = self.low.min(self.last.len()).min(path.len());
        while keep < path.len() && keep < self.last.len() && path[keep] == self.last[keep] {
            keep += 1;
        }
        let start = self.data.len();
        self.data.extend_from_slice(&path[keep..]);
        self.entries.push(Entry {
            index,
            event,
            keep,
            start,
            end: self.data.len(),
            nodes: self.nodes,
            restarts: self.restarts,
        });
        self.last.truncate(keep);
        self.last.extend_from_slice(&path[keep..]);
        self.low = path.len();
        if self.entries.len() >= self.capacity {
            if self.capacity < 3 {
                // Keep only this one; `left` wraps and never reaches 0 again.
                return;
            }
            self.thin();
            self.stride *= 2;
        }
        // Over the byte budget (long paths that share little, on a huge
        // board): thin early, while the count is odd so the newest snapshot
        // stays. With an even count, over by no more than the newest
        // snapshot, wait for the next one to make it odd. Otherwise thinning
        // cannot help: stop sampling (`left` wraps and never reaches 0
        // again). So the snapshots never hold more than the budget and two
        // paths.
        while self.data.len() > self.max_data {
            let count = self.entries.len();
            if count >= 3 && !count.is_multiple_of(2) {
                self.thin();
                self.stride *= 2;
                continue;
            }
            let newest = self.entries.last().map_or(0, |e| e.end - e.start);
            if count.is_multiple_of(2) && self.data.len() - newest <= self.max_data {
                break;
            }
            return;
        }
        self.next = index + self.stride;
        self.left = self.stride;
    }

    /// Drops every other snapshot (keeping the first and, the capacity
    /// being odd, the newest), re-expressing each kept one against the
    /// previous kept one. Works in place: kept data only moves left.
    fn thin(&mut self) {
        let n = self.entries.len();
        let mut w = 0usize; // write offset into data
        let mut out = 0usize; // write index into entries
        for j in (0..n).step_by(2) {
            let c = self.entries[j];
            let (keep, first_part) = if j == 0 {
                (c.keep, (0, 0))
            } else {
                // Dropped snapshot b lies between the kept a (= previous) and c.
                let b = self.entries[j - 1];
                let keep = b.keep.min(c.keep);
                // c's prefix beyond b's own keep comes from b's suffix.
                let extra = c.keep.saturating_sub(b.keep);
                (keep, (b.start, b.start + extra))
            };
            let start = w;
            let (fs, fe) = first_part;
            self.data.copy_within(fs..fe, w);
            w += fe - fs;
            self.data.copy_within(c.start..c.end, w);
            w += c.end - c.start;
            self.entries[out] = Entry {
                keep,
                start,
                end: w,
                ..c
            };
            out += 1;
        }
        self.entries.truncate(out);
        self.data.truncate(w);
    }
}

impl Observer for Recorder {
    // Only the squares from `low` on can differ from the last snapshot,
    // where `low` is the shortest prefix the events have left untouched
    // since: an advance only extends the path; a retreat shortens it; a
    // rewrite from `i` leaves its first `i` squares; a restart or a new
    // generation leaves nothing.
    #[inline(always)]
    fn event(&mut self, event: Event, path: &[u32]) {
        match event {
            Event::Advance => self.nodes += 1,
            Event::Retreat(_) => self.low = self.low.min(path.len()),
            Event::Rewrite { from } => self.low = self.low.min(from),
            Event::Restart => {
                self.restarts += 1;
                self.low = 0;
                return;
            }
            Event::Generation { .. } => self.low = 0,
        }
        self.tick(event, path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gen_event(g: u32, n: u32) -> Event {
        Event::Generation {
            generation: u64::from(g),
            fitness: n as usize,
            legal: n as usize,
        }
    }

    #[test]
    fn max_bytes_bounds_what_is_kept() {
        // The worst case: each generation's walk differs from the last
        // snapshot's from the first square on, so nothing is shared.
        let n = 40u32;
        for frames in [1, 2, 3, 9, 60] {
            let mut rec = Recorder::new(frames);
            let bound = Recorder::max_bytes(frames, n as usize);
            let mut most = 0;
            for g in 0..2000u32 {
                let walk: Vec<u32> = (0..n).map(|i| (i + g) % n).collect();
                rec.event(gen_event(g, n), &walk);
                let kept = 4 * (rec.stored_squares() + rec.last_path().len()) as u64
                    + (rec.len() * std::mem::size_of::<Entry>()) as u64;
                assert!(kept <= bound, "{frames}: {kept} > {bound}");
                most = most.max(rec.stored_squares());
            }
            // Not loose by more than the snapshot that triggers a thinning.
            let cap = rec.capacity();
            assert!(most + n as usize >= cap * n as usize, "{frames}: {most}");
        }
    }

    /// Drives a depth-first walk over a pseudo-random tree and checks every
    /// replayed snapshot against the true path at its event.
    fn dfs_stream(events: u64, capacity: usize) {
        let mut rec = Recorder::new(capacity);
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
                rec.event(Event::Retreat(s), &path);
            }
            truth.push(path.clone());
        }
        let mut seen = Vec::new();
        let mut prev: Vec<u32> = Vec::new();
        rec.replay(|s| {
            assert_eq!(s.path, &truth[s.index as usize][..], "event {}", s.index);
            assert_eq!(&s.path[..s.keep], &prev[..s.keep]);
            prev = s.path.to_vec();
            seen.push(s.index);
            Ok::<_, ()>(())
        })
        .unwrap();
        assert!(seen.len() <= rec.capacity());
        assert_eq!(rec.events(), events);
        assert_eq!(seen[0], 0);
        let gap = rec.stride();
        assert!(seen.windows(2).all(|w| w[1] - w[0] == gap), "{seen:?}");
        if events > capacity as u64 * 4 {
            // Evenly over the whole stream: the last kept event is within
            // one stride of the end, and the buffer is at least half full.
            assert!(events - seen[seen.len() - 1] <= gap);
            assert!(seen.len() > rec.capacity() / 2);
        }
        assert!(rec.stored_squares() <= rec.capacity() * 40);
    }

    #[test]
    fn byte_budget_thins_early_and_keeps_snapshots_exact() {
        // Walks that share nothing with the last snapshot, each of `n`
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
        let mut seen = Vec::new();
        rec.replay(|s| {
            assert_eq!(s.path, &truth[s.index as usize][..], "event {}", s.index);
            seen.push(s.index);
            Ok::<_, ()>(())
        })
        .unwrap();
        // Evenly spaced from the first event, as without a budget.
        assert_eq!(seen[0], 0);
        assert!(
            seen.windows(2).all(|w| w[1] - w[0] == rec.stride()),
            "{seen:?}"
        );
        assert!(seen.len() >= 3 && seen.len() <= 7, "{seen:?}");
        // Still sampling to the end of the stream.
        assert!(20_000 - seen[seen.len() - 1] <= rec.stride(), "{seen:?}");
        // A walk that only grows shares its prefixes: the budget never bites.
        let mut rec = Recorder::new(101);
        rec.max_data = 200_000;
        let mut path = Vec::new();
        for s in 0..100_000u32 {
            path.push(s);
            rec.event(Event::Advance, &path);
        }
        assert!(rec.len() > 50);
    }

    #[test]
    fn dfs_snapshots_are_exact_and_even() {
        for (events, cap) in [(10, 7), (100, 7), (5000, 9), (100_000, 599), (77_777, 600)] {
            dfs_stream(events, cap);
        }
    }

    #[test]
    fn growing_walk_is_stored_once() {
        let mut rec = Recorder::new(101);
        let mut path = Vec::new();
        for s in 0..100_000u32 {
            path.push(s);
            rec.event(Event::Advance, &path);
        }
        // Every snapshot shares its prefix with the previous one.
        assert!(rec.stored_squares() <= 100_000);
        rec.replay(|s| {
            assert_eq!(s.path.len() as u64, s.index + 1);
            Ok::<_, ()>(())
        })
        .unwrap();
    }

    #[test]
    fn restarts_and_generations_are_recorded() {
        let mut rec = Recorder::new(50);
        rec.event(Event::Advance, &[1]);
        rec.event(Event::Advance, &[1, 2]);
        rec.event(Event::Restart, &[]);
        rec.event(Event::Advance, &[7]);
        let generation = Event::Generation {
            generation: 3,
            fitness: 9,
            legal: 3,
        };
        rec.event(generation, &[4, 5, 6, 4]);
        let mut got = Vec::new();
        rec.replay(|s| {
            got.push((s.path.to_vec(), s.event, s.restarts, s.nodes));
            Ok::<_, ()>(())
        })
        .unwrap();
        assert_eq!(got[2], (vec![7], Event::Advance, 1, 3));
        assert_eq!(got[3], (vec![4, 5, 6, 4], generation, 1, 3));
    }

    #[test]
    fn tiny_capacities_keep_the_first_event() {
        for cap in [1, 2] {
            let mut rec = Recorder::new(cap);
            for s in 0..10u32 {
                rec.event(Event::Advance, &[s]);
            }
            assert_eq!((rec.len(), rec.events()), (1, 10));
        }
        let mut rec = Recorder::new(0);
        rec.event(Event::Advance, &[0]);
        assert!(rec.is_empty());
        assert_eq!(rec.events(), 1);
    }
}
