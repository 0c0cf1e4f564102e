//! Reference model of the colour clue engine, so far line logic alone: a
//! board whose cells each hold their possible colours, every dirty line
//! narrowed by `line_logic` until no line is dirty.
//!
//! It follows the clue engine's model (`clue::clue_model`) step for step:
//! the same visit order (rows, then columns, again and again, dirty lines
//! only), and a cell that loses a colour dirties its crossing line. The
//! fixpoint of complete line solvers does not depend on the order, so the
//! cells it ends with are the host's colour line logic's: a test in
//! `nonohost` checks that.
//!
//! Its cycles are the design's price, the clue engine's visit with cells of
//! colour sets: clearing the board, two cycles to look at a line, and a
//! visit's k + 2L + `LATENCY` in the line solver (every ink in one step,
//! see `line_logic`), its fixed cycles, and 3 for each narrowed cell.
//! There is no colour gateware yet to hold to it.

use super::line_logic::{solve_line, Block, ColourSet, MAX_COLOURS};
use crate::clue::clue_model::{CLEAR_CYCLES, SEEK_CYCLES, VISIT_CYCLES};
use crate::clue::line_solver::LATENCY;
use crate::link::protocol::status::outcome;

/// The largest board the model takes (lines of up to 63 cells).
pub const MAX_SIDE: usize = super::line_logic::MAX_LENGTH;

/// Cycles to copy a narrowed cell into its crossing line (as
/// `clue_model`'s newly fixed cell).
pub const CROSSING_CYCLES: u64 = 3;

/// What the model found for one board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColourVerdict {
    /// SOLVED (every cell has one colour), STALLED or CONTRADICTION.
    pub outcome: u8,
    /// For CONTRADICTION, the line with no fill (rows first, then columns).
    pub line: Option<usize>,
    /// Row-major cells: each one's possible colours.
    pub cells: Vec<ColourSet>,
    pub visits: u64,
    pub cycles: u64,
}

/// Line logic on a board of `row_clues.len()` × `column_clues.len()` cells
/// that may have colours 0..`colours` (0 the background).
pub fn line_logic(row_clues: &[Vec<Block>], column_clues: &[Vec<Block>], colours: usize) -> ColourVerdict {
    let (rows, columns) = (row_clues.len(), column_clues.len());
    assert!((1..=MAX_SIDE).contains(&rows) && (1..=MAX_SIDE).contains(&columns));
    assert!((1..=MAX_COLOURS).contains(&colours));
    let clues: Vec<&Vec<Block>> = row_clues.iter().chain(column_clues).collect();
    let total = rows + columns;
    let cell = |line: usize, i: usize| {
        if line < rows {
            line * columns + i
        } else {
            i * columns + (line - rows)
        }
    };
    let mut verdict = ColourVerdict {
        outcome: outcome::STALLED,
        line: None,
        cells: vec![((1u16 << colours) - 1) as ColourSet; rows * columns],
        visits: 0,
        cycles: CLEAR_CYCLES,
    };
    let mut dirty = vec![true; total];
    let mut line = 0;
    let mut words = [0 as ColourSet; MAX_SIDE];
    loop {
        verdict.cycles += SEEK_CYCLES;
        if !dirty.contains(&true) {
            let solved = verdict.cells.iter().all(|c| c.count_ones() == 1);
            verdict.outcome = if solved { outcome::SOLVED } else { outcome::STALLED };
            return verdict;
        }
        if !dirty[line] {
            line = (line + 1) % total;
            continue;
        }
        dirty[line] = false;
        let length = if line < rows { columns } else { rows };
        for (i, w) in words[..length].iter_mut().enumerate() {
            *w = verdict.cells[cell(line, i)];
        }
        verdict.visits += 1;
        verdict.cycles += VISIT_CYCLES + clues[line].len() as u64 + 2 * length as u64 + LATENCY;
        if !solve_line(clues[line], &mut words[..length]) {
            verdict.outcome = outcome::CONTRADICTION;
            verdict.line = Some(line);
            return verdict;
        }
        for (i, &w) in words[..length].iter().enumerate() {
            let at = cell(line, i);
            if verdict.cells[at] != w {
                verdict.cells[at] = w;
                verdict.cycles += CROSSING_CYCLES;
                // The crossing line: a column for a row's cell, and back.
                dirty[if line < rows { rows + i } else { i }] = true;
            }
        }
        line = (line + 1) % total;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clue(text: &str) -> Vec<Block> {
        text.split_whitespace()
            .map(|b| Block {
                length: b[..b.len() - 1].parse().unwrap(),
                ink: match b.as_bytes()[b.len() - 1] {
                    b'r' => 1,
                    b'b' => 2,
                    _ => panic!("ink"),
                },
            })
            .collect()
    }

    /// A 3×3 of red and blue that line logic solves:
    /// ```text
    /// r r b
    /// . b b
    /// r . .
    /// ```
    #[test]
    fn solves_a_small_board_by_line_logic() {
        let rows = [clue("2r 1b"), clue("2b"), clue("1r")];
        let columns = [clue("1r 1r"), clue("1r 1b"), clue("2b")];
        let v = line_logic(&rows, &columns, 3);
        assert_eq!(v.outcome, outcome::SOLVED);
        let picture: Vec<u8> = v.cells.iter().map(|c| c.trailing_zeros() as u8).collect();
        assert_eq!(picture, [1, 1, 2, 0, 2, 2, 1, 0, 0]);
        // Six visits at least (every line once) and the cycles they cost.
        assert!(v.visits >= 6);
        assert!(v.cycles > CLEAR_CYCLES + 6 * (VISIT_CYCLES + LATENCY));
    }

    #[test]
    fn finds_a_line_with_no_fill() {
        // Row 0 wants 3 cells of 2.
        let v = line_logic(&[clue("3r"), clue("")], &[clue("1r"), clue("1r")], 2);
        assert_eq!((v.outcome, v.line), (outcome::CONTRADICTION, Some(0)));
    }

    #[test]
    fn stalls_where_line_logic_cannot_choose() {
        // Two red cells on a diagonal of a 2×2: either diagonal fits.
        let one = || clue("1r");
        let v = line_logic(&[one(), one()], &[one(), one()], 2);
        assert_eq!(v.outcome, outcome::STALLED);
        assert!(v.cells.iter().all(|&c| c == 0b11));
    }
}
