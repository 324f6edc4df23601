//! Letters: a unit of text (a letter or a syllable) on squares of the
//! board, and the text a tour must read, unit by unit, as it visits them
//! (the knight's-tour quote, or Rösselsprung).
//!
//! A square with no unit reads nothing. With none such, step `k` of a tour
//! reads unit `k` of the text, so a square's unit allows exactly the steps
//! at which the text has that unit: a clue whose step is a set.

/// A square with no unit, or a step with no unit.
pub const NO_UNIT: u32 = u32::MAX;

/// The letters of a word puzzle and its text, as written and as numbers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Letters {
    /// Each square's unit as written (a letter, or a syllable without its
    /// brackets); empty for a square with none.
    pub written: Vec<String>,
    /// The text as written.
    pub text: String,
    /// Each square's unit by number (the same number for units alike
    /// letter by letter, ignoring case), or [`NO_UNIT`].
    pub unit_of: Vec<u32>,
    /// The text's units in reading order, by number.
    pub reading: Vec<u32>,
}

impl Letters {
    /// How many squares have no unit.
    pub fn blanks(&self) -> usize {
        self.unit_of.iter().filter(|&&u| u == NO_UNIT).count()
    }

    /// Whether square `s` may stand at step `k` (from 0) as far as its unit
    /// says: exactly when no square is blank (the text's unit at `k` is
    /// the square's); with `b` blank squares, a lettered square's unit must
    /// be among the text's units `k − b ..= k`, and a blank square may
    /// stand anywhere.
    pub fn allows(&self, k: usize, s: u32) -> bool {
        let u = self.unit_of[s as usize];
        if u == NO_UNIT {
            return true;
        }
        let b = self.unit_of.len() - self.reading.len();
        let lo = k.saturating_sub(b);
        let hi = k.min(self.reading.len().saturating_sub(1));
        lo <= hi && self.reading[lo..=hi].contains(&u)
    }

    /// The clues the letters imply: with no blank square, a unit the text
    /// reads once stands at that step on its one square. `(step, square)`,
    /// steps from 1, sorted by step.
    pub fn implied_clues(&self) -> Vec<(u32, u32)> {
        if self.reading.len() != self.unit_of.len() {
            return Vec::new();
        }
        let units = self.reading.iter().max().map_or(0, |&u| u as usize + 1);
        let mut read = vec![(0u32, 0u32); units];
        for (k, &u) in self.reading.iter().enumerate() {
            read[u as usize].0 += 1;
            read[u as usize].1 = k as u32;
        }
        let mut on = vec![(0u32, 0u32); units];
        for (s, &u) in self.unit_of.iter().enumerate() {
            if let Some(o) = on.get_mut(u as usize) {
                o.0 += 1;
                o.1 = s as u32;
            }
        }
        let mut clues: Vec<(u32, u32)> = (0..units)
            .filter(|&u| read[u].0 == 1 && on[u].0 == 1)
            .map(|u| (read[u].1 + 1, on[u].1))
            .collect();
        clues.sort_unstable();
        clues
    }

    /// The unit each square reads, as written, for people (`.` for none).
    pub fn shown(&self, s: u32) -> String {
        match self.written.get(s as usize).map(String::as_str) {
            None | Some("") => ".".to_string(),
            Some(w) if w.chars().count() == 1 => w.to_string(),
            Some(w) => format!("[{w}]"),
        }
    }
}

/// The key units are compared by: their letters and digits, lower case.
pub fn unit_key(unit: &str) -> String {
    unit.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn letters(unit_of: &[u32], reading: &[u32]) -> Letters {
        Letters {
            unit_of: unit_of.to_vec(),
            reading: reading.to_vec(),
            ..Letters::default()
        }
    }

    #[test]
    fn a_unit_allows_the_steps_that_read_it() {
        // Squares a, b, a; the text a b a.
        let l = letters(&[0, 1, 0], &[0, 1, 0]);
        assert!(l.allows(0, 0) && l.allows(2, 2) && !l.allows(1, 0));
        assert!(l.allows(1, 1) && !l.allows(0, 1));
        assert_eq!(l.implied_clues(), vec![(2, 1)]);
        // A blank square widens every window by one.
        let l = letters(&[0, NO_UNIT, 1], &[0, 1]);
        assert!(l.allows(1, 0) && l.allows(2, 2) && l.allows(1, 2) && !l.allows(0, 2));
        assert!(l.allows(0, 1));
        assert!(l.implied_clues().is_empty());
    }

    #[test]
    fn keys_ignore_case_and_punctuation() {
        assert_eq!(unit_key("Schil-"), "schil");
        assert_eq!(unit_key("É"), "é");
    }
}
