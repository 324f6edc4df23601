//! The tour as a still PNG picture (`run --png OUT.png`): the tour GIF's
//! last frame, in the same palette.

use std::io::Write;

use super::painter::{Painter, Target};
use super::palette::palette;
use super::tour::tour_layout;
use super::{GifError, GifInfo, GifOptions, Scene, Style};

/// Writes `tour` in `scene` as a PNG: the whole tour (with a closed tour's
/// closing move) as the tour GIF's last frame draws it, at the same cell
/// and style.
pub fn tour_png<W: Write>(
    out: W,
    scene: &Scene,
    tour: &[u32],
    opts: &GifOptions,
) -> Result<GifInfo, GifError> {
    let lay = tour_layout(scene, opts);
    let mut painter = Painter::new(scene, lay.clone());
    painter.show(&Target {
        closing: scene.closed,
        head: lay.style != Style::Gradient,
        ..Target::plain(tour)
    });
    let mut enc = png::Encoder::new(out, lay.width, lay.height);
    enc.set_color(png::ColorType::Indexed);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_palette(palette(lay.style));
    enc.set_compression(png::Compression::Balanced);
    let mut w = enc.write_header().map_err(png_error)?;
    w.write_image_data(&painter.out).map_err(png_error)?;
    w.finish().map_err(png_error)?;
    Ok(lay.info(1))
}

fn png_error(e: png::EncodingError) -> GifError {
    match e {
        png::EncodingError::IoError(e) => GifError::Io(e),
        other => GifError::Io(std::io::Error::other(other)),
    }
}
