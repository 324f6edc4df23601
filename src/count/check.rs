//! The check figure of a count: a fingerprint of its work modulo the prime
//! `2^61 − 1`, computed alongside the count, that a second run of the same
//! count reproduces and a run that went wrong anywhere (a flipped bit in a
//! state, a lost run of states, a different order of squares) almost
//! surely does not. A frontier count folds in, after each step, the sum
//! over its states of their key's hash times their count, and at the end
//! the count itself; a depth-first count, each task's count times its
//! place in the list. The figures of the shards of one count add up (mod
//! the prime) to the whole split's figure.

/// The prime `2^61 − 1`.
pub const PRIME: u64 = (1 << 61) - 1;

/// The base each step's sum is folded in with.
const BASE: u64 = 0x1F3D_5B79_A2C4_E6F1 % PRIME;

/// A check figure: a number below [`PRIME`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Check(u64);

impl Check {
    /// The figure with this value (reduced mod the prime).
    pub fn new(value: u64) -> Check {
        Check(value % PRIME)
    }

    /// Its value, below [`PRIME`].
    pub fn value(self) -> u64 {
        self.0
    }

    /// `x` mod the prime.
    pub fn of(x: u128) -> Check {
        Check((x % u128::from(PRIME)) as u64)
    }

    /// `self + other` mod the prime.
    #[must_use]
    pub fn plus(self, other: Check) -> Check {
        Check((self.0 + other.0) % PRIME)
    }

    /// `self · other` mod the prime.
    #[must_use]
    pub fn times(self, other: Check) -> Check {
        Check((u128::from(self.0) * u128::from(other.0) % u128::from(PRIME)) as u64)
    }

    /// The term of one state (or task): its hash times its count.
    #[inline]
    pub fn term(hash: u64, count: u128) -> Check {
        Check::new(hash).times(Check::of(count))
    }

    /// This figure with `sum` folded in as the next step's.
    #[must_use]
    pub fn step(self, sum: Check) -> Check {
        self.times(Check(BASE)).plus(sum)
    }

    /// Sixteen hexadecimal digits.
    pub fn hex(self) -> String {
        format!("{:016x}", self.0)
    }

    /// The figure of sixteen hexadecimal digits, if `text` is one.
    pub fn parse(text: &str) -> Option<Check> {
        if text.len() != 16 {
            return None;
        }
        u64::from_str_radix(text, 16)
            .ok()
            .filter(|&v| v < PRIME)
            .map(Check)
    }
}

impl std::fmt::Display for Check {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.hex())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arithmetic_is_mod_the_prime_and_the_hex_round_trips() {
        let a = Check::of(u128::from(PRIME) + 5);
        assert_eq!(a.value(), 5);
        assert_eq!(Check::new(PRIME - 1).plus(Check::new(2)).value(), 1);
        // (p − 1)² = 1 mod p.
        assert_eq!(
            Check::new(PRIME - 1).times(Check::new(PRIME - 1)).value(),
            1
        );
        let c = Check::new(0x0123_4567_89ab_cdef);
        assert_eq!(Check::parse(&c.hex()), Some(c));
        assert_eq!(Check::parse("12"), None);
        assert_eq!(Check::parse("ffffffffffffffff"), None);
        // Steps do not commute: the order of the work shows.
        let (x, y) = (Check::new(3), Check::new(7));
        assert_ne!(
            Check::default().step(x).step(y),
            Check::default().step(y).step(x)
        );
    }
}
