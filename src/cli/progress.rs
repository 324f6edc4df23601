//! The one progress display: while work runs, a line on stderr reads the
//! work's [`Progress`] channel — a spinner with the count, the best value and
//! the rate while the total is unknown, a bar with the time left once it is
//! known. It never asks who is working. Hidden when stderr is not a
//! terminal or with `--quiet`.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use engine::progress::{Progress, Reading};
use engine::words::thousands;

/// Runs `work`, showing `progress` under the label `doing` (e.g.
/// `searching`) unless `quiet` or stderr is not a terminal.
pub fn shown<R: Send>(
    doing: &str,
    progress: &Progress,
    quiet: bool,
    work: impl FnOnce() -> R + Send,
) -> R {
    if quiet || !std::io::stderr().is_terminal() {
        return work();
    }
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| display(doing, progress, &done));
        let r = work();
        done.store(true, Ordering::SeqCst);
        r
    })
}

fn display(doing: &str, progress: &Progress, done: &AtomicBool) {
    let started = Instant::now();
    let bar = indicatif::ProgressBar::new_spinner();
    let spinner = indicatif::ProgressStyle::with_template("{spinner} {msg} [{elapsed}]")
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner());
    bar.set_style(spinner);
    // When the total became known, and how much was done then.
    let mut counting: Option<(Instant, u64)> = None;
    while !done.load(Ordering::SeqCst) {
        let r = progress.read();
        match (r.total, counting) {
            (Some(total), None) => {
                counting = Some((Instant::now(), r.done));
                bar.set_length(total);
                bar.set_style(
                    indicatif::ProgressStyle::with_template(
                        "{bar:40} {pos}/{len} {msg} · {elapsed_precise}",
                    )
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
                );
            }
            (None, Some(_)) => counting = None,
            _ => {}
        }
        match counting {
            Some((since, at)) => {
                bar.set_position(r.done);
                let mut msg = left(&r, since, at);
                match (r.held, r.on_disk) {
                    (held, Some(disk)) => msg.push_str(&format!(
                        " · {} states in memory, {} on disk",
                        thousands(held.unwrap_or(0)),
                        thousands(disk)
                    )),
                    (Some(held), None) => msg.push_str(&format!(" · {} states", thousands(held))),
                    (None, None) => {}
                }
                bar.set_message(msg);
            }
            None => bar.set_message(format!("{doing}… {}", running(&r, started))),
        }
        bar.tick();
        std::thread::sleep(Duration::from_millis(100));
    }
    bar.finish_and_clear();
}

/// The count so far, the best value and the rate.
fn running(r: &Reading, started: Instant) -> String {
    let mut s = format!("{} {}", thousands(r.done), r.unit.name(r.done));
    if let Some((best, of)) = r.best {
        s.push_str(&format!(" · best {best}/{of}"));
    }
    let secs = started.elapsed().as_secs_f64();
    if secs >= 0.5 && r.done > 0 {
        let rate = (r.done as f64 / secs) as u64;
        s.push_str(&format!(" · {} {}/s", thousands(rate), r.unit.name(rate)));
    }
    s
}

/// The unit and an estimate of the time left, from the pace since the
/// total became known.
fn left(r: &Reading, since: Instant, at: u64) -> String {
    let unit = r.unit.name(2);
    let finished = r.done.saturating_sub(at);
    let total = r.total.unwrap_or(0);
    if finished == 0 {
        return format!("{unit} · estimating the time left");
    }
    let per = since.elapsed().as_secs_f64() / finished as f64;
    let left = Duration::from_secs_f64(per * total.saturating_sub(r.done) as f64);
    format!("{unit} · about {} left", indicatif::HumanDuration(left))
}
