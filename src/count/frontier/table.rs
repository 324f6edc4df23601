//! The table that merges the states of one step: open addressing with
//! linear probing, keys and counts in two flat arrays, split into
//! partitions by the top bits of the hash so that threads fill different
//! partitions at once and each grows on its own.

use std::sync::Mutex;

use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};

use super::key::{Key, Tally};

/// Partitions of a layer (a power of two). Each thread keeps a batch of
/// up to [`BATCH_MAX`] entries for every partition: with 64, a thread's
/// batches (about 200 KB) stay in its core's cache, where 256 (about
/// 800 KB) did not, and the open table ran 6-9 % slower (BENCHMARKS.md).
pub const PARTITIONS: usize = 64;
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
    /// Key and count side by side: one cache line per probe.
    entries: Vec<(K, C)>,
    len: usize,
    /// log2 of the capacity.
    bits: u32,
}

/// Why an insertion failed: a count outgrew its type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overflow;

impl<K: Key, C: Tally> Table<K, C> {
    /// An empty table.
    pub fn new() -> Table<K, C> {
        Table {
            entries: Vec::new(),
            len: 0,
            bits: 0,
        }
    }

    /// Bytes of its array.
    pub fn bytes(&self) -> u64 {
        (self.entries.capacity() * size_of::<(K, C)>()) as u64
    }

    /// Room for `more` entries without growing.
    fn reserve(&mut self, more: usize) {
        while (self.len + more) * LOAD_DEN > self.entries.len() * LOAD_NUM {
            self.grow();
        }
    }

    #[inline(always)]
    fn home(&self, h: u64) -> usize {
        ((h << PART_BITS) >> (64 - self.bits)) as usize
    }

    /// Adds `count` to the entry of `key` (whose hash is `h`), creating it.
    #[inline]
    pub fn add(&mut self, key: K, h: u64, count: C) -> Result<(), Overflow> {
        self.reserve(1);
        let i = self.home(h);
        self.add_at(i, key, count)
    }

    /// Adds `count` to `key`'s entry, probing from slot `i` (room reserved).
    #[inline(always)]
    fn add_at(&mut self, mut i: usize, key: K, count: C) -> Result<(), Overflow> {
        let mask = self.entries.len() - 1;
        loop {
            let e = &mut self.entries[i];
            if e.0 == key {
                e.1 = e.1.add(count).ok_or(Overflow)?;
                return Ok(());
            }
            if e.0 == K::NONE {
                *e = (key, count);
                self.len += 1;
                return Ok(());
            }
            i = (i + 1) & mask;
        }
    }

    /// Adds a batch of entries: their slots are fetched from memory all at
    /// once, then filled.
    pub fn add_batch(&mut self, batch: &[(K, u64, C)]) -> Result<(), Overflow> {
        self.reserve(batch.len());
        // Independent loads of every home slot first: the processor fetches
        // their cache lines in parallel rather than one miss at a time.
        let mut touch = 0usize;
        for &(_, hash, _) in batch {
            touch ^= usize::from(self.entries[self.home(hash)].0 == K::NONE);
        }
        std::hint::black_box(touch);
        for &(k, hash, c) in batch {
            self.add_at(self.home(hash), k, c)?;
        }
        Ok(())
    }

    fn grow(&mut self) {
        let bits = (self.bits + 1).max(4);
        let old = std::mem::replace(&mut self.entries, vec![(K::NONE, C::default()); 1 << bits]);
        self.bits = bits;
        let mask = self.entries.len() - 1;
        for (k, c) in old {
            if k == K::NONE {
                continue;
            }
            let mut i = self.home(k.hash64());
            while self.entries[i].0 != K::NONE {
                i = (i + 1) & mask;
            }
            self.entries[i] = (k, c);
        }
    }

    /// Entries held.
    pub fn len(&self) -> usize {
        self.len
    }

    /// The table's entries.
    pub fn into_entries(self) -> impl Iterator<Item = (K, C)> {
        self.entries.into_iter().filter(|e| e.0 != K::NONE)
    }

    /// The entries, emptying the table.
    pub fn drain(&mut self) -> Vec<(K, C)> {
        let entries = std::mem::take(&mut self.entries);
        self.len = 0;
        self.bits = 0;
        let mut out: Vec<(K, C)> = entries.into_iter().filter(|e| e.0 != K::NONE).collect();
        out.shrink_to_fit();
        out
    }
}

/// The most entries of one batch.
pub const BATCH_MAX: usize = 128;

impl<K: Key, C: Tally> Default for Table<K, C> {
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

impl<K: Key, C: Tally> Layer<K, C> {
    /// An empty layer.
    pub fn new() -> Layer<K, C> {
        Layer::with_room(0)
    }

    /// An empty layer with room for about `states` entries without growing
    /// (each step's states are close to the last step's: sizing the tables
    /// up front saves rehashing them as they fill).
    pub fn with_room(states: usize) -> Layer<K, C> {
        let each = states / PARTITIONS;
        let parts: Vec<Mutex<Table<K, C>>> = (0..PARTITIONS)
            .into_par_iter()
            .map(|_| {
                let mut t = Table::new();
                if each > 0 {
                    t.reserve(each);
                }
                Mutex::new(t)
            })
            .collect();
        let bytes = parts
            .iter()
            .map(|p| p.lock().map_or(0, |t| t.bytes()))
            .sum();
        Layer {
            parts,
            bytes: AtomicU64::new(bytes),
        }
    }

    /// Adds a batch of entries, all of partition `p`.
    pub fn add_batch(&self, p: usize, batch: &[(K, u64, C)]) -> Result<(), Overflow> {
        let mut t = self.parts[p].lock().map_err(|_| Overflow)?;
        let before = t.bytes();
        let r = t.add_batch(batch);
        let after = t.bytes();
        if after != before {
            self.bytes.fetch_add(after - before, Ordering::Relaxed);
        }
        r
    }

    /// Entries of all its tables.
    pub fn len(&self) -> usize {
        self.parts
            .iter()
            .map(|p| p.lock().map_or(0, |t| t.len()))
            .sum()
    }

    /// Entries of its fullest table.
    pub fn largest(&self) -> usize {
        self.parts
            .iter()
            .map(|p| p.lock().map_or(0, |t| t.len()))
            .max()
            .unwrap_or(0)
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

impl<K: Key, C: Tally> Default for Layer<K, C> {
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
