//! The `engine` command line: parses the arguments, runs the subcommand and
//! turns its result into the exit code. Each subcommand lives in `cli/`.

#![deny(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
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
