//! RON errors located: RON's message made plainer and moved onto the text
//! that is wrong (not the spaces or comment before it), with the faults
//! RON reports as something else named — a fraction where a whole number
//! belongs, a string or a bracket left open — and the kind of each.

use super::doc::{DUPLICATE_PIECE, Doc, ron_options};
use super::locate::Locator;
use crate::error::{Error, ErrorKind, Span, line_col, offset_of};

/// A message that ends by quoting a number as the program read it (`not
/// inf` for `1e400`) quotes it as the file writes it instead.
fn as_written(err: &mut Error) {
    let written: String = err
        .source_line
        .chars()
        .skip((err.col as usize).saturating_sub(1))
        .take(err.width as usize)
        .collect();
    for read in ["inf", "-inf", "NaN"] {
        if let Some(head) = err.message.strip_suffix(&format!(" not {read}"))
            && !written.is_empty()
        {
            err.message = format!("{head} not {written}");
            return;
        }
    }
}

/// Where the RON error `e` is in `text`, in bytes: RON's span, moved onto
/// the text that is wrong. RON starts some spans at the spaces or the
/// comment before the token it could not read, a number out of range after
/// its sign, and a bad escape at the start of its string.
fn ron_span(text: &str, e: &ron::error::SpannedError) -> Span {
    use ron::error::Error as E;
    let mut start = offset_of(text, e.span.start.line, e.span.start.col);
    let end = offset_of(text, e.span.end.line, e.span.end.col).max(start);
    match &e.code {
        E::IntegerOutOfBounds => {
            if text[..start].ends_with(['-', '+']) {
                start -= 1;
            }
        }
        E::InvalidEscape(_) => {
            if let Some(b) = text[..end].rfind('\\') {
                start = b;
            }
        }
        _ => {
            let next = skip_trivia(text, start);
            // Spaces in a string are its text, not room between tokens;
            // at the end of the file there is no token to point at.
            if next < text.len() && !Locator::new(text).in_string(start) {
                start = next;
            }
        }
    }
    Span::new(start, end.max(start))
}

/// The error for the RON error `e` in `text`, from `file`: RON's message
/// made plainer, at the text that is wrong. Two faults RON reports as
/// something else are named: a number with a fraction or an exponent where
/// a whole number belongs (RON stops reading at its `.`), and a file that
/// ends before its brackets close (RON may expect a comma there).
pub(super) fn ron_error(file: &str, text: &str, e: &ron::error::SpannedError) -> Error {
    let start = offset_of(text, e.span.start.line, e.span.start.col).min(text.len());
    let end = offset_of(text, e.span.end.line, e.span.end.col)
        .min(text.len())
        .max(start);
    let loc = Locator::new(text);
    if let Some((a, b)) = not_whole(text, &e.code, start) {
        let message = match loc.field_name_at(a) {
            Some(name) => format!("`{name}` must be a whole number, not {}", &text[a..b]),
            None => format!("a whole number belongs here, not {}", &text[a..b]),
        };
        return Error::at(ErrorKind::WrongType, file, text, Span::new(a, b), message)
            .with_help("a whole number is written in digits only, like 7");
    }
    if let Some(err) = unclosed_string(file, text, &loc, &e.code, start) {
        return err;
    }
    if skip_trivia(text, end) == text.len()
        && let Some(open) = loc.unclosed_at_end()
    {
        let opener = &text[open..open + 1];
        let closer = match opener {
            "(" => ")",
            "[" => "]",
            _ => "}",
        };
        let (line, col) = line_col(text, open);
        let last = loc.last_token_end();
        return Error::at(
            ErrorKind::Syntax,
            file,
            text,
            Span::new(last, last),
            format!(
                "the file ends before the `{opener}` opened at line {line}, column {col} is closed"
            ),
        )
        .with_help(format!("close it with `{closer}`"));
    }
    let span = ron_span(text, e);
    if matches!(e.code, ron::error::Error::ExpectedComma)
        && let Some(err) = missing_comma(file, text, span.start)
    {
        return err;
    }
    let mut err = match loc
        .field_name_at(span.start)
        .and_then(|name| wrong_type(name, &e.code, text.get(span.start..).unwrap_or_default()))
    {
        Some((message, help)) => {
            let err = Error::at(ErrorKind::WrongType, file, text, span, message);
            match help {
                Some(h) => err.with_help(h),
                None => err,
            }
        }
        None => {
            let field = loc.field_name_at(span.start);
            let err = Error::at(
                ron_kind(&e.code),
                file,
                text,
                span,
                ron_message(&e.code, field),
            );
            match ron_help(&e.code) {
                Some(h) => err.with_help(h),
                None => err,
            }
        }
    };
    as_written(&mut err);
    err
}

/// The error for a comma RON expected before the token at `next`: pointed
/// at the end of the value before it, where the comma belongs (RON points
/// at the next token, often on the next line).
fn missing_comma(file: &str, text: &str, next: usize) -> Option<Error> {
    let before = Locator::new(text.get(..next)?).last_token_end();
    if before == 0 {
        return None;
    }
    let message = if text[before..next].contains('\n') {
        "a comma is missing at the end of this line"
    } else {
        "a comma is missing after this value"
    };
    Some(
        Error::at(
            ErrorKind::Syntax,
            file,
            text,
            Span::new(before, before),
            message,
        )
        .with_help("add `,` here"),
    )
}

/// `names` in backquotes, the last joined with "or": `` `A`, `B` or `C` ``.
fn one_of(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => quoted.concat(),
    }
}

/// "did you mean" for a name RON found where one of `known` belongs: the
/// known names closest to it (case aside, or within two edits; `peice` is
/// `piece`, not also `pieces`).
fn did_you_mean(found: &str, known: &[&str]) -> Option<String> {
    let close = super::piece::ranked_suggestions(found, known.iter().copied());
    let best = close.first()?.0;
    let closest: Vec<&str> = close
        .into_iter()
        .filter_map(|(d, k)| (d == best).then_some(k))
        .collect();
    Some(format!("did you mean {}?", one_of(&closest)))
}

/// A hint for RON's error `code`: the name meant, for a misspelt field or
/// value.
fn ron_help(code: &ron::error::Error) -> Option<String> {
    use ron::error::Error as E;
    match code {
        E::NoSuchStructField {
            expected, found, ..
        }
        | E::NoSuchEnumVariant {
            expected, found, ..
        } => did_you_mean(found, expected),
        _ => None,
    }
}

/// The error for a string left open, when RON's error `code` at offset
/// `start` of `text` comes from one: a string that runs on to the end of
/// the file, or a quoted string that runs on past the end of its line and
/// so swallows the next value's opening quote. RON strings may span lines,
/// so the second is named only when closing the string at the end of its
/// first line (before a trailing comma, or adding one) makes the file read
/// on past where RON stopped.
fn unclosed_string(
    file: &str,
    text: &str,
    loc: &Locator,
    code: &ron::error::Error,
    start: usize,
) -> Option<Error> {
    let opened = |open: usize, content: usize, how: &str, closer: &str| {
        let (line, col) = line_col(text, open);
        Error::at(
            ErrorKind::Syntax,
            file,
            text,
            Span::new(open, content),
            format!(
                "the string opened at line {line}, column {col} is not closed: it runs on {how}"
            ),
        )
        .with_help(format!("close it with `{closer}` where its text ends"))
    };
    if matches!(code, ron::error::Error::ExpectedStringEnd)
        && let Some((open, content, closer)) = loc.unclosed_string()
        && (open..content).contains(&start)
    {
        return Some(opened(open, content, "to the end of the file", &closer));
    }
    let (open, line_end) = loc.string_across_lines(start)?;
    let fixes: &[(usize, &str)] = if text[..line_end].ends_with(',') {
        &[(line_end - 1, "\"")]
    } else {
        &[(line_end, "\""), (line_end, "\",")]
    };
    let reads_on = |&(at, fix): &(usize, &str)| {
        let fixed = format!("{}{fix}{}", &text[..at], &text[at..]);
        match ron_options().from_str::<Doc>(&fixed) {
            Ok(_) => true,
            Err(e) => {
                let there = offset_of(&fixed, e.span.start.line, e.span.start.col);
                there.saturating_sub(fix.len()) > start
            }
        }
    };
    fixes
        .iter()
        .any(reads_on)
        .then(|| opened(open, open + 1, "past the end of its line", "\""))
}

/// What the field `name`, whose value starts `value` (the rest of the
/// file), must be when RON's error `code` says its value has the wrong
/// type; and how to write it, when quotes are missing or too many.
fn wrong_type(
    name: &str,
    code: &ron::error::Error,
    value: &str,
) -> Option<(String, Option<String>)> {
    use ron::error::Error as E;
    let word: String = value
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    let quoted = value
        .strip_prefix('"')
        .and_then(|v| v.split_once('"'))
        .map(|(w, _)| w)
        .filter(|w| !w.is_empty() && w.chars().all(|c| c.is_alphanumeric() || c == '_'));
    Some(match code {
        E::ExpectedInteger => (format!("`{name}` must be a whole number"), None),
        E::ExpectedFloat => (format!("`{name}` must be a number"), None),
        E::ExpectedBoolean => (format!("`{name}` must be `true` or `false`"), None),
        E::ExpectedString => (
            format!("`{name}` must be a string in double quotes"),
            (!word.is_empty()).then(|| format!("write `{name}: \"{word}\"`")),
        ),
        E::ExpectedIdentifier => (
            format!("`{name}` takes a name without quotes"),
            quoted.map(|w| format!("write `{name}: {w}`")),
        ),
        _ => return None,
    })
}

/// Where the number RON stopped reading at `at` is, if it is written with
/// a fraction or an exponent (`1.5`, `2.0`, `1e3`) and the error `code`
/// says RON read it as an integer: an integer's digits followed by the rest
/// of a float, or a float refused outright.
fn not_whole(text: &str, code: &ron::error::Error, at: usize) -> Option<(usize, usize)> {
    use ron::error::Error as E;
    let b = text.as_bytes();
    let is_digit = |i: usize| b.get(i).is_some_and(|c| c.is_ascii_digit() || *c == b'_');
    // RON reports these where the integer's digits end, or at its start.
    let stopped_inside = match code {
        E::ExpectedComma
        | E::ExpectedStructLikeEnd
        | E::ExpectedArrayEnd
        | E::ExpectedMapEnd
        | E::ExpectedOptionEnd
        | E::TrailingCharacters => {
            matches!(b.get(at), Some(b'.' | b'e' | b'E')) && at > 0 && is_digit(at - 1)
        }
        E::InvalidIntegerDigit { .. } | E::IntegerOutOfBounds => true,
        _ => false,
    };
    if !stopped_inside {
        return None;
    }
    // The number around `at`: back over its digits and sign, then forward
    // over everything a float may hold.
    let mut a = at.min(b.len());
    while a > 0 && is_digit(a - 1) {
        a -= 1;
    }
    if a > 0 && matches!(b[a - 1], b'-' | b'+') {
        a -= 1;
    }
    if a > 0 && (b[a - 1].is_ascii_alphanumeric() || b[a - 1] == b'_') {
        return None;
    }
    let mut z = a;
    while z < b.len()
        && (b[z].is_ascii_alphanumeric()
            || matches!(b[z], b'.' | b'_')
            || (matches!(b[z], b'-' | b'+') && (z == a || matches!(b[z - 1], b'e' | b'E'))))
    {
        z += 1;
    }
    let number = &text[a..z];
    let float = number.contains(['.', 'e', 'E']) && number.replace('_', "").parse::<f64>().is_ok();
    (float && a <= at && at <= z).then_some((a, z))
}

/// The offset of the first byte at or after `at` that is not a space or
/// part of a comment. A block comment that never closes is not skipped: it
/// is where the text goes wrong.
pub(super) fn skip_trivia(text: &str, mut at: usize) -> usize {
    loop {
        let rest = &text[at..];
        let trimmed = rest.trim_start();
        at += rest.len() - trimmed.len();
        if trimmed.starts_with("//") {
            at += trimmed.find('\n').unwrap_or(trimmed.len());
        } else if trimmed.starts_with("/*") {
            let mut depth = 0usize;
            let mut i = 0;
            let b = trimmed.as_bytes();
            while i < b.len() {
                if b[i..].starts_with(b"/*") {
                    depth += 1;
                    i += 2;
                } else if b[i..].starts_with(b"*/") {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            if depth > 0 {
                return at;
            }
            at += i;
        } else {
            return at;
        }
    }
}

/// The kind of RON's error `code`.
fn ron_kind(code: &ron::error::Error) -> ErrorKind {
    use ron::error::Error as E;
    match code {
        E::Io(_) => ErrorKind::Io,
        E::Utf8Error(_) => ErrorKind::Encoding,
        E::NoSuchStructField { .. } => ErrorKind::UnknownField,
        E::MissingStructField { .. } => ErrorKind::MissingField,
        E::DuplicateStructField { .. } => ErrorKind::Duplicate,
        E::Message(m) if m.starts_with(DUPLICATE_PIECE) => ErrorKind::Duplicate,
        // The solver options' own checks (a population of 0), and numbers
        // out of their type's range.
        E::Message(_) | E::IntegerOutOfBounds | E::InvalidIntegerDigit { .. } => {
            ErrorKind::BadValue
        }
        E::ExpectedDifferentStructName { .. }
        | E::NoSuchEnumVariant { .. }
        | E::NoSuchExtension(_) => ErrorKind::UnknownName,
        E::ExpectedArray
        | E::ExpectedBoolean
        | E::ExpectedChar
        | E::ExpectedByteLiteral
        | E::ExpectedFloat
        | E::ExpectedInteger
        | E::ExpectedOption
        | E::ExpectedMap
        | E::ExpectedStructLike
        | E::ExpectedNamedStructLike(_)
        | E::ExpectedUnit
        | E::ExpectedString
        | E::ExpectedByteString
        | E::ExpectedIdentifier
        | E::InvalidValueForType { .. }
        | E::ExpectedDifferentLength { .. } => ErrorKind::WrongType,
        E::ExceededRecursionLimit => ErrorKind::TooBig,
        E::Fmt => ErrorKind::Internal,
        _ => ErrorKind::Syntax,
    }
}

/// RON's messages, with the common ones made friendlier and no type of
/// the program's named; `field` is the field whose value is wrong, if known.
fn ron_message(code: &ron::error::Error, field: Option<&str>) -> String {
    use ron::error::Error as E;
    match code {
        E::NoSuchEnumVariant {
            expected, found, ..
        } => match field {
            Some(field) => format!("`{field}` is {}, not `{found}`", one_of(expected)),
            None => format!("`{found}` is not one of {}", one_of(expected)),
        },
        E::MissingStructField { field, .. } => {
            format!("missing field `{field}`: a puzzle needs at least `board` and `piece`")
        }
        E::NoSuchStructField {
            expected, found, ..
        } => format!(
            "unknown field `{found}`; the fields are {}",
            expected
                .iter()
                .map(|f| format!("`{f}`"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        E::DuplicateStructField { field, .. } => format!("field `{field}` is given twice"),
        E::IntegerOutOfBounds => "number out of range for this field".to_string(),
        other => other.to_string(),
    }
}
