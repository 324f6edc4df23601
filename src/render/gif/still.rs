//! The tour as a still PNG picture (`run --png OUT.png`): the tour GIF's
//! last frame, in the same palette.

use std::io::Write;

use super::painter::{Painter, Target};
use super::palette::palette;
use super::tour::tour_layout;
use super::{GifError, GifInfo, GifOptions, Scene, Style};
use crate::halt::{Halt, Stop};

/// Squares of the tour drawn between two looks at the halt.
const DRAWN_BETWEEN_LOOKS: usize = 1 << 16;

/// Writes `tour` in `scene` as a PNG: the whole tour (with a closed tour's
/// closing move) as the tour GIF's last frame draws it, at the same cell
/// and style. A long tour is drawn a part at a time, looking at `halt`
/// between the parts and before the image is encoded.
pub fn tour_png<W: Write>(
    out: W,
    scene: &Scene,
    tour: &[u32],
    opts: &GifOptions,
    halt: &impl Halt<Stop = Stop>,
) -> Result<GifInfo, GifError> {
    let lay = tour_layout(scene, opts);
    let mut painter = Painter::new(scene, lay.clone());
    let mut drawn = 0;
    while tour.len() - drawn > DRAWN_BETWEEN_LOOKS {
        halt.check().map_err(GifError::Stopped)?;
        drawn += DRAWN_BETWEEN_LOOKS;
        painter.show(&Target::plain(&tour[..drawn]));
    }
    halt.check().map_err(GifError::Stopped)?;
    painter.show(&Target {
        closing: scene.closed,
        head: lay.style != Style::Gradient,
        ..Target::plain(tour)
    });
    halt.check().map_err(GifError::Stopped)?;
    let mut enc = png::Encoder::new(out, lay.width, lay.height);
    enc.set_color(png::ColorType::Indexed);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_palette(palette(lay.style));
    enc.set_compression(png::Compression::Balanced);
    let mut w = enc.write_header().map_err(png_error)?;
    {
        // Encoded a band of rows at a time, looking at the halt between.
        let mut rows = w.stream_writer().map_err(png_error)?;
        let band = (lay.width as usize).max(1) * 64;
        for part in painter.out.chunks(band) {
            halt.check().map_err(GifError::Stopped)?;
            std::io::Write::write_all(&mut rows, part)?;
        }
        rows.finish().map_err(png_error)?;
    }
    w.finish().map_err(png_error)?;
    Ok(lay.info(1))
}

fn png_error(e: png::EncodingError) -> GifError {
    match e {
        png::EncodingError::IoError(e) => GifError::Io(e),
        other => GifError::Io(std::io::Error::other(other)),
    }
}
