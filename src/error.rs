//! Errors that point at text: every user-facing error names where it happened
//! (`file:line:col`), shows the line and puts a caret under the offending text.
//!
//! Each error has a [`ErrorKind`], one per cause, for callers to match on
//! instead of its words. An error about a value given outside any file (on
//! the command line) keeps that [`Origin`] as data, named as the library
//! names the option (`start`, `solutions: Unique`); a front end that calls
//! its options otherwise words the error again with its own [`Names`]
//! ([`Error::named`]).

use std::fmt;
use std::sync::Arc;

use unicode_width::UnicodeWidthChar;

/// What went wrong, one kind per cause: what callers and tests match on.
/// Every kind exits 2 on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// A file could not be read or written: missing, unreadable, not a
    /// regular file (a directory, a device), a path naming a directory, a
    /// failed write (a full disk, standard output).
    Io,
    /// The file is not UTF-8 text.
    Encoding,
    /// The file holds no puzzle: it is empty, or only comments.
    Empty,
    /// Text that does not read: RON's syntax (a missing comma, a bracket
    /// or string left open, text after the puzzle), or the grammar of a
    /// piece, board or clue picture.
    Syntax,
    /// A field the puzzle (or a solver's options) does not have.
    UnknownField,
    /// A field the puzzle needs is missing.
    MissingField,
    /// Something given twice: a field, a piece name, a removed square, a
    /// topology, a clue's step.
    Duplicate,
    /// A value of the wrong type: a number where a string belongs, quotes
    /// around a name, a fraction where a whole number belongs.
    WrongType,
    /// A word that names nothing: a piece, a Betza atom, a topology, a
    /// variant (`tour: Circular`), a value not among a flag's choices, a
    /// run not in the archive.
    UnknownName,
    /// A value of the right type that is not allowed: out of range, zero
    /// where one is the least, a square off the board or removed.
    BadValue,
    /// Piece definitions that name each other in a cycle.
    Cycle,
    /// Values in one puzzle that disagree: a clue and the start or end, a
    /// clue picture and the board, a symmetry and the board, the piece or
    /// the ends, an open tour's start and end on one square.
    Mismatch,
    /// Options that cannot be asked together, whatever their values (the
    /// puzzle's rules of which options combine: a solver and a symmetry,
    /// clues and a solver, a search for two solutions and saving); also two
    /// outputs to one file, or an output over an input.
    Conflict,
    /// More than a budget or a limit allows: a move graph or a population
    /// over its memory budget, a file over its size, too many moves, too
    /// deep a nesting, a GIF too large.
    TooBig,
    /// The archive cannot be used: not an SQLite database, another
    /// program's, written by a newer engine, damaged, or SQLite failed.
    Archive,
    /// The command line itself: no puzzle given, an unknown flag, a
    /// missing argument.
    Usage,
    /// A fault of the program, not of its input.
    Internal,
}

/// Where the text an error points at came from.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Origin {
    /// A file or standard input (`file:line:col`), or a thing with no text
    /// to show (an output path, standard output, an archive).
    #[default]
    Text,
    /// A value given outside any file (on the command line) for `option`,
    /// named as the error's maker names it: the library by the puzzle's
    /// field or option (`start`, `solver`, `solutions: Unique`), the
    /// command line by its flag.
    Given {
        /// The option.
        option: String,
        /// The value given; `None` for a switch, which takes none.
        value: Option<String>,
        /// The offending part of the value, in bytes.
        span: Span,
    },
}

/// How a front end calls what the library names by a puzzle's fields and
/// options (`start`, `solutions: Unique`, `node_limit`): the command line
/// by its flags (`--start`, `--unique`, `--node-limit`).
pub trait Names {
    /// What the front end's users call `option`, if they can give it.
    fn name(&self, option: &str) -> Option<&str>;
}

/// The library's own names: options as a puzzle file writes them, none
/// given another way.
pub struct Fields;

impl Names for Fields {
    fn name(&self, _option: &str) -> Option<&str> {
        None
    }
}

/// `option` as `names` calls it, else as the library writes it, in
/// backticks: `` `start` `` or `--start`.
pub fn called(names: &dyn Names, option: &str) -> String {
    names
        .name(option)
        .map_or_else(|| format!("`{option}`"), str::to_string)
}

/// An error's words that name options, kept so that a front end can word
/// the error again with its own names for them.
pub trait Wording: fmt::Debug + Send + Sync {
    /// The message and the help, with options named by `names`.
    fn words(&self, names: &dyn Names) -> (String, Option<String>);
}

/// A byte range in a source text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// A span from `start` to `end` (bytes).
    pub fn new(start: usize, end: usize) -> Span {
        Span {
            start,
            end: end.max(start),
        }
    }
}

/// A user-facing error: its kind, message, location and the offending text.
///
/// An error in a file names `file:line:col`; one about something with no
/// lines — a value given on the command line, standard output, an output
/// path — has `line` 0 and names only the thing (`start: …`), showing a
/// given value with a caret under it.
///
/// It is kept small (functions return it in a `Result`): positions are
/// `u32` (a puzzle file has at most 32 MiB), and what few errors have — a
/// value given outside a file, words that name options — is boxed.
#[derive(Clone, Debug)]
pub struct Error {
    /// What went wrong, for callers to match on.
    pub kind: ErrorKind,
    /// File (or option, or other thing) the text came from.
    pub file: String,
    /// 1-based line, or 0 for no position.
    pub line: u32,
    /// 1-based column, in characters.
    pub col: u32,
    /// What is wrong, in one sentence.
    pub message: String,
    /// The whole source line the error is on (without its newline).
    pub source_line: String,
    /// Number of characters to underline (at least 1).
    pub width: u32,
    /// An optional hint printed after the caret.
    pub help: Option<String>,
    /// Where a value given outside any file came from, and the words that
    /// name options; none for most errors.
    extra: Option<Box<Extra>>,
}

/// What few errors carry beside their text.
#[derive(Clone, Debug, Default)]
struct Extra {
    /// Where the offending text came from.
    origin: Origin,
    /// The words that name options, to word them again ([`Error::named`]).
    wording: Option<Arc<dyn Wording>>,
}

/// The origin of an error with none given: a file, or a thing.
const TEXT: &Origin = &Origin::Text;

impl PartialEq for Error {
    /// Errors are equal when they say the same of the same place; how
    /// their words were made does not count.
    fn eq(&self, other: &Error) -> bool {
        (
            self.kind,
            self.origin(),
            &self.file,
            self.line,
            self.col,
            &self.message,
            &self.source_line,
            self.width,
            &self.help,
        ) == (
            other.kind,
            other.origin(),
            &other.file,
            other.line,
            other.col,
            &other.message,
            &other.source_line,
            other.width,
            &other.help,
        )
    }
}

impl Eq for Error {}

/// `n` as a position: a count that does not fit is shown as the largest.
fn position(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl Error {
    /// An error of `kind` at byte range `span` of `text`, which came from
    /// `file`.
    pub fn at(
        kind: ErrorKind,
        file: &str,
        text: &str,
        span: Span,
        message: impl Into<String>,
    ) -> Error {
        let start = floor_char(text, span.start.min(text.len()));
        let end = floor_char(text, span.end.min(text.len())).max(start);
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        let (line, col) = line_col(text, start);
        let width = text[start..end.min(line_end)].chars().count().max(1);
        Error {
            kind,
            file: file.to_string(),
            line: position(line),
            col: position(col),
            message: message.into(),
            source_line: text[line_start..line_end]
                .trim_end_matches('\r')
                .to_string(),
            width: position(width),
            help: None,
            extra: None,
        }
    }

    /// An error of `kind` at a 1-based line and column of `text`.
    pub fn at_line_col(
        kind: ErrorKind,
        file: &str,
        text: &str,
        line: usize,
        col: usize,
        message: impl Into<String>,
    ) -> Error {
        let offset = offset_of(text, line, col);
        Error::at(kind, file, text, Span::new(offset, offset), message)
    }

    /// An error about a whole file that has no meaningful position (missing,
    /// unreadable, not UTF-8 before any line); it is reported at 1:1.
    pub fn whole_file(kind: ErrorKind, file: &str, message: impl Into<String>) -> Error {
        Error {
            kind,
            file: file.to_string(),
            line: 1,
            col: 1,
            message: message.into(),
            source_line: String::new(),
            width: 1,
            help: None,
            extra: None,
        }
    }

    /// An error about `what` (an output path, standard output, an
    /// archive), which has no line to point at.
    pub fn about(kind: ErrorKind, what: &str, message: impl Into<String>) -> Error {
        Error {
            line: 0,
            col: 0,
            ..Error::whole_file(kind, what, message)
        }
    }

    /// An error in the value `value` given outside any file for `option`
    /// (a puzzle field like `start`, or a command-line flag like `--cell`),
    /// at byte range `span` of the value: reported as the option, with the
    /// option and its value shown and a caret under the span.
    pub fn option(
        kind: ErrorKind,
        option: &str,
        value: &str,
        span: Span,
        message: impl Into<String>,
    ) -> Error {
        Error::shown(kind, option, Some(value), span, message.into()).with_origin(Origin::Given {
            option: option.to_string(),
            value: Some(value.to_string()),
            span,
        })
    }

    /// An error about the switch `option`, given outside any file with no
    /// value (like `solutions: Unique` asked by `--unique`): reported as the
    /// option, with a caret under it.
    pub fn switch(kind: ErrorKind, option: &str, message: impl Into<String>) -> Error {
        Error::shown(kind, option, None, Span::default(), message.into()).with_origin(
            Origin::Given {
                option: option.to_string(),
                value: None,
                span: Span::default(),
            },
        )
    }

    /// The error shown for an option named `name` and its value, if it has
    /// one (a caret under `span` of it), else for the name alone.
    fn shown(
        kind: ErrorKind,
        name: &str,
        value: Option<&str>,
        span: Span,
        message: String,
    ) -> Error {
        let located = match value {
            Some(value) => {
                let shown = format!("{name} {value}");
                let at = Span::new(name.len() + 1 + span.start, name.len() + 1 + span.end);
                let e = Error::at(kind, name, &shown, at, message);
                Error {
                    // A value on several lines shows only its first.
                    source_line: shown.lines().next().unwrap_or_default().to_string(),
                    ..e
                }
            }
            None => Error::at(kind, name, name, Span::new(0, name.len()), message),
        };
        Error { line: 0, ..located }
    }

    /// The error with the origin `origin`.
    fn with_origin(mut self, origin: Origin) -> Error {
        self.extra.get_or_insert_default().origin = origin;
        self
    }

    /// Where the offending text came from: a file, or a value given
    /// outside any (then `file` is the option's name).
    pub fn origin(&self) -> &Origin {
        self.extra.as_ref().map_or(TEXT, |x| &x.origin)
    }

    /// Adds a hint printed under the caret.
    pub fn with_help(mut self, help: impl Into<String>) -> Error {
        self.help = Some(help.into());
        self
    }

    /// Words the message and the help with `wording`, which names options
    /// as the library does now, and as a front end does in [`Error::named`].
    pub fn worded(mut self, wording: impl Wording + 'static) -> Error {
        let (message, help) = wording.words(&Fields);
        self.message = message;
        self.help = help;
        self.extra.get_or_insert_default().wording = Some(Arc::new(wording));
        self
    }

    /// The error as a front end that calls options by `names` shows it: a
    /// value given outside any file is named as the front end names its
    /// option (`--start` for `start`), and words that name options are
    /// worded again.
    pub fn named(self, names: &dyn Names) -> Error {
        let Some(extra) = self.extra.clone() else {
            return self;
        };
        let mut e = match &extra.origin {
            Origin::Given {
                option,
                value,
                span,
            } => match names.name(option) {
                Some(name) => Error {
                    help: self.help.clone(),
                    extra: self.extra.clone(),
                    ..Error::shown(
                        self.kind,
                        name,
                        value.as_deref(),
                        *span,
                        self.message.clone(),
                    )
                },
                None => self,
            },
            Origin::Text => self,
        };
        if let Some(wording) = &extra.wording {
            let (message, help) = wording.words(names);
            e.message = message;
            e.help = help;
        }
        e
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Names and messages may quote the user's text: control characters
        // are shown escaped, never sent to the terminal.
        let file = escape_controls(&self.file);
        let message = escape_controls(&self.message);
        if self.line == 0 {
            write!(f, "error: {file}: {message}")?;
        } else {
            write!(f, "error: {file}:{}:{}: {message}", self.line, self.col)?;
        }
        if !self.source_line.is_empty() {
            let number = if self.line == 0 {
                String::new()
            } else {
                self.line.to_string()
            };
            let gutter = number.len();
            // Tabs are shown as one space so the caret lines up, and other
            // control characters visibly.
            let chars: Vec<char> = self
                .source_line
                .chars()
                .map(|c| match c {
                    '\t' => ' ',
                    c if c.is_control() => '\u{FFFD}',
                    c => c,
                })
                .collect();
            // A long line is shown as a window around the caret.
            let at = (self.col as usize).saturating_sub(1).min(chars.len());
            let from = at.saturating_sub(SHOW_BEFORE);
            // A long span is underlined only at its start.
            let span = (self.width as usize).clamp(1, SHOW_SPAN);
            let to = (at + span + SHOW_AFTER).min(chars.len());
            let mut shown: String = chars[from..to].iter().collect();
            let mut pad = at - from;
            if from > 0 {
                shown.insert(0, '…');
                pad += 1;
            }
            if to < chars.len() {
                shown.push('…');
            }
            let width = span.min(to.saturating_sub(at)).max(1);
            // The caret goes under the text as a terminal shows it: a wide
            // character (`日`, most emoji) takes two columns, a combining
            // accent none.
            let columns =
                |cs: &[char]| -> usize { cs.iter().map(|c| c.width().unwrap_or(0)).sum() };
            let pad = pad - (at - from) + columns(&chars[from..at]);
            let width = columns(&chars[at..(at + width).min(chars.len())]).max(1);
            write!(f, "\n{:gutter$} |", "")?;
            write!(f, "\n{number:gutter$} | {shown}")?;
            write!(
                f,
                "\n{:gutter$} | {}{}",
                "",
                " ".repeat(pad),
                "^".repeat(width)
            )?;
            if let Some(help) = &self.help {
                write!(f, " {help}")?;
            }
        } else if let Some(help) = &self.help {
            write!(f, "\n  help: {help}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

/// `text` with its control characters (escape sequences, carriage returns,
/// newlines…) written as escapes like `\u{1b}`, so printing it cannot
/// change the terminal.
pub fn escape_controls(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Characters of a long source line shown before and after the caret.
const SHOW_BEFORE: usize = 60;
const SHOW_AFTER: usize = 40;
/// The most characters of a span underlined.
const SHOW_SPAN: usize = 60;

/// The 1-based line and character column of byte `at` of `text` (clamped
/// to the text, and back to the start of a character).
pub fn line_col(text: &str, at: usize) -> (usize, usize) {
    let at = floor_char(text, at.min(text.len()));
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    (
        1 + text[..at].matches('\n').count(),
        1 + text[line_start..at].chars().count(),
    )
}

/// Byte offset of a 1-based line and character column in `text` (clamped).
pub fn offset_of(text: &str, line: usize, col: usize) -> usize {
    let mut offset = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            let within = l
                .char_indices()
                .nth(col.saturating_sub(1))
                .map_or(l.trim_end_matches('\n').len(), |(b, _)| b);
            return offset + within;
        }
        offset += l.len();
    }
    text.len()
}

fn floor_char(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caret_points_at_the_span() {
        let text = "first\nboard: \"8x8 - z9\"\n";
        let start = text.find("z9").unwrap_or(0);
        let e = Error::at(
            ErrorKind::BadValue,
            "p.ron",
            text,
            Span::new(start, start + 2),
            "off the board",
        );
        assert_eq!((e.line, e.col, e.width), (2, 15, 2));
        let shown = e.to_string();
        assert!(shown.contains("p.ron:2:15: off the board"), "{shown}");
        assert!(
            shown.ends_with(&format!("| {}^^", " ".repeat(14))),
            "{shown}"
        );
    }

    #[test]
    fn long_lines_are_shown_as_a_window() {
        let text = format!("{}z9{}", "a".repeat(5000), "b".repeat(5000));
        let e = Error::at(
            ErrorKind::BadValue,
            "p.ron",
            &text,
            Span::new(5000, 5002),
            "here",
        );
        let shown = e.to_string();
        assert!(shown.len() < 400, "{shown}");
        let lines: Vec<&str> = shown.lines().collect();
        let caret = lines[3].find('^').unwrap_or(0);
        let z = lines[2].find("z9").unwrap_or(1);
        // Both lines start with the same gutter; `…` is one column but three bytes.
        assert_eq!(lines[2][..z].chars().count(), caret);
    }

    /// Calls `start` `--start` and `solutions: Unique` `--unique`.
    struct Flags;

    impl Names for Flags {
        fn name(&self, option: &str) -> Option<&str> {
            match option {
                "start" => Some("--start"),
                "solutions: Unique" => Some("--unique"),
                _ => None,
            }
        }
    }

    #[test]
    fn a_given_value_is_named_as_the_front_end_calls_its_option() {
        let e = Error::option(
            ErrorKind::BadValue,
            "start",
            "z9",
            Span::new(0, 2),
            "z9 is off the board",
        );
        assert_eq!(
            e.to_string(),
            "error: start: z9 is off the board\n |\n | start z9\n |       ^^"
        );
        let named = e.clone().named(&Flags);
        assert_eq!(
            named.to_string(),
            "error: --start: z9 is off the board\n |\n | --start z9\n |         ^^"
        );
        assert_eq!((named.kind, named.origin()), (e.kind, e.origin()));
        // An option the front end does not name stays as it is.
        assert_eq!(e.clone().named(&Fields), e);
        let e = Error::switch(ErrorKind::Conflict, "solutions: Unique", "no");
        assert_eq!(
            e.named(&Flags).to_string(),
            "error: --unique: no\n |\n | --unique\n | ^^^^^^^^"
        );
    }

    #[derive(Debug)]
    struct Larger;

    impl Wording for Larger {
        fn words(&self, names: &dyn Names) -> (String, Option<String>) {
            (format!("a larger {} may do", called(names, "start")), None)
        }
    }

    #[test]
    fn words_that_name_options_are_worded_again() {
        let e = Error::about(ErrorKind::TooBig, "x", "").worded(Larger);
        assert_eq!(e.message, "a larger `start` may do");
        assert_eq!(e.named(&Flags).message, "a larger --start may do");
    }

    #[test]
    fn offset_of_round_trips() {
        let text = "ab\ncdé\nf";
        assert_eq!(offset_of(text, 2, 3), 5);
        assert_eq!(offset_of(text, 3, 1), 8);
        assert_eq!(offset_of(text, 9, 9), text.len());
    }
}
