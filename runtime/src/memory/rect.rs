//! Geometry of the `*BufferRect` commands: pitches, offsets, bounds and the overlap test.

use crate::cl::*;
use crate::error::CLResult;

/// One side (buffer or host) of a rectangular copy, with its pitches resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RectSide {
    pub origin: [usize; 3],
    pub row_pitch: usize,
    pub slice_pitch: usize,
}

impl RectSide {
    /// Applies the defaults and checks of the specification: a row pitch of 0 means
    /// `region[0]`, otherwise it must be at least `region[0]`; a slice pitch of 0 means
    /// `region[1] * row_pitch`, otherwise it must be at least that and a multiple of the row
    /// pitch.
    pub fn new(
        origin: [usize; 3],
        region: [usize; 3],
        row_pitch: usize,
        slice_pitch: usize,
    ) -> CLResult<Self> {
        if region.contains(&0) {
            return Err(CL_INVALID_VALUE);
        }
        let rp = if row_pitch == 0 {
            region[0]
        } else if row_pitch < region[0] {
            return Err(CL_INVALID_VALUE);
        } else {
            row_pitch
        };
        let min_sp = region[1].checked_mul(rp).ok_or(CL_INVALID_VALUE)?;
        let sp = if slice_pitch == 0 {
            min_sp
        } else if slice_pitch < min_sp || slice_pitch % rp != 0 {
            return Err(CL_INVALID_VALUE);
        } else {
            slice_pitch
        };
        Ok(RectSide {
            origin,
            row_pitch: rp,
            slice_pitch: sp,
        })
    }

    /// Byte offset of element (x, y, z) relative to the origin.
    pub fn offset_of(&self, x: usize, y: usize, z: usize) -> Option<usize> {
        let ox = self.origin[0].checked_add(x)?;
        let oy = self.origin[1].checked_add(y)?;
        let oz = self.origin[2].checked_add(z)?;
        oz.checked_mul(self.slice_pitch)?
            .checked_add(oy.checked_mul(self.row_pitch)?)?
            .checked_add(ox)
    }

    /// Byte offset of the first byte.
    pub fn start(&self) -> Option<usize> {
        self.offset_of(0, 0, 0)
    }

    /// One past the last byte touched for `region`.
    pub fn end(&self, region: [usize; 3]) -> Option<usize> {
        self.offset_of(region[0] - 1, region[1] - 1, region[2] - 1)?
            .checked_add(1)
    }

    /// Checks that the rectangle lies inside `size` bytes.
    pub fn check_bounds(&self, region: [usize; 3], size: usize) -> CLResult<()> {
        match self.end(region) {
            Some(end) if end <= size => Ok(()),
            _ => Err(CL_INVALID_VALUE),
        }
    }

    /// Calls `f(offset, len)` for each row of the rectangle.
    pub fn for_each_row(&self, region: [usize; 3], mut f: impl FnMut(usize, usize)) {
        for z in 0..region[2] {
            for y in 0..region[1] {
                // In bounds: checked by `check_bounds` before any command runs.
                let off = self.offset_of(0, y, z).unwrap_or(0);
                f(off, region[0]);
            }
        }
    }
}

/// Whether two rectangles in the same memory overlap. `src_base`/`dst_base` are the byte
/// offsets of the two buffers within their common allocation. Exact when the pitches are the
/// same (the algorithm of the OpenCL specification's appendix), conservative otherwise.
pub fn rects_overlap(
    src: &RectSide,
    src_base: usize,
    dst: &RectSide,
    dst_base: usize,
    region: [usize; 3],
) -> bool {
    let (Some(ss), Some(se), Some(ds), Some(de)) =
        (src.start(), src.end(region), dst.start(), dst.end(region))
    else {
        return true;
    };
    let (ss, se, ds, de) = (ss + src_base, se + src_base, ds + dst_base, de + dst_base);
    if de <= ss || se <= ds {
        return false;
    }
    if src.row_pitch != dst.row_pitch || src.slice_pitch != dst.slice_pitch {
        return true;
    }
    let rp = src.row_pitch;
    let sp = src.slice_pitch;
    let slice_size = (region[1] - 1) * rp + region[0];
    let src_dx = ss % rp;
    let dst_dx = ds % rp;
    if (dst_dx >= src_dx + region[0] && dst_dx + region[0] <= src_dx + rp)
        || (src_dx >= dst_dx + region[0] && src_dx + region[0] <= dst_dx + rp)
    {
        return false;
    }
    let src_dy = ss % sp;
    let dst_dy = ds % sp;
    if (dst_dy >= src_dy + slice_size && dst_dy + slice_size <= src_dy + sp)
        || (src_dy >= dst_dy + slice_size && src_dy + slice_size <= dst_dy + sp)
    {
        return false;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pitches_default_and_validate() {
        let r = RectSide::new([0; 3], [4, 3, 2], 0, 0).unwrap();
        assert_eq!((r.row_pitch, r.slice_pitch), (4, 12));
        assert_eq!(
            RectSide::new([0; 3], [4, 3, 2], 3, 0),
            Err(CL_INVALID_VALUE)
        );
        assert_eq!(
            RectSide::new([0; 3], [4, 3, 2], 8, 20),
            Err(CL_INVALID_VALUE)
        );
        assert_eq!(
            RectSide::new([0; 3], [4, 3, 2], 8, 28),
            Err(CL_INVALID_VALUE)
        );
        assert!(RectSide::new([0; 3], [4, 3, 2], 8, 32).is_ok());
        assert_eq!(
            RectSide::new([0; 3], [0, 3, 2], 8, 32),
            Err(CL_INVALID_VALUE)
        );
    }

    #[test]
    fn bounds_and_rows() {
        let r = RectSide::new([1, 2, 1], [2, 2, 2], 4, 16).unwrap();
        // last byte: z=2, y=3, x=2 -> 32 + 12 + 2 = 46
        assert_eq!(r.end([2, 2, 2]), Some(47));
        assert!(r.check_bounds([2, 2, 2], 47).is_ok());
        assert_eq!(r.check_bounds([2, 2, 2], 46), Err(CL_INVALID_VALUE));
        let mut rows = vec![];
        r.for_each_row([2, 2, 2], |o, n| rows.push((o, n)));
        assert_eq!(rows, vec![(25, 2), (29, 2), (41, 2), (45, 2)]);
    }

    #[test]
    fn overlap_matches_brute_force() {
        // Compare with a byte-set brute force over many small configurations.
        let region = [2, 2, 1];
        for so in 0..12usize {
            for dof in 0..12usize {
                let s = RectSide::new([so % 3, so / 3, 0], region, 4, 16).unwrap();
                let d = RectSide::new([dof % 3, dof / 3, 0], region, 4, 16).unwrap();
                let mut a = [false; 64];
                s.for_each_row(region, |o, n| (o..o + n).for_each(|i| a[i] = true));
                let mut hit = false;
                d.for_each_row(region, |o, n| hit |= (o..o + n).any(|i| a[i]));
                assert_eq!(rects_overlap(&s, 0, &d, 0, region), hit, "so={so} do={dof}");
            }
        }
    }

    #[test]
    fn overlap_is_exact_in_3d_for_equal_pitches() {
        // Random 3-D rectangles of one buffer (the conformance suite's bufferreadwriterect
        // copies inside a buffer): the answer matches a byte-set brute force.
        let mut seed = 12345u64;
        let mut rnd = |n: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) as usize) % n
        };
        for _ in 0..4000 {
            let (w, h, d) = (1 + rnd(9), 1 + rnd(6), 1 + rnd(5));
            let region = [1 + rnd(w), 1 + rnd(h), 1 + rnd(d)];
            let so = [
                rnd(w - region[0] + 1),
                rnd(h - region[1] + 1),
                rnd(d - region[2] + 1),
            ];
            let dof = [
                rnd(w - region[0] + 1),
                rnd(h - region[1] + 1),
                rnd(d - region[2] + 1),
            ];
            let s = RectSide::new(so, region, w, w * h).unwrap();
            let t = RectSide::new(dof, region, w, w * h).unwrap();
            let mut a = vec![false; w * h * d];
            s.for_each_row(region, |o, n| (o..o + n).for_each(|i| a[i] = true));
            let mut hit = false;
            t.for_each_row(region, |o, n| hit |= (o..o + n).any(|i| a[i]));
            assert_eq!(
                rects_overlap(&s, 0, &t, 0, region),
                hit,
                "{w}x{h}x{d} region {region:?} src {so:?} dst {dof:?}"
            );
        }
    }

    /// The conformance suite's newer `bufferreadwriterect` passes pitches of 0 (meaning
    /// `region[0]` and `region[1] * row_pitch`), so origins lie beyond a row or a slice and
    /// rows wrap into the next ones. The test stays exact there (same pitches on both sides).
    #[test]
    fn overlap_is_exact_with_zero_pitches_and_wrapping_origins() {
        let mut seed = 99u64;
        let mut rnd = |n: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) as usize) % n
        };
        let (mut overlapping, mut apart) = (0, 0);
        for _ in 0..100_000 {
            let region = [1 + rnd(6), 1 + rnd(5), 1 + rnd(4)];
            let rp = if rnd(2) == 0 { 0 } else { region[0] + rnd(4) };
            let erp = if rp == 0 { region[0] } else { rp };
            let sp = if rnd(2) == 0 {
                0
            } else {
                erp * (region[1] + rnd(3))
            };
            let so = [rnd(30), rnd(20), rnd(6)];
            let dof = [rnd(30), rnd(20), rnd(6)];
            let s = RectSide::new(so, region, rp, sp).unwrap();
            let t = RectSide::new(dof, region, rp, sp).unwrap();
            let n = t.end(region).unwrap().max(s.end(region).unwrap());
            let mut a = vec![false; n];
            s.for_each_row(region, |o, k| (o..o + k).for_each(|i| a[i] = true));
            let mut hit = false;
            t.for_each_row(region, |o, k| hit |= (o..o + k).any(|i| a[i]));
            if hit {
                overlapping += 1;
            } else {
                apart += 1;
            }
            assert_eq!(
                rects_overlap(&s, 0, &t, 0, region),
                hit,
                "region {region:?} pitches {rp}/{sp} src {so:?} dst {dof:?}"
            );
        }
        // Both answers were exercised many times.
        assert!(
            overlapping > 10_000 && apart > 10_000,
            "{overlapping} {apart}"
        );
    }

    /// The two same-buffer copies reported upstream for the suite's zero-pitch version (row
    /// pitch 438 and slice pitch 0 in KhronosGroup/OpenCL-CTS#2765, whose boxes share bytes;
    /// row pitch 0 and slice pitch 7620 in pocl/pocl#2326, whose boxes do not), checked against
    /// the bytes.
    #[test]
    fn the_two_upstream_zero_pitch_copies() {
        let cases = [
            ([14, 69, 100], [176, 181, 171], [224, 5, 226], 438, 0, true),
            ([11, 277, 388], [187, 87, 50], [6, 97, 845], 0, 7620, false),
        ];
        for (so, dof, region, rp, sp, want) in cases {
            let s = RectSide::new(so, region, rp, sp).unwrap();
            let t = RectSide::new(dof, region, rp, sp).unwrap();
            let n = t.end(region).unwrap().max(s.end(region).unwrap());
            let mut a = vec![false; n];
            s.for_each_row(region, |o, k| {
                a[o..o + k].iter_mut().for_each(|b| *b = true)
            });
            let mut shared = 0usize;
            t.for_each_row(region, |o, k| {
                shared += a[o..o + k].iter().filter(|b| **b).count()
            });
            assert_eq!(shared > 0, want, "{so:?} -> {dof:?}: {shared} shared bytes");
            assert_eq!(
                rects_overlap(&s, 0, &t, 0, region),
                want,
                "{so:?} -> {dof:?}"
            );
        }
    }
}
