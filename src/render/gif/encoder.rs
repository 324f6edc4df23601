//! Encoding: frames cut to what changed since the previous one, unchanged
//! pixels transparent, compressed and written on a second thread; and the
//! frame delays.

use crate::halt::{Halt, Stop};
use std::borrow::Cow;
use std::io::{self, Write};

use super::GifError;
use super::layout::{Layout, Rect};
use super::painter::Painter;
use super::palette::{TRANSPARENT, palette};

/// How long the last frame stays, in hundredths of a second.
pub(super) const FINAL_DELAY: u16 = 200;

/// Frames go to the compressing thread in batches of at most this many
/// pixels or [`BATCH_FRAMES`] frames.
pub(super) const BATCH_PIXELS: usize = 1 << 22;
/// The most frames in a batch (see [`BATCH_PIXELS`]).
pub(super) const BATCH_FRAMES: usize = 8;

type Batch = Vec<gif::Frame<'static>>;

/// Cuts frames: the first whole, the rest as the changed rectangle with
/// unchanged pixels transparent. Batches of frames go to a second thread
/// that compresses them (the frames of a batch in parallel, on rayon's
/// pool) and writes them, in order, while the next frames are drawn.
pub(super) struct Frames<'c> {
    tx: Option<std::sync::mpsc::SyncSender<Batch>>,
    batch: Batch,
    batch_pixels: usize,
    count: usize,
    halt: &'c dyn Halt<Stop = Stop>,
}

/// Runs `body` with a [`Frames`] whose frames are encoded into `w`, each
/// after a look at `halt`; returns the frame count.
pub(super) fn encode<W: Write + Send>(
    w: W,
    lay: &Layout,
    halt: &dyn Halt<Stop = Stop>,
    body: impl FnOnce(&mut Frames) -> Result<(), GifError>,
) -> Result<usize, GifError> {
    // A limit already out (a time limit of 0) draws nothing.
    halt.check().map_err(GifError::Stopped)?;
    let mut enc = gif::Encoder::new(w, lay.width as u16, lay.height as u16, &palette(lay.style))?;
    enc.set_repeat(gif::Repeat::Infinite)?;
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::sync_channel::<Batch>(2);
        let writer = scope.spawn(move || -> Result<W, GifError> {
            for mut batch in rx {
                // Frames compress independently: the batch's in parallel.
                use rayon::prelude::*;
                batch.par_iter_mut().for_each(|f| f.make_lzw_pre_encoded());
                for f in &batch {
                    enc.write_lzw_pre_encoded_frame(f)?;
                }
            }
            let mut w = enc.into_inner()?;
            w.flush()?;
            Ok(w)
        });
        let mut frames = Frames {
            tx: Some(tx),
            batch: Vec::new(),
            batch_pixels: 0,
            count: 0,
            halt,
        };
        let drawn = body(&mut frames).and_then(|()| frames.flush());
        // Closing the channel lets the writer finish.
        frames.tx = None;
        let written = writer
            .join()
            .unwrap_or_else(|_| Err(GifError::Io(io::Error::other("the GIF writer failed"))));
        match (drawn, written) {
            // A failed write closes the channel, so drawing fails too: the
            // writer's error is the real one.
            (_, Err(e)) => Err(e),
            (Err(e), Ok(_)) => Err(e),
            (Ok(()), Ok(_)) => Ok(frames.count),
        }
    })
}

impl Frames<'_> {
    pub(super) fn emit(&mut self, p: &Painter, changed: Rect, delay: u16) -> Result<(), GifError> {
        self.halt.check().map_err(GifError::Stopped)?;
        let w = p.lay.width as usize;
        let mut buf: Vec<u8> = Vec::new();
        let (tight, transparent) = if self.count == 0 {
            buf.extend_from_slice(&p.out);
            let whole = Rect::new(0, 0, i64::from(p.lay.width), i64::from(p.lay.height));
            (whole, None)
        } else {
            // Shrink to the pixels that really changed.
            let rw = (changed.x1 - changed.x0).max(0) as usize;
            let mut tight = Rect::EMPTY;
            if rw > 0 {
                for (j, y) in (changed.y0..changed.y1).enumerate() {
                    let old = &p.old[j * rw..(j + 1) * rw];
                    let a = y as usize * w + changed.x0 as usize;
                    let new = &p.out[a..a + rw];
                    if old == new {
                        continue;
                    }
                    let first = first_difference(old, new);
                    let last = last_difference(old, new);
                    let x0 = changed.x0 + first as i64;
                    tight = tight.union(Rect::new(x0, y, changed.x0 + last as i64 + 1, y + 1));
                }
            }
            if tight.is_empty() {
                // Nothing changed: a one-pixel transparent frame keeps the timing.
                buf.push(TRANSPARENT);
                (Rect::new(0, 0, 1, 1), Some(TRANSPARENT))
            } else {
                let tw = (tight.x1 - tight.x0) as usize;
                buf.reserve(tw * (tight.y1 - tight.y0) as usize);
                for y in tight.y0..tight.y1 {
                    let j = (y - changed.y0) as usize;
                    let o = j * rw + (tight.x0 - changed.x0) as usize;
                    let n = y as usize * w + tight.x0 as usize;
                    masked_row(&p.old[o..o + tw], &p.out[n..n + tw], &mut buf);
                }
                (tight, Some(TRANSPARENT))
            }
        };
        self.batch_pixels += buf.len();
        self.batch.push(gif::Frame {
            left: tight.x0 as u16,
            top: tight.y0 as u16,
            width: (tight.x1 - tight.x0) as u16,
            height: (tight.y1 - tight.y0) as u16,
            buffer: Cow::Owned(buf),
            delay,
            dispose: gif::DisposalMethod::Keep,
            transparent,
            ..gif::Frame::default()
        });
        self.count += 1;
        if self.batch.len() >= BATCH_FRAMES || self.batch_pixels >= BATCH_PIXELS {
            self.flush()?;
        }
        Ok(())
    }

    /// Hands the waiting frames to the writer.
    fn flush(&mut self) -> Result<(), GifError> {
        if self.batch.is_empty() {
            return Ok(());
        }
        let batch = std::mem::take(&mut self.batch);
        self.batch_pixels = 0;
        match &self.tx {
            Some(tx) if tx.send(batch).is_ok() => Ok(()),
            _ => Err(GifError::Io(io::Error::other("the GIF writer stopped"))),
        }
    }
}

/// The index of the first byte where `a` and `b` differ (their length if
/// none), comparing eight at a time.
fn first_difference(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + 8 <= n && a[i..i + 8] == b[i..i + 8] {
        i += 8;
    }
    while i < n && a[i] == b[i] {
        i += 1;
    }
    i
}

/// The index of the last byte where `a` and `b` differ (0 if none).
fn last_difference(a: &[u8], b: &[u8]) -> usize {
    let mut i = a.len().min(b.len());
    while i >= 8 && a[i - 8..i] == b[i - 8..i] {
        i -= 8;
    }
    while i > 0 && a[i - 1] == b[i - 1] {
        i -= 1;
    }
    i.saturating_sub(1)
}

/// Appends `new`, with the pixels equal to `old` made transparent (index 0),
/// eight at a time.
fn masked_row(old: &[u8], new: &[u8], out: &mut Vec<u8>) {
    const LOW: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let mut o = old.chunks_exact(8);
    let mut n = new.chunks_exact(8);
    for (a, b) in o.by_ref().zip(n.by_ref()) {
        let (a, b) = (
            u64::from_ne_bytes(a.try_into().unwrap_or([0; 8])),
            u64::from_ne_bytes(b.try_into().unwrap_or([0; 8])),
        );
        // The high bit of each byte of `d`: whether that byte differs.
        let x = a ^ b;
        let d = (((x & LOW) + LOW) | x) & !LOW;
        let mask = (d >> 7) * 0xff;
        out.extend_from_slice(&(b & mask).to_ne_bytes());
    }
    for (&a, &b) in o.remainder().iter().zip(n.remainder()) {
        out.push(if a == b { TRANSPARENT } else { b });
    }
}

pub(super) fn frame_delay(fps: u32) -> u16 {
    let fps = fps.clamp(1, 50);
    ((100 + fps / 2) / fps).max(2) as u16
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unchanged_pixels_become_transparent() {
        let old: Vec<u8> = (0..21).map(|i| (i * 7 % 13) as u8 + 1).collect();
        let mut new = old.clone();
        for i in [0, 3, 8, 9, 15, 20] {
            new[i] = 200 + i as u8;
        }
        let mut out = Vec::new();
        masked_row(&old, &new, &mut out);
        let want: Vec<u8> = old
            .iter()
            .zip(&new)
            .map(|(a, b)| if a == b { TRANSPARENT } else { *b })
            .collect();
        assert_eq!(out, want);
        assert_eq!(first_difference(&old, &new), 0);
        assert_eq!(first_difference(&old[1..], &new[1..]), 2);
        assert_eq!(last_difference(&old, &new), 20);
        assert_eq!(last_difference(&old[..20], &new[..20]), 15);
        assert_eq!(first_difference(&old, &old), 21);
    }
}
