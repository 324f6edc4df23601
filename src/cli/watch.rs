//! Work that cannot look at the clock itself — reading a file or standard
//! input that may block, parsing a puzzle — run on a thread of its own and
//! watched from the command's thread, so that `--time-limit` and Ctrl-C
//! stop a command at any moment, the reading of its input included.

use std::sync::mpsc;
use std::time::Duration;

use engine::halt::{Halt, Limits, Stop};

/// How often the command's thread looks at its limits while it waits.
const LOOK_EVERY: Duration = Duration::from_millis(10);

/// Stack of the worker: as large as a main thread's, for the parsers'
/// recursion on deeply nested input.
const STACK: usize = 8 << 20;

/// Runs `work` on a thread of its own and waits for it under `limits`: its
/// result when it ends (even past the limits: what comes next looks at
/// them), or why the limits stopped the wait. A stopped worker is left
/// running (or blocked) until the process exits, which the caller does at
/// once; nothing it does is kept. When no thread can be started, `work`
/// runs here, unwatched.
pub fn within<T: Send + 'static>(
    limits: &Limits<'_>,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, Stop> {
    let (tx, rx) = mpsc::sync_channel(1);
    // The work is handed back when no thread can be started.
    let slot = std::sync::Arc::new(std::sync::Mutex::new(Some(work)));
    let theirs = std::sync::Arc::clone(&slot);
    let started = std::thread::Builder::new()
        .name("reader".into())
        .stack_size(STACK)
        .spawn(move || {
            let work = theirs.lock().ok().and_then(|mut w| w.take());
            if let Some(work) = work {
                let _ = tx.send(work());
            }
        });
    let worker = match started {
        Ok(worker) => worker,
        Err(_) => {
            let work = slot.lock().ok().and_then(|mut w| w.take());
            return match work {
                Some(work) => Ok(work()),
                None => Err(Stop::Cancelled),
            };
        }
    };
    loop {
        match rx.recv_timeout(LOOK_EVERY) {
            Ok(done) => return Ok(done),
            Err(mpsc::RecvTimeoutError::Timeout) => limits.check()?,
            // The worker ended without an answer: it panicked; the panic
            // goes on here, as if the work had run on this thread.
            Err(mpsc::RecvTimeoutError::Disconnected) => match worker.join() {
                Err(panic) => std::panic::resume_unwind(panic),
                Ok(()) => return Err(Stop::Cancelled),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Instant;

    #[test]
    fn work_that_ends_gives_its_result() {
        assert_eq!(within(&Limits::none(), || 6 * 7), Ok(42));
    }

    #[test]
    fn work_that_blocks_is_left_at_the_limit() {
        let started = Instant::now();
        let limits = Limits::none().with_time(Some(0.05));
        let r = within(&limits, || std::thread::sleep(Duration::from_secs(30)));
        assert_eq!(r, Err(Stop::Limit(engine::halt::Limit::Time)));
        assert!(started.elapsed() < Duration::from_secs(5));
        static FLAG: AtomicBool = AtomicBool::new(false);
        let limits = Limits {
            interrupt: Some(&FLAG),
            ..Limits::none()
        };
        std::thread::spawn(|| {
            std::thread::sleep(Duration::from_millis(30));
            FLAG.store(true, Ordering::Relaxed);
        });
        let r = within(&limits, || std::thread::sleep(Duration::from_secs(30)));
        assert_eq!(r, Err(Stop::Interrupted));
    }
}
