//! The `engine` command line: parses the arguments, runs the subcommand and
//! turns its result into the exit code. Each subcommand lives in `cli/`.

#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod cli;

use std::process::ExitCode;

/// Blocks of at least this many bytes are mapped from the system on their
/// own, and given back to it when freed: glibc's own starting threshold.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
const MAPPED_FROM: i32 = 128 << 10;

/// Has the allocator give every large block back to the system when it is
/// freed, so that the resident memory follows what the program holds.
/// glibc's malloc maps blocks from 128 KiB on, but raises that threshold
/// (up to 32 MiB) to the size of each mapped block freed: past the first
/// steps of a frontier count, its hash tables (64 per step, each growing
/// by doubling) came from the heap, and the room they freed stayed
/// resident — 80 MB more than the tables and lists held on a 9x9 count at
/// 600 MB, so that the budget of `--memory` did not hold in resident
/// terms (BENCHMARKS.md). A fixed threshold keeps them mapped; a table of
/// fewer bytes is one of 64 of a step of under 8 MiB.
fn return_freed_blocks() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt sets one of glibc's allocator tunables; it is called
    // before any other thread exists, and any value is valid for it.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, MAPPED_FROM);
    }
}

fn main() -> ExitCode {
    return_freed_blocks();
    let args = match cli::Cli::parse_args() {
        Ok(args) => args,
        Err(e) => return ExitCode::from(cli::usage::report(&e)),
    };
    let code = match args.command {
        cli::Command::Run(a) => cli::run::exec(a),
        cli::Command::Check(a) => cli::check::exec(a),
        cli::Command::Count(a) => cli::count::exec(a),
        cli::Command::Make(a) => cli::make::exec(a),
        cli::Command::Verify(a) => cli::verify::exec(a),
        cli::Command::Archive(a) => cli::archive::exec(a),
        cli::Command::Serve(a) => cli::serve::exec(a),
    };
    match code {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            // The library names options by the puzzle's fields; the
            // command line by its flags.
            cli::out::warn(e.named(&cli::Flags));
            ExitCode::from(cli::BAD_INPUT)
        }
    }
}
