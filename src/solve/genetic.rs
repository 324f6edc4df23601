//! The genetic solver.

/// Parameter presets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Deserialize, serde::Serialize)]
pub enum Preset {
    /// The published write-up's algorithm, parameter for parameter.
    Classic,
    /// Stronger defaults.
    #[default]
    Tuned,
}

/// Parent selection.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
pub enum Selection {
    /// Fitness-proportional.
    Roulette,
    /// Best of a small random group.
    Tournament,
}

/// How an illegal gene is repaired while decoding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Deserialize, serde::Serialize)]
pub enum Repair {
    /// Cycle through the piece's moves until a legal one is found.
    Cycle,
    /// Take the legal move Warnsdorff's rule prefers.
    Warnsdorff,
}

/// Options of the genetic solver; unset ones come from the preset.
#[derive(Clone, Copy, Debug, PartialEq, Default, serde::Deserialize, serde::Serialize)]
#[serde(default, deny_unknown_fields)]
pub struct GeneticOptions {
    /// Preset the other options default to.
    pub preset: Preset,
    /// Individuals per generation.
    pub population: Option<usize>,
    /// Per-gene mutation probability.
    pub mutation: Option<f64>,
    /// Give up after this many generations.
    pub generations: Option<u64>,
    /// Parent selection.
    pub selection: Option<Selection>,
    /// Gene repair.
    pub repair: Option<Repair>,
}
