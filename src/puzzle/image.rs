//! A board drawn as a picture file: `board: "shape.png"` (PNG, GIF, BMP or
//! JPEG) names an image, one pixel a square, read with the `image` crate.
//! A pixel is a square of the board unless it is transparent (alpha below
//! 128 of 255) or dark (luminance `0.299 R + 0.587 G + 0.114 B` below 128
//! of 255): black, dark colours and holes in the alpha are removed squares.
//! The top row of pixels is the board's top rank. A relative path is read
//! from the puzzle file's folder (from the working folder for a board
//! given on the command line or a puzzle on standard input).

use std::path::{Path, PathBuf};

use super::lang::LangError;
use crate::error::{ErrorKind, Span};
use crate::model::{Board, MAX_SIDE, Topology};

/// Alpha (of 255) below which a pixel is transparent: no square.
pub const ALPHA_BELOW: u8 = 128;

/// Luminance (of 255) below which a pixel is dark: no square.
pub const DARK_BELOW: u32 = 128;

/// The endings of the picture files a board may name, in lower case.
const ENDINGS: [&str; 5] = [".png", ".gif", ".bmp", ".jpg", ".jpeg"];

/// Whether the board text `text` names a picture file: one word ending in
/// one of the picture endings (in any case).
pub fn names_picture(text: &str) -> bool {
    let t = text.trim();
    let lower = t.to_ascii_lowercase();
    !t.is_empty() && !t.contains(['\n', '#']) && ENDINGS.iter().any(|e| lower.ends_with(e))
}

/// The board `text` states: a picture file it names (read from `folder`
/// when relative), else the board expression or picture. Errors point at
/// the name, from `base`.
pub fn board(text: &str, base: usize, folder: Option<&Path>) -> Result<Board, LangError> {
    if !names_picture(text) {
        return super::lang::parse_board(text, base);
    }
    let name = text.trim();
    let from = base + text.find(name).unwrap_or(0);
    let span = Span::new(from, from + name.len());
    let path = match folder {
        Some(f) if Path::new(name).is_relative() => f.join(name),
        _ => PathBuf::from(name),
    };
    read(&path, name, span)
}

/// Reads the picture at `path` (named `name`, written at `span`) as a board.
fn read(path: &Path, name: &str, span: Span) -> Result<Board, LangError> {
    let fail = |kind, why: String| LangError::new(kind, span, why);
    let cannot = |why: String| {
        fail(
            ErrorKind::Io,
            format!("cannot read the board picture {name}: {why}"),
        )
    };
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    let mut reader = image::ImageReader::open(path)
        .map_err(|e| cannot(plain(&e.to_string())))?
        .with_guessed_format()
        .map_err(|e| cannot(plain(&e.to_string())))?;
    reader.limits(limits);
    let picture = reader.decode().map_err(|e| match e {
        image::ImageError::Limits(_) => fail(
            ErrorKind::TooBig,
            format!(
                "the board picture {name} is larger than a board may be: a side has at most {MAX_SIDE} pixels (one a square)"
            ),
        ),
        e => cannot(e.to_string()),
    })?;
    let rgba = picture.to_rgba8();
    let (w, h) = rgba.dimensions();
    let board = Board::new(w, h, Topology::Plain, |c| {
        let p = rgba.get_pixel(c.x, h - 1 - c.y).0;
        let luminance =
            (299 * u32::from(p[0]) + 587 * u32::from(p[1]) + 114 * u32::from(p[2])) / 1000;
        p[3] >= ALPHA_BELOW && luminance >= DARK_BELOW
    });
    if board.is_empty() {
        return Err(fail(
            ErrorKind::BadValue,
            format!(
                "the board picture {name} ({w}x{h}) has no light pixel: every square is removed"
            ),
        ));
    }
    Ok(board)
}

/// An I/O error's words without the OS error number.
fn plain(reason: &str) -> String {
    match reason.rfind(" (os error ") {
        Some(i) => reason[..i].to_string(),
        None => reason.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Cell;

    #[test]
    fn a_picture_name_is_one_word_with_an_ending() {
        assert!(names_picture("shape.png") && names_picture(" a/B.JPEG "));
        assert!(!names_picture("8x8") && !names_picture("..#\n.png"));
    }

    #[test]
    fn dark_and_transparent_pixels_are_removed() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("b.png");
        // 3x2: top row white, red, black; bottom row clear, grey 127, grey 128.
        let mut img = image::RgbaImage::new(3, 2);
        img.put_pixel(0, 0, image::Rgba([255, 255, 255, 255]));
        img.put_pixel(1, 0, image::Rgba([255, 0, 0, 255]));
        img.put_pixel(2, 0, image::Rgba([0, 0, 0, 255]));
        img.put_pixel(0, 1, image::Rgba([255, 255, 255, 0]));
        img.put_pixel(1, 1, image::Rgba([127, 127, 127, 255]));
        img.put_pixel(2, 1, image::Rgba([128, 128, 128, 255]));
        img.save(&path).unwrap_or_else(|e| panic!("{e}"));
        let b = board("b.png", 0, Some(dir.path())).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!((b.width(), b.height()), (3, 2));
        let on: Vec<bool> = [(0, 1), (1, 1), (2, 1), (0, 0), (1, 0), (2, 0)]
            .iter()
            .map(|&(x, y)| b.is_square(Cell::new(x, y)))
            .collect();
        // Red's luminance is 76: dark.
        assert_eq!(on, [true, false, false, false, false, true]);
        let e = board(" none.png", 10, Some(dir.path())).err();
        assert_eq!(
            e.as_ref().map(|e| (e.kind, e.span)),
            Some((ErrorKind::Io, Span::new(11, 19)))
        );
    }
}
