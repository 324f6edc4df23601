//! The text of `engine check`: the board (lettered by parts when the move
//! graph falls apart), the piece and a diagram of its moves, the counts of
//! squares and moves, the parts and classes, the theorems that apply, and
//! the proof that no tour exists or the lack of one.

use std::fmt::Write as _;

use super::board::{GridChoice, grid, grid_with};
use crate::analysis::Analysis;
use crate::model::{Board, Piece, file_name};
use crate::words::counted;

/// The letter of part `i` in `engine check`'s grid: A–Z, then a–z, then `*`.
pub fn part_letter(i: u32) -> char {
    match i {
        0..26 => (b'A' + i as u8) as char,
        26..52 => (b'a' + (i - 26) as u8) as char,
        _ => '*',
    }
}

/// The text of `engine check`: the board (each square lettered by its part
/// when the move graph falls apart; `parts` gives each square's part), the
/// piece and its moves, the square and move counts, what the parts and the
/// two classes of squares are, the theorems that apply, and the proof that
/// no tour exists or the lack of one.
pub fn check_report(
    title: &str,
    board: &Board,
    piece_text: &str,
    piece: &Piece,
    a: &Analysis,
    parts: Option<&[u32]>,
    shown: GridChoice<'_>,
) -> String {
    let mut out = String::new();
    out.push_str(title);
    out.push_str("\n\n");
    if shown.shows(board) {
        match parts.filter(|_| a.components > 1) {
            Some(label) => {
                out.push_str(&grid_with(board, file_name(board.width() - 1).len(), |s| {
                    part_letter(label[s as usize]).to_string()
                }))
            }
            None => out.push_str(&grid(board, &[])),
        }
    } else {
        out.push_str(&shown.left_out("board"));
    }
    let _ = write!(
        out,
        "\nPiece: {piece_text}\nMoves: {piece}\n\n{}",
        move_diagram(piece)
    );
    let _ = writeln!(
        out,
        "\nSquares: {} ({} removed)\nMoves on this board: {}{}",
        a.squares,
        board.removed_count(),
        a.moves,
        if a.symmetric {
            ""
        } else {
            " (some cannot be made back)"
        }
    );
    let hist: Vec<String> = a
        .degree_histogram
        .iter()
        .enumerate()
        .filter(|(_, c)| **c > 0)
        .map(|(d, c)| format!("{d}: {c}"))
        .collect();
    let _ = writeln!(out, "Degrees (moves: squares): {}", hist.join(", "));
    let stuck = a.degree_histogram.first().copied().unwrap_or(0);
    if stuck > 0 {
        let mut names: Vec<String> = a.no_moves.iter().map(|&s| board.name(s)).collect();
        if stuck > names.len() {
            names.push(format!("and {} more", stuck - names.len()));
        }
        let _ = writeln!(out, "Squares with no moves: {}", names.join(", "));
    }
    if a.components > 1 {
        let lettered = if parts.is_some() && shown.shows(board) {
            ", lettered in the grid"
        } else {
            ""
        };
        let _ = writeln!(out, "Connected parts: {}{lettered}", a.components);
        for (i, p) in a.parts.iter().enumerate() {
            let _ = writeln!(
                out,
                "  {}  {}, from {}",
                part_letter(i as u32),
                counted(p.size as u64, "square"),
                board.name(p.first)
            );
        }
        if a.components > a.parts.len() {
            let _ = writeln!(out, "  … and {} more", a.components - a.parts.len());
        }
    } else {
        let _ = writeln!(out, "Connected parts: 1");
    }
    if a.colour_bound {
        let _ = writeln!(
            out,
            "The piece ({piece_text}) is colour-bound: every move keeps the colour of its square, so it never reaches the other colour."
        );
    }
    if let (Some(k), Some((x, y))) = (a.classes, a.bipartite) {
        let mut moves = k.moves().to_string();
        if let Some(first) = moves.get_mut(0..1) {
            first.make_ascii_uppercase();
        }
        let _ = writeln!(out, "{moves}: {x} {} and {y} {}", k.plural(0), k.plural(1));
    }
    for note in &a.notes {
        let mut note = note.clone();
        if let Some(first) = note.get_mut(0..1) {
            first.make_ascii_uppercase();
        }
        let _ = writeln!(out, "{note}.");
    }
    match &a.impossible {
        Some(proof) => {
            let _ = writeln!(out, "\nNo tour exists: {proof}.");
        }
        None => {
            out.push_str("\nNo quick proof that a tour is impossible; `engine run` searches.\n")
        }
    }
    out
}

/// A small diagram of the piece's moves: `@` the piece, `1`…`9`, `a`… the
/// leaps in move order, `*` further squares of a ride.
pub fn move_diagram(piece: &Piece) -> String {
    const LABELS: &[u8] = b"123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let reach = |m: &crate::model::Move| -> i64 {
        let step = i64::from(m.dx.abs().max(m.dy.abs()));
        step * i64::from(m.range.min(2))
    };
    let r = piece.moves().iter().map(reach).max().unwrap_or(1).min(8);
    let side = (2 * r + 1) as usize;
    let mut cells = vec![vec!['.'; side]; side];
    cells[r as usize][r as usize] = '@';
    for (i, m) in piece.moves().iter().enumerate() {
        for k in 1..=i64::from(m.range.min(8)) {
            let (x, y) = (i64::from(m.dx) * k, i64::from(m.dy) * k);
            if x.abs() > r || y.abs() > r {
                break;
            }
            let (cx, cy) = ((x + r) as usize, (r - y) as usize);
            if cells[cy][cx] == '.' {
                cells[cy][cx] = if k == 1 {
                    LABELS.get(i).map_or('o', |&b| b as char)
                } else {
                    '*'
                };
            }
        }
    }
    let mut out = String::new();
    for row in cells {
        let line: Vec<String> = row.iter().map(char::to_string).collect();
        out.push_str(&line.join(" "));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn diagram_of_a_knight() {
        let d = move_diagram(&Piece::leaper(1, 2, 1));
        assert_eq!(d, ". 8 . 1 .\n7 . . . 2\n. . @ . .\n6 . . . 3\n. 5 . 4 .\n");
    }
}
