//! Start squares of an open tour with a free start and end: which ones are
//! proved, square by square, to begin no tour, and the order in which the
//! complete search tries the rest.
//!
//! The rules (each a proof that no tour starts on the square):
//! - **Colours.** When every move changes colour, a tour alternates colours;
//!   with one colour a square ahead of the other, it starts and ends on that
//!   colour.
//! - **One move.** When every move can be made back, a square with only one
//!   move is an end of every tour (its one neighbour is next to it on the
//!   tour, and nothing else is). With two such squares, the tour runs from
//!   one to the other.
//! - **No way in.** A square no move reaches is the first square of every
//!   tour.
//! - **Parts.** The squares after the first are one path, so without the
//!   start they are still joined: a square whose removal splits the others
//!   (a cut square) starts no tour.
//! - **Reach.** With one-way moves, the start must reach every square.
//!
//! Every rule is kept by the board's symmetries, so the squares it rules out
//! are whole orbits.

use crate::halt::{self, Halt};
use crate::model::MoveGraph;
use crate::model::Symmetries;
use crate::model::graph::walks;

/// Why no tour starts on a square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum StartRule {
    /// It is on the colour with fewer squares.
    Colours,
    /// Two squares have one move each; every tour runs between them.
    OneMove,
    /// A square no move reaches must be first.
    NoEntry,
    /// Without it the other squares fall apart.
    Parts,
    /// It cannot reach every square.
    Reach,
}

impl StartRule {
    /// A short name, for the stats line and JSON.
    pub fn name(self) -> &'static str {
        match self {
            StartRule::Colours => "colours",
            StartRule::OneMove => "one move",
            StartRule::NoEntry => "no way in",
            StartRule::Parts => "parts",
            StartRule::Reach => "reach",
        }
    }

    /// Why, for people.
    pub fn reason(self) -> &'static str {
        match self {
            StartRule::Colours => {
                "every move changes colour and the other colour has one square more, so a tour starts and ends on it"
            }
            StartRule::OneMove => {
                "two squares have only one move, so every tour runs from one to the other"
            }
            StartRule::NoEntry => "no move reaches some other square, so every tour starts there",
            StartRule::Parts => {
                "without it the other squares fall apart, but after the start a tour is one path through them"
            }
            StartRule::Reach => "it cannot reach every square",
        }
    }
}

/// The start squares of an open tour from any square to any square.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StartPlan {
    /// Squares to search from, in the order to try them: fewest moves
    /// first (the most constrained squares, which are often a tour's
    /// ends), then board order; one square of each orbit under the
    /// board's symmetries.
    pub order: Vec<u32>,
    /// Squares proved to start no tour, in board order, with the rule.
    pub ruled_out: Vec<(u32, StartRule)>,
    /// Squares not searched because a symmetry maps them onto a square
    /// that is: a tour from one is the image of a tour from the other.
    pub images: usize,
}

/// Applies the rules to every square of `g` (`rev` is `g` reversed; `group`
/// the symmetries to use, [`Symmetries::none`] for none), under `halt`.
pub fn plan<H: Halt>(
    g: &MoveGraph,
    rev: &MoveGraph,
    group: &Symmetries,
    halt: &H,
) -> Result<StartPlan, H::Stop> {
    let n = g.len();
    let mut rule: Vec<Option<StartRule>> = vec![None; n];
    let all = |r: StartRule, rule: &mut Vec<Option<StartRule>>| {
        for x in rule.iter_mut() {
            x.get_or_insert(r);
        }
    };
    if n >= 2 {
        let (parts, colour) = walks::parts_and_colours(g, halt)?;
        if parts > 1 {
            all(StartRule::Parts, &mut rule);
        }
        if let (Some(colour), 1) = (&colour, parts) {
            let zeros = colour.iter().filter(|&&c| c == 0).count();
            let (a, b) = (zeros, n - zeros);
            if a.abs_diff(b) > 1 {
                all(StartRule::Colours, &mut rule);
            } else if a != b {
                let fewer = u8::from(b < a);
                for (s, &c) in colour.iter().enumerate() {
                    if c == fewer {
                        rule[s].get_or_insert(StartRule::Colours);
                    }
                }
            }
        }
        if g.is_symmetric() {
            let ones: Vec<u32> = (0..n as u32).filter(|&s| g.degree(s) == 1).collect();
            if n >= 3 && ones.len() > 2 {
                all(StartRule::OneMove, &mut rule);
            } else if n >= 3 && ones.len() == 2 {
                for (s, r) in rule.iter_mut().enumerate() {
                    if !ones.contains(&(s as u32)) {
                        r.get_or_insert(StartRule::OneMove);
                    }
                }
            }
            if n >= 3 && parts == 1 {
                for s in cut_squares(g, halt)? {
                    rule[s as usize].get_or_insert(StartRule::Parts);
                }
            }
        } else {
            let no_in: Vec<u32> = (0..n as u32).filter(|&s| rev.degree(s) == 0).collect();
            if no_in.len() > 1 {
                all(StartRule::NoEntry, &mut rule);
            } else if let [x] = no_in[..] {
                for (s, r) in rule.iter_mut().enumerate() {
                    if s as u32 != x {
                        r.get_or_insert(StartRule::NoEntry);
                    }
                }
            }
            let reach = reaching_all(g, rev, halt)?;
            for (s, r) in rule.iter_mut().enumerate() {
                if !reach[s] {
                    r.get_or_insert(StartRule::Reach);
                }
            }
        }
    }
    let mut p = StartPlan::default();
    for (s, r) in rule.iter().enumerate() {
        halt::poll(halt, s)?;
        let s = s as u32;
        match r {
            Some(r) => p.ruled_out.push((s, *r)),
            None if group.len() > 1 && group.canonical_weight(&[s]).is_none() => p.images += 1,
            None => p.order.push(s),
        }
    }
    // Fewest moves first, then board order (the sort is stable).
    p.order.sort_by_key(|&s| g.degree(s));
    Ok(p)
}

/// The squares whose removal splits the others of a connected graph whose
/// moves can all be made back (Tarjan's low links, without recursion).
fn cut_squares<H: Halt>(g: &MoveGraph, halt: &H) -> Result<Vec<u32>, H::Stop> {
    let n = g.len();
    const NONE: u32 = u32::MAX;
    let mut disc = vec![0u32; n];
    let mut low = vec![0u32; n];
    let mut parent = vec![NONE; n];
    let mut cut = vec![false; n];
    let mut time = 0u32;
    // (square, index of its next target)
    let mut stack: Vec<(u32, usize)> = vec![(0, 0)];
    time += 1;
    disc[0] = time;
    low[0] = time;
    let mut root_children = 0;
    // Moves looked at: most lead to squares already seen, so the clock is
    // looked at by them, not by squares (on 16 million squares the search
    // spends seconds going back down its stack).
    let mut steps = 0usize;
    while let Some(&mut (v, ref mut i)) = stack.last_mut() {
        steps += 1;
        halt::poll(halt, steps)?;
        let targets = g.targets(v);
        if *i < targets.len() {
            let t = targets[*i];
            *i += 1;
            if disc[t as usize] == 0 {
                time += 1;
                disc[t as usize] = time;
                low[t as usize] = time;
                parent[t as usize] = v;
                if v == 0 {
                    root_children += 1;
                }
                stack.push((t, 0));
            } else if t != parent[v as usize] {
                low[v as usize] = low[v as usize].min(disc[t as usize]);
            }
        } else {
            stack.pop();
            let p = parent[v as usize];
            if p != NONE {
                low[p as usize] = low[p as usize].min(low[v as usize]);
                if p != 0 && low[v as usize] >= disc[p as usize] {
                    cut[p as usize] = true;
                }
            }
        }
    }
    cut[0] = root_children > 1;
    Ok((0..n as u32).filter(|&s| cut[s as usize]).collect())
}

/// Which squares reach every square (`rev` is `g` reversed). The square a
/// depth-first search of the whole graph finishes last lies in a part with
/// no way in from outside (Kosaraju); if it reaches everything, the squares
/// that reach it are exactly those that reach everything, and otherwise no
/// square does.
fn reaching_all<H: Halt>(g: &MoveGraph, rev: &MoveGraph, halt: &H) -> Result<Vec<bool>, H::Stop> {
    let n = g.len();
    let mut seen = vec![false; n];
    let mut last = 0u32;
    let mut stack: Vec<(u32, usize)> = Vec::new();
    let mut steps = 0usize;
    for root in 0..n as u32 {
        if seen[root as usize] {
            continue;
        }
        seen[root as usize] = true;
        stack.push((root, 0));
        while let Some(&mut (v, ref mut i)) = stack.last_mut() {
            steps += 1;
            halt::poll(halt, steps)?;
            let targets = g.targets(v);
            if *i < targets.len() {
                let t = targets[*i];
                *i += 1;
                if !seen[t as usize] {
                    seen[t as usize] = true;
                    stack.push((t, 0));
                }
            } else {
                last = v;
                stack.pop();
            }
        }
    }
    let from = |graph: &MoveGraph| -> Result<Vec<bool>, H::Stop> {
        let mut seen = vec![false; n];
        let mut queue = vec![last];
        seen[last as usize] = true;
        let mut steps = 0usize;
        while let Some(v) = queue.pop() {
            steps += 1;
            halt::poll(halt, steps)?;
            for &t in graph.targets(v) {
                if !seen[t as usize] {
                    seen[t as usize] = true;
                    queue.push(t);
                }
            }
        }
        Ok(seen)
    };
    if n == 0 || !from(g)?.iter().all(|&x| x) {
        return Ok(vec![false; n]);
    }
    from(rev)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::halt::Never;
    use crate::model::{Board, Move, Piece};

    fn plan_of(board: &Board, piece: &Piece) -> StartPlan {
        let Ok(g) = MoveGraph::build(board, piece, &Never);
        let rev = g.reversed();
        let Ok(p) = plan(&g, &rev, &Symmetries::none(g.len()), &Never);
        p
    }

    #[test]
    fn colours_rule_out_the_smaller_colour() {
        // 5x5 knight: 13 squares of a1's colour, 12 of b1's.
        let p = plan_of(&Board::rectangle(5, 5), &Piece::leaper(1, 2, 1));
        assert_eq!(p.ruled_out.len(), 12);
        assert!(
            p.ruled_out
                .iter()
                .all(|&(s, r)| r == StartRule::Colours && s % 2 == 1)
        );
        // The corners (two moves) come first.
        assert_eq!(&p.order[..4], &[0, 4, 20, 24]);
    }

    #[test]
    fn two_squares_with_one_move_are_the_only_starts() {
        // A wazir on a 1x4 strip: a1 and d1 have one move each.
        let p = plan_of(&Board::rectangle(4, 1), &Piece::leaper(0, 1, 1));
        assert_eq!(p.order, vec![0, 3]);
        assert_eq!(
            p.ruled_out,
            vec![(1, StartRule::OneMove), (2, StartRule::OneMove)]
        );
    }

    #[test]
    fn cut_squares_start_no_tour() {
        // A king on a bow tie: two 2x2 blocks joined at c2 (one square).
        let b = Board::new(5, 3, crate::model::Topology::Plain, |c| {
            !(c.x == 2 && c.y != 1)
        });
        let p = plan_of(&b, &Piece::leaper(0, 1, 1).union(&Piece::leaper(1, 1, 1)));
        let c2 = b.square_at(crate::model::Cell::new(2, 1)).unwrap_or(0);
        assert_eq!(p.ruled_out, vec![(c2, StartRule::Parts)]);
    }

    #[test]
    fn one_way_moves_need_a_start_that_reaches_everything() {
        // Right, and up from the last file only: only a1 reaches every square.
        let piece = Piece::new([Move::leap(1, 0)]);
        let b = Board::rectangle(3, 1);
        let p = plan_of(&b, &piece);
        assert_eq!(p.order, vec![0]);
        // b1 is on the colour with fewer squares; c1 is not a1, which no move reaches.
        assert_eq!(
            p.ruled_out,
            vec![(1, StartRule::Colours), (2, StartRule::NoEntry)]
        );
        // Without colours: a1 to c1 by (1,0) and (2,0); c1 and b1 reach nothing behind them.
        let p = plan_of(
            &Board::rectangle(3, 1),
            &Piece::new([Move::leap(1, 0), Move::leap(2, 0)]),
        );
        assert_eq!(p.order, vec![0]);
        assert_eq!(
            p.ruled_out,
            vec![(1, StartRule::NoEntry), (2, StartRule::NoEntry)]
        );
        // Reach alone: on a 2x2 cylinder, right (a1 ⇄ b1, a2 ⇄ b2) and up:
        // every square has a way in, but the top rank never gets back down.
        let b = Board::new(2, 2, crate::model::Topology::Cylinder, |_| true);
        let p = plan_of(&b, &Piece::new([Move::leap(1, 0), Move::leap(0, 1)]));
        assert_eq!(p.order, vec![0, 1]);
        assert_eq!(
            p.ruled_out,
            vec![(2, StartRule::Reach), (3, StartRule::Reach)]
        );
        let p = plan_of(
            &Board::rectangle(3, 1),
            &Piece::new([Move::leap(1, 0), Move::leap(-2, 0)]),
        );
        // a1→b1→c1→a1: every square reaches every other.
        assert_eq!(p.order.len(), 3);
    }
}
