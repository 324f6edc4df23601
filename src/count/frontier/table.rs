//! The table that merges the states of one step: open addressing with
//! linear probing, keys and counts in two flat arrays, split into
//! partitions by the top bits of the hash so that threads fill different
//! partitions at once and each grows on its own.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use super::key::{Count, Key};

/// Partitions of a layer (a power of two).
pub const PARTITIONS: usize = 256;
const PART_BITS: u32 = PARTITIONS.trailing_zeros();

/// The partition of a hash.
#[inline(always)]
pub fn partition(h: u64) -> usize {
    (h >> (64 - PART_BITS)) as usize
}

/// Entries a table holds at most, per slot of its arrays, before it grows:
/// 3 in 4.
const LOAD_NUM: usize = 3;
const LOAD_DEN: usize = 4;

/// One partition's table.
#[derive(Debug)]
pub struct Table<K, C> {
    keys: Vec<K>,
    counts: Vec<C>,
    len: usize,
    /// log2 of the capacity.
    bits: u32,
}

/// Why an insertion failed: a count outgrew its type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overflow;

impl<K: Key, C: Count> Table<K, C> {
    /// An empty table.
    pub fn new() -> Table<K, C> {
        Table {
            keys: Vec::new(),
            counts: Vec::new(),
            len: 0,
            bits: 0,
        }
    }

    /// Entries held.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True with no entries.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Bytes of its arrays.
    pub fn bytes(&self) -> u64 {
        (self.keys.capacity() * size_of::<K>() + self.counts.capacity() * size_of::<C>()) as u64
    }

    /// Adds `count` to the entry of `key` (whose hash is `h`), creating it.
    #[inline]
    pub fn add(&mut self, key: K, h: u64, count: C) -> Result<(), Overflow> {
        if (self.len + 1) * LOAD_DEN > self.keys.len() * LOAD_NUM {
            self.grow();
        }
        let mask = self.keys.len() - 1;
        let mut i = ((h << PART_BITS) >> (64 - self.bits)) as usize;
        loop {
            let k = self.keys[i];
            if k == key {
                self.counts[i] = self.counts[i].add(count).ok_or(Overflow)?;
                return Ok(());
            }
            if k == K::NONE {
                self.keys[i] = key;
                self.counts[i] = count;
                self.len += 1;
                return Ok(());
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let bits = (self.bits + 1).max(4);
        let keys = std::mem::replace(&mut self.keys, vec![K::NONE; 1 << bits]);
        let counts = std::mem::replace(&mut self.counts, vec![C::default(); 1 << bits]);
        self.bits = bits;
        let mask = self.keys.len() - 1;
        for (k, c) in keys.into_iter().zip(counts) {
            if k == K::NONE {
                continue;
            }
            let mut i = ((k.hash64() << PART_BITS) >> (64 - bits)) as usize;
            while self.keys[i] != K::NONE {
                i = (i + 1) & mask;
            }
            self.keys[i] = k;
            self.counts[i] = c;
        }
    }

    /// The entries, emptying the table.
    pub fn drain(&mut self) -> Vec<(K, C)> {
        let keys = std::mem::take(&mut self.keys);
        let counts = std::mem::take(&mut self.counts);
        self.len = 0;
        self.bits = 0;
        let mut out = Vec::with_capacity(keys.len() / 2);
        out.extend(keys.into_iter().zip(counts).filter(|&(k, _)| k != K::NONE));
        out.shrink_to_fit();
        out
    }
}

impl<K: Key, C: Count> Default for Table<K, C> {
    fn default() -> Self {
        Table::new()
    }
}

/// The next layer being built: one locked table per partition.
pub struct Layer<K, C> {
    parts: Vec<Mutex<Table<K, C>>>,
    /// Bytes of all its tables.
    bytes: AtomicU64,
}

impl<K: Key, C: Count> Layer<K, C> {
    /// An empty layer.
    pub fn new() -> Layer<K, C> {
        Layer {
            parts: (0..PARTITIONS).map(|_| Mutex::new(Table::new())).collect(),
            bytes: AtomicU64::new(0),
        }
    }

    /// Adds a batch of entries, all of partition `p`.
    pub fn add_batch(&self, p: usize, batch: &[(K, u64, C)]) -> Result<(), Overflow> {
        let mut t = self.parts[p].lock().map_err(|_| Overflow)?;
        let before = t.bytes();
        let mut r = Ok(());
        for &(k, h, c) in batch {
            r = t.add(k, h, c);
            if r.is_err() {
                break;
            }
        }
        let after = t.bytes();
        if after != before {
            self.bytes.fetch_add(after - before, Ordering::Relaxed);
        }
        r
    }

    /// Bytes of all its tables.
    pub fn bytes(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }

    /// The layer's tables, to drain.
    pub fn into_parts(self) -> Vec<Table<K, C>> {
        self.parts
            .into_iter()
            .map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner()))
            .collect()
    }
}

impl<K: Key, C: Count> Default for Layer<K, C> {
    fn default() -> Self {
        Layer::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merges_equal_keys_and_keeps_the_rest() {
        let mut t: Table<u64, u64> = Table::new();
        for i in 0..10_000u64 {
            let k = i % 1000;
            t.add(k, k.hash64(), 1).unwrap();
        }
        assert_eq!(t.len(), 1000);
        let mut v = t.drain();
        v.sort_unstable();
        assert_eq!(v.len(), 1000);
        assert!(
            v.iter()
                .enumerate()
                .all(|(i, &(k, c))| k == i as u64 && c == 10)
        );
        let mut t: Table<u128, u64> = Table::new();
        t.add(3, 3u128.hash64(), u64::MAX).unwrap();
        assert_eq!(t.add(3, 3u128.hash64(), 1), Err(Overflow));
    }
}
