//! The words for why a search stepped back ([`Why`]): one sentence naming
//! the squares, shared by the search GIF's captions and the HTML player.

use crate::search::event::Why;

/// Why the search stepped back from `from` (a square's name), in words,
/// with squares named by `name`; None for [`Why::Unsaid`].
pub fn why_words(why: Why, from: &str, name: impl Fn(u32) -> String) -> Option<String> {
    Some(match why {
        Why::Unsaid => return None,
        Why::Tried => format!("every move from {from} was tried"),
        Why::NoMoves => "a dead end, no move on".to_string(),
        Why::WrongEnd => format!("every square is visited, but a tour cannot end on {from}"),
        Why::Tour => "a tour; the search looks for another".to_string(),
        Why::NoEntry(w) => format!("{} can no longer be entered", name(w)),
        Why::TwoForced(a, b) => format!(
            "only {from} can still enter {} and {}, and both cannot be next",
            name(a),
            name(b)
        ),
        Why::TwoLast(a, b) => format!("{} and {} could each only be last", name(a), name(b)),
        Why::LastNotEnd(w) => format!(
            "{} could only be the last square, and a tour cannot end there",
            name(w)
        ),
        Why::NoEnd => "no square is left on which a tour may end".to_string(),
        Why::Split(w) => format!("the unvisited squares fall apart: {} is cut off", name(w)),
        Why::Pairs(w) => format!("too many squares next to {} have only two ways in", name(w)),
        Why::OnlyLast(w) => format!("every move left goes to {}, which must come last", name(w)),
        Why::Cached => {
            "the same squares are left as in a position known to hold no tour".to_string()
        }
        Why::Clue(w) => format!("the clues cannot all be met (at {})", name(w)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_square_named_is_in_the_words() {
        let name = |s: u32| format!("s{s}");
        for why in [
            Why::NoEntry(3),
            Why::TwoForced(4, 5),
            Why::TwoLast(6, 7),
            Why::LastNotEnd(8),
            Why::Split(9),
            Why::Pairs(10),
            Why::OnlyLast(11),
            Why::Clue(12),
        ] {
            let words = why_words(why, "e5", name).unwrap_or_default();
            for s in why.squares() {
                assert!(words.contains(&format!("s{s}")), "{why:?}: {words}");
            }
        }
        assert_eq!(why_words(Why::Unsaid, "e5", name), None);
    }
}
