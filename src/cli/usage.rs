//! Errors of the command line itself, as the argument parser finds them
//! (a value a flag refuses, a value not among its choices, flags that
//! exclude each other, an unknown flag), reported like the engine's own
//! flag errors: the flag and its value, with a caret under what is wrong.

use clap::error::{ContextKind, ContextValue, ErrorKind};
use engine::error::{Error, ErrorKind as Kind, Span};

/// Reports the parser's error `e` and returns the exit code; help and
/// version requests, and errors with nothing to point at, print as the
/// parser words them.
pub fn report(e: &clap::Error) -> u8 {
    let context = |kind: ContextKind| match e.get(kind) {
        Some(ContextValue::String(s)) => Some(s.clone()),
        _ => None,
    };
    // The parser's own wording, first line, and its tip.
    let rendered = e.render().to_string();
    let said = rendered
        .lines()
        .next()
        .unwrap_or_default()
        .trim_start_matches("error: ")
        .to_string();
    let tip = rendered
        .lines()
        .find_map(|l| l.trim().strip_prefix("tip: "))
        .map(str::to_string);
    let arg = context(ContextKind::InvalidArg);
    let value = context(ContextKind::InvalidValue);
    let err = match (e.kind(), arg, value) {
        (ErrorKind::ValueValidation, Some(arg), Some(value)) => {
            let why = std::error::Error::source(e).map_or(said, ToString::to_string);
            Error::option(
                Kind::BadValue,
                flag_of(&arg),
                &value,
                Span::new(0, value.len()),
                why,
            )
        }
        (ErrorKind::InvalidValue, Some(arg), Some(value)) => {
            let choices = match e.get(ContextKind::ValidValue) {
                Some(ContextValue::Strings(v)) => v.join(", "),
                _ => String::new(),
            };
            let kind = if value.is_empty() {
                Kind::Usage
            } else {
                Kind::UnknownName
            };
            let why = if value.is_empty() && choices.is_empty() {
                "a value is needed".to_string()
            } else if value.is_empty() {
                format!("a value is needed, one of {choices}")
            } else {
                format!("{value} is not one of {choices}")
            };
            Error::option(kind, flag_of(&arg), &value, Span::new(0, value.len()), why)
        }
        (ErrorKind::UnknownArgument, Some(arg), _) => {
            Error::switch(Kind::Usage, flag_of(&arg), said)
        }
        (ErrorKind::ArgumentConflict, Some(arg), _) => {
            Error::switch(Kind::Conflict, flag_of(&arg), said)
        }
        _ => {
            // Help, the version, a missing argument or subcommand: the
            // parser prints them and gives their exit code.
            let _ = e.print();
            return u8::try_from(e.exit_code()).unwrap_or(super::BAD_INPUT);
        }
    };
    let err = match tip {
        Some(t) => err.with_help(t),
        None => err,
    };
    super::out::warn(err);
    super::BAD_INPUT
}

/// The flag of an argument as the parser shows it: `--threads <N>` is
/// `--threads`.
fn flag_of(arg: &str) -> &str {
    arg.split(' ').next().unwrap_or(arg)
}
