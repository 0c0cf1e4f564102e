//! One line: its cells as bits, and line logic on it.
//!
//! [`LineBits`] is a line's cells as a bit set (bit i = cell i). Lines up to
//! 64 cells use a `u64`, which keeps the census fast; longer lines use
//! [`WideLine`], a `bitvec` bit array. The search is written once for both
//! (`bits.rs`).
//!
//! Line logic fixes every cell on which all fills of the clue that agree with
//! the known cells agree. A line with few options filters its precomputed
//! options; any other line of up to 64 cells runs the clue engine's
//! automaton (`nonogram_hdl::clue::line_logic`: 2L steps on a bit set of
//! states, several times faster than a dynamic program over blocks and
//! cells); longer lines run the left/right dynamic program [`dp_line`].

use bitvec::prelude::*;
use nonogram_hdl::clue::line_logic::{Automaton, MAX_LENGTH};
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not};

/// A line's cells as bits.
pub trait LineBits:
    Copy
    + Eq
    + Default
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + std::hash::Hash
{
    /// Longest line the type holds.
    const CELLS: usize;
    /// Cells 0..n set.
    fn ones(n: usize) -> Self;
    /// The first 64 cells from a word.
    fn from_u64(word: u64) -> Self;
    /// The first 64 cells as a word.
    fn low_u64(&self) -> u64;
    fn get(&self, i: usize) -> bool;
    fn set(&mut self, i: usize);
    fn clear(&mut self, i: usize);
    /// The lowest set cell.
    fn first_one(&self) -> Option<usize>;
    fn count_ones(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.first_one().is_none()
    }
}

impl LineBits for u64 {
    const CELLS: usize = 64;
    #[inline]
    fn ones(n: usize) -> u64 {
        if n >= 64 {
            u64::MAX
        } else {
            (1u64 << n) - 1
        }
    }
    #[inline]
    fn from_u64(word: u64) -> u64 {
        word
    }
    #[inline]
    fn low_u64(&self) -> u64 {
        *self
    }
    #[inline]
    fn get(&self, i: usize) -> bool {
        *self >> i & 1 == 1
    }
    #[inline]
    fn set(&mut self, i: usize) {
        *self |= 1 << i;
    }
    #[inline]
    fn clear(&mut self, i: usize) {
        *self &= !(1 << i);
    }
    #[inline]
    fn first_one(&self) -> Option<usize> {
        (*self != 0).then(|| self.trailing_zeros() as usize)
    }
    #[inline]
    fn count_ones(&self) -> usize {
        u64::count_ones(*self) as usize
    }
    #[inline]
    fn is_empty(&self) -> bool {
        *self == 0
    }
}

/// Lines longer than 64 cells, up to [`WIDE_CELLS`].
pub type WideLine = BitArray<[u64; 16], Lsb0>;

/// Longest line the host solves.
pub const WIDE_CELLS: usize = 16 * 64;

impl LineBits for WideLine {
    const CELLS: usize = WIDE_CELLS;
    fn ones(n: usize) -> Self {
        let mut a = WideLine::ZERO;
        a[..n.min(WIDE_CELLS)].fill(true);
        a
    }
    fn from_u64(word: u64) -> Self {
        let mut a = WideLine::ZERO;
        a.as_raw_mut_slice()[0] = word;
        a
    }
    fn low_u64(&self) -> u64 {
        self.as_raw_slice()[0]
    }
    fn get(&self, i: usize) -> bool {
        self[i]
    }
    fn set(&mut self, i: usize) {
        BitSlice::set(self, i, true);
    }
    fn clear(&mut self, i: usize) {
        BitSlice::set(self, i, false);
    }
    fn first_one(&self) -> Option<usize> {
        BitSlice::first_one(self)
    }
    fn count_ones(&self) -> usize {
        BitSlice::count_ones(self)
    }
}

/// A line is solved by filtering its options when it has at most this many.
const OPTION_LIMIT: u64 = 512;

/// How a compiled clue is solved.
#[derive(Clone, Debug)]
enum Method<L> {
    /// Filter these options.
    Options(Vec<L>),
    /// Run the clue's automaton (lines of up to 64 cells with many options).
    Automaton(Automaton),
    /// The dynamic program (longer lines).
    Dp,
}

/// A compiled clue: its blocks, the line length, and how it is solved.
#[derive(Clone, Debug)]
pub struct LineKind<L> {
    blocks: Vec<usize>,
    length: usize,
    method: Method<L>,
}

impl<L: LineBits> LineKind<L> {
    pub fn new(clue: &[usize], length: usize) -> LineKind<L> {
        let blocks: Vec<usize> = clue.iter().copied().filter(|&b| b > 0).collect();
        let options = || {
            nonogram_hdl::dnf::options::LineOptions::new(&blocks, length)
                .map(L::from_u64)
                .collect()
        };
        let method = if length > MAX_LENGTH {
            Method::Dp
        } else if nonogram_hdl::dnf::options::count(&blocks, length) <= OPTION_LIMIT {
            Method::Options(options())
        } else {
            // A clue with that many options fits its line, so it has an
            // automaton; a clue that does not fit has none and no options.
            Automaton::new(&blocks, length).map_or_else(|| Method::Options(options()), Method::Automaton)
        };
        LineKind {
            blocks,
            length,
            method,
        }
    }

    /// The clue's blocks (no zeros).
    pub fn blocks(&self) -> &[usize] {
        &self.blocks
    }

    /// Cells that must be filled and cells that must be empty, given the
    /// known cells; `None` if no fill of the clue agrees with them.
    #[inline]
    pub fn solve(&self, known: L, value: L, scratch: &mut DpScratch) -> Option<(L, L)> {
        let full = L::ones(self.length);
        match &self.method {
            Method::Options(options) => {
                let (mut and, mut or, mut any) = (!L::default(), L::default(), false);
                for &o in options {
                    if ((o ^ value) & known).is_empty() {
                        and &= o;
                        or |= o;
                        any = true;
                    }
                }
                any.then_some((and & full, !or & full))
            }
            Method::Automaton(automaton) => {
                let r = automaton.solve(self.length, known.low_u64(), value.low_u64());
                r.feasible().then(|| {
                    let full = full.low_u64();
                    (L::from_u64(!r.can_empty & full), L::from_u64(!r.can_fill & full))
                })
            }
            Method::Dp => {
                let (can_fill, can_empty) = dp_line(&self.blocks, self.length, known, value, scratch)?;
                Some((!can_empty & full, !can_fill & full))
            }
        }
    }
}

/// Buffers for [`dp_line`], kept between calls so that it allocates nothing
/// once they have grown.
#[derive(Clone, Debug, Default)]
pub struct DpScratch {
    filled: Vec<bool>,
    /// empty_before[p]: known-empty cells in [0, p).
    empty_before: Vec<usize>,
    /// Row j of `f` and `g`, positions 0..=n.
    f: Vec<bool>,
    g: Vec<bool>,
    /// Difference array of the cells some placement fills.
    cover: Vec<i32>,
}

/// Line logic by dynamic programming: which cells can be filled and which
/// can be empty in some placement of `blocks` in `n` cells that agrees with
/// the known cells; `None` if there is no such placement. O(k·n).
///
/// `f[j][p]`: cells [0, p) can hold blocks 0..j, each followed by a gap (or
/// the line's end). `g[j][p]`: cells [p, n) can hold blocks j..k. A cell can
/// be empty if it lies between blocks j-1 and j in some placement, and can be
/// filled if some block j covers it with both sides feasible.
pub fn dp_line<L: LineBits>(
    blocks: &[usize],
    n: usize,
    known: L,
    value: L,
    s: &mut DpScratch,
) -> Option<(L, L)> {
    let k = blocks.len();
    if blocks.iter().sum::<usize>() + k.saturating_sub(1) > n {
        return None;
    }
    let w = n + 1;
    s.filled.clear();
    s.filled.extend((0..n).map(|p| known.get(p) && value.get(p)));
    s.empty_before.clear();
    s.empty_before.push(0);
    for p in 0..n {
        let empty = known.get(p) && !value.get(p);
        s.empty_before.push(s.empty_before[p] + empty as usize);
    }
    for v in [&mut s.f, &mut s.g] {
        v.clear();
        v.resize((k + 1) * w, false);
    }
    let DpScratch {
        filled,
        empty_before,
        f,
        g,
        cover,
    } = s;
    let fits = |p: usize, b: usize| empty_before[p + b] == empty_before[p];
    // Block j at p..p+b, then a gap or the end: whether the rest (`after`) is feasible.
    let then_gap = |p: usize, b: usize, after: &[bool], j: usize| {
        if p + b == n {
            after[j * w + n]
        } else {
            !filled[p + b] && after[j * w + p + b + 1]
        }
    };
    f[0] = true;
    for j in 0..=k {
        for p in 0..n {
            if f[j * w + p] && !filled[p] {
                f[j * w + p + 1] = true;
            }
        }
        if j < k {
            let b = blocks[j];
            for p in 0..=n - b {
                if f[j * w + p] && fits(p, b) {
                    if p + b == n {
                        f[(j + 1) * w + n] = true;
                    } else if !filled[p + b] {
                        f[(j + 1) * w + p + b + 1] = true;
                    }
                }
            }
        }
    }
    if !f[k * w + n] {
        return None;
    }
    g[k * w + n] = true;
    for p in (0..n).rev() {
        g[k * w + p] = !filled[p] && g[k * w + p + 1];
    }
    for j in (0..k).rev() {
        let b = blocks[j];
        for p in (0..=n).rev() {
            let skip = p < n && !filled[p] && g[j * w + p + 1];
            let place = p + b <= n && fits(p, b) && then_gap(p, b, g, j + 1);
            g[j * w + p] = skip || place;
        }
    }
    let (mut can_fill, mut can_empty) = (L::default(), L::default());
    cover.clear();
    cover.resize(n + 1, 0);
    for j in 0..=k {
        for p in 0..n {
            if f[j * w + p] && g[j * w + p + 1] && !filled[p] {
                can_empty.set(p);
            }
        }
        if j < k {
            let b = blocks[j];
            for p in 0..=n - b {
                if f[j * w + p] && fits(p, b) && then_gap(p, b, g, j + 1) {
                    cover[p] += 1;
                    cover[p + b] -= 1;
                    if p + b < n {
                        can_empty.set(p + b);
                    }
                }
            }
        }
    }
    let mut depth = 0;
    for (p, c) in cover.iter().enumerate().take(n) {
        depth += c;
        if depth > 0 {
            can_fill.set(p);
        }
    }
    Some((can_fill, can_empty))
}

#[cfg(test)]
mod tests {
    use super::*;
    use nonogram_hdl::dnf::options::{clue_of, LineOptions};

    fn rng(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    /// The DP, on both line types, agrees with option filtering on random
    /// lines and known cells.
    #[test]
    fn dp_matches_option_filtering() {
        let mut seed = 0x1234_5678_9abc_def1u64;
        let mut scratch = DpScratch::default();
        for _ in 0..20_000 {
            let n = (rng(&mut seed) % 20 + 1) as usize;
            let picture = rng(&mut seed) & u64::ones(n);
            let clue = clue_of(picture, n);
            let known = rng(&mut seed) & rng(&mut seed) & u64::ones(n);
            // Half the time, values consistent with the picture; else random.
            let value = if rng(&mut seed).is_multiple_of(2) {
                picture
            } else {
                rng(&mut seed)
            } & known;
            let (mut and, mut or, mut any) = (u64::MAX, 0, false);
            for o in LineOptions::new(&clue, n) {
                if (o ^ value) & known == 0 {
                    and &= o;
                    or |= o;
                    any = true;
                }
            }
            let want = any.then_some((or & u64::ones(n), !and & u64::ones(n)));
            let got = dp_line(&clue, n, known, value, &mut scratch);
            assert_eq!(got, want, "{clue:?} n={n} known={known:b} value={value:b}");
            let wide = dp_line(
                &clue,
                n,
                WideLine::from_u64(known),
                WideLine::from_u64(value),
                &mut scratch,
            );
            assert_eq!(
                wide,
                want.map(|(f, e)| (WideLine::from_u64(f), WideLine::from_u64(e))),
                "wide {clue:?}"
            );
        }
    }

    /// Every way a compiled clue is solved (options, the automaton) agrees
    /// with the dynamic program, on both line types: long lines with many
    /// options, where the automaton runs, and short ones.
    #[test]
    fn compiled_clues_agree_with_the_dp() {
        let mut seed = 0x0bad_cafe_f00d_1234u64;
        let mut scratch = DpScratch::default();
        let mut automaton_runs = 0;
        for _ in 0..5_000 {
            let n = (rng(&mut seed) % 64 + 1) as usize;
            let picture = rng(&mut seed) & u64::ones(n);
            // Now and then a clue that cannot fit, or none at all.
            let clue = match rng(&mut seed) % 20 {
                0 => vec![n / 2 + 1, n / 2 + 1],
                1 => vec![],
                _ => clue_of(picture, n),
            };
            let known = rng(&mut seed) & rng(&mut seed) & rng(&mut seed) & u64::ones(n);
            let value = if rng(&mut seed).is_multiple_of(2) {
                picture
            } else {
                rng(&mut seed)
            } & known;
            let want = dp_line(&clue, n, known, value, &mut scratch)
                .map(|(fill, empty)| (!empty & u64::ones(n), !fill & u64::ones(n)));
            let kind = LineKind::<u64>::new(&clue, n);
            automaton_runs += matches!(kind.method, Method::Automaton(_)) as usize;
            assert_eq!(kind.solve(known, value, &mut scratch), want, "{clue:?} n={n}");
            let wide = LineKind::<WideLine>::new(&clue, n);
            assert_eq!(
                wide.solve(WideLine::from_u64(known), WideLine::from_u64(value), &mut scratch),
                want.map(|(f, e)| (WideLine::from_u64(f), WideLine::from_u64(e))),
                "wide {clue:?} n={n}"
            );
        }
        assert!(automaton_runs > 1_000, "{automaton_runs}");
    }

    #[test]
    fn dp_on_long_lines() {
        let mut s = DpScratch::default();
        assert_eq!(dp_line(&[64], 64, 0u64, 0, &mut s), Some((u64::MAX, 0)));
        assert_eq!(dp_line(&[], 64, 0u64, 0, &mut s), Some((0, u64::MAX)));
        assert_eq!(dp_line(&[65], 64, 0u64, 0, &mut s), None);
        assert_eq!(dp_line(&[1; 33], 64, 0u64, 0, &mut s), None);
        // 99 cells, one block of 60: cells 39..60 are filled in every placement.
        let (fill, empty) = dp_line(&[60], 99, WideLine::ZERO, WideLine::ZERO, &mut s).unwrap();
        let must_fill = !empty & WideLine::ones(99);
        assert_eq!(
            must_fill.iter_ones().collect::<Vec<_>>(),
            (39..60).collect::<Vec<_>>()
        );
        assert_eq!(fill, WideLine::ones(99));
    }
}
