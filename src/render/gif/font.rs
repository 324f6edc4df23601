//! Text: glyphs from font8x8, text widths and fitting text to a width.

use font8x8::legacy::{BASIC_LEGACY, LATIN_LEGACY};

/// The glyph of `c` (font8x8; `?` for characters it lacks). Bit 0 of each
/// row byte is the leftmost pixel.
pub(super) fn glyph(c: char) -> [u8; 8] {
    let c = match c {
        '\u{2013}' | '\u{2014}' | '\u{2212}' => '-',
        '\u{2018}' | '\u{2019}' => '\'',
        '\u{201c}' | '\u{201d}' => '"',
        c => c,
    };
    let u = c as usize;
    match u {
        0x20..=0x7e => BASIC_LEGACY[u],
        0xa0..=0xff => LATIN_LEGACY[u - 0xa0],
        _ => BASIC_LEGACY[usize::from(b'?')],
    }
}

/// The inked columns of a glyph (`lo..=hi`), or None for a blank one.
pub(super) fn ink(g: &[u8; 8]) -> Option<(u32, u32)> {
    let all = g.iter().fold(0u8, |a, &b| a | b);
    (all != 0).then(|| (all.trailing_zeros(), 7 - all.leading_zeros()))
}

/// Advance of a character at scale 1: its inked width plus one column.
pub(super) fn advance(c: char) -> i64 {
    match ink(&glyph(c)) {
        Some((lo, hi)) => i64::from(hi - lo) + 2,
        None => 4,
    }
}

/// Width of `s` at `scale`, without the trailing gap.
pub(super) fn text_width(s: &str, scale: i64) -> i64 {
    let w: i64 = s.chars().map(advance).sum();
    (w - 1).max(0) * scale
}

/// Whether text whose advances add up to `w` fits `max` pixels at `scale`.
fn fits(w: i64, scale: i64, max: i64) -> bool {
    (w - 1).max(0) * scale <= max
}

/// `s` cut to fit `max` pixels at `scale`, with `...` when cut. Only what
/// fits is measured: a name of a hundred thousand characters costs no more
/// than a short one.
pub(super) fn fit(s: &str, scale: i64, max: i64) -> String {
    let mut w = 0;
    if s.chars().all(|c| {
        w += advance(c);
        fits(w, scale, max)
    }) {
        return s.to_string();
    }
    let dots: i64 = "...".chars().map(advance).sum();
    let (mut w, mut end) = (0, 0);
    for (i, c) in s.char_indices() {
        let next = w + advance(c);
        if !fits(next + dots, scale, max) {
            break;
        }
        w = next;
        end = i + c.len_utf8();
    }
    format!("{}...", s[..end].trim_end())
}

/// The most lines of a caption's title or subtitle: a longer one is cut.
pub(super) const CAPTION_LINES: usize = 3;

/// `s` broken into at most `most` lines (at least one) of at most `max`
/// pixels at `scale`, between words; a word longer than a line is cut with
/// `...`, and so is the last line when more text follows (what could not be
/// seen is not laid out at all).
pub(super) fn wrap(s: &str, scale: i64, max: i64, most: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    let mut words = s.split_whitespace();
    while let Some(word) = words.next() {
        let with = if line.is_empty() {
            word.to_string()
        } else {
            format!("{line} {word}")
        };
        if text_width(&with, scale) <= max {
            line = with;
            continue;
        }
        if !line.is_empty() {
            lines.push(std::mem::take(&mut line));
        }
        if lines.len() + 1 >= most {
            // The last line: the rest of the text, as much as fits.
            let mut rest = word.to_string();
            for w in words.by_ref() {
                if text_width(&rest, scale) > max {
                    break;
                }
                rest.push(' ');
                rest.push_str(w);
            }
            // Text is left out only when `rest` outgrew the line: then it
            // is cut, with `...`.
            lines.push(fit(&rest, scale, max));
            return lines;
        }
        line = fit(word, scale, max);
    }
    if !line.is_empty() || lines.is_empty() {
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_wraps_between_words() {
        let lines = wrap(
            "a long caption that does not fit on one line",
            2,
            120,
            usize::MAX,
        );
        assert!(lines.len() > 2, "{lines:?}");
        assert!(lines.iter().all(|l| text_width(l, 2) <= 120));
        assert_eq!(
            lines.join(" "),
            "a long caption that does not fit on one line"
        );
        assert_eq!(wrap("", 1, 100, 1), [""]);
    }

    #[test]
    fn long_text_is_cut_after_a_few_lines() {
        let long = "word ".repeat(100_000);
        let lines = wrap(&long, 2, 300, CAPTION_LINES);
        assert_eq!(lines.len(), CAPTION_LINES, "{lines:?}");
        assert!(lines.iter().all(|l| text_width(l, 2) <= 300));
        assert!(lines[CAPTION_LINES - 1].ends_with("..."), "{lines:?}");
        let one = "x".repeat(100_000);
        let lines = wrap(&one, 2, 300, CAPTION_LINES);
        assert_eq!(lines.len(), 1);
        assert!(lines[0].ends_with("...") && text_width(&lines[0], 2) <= 300);
        // Text that fits the lines is kept whole.
        assert_eq!(wrap("a b c", 1, 300, CAPTION_LINES), ["a b c"]);
    }

    #[test]
    fn text_fits_or_is_cut() {
        assert_eq!(fit("abc", 1, 100), "abc");
        let cut = fit("a long caption that does not fit", 2, 120);
        assert!(cut.ends_with("...") && text_width(&cut, 2) <= 120, "{cut}");
    }

    #[test]
    fn digits_come_from_the_font() {
        // '1' in font8x8 has its ink in columns 0..=5 (its foot is wide).
        assert_eq!(ink(&glyph('1')), Some((0, 5)));
        assert_eq!(advance('1'), 7);
        assert_eq!(advance(' '), 4);
        assert_eq!(glyph('\u{4e00}'), glyph('?'));
    }
}
