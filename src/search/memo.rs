//! The cache of ending counts that the searches of one graph share.

use super::tables::Tables;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering, fence};

/// A direct-mapped cache of ending counts keyed by `(R, h)` (`h` the head
/// with the end class), shared by all the workers of a count. A slot holds
/// one key and is overwritten by the next key that maps to it; losing an
/// entry only costs a miss.
///
/// Slot `i` holds a version, `R`, and `count << 16 | (h + 1)` (`h + 1 = 0`:
/// empty; counts of 2^48 or more are not cached), guarded as a
/// *sequence lock*: a writer makes the version odd, writes, and makes it
/// even again; a reader takes the words only if it saw the same even
/// version before and after reading them, so it never takes a half-written
/// entry. A writer that finds the slot busy skips it. Every word is an
/// atomic, so this is plain safe Rust; on x86 the loads and fences cost
/// nothing extra. A byte per slot (a few bits of the key's hash, never 0
/// once written) settles most misses in a table small enough to stay in
/// the processor's cache; it is only a hint, read and written loosely.
pub struct Memo {
    tags: Vec<AtomicU8>,
    slots: Vec<Slot>,
    bits: u32,
}

/// One slot of [`Memo`], aligned so that it never straddles two cache lines.
#[repr(align(32))]
#[derive(Default)]
struct Slot {
    version: AtomicU64,
    set: AtomicU64,
    packed: AtomicU64,
}

impl Memo {
    /// A cache of `2^bits` slots (none when `bits` is 0).
    pub fn new(bits: u32) -> Memo {
        let slots = if bits == 0 { 0 } else { 1usize << bits };
        Memo {
            tags: (0..slots).map(|_| AtomicU8::new(0)).collect(),
            slots: (0..slots).map(|_| Slot::default()).collect(),
            bits,
        }
    }

    /// The slot of a key, and its tag.
    #[inline]
    fn slot(&self, set: u64, head: u32) -> (usize, u8) {
        let x = (set ^ u64::from(head).wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .wrapping_mul(0xD6E8_FEB8_6659_FD93);
        ((x >> (64 - self.bits)) as usize, (x as u8) | 1)
    }

    /// The cached count of `(R, h)`, if there is one.
    #[inline]
    pub fn get(&self, (set, head): (u64, u32)) -> Option<u64> {
        if self.slots.is_empty() {
            return None;
        }
        let (i, tag) = self.slot(set, head);
        if self.tags[i].load(Ordering::Relaxed) != tag {
            return None;
        }
        let w = &self.slots[i];
        let before = w.version.load(Ordering::Acquire);
        let stored = w.set.load(Ordering::Relaxed);
        let packed = w.packed.load(Ordering::Relaxed);
        fence(Ordering::Acquire);
        let after = w.version.load(Ordering::Relaxed);
        (before == after
            && before.is_multiple_of(2)
            && stored == set
            && packed & 0xFFFF == u64::from(head) + 1)
            .then_some(packed >> 16)
    }

    /// Caches the count of `(R, h)` (unless another worker is writing the
    /// same slot just then).
    #[inline]
    pub fn put(&self, (set, head): (u64, u32), count: u64) {
        if self.slots.is_empty() || count >> 48 != 0 || head >= 0xFFFF {
            return;
        }
        let (i, tag) = self.slot(set, head);
        let w = &self.slots[i];
        let version = w.version.load(Ordering::Relaxed);
        if !version.is_multiple_of(2)
            || w.version
                .compare_exchange(version, version + 1, Ordering::Relaxed, Ordering::Relaxed)
                .is_err()
        {
            return;
        }
        fence(Ordering::Release);
        w.set.store(set, Ordering::Relaxed);
        w.packed
            .store(count << 16 | (u64::from(head) + 1), Ordering::Relaxed);
        w.version.store(version + 2, Ordering::Release);
        self.tags[i].store(tag, Ordering::Relaxed);
    }
}

/// Slots (as a power of two) of the cache of endings for a graph's tables:
/// none when the cache is off or the board has more than 64 squares, else
/// from 2^12 (small boards should not pay for a large table) to 2^20 slots
/// of 33 bytes (33 MiB, shared by all the workers).
pub(crate) fn memo_bits(tables: &Tables) -> u32 {
    if tables.rules.memo && tables.n <= 64 {
        (tables.n as u32 / 2).clamp(12, 20)
    } else {
        0
    }
}
