//! The HTML player (`run --html OUT`): one self-contained page that replays
//! recorded searches — play, pause, step forward and back, scrub a timeline
//! with markers, every backtrack explained — with no network access, no
//! build step and nothing loaded from elsewhere.
//!
//! The page is the template `page.html` with its style (`player.css`), its
//! script (`player.js`, plain JavaScript written by hand) and the data: the
//! board and, for each search, the samples its [`Recorder`] kept (the
//! search GIF's sampling) with the search GIF's words for each
//! (the `data` module). Everything from the puzzle file reaches the page as JSON in
//! a `<script type="application/json">` block, escaped so that no `<` can
//! close it, and the page's own script writes it as text (never as HTML);
//! the title, the one string written into the markup, is escaped as HTML.
//! The Content-Security-Policy allows the page's own script and style by
//! their SHA-256 and nothing else: no other script, no inline handler, no
//! network.
//!
//! The studio (`engine serve`) shows the same player: it takes the
//! player's markup ([`CONTROLS`]), style and script, mounts the player on
//! the data of [`page_json`], and grows it while a search streams in
//! ([`live`]).

mod data;
pub mod live;

use std::io::{self, Write};

use base64::Engine;
use sha2::{Digest, Sha256};

use crate::render::gif::Scene;
use crate::render::record::Recorder;
use crate::solve::Report;

/// The page around the data.
const PAGE: &str = include_str!("page.html");
/// The player's board panels and controls, shared by the page and the
/// studio.
pub const CONTROLS: &str = include_str!("player.html");
/// The player's style.
pub const STYLE: &str = include_str!("player.css");
/// The player's script.
pub const SCRIPT: &str = include_str!("player.js");

/// One recorded search to play: the recording and how the search ended.
pub struct Played<'a> {
    /// What the recorder kept of the search.
    pub rec: &'a Recorder,
    /// The search's report.
    pub report: &'a Report,
}

/// Writes the player of `runs` (one search, or several side by side on the
/// same puzzle) on `scene`'s board. The scene should carry the move graph:
/// it shows Warnsdorff's candidates, dead ends and the proofs.
pub fn write_player<W: Write>(w: &mut W, scene: &Scene, runs: &[Played]) -> io::Result<()> {
    let (title, json) = page_data(scene, runs)?;
    let mut parts = PAGE.split("{{");
    w.write_all(parts.next().unwrap_or_default().as_bytes())?;
    for part in parts {
        let (key, rest) = part.split_once("}}").unwrap_or(("", part));
        match key {
            "CSP" => w.write_all(csp().as_bytes())?,
            "TITLE" => w.write_all(html_text(&title).as_bytes())?,
            "PLAYER" => w.write_all(CONTROLS.as_bytes())?,
            "STYLE" => w.write_all(STYLE.as_bytes())?,
            "SCRIPT" => w.write_all(SCRIPT.as_bytes())?,
            "DATA" => w.write_all(script_json(&json).as_bytes())?,
            _ => {}
        }
        w.write_all(rest.as_bytes())?;
    }
    w.flush()
}

/// The player's data for `runs` on `scene`'s board, as JSON (for the
/// studio, which sends it to the page; no run gives the empty board).
pub fn page_json(scene: &Scene, runs: &[Played]) -> io::Result<String> {
    Ok(page_data(scene, runs)?.1)
}

/// The page's title and its data as JSON.
fn page_data(scene: &Scene, runs: &[Played]) -> io::Result<(String, String)> {
    let mut page = data::Page::new(scene);
    for run in runs {
        page.add_run(scene, run.rec, run.report);
    }
    let json = serde_json::to_string(&page).map_err(io::Error::other)?;
    Ok((page.title, json))
}

/// The Content-Security-Policy: nothing but the page's own script and
/// style, by their hashes.
pub fn csp() -> String {
    format!(
        "default-src 'none'; script-src '{}'; style-src '{}'; img-src data:; base-uri 'none'; form-action 'none'",
        hash(SCRIPT),
        hash(STYLE)
    )
}

/// `sha256-…` of `text`, as a CSP source (of a script or a style).
pub fn hash(text: &str) -> String {
    let digest = Sha256::digest(text.as_bytes());
    format!(
        "sha256-{}",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}

/// `text` escaped for HTML text and attribute values.
pub fn html_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// JSON made safe inside a `<script>` element: no `<`, `>` or `&` (so no
/// `</script>` or `<!--`), and no line separators, each written as its
/// `\u` escape. `<`, `>` and `&` appear in JSON only inside strings, where
/// the escape means the same character.
pub fn script_json(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_from_a_file_can_close_the_data_or_the_title() {
        let hostile = r#"</script><img src=x onerror=alert(1)><!-- & "'"#;
        let json = serde_json::to_string(hostile).unwrap_or_default();
        let safe = script_json(&json);
        assert!(!safe.contains('<') && !safe.contains('>') && !safe.contains('&'));
        assert_eq!(
            serde_json::from_str::<String>(&safe).ok().as_deref(),
            Some(hostile)
        );
        let text = html_text(hostile);
        assert!(!text.contains('<') && !text.contains('"') && !text.contains('\''));
    }

    #[test]
    fn the_page_brings_all_it_runs() {
        // Nothing to load from elsewhere, and nothing that would end the
        // script or style early.
        for part in [SCRIPT, STYLE] {
            assert!(!part.to_ascii_lowercase().contains("</script"));
            assert!(!part.to_ascii_lowercase().contains("</style"));
            assert!(!part.contains("http:") && !part.contains("https:"));
        }
        // The title is the window's and the page's heading.
        for (key, times) in [
            ("{{CSP}}", 1),
            ("{{TITLE}}", 2),
            ("{{STYLE}}", 1),
            ("{{SCRIPT}}", 1),
            ("{{DATA}}", 1),
            ("{{PLAYER}}", 1),
        ] {
            assert_eq!(PAGE.matches(key).count(), times, "{key}");
        }
        assert_eq!(
            PAGE.matches("{{").count(),
            7,
            "a key the writer does not know"
        );
        assert!(!SCRIPT.contains("{{") && !STYLE.contains("{{"));
        assert!(csp().contains(&hash(SCRIPT)) && !csp().contains("unsafe"));
    }
}
