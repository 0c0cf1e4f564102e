//! Complete line solving from a clue, bit-parallel: the algorithm of the clue
//! engine (`line_solver.rs`) in plain Rust, step for step as the gateware
//! computes it. It is the reference the gateware is tested against, and it is
//! tested here against brute force.
//!
//! # The idea
//!
//! A line of L cells with clue b₁…b_k. A cell *can be filled* unless it is
//! known empty; it *can be empty* unless it is known filled. One virtual cell
//! is appended at position L, always empty, so every block, the last one too,
//! is followed by at least one empty cell.
//!
//! * **Forward.** P_j is the set of positions where block j+1 may start: the
//!   first j blocks fit legally before it, and the cell before it is empty.
//!   P₀ is "every cell before me can be empty", and
//!   P_j = spread(P_{j−1} ∩ starts_j, shifted past the block), where
//!   starts_j holds the s whose cells s…s+b−1 can be filled and whose cell s+b
//!   can be empty, and spread extends a set rightwards through cells that can
//!   be empty. The line has a fill iff L+1 ∈ P_k.
//! * **Backward.** Q_j is the set of starts s of block j from which blocks
//!   j…k fit in the rest of the line: Q_j = starts_j ∩ (spread leftwards of
//!   Q_{j+1}, seen from s+b+1), with Q_{k+1} = {L+1}.
//! * **Cells.** Block j can start at s iff s ∈ P_{j−1} ∩ Q_j: it covers
//!   s…s+b−1, which can therefore be filled. Cell p can be empty iff some gap
//!   covers it: p+1 ∈ P_j and p+1 is in the leftward spread of Q_{j+1}.
//!
//! Every term is a whole legal fill, so the result is exact: the cells that
//! every fill agrees on, and no fill at all when the clue cannot hold.
//!
//! # Frames: no shifter in the loop
//!
//! Every position of P_j is at least o_j = Σ_{i≤j}(b_i + 1), so P_j is kept
//! shifted down by o_j (its "frame"). Shifting P_{j−1} ∩ starts_j past block j
//! (by b_j + 1) moves it from frame o_{j−1} to frame o_j: the same bits. So a
//! step is one AND and one spread (an addition on the carry chain), with masks
//! that depend only on the known cells and the clue, computed ahead:
//! A_j = starts_j >> o_{j−1} and B_j = can_be_empty >> o_j. Q_j lives in the
//! same frames. Only the cell results are shifted back, off the loop.

/// Longest line the clue engine takes.
pub const MAX_LENGTH: usize = 64;

/// Width of a position set: positions 0..=L+1 (the cells, the virtual empty
/// cell L, and the boundary after it).
pub const WIDTH: usize = MAX_LENGTH + 2;

/// A set of positions, bit p = position p.
pub type Set = u128;

const ALL: Set = (1 << WIDTH) - 1;

/// `set >> by`, empty when `by` is past the width (the gateware's shifter
/// gives 0 for any shift of WIDTH or more).
pub fn shift_down(set: Set, by: usize) -> Set {
    if by >= WIDTH {
        0
    } else {
        set >> by
    }
}

/// `set << by`, cut to the width.
pub fn shift_up(set: Set, by: usize) -> Set {
    if by >= WIDTH {
        0
    } else {
        (set << by) & ALL
    }
}

/// Extends every position of `from` rightwards through `through`: p is in
/// the result iff some n ∈ from has n ≤ p and every cell n…p−1 in `through`.
/// One addition: a carry entering a run of ones runs to its end.
pub fn spread_right(from: Set, through: Set) -> Set {
    ((through.wrapping_add(from & through) ^ through) | from) & ALL
}

/// The bit order reversed within the width (wiring in the gateware).
pub fn reverse(set: Set) -> Set {
    set.reverse_bits() >> (128 - WIDTH)
}

/// Extends every position of `from` leftwards: p is in the result iff some
/// q ∈ from has p ≤ q and every cell p…q−1 in `through`. The rightward
/// spread in reversed bit order; a cell is entered from above, so its mask
/// is read one position down.
pub fn spread_left(from: Set, through: Set) -> Set {
    reverse(spread_right(reverse(from), reverse(through) >> 1))
}

/// The largest power of two not above `b` (b ≥ 1), as its exponent.
fn log2_floor(b: usize) -> usize {
    (usize::BITS - 1 - b.leading_zeros()) as usize
}

/// Positions s with every cell s…s+b−1 in `cells` (b ≥ 1), as the gateware
/// computes it: a doubling ladder gives windows of 2^h cells (2^h ≤ b < 2^{h+1}),
/// and two of them, r = b − 2^h apart, overlap to cover exactly b cells.
pub fn windows(cells: Set, b: usize) -> Set {
    let h = log2_floor(b);
    let mut w = cells;
    for stage in 0..h {
        w &= shift_down(w, 1 << stage);
    }
    w & shift_down(w, b - (1 << h))
}

/// Every cell of a window of b cells starting at a position of `starts`: the
/// dilation that mirrors [`windows`].
pub fn cover(starts: Set, b: usize) -> Set {
    let h = log2_floor(b);
    let mut c = starts;
    for stage in 0..h {
        c |= shift_up(c, 1 << stage);
    }
    c | shift_up(c, b - (1 << h))
}

/// What a line solve found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineResult {
    /// Some fill agrees with the known cells and the clue.
    pub feasible: bool,
    /// Bit i: cell i is filled in some fill.
    pub can_fill: u64,
    /// Bit i: cell i is empty in some fill.
    pub can_empty: u64,
}

impl LineResult {
    /// The cells every fill agrees on.
    pub fn known(&self) -> u64 {
        self.can_fill ^ self.can_empty
    }

    /// Their values (1 = filled).
    pub fn value(&self) -> u64 {
        self.can_fill & !self.can_empty
    }
}

/// The masks of block j (1-based), from its length and the frames around it.
#[derive(Clone, Copy, Debug)]
pub struct BlockMasks {
    /// starts_j in frame o_{j−1}.
    pub a: Set,
    /// Cells that can be empty, in frame o_j.
    pub b: Set,
}

/// Cells that can be filled / emptied, as position sets with the virtual
/// empty cell L.
pub fn cell_sets(length: usize, known: u64, value: u64) -> (Set, Set) {
    assert!((1..=MAX_LENGTH).contains(&length));
    let line = if length == 64 { u64::MAX } else { (1 << length) - 1 };
    let fill = (!(known & !value) & line) as Set;
    let empty = (!(known & value) & line) as Set | 1 << length;
    (fill, empty)
}

/// A block's masks: `offset` is o_{j−1}.
pub fn block_masks(fill: Set, empty: Set, b: usize, offset: usize) -> BlockMasks {
    let starts = windows(fill, b) & shift_down(empty, b);
    BlockMasks {
        a: shift_down(starts, offset),
        b: shift_down(empty, offset + b + 1),
    }
}

/// Solves one line: `known`/`value` bit i is cell i. Blocks are ≥ 1.
pub fn solve_line(length: usize, blocks: &[usize], known: u64, value: u64) -> LineResult {
    assert!(blocks.iter().all(|&b| b >= 1));
    let (fill, empty) = cell_sets(length, known, value);
    let mut offsets = vec![0];
    for &b in blocks {
        offsets.push(offsets.last().unwrap() + b + 1);
    }
    let k = blocks.len();
    let masks: Vec<BlockMasks> = (0..k)
        .map(|j| block_masks(fill, empty, blocks[j], offsets[j]))
        .collect();

    // Forward: p[j] = P_j in frame o_j.
    let mut p = vec![spread_right(1, empty)];
    for m in &masks {
        let last = *p.last().unwrap();
        p.push(spread_right(last & m.a, m.b));
    }
    let end = (length + 1).checked_sub(offsets[k]);
    let feasible = end.is_some_and(|e| p[k] >> e & 1 == 1);

    // Backward, gathering the cells.
    let mut q = end.map_or(0, |e| 1 << e);
    let (mut can_fill, mut can_empty): (Set, Set) = (0, 0);
    for j in (0..k).rev() {
        // Block j+1 (0-based j): q is Q_{j+2} in frame o_{j+1}.
        let reach = spread_left(q, masks[j].b);
        can_empty |= shift_up(p[j + 1] & reach, offsets[j + 1]) >> 1;
        q = masks[j].a & reach;
        can_fill |= shift_up(cover(p[j] & q, blocks[j]), offsets[j]);
    }
    let reach = spread_left(q, empty);
    can_empty |= (p[0] & reach) >> 1;

    let line = if length == 64 { u64::MAX } else { (1 << length) - 1 };
    LineResult {
        feasible,
        can_fill: can_fill as u64 & line,
        can_empty: can_empty as u64 & line,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::LineOptions;

    /// The same by enumerating every fill.
    fn brute(length: usize, blocks: &[usize], known: u64, value: u64) -> LineResult {
        let mut r = LineResult {
            feasible: false,
            can_fill: 0,
            can_empty: 0,
        };
        let line = if length == 64 { u64::MAX } else { (1 << length) - 1 };
        for o in LineOptions::new(blocks, length) {
            if (o ^ value) & known == 0 {
                r.feasible = true;
                r.can_fill |= o;
                r.can_empty |= !o & line;
            }
        }
        r
    }

    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    fn random_case(rng: &mut Rng, max_length: u64) -> (usize, Vec<usize>, u64, u64) {
        let length = 1 + rng.below(max_length) as usize;
        // A clue from a random picture (mostly feasible), or a random one.
        let blocks: Vec<usize> = if rng.below(4) > 0 {
            let density = 20 + rng.below(70);
            let picture = (0..length).fold(0u64, |w, i| w | ((rng.below(100) < density) as u64) << i);
            crate::options::clue_of(picture, length)
        } else {
            (0..rng.below(5)).map(|_| 1 + rng.below(length as u64) as usize).collect()
        };
        let line = if length == 64 { u64::MAX } else { (1 << length) - 1 };
        let known_density = rng.below(60);
        let known = (0..length).fold(0u64, |w, i| w | ((rng.below(100) < known_density) as u64) << i) & line;
        let value = rng.next() & known;
        (length, blocks, known, value)
    }

    #[test]
    fn spreads_and_windows() {
        // Runs of ones at 2..=4 and 7..=7.
        let through: Set = 0b1001_1100;
        assert_eq!(spread_right(0b100, through), 0b11_1100);
        assert_eq!(spread_right(0b1_0000_0001, through), 0b1_0000_0001);
        assert_eq!(spread_left(0b10_0000, through), 0b11_1100);
        assert_eq!(windows(0b0111_1110, 3), 0b0001_1110);
        assert_eq!(cover(0b10, 3), 0b1110);
        for b in 1..=MAX_LENGTH {
            assert_eq!(windows(ALL, b), ALL >> (b - 1), "b = {b}");
            assert_eq!(cover(1, b), (1 << b) - 1, "b = {b}");
        }
    }

    #[test]
    fn empty_clue_and_full_line() {
        let r = solve_line(5, &[], 0, 0);
        assert_eq!((r.feasible, r.known(), r.value()), (true, 0b11111, 0));
        let r = solve_line(64, &[64], 0, 0);
        assert_eq!((r.feasible, r.known(), r.value()), (true, u64::MAX, u64::MAX));
        assert!(!solve_line(5, &[], 1, 1).feasible);
        assert!(!solve_line(4, &[2, 2], 0, 0).feasible);
        assert!(!solve_line(64, &[40, 40], 0, 0).feasible);
    }

    #[test]
    fn agrees_with_brute_force_on_random_lines() {
        let mut rng = Rng(0x5eed_1234_abcd_0001);
        let mut feasible = 0;
        for case in 0..30_000 {
            let (length, blocks, known, value) = random_case(&mut rng, if case % 3 == 0 { 64 } else { 16 });
            if crate::options::count(&blocks, length) > 100_000 {
                continue; // too many fills to enumerate
            }
            let expected = brute(length, &blocks, known, value);
            let got = solve_line(length, &blocks, known, value);
            assert_eq!(
                got, expected,
                "length {length} clue {blocks:?} known {known:#b} value {value:#b}"
            );
            feasible += expected.feasible as usize;
        }
        assert!(feasible > 10_000, "{feasible} feasible cases");
    }
}
