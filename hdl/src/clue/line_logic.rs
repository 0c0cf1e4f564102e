//! Complete line solving from a clue: the clue engine's algorithm
//! (`line_solver.rs`) in plain Rust, step for step as the gateware computes
//! it. It is the reference the gateware is tested against, and it is tested
//! here against brute force.
//!
//! # The automaton
//!
//! A clue b₁…b_k is a regular language over the line's cells: empties, b₁
//! fills, at least one empty, b₂ fills, … , empties. Its automaton has one
//! state per "where we are" in that pattern, laid out in a row:
//!
//! ```text
//! g0 | 1.1 … 1.b1 | g1 | 2.1 … 2.b2 | g2 | … | gk
//! ```
//!
//! where g_j is "in the gap after block j" (g0: before block 1) and j.t is
//! "the t-th cell of block j was just filled". A fill moves every state one
//! place right, except a block's last cell (it must be followed by an empty)
//! and g_k (no block follows). An empty keeps a gap state where it is and
//! moves a block's last cell into the gap after it. So one cell is one step
//! on a bit vector of states (at most L + 2 ≤ 66 of them): two ANDs, a
//! one-place shift and an OR. No variable shifter, no adder.
//!
//! * **Forward**: F_p is the set of states reachable after cells 0..p−1 that
//!   agree with the known cells (F_0 = {g0}).
//! * **Backward**: B_p is the set of states from which cells p..L−1 can be
//!   finished to an accepting state (B_L = {g_k, k.b_k}), with two parts:
//!   the states that leave by a fill and those that leave by an empty.
//! * **Cells**: cell p can be filled iff F_p meets the fill part of B_p, and
//!   be empty iff F_p meets its empty part. Each such meeting is a whole legal
//!   fill, so the result is exact: a complete line solver. No fill at all
//!   leaves both empty.
//!
//! This costs L steps forwards and L backwards per line (plus one per block to
//! lay the automaton out), where a block-parallel dynamic program needs about
//! 2k; but a step is a few LUT levels on a 66-bit row, so the block is small
//! and fast. A block-parallel design was built and measured first: the
//! figures are in the README's "Why an automaton" section.

/// Longest line the clue engine takes.
pub const MAX_LENGTH: usize = 64;

/// States of the automaton: at most Σb + k + 1 ≤ L + 2.
pub const STATES: usize = MAX_LENGTH + 2;

/// A set of automaton states, bit i = the i-th state of the row.
pub type States = u128;

const ALL: States = (1 << STATES) - 1;

/// The automaton of one clue, as masks over the row of states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Automaton {
    /// Gap states g_0..g_k.
    pub gaps: States,
    /// Each block's last cell.
    pub block_ends: States,
    /// States a fill moves on from (every state but block ends and g_k).
    pub fill_from: States,
    /// Accepting states: g_k and block k's last cell.
    pub accept: States,
}

impl Automaton {
    /// Lays out the automaton of a clue (blocks ≥ 1), one block at a time as
    /// the gateware does. `None` when the clue needs more than `length` cells.
    pub fn new(blocks: &[usize], length: usize) -> Option<Automaton> {
        let mut gaps: States = 1;
        let mut block_ends: States = 0;
        let mut at = 0; // g_j's place
        for &b in blocks {
            at += b + 1;
            if at > length + 1 {
                return None;
            }
            gaps |= 1 << at;
            block_ends |= 1 << (at - 1);
        }
        let last: States = 1 << at;
        Some(Automaton {
            gaps,
            block_ends,
            fill_from: (last - 1) & !block_ends,
            accept: last | (last >> 1),
        })
    }

    /// The states after one more cell, from `states`, for a cell that can be
    /// filled and/or emptied.
    pub fn step(&self, states: States, can_fill: bool, can_empty: bool) -> States {
        let filled = (states & self.fill_from) << 1;
        let emptied = (states & self.gaps) | ((states & self.block_ends) << 1);
        ((if can_fill { filled } else { 0 }) | (if can_empty { emptied } else { 0 })) & ALL
    }

    /// States before a cell, given the states after it, that leave by a fill.
    pub fn back_fill(&self, after: States) -> States {
        (after >> 1) & self.fill_from
    }

    /// States before a cell, given the states after it, that leave by an empty.
    pub fn back_empty(&self, after: States) -> States {
        (after & self.gaps) | ((after >> 1) & self.block_ends)
    }

    /// Solves a line of `length` (1..=64) cells with this clue: forwards,
    /// then backwards meeting the forward sets (see the module's text).
    /// Allocates nothing, so the host's software solver runs it too.
    pub fn solve(&self, length: usize, known: u64, value: u64) -> LineResult {
        let none = LineResult {
            can_fill: 0,
            can_empty: 0,
        };
        let fillable = !(known & !value);
        let emptiable = !(known & value);
        let mut forward = [0 as States; MAX_LENGTH + 1];
        forward[0] = 1;
        for p in 0..length {
            forward[p + 1] = self.step(forward[p], fillable >> p & 1 == 1, emptiable >> p & 1 == 1);
        }
        if forward[length] & self.accept == 0 {
            return none;
        }
        let mut result = none;
        let mut after = self.accept;
        for p in (0..length).rev() {
            let by_fill = if fillable >> p & 1 == 1 {
                self.back_fill(after)
            } else {
                0
            };
            let by_empty = if emptiable >> p & 1 == 1 {
                self.back_empty(after)
            } else {
                0
            };
            result.can_fill |= ((forward[p] & by_fill != 0) as u64) << p;
            result.can_empty |= ((forward[p] & by_empty != 0) as u64) << p;
            after = by_fill | by_empty;
        }
        result
    }
}

/// What a line solve found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineResult {
    /// Bit i: cell i is filled in some legal fill.
    pub can_fill: u64,
    /// Bit i: cell i is empty in some legal fill.
    pub can_empty: u64,
}

impl LineResult {
    /// Some fill agrees with the known cells and the clue.
    pub fn feasible(&self) -> bool {
        (self.can_fill | self.can_empty) != 0
    }

    /// The cells every fill agrees on.
    pub fn known(&self) -> u64 {
        self.can_fill ^ self.can_empty
    }

    /// Their values (1 = filled).
    pub fn value(&self) -> u64 {
        self.can_fill & !self.can_empty
    }
}

/// Solves one line of `length` (1..=64) cells: `known`/`value` bit i is cell
/// i; blocks are ≥ 1.
pub fn solve_line(length: usize, blocks: &[usize], known: u64, value: u64) -> LineResult {
    assert!((1..=MAX_LENGTH).contains(&length));
    assert!(blocks.iter().all(|&b| b >= 1));
    let none = LineResult {
        can_fill: 0,
        can_empty: 0,
    };
    match Automaton::new(blocks, length) {
        Some(automaton) => automaton.solve(length, known, value),
        None => none,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::bench::boards::Rng;
    use crate::dnf::options::LineOptions;

    /// The same by enumerating every fill.
    fn brute(length: usize, blocks: &[usize], known: u64, value: u64) -> LineResult {
        let line = if length == 64 { u64::MAX } else { (1 << length) - 1 };
        let mut r = LineResult {
            can_fill: 0,
            can_empty: 0,
        };
        for o in LineOptions::new(blocks, length) {
            if (o ^ value) & known == 0 {
                r.can_fill |= o;
                r.can_empty |= !o & line;
            }
        }
        r
    }

    /// A random line: a clue from a random picture (or now and then a random
    /// clue), known cells mostly agreeing with the picture.
    pub(crate) fn random_line(rng: &mut Rng, max_length: u64) -> (usize, Vec<usize>, u64, u64) {
        let length = 1 + rng.below(max_length) as usize;
        let line = if length == 64 { u64::MAX } else { (1 << length) - 1 };
        let density = 20 + rng.below(70);
        let picture = (0..length).fold(0u64, |w, i| w | ((rng.below(100) < density) as u64) << i);
        let blocks: Vec<usize> = if rng.below(5) > 0 {
            crate::dnf::options::clue_of(picture, length)
        } else {
            (0..rng.below(5))
                .map(|_| 1 + rng.below(length as u64) as usize)
                .collect()
        };
        let known_density = rng.below(70);
        let known = (0..length).fold(0u64, |w, i| w | ((rng.below(100) < known_density) as u64) << i) & line;
        let value = if rng.below(4) > 0 {
            picture & known
        } else {
            rng.below(u64::MAX) & known
        };
        (length, blocks, known, value)
    }

    #[test]
    fn lays_out_the_automaton() {
        // g0 | 1.1 1.2 | g1 | 2.1 | g2
        let a = Automaton::new(&[2, 1], 5).unwrap();
        assert_eq!(a.gaps, 0b10_1001);
        assert_eq!(a.block_ends, 0b01_0100);
        assert_eq!(a.fill_from, 0b00_1011);
        assert_eq!(a.accept, 0b11_0000);
        assert_eq!(Automaton::new(&[2, 2], 4), None);
        assert!(Automaton::new(&[1; 32], 63).is_some());
        assert_eq!(Automaton::new(&[], 1).unwrap().accept, 1);
    }

    #[test]
    fn edge_lines() {
        let r = solve_line(5, &[], 0, 0);
        assert_eq!((r.known(), r.value()), (0b11111, 0));
        let r = solve_line(64, &[64], 0, 0);
        assert_eq!((r.known(), r.value()), (u64::MAX, u64::MAX));
        let r = solve_line(63, &[1; 32], 0, 0);
        assert_eq!((r.known(), r.value()), ((1 << 63) - 1, 0x5555_5555_5555_5555));
        let r = solve_line(64, &[1; 32], 0, 0);
        assert_eq!(r, brute(64, &[1; 32], 0, 0));
        assert_eq!(r.known(), 0);
        assert!(!solve_line(5, &[], 1, 1).feasible());
        assert!(!solve_line(4, &[2, 2], 0, 0).feasible());
        assert!(!solve_line(64, &[40, 40], 0, 0).feasible());
    }

    #[test]
    fn agrees_with_brute_force_on_random_lines() {
        let mut rng = Rng(0x5eed_1234_abcd_0001);
        let (mut checked, mut feasible) = (0, 0);
        for case in 0..40_000 {
            let (length, blocks, known, value) = random_line(&mut rng, if case % 3 == 0 { 64 } else { 16 });
            if crate::dnf::options::count(&blocks, length) > 100_000 {
                continue; // too many fills to enumerate
            }
            let expected = brute(length, &blocks, known, value);
            let got = solve_line(length, &blocks, known, value);
            assert_eq!(
                got, expected,
                "length {length} clue {blocks:?} known {known:#b} value {value:#b}"
            );
            checked += 1;
            feasible += expected.feasible() as usize;
        }
        assert!(
            checked > 30_000 && feasible > 10_000,
            "{checked} checked, {feasible} feasible"
        );
    }
}
