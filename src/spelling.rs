//! How close a misspelt name is to a known one, for the "did you mean" of
//! every message that suggests a name.

/// The Damerau–Levenshtein distance from `typed` to `known` when it is at
/// most two edits, else `None`. Names whose lengths differ by more than two
/// are not compared at all: a distance is at least the difference of the
/// lengths, and comparing costs the product of the lengths, which a name of
/// a megabyte would make slow.
pub fn within_two_edits(typed: &str, known: &str) -> Option<usize> {
    let (a, b) = (typed.chars().count(), known.chars().count());
    if a.abs_diff(b) > 2 {
        return None;
    }
    let d = strsim::damerau_levenshtein(typed, known);
    (d <= 2).then_some(d)
}

#[cfg(test)]
mod tests {
    use super::within_two_edits;

    #[test]
    fn names_within_two_edits_are_measured_and_the_rest_are_not() {
        assert_eq!(within_two_edits("knigth", "knight"), Some(1));
        assert_eq!(within_two_edits("pece", "piece"), Some(1));
        assert_eq!(within_two_edits("kn", "knight"), None);
        assert_eq!(within_two_edits("camel", "zebra"), None);
        // Lengths apart by more than two: not compared (no edit is three).
        let long = "W1".repeat(1 << 20);
        assert_eq!(within_two_edits(&long, "W"), None);
        assert_eq!(within_two_edits("éé", "e"), Some(2));
    }
}
