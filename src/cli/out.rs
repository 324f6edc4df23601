//! Standard output and standard error, every write checked. A closed pipe
//! (`engine … | head -c 1`) is not an error: the reader has what it wanted,
//! so the rest of the output is dropped quietly and the command goes on
//! (to save, to write its GIFs) and exits with its usual code. Any other
//! failure (a full disk, `> /dev/full`) is an error that names standard
//! output and its reason, and the command exits 2: output is never lost
//! silently, and a failed write never panics.

use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use engine::error::{Error, ErrorKind};

/// Set when standard output turned out to be a closed pipe.
static CLOSED: AtomicBool = AtomicBool::new(false);

/// Standard output, locked, with a closed pipe turned into a sink. Other
/// write errors are returned; [`failed`] words them.
pub struct Stdout {
    inner: io::StdoutLock<'static>,
}

/// Standard output (see [`Stdout`]).
pub fn stdout() -> Stdout {
    Stdout {
        inner: io::stdout().lock(),
    }
}

/// `r` with a broken pipe counted as done.
fn quiet_pipe<T>(r: io::Result<T>, done: T) -> io::Result<T> {
    match r {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
            CLOSED.store(true, Ordering::Relaxed);
            Ok(done)
        }
        r => r,
    }
}

impl Write for Stdout {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if CLOSED.load(Ordering::Relaxed) {
            return Ok(buf.len());
        }
        let r = self.inner.write(buf);
        quiet_pipe(r, buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        if CLOSED.load(Ordering::Relaxed) {
            return Ok(());
        }
        let r = self.inner.flush();
        quiet_pipe(r, ())
    }
}

/// The error for a failed write to standard output.
pub fn failed(e: io::Error) -> Error {
    Error::about(
        ErrorKind::Io,
        "standard output",
        format!("cannot write the output: {e}"),
    )
}

/// Prints `text` to standard output and flushes it.
pub fn print(text: &str) -> Result<(), Error> {
    let mut out = stdout();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(failed)
}

/// Prints `message` and a newline to standard error. A failure to do so
/// cannot be reported anywhere, and is ignored rather than a panic.
pub fn warn(message: impl std::fmt::Display) {
    let mut err = io::stderr().lock();
    let _ = writeln!(err, "{message}");
}
