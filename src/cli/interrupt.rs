//! The one Ctrl-C handler: the first Ctrl-C raises a flag that every halt
//! of the command looks at; a second one exits at once, removing any output
//! file still being written. SIGTERM and SIGHUP are handled the same way, so
//! a process asked to end leaves no temporary file behind either.

use std::sync::atomic::{AtomicBool, Ordering};

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
    output::hold_outputs_on(&INTERRUPTED);
    let _ = ctrlc::set_handler(|| {
        if INTERRUPTED.swap(true, Ordering::SeqCst) {
            output::discard_pending();
            std::process::exit(i32::from(super::INTERRUPTED_CODE));
        }
    });
}
