//! Formatting the text reports share: durations for people, and padding
//! to terminal columns (where a wide character takes two).

use unicode_width::UnicodeWidthStr;

/// A human-readable duration.
pub fn duration(d: std::time::Duration) -> String {
    let s = d.as_secs_f64();
    if s < 1e-3 {
        format!("{:.1} µs", s * 1e6)
    } else if s < 1.0 {
        format!("{:.1} ms", s * 1e3)
    } else {
        format!("{s:.2} s")
    }
}

/// The widest of `texts`, in the columns a terminal shows (a wide
/// character such as `日` takes two), and at least `least`.
pub(super) fn widest<'t>(least: usize, texts: impl Iterator<Item = &'t str>) -> usize {
    texts.map(UnicodeWidthStr::width).fold(least, usize::max)
}

/// `text` with spaces after it to fill `width` terminal columns (`{:<w$}`
/// counts characters, which wide characters outgrow).
pub(super) fn pad_right(text: &str, width: usize) -> String {
    format!("{text}{}", " ".repeat(width.saturating_sub(text.width())))
}

/// `text` with spaces before it to fill `width` terminal columns.
pub(super) fn pad_left(text: &str, width: usize) -> String {
    format!("{}{text}", " ".repeat(width.saturating_sub(text.width())))
}
