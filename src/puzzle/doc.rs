//! The puzzle file as written: the RON document types serde reads (the
//! `Puzzle(…)` struct, its `pieces` map and its `clues`), and the RON
//! options it is read with. Nothing here is checked beyond its type; the
//! loader ([`super::load`]) turns a document into a checked puzzle.

use std::fmt;

use serde::Deserialize;
use serde::de::{MapAccess, Visitor};

use crate::model::{Magic, TourSymmetry};
use crate::solve::SolverSpec;

/// Open or closed tour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Deserialize)]
pub enum TourKind {
    /// The tour may end anywhere.
    #[default]
    Open,
    /// The last square is one move from the first.
    Closed,
}

/// The `pieces` map, in file order, with duplicate names refused.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct PieceMap(pub(super) Vec<(String, String)>);

impl<'de> Deserialize<'de> for PieceMap {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = PieceMap;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map of piece names to piece expressions")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<PieceMap, A::Error> {
                let mut out: Vec<(String, String)> = Vec::new();
                let mut names = std::collections::HashSet::new();
                while let Some((k, v)) = map.next_entry::<String, String>()? {
                    if !names.insert(k.clone()) {
                        return Err(serde::de::Error::custom(format!(
                            "{DUPLICATE_PIECE} `{k}` in `pieces`"
                        )));
                    }
                    out.push((k, v));
                }
                Ok(PieceMap(out))
            }
        }
        d.deserialize_map(V)
    }
}

/// The `clues` field: a map of squares to step numbers, or a picture.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum CluesDoc {
    /// Squares (as written) and their steps.
    Map(Vec<(String, u64)>),
    /// A clue picture.
    Picture(String),
}

impl<'de> Deserialize<'de> for CluesDoc {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = CluesDoc;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map of squares to step numbers, or a clue picture")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<CluesDoc, E> {
                Ok(CluesDoc::Picture(v.to_string()))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<CluesDoc, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = map.next_entry::<String, u64>()? {
                    out.push((k, v));
                }
                Ok(CluesDoc::Map(out))
            }
        }
        d.deserialize_any(V)
    }
}

/// How many solutions `run` looks for (`solutions:` in the file).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
pub enum Solutions {
    /// The first solution found.
    #[default]
    First,
    /// Two: the solution and a proof that it is the only one, or two
    /// solutions (`--unique`).
    Unique,
}

/// The puzzle file as written.
#[derive(Debug, Deserialize)]
#[serde(rename = "Puzzle", deny_unknown_fields)]
pub(super) struct Doc {
    pub(super) name: Option<String>,
    #[serde(default)]
    pub(super) board: Option<String>,
    pub(super) piece: String,
    #[serde(default)]
    pub(super) pieces: PieceMap,
    #[serde(default)]
    pub(super) tour: TourKind,
    #[serde(default)]
    pub(super) start: Option<String>,
    #[serde(default)]
    pub(super) end: Option<String>,
    #[serde(default)]
    pub(super) solver: SolverSpec,
    #[serde(default)]
    pub(super) seed: u64,
    #[serde(default)]
    pub(super) save: bool,
    #[serde(default)]
    pub(super) solutions: Solutions,
    #[serde(default)]
    pub(super) clues: Option<CluesDoc>,
    #[serde(default)]
    pub(super) symmetry: Option<TourSymmetry>,
    #[serde(default)]
    pub(super) letters: Option<String>,
    #[serde(default)]
    pub(super) text: Option<String>,
    #[serde(default)]
    pub(super) magic: Option<Magic>,
}

/// The start of the message for a name given twice in `pieces`, which
/// RON passes on as a message of its own.
pub(super) const DUPLICATE_PIECE: &str = "duplicate piece name";

/// The RON options the puzzle file is read with: `Some(..)` may be left out
/// of optional numbers, and solver options are written `Backtrack(order: Given)`.
pub(super) fn ron_options() -> ron::Options {
    ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .with_default_extension(ron::extensions::Extensions::UNWRAP_VARIANT_NEWTYPES)
}
