//! The studio's page: its markup (`studio.html`), style (`studio.css`) and
//! script (`studio.js`), with the HTML player's controls, style and script
//! shared rather than copied. The page is the same for every visitor; all
//! it shows of puzzles and runs it fetches and writes as text.

use engine::render::html;

/// The page around the parts.
const PAGE: &str = include_str!("studio.html");
/// The studio's own style.
const STYLE: &str = include_str!("studio.css");
/// The studio's own script.
const SCRIPT: &str = include_str!("studio.js");

/// The page, whole.
pub fn page() -> String {
    let mut out = String::with_capacity(PAGE.len() + html::SCRIPT.len() + SCRIPT.len() + 8192);
    let mut parts = PAGE.split("{{");
    out.push_str(parts.next().unwrap_or_default());
    for part in parts {
        let (key, rest) = part.split_once("}}").unwrap_or(("", part));
        out.push_str(match key {
            "PLAYER_STYLE" => html::STYLE,
            "STYLE" => STYLE,
            "CONTROLS" => html::CONTROLS,
            "PLAYER" => html::SCRIPT,
            "SCRIPT" => SCRIPT,
            _ => "",
        });
        out.push_str(rest);
    }
    out
}

/// The Content-Security-Policy of every answer: the page's own scripts and
/// styles by their hashes, requests to this server only, and nothing else.
pub fn csp() -> String {
    format!(
        "default-src 'none'; script-src '{}' '{}'; style-src '{}' '{}'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        html::hash(html::SCRIPT),
        html::hash(SCRIPT),
        html::hash(html::STYLE),
        html::hash(STYLE),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_brings_all_it_runs() {
        for key in ["PLAYER_STYLE", "STYLE", "CONTROLS", "PLAYER", "SCRIPT"] {
            assert_eq!(PAGE.matches(&format!("{{{{{key}}}}}")).count(), 1, "{key}");
        }
        assert_eq!(
            PAGE.matches("{{").count(),
            5,
            "a key the page does not fill"
        );
        for part in [SCRIPT, STYLE] {
            assert!(!part.to_ascii_lowercase().contains("</script"));
            assert!(!part.to_ascii_lowercase().contains("</style"));
            assert!(!part.contains("http:") && !part.contains("https:"));
            assert!(!part.contains("{{"));
        }
        let page = page();
        assert!(page.contains(html::SCRIPT) && page.contains(SCRIPT));
        assert!(!csp().contains("unsafe"));
    }
}
