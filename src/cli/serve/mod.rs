//! `engine serve`: the studio, a local web server with one page — an
//! editor that checks the puzzle as it is typed, and searches drawn live
//! by the HTML player's code. This module binds the address, hands each
//! connection to a thread of its own and shuts down on Ctrl-C; `wire`
//! reads requests and writes answers, `http` guards them, `api` routes them, `runs` runs the searches and
//! streams them, `keep` makes their files, `shelf` saves them to the
//! archive and reads it back, `maker` makes puzzles, `page` is the page.
//!
//! The server is synchronous: each connection is handled on a plain
//! thread, like the rest of this program (threads and rayon, no async
//! runtime; axum would bring tokio for a server that answers one person on
//! the loopback), and requests are parsed by `httparse`. A thread per
//! connection, each with its own deadlines, is what keeps slow clients
//! from holding up others: a pool of readers would let a burst of them
//! take every reader.

mod api;
mod http;
mod keep;
mod maker;
mod page;
mod runs;
mod shelf;
mod wire;

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use engine::error::{Error, ErrorKind};

use super::{DONE, interrupt, out};

/// The port served when none is given.
pub const DEFAULT_PORT: u16 = 8737;
/// The most connections handled at once (a stream counts while it lasts);
/// more are answered 503 at once.
const MAX_HANDLERS: usize = 256;
/// Stack of a request's thread: checking a puzzle recurses on deeply
/// nested input, as on the command line's main thread.
const STACK: usize = 8 << 20;
/// The send buffer of a connection: a few seconds of a stream, and enough
/// for a download at the loopback's speed.
const SEND_BUFFER: usize = 32 << 10;
/// How long Ctrl-C waits for the requests in hand to finish.
const GRACE: Duration = Duration::from_secs(5);

/// The studio: a local web page to write puzzles and watch them solved.
#[derive(clap::Args)]
pub struct ServeArgs {
    /// The port to listen on (0: any free port; the address is printed).
    #[arg(long, value_name = "P", default_value_t = DEFAULT_PORT)]
    port: u16,
    /// The address to listen on. Only the loopback (127.0.0.1, the
    /// default) keeps the studio to this machine; another address is
    /// served with a warning.
    #[arg(long, value_name = "ADDR", default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    bind: IpAddr,
    /// The folder whose puzzle files (`*.ron`) the studio lists to open.
    #[arg(long, value_name = "DIR", default_value = "puzzles")]
    puzzles: PathBuf,
    /// Stop each search after this many seconds of running (paused time
    /// not counted).
    #[arg(long, value_name = "SECS", value_parser = super::seconds, default_value_t = 60.0)]
    time_limit: f64,
    /// The archive the page saves runs to, when asked, and browses.
    #[command(flatten)]
    archive: super::ArchiveFlag,
}

/// What every request's handler shares.
pub struct Studio {
    /// The address served.
    addr: SocketAddr,
    /// The folder of puzzles to list.
    puzzles: PathBuf,
    /// The searches: queued, running and finished.
    runs: runs::Runs,
    /// The archive runs are saved to.
    shelf: shelf::Shelf,
}

/// Runs `engine serve` until Ctrl-C; the exit code.
pub fn exec(args: ServeArgs) -> Result<u8, Error> {
    interrupt::install();
    // A bad --archive is refused at once; with none, the default archive
    // is used if the system has a place for it.
    let archive = match &args.archive.archive {
        Some(_) => Some(args.archive.path()?),
        None => args.archive.path().ok(),
    };
    let cannot = |e: &dyn std::fmt::Display| {
        Error::about(
            ErrorKind::Io,
            &format!("{}:{}", args.bind, args.port),
            format!("cannot listen there: {e}"),
        )
    };
    let listener = std::net::TcpListener::bind(SocketAddr::new(args.bind, args.port))
        .and_then(|l| l.set_nonblocking(true).map(|()| l))
        .map_err(|e| cannot(&e))?;
    let addr = listener.local_addr().map_err(|e| cannot(&e))?;
    if !args.bind.is_loopback() {
        out::warn(format_args!(
            "warning: serving on {} — other machines that reach this address can use the studio and run searches on this one",
            args.bind
        ));
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let studio = Arc::new(Studio {
        addr,
        puzzles: args.puzzles.clone(),
        runs: runs::Runs::new(cores, args.time_limit),
        shelf: shelf::Shelf::new(archive),
    });
    out::print(&format!(
        "The studio is at {} (Ctrl-C stops it)\n",
        http::url(addr)
    ))?;
    if let Some(path) = studio.shelf.path() {
        out::print(&format!(
            "Runs are saved to {} when the page asks\n",
            path.display()
        ))?;
    }
    let handlers = Arc::new(AtomicUsize::new(0));
    while !interrupt::INTERRUPTED.load(Ordering::SeqCst) {
        let stream = match listener.accept() {
            Ok((stream, _)) => stream,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                wait_for_connection(&listener);
                continue;
            }
            Err(e) => {
                out::warn(format_args!("engine serve: {e}"));
                // Out of descriptors, say: give the others time to close.
                std::thread::sleep(Duration::from_millis(100));
                continue;
            }
        };
        if let Err(e) = prepare(&stream) {
            out::warn(format_args!("engine serve: {e}"));
            continue;
        }
        if handlers.fetch_add(1, Ordering::SeqCst) >= MAX_HANDLERS {
            handlers.fetch_sub(1, Ordering::SeqCst);
            http::busy(stream);
            continue;
        }
        let studio = Arc::clone(&studio);
        let count = Arc::clone(&handlers);
        let spawned = std::thread::Builder::new()
            .name("request".into())
            .stack_size(STACK)
            .spawn(move || {
                if let wire::Arrival::Request(request) = wire::read_request(stream) {
                    api::handle(&studio, request);
                }
                count.fetch_sub(1, Ordering::SeqCst);
            });
        if spawned.is_err() {
            handlers.fetch_sub(1, Ordering::SeqCst);
        }
    }
    // Ctrl-C: every search stops (their halts watch the same flag), the
    // streams end, and the server closes once the requests in hand are
    // answered.
    studio.runs.stop_all();
    let began = Instant::now();
    while handlers.load(Ordering::SeqCst) > 0 && began.elapsed() < GRACE {
        std::thread::sleep(Duration::from_millis(20));
    }
    drop(listener);
    out::print("The studio stopped.\n")?;
    Ok(DONE)
}

/// Waits until the listener has a connection to accept, or 100 ms (so
/// that Ctrl-C is seen).
fn wait_for_connection(listener: &std::net::TcpListener) {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    let mut fds = [PollFd::new(listener, PollFlags::IN)];
    let tick = Timespec {
        tv_sec: 0,
        tv_nsec: 100_000_000,
    };
    let _ = poll(&mut fds, Some(&tick));
}

/// Readies an accepted connection: blocking, a send buffer of a fixed
/// size (the system would let it grow to megabytes for a client that
/// reads nothing), and writes that fail after [`wire::SEND_TIME`] with the buffer
/// full. So a client that stops reading what it is sent (a stream, a
/// download) is soon taken to be gone, and its search stops, instead of
/// holding a handler and a slot to the time limit.
fn prepare(stream: &std::net::TcpStream) -> std::io::Result<()> {
    stream.set_nonblocking(false)?;
    stream.set_write_timeout(Some(wire::SEND_TIME))?;
    rustix::net::sockopt::set_socket_send_buffer_size(stream, SEND_BUFFER)?;
    Ok(())
}
