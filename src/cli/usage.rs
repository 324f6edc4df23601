//! Errors of the command line itself, as the argument parser finds them
//! (a value a flag refuses, a value not among its choices, flags that
//! exclude each other, an unknown flag), reported like the engine's own
//! flag errors: the flag and its value, with a caret under what is wrong,
//! in the tool's words — a number flag says what numbers it takes, an
//! unknown flag the flags it may have meant.

use std::any::TypeId;

use clap::CommandFactory;
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
    let argv: Vec<String> = std::env::args_os()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    let command = subcommand(&argv);
    let err = match (e.kind(), arg, value) {
        (ErrorKind::ValueValidation, Some(arg), Some(value)) => {
            // A number flag's value that is no number of its range is
            // answered with the range; a number its own check refuses,
            // with that check's words.
            let why = match whole_number(&command, flag_of(&arg), &value) {
                Some(range) => range,
                None => std::error::Error::source(e).map_or(said, ToString::to_string),
            };
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
        (ErrorKind::UnknownArgument, Some(arg), _) => match unknown_flag(&command, &argv, &arg) {
            Some(err) => {
                super::out::warn(err);
                return super::BAD_INPUT;
            }
            None => Error::switch(Kind::Usage, flag_of(&arg), said),
        },
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

/// The (sub)command that `argv` runs: its path of names (`engine archive
/// show`) and its definition.
struct Sub {
    path: String,
    command: clap::Command,
}

/// The deepest subcommand that `argv` names, skipping flags before it.
fn subcommand(argv: &[String]) -> Sub {
    let mut command = super::Cli::command();
    // The commands' arguments are built when asked for (`Command`'s
    // `defer`): all of them here, to be read.
    command.build();
    let mut path = "engine".to_string();
    for word in argv.iter().skip(1) {
        if word.starts_with('-') {
            continue;
        }
        match command.find_subcommand(word).cloned() {
            Some(sub) => {
                path = format!("{path} {word}");
                command = sub;
            }
            None => break,
        }
    }
    Sub { path, command }
}

/// The long flags of `sub`, as typed (`--gif`).
fn long_flags(sub: &Sub) -> Vec<String> {
    sub.command
        .get_arguments()
        .filter_map(|a| a.get_long())
        .chain(["help"])
        .map(|l| format!("--{l}"))
        .collect()
}

/// What a number flag takes, when its `value` is not a whole number in its
/// range: `a seed is a whole number from 0 to 18446744073709551615`.
fn whole_number(sub: &Sub, flag: &str, value: &str) -> Option<String> {
    let long = flag.strip_prefix("--")?;
    let arg = sub
        .command
        .get_arguments()
        .find(|a| a.get_long() == Some(long))?;
    let id = arg.get_value_parser().type_id();
    let max = [
        (TypeId::of::<u8>(), u64::from(u8::MAX)),
        (TypeId::of::<u16>(), u64::from(u16::MAX)),
        (TypeId::of::<u32>(), u64::from(u32::MAX)),
        (TypeId::of::<u64>(), u64::MAX),
        (TypeId::of::<usize>(), usize::MAX as u64),
    ]
    .into_iter()
    .find(|(t, _)| id == *t)
    .map(|(_, max)| max)?;
    if value.trim().parse::<u64>().is_ok_and(|n| n <= max) {
        return None;
    }
    let noun = match long {
        "seed" => "a seed".to_string(),
        "fps" => "a frame rate".to_string(),
        "cell" => "a cell's size in pixels".to_string(),
        "max-frames" => "a number of frames".to_string(),
        "clues" => "a number of clues".to_string(),
        "attempts" => "a number of attempts".to_string(),
        "limit" => "a number of rows".to_string(),
        "threads" => "a number of threads".to_string(),
        "count" => "a number of puzzles".to_string(),
        other => format!("a {}", other.replace('-', " ")),
    };
    Some(format!("{noun} is a whole number from 0 to {max}"))
}

/// The flags of `sub` close to `typed` (case aside, or within two edits),
/// closest first.
fn close_flags(sub: &Sub, typed: &str) -> Vec<String> {
    let typed = typed.to_lowercase();
    let mut close: Vec<(usize, String)> = long_flags(sub)
        .into_iter()
        .filter_map(|f| {
            let d = engine::spelling::within_two_edits(&typed, &f)?;
            (d < typed.len().saturating_sub(2)).then_some((d, f))
        })
        .collect();
    close.sort();
    // Only the closest: `--gfi` is `--gif`, not also `--grid`.
    let best = close.first().map(|c| c.0);
    close
        .into_iter()
        .filter(|c| Some(c.0) == best)
        .map(|(_, f)| f)
        .take(3)
        .collect()
}

/// The error for a flag `sub` does not have, which the parser calls `arg`:
/// a misspelt long flag with the flags it may have meant, and a long flag
/// written with one dash (`-gif`, which the parser reads as `-g -i -f`)
/// with the flag itself. `None` for anything else (a negative number).
fn unknown_flag(sub: &Sub, argv: &[String], arg: &str) -> Option<Error> {
    let long = |word: &str| word.split('=').next().unwrap_or(word).to_string();
    let (typed, meant) = if arg.starts_with("--") {
        let typed = long(arg);
        let meant = close_flags(sub, &typed);
        (typed, meant)
    } else {
        // A run of short flags from the word the parser split: one dash and
        // a word, which is a long flag with a dash missing.
        let word = argv.iter().skip(1).find(|w| {
            let letters = w.strip_prefix('-').unwrap_or_default();
            !letters.starts_with('-')
                && letters.len() > 1
                && letters
                    .bytes()
                    .next()
                    .is_some_and(|b| b.is_ascii_alphabetic())
                && letters.contains(arg.trim_start_matches('-'))
        })?;
        let typed = long(word);
        let meant = close_flags(sub, &format!("-{typed}"));
        if meant.is_empty() {
            return None;
        }
        (typed, meant)
    };
    let quoted: Vec<String> = meant.iter().map(|m| format!("`{m}`")).collect();
    let help = if quoted.is_empty() {
        format!("`{} --help` lists the flags", sub.path)
    } else if typed.starts_with("--") {
        format!("did you mean {}?", quoted.join(" or "))
    } else {
        format!(
            "did you mean {}? a long flag starts with two dashes",
            quoted.join(" or ")
        )
    };
    Some(Error::switch(Kind::Usage, &typed, "unknown flag").with_help(help))
}
