//! The fixed palette: the colour index of everything drawn, and the RGB
//! table written into every GIF.

use super::Style;

/// Palette index never drawn: marks pixels unchanged since the last frame.
pub const TRANSPARENT: u8 = 0;
/// A light square.
pub const LIGHT: u8 = 1;
/// A dark square.
pub const DARK: u8 = 2;
/// A visited light square (squares style).
pub const TINT_LIGHT: u8 = 3;
/// A visited dark square (squares style).
pub const TINT_DARK: u8 = 4;
/// The fill of a removed square.
pub const REMOVED: u8 = 5;
/// The cross on a removed square.
pub const CROSS: u8 = 6;
/// The path (squares style).
pub const PATH: u8 = 7;
/// The dot at the centre of every visited square (squares style).
pub const VISITED: u8 = 8;
/// The ring around the piece's current square.
pub const MARKER: u8 = 9;
/// Step numbers.
pub const INK: u8 = 10;
/// The caption's background.
pub const CAPTION_BG: u8 = 11;
/// The caption's title.
pub const CAPTION_FG: u8 = 12;
/// The caption's second line.
pub const CAPTION_DIM: u8 = 13;
/// Illegal moves of a genetic individual; the ring of an abandoned square.
pub const RED: u8 = 14;
/// Legal moves of a genetic individual.
pub const GREEN: u8 = 15;
/// Dashes along an edge that wraps.
pub const WRAP: u8 = 16;
/// The closing move of a closed tour.
pub const CLOSING: u8 = 17;
/// The fill of a square the search just abandoned.
pub const FLASH: u8 = 18;
/// The caption's status line.
pub const STATUS: u8 = 19;
/// The part of a searched path that churns (the time-lapse; the settled
/// part is [`PATH`]).
pub const CHURN: u8 = 20;
/// Candidate squares of Warnsdorff's rule, and their onward counts.
pub const CANDIDATE: u8 = 21;
/// The depth strip's background.
pub const STRIP_BG: u8 = 22;
/// The depth strip: the part of the path settled.
pub const STRIP_LOW: u8 = 23;
/// The depth strip: how deep the path reached.
pub const STRIP_HIGH: u8 = 24;
/// Board labels (file letters, rank numbers).
pub const LABEL: u8 = 25;
/// Repaired genes of a genetic walk.
pub const REPAIRED: u8 = 26;
/// The fills of the impossibility proofs: colour classes and parts, six
/// colours from here.
pub const PART: u8 = 27;
/// How many [`PART`] colours there are.
pub const PARTS: u8 = 6;
/// The first colour of the gradient style's ramp; the ramp runs to 255.
pub const RAMP_START: u8 = 64;

const BASE_COLOURS: [[u8; 3]; 33] = [
    [0, 0, 0],       // transparent
    [238, 233, 218], // light square
    [197, 209, 184], // dark square
    [207, 224, 243], // visited light square
    [169, 196, 228], // visited dark square
    [58, 58, 68],    // removed
    [138, 138, 150], // cross on a removed square
    [47, 109, 181],  // path
    [23, 63, 115],   // visited dot
    [240, 140, 0],   // current square
    [30, 36, 48],    // step numbers
    [35, 38, 46],    // caption background
    [242, 242, 242], // caption title
    [168, 176, 191], // caption details
    [224, 49, 49],   // red: abandoned square, illegal moves
    [47, 158, 68],   // green: legal moves of a genetic individual
    [84, 104, 140],  // wrap hint
    [214, 51, 132],  // closing move
    [247, 198, 198], // abandoned square fill
    [255, 180, 84],  // caption status
    [156, 96, 206],  // churning part of the path
    [0, 150, 136],   // Warnsdorff candidates
    [50, 55, 66],    // depth strip background
    [47, 109, 181],  // depth strip: settled
    [156, 96, 206],  // depth strip: reached
    [110, 118, 134], // board labels
    [230, 119, 0],   // repaired genes
    [255, 205, 86],  // part / colour class 1
    [110, 160, 225], // part / colour class 2
    [140, 205, 140], // part 3
    [240, 140, 170], // part 4
    [180, 150, 230], // part 5
    [150, 215, 215], // part 6
];
/// Anchors of the path-only ramp, first move to last.
const RAMP_ANCHORS: [[u8; 3]; 4] = [[33, 102, 172], [94, 60, 153], [214, 54, 97], [240, 140, 0]];

/// The palette as RGB triples: 64 entries, or 256 for the gradient style
/// (which adds the ramp).
pub fn palette(style: Style) -> Vec<u8> {
    let len = match style {
        Style::Numbers | Style::Path => usize::from(RAMP_START),
        Style::Gradient => 256,
    };
    let mut p = vec![0u8; len * 3];
    for (i, c) in BASE_COLOURS.iter().enumerate() {
        p[i * 3..i * 3 + 3].copy_from_slice(c);
    }
    if style == Style::Gradient {
        let steps = 256 - usize::from(RAMP_START);
        for i in 0..steps {
            let t = i as f64 / (steps - 1) as f64 * (RAMP_ANCHORS.len() - 1) as f64;
            let a = (t.floor() as usize).min(RAMP_ANCHORS.len() - 2);
            let f = t - a as f64;
            let at = (usize::from(RAMP_START) + i) * 3;
            for ch in 0..3 {
                let (x, y) = (
                    f64::from(RAMP_ANCHORS[a][ch]),
                    f64::from(RAMP_ANCHORS[a + 1][ch]),
                );
                p[at + ch] = (x + (y - x) * f).round() as u8;
            }
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn palette_is_fixed() {
        assert_eq!(palette(Style::Numbers).len(), 64 * 3);
        assert_eq!(palette(Style::Gradient).len(), 256 * 3);
        assert!(usize::from(PART + PARTS) <= BASE_COLOURS.len());
    }
}
