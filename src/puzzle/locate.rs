//! Finds where string values sit in a RON puzzle file, so errors inside a
//! piece or board expression can point at the exact character. RON's own
//! parser reports positions only for its own errors; this small lexer
//! recovers the positions of `key: "value"` pairs after serde has checked
//! the file.

use crate::error::Span;

/// A string literal found in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Literal {
    /// Offset of its opening: the quote, or the `r` of a raw string.
    open: usize,
    /// Offset of the first content byte (after the opening quote).
    content: usize,
    /// The number of `#` of a raw string; `None` for a quoted one.
    hashes: Option<usize>,
    /// Whether the literal is closed before the text ends.
    closed: bool,
    /// The key before it (`key:` or `"key":`), if any.
    key: Option<String>,
    /// Nesting depth of brackets at the literal.
    depth: usize,
    /// Whether the literal is a map key (followed by `:`).
    is_key: bool,
    /// The literal's text (escapes not decoded).
    raw: String,
    /// Whether `raw` has escapes: positions in its value are not positions
    /// in the file.
    escaped: bool,
}

/// A value after a bare `name:` (a struct field), whatever its type.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Field {
    name: String,
    depth: usize,
    /// Offset of the value's first byte.
    value: usize,
    /// One past its first token.
    end: usize,
}

/// Positions of string values in a RON text.
#[derive(Clone, Debug, Default)]
pub struct Locator {
    literals: Vec<Literal>,
    fields: Vec<Field>,
    /// The brackets still open at the end of the text, outermost first.
    unclosed: Vec<usize>,
    /// Whether the text ends inside a string or a block comment.
    ends_in_token: bool,
    /// One past the last byte that is not a space or a comment.
    last_token_end: usize,
}

impl Locator {
    /// Scans `text`. Never fails: anything it cannot read is skipped.
    pub fn new(text: &str) -> Locator {
        let b = text.as_bytes();
        let mut i = 0;
        let mut depth = 0usize;
        let mut literals = Vec::new();
        // The last identifier or string key seen, and whether `:` followed it.
        let mut pending_key: Option<String> = None;
        let mut key_ready: Option<String> = None;
        let mut fields = Vec::new();
        // The last token was this bare identifier.
        let mut ident: Option<String> = None;
        let mut unclosed = Vec::new();
        let mut ends_in_token = false;
        let mut last_token_end = 0;
        while i < b.len() {
            let c = b[i];
            let comment = c == b'/' && matches!(b.get(i + 1), Some(b'/' | b'*'));
            if !c.is_ascii_whitespace() && !comment {
                last_token_end = i + 1;
            }
            if c == b'/' && b.get(i + 1) == Some(&b'/') {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            if c == b'/' && b.get(i + 1) == Some(&b'*') {
                let mut nest = 1;
                i += 2;
                while i < b.len() && nest > 0 {
                    if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                        nest += 1;
                        i += 2;
                    } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                        nest -= 1;
                        i += 2;
                    } else {
                        i += 1;
                    }
                }
                ends_in_token |= nest > 0;
                continue;
            }
            // A character literal, such as `'('`, is not a bracket.
            if c == b'\'' {
                let mut j = i + 1;
                while j < b.len() && b[j] != b'\'' {
                    j += if b[j] == b'\\' { 2 } else { 1 };
                }
                ends_in_token |= j >= b.len();
                i = (j + 1).min(b.len());
                last_token_end = i;
                continue;
            }
            let raw_hashes = if c == b'r' && matches!(b.get(i + 1), Some(b'"' | b'#')) {
                let mut j = i + 1;
                while b.get(j) == Some(&b'#') {
                    j += 1;
                }
                (b.get(j) == Some(&b'"')).then_some(j - i - 1)
            } else {
                None
            };
            if c == b'"' || raw_hashes.is_some() {
                let (content, end, after) = match raw_hashes {
                    Some(h) => {
                        let content = i + 2 + h;
                        let closing = format!("\"{}", "#".repeat(h));
                        let end = text
                            .get(content..)
                            .and_then(|t| t.find(&closing))
                            .map_or(b.len(), |k| content + k);
                        (content, end, (end + closing.len()).min(b.len()))
                    }
                    None => {
                        let mut j = i + 1;
                        while j < b.len() && b[j] != b'"' {
                            j += if b[j] == b'\\' { 2 } else { 1 };
                        }
                        let end = j.min(b.len());
                        (i + 1, end, (end + 1).min(b.len()))
                    }
                };
                ends_in_token |= end >= b.len();
                last_token_end = after;
                let raw = text.get(content..end).unwrap_or("").to_string();
                let mut k = after;
                while k < b.len() && b[k].is_ascii_whitespace() {
                    k += 1;
                }
                let is_key = b.get(k) == Some(&b':');
                literals.push(Literal {
                    open: i,
                    content,
                    hashes: raw_hashes,
                    closed: end < b.len(),
                    key: key_ready.take(),
                    depth,
                    is_key,
                    escaped: raw_hashes.is_none() && raw.contains('\\'),
                    raw: raw.clone(),
                });
                pending_key = is_key.then_some(raw);
                ident = None;
                i = after;
                continue;
            }
            if c.is_ascii_alphabetic() || c == b'_' {
                let s = i;
                while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                    i += 1;
                }
                pending_key = Some(text[s..i].to_string());
                ident = pending_key.clone();
                last_token_end = i;
                continue;
            }
            if c.is_ascii_whitespace() {
                i += 1;
                continue;
            }
            if c == b':'
                && let Some(name) = ident.take()
            {
                let mut v = i + 1;
                while v < b.len() && b[v].is_ascii_whitespace() {
                    v += 1;
                }
                let mut end = v;
                while end < b.len() && (b[end].is_ascii_alphanumeric() || b"_.+-".contains(&b[end]))
                {
                    end += 1;
                }
                fields.push(Field {
                    name,
                    depth,
                    value: v,
                    end: if end == v { (v + 1).min(b.len()) } else { end },
                });
            }
            ident = None;
            match c {
                b':' => key_ready = pending_key.take(),
                b'(' | b'[' | b'{' => {
                    unclosed.push(i);
                    depth += 1;
                    key_ready = None;
                    pending_key = None;
                }
                b')' | b']' | b'}' => {
                    unclosed.pop();
                    depth = depth.saturating_sub(1);
                    key_ready = None;
                    pending_key = None;
                }
                b',' => {
                    key_ready = None;
                    pending_key = None;
                }
                _ => {}
            }
            i += 1;
        }
        Locator {
            literals,
            fields,
            unclosed,
            ends_in_token,
            last_token_end,
        }
    }

    /// The offset of the innermost bracket still open where the text ends,
    /// if the text ends between tokens (not inside a string or a comment).
    pub fn unclosed_at_end(&self) -> Option<usize> {
        if self.ends_in_token {
            return None;
        }
        self.unclosed.last().copied()
    }

    /// The string literal still open where the text ends, if any: the
    /// offsets of its opening (the quote, or the `r` of a raw string) and of
    /// its first content byte, and the text that would close it.
    pub fn unclosed_string(&self) -> Option<(usize, usize, String)> {
        let l = self.literals.last().filter(|l| !l.closed)?;
        let closer = format!("\"{}", "#".repeat(l.hashes.unwrap_or(0)));
        Some((l.open, l.content, closer))
    }

    /// The first quoted (not raw) string literal that opens before offset
    /// `before` and whose text holds a line break (not an escaped one): the
    /// offset of its opening quote and the end of its first line's text
    /// (before the line break and any spaces before it).
    pub fn string_across_lines(&self, before: usize) -> Option<(usize, usize)> {
        self.literals
            .iter()
            .take_while(|l| l.open < before)
            .filter(|l| l.hashes.is_none())
            .find_map(|l| {
                let b = l.raw.as_bytes();
                let mut i = 0;
                while i < b.len() && b[i] != b'\n' {
                    // An escaped line break (`\` then `\r\n`, too) goes on.
                    i += match (b[i], b.get(i + 1)) {
                        (b'\\', Some(b'\r')) => 3,
                        (b'\\', _) => 2,
                        _ => 1,
                    };
                }
                (i < b.len()).then(|| {
                    let first = l.raw[..i].trim_end_matches(|c: char| c.is_ascii_whitespace());
                    (l.open, l.content + first.len())
                })
            })
    }

    /// One past the last byte of the text that is not a space or part of a
    /// comment (0 if there is none).
    pub fn last_token_end(&self) -> usize {
        self.last_token_end
    }

    /// The value of the first bare field `name:` at bracket depth `depth`
    /// (1 for the puzzle's own fields, 2 for a solver's options), whatever
    /// its type: from its first byte to the end of its first token (a
    /// number, a word like `Genetic`, or a string's opening quote).
    pub fn field_value(&self, name: &str, depth: usize) -> Option<(usize, usize)> {
        let f = self
            .fields
            .iter()
            .find(|f| f.depth == depth && f.name == name)?;
        Some((f.value, f.end))
    }

    /// The name of the bare field whose value starts at offset `at`, at any
    /// depth.
    pub fn field_name_at(&self, at: usize) -> Option<&str> {
        self.fields
            .iter()
            .find(|f| f.value == at)
            .map(|f| f.name.as_str())
    }

    /// Offset of the content of the top-level field `key`'s string value.
    pub fn field(&self, key: &str) -> Option<usize> {
        self.literals
            .iter()
            .find(|l| l.depth == 1 && !l.is_key && l.key.as_deref() == Some(key))
            .map(|l| l.content)
    }

    /// The content offsets of the map keys at depth 2 from offset `from`
    /// on, in order (the keys of the map that starts there).
    pub fn keys_from(&self, from: usize) -> Vec<usize> {
        self.literals
            .iter()
            .filter(|l| l.depth == 2 && l.is_key && l.content >= from)
            .map(|l| l.content)
            .collect()
    }

    /// Every map entry at depth 2 (the `pieces` map): its key's text (as
    /// read, escapes decoded) and the offsets of the key's and the value's
    /// contents. The first of a repeated key wins. One pass, for files with
    /// many entries.
    pub fn map_entries(&self) -> std::collections::HashMap<String, (usize, usize)> {
        let mut out = std::collections::HashMap::new();
        let mut key: Option<(&Literal, usize)> = None;
        for l in self.literals.iter().filter(|l| l.depth == 2) {
            if l.is_key {
                key = Some((l, l.content));
            } else if let Some((k, at)) = key.take()
                && l.key.as_deref() == Some(k.raw.as_str())
            {
                let name = if k.escaped {
                    unescape(&k.raw)
                } else {
                    k.raw.clone()
                };
                out.entry(name).or_insert((at, l.content));
            }
        }
        out
    }

    /// The place in the file of `at`, an offset into the value of a string
    /// literal counted from the literal's first content byte (as the piece
    /// and board languages count): past escapes like `\x61` or `\u{..}`,
    /// which are longer in the file than in the value. Offsets outside any
    /// literal with escapes are returned as they are.
    pub fn raw(&self, at: usize) -> usize {
        let i = self.literals.partition_point(|l| l.content <= at);
        match i.checked_sub(1).map(|i| &self.literals[i]) {
            Some(l) if l.escaped && at - l.content <= l.raw.len() => {
                l.content + raw_offset(&l.raw, at - l.content)
            }
            _ => at,
        }
    }

    /// Whether byte `at` is in the text of a string literal.
    pub fn in_string(&self, at: usize) -> bool {
        let i = self.literals.partition_point(|l| l.content <= at);
        i.checked_sub(1)
            .is_some_and(|i| at - self.literals[i].content < self.literals[i].raw.len())
    }

    /// [`Locator::raw`] of both ends of `span`.
    pub fn raw_span(&self, span: Span) -> Span {
        Span::new(self.raw(span.start), self.raw(span.end))
    }
}

/// The next character or escape of the raw content of a quoted RON string
/// at byte `i`: its length in the file, and its bytes in the value (an
/// escaped line break and the spaces after it have none).
fn unit(raw: &str, i: usize) -> (usize, Vec<u8>) {
    let b = raw.as_bytes();
    let char_at = |i: usize| raw.get(i..).and_then(|r| r.chars().next());
    if b[i] != b'\\' {
        let c = char_at(i).unwrap_or('\u{FFFD}');
        return (c.len_utf8().max(1), c.to_string().into_bytes());
    }
    let hex = |s: &str| u32::from_str_radix(s, 16).ok();
    match b.get(i + 1) {
        Some(b'x') => {
            let v = raw.get(i + 2..i + 4).and_then(hex).unwrap_or(0);
            (4.min(b.len() - i), vec![v as u8])
        }
        Some(b'u') => {
            let close = raw
                .get(i..)
                .and_then(|r| r.find('}'))
                .map_or(b.len(), |k| i + k);
            let c = raw
                .get(i + 3..close)
                .and_then(hex)
                .and_then(char::from_u32)
                .unwrap_or('\u{FFFD}');
            ((close + 1).min(b.len()) - i, c.to_string().into_bytes())
        }
        Some(b'\n' | b'\r') => {
            let mut j = i + 1;
            while j < b.len() && matches!(b[j], b' ' | b'\t' | b'\n' | b'\r') {
                j += 1;
            }
            (j - i, Vec::new())
        }
        Some(&c) => {
            let v = match c {
                b'n' => b'\n',
                b'r' => b'\r',
                b't' => b'\t',
                b'0' => 0,
                c => c,
            };
            // The escaped character may be any character (an error RON
            // reports); its whole length is skipped.
            let len = char_at(i + 1).map_or(1, char::len_utf8);
            (1 + len, vec![v])
        }
        None => (1, vec![b'\\']),
    }
}

/// The offset in `raw`, the raw content of a quoted RON string, of the
/// byte `at` of its value.
pub fn raw_offset(raw: &str, at: usize) -> usize {
    let (mut i, mut value) = (0, 0);
    while i < raw.len() {
        let (len, bytes) = unit(raw, i);
        if !bytes.is_empty() && value + bytes.len() > at {
            return i;
        }
        value += bytes.len();
        i += len;
    }
    i
}

/// The value of `raw`, the raw content of a quoted RON string: its escapes
/// decoded.
pub fn unescape(raw: &str) -> String {
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        let (len, bytes) = unit(raw, i);
        out.extend(bytes);
        i += len;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_fields_and_map_entries() {
        let text = r###"// a "comment" board: "x"
Puzzle(
    name: "N", /* board: "no" */
    board: r#"
  ..#
"#,
    pieces: { "k": "leaper 1 2", "c": "k | C" },
    piece: "c",
)"###;
        let l = Locator::new(text);
        let at = |o: Option<usize>| o.map(|o| &text[o..o + 3]);
        assert_eq!(at(l.field("name")), Some("N\","));
        assert_eq!(at(l.field("board")), Some("\n  "));
        assert_eq!(at(l.field("piece")), Some("c\","));
        let e = l.map_entries();
        assert_eq!(at(e.get("c").map(|e| e.1)), Some("k |"));
        assert_eq!(at(e.get("k").map(|e| e.1)), Some("lea"));
        assert_eq!(at(e.get("c").map(|e| e.0)), Some("c\":"));
    }

    #[test]
    fn finds_fields_of_any_type() {
        let text = "Puzzle(board: \"8x8\", /* population: 1 */ seed : 12,\n solver: Genetic(population:100000, mutation: 0.5), \"x\": 3)";
        let l = Locator::new(text);
        let span = |o: Option<(usize, usize)>| o.map(|(a, b)| &text[a..b]);
        assert_eq!(span(l.field_value("seed", 1)), Some("12"));
        assert_eq!(span(l.field_value("solver", 1)), Some("Genetic"));
        assert_eq!(span(l.field_value("population", 2)), Some("100000"));
        assert_eq!(span(l.field_value("mutation", 2)), Some("0.5"));
        assert_eq!(span(l.field_value("board", 1)), Some("\""));
        assert_eq!(l.field_value("population", 1), None);
        assert_eq!(l.field_value("x", 1), None);
    }

    #[test]
    fn finds_the_brackets_left_open() {
        let l = Locator::new("A(b: [\"(\", '(' /* ( */ // (\n");
        assert_eq!(l.unclosed_at_end(), Some(5));
        assert_eq!(l.last_token_end(), 14);
        assert_eq!(Locator::new("A(b: [1])").unclosed_at_end(), None);
        // Inside a string or a comment, the brackets are not the fault.
        assert_eq!(Locator::new("A(b: \"x").unclosed_at_end(), None);
        assert_eq!(Locator::new("A(b: /* x").unclosed_at_end(), None);
    }

    #[test]
    fn finds_strings_left_open() {
        let text = "A(b: \"8x8,\n  c: \"k\",\n)";
        let l = Locator::new(text);
        assert_eq!(l.string_across_lines(text.len()), Some((5, 10)));
        // Not one that opens at or after the offset given.
        assert_eq!(l.string_across_lines(5), None);
        // An escaped line break, or a raw string, goes on.
        let l = Locator::new("A(b: \"x\\\r\n y\", c: r\"\n\")");
        assert_eq!(l.string_across_lines(30), None);
        let l = Locator::new("A(b: \"x  \r\n\")");
        assert_eq!(l.string_across_lines(30), Some((5, 7)));
        assert_eq!(l.unclosed_string(), None);
        let l = Locator::new("A(b: r##\"x\"#\n");
        assert_eq!(l.unclosed_string(), Some((5, 9, "\"##".to_string())));
    }
}
