//! Frontier states packed into one integer, and their counts.
//!
//! A state gives each frontier slot a code of [`Key::BITS`] bits:
//! `0` no move yet, `1` two moves (done), `2` one move, on a path piece
//! whose other end has retired as an end of the tour ("free"), and, for one
//! move on a path piece whose other end is another slot, either that slot
//! itself (`3 + s`, in a [`Mates`] key) or the piece's label (`3 + l`,
//! pieces labelled in the order of their first slot; the other keys). Each
//! state has one packing either way. Naming the other slot costs nothing
//! to pack or unpack, but needs a code per slot: [`Mates`] holds frontiers
//! of at most 13 slots in a `u64`. Labels need a code per two slots: a
//! frontier of at most 16 slots packs into a `u64` and of at most 27 into a
//! `u128` (4 bits a slot), of at most 36 into a [`Wide`] key (5 bits a
//! slot). The all-ones value would give every slot the same label, or make
//! the last slot its own other end, which no state does: tables use it as
//! "no key".

use std::hash::Hash;

/// A packed state.
pub trait Key: Copy + Ord + Hash + Send + Sync + std::fmt::Debug + 'static {
    /// Bits per slot.
    const BITS: u32;
    /// The most slots a key holds, with every state of that many slots
    /// within the codes.
    const SLOTS: usize;
    /// Whether a slot on a piece holds its other slot ([`Mates`]) rather
    /// than the piece's label.
    const MATES: bool = false;
    /// The state with every slot 0.
    const ZERO: Self;
    /// The value that is never a state.
    const NONE: Self;
    /// The code of `slot`.
    fn get(self, slot: usize) -> u8;
    /// This key with `code` or-ed into `slot` (which must hold 0).
    fn with(self, slot: usize, code: u8) -> Self;
    /// A well-mixed 64-bit hash.
    fn hash64(self) -> u64;
    /// The key with each slot's code replaced by its class: `0` no move,
    /// `1` done, `2` free, `3` on a piece whose other end is a slot.
    /// States of one class have the same degrees; the look-ahead treats
    /// them alike but for the pieces its forced moves join.
    fn classes(self) -> Self;
    /// Bytes of its little-endian form on disk.
    const BYTES: usize;
    /// Writes its little-endian form into `out` ([`Key::BYTES`] long).
    fn write_le(self, out: &mut [u8]);
    /// The key written by [`Key::write_le`] into `b`.
    fn read_le(b: &[u8]) -> Self;
}

/// The `u64` of the first eight bytes of `b`, little-endian.
#[inline]
fn word(b: &[u8]) -> u64 {
    let mut w = [0u8; 8];
    w.copy_from_slice(&b[..8]);
    u64::from_le_bytes(w)
}

/// Each 4-bit code's class (`0` to `2`, or `3` for any code from 3).
#[inline(always)]
fn classes4(k: u64) -> u64 {
    let low = k & 0x3333_3333_3333_3333;
    let high = ((k >> 2) | (k >> 3)) & 0x1111_1111_1111_1111;
    low | (high * 3)
}

/// Bits 0 and 1 of each of twelve 5-bit codes, and bit 0.
const LOW5: u64 = {
    let (mut m, mut i) = (0, 0);
    while i < 12 {
        m |= 0b11 << (5 * i);
        i += 1;
    }
    m
};
const BIT5: u64 = LOW5 & (LOW5 >> 1);

/// Each 5-bit code's class, twelve codes to a word.
#[inline(always)]
fn classes5(k: u64) -> u64 {
    let high = ((k >> 2) | (k >> 3) | (k >> 4)) & BIT5;
    (k & LOW5) | (high * 3)
}

impl Key for u64 {
    const BITS: u32 = 4;
    const SLOTS: usize = 16;
    const ZERO: u64 = 0;
    const NONE: u64 = u64::MAX;
    #[inline(always)]
    fn get(self, slot: usize) -> u8 {
        ((self >> (slot as u32 * 4)) & 0xF) as u8
    }
    #[inline(always)]
    fn with(self, slot: usize, code: u8) -> u64 {
        self | (u64::from(code) << (slot as u32 * 4))
    }
    #[inline(always)]
    fn hash64(self) -> u64 {
        let h = (self ^ (self >> 31)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h ^ (h >> 29)
    }
    #[inline(always)]
    fn classes(self) -> u64 {
        classes4(self)
    }
    const BYTES: usize = 8;
    fn write_le(self, out: &mut [u8]) {
        out[..8].copy_from_slice(&self.to_le_bytes());
    }
    fn read_le(b: &[u8]) -> u64 {
        word(b)
    }
}

/// A `u64` of 4-bit codes whose pieces' slots name each other's slot
/// (`3 + s`, `s` at most 12): 13 slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Mates(u64);

impl Key for Mates {
    const BITS: u32 = 4;
    const SLOTS: usize = 13;
    const MATES: bool = true;
    const ZERO: Mates = Mates(0);
    const NONE: Mates = Mates(u64::MAX);
    #[inline(always)]
    fn get(self, slot: usize) -> u8 {
        self.0.get(slot)
    }
    #[inline(always)]
    fn with(self, slot: usize, code: u8) -> Mates {
        Mates(self.0.with(slot, code))
    }
    #[inline(always)]
    fn hash64(self) -> u64 {
        self.0.hash64()
    }
    #[inline(always)]
    fn classes(self) -> Mates {
        Mates(classes4(self.0))
    }
    const BYTES: usize = 8;
    fn write_le(self, out: &mut [u8]) {
        Key::write_le(self.0, out);
    }
    fn read_le(b: &[u8]) -> Mates {
        Mates(word(b))
    }
}

/// 27 slots: at most 13 pieces, whose labels fit the 13 codes `3..=15`.
impl Key for u128 {
    const BITS: u32 = 4;
    const SLOTS: usize = 27;
    const ZERO: u128 = 0;
    const NONE: u128 = u128::MAX;
    #[inline(always)]
    fn get(self, slot: usize) -> u8 {
        ((self >> (slot as u32 * 4)) & 0xF) as u8
    }
    #[inline(always)]
    fn with(self, slot: usize, code: u8) -> u128 {
        self | (u128::from(code) << (slot as u32 * 4))
    }
    #[inline(always)]
    fn hash64(self) -> u64 {
        let lo = self as u64;
        let hi = (self >> 64) as u64;
        (lo ^ hi.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(31)).hash64()
    }
    #[inline(always)]
    fn classes(self) -> u128 {
        let (lo, hi) = (self as u64, (self >> 64) as u64);
        u128::from(classes4(lo)) | u128::from(classes4(hi)) << 64
    }
    const BYTES: usize = 16;
    fn write_le(self, out: &mut [u8]) {
        out[..16].copy_from_slice(&self.to_le_bytes());
    }
    fn read_le(b: &[u8]) -> u128 {
        u128::from(word(b)) | u128::from(word(&b[8..])) << 64
    }
}

/// A key of 36 slots of 5 bits, 12 to each of three words (labels up to
/// 28, for at most 18 pieces).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Wide([u64; 3]);

impl Key for Wide {
    const BITS: u32 = 5;
    const SLOTS: usize = 36;
    const ZERO: Wide = Wide([0; 3]);
    const NONE: Wide = Wide([u64::MAX; 3]);
    #[inline(always)]
    fn get(self, slot: usize) -> u8 {
        let (w, at) = (slot / 12, (slot % 12) as u32 * 5);
        ((self.0[w % 3] >> at) & 0x1F) as u8
    }
    #[inline(always)]
    fn with(mut self, slot: usize, code: u8) -> Wide {
        let (w, at) = (slot / 12, (slot % 12) as u32 * 5);
        self.0[w % 3] |= u64::from(code) << at;
        self
    }
    #[inline(always)]
    fn hash64(self) -> u64 {
        let [a, b, c] = self.0;
        (a ^ b.wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(31)
            ^ c.wrapping_mul(0x1656_67B1_9E37_79F9).rotate_left(17))
        .hash64()
    }
    #[inline(always)]
    fn classes(self) -> Wide {
        Wide(self.0.map(classes5))
    }
    const BYTES: usize = 24;
    fn write_le(self, out: &mut [u8]) {
        for (i, w) in self.0.iter().enumerate() {
            out[8 * i..8 * i + 8].copy_from_slice(&w.to_le_bytes());
        }
    }
    fn read_le(b: &[u8]) -> Wide {
        Wide([word(b), word(&b[8..]), word(&b[16..])])
    }
}

/// An exact count: `u64` when it is enough, `u128` otherwise. Adding
/// reports overflow, so a count that outgrows its type is redone with the
/// wider one rather than wrapped.
pub trait Tally: Copy + Send + Sync + Default + Eq + std::fmt::Debug + 'static {
    /// One.
    const ONE: Self;
    /// Bits it holds.
    const BITS: u32;
    /// `self + other`, or None on overflow.
    fn add(self, other: Self) -> Option<Self>;
    /// The value as a `u128`.
    fn wide(self) -> u128;
    /// Bytes of its little-endian form on disk.
    const BYTES: usize;
    /// Writes its little-endian form into `out` ([`Tally::BYTES`] long).
    fn write_le(self, out: &mut [u8]);
    /// The count written by [`Tally::write_le`] into `b`.
    fn read_le(b: &[u8]) -> Self;
}

impl Tally for u64 {
    const ONE: u64 = 1;
    const BITS: u32 = 64;
    #[inline(always)]
    fn add(self, other: u64) -> Option<u64> {
        self.checked_add(other)
    }
    fn wide(self) -> u128 {
        u128::from(self)
    }
    const BYTES: usize = 8;
    fn write_le(self, out: &mut [u8]) {
        Key::write_le(self, out);
    }
    fn read_le(b: &[u8]) -> u64 {
        word(b)
    }
}

impl Tally for u128 {
    const ONE: u128 = 1;
    const BITS: u32 = 128;
    #[inline(always)]
    fn add(self, other: u128) -> Option<u128> {
        self.checked_add(other)
    }
    fn wide(self) -> u128 {
        self
    }
    const BYTES: usize = 16;
    fn write_le(self, out: &mut [u8]) {
        Key::write_le(self, out);
    }
    fn read_le(b: &[u8]) -> u128 {
        <u128 as Key>::read_le(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_in_every_slot() {
        fn check<K: Key>() {
            let top = (1u8 << K::BITS) - 1;
            let mut k = K::ZERO;
            for slot in 0..K::SLOTS {
                k = k.with(slot, (slot % usize::from(top)) as u8 + 1);
            }
            for slot in 0..K::SLOTS {
                assert_eq!(k.get(slot), (slot % usize::from(top)) as u8 + 1);
            }
            assert_ne!(k, K::NONE);
            assert_eq!(K::NONE.get(K::SLOTS - 1), top);
            let mut bytes = vec![0u8; K::BYTES];
            k.write_le(&mut bytes);
            assert_eq!(K::read_le(&bytes), k);
        }
        check::<Mates>();
        check::<u64>();
        check::<u128>();
        check::<Wide>();
        assert_eq!(u64::MAX.add(1), None);
        assert_eq!(5u128.add(7), Some(12));
    }

    /// Each slot's class is its code up to 3, whatever the codes beside it.
    #[test]
    fn classes_are_each_slots_code_up_to_three() {
        fn check<K: Key>() {
            let top = (1u8 << K::BITS) - 1;
            for shift in 0..=top {
                let mut k = K::ZERO;
                for slot in 0..K::SLOTS {
                    k = k.with(slot, (slot as u8).wrapping_mul(7).wrapping_add(shift) & top);
                }
                let c = k.classes();
                for slot in 0..K::SLOTS {
                    assert_eq!(c.get(slot), k.get(slot).min(3), "slot {slot} of {k:?}");
                }
            }
        }
        check::<Mates>();
        check::<u64>();
        check::<u128>();
        check::<Wide>();
    }
}
