//! The search GIF: the search's recorded snapshots, then its outcome.

use crate::halt::{Halt, Stop};
use std::io::Write;

use crate::solve::event::Event;
use crate::solve::record::Recorder;
use crate::solve::{Outcome, Report};

use super::encoder::{FINAL_DELAY, encode, frame_delay};
use super::layout::Layout;
use super::painter::{Painter, Target};
use super::{GifError, GifInfo, GifOptions, Scene, Style};
use crate::render::text::thousands;

/// Writes the GIF of a search: one frame per snapshot `rec` kept, then a
/// final frame with the outcome of `report` (the tour; or the longest path,
/// or the last state when there is none), held two seconds. At most
/// `opts.max_frames` frames when `rec` was made with
/// `Recorder::new(opts.max_frames - 1)`.
pub fn search_gif<W: Write + Send>(
    out: W,
    scene: &Scene,
    rec: &Recorder,
    report: &Report,
    opts: &GifOptions,
    halt: &impl Halt<Stop = Stop>,
) -> Result<GifInfo, GifError> {
    let lay = Layout::new(scene.board, opts.cell, true);
    let mut painter = Painter::new(scene, lay.clone());
    let delay = frame_delay(opts.fps);
    let count = encode(out, &lay, halt, |frames| {
        let restarts = |r: u64| {
            if r > 0 {
                format!(" \u{b7} restart {}", thousands(r))
            } else {
                String::new()
            }
        };
        rec.replay(|s| {
            let (legal, genetic, status) = match s.event {
                Event::Generation {
                    generation,
                    fitness,
                    legal,
                } => (
                    legal,
                    true,
                    format!(
                        "generation {} \u{b7} fitness {}",
                        thousands(generation),
                        thousands(fitness as u64)
                    ),
                ),
                _ => (
                    s.path.len(),
                    false,
                    format!("{} nodes{}", thousands(s.nodes), restarts(s.restarts)),
                ),
            };
            let changed = painter.show(&Target {
                path: s.path,
                keep: s.keep,
                legal,
                genetic,
                closing: false,
                head: !genetic,
                flash: match s.event {
                    Event::Retreat(sq) => Some(sq),
                    _ => None,
                },
                status: Some(status),
            });
            frames.emit(&painter, changed, delay)
        })?;
        // The outcome.
        let stats = &report.stats;
        let effort = if stats.generations > 0 {
            format!("generation {}", thousands(stats.generations))
        } else {
            format!("{} nodes", thousands(stats.nodes.max(rec.nodes())))
        };
        // The longest path, or else the last state recorded.
        fn or_last<'r>(best: &'r [u32], last: &'r [u32]) -> &'r [u32] {
            if best.is_empty() { last } else { best }
        }
        let last = rec.last_path();
        let (path, status): (&[u32], String) = match &report.outcome {
            Outcome::Found(t) => (t, format!("found: {effort}")),
            Outcome::Impossible(_) => (last, format!("no tour: {effort}")),
            Outcome::GaveUp { best, .. } => (or_last(best, last), format!("gave up: {effort}")),
            Outcome::Interrupted { best } => {
                (or_last(best, last), format!("interrupted: {effort}"))
            }
        };
        let found = matches!(report.outcome, Outcome::Found(_));
        let changed = painter.show(&Target {
            path,
            keep: 0,
            legal: path.len(),
            genetic: false,
            closing: found && scene.closed,
            head: found && lay.style == Style::Squares,
            flash: None,
            status: Some(status),
        });
        frames.emit(&painter, changed, FINAL_DELAY)
    })?;
    Ok(lay.info(count))
}
