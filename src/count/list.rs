//! The tours a count counts, listed: the first N of them, each found by a
//! depth-first walk that goes to a tour's last square (no counter keeps its
//! tours: the search counts endings it has met before without walking them
//! again, the frontier and the subsets count states, not paths), and each
//! checked by the independent verifier before it is handed out.
//!
//! The walk lists the tours in the count's convention — directed, from the
//! start or from every square in turn, ending on the end when one is given;
//! for a puzzle with clues, the numberings that fit them (the clue search's
//! solutions) — so a list of every tour is as long as the count. A puzzle
//! with a symmetry is counted by half paths, and its tours are not listed.

use crate::halt::{Limits, Stop};
use crate::model::TourSymmetry;
use crate::progress::Progress;
use crate::search::probe::first_tours;
use crate::solve::{Task, clued};
use crate::verify::{verify, verify_constraints};

/// The most tours a list of every tour holds: past it, a list is not for
/// reading (10,000 tours of 64 squares are about two megabytes of text),
/// and the first N are asked for instead.
pub const ALL_MOST: u128 = 10_000;

/// How many tours to list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListWant {
    /// The first N (N ≥ 1).
    First(usize),
    /// Every tour: at most [`ALL_MOST`].
    All,
}

/// The tours listed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    /// The tours, each verified, in the order the walk found them.
    pub tours: Vec<Vec<u32>>,
    /// What stopped the walk before it listed what was asked, if anything.
    pub stopped: Option<Stop>,
}

/// Why no tours were listed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ListError {
    /// A puzzle with a symmetry: its count is of half paths.
    Symmetric(TourSymmetry),
    /// Every tour was asked for, and there are more than [`ALL_MOST`].
    TooMany(u128),
    /// A tour the walk found failed the verifier (a bug): what is wrong.
    Unverified(String),
    /// The walk found a different number of tours from the count's, when
    /// as many or more were asked for (a bug): the count's, and the walk's.
    Disagrees(u128, usize),
}

impl std::fmt::Display for ListError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ListError::Symmetric(sym) => write!(
                f,
                "the tours of a puzzle with a symmetry ({}) are counted by half paths and not listed; without the symmetry they are",
                sym.describe()
            ),
            ListError::TooMany(tours) => write!(
                f,
                "there are {} tours, more than the {} a list of every tour holds; ask for the first N",
                crate::words::big(*tours),
                crate::words::big(ALL_MOST)
            ),
            ListError::Unverified(why) => write!(f, "a tour listed failed the verifier: {why}"),
            ListError::Disagrees(count, listed) => write!(
                f,
                "the count found {} tours and the list {}",
                crate::words::big(*count),
                crate::words::thousands(*listed as u64)
            ),
        }
    }
}

impl std::error::Error for ListError {}

/// Lists the tours of `task` that `want` asks for, under `limits`; `counted`
/// is the count's number of tours when it is exact (a list of every tour is
/// refused past [`ALL_MOST`] of them; a list asked for as many or more must
/// come out exactly as long). Every tour is verified, with the clues of the
/// task.
pub fn list(
    task: &Task<'_>,
    want: ListWant,
    counted: Option<u128>,
    limits: &Limits<'_>,
    progress: &Progress,
) -> Result<Listed, ListError> {
    if let Some(sym) = task.constraints.symmetry {
        return Err(ListError::Symmetric(sym));
    }
    let asked = match (want, counted) {
        (ListWant::First(n), _) => n.max(1),
        (ListWant::All, Some(c)) if c > ALL_MOST => return Err(ListError::TooMany(c)),
        (ListWant::All, Some(c)) => c as usize,
        (ListWant::All, None) => ALL_MOST as usize,
    };
    // When the list is to hold every tour counted, one more is looked for:
    // a walk that finds more than the count, or fewer, is caught.
    let whole = counted.filter(|&c| asked as u128 >= c);
    if whole == Some(0) {
        return Ok(Listed {
            tours: Vec::new(),
            stopped: None,
        });
    }
    let most = whole.map_or(asked, |c| c as usize + 1);
    let (tours, stopped) = if !task.constraints.on_steps() {
        first_tours(task.graph, &task.goal, most, limits)
    } else {
        clued::first_solutions(task, most, limits, progress)
    };
    for tour in &tours {
        verify(task.board, task.piece, &task.goal, tour)
            .and_then(|()| verify_constraints(task.board, task.goal.closed, task.constraints, tour))
            .map_err(ListError::Unverified)?;
    }
    if let Some(c) = whole
        && stopped.is_none()
        && tours.len() as u128 != c
    {
        return Err(ListError::Disagrees(c, tours.len()));
    }
    Ok(Listed { tours, stopped })
}
