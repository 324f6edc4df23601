//! Numbers in words for people: thousands grouped, nouns in the plural
//! unless there is one.

/// `1234567` as `1,234,567`.
pub fn thousands(n: u64) -> String {
    big(u128::from(n))
}

/// [`thousands`] for numbers past 64 bits (counts of tours).
pub fn big(n: u128) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `n` with thousands separators and a noun, plural unless `n` is one:
/// "1 state", "15,132 states".
pub fn many(n: u64, noun: &str) -> String {
    format!("{} {noun}{}", thousands(n), if n == 1 { "" } else { "s" })
}

/// `n` and a noun, plural unless `n` is one: "1 node", "3 nodes".
pub fn counted(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(24105743), "24,105,743");
    }

    #[test]
    fn plurals() {
        assert_eq!(many(1, "state"), "1 state");
        assert_eq!(many(15132, "state"), "15,132 states");
        assert_eq!(counted(1, "node"), "1 node");
        assert_eq!(counted(0, "node"), "0 nodes");
    }
}
