//! Errors that point at text: every user-facing error names where it happened
//! (`file:line:col`), shows the line and puts a caret under the offending text.

use std::fmt;

use unicode_width::UnicodeWidthChar;

/// Where a piece of text came from: a puzzle file, or a command-line flag.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Origin {
    /// The file name (or `command line` for flags) shown before `:line:col`.
    pub name: String,
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

/// A user-facing error: message plus location and the offending text.
///
/// An error in a file names `file:line:col`; one about something with no
/// lines — a command-line flag, standard output, an output path — has
/// `line` 0 and names only the thing (`--start: …`), showing a flag's value
/// with a caret under it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    /// File (or flag, or other thing) the text came from.
    pub file: String,
    /// 1-based line, or 0 for no position.
    pub line: usize,
    /// 1-based column, in characters.
    pub col: usize,
    /// What is wrong, in one sentence.
    pub message: String,
    /// The whole source line the error is on (without its newline).
    pub source_line: String,
    /// Number of characters to underline (at least 1).
    pub width: usize,
    /// An optional hint printed after the caret.
    pub help: Option<String>,
}

impl Error {
    /// An error at byte range `span` of `text`, which came from `file`.
    pub fn at(file: &str, text: &str, span: Span, message: impl Into<String>) -> Error {
        let start = floor_char(text, span.start.min(text.len()));
        let end = floor_char(text, span.end.min(text.len())).max(start);
        let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        let line = 1 + text[..start].matches('\n').count();
        let col = 1 + text[line_start..start].chars().count();
        let width = text[start..end.min(line_end)].chars().count().max(1);
        Error {
            file: file.to_string(),
            line,
            col,
            message: message.into(),
            source_line: text[line_start..line_end]
                .trim_end_matches('\r')
                .to_string(),
            width,
            help: None,
        }
    }

    /// An error at a 1-based line and column of `text`.
    pub fn at_line_col(
        file: &str,
        text: &str,
        line: usize,
        col: usize,
        message: impl Into<String>,
    ) -> Error {
        let offset = offset_of(text, line, col);
        Error::at(file, text, Span::new(offset, offset), message)
    }

    /// An error about a whole file that has no meaningful position (missing,
    /// unreadable, not UTF-8 before any line); it is reported at 1:1.
    pub fn whole_file(file: &str, message: impl Into<String>) -> Error {
        Error {
            file: file.to_string(),
            line: 1,
            col: 1,
            message: message.into(),
            source_line: String::new(),
            width: 1,
            help: None,
        }
    }

    /// An error about `what` (an output path, standard output, an
    /// archive), which has no line to point at.
    pub fn about(what: &str, message: impl Into<String>) -> Error {
        Error {
            line: 0,
            col: 0,
            ..Error::whole_file(what, message)
        }
    }

    /// An error in the value of the command-line flag `flag` (like
    /// `--start`), at byte range `span` of `value`: reported as the flag,
    /// with the flag and its value shown and a caret under the span.
    pub fn flag(flag: &str, value: &str, span: Span, message: impl Into<String>) -> Error {
        let shown = format!("{flag} {value}");
        let at = Span::new(flag.len() + 1 + span.start, flag.len() + 1 + span.end);
        let located = Error::at(flag, &shown, at, message);
        Error {
            line: 0,
            // A value on several lines shows only its first.
            source_line: shown.lines().next().unwrap_or_default().to_string(),
            ..located
        }
    }

    /// An error about the command-line flag `flag` that takes no value
    /// (like `--save`): reported as the flag, with a caret under it.
    pub fn switch(flag: &str, message: impl Into<String>) -> Error {
        Error {
            line: 0,
            ..Error::at(flag, flag, Span::new(0, flag.len()), message)
        }
    }

    /// Adds a hint printed under the caret.
    pub fn with_help(mut self, help: impl Into<String>) -> Error {
        self.help = Some(help.into());
        self
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
            let at = self.col.saturating_sub(1).min(chars.len());
            let from = at.saturating_sub(SHOW_BEFORE);
            // A long span is underlined only at its start.
            let span = self.width.clamp(1, SHOW_SPAN);
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
        let e = Error::at("p.ron", text, Span::new(start, start + 2), "off the board");
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
        let e = Error::at("p.ron", &text, Span::new(5000, 5002), "here");
        let shown = e.to_string();
        assert!(shown.len() < 400, "{shown}");
        let lines: Vec<&str> = shown.lines().collect();
        let caret = lines[3].find('^').unwrap_or(0);
        let z = lines[2].find("z9").unwrap_or(1);
        // Both lines start with the same gutter; `…` is one column but three bytes.
        assert_eq!(lines[2][..z].chars().count(), caret);
    }

    #[test]
    fn offset_of_round_trips() {
        let text = "ab\ncdé\nf";
        assert_eq!(offset_of(text, 2, 3), 5);
        assert_eq!(offset_of(text, 3, 1), 8);
        assert_eq!(offset_of(text, 9, 9), text.len());
    }
}
