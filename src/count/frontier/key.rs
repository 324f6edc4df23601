//! Frontier states packed into one integer, and their counts.
//!
//! A state gives each frontier slot a code of [`BITS`] bits:
//! `0` no move yet, `1` two moves (done), `2` one move, on a path piece
//! whose other end has retired as an end of the tour ("free"), and `3 + l`
//! one move, on the path piece labelled `l`, whose other end is the other
//! slot with that code. Pieces are labelled in the order of their first
//! slot, so each state has one packing. A frontier of at most 16 slots
//! packs into a `u64`, of at most 32 into a `u128`. The all-ones value
//! would give every slot the same label, which no state does (each label
//! is on exactly two slots): tables use it as "no key".

use std::hash::Hash;

/// Bits per slot.
pub const BITS: u32 = 4;

/// A packed state.
pub trait Key: Copy + Ord + Hash + Send + Sync + std::fmt::Debug + 'static {
    /// The most slots a key holds.
    const SLOTS: usize;
    /// The state with every slot 0.
    const ZERO: Self;
    /// The value that is never a state.
    const NONE: Self;
    /// The code of `slot`.
    fn get(self, slot: usize) -> u8;
    /// This key with `code` or-ed into `slot` (which must hold 0).
    fn with(self, slot: usize, code: u8) -> Self;
    /// This key with `slot` set to `code`.
    fn set(self, slot: usize, code: u8) -> Self;
    /// A well-mixed 64-bit hash.
    fn hash64(self) -> u64;
}

impl Key for u64 {
    const SLOTS: usize = 16;
    const ZERO: u64 = 0;
    const NONE: u64 = u64::MAX;
    #[inline(always)]
    fn get(self, slot: usize) -> u8 {
        ((self >> (slot as u32 * BITS)) & 0xF) as u8
    }
    #[inline(always)]
    fn with(self, slot: usize, code: u8) -> u64 {
        self | (u64::from(code) << (slot as u32 * BITS))
    }
    #[inline(always)]
    fn set(self, slot: usize, code: u8) -> u64 {
        let at = slot as u32 * BITS;
        (self & !(0xF << at)) | (u64::from(code) << at)
    }
    #[inline(always)]
    fn hash64(self) -> u64 {
        let h = (self ^ (self >> 31)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^ (h >> 29)
    }
}

impl Key for u128 {
    const SLOTS: usize = 32;
    const ZERO: u128 = 0;
    const NONE: u128 = u128::MAX;
    #[inline(always)]
    fn get(self, slot: usize) -> u8 {
        ((self >> (slot as u32 * BITS)) & 0xF) as u8
    }
    #[inline(always)]
    fn with(self, slot: usize, code: u8) -> u128 {
        self | (u128::from(code) << (slot as u32 * BITS))
    }
    #[inline(always)]
    fn set(self, slot: usize, code: u8) -> u128 {
        let at = slot as u32 * BITS;
        (self & !(0xF << at)) | (u128::from(code) << at)
    }
    #[inline(always)]
    fn hash64(self) -> u64 {
        let lo = self as u64;
        let hi = (self >> 64) as u64;
        (lo ^ hi.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(31)).hash64()
    }
}

/// An exact count: `u64` when it is enough, `u128` otherwise. Adding
/// reports overflow, so a count that outgrows its type is redone with the
/// wider one rather than wrapped.
pub trait Count: Copy + Send + Sync + Default + Eq + std::fmt::Debug + 'static {
    /// One.
    const ONE: Self;
    /// Bits it holds.
    const BITS: u32;
    /// `self + other`, or None on overflow.
    fn add(self, other: Self) -> Option<Self>;
    /// The value as a `u128`.
    fn wide(self) -> u128;
}

impl Count for u64 {
    const ONE: u64 = 1;
    const BITS: u32 = 64;
    #[inline(always)]
    fn add(self, other: u64) -> Option<u64> {
        self.checked_add(other)
    }
    fn wide(self) -> u128 {
        u128::from(self)
    }
}

impl Count for u128 {
    const ONE: u128 = 1;
    const BITS: u32 = 128;
    #[inline(always)]
    fn add(self, other: u128) -> Option<u128> {
        self.checked_add(other)
    }
    fn wide(self) -> u128 {
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_in_every_slot() {
        let mut k = <u128 as Key>::ZERO;
        for slot in 0..u128::SLOTS {
            k = k.with(slot, (slot % 16) as u8);
        }
        for slot in 0..u128::SLOTS {
            assert_eq!(k.get(slot), (slot % 16) as u8);
        }
        let mut k = <u64 as Key>::ZERO;
        for slot in 0..u64::SLOTS {
            k = k.with(slot, (slot % 11) as u8);
        }
        for slot in 0..u64::SLOTS {
            assert_eq!(k.get(slot), (slot % 11) as u8);
        }
        assert_eq!(k.set(3, 7).get(3), 7);
        assert_eq!(k.set(3, 7).get(4), k.get(4));
        assert_eq!(u64::MAX.add(1), None);
        assert_eq!(5u128.add(7), Some(12));
    }
}
