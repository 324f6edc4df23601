//! The one Ctrl-C handler: the first Ctrl-C raises a flag that every halt
//! of the command looks at; a second one exits at once, removing any output
//! file still being written. SIGTERM and SIGHUP are handled the same way, so
//! a process asked to end leaves no temporary file behind either.
//!
//! Until a command makes its first temporary file, the handler is a signal
//! handler alone (raise the flag; exit if it was up), with no thread: a
//! thread started and never scheduled on a busy machine holds up the
//! process's exit by milliseconds. Removing files takes a thread of its
//! own, so the handler moves to one ([`arm`]) before the first temporary
//! is made.

use std::sync::Once;
use std::sync::atomic::{AtomicBool, Ordering};

#[cfg(unix)]
use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};

use engine::halt::Limits;
use engine::output;

/// Set by the first Ctrl-C.
pub static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The limits of a command with no other limit: Ctrl-C.
pub fn limits() -> Limits<'static> {
    Limits {
        interrupt: Some(&INTERRUPTED),
        ..Limits::none()
    }
}

/// Installs the handler (once per process; later calls do nothing). After
/// the first Ctrl-C no output is put in place.
pub fn install() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        output::hold_outputs_on(&INTERRUPTED);
        output::on_first_temporary(arm);
        #[cfg(unix)]
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            // In this order: a signal that finds the flag up exits before
            // the flag is raised again.
            let status = i32::from(super::INTERRUPTED_CODE);
            let _ = signal_hook::flag::register_conditional_shutdown(signal, status, &INTERRUPTED);
            let _ = signal_hook::flag::register(signal, &INTERRUPTED);
        }
        #[cfg(not(unix))]
        arm();
    });
}

/// Moves the handler to a thread of its own, whose second Ctrl-C also
/// removes every temporary file before it exits (once; called before the
/// first temporary is made). Its signal handler replaces the one
/// [`install`] set, so a Ctrl-C is handled by one or the other; the flag
/// they share says whether one came before.
fn arm() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let _ = ctrlc::set_handler(|| {
            if INTERRUPTED.swap(true, Ordering::SeqCst) {
                output::discard_pending();
                std::process::exit(i32::from(super::INTERRUPTED_CODE));
            }
        });
    });
}
