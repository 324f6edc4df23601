//! The text of `engine count`, from its one result ([`Count`]): what was
//! counted in words, the count or its lower bound (or the proof that there
//! is none, or what stopped it), the distinct cycles, a line on how the
//! method counted and why it was the one, and a shard's machine-readable
//! line.

use std::fmt::Write as _;

use super::format::duration;
use crate::count::list::ListWant;
use crate::count::merge::Merged;
use crate::count::{Count, FrontierWork, SearchWork, Shard, SubsetWork, SymmetricWork, Work};
use crate::halt::Stop;
use crate::model::{Board, Goal, TourSymmetry};
use crate::words::{big, counted, many, thousands};

/// The text of `engine count` after its title line.
pub fn count_text(board: &Board, goal: &Goal, count: &Count) -> String {
    let what = subject(board, goal, count, count.tours == 1);
    let Some(method) = &count.method else {
        return match (&count.proof, count.stopped) {
            (Some(proof), _) => proven(&what, proof, goal.closed, count),
            (None, Some(stop)) => {
                let mut out = format!(
                    "at least 0 {what}{} (a lower bound: {stop} before counting began)\n",
                    in_shard(count.shard)
                );
                out.push_str(&shard_line(count));
                out
            }
            // Every count that ends without a method is proven or stopped.
            (None, None) => format!("{} {what}\n", count.tours),
        };
    };
    match &method.work {
        Work::Dfs(search) => {
            let mut out = dfs(&what, count, search);
            if !method.asked && count.shard.is_none() {
                let _ = writeln!(out, "method: depth-first ({})", method.why);
            }
            out
        }
        Work::Frontier(f) => frontier(&what, count, f, &method.why),
        Work::Clues { search, .. } => clued(&what, count, search),
        Work::Symmetric(s) => symmetric(&what, count, s, &method.why),
        Work::Subset(s) => subset(&what, count, s, &method.why),
        Work::Magic { search, .. } => {
            let mut out = dfs(&what, count, search);
            if count.shard.is_none() {
                let _ = writeln!(out, "method: the magic search ({})", method.why);
            }
            out
        }
    }
}

/// The tours listed after a count's text (`want`: how many were asked;
/// `stopped`: what stopped the list before that many, if anything): a line
/// saying which they are, then one tour a line in the squares' names.
/// Nothing when there is no tour.
pub fn listed_text(
    board: &Board,
    tours: &[Vec<u32>],
    want: ListWant,
    count: &Count,
    stopped: Option<Stop>,
) -> String {
    if tours.is_empty() && stopped.is_none() {
        return String::new();
    }
    let k = tours.len() as u64;
    let head = match (stopped, want) {
        (Some(stop), ListWant::First(n)) => format!(
            "The first {} found ({} asked for; the list stopped: {stop})",
            many(k, "tour"),
            thousands(n as u64)
        ),
        (Some(stop), ListWant::All) => format!(
            "The first {} found (the list stopped: {stop})",
            many(k, "tour")
        ),
        (None, _) if u128::from(k) == count.tours && k == 1 => "The one tour".to_string(),
        (None, _) if u128::from(k) == count.tours => format!("All {}", many(k, "tour")),
        (None, _) => format!(
            "The first {} of {}",
            thousands(k),
            many_u128(count.tours, "tour")
        ),
    };
    let mut out = format!("{head}, each checked by the verifier:\n");
    for tour in tours {
        super::board::push_move_list(&mut out, board, tour);
        out.push('\n');
    }
    out
}

/// [`many`] for counts past 64 bits.
fn many_u128(n: u128, noun: &str) -> String {
    format!("{} {noun}{}", big(n), if n == 1 { "" } else { "s" })
}

/// The text of a subset count (`why`: the reason it was chosen): the
/// count, or what stopped it (its tours are all completed in the last
/// layer), a line on its sets, and the reason.
fn subset(what: &str, count: &Count, s: &SubsetWork, why: &str) -> String {
    let mut out = String::new();
    match count.stopped {
        None => {
            let _ = writeln!(out, "{} {what}", count.tours);
            if let Some(cycles) = count.cycles() {
                let _ = writeln!(
                    out,
                    "{} (each counted once, whatever its start and direction)",
                    distinct_cycles(cycles)
                );
            }
        }
        Some(stop) => {
            let _ = writeln!(
                out,
                "no count: {stop} after {} of {} layers (a subset count has no partial lower bound)",
                s.layers_done, s.squares
            );
        }
    }
    let _ = writeln!(
        out,
        "count: subset, {}by set visited and last square · {} in the sets · at most {} ({}) · {} {} · {}",
        if s.clues > 0 { "by steps, " } else { "" },
        counted(s.squares as u64, "square"),
        many(s.peak_counts, "count"),
        crate::budget::bytes(s.peak_bytes),
        s.threads,
        if s.threads == 1 { "thread" } else { "threads" },
        duration(s.elapsed)
    );
    let _ = writeln!(out, "method: subset ({why})");
    out
}

/// What a count counts, in words (`one`: the singular): `directed open
/// tours from a1`; for a puzzle with clues `directed open tours that fit
/// the 20 clues`; for one with a symmetry `directed closed tours that the
/// half-turn maps onto themselves, summed over all 36 start squares`.
pub fn subject(board: &Board, goal: &Goal, count: &Count, one: bool) -> String {
    match count.work() {
        Some(Work::Symmetric(s)) => symmetric_subject(board, goal, s.symmetry, one),
        Some(Work::Clues {
            clues,
            letters: true,
            ..
        }) => format!(
            "directed {} {} the text{}",
            if goal.closed { "closed" } else { "open" },
            if one {
                "tour that reads"
            } else {
                "tours that read"
            },
            match clues {
                0 => String::new(),
                1 => " and fit the clue".to_string(),
                c => format!(" and fit the {c} clues"),
            }
        ),
        Some(Work::Clues { clues, .. }) => clued_subject(goal.closed, *clues, one),
        Some(Work::Subset(s)) if s.clues > 0 => clued_subject(goal.closed, s.clues, one),
        Some(Work::Magic { magic, clues, .. }) => {
            let plain = if *clues > 0 {
                clued_subject(goal.closed, *clues, one)
            } else {
                count_subject(board, goal, one)
            };
            // `directed open tours…` as `directed semi-magic open tours…`.
            match plain.strip_prefix("directed ") {
                Some(rest) => format!("directed {} {rest}", magic.describe()),
                None => plain,
            }
        }
        _ => count_subject(board, goal, one),
    }
}

/// What `engine count` counts on a puzzle without clues or a symmetry, in
/// words: `directed open tours from a1` (`one`: the singular).
pub fn count_subject(board: &Board, goal: &Goal, one: bool) -> String {
    format!(
        "directed {} {}{}",
        if goal.closed { "closed" } else { "open" },
        if one { "tour" } else { "tours" },
        count_ends(board, goal)
    )
}

/// Where the counted tours start and end: ` from a1`, `, summed over all
/// 25 start squares`.
fn count_ends(board: &Board, goal: &Goal) -> String {
    match (goal.start, goal.end) {
        (Some(s), Some(e)) => format!(" from {} to {}", board.name(s), board.name(e)),
        (Some(s), None) => format!(" from {}", board.name(s)),
        (None, Some(e)) => format!(" to {}, summed over every start square", board.name(e)),
        (None, None) if board.len() == 1 => ", from its one square".to_string(),
        (None, None) => format!(", summed over all {} start squares", board.len()),
    }
}

/// What a count of symmetric tours counts: `directed closed tours that the
/// half-turn maps onto themselves, summed over all 36 start squares`
/// (`one`: the singular).
fn symmetric_subject(board: &Board, goal: &Goal, sym: TourSymmetry, one: bool) -> String {
    format!(
        "directed {} {} that {} maps onto {}{}",
        if goal.closed { "closed" } else { "open" },
        if one { "tour" } else { "tours" },
        sym.describe(),
        if one { "itself" } else { "themselves" },
        count_ends(board, goal)
    )
}

/// What a count with clues counts: `directed open tours that fit the 20
/// clues` (`one`: the singular).
fn clued_subject(closed: bool, clues: usize, one: bool) -> String {
    format!(
        "directed {} {} the {clues} {}",
        if closed { "closed" } else { "open" },
        if one {
            "tour that fits"
        } else {
            "tours that fit"
        },
        if clues == 1 { "clue" } else { "clues" }
    )
}

/// ` in shard K/N`, or nothing for a whole count.
fn in_shard(shard: Option<Shard>) -> String {
    shard.map_or(String::new(), |s| format!(" in shard {}/{}", s.k(), s.n()))
}

/// The text of a count that a proof settles at once.
fn proven(what: &str, proof: &str, closed: bool, count: &Count) -> String {
    let mut out = format!("0 {what} (no tour exists: {proof})\n");
    if closed {
        out.push_str("0 distinct cycles\n");
    }
    out.push_str(&shard_line(count));
    out
}

/// The text of a depth-first count: the count or its lower bound, the
/// distinct cycles, how the work was split, and a shard's line.
fn dfs(what: &str, count: &Count, search: &SearchWork) -> String {
    let mut out = String::new();
    let shard = count.shard;
    let in_shard = in_shard(shard);
    let listed = search.tasks;
    match count.stopped {
        None => {
            let _ = writeln!(out, "{} {what}{in_shard}", count.tours);
            match (count.cycles(), shard, count.cycles_x2) {
                (Some(_), Some(_), Some(x2)) => {
                    let _ = writeln!(
                        out,
                        "{x2} = this shard's part of twice the distinct cycles (add up cycles_x2 over the shards, then halve)"
                    );
                }
                (Some(c), _, _) => {
                    let _ = writeln!(
                        out,
                        "{} (each counted once, whatever its start and direction)",
                        distinct_cycles(c)
                    );
                }
                _ => {}
            }
        }
        Some(stop) => {
            let when = match listed {
                Some(tasks) => format!("after {} of {}", search.tasks_done, counted_tasks(tasks)),
                None => "before counting began".to_string(),
            };
            let _ = writeln!(
                out,
                "at least {} {what}{in_shard} (a lower bound: {stop} {when})",
                count.tours
            );
            if let Some(c) = count.cycles()
                && shard.is_none()
            {
                let _ = writeln!(out, "at least {}", distinct_cycles(c));
            }
        }
    }
    let plural = |n: usize, one: &str, many: &str| {
        if n == 1 {
            one.to_string()
        } else {
            many.to_string()
        }
    };
    let tasks = match listed {
        Some(tasks) => format!(
            " · {}{}",
            counted_tasks(tasks),
            if search.depth > 0 {
                format!(
                    " (prefixes of up to {})",
                    counted(search.depth as u64, "square")
                )
            } else {
                String::new()
            }
        ),
        None => String::new(),
    };
    let _ = writeln!(
        out,
        "count: {} {}{tasks} · {} {} · {} nodes · {}",
        search.symmetries,
        plural(search.symmetries, "symmetry", "symmetries"),
        search.threads,
        plural(search.threads, "thread", "threads"),
        search.stats.nodes,
        duration(search.stats.elapsed)
    );
    out.push_str(&shard_line(count));
    out
}

/// `N task(s)`.
fn counted_tasks(n: usize) -> String {
    counted(n as u64, "task")
}

/// The machine-readable line a shard ends with: `shard=K/N method=M
/// tours=T [cycles_x2=C] status=complete|partial`, then the depth-first
/// search's `tasks=D/T` (`0/?` when a stop came before they were listed)
/// or the frontier's `parts=D/U covered=…` (its pairs of ends and parts at
/// a cut square), then `puzzle=` (the fingerprint the shards of one count
/// share) and `check=` (the check figure, sixteen hexadecimal digits,
/// last so that a line cut short shows). Empty for a whole count.
pub fn shard_line(count: &Count) -> String {
    let Some(shard) = count.shard else {
        return String::new();
    };
    let mut out = format!("shard={}/{}", shard.k(), shard.n());
    if let Some(s) = &count.split {
        let _ = write!(out, " method={}", s.method);
    }
    let _ = write!(out, " tours={}", count.tours);
    if let Some(c) = count.cycles_x2 {
        let _ = write!(out, " cycles_x2={c}");
    }
    let _ = write!(
        out,
        " status={}",
        if count.complete() {
            "complete"
        } else {
            "partial"
        }
    );
    match (&count.split, count.work()) {
        (Some(s), _) if s.method == "frontier" => {
            let _ = write!(out, " parts={}/{}", s.done, s.units);
            if !s.covered.is_empty() {
                let _ = write!(out, " covered={}", s.covered.join(","));
            }
        }
        (_, Some(Work::Dfs(search))) => {
            let _ = write!(
                out,
                " tasks={}",
                search
                    .tasks
                    .map_or("0/?".to_string(), |t| format!("{}/{t}", search.tasks_done))
            );
        }
        (Some(s), _) => {
            let _ = write!(out, " tasks={}/{}", s.done, s.units);
        }
        (None, _) => out.push_str(" tasks=0/?"),
    }
    if let Some(s) = &count.split {
        let _ = write!(out, " puzzle={}", s.fingerprint);
    }
    if let Some(c) = count.check {
        let _ = write!(out, " check={c}");
    }
    out.push('\n');
    out
}

/// The text of a count with clues, after the clue search: the solutions
/// (each a directed tour numbered as the clues say), or a lower bound when
/// it stopped, and a line on the search.
fn clued(what: &str, count: &Count, search: &SearchWork) -> String {
    let mut out = match count.stopped {
        None => format!("{} {what}\n", count.tours),
        Some(stop) => format!("at least {} {what} (a lower bound: {stop})\n", count.tours),
    };
    let _ = writeln!(
        out,
        "count: the clue search · 1 thread · {} nodes · {}",
        search.stats.nodes,
        duration(search.stats.elapsed)
    );
    out
}

/// The text of a frontier count (`why`: the reason it was chosen): the
/// count, or what stopped it (a frontier count has no partial lower
/// bound), a line on the sweep, its states and time, and the reason.
fn frontier(what: &str, count: &Count, f: &FrontierWork, why: &str) -> String {
    let mut out = String::new();
    let in_shard = in_shard(count.shard);
    match (count.stopped, &count.split) {
        (None, _) => {
            let _ = writeln!(out, "{} {what}{in_shard}", count.tours);
            match (count.cycles(), count.shard, count.cycles_x2) {
                (Some(_), Some(_), Some(x2)) => {
                    let _ = writeln!(
                        out,
                        "{x2} = this shard's part of twice the distinct cycles (add up cycles_x2 over the shards, then halve)"
                    );
                }
                (Some(cycles), None, _) => {
                    let _ = writeln!(
                        out,
                        "{} (each counted once, whatever its start and direction)",
                        distinct_cycles(cycles)
                    );
                }
                _ => {}
            }
        }
        (Some(stop), Some(split)) => {
            let _ = writeln!(
                out,
                "at least {} {what}{in_shard} (a lower bound: {stop} after {} of {} parts, the last stopped after {} of {} squares)",
                count.tours, split.done, split.units, f.squares_done, f.squares
            );
        }
        (Some(stop), None) => {
            let _ = writeln!(
                out,
                "no count: {stop} after {} of {} squares (a frontier count has no partial lower bound)",
                f.squares_done, f.squares
            );
        }
    }
    if let Some(split) = &count.split {
        let _ = writeln!(
            out,
            "covered: {} ({})",
            counted(split.units as u64, "part"),
            split.covered.join(", ")
        );
    }
    let _ = writeln!(
        out,
        "count: frontier, {} · at most {} squares in the frontier · at most {} ({}{}) · {} {} · {}",
        f.sweep.describe(),
        f.width,
        many(f.peak_states, "state"),
        crate::budget::bytes(f.peak_bytes),
        if f.spilled > 0 {
            format!(
                " in memory, {} written to disk",
                crate::budget::bytes(f.spilled)
            )
        } else {
            String::new()
        },
        f.threads,
        if f.threads == 1 { "thread" } else { "threads" },
        duration(f.elapsed)
    );
    let _ = writeln!(out, "method: frontier ({why})");
    if let Some(at) = f.resumed_at {
        let _ = writeln!(
            out,
            "resumed: from its checkpoint after square {at} of {}",
            f.squares
        );
    }
    let shown = f.spilled > 0 || f.resumed_at.is_some();
    if let (Some(check), 0, true) = (count.check, count.shard.map_or(0, |s| s.n()), shown) {
        let _ = writeln!(
            out,
            "check: {check} (the states after every step and the count, fingerprinted: a second run reproduces it)"
        );
    }
    out.push_str(&shard_line(count));
    out
}

/// The text of a count on a puzzle with a symmetry: the tours it maps onto
/// themselves (or a lower bound, or the proof that there are none), the
/// distinct cycles of a closed goal, and a line on the search: how many
/// tours the symmetry turns and folds, the half-path searches — or, when
/// it moves no square, `why` every closed tour was counted.
fn symmetric(what: &str, count: &Count, s: &SymmetricWork, why: &str) -> String {
    let mut out = match (&count.proof, count.stopped) {
        (Some(proof), _) => format!("0 {what} (none exists: {proof})\n"),
        (None, Some(stop)) => format!("at least {} {what} (a lower bound: {stop})\n", count.tours),
        (None, None) => format!("{} {what}\n", count.tours),
    };
    if let Some(cycles) = count.cycles() {
        let _ = writeln!(
            out,
            "{}{} (each counted once, whatever its start and direction)",
            if count.stopped.is_some() {
                "at least "
            } else {
                ""
            },
            distinct_cycles(cycles)
        );
    }
    let how = match s.split {
        Some((t, f)) => format!(
            "the symmetric search · {t} {} it turns, {f} it folds · {} half-path {}",
            if t == 1 { "tour" } else { "tours" },
            s.searches,
            if s.searches == 1 {
                "search"
            } else {
                "searches"
            }
        ),
        None => why.to_string(),
    };
    let _ = writeln!(
        out,
        "count: {how} · {} nodes · {}",
        s.search.stats.nodes,
        duration(s.search.stats.elapsed)
    );
    out
}

/// `n` distinct cycles, in the singular when one.
fn distinct_cycles(n: u128) -> String {
    format!("{n} distinct {}", if n == 1 { "cycle" } else { "cycles" })
}

/// The text of `engine count --merge`: the shards added up — the total,
/// or a lower bound naming the shards missing or partial — and the line
/// to quote: `total tours=T [cycles=C] shards=N check=X`.
pub fn merged_text(m: &Merged) -> String {
    let mut out = String::new();
    let shards = counted(u64::from(m.n), "shard");
    if m.complete() {
        let _ = writeln!(
            out,
            "{} directed tours: {shards} counted by {}, all complete, of one puzzle ({})",
            m.tours, m.method, m.puzzle
        );
        if let Some(c) = m.cycles() {
            let _ = writeln!(out, "{}", distinct_cycles(c));
        }
    } else {
        let list = |v: &[u32]| v.iter().map(u32::to_string).collect::<Vec<_>>().join(", ");
        let mut why = Vec::new();
        if !m.missing.is_empty() {
            why.push(format!("no line of shard {} of {}", list(&m.missing), m.n));
        }
        if !m.partial.is_empty() {
            why.push(format!(
                "shard {} of {} partial: run {} again",
                list(&m.partial),
                m.n,
                if m.partial.len() == 1 { "it" } else { "them" }
            ));
        }
        let _ = writeln!(
            out,
            "at least {} directed tours (a lower bound: {})",
            m.tours,
            why.join("; ")
        );
    }
    if m.repeated > 0 {
        let _ = writeln!(
            out,
            "{} given twice, alike",
            counted(m.repeated as u64, "shard")
        );
    }
    let _ = writeln!(
        out,
        "total tours={}{} shards={} status={} check={}",
        m.tours,
        m.cycles().map_or(String::new(), |c| format!(" cycles={c}")),
        m.n,
        if m.complete() { "complete" } else { "partial" },
        m.check
    );
    out
}
