//! The live feed of a search, for the studio (`engine serve`): an
//! [`Observer`] that sends the player samples of the search while it runs,
//! and holds the search still while it is paused.
//!
//! The first [`STEP_WINDOW`] events are sent one by one, so a small
//! search can be followed move by move; after them the tap looks at the
//! clock every [`LOOK_EVERY`] events and sends the path as it is now when
//! [`INTERVAL`] has passed since the last sample, so a search of billions
//! of steps sends a few dozen samples a second. Between two looks it lets
//! a depth-first search leave its advances and retreats untold
//! ([`Observer::skip`]) but those that make the path the longest yet, and
//! takes their sum: watched by the tap and the player's recorder, the
//! cheapest search per node runs a few percent slower than unwatched
//! (BENCHMARKS.md). The samples are the player's (the keys of the
//! `run --html` page's data), so the studio hands them to the player's
//! code as they come.
//!
//! Pausing goes through the tap: at its next look (a few microseconds
//! away) it sees [`Control`] say paused, and from then on each event is
//! told and sent as a sample and the search waits in the observer until it
//! is resumed, stepped on by one event, or cancelled. A search held there
//! looks at nothing else; the cancel flag ([`Control::cancel`]) wakes it,
//! and the search's own halt, which watches the same flag, stops it at
//! its next look.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::model::Board;
use crate::search::event::{Event, Observer, Skip, Skipped};

/// Events sent one by one at the start of a search.
pub const STEP_WINDOW: u64 = 300;
/// Events between two looks at the clock after the step window.
pub const LOOK_EVERY: u64 = 1 << 10;
/// The least time between two samples after the step window.
pub const INTERVAL: Duration = Duration::from_millis(40);
/// How long a paused search sleeps between two looks at its cancel flag
/// (a cancel also wakes it at once).
const NAP: Duration = Duration::from_millis(250);

/// Pause, step and cancel, shared by a running search's tap and whoever
/// steers it.
#[derive(Debug, Default)]
pub struct Control {
    /// Set to stop the search: the search's halt watches it too.
    pub cancel: AtomicBool,
    paused: AtomicBool,
    /// Events the search may take while paused.
    steps: Mutex<u64>,
    wake: Condvar,
    /// Time spent paused, in milliseconds.
    paused_ms: AtomicU64,
}

impl Control {
    /// A control of a running search: not paused, not cancelled.
    pub fn new() -> Control {
        Control::default()
    }

    /// Holds the search at its next event.
    pub fn pause(&self) {
        self.paused.store(true, Ordering::SeqCst);
    }

    /// Lets a paused search go on.
    pub fn resume(&self) {
        self.paused.store(false, Ordering::SeqCst);
        self.notify();
    }

    /// Lets a paused search take one more event (and pauses a running one).
    pub fn step(&self) {
        self.paused.store(true, Ordering::SeqCst);
        if let Ok(mut steps) = self.steps.lock() {
            *steps = steps.saturating_add(1);
        }
        self.notify();
    }

    /// Stops the search (wakes it if it is paused).
    pub fn stop(&self) {
        self.cancel.store(true, Ordering::SeqCst);
        self.notify();
    }

    /// Whether the search is paused.
    pub fn is_paused(&self) -> bool {
        self.paused.load(Ordering::SeqCst)
    }

    /// Whether the search was told to stop.
    pub fn is_stopped(&self) -> bool {
        self.cancel.load(Ordering::SeqCst)
    }

    /// Whether the search is to be held at each event: paused, and not
    /// stopped (a stopped search runs on unheld to its halt's next look,
    /// and is not sent event by event meanwhile).
    fn holds(&self) -> bool {
        self.paused.load(Ordering::Relaxed) && !self.cancel.load(Ordering::Relaxed)
    }

    /// Time the search has spent held by a pause so far.
    pub fn paused_for(&self) -> Duration {
        Duration::from_millis(self.paused_ms.load(Ordering::SeqCst))
    }

    fn notify(&self) {
        // Taking the lock orders the wake-up after the waiter's check.
        drop(self.steps.lock());
        self.wake.notify_all();
    }

    /// Waits, in the search's thread, until the search may take its next
    /// event: resumed, stepped or stopped.
    #[cold]
    #[inline(never)]
    fn hold(&self) {
        let began = Instant::now();
        let Ok(mut steps) = self.steps.lock() else {
            return;
        };
        loop {
            if self.is_stopped() || !self.is_paused() {
                break;
            }
            if *steps > 0 {
                *steps -= 1;
                break;
            }
            steps = match self.wake.wait_timeout(steps, NAP) {
                Ok((s, _)) => s,
                Err(_) => return,
            };
        }
        let ms = u64::try_from(began.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.paused_ms.fetch_add(ms, Ordering::SeqCst);
    }
}

/// One sample of a live search, with the keys of the player's data (see
/// the player's script): the path as the previous sample's first `p`
/// squares and then `t`.
#[derive(Clone, Debug, Serialize)]
pub struct LiveSample {
    /// The event's index (restarts are not counted), and the first and
    /// last events of the interval the sample stands for.
    pub i: u64,
    /// First event of the interval.
    pub f: u64,
    /// Last event of the interval.
    pub l: u64,
    /// One event of its own (the step window, or a paused search).
    pub s: bool,
    /// Kind: `a`dvance, `r`etreat, re`w`rite, `g`eneration.
    pub k: &'static str,
    /// Squares kept from the previous sample's path.
    pub p: usize,
    /// The squares after them.
    pub t: Vec<u32>,
    /// Squares that stayed all through the interval.
    pub lo: usize,
    /// Advances, retreats and restarts so far, and the longest path.
    pub n: u64,
    /// Retreats so far.
    pub b: u64,
    /// Restarts so far.
    pub r: u64,
    /// The longest path so far.
    pub best: usize,
    /// What happened, in words.
    pub text: String,
    /// A generation: its number, best fitness and the legal prefix.
    #[serde(rename = "gen", skip_serializing_if = "Option::is_none")]
    pub generation: Option<u64>,
    /// The generation's best fitness.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fit: Option<usize>,
    /// The best walk's legal prefix.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legal: Option<usize>,
    /// The population's mean fitness.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mean: Option<f64>,
}

/// The observer that feeds a live search to a channel (see the module).
pub struct Tap<'a> {
    board: &'a Board,
    control: &'a Control,
    out: Sender<LiveSample>,
    /// Events so far (restarts not counted).
    events: u64,
    advances: u64,
    retreats: u64,
    restarts: u64,
    best: usize,
    /// The next event at which to look at the clock.
    next_look: u64,
    last_sent: Instant,
    /// The path of the last sample sent, and the first event not in it.
    sent: Vec<u32>,
    sent_upto: u64,
    /// The shortest the path was since the last sample (its settled part).
    low: usize,
    /// A generation waiting for its mean ([`Observer::generation`]).
    pending: Option<LiveSample>,
}

impl<'a> Tap<'a> {
    /// A tap sending samples of a search over `board` to `out`, steered by
    /// `control`.
    pub fn new(board: &'a Board, control: &'a Control, out: Sender<LiveSample>) -> Tap<'a> {
        Tap {
            board,
            control,
            out,
            events: 0,
            advances: 0,
            retreats: 0,
            restarts: 0,
            best: 0,
            next_look: STEP_WINDOW,
            last_sent: Instant::now(),
            sent: Vec::new(),
            sent_upto: 0,
            low: 0,
            pending: None,
        }
    }

    /// Events seen so far (restarts not counted).
    pub fn events(&self) -> u64 {
        self.events
    }

    /// Sends what is pending: a generation still waiting for its mean.
    pub fn flush(&mut self) {
        if let Some(s) = self.pending.take() {
            // A closed channel means no one watches: the search goes on
            // to its end or its stop, unwatched.
            let _ = self.out.send(s);
        }
    }

    /// The sample of `event` (the newest), standing for the events since
    /// the last sample.
    #[cold]
    #[inline(never)]
    fn sample(&mut self, event: Event, path: &[u32], single: bool) -> LiveSample {
        let keep = self
            .sent
            .iter()
            .zip(path)
            .take_while(|(a, b)| a == b)
            .count();
        let index = self.events.saturating_sub(1);
        let first = if single { index } else { self.sent_upto };
        let name = |s: u32| self.board.name(s);
        let (k, text) = match event {
            Event::Advance | Event::Restart => (
                "a",
                match path.last() {
                    Some(&s) if single => format!("to {} (depth {})", name(s), path.len()),
                    _ => format!("depth {}", path.len()),
                },
            ),
            Event::Retreat(s, why) if single => (
                "r",
                format!("back from {} ({})", name(s), why.name().replace('_', " ")),
            ),
            Event::Retreat(..) => ("r", format!("depth {}", path.len())),
            Event::Rewrite { how, .. } => ("w", format!("{} (depth {})", how.name(), path.len())),
            Event::Generation { generation, .. } => ("g", format!("generation {generation}")),
        };
        let (generation, fit, legal) = match event {
            Event::Generation {
                generation,
                fitness,
                legal,
            } => (Some(generation), Some(fitness), Some(legal)),
            _ => (None, None, None),
        };
        let sample = LiveSample {
            i: index,
            f: first.min(index),
            l: index,
            s: single,
            k,
            p: keep,
            t: path[keep..].to_vec(),
            lo: self.low.min(keep).min(path.len()),
            n: self.advances,
            b: self.retreats,
            r: self.restarts,
            best: self.best,
            text,
            generation,
            fit,
            legal,
            mean: None,
        };
        self.sent.truncate(keep);
        self.sent.extend_from_slice(&path[keep..]);
        self.sent_upto = index + 1;
        self.low = path.len();
        self.last_sent = Instant::now();
        sample
    }

    #[cold]
    #[inline(never)]
    fn send(&mut self, event: Event, path: &[u32], single: bool) {
        self.flush();
        let sample = self.sample(event, path, single);
        if matches!(event, Event::Generation { .. }) {
            self.pending = Some(sample);
        } else {
            let _ = self.out.send(sample);
        }
    }
}

impl Tap<'_> {
    /// A look at the clock, every [`LOOK_EVERY`] events: a sample if
    /// [`INTERVAL`] has passed.
    #[cold]
    #[inline(never)]
    fn look(&mut self, event: Event, path: &[u32]) {
        self.next_look = self.events + LOOK_EVERY;
        if self.last_sent.elapsed() >= INTERVAL {
            self.send(event, path, false);
        }
    }
}

impl Observer for Tap<'_> {
    const HEAVY: bool = false;
    const SKIPS: bool = true;

    #[inline]
    fn event(&mut self, event: Event, path: &[u32]) {
        match event {
            Event::Advance => self.advances += 1,
            Event::Retreat(..) => self.retreats += 1,
            Event::Restart => {
                self.restarts += 1;
                self.low = 0;
                return;
            }
            Event::Rewrite { from, .. } => self.low = self.low.min(from),
            Event::Generation { .. } => {}
        }
        self.events += 1;
        self.low = self.low.min(path.len());
        self.best = self.best.max(path.len());
        if self.control.holds() {
            self.send(event, path, true);
            self.flush();
            self.control.hold();
        } else if self.events <= STEP_WINDOW {
            self.send(event, path, true);
        } else if self.events >= self.next_look || matches!(event, Event::Generation { .. }) {
            self.look(event, path);
        }
    }

    fn wants_why(&self) -> bool {
        // Reasons are worked out only for the events sent one by one.
        self.events < STEP_WINDOW || self.control.holds()
    }

    /// Between two looks at the clock (and at a pause), every advance and
    /// retreat may go untold but those that make the path the longest yet.
    #[inline]
    fn skip(&self) -> Skip {
        if self.events < STEP_WINDOW || self.control.holds() {
            return Skip::NONE;
        }
        Skip {
            events: self.next_look.saturating_sub(self.events),
            above: self.best,
        }
    }

    #[inline]
    fn skipped(&mut self, s: Skipped) {
        self.events += s.events;
        self.advances += s.advances;
        self.retreats += s.events - s.advances;
        self.low = self.low.min(s.low);
    }

    fn generation(&mut self, mean: f64, _repaired: &[bool]) {
        if let Some(s) = &mut self.pending {
            s.mean = Some(mean);
        }
        self.flush();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::event::Why;

    /// Replays samples as the player does: keep `p`, add `t`.
    fn replay(samples: &[LiveSample]) -> Vec<u32> {
        let mut path = Vec::new();
        for s in samples {
            path.truncate(s.p);
            path.extend_from_slice(&s.t);
        }
        path
    }

    #[test]
    fn the_samples_replay_to_the_path_the_search_holds() {
        let board = Board::rectangle(40, 40);
        let control = Control::new();
        let (tx, rx) = std::sync::mpsc::channel();
        let mut tap = Tap::new(&board, &control, tx);
        let mut path = Vec::new();
        // A walk that climbs and falls many times, past the step window.
        for round in 0..2000u32 {
            for s in 0..(round % 37) {
                path.push(s);
                tap.event(Event::Advance, &path);
            }
            while path.len() > 3 {
                let s = path.pop().unwrap_or_default();
                tap.event(Event::Retreat(s, Why::Tried), &path);
            }
        }
        // The last sample is taken now, as the studio does at the end.
        tap.send(Event::Advance, &path.clone(), false);
        drop(tap);
        let samples: Vec<LiveSample> = rx.iter().collect();
        assert!(samples.len() as u64 > STEP_WINDOW);
        assert!(samples[..STEP_WINDOW as usize].iter().all(|s| s.s));
        assert_eq!(replay(&samples), path);
        // Intervals cover the events in order, without gaps.
        for w in samples.windows(2) {
            assert!(
                w[1].f <= w[1].l && w[1].f == w[0].l + 1,
                "{:?}",
                (w[0].l, w[1].f)
            );
        }
    }

    #[test]
    fn a_paused_search_waits_for_a_step_and_a_stop_wakes_it() {
        let board = Board::rectangle(8, 8);
        let control = Control::new();
        let (tx, rx) = std::sync::mpsc::channel();
        control.pause();
        std::thread::scope(|scope| {
            let searched = scope.spawn(|| {
                let mut tap = Tap::new(&board, &control, tx);
                let mut path = Vec::new();
                for s in 0..10u32 {
                    path.push(s);
                    tap.event(Event::Advance, &path);
                }
            });
            // Held at its first event until stepped.
            let first = rx.recv_timeout(Duration::from_secs(5));
            assert_eq!(first.map(|s| s.t).ok(), Some(vec![0]));
            assert!(rx.recv_timeout(Duration::from_millis(300)).is_err());
            control.step();
            let second = rx.recv_timeout(Duration::from_secs(5));
            assert_eq!(second.map(|s| (s.p, s.t)).ok(), Some((1, vec![1])));
            control.stop();
            assert!(searched.join().is_ok());
        });
        assert!(control.paused_for() >= Duration::from_millis(300));
    }

    #[test]
    fn a_search_stopped_while_paused_is_no_longer_sent_event_by_event() {
        // The search goes on a little after a stop, to its halt's next
        // look: those events are not each a sample of a held search.
        let board = Board::rectangle(8, 8);
        let control = Control::new();
        let (tx, rx) = std::sync::mpsc::channel();
        let mut tap = Tap::new(&board, &control, tx);
        let mut path = Vec::new();
        control.pause();
        control.stop();
        for round in 0..1000u32 {
            for s in 0..10 {
                path.push(s + round % 7);
                tap.event(Event::Advance, &path);
            }
            while let Some(s) = path.pop() {
                tap.event(Event::Retreat(s, Why::Tried), &path);
            }
        }
        drop(tap);
        let samples = rx.iter().count() as u64;
        assert!(samples <= STEP_WINDOW + 10, "{samples} samples");
    }
}
