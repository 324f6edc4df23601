//! What a recording keeps of a genetic run besides the recorder's samples:
//! the fitness chart (best and mean fitness per generation, in at most
//! [`CHART_POINTS`] points), which moves of each kept walk were made by
//! repaired genes, and, when generation 1 already held a tour, some walks
//! of that random population. All of it is bounded by the recorder's
//! sample budget, not by the number of generations.

/// The most points the fitness chart keeps; past it, neighbours merge
/// pairwise and each point covers twice as many generations.
pub const CHART_POINTS: usize = 1024;

/// The most bytes the repaired moves may take, and the most the walks of
/// generation 1's population may take (each): an eighth of the
/// recorder's budget. Past it, what does not fit is not kept (the frame
/// then shows no repaired moves, or fewer walks).
pub const LINEAGE_BYTES: u64 = crate::budget::RECORD / 8;

/// One point of the fitness chart: generations `first..first + count`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChartPoint {
    /// The first generation it covers (from 1).
    pub first: u64,
    /// How many generations it covers.
    pub count: u64,
    /// The best fitness among them.
    pub best: usize,
    /// The mean of their populations' mean fitness.
    pub mean: f64,
}

/// One walk of generation 1's population (see
/// [`Observer::individual`](crate::search::event::Observer::individual)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Individual {
    /// Its fitness.
    pub fitness: usize,
    /// Its squares.
    pub walk: Vec<u32>,
    /// Per square, whether the move into it was made by a repaired gene.
    pub repaired: Vec<bool>,
}

/// The genetic side of a recording (see the module documentation).
#[derive(Clone, Debug, Default)]
pub struct Lineage {
    chart: Vec<ChartPoint>,
    /// Generations per chart point.
    stride: u64,
    /// Repaired moves of kept walks: the walk's event index and a bit per
    /// square, sorted by index.
    repaired: Vec<(u64, Vec<u64>)>,
    /// Bytes of the bits in `repaired`.
    repaired_bytes: u64,
    population: Vec<Individual>,
    /// Bytes of `population`'s walks and flags.
    population_bytes: u64,
}

impl Lineage {
    /// Adds generation `generation`'s best and mean fitness to the chart.
    pub fn chart_add(&mut self, generation: u64, best: usize, mean: f64) {
        self.stride = self.stride.max(1);
        match self.chart.last_mut() {
            Some(p) if p.count < self.stride => {
                p.mean = (p.mean * p.count as f64 + mean) / (p.count + 1) as f64;
                p.best = p.best.max(best);
                p.count += 1;
            }
            _ => self.chart.push(ChartPoint {
                first: generation,
                count: 1,
                best,
                mean,
            }),
        }
        if self.chart.len() > CHART_POINTS {
            let merged: Vec<ChartPoint> = self
                .chart
                .chunks(2)
                .map(|c| {
                    let count: u64 = c.iter().map(|p| p.count).sum();
                    ChartPoint {
                        first: c[0].first,
                        count,
                        best: c.iter().map(|p| p.best).max().unwrap_or(0),
                        mean: c.iter().map(|p| p.mean * p.count as f64).sum::<f64>()
                            / count.max(1) as f64,
                    }
                })
                .collect();
            self.chart = merged;
            self.stride *= 2;
        }
    }

    /// The fitness chart, oldest first.
    pub fn chart(&self) -> &[ChartPoint] {
        &self.chart
    }

    /// Keeps which moves of the walk of event `index` were repaired (only
    /// when any were, and while they fit in [`LINEAGE_BYTES`]); `live`
    /// says which earlier walks are still shown, for making room.
    pub fn keep_repaired(&mut self, index: u64, repaired: &[bool], live: impl Fn(u64) -> bool) {
        if let Some(last) = self.repaired.last()
            && last.0 == index
        {
            self.repaired_bytes -= 8 * last.1.len() as u64;
            self.repaired.pop();
        }
        if !repaired.iter().any(|&r| r) {
            return;
        }
        let words = repaired.len().div_ceil(64);
        if self.repaired_bytes + 8 * words as u64 > LINEAGE_BYTES {
            self.prune(live);
            if self.repaired_bytes + 8 * words as u64 > LINEAGE_BYTES {
                return;
            }
        }
        let mut bits = vec![0u64; words];
        for (i, _) in repaired.iter().enumerate().filter(|(_, r)| **r) {
            bits[i / 64] |= 1 << (i % 64);
        }
        self.repaired_bytes += 8 * words as u64;
        self.repaired.push((index, bits));
    }

    /// How many walks' repaired moves are kept.
    pub fn repaired_kept(&self) -> usize {
        self.repaired.len()
    }

    /// Forgets the repaired moves of every walk whose event index `live`
    /// says is no longer kept.
    pub fn prune(&mut self, live: impl Fn(u64) -> bool) {
        self.repaired.retain(|(i, _)| live(*i));
        self.repaired_bytes = self.repaired.iter().map(|(_, b)| 8 * b.len() as u64).sum();
    }

    /// Whether the move into square `i` of the walk of event `index` was
    /// made by a repaired gene.
    pub fn is_repaired(&self, index: u64, i: usize) -> bool {
        match self.repaired.binary_search_by_key(&index, |(k, _)| *k) {
            Ok(at) => {
                let bits = &self.repaired[at].1;
                bits.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1)
            }
            Err(_) => false,
        }
    }

    /// The squares of the walk of event `index` entered by repaired genes
    /// (indices into the walk).
    pub fn repaired_of(&self, index: u64) -> Vec<usize> {
        match self.repaired.binary_search_by_key(&index, |(k, _)| *k) {
            Ok(at) => {
                let bits = &self.repaired[at].1;
                (0..bits.len() * 64)
                    .filter(|&i| bits[i / 64] >> (i % 64) & 1 == 1)
                    .collect()
            }
            Err(_) => Vec::new(),
        }
    }

    /// Keeps a walk of generation 1's population, while they fit in
    /// [`LINEAGE_BYTES`].
    pub fn add_individual(&mut self, fitness: usize, walk: &[u32], repaired: &[bool]) {
        let bytes = 5 * walk.len() as u64;
        if self.population_bytes + bytes > LINEAGE_BYTES {
            return;
        }
        self.population_bytes += bytes;
        self.population.push(Individual {
            fitness,
            walk: walk.to_vec(),
            repaired: repaired.to_vec(),
        });
    }

    /// The walks of generation 1's population kept (empty unless that
    /// generation held a tour).
    pub fn population(&self) -> &[Individual] {
        &self.population
    }

    /// The most bytes a lineage holds for a recording of `samples` samples
    /// on a board of `squares` squares: the repaired moves of at most
    /// twice the samples (pruned past that), the walks of generation 1,
    /// each within [`LINEAGE_BYTES`], and the chart.
    pub fn max_bytes(samples: usize, squares: usize) -> u64 {
        let bits = (squares as u64).div_ceil(64) * 8 + 32;
        let repaired = (2 * samples as u64 + 5)
            .saturating_mul(bits)
            .min(LINEAGE_BYTES + bits);
        let walk = 5 * squares as u64 + 64;
        let population = (crate::search::event::POPULATION_SHOWN as u64 * walk).min(LINEAGE_BYTES);
        let chart = (CHART_POINTS as u64 + 1) * std::mem::size_of::<ChartPoint>() as u64;
        repaired.saturating_add(population).saturating_add(chart)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_chart_stays_bounded_and_keeps_the_best() {
        let mut l = Lineage::default();
        let gens = 5000u64;
        for g in 1..=gens {
            l.chart_add(g, (g % 97) as usize, 10.0);
        }
        let chart = l.chart();
        assert!(chart.len() <= CHART_POINTS && chart.len() > CHART_POINTS / 2);
        assert_eq!(chart.iter().map(|p| p.count).sum::<u64>(), gens);
        assert_eq!(chart.iter().map(|p| p.best).max(), Some(96));
        assert!(chart.iter().all(|p| (p.mean - 10.0).abs() < 1e-9));
        // The points tile the generations.
        let mut next = 1;
        for p in chart {
            assert_eq!(p.first, next);
            next += p.count;
        }
    }

    #[test]
    fn repaired_moves_are_kept_by_walk() {
        let mut l = Lineage::default();
        let mut r = vec![false; 130];
        r[3] = true;
        r[129] = true;
        l.keep_repaired(7, &r, |_| true);
        l.keep_repaired(9, &[false, false], |_| true);
        assert_eq!(l.repaired_of(7), [3, 129]);
        assert!(l.is_repaired(7, 129) && !l.is_repaired(7, 4) && !l.is_repaired(9, 1));
        l.prune(|i| i != 7);
        assert_eq!(l.repaired_kept(), 0);
    }
}
