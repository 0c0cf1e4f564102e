//! Reference model of the colour clue engine, cycle by cycle as the design
//! prices it: a board whose cells each hold their possible colours, every
//! dirty line narrowed by `line_logic` until no line is dirty; then, with a
//! budget, depth-first search with an undo trail, in both modes (the first
//! solution, or uniqueness decided).
//!
//! It follows the clue engine's model (`clue::clue_model`) step for step:
//! the same visit order (rows, then columns, again and again, dirty lines
//! only), and a cell that loses a colour dirties its crossing line. The
//! fixpoint of complete line solvers does not depend on the order, so the
//! cells it stalls with are the host's colour line logic's: a test in
//! `nonohost` checks that.
//!
//! **Search.** At a stall the first cell (row-major) with more than one
//! colour is the branch. Its first branch is its lowest ink (inks before
//! the background, as black and white tries "filled" first); the second,
//! when the first is refuted, is every other colour the cell had, so that
//! two branches cover a node whatever the number of colours. Every cell
//! narrowed from the first branch on goes on the undo trail with the
//! colours it had; a contradiction pops the trail to the latest first
//! branch and takes its second. Along a path each entry takes a colour
//! from a cell, so the trail never holds more than the board's freedom at
//! the first stall, Σ (colours of a cell − 1): the search starts only when
//! that fits the trail.
//!
//! Its cycles are the gateware's (`colour::solver`, held to this model
//! cycle for cycle): clearing the board, two cycles to look at a line, a
//! visit's k + 2L + `LATENCY` in the line solver (every ink in one step,
//! see `line_logic`), its fixed cycles, and 3 for each narrowed cell; the
//! search's steps (the constants below).

use super::line_logic::{solve_line, Block, ColourSet, MAX_COLOURS};
use crate::clue::clue_model::{
    BUDGET_RAN_OUT, BUDGET_UNIT_BITS, CHECK_CYCLES, CLEAR_CYCLES, FIRST_FOUND, SAVE_ROW_CYCLES, SEARCHED,
    SEEK_CYCLES, TRAIL_ENTRIES, TRAIL_RAN_OUT,
};
use crate::common::line_walk::LATENCY;
use crate::link::protocol::status::outcome;

/// The largest board the model takes (lines of up to 63 cells).
pub const MAX_SIDE: usize = super::line_logic::MAX_LENGTH;

/// A visit's cycles besides the line solver's k + 2L + `LATENCY` and the
/// crossings (`colour::solver`): Fetch and the line solver's last cycle
/// before its result (`RESULT_CYCLES`), then Narrowed and Advance when the
/// line has a fill. (The line solver's start is Load.)
pub const RESULT_CYCLES: u64 = 2;
pub const VISIT_CYCLES: u64 = RESULT_CYCLES + 2;

/// Cycles to copy a narrowed cell into its crossing line: CrossRead,
/// CrossWord, CrossWrite.
pub const CROSSING_CYCLES: u64 = 3;

/// The search's steps (`colour::solver`): a row scanned for the branch
/// (ScanRead, ScanLoad, ScanAny); the branch cell and its colours picked
/// (ScanCell, BranchColours); a cell written into its row and column
/// (UpRow, UpRowWord, UpColumn, UpColumnWord, UpEnd), for a branch or an
/// undo; the trail's top popped (UndoRead), or found empty at the end.
/// Check and the kept rows' copy cost what the clue engine's do.
pub const SCAN_ROW_CYCLES: u64 = 3;
pub const PICK_CYCLES: u64 = 2;
pub const UPDATE_CYCLES: u64 = 5;
pub const UNDO_CYCLES: u64 = 1 + UPDATE_CYCLES;
pub const END_CYCLES: u64 = 1;

/// What the host asks for with a board.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ColourMode {
    /// In units of 2^[`BUDGET_UNIT_BITS`] cycles; 0 is line logic alone.
    pub budget: u16,
    /// First-solution mode: stop at the first solution found.
    pub first: bool,
}

/// What the model found for one board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ColourVerdict {
    /// SOLVED (every cell has one colour), SEVERAL, CONTRADICTION, STALLED
    /// (line logic alone) or GAVE_UP.
    pub outcome: u8,
    /// As the clue engine's: SEARCHED for a contradiction search proved,
    /// FIRST_FOUND for a first solution the search found, why it gave up.
    pub detail: u8,
    /// For a contradiction of line logic, the line with no fill (rows
    /// first, then columns).
    pub line: Option<usize>,
    /// Row-major cells: each one's possible colours (for SEVERAL, the first
    /// solution).
    pub cells: Vec<ColourSet>,
    /// For SEVERAL: the second solution.
    pub second: Vec<ColourSet>,
    /// Times the visit order came round to row 0 (saturating), as the clue
    /// engine's PASSES.
    pub passes: u8,
    pub visits: u64,
    pub nodes: u64,
    pub backtracks: u64,
    pub cycles: u64,
}

/// Line logic alone on a board of `row_clues.len()` × `column_clues.len()`
/// cells that may have colours 0..`colours` (0 the background).
pub fn line_logic(row_clues: &[Vec<Block>], column_clues: &[Vec<Block>], colours: usize) -> ColourVerdict {
    solve(row_clues, column_clues, colours, ColourMode::default())
}

/// One cell on the undo trail: the colours it had, and whether it is a
/// first branch (its second, every colour but `lowest_ink(before)`, is
/// still to take).
#[derive(Clone, Copy, Debug)]
struct Entry {
    at: usize,
    before: ColourSet,
    first_branch: bool,
}

/// A branch cell's first branch: its lowest ink (it has one, having more
/// than one colour).
fn lowest_ink(colours: ColourSet) -> ColourSet {
    let inks = colours & !1;
    inks & inks.wrapping_neg()
}

/// How a stretch of line logic ended.
enum Stop {
    Stalled,
    Complete,
    Contradiction(usize),
}

/// The board's memory and the engine's registers, as the model keeps them.
struct Board<'a> {
    rows: usize,
    columns: usize,
    clues: Vec<&'a [Block]>,
    cells: Vec<ColourSet>,
    dirty: Vec<bool>,
    line: usize,
    trail: Vec<Entry>,
    searching: bool,
    verdict: ColourVerdict,
}

impl Board<'_> {
    fn cell(&self, line: usize, i: usize) -> usize {
        if line < self.rows {
            line * self.columns + i
        } else {
            i * self.columns + (line - self.rows)
        }
    }

    /// Narrows a cell: on the trail when searching, its row and column
    /// dirty.
    fn set(&mut self, at: usize, colours: ColourSet, first_branch: bool) {
        if self.searching {
            self.trail.push(Entry {
                at,
                before: self.cells[at],
                first_branch,
            });
        }
        self.cells[at] = colours;
        self.dirty[at / self.columns] = true;
        self.dirty[self.rows + at % self.columns] = true;
    }

    /// Undoes the latest trail entry.
    fn undo(&mut self) -> Entry {
        let e = self.trail.pop().expect("an entry on the trail");
        self.cells[e.at] = e.before;
        self.verdict.cycles += UNDO_CYCLES;
        e
    }

    /// A branch: the cell narrowed, and the schedule goes on from its row.
    fn branch(&mut self, at: usize, colours: ColourSet, first_branch: bool) {
        self.verdict.nodes += 1;
        self.verdict.cycles += UPDATE_CYCLES + if first_branch { PICK_CYCLES } else { 0 };
        self.set(at, colours, first_branch);
        self.line = at / self.columns;
    }

    /// Σ (colours of a cell − 1): the trail entries the search may still
    /// need on any path.
    fn freedom(&self) -> usize {
        self.cells.iter().map(|c| c.count_ones() as usize - 1).sum()
    }

    /// Visits dirty lines until none is dirty or a line has no fill.
    fn line_logic(&mut self) -> Stop {
        let total = self.rows + self.columns;
        let mut words = [0 as ColourSet; MAX_SIDE];
        loop {
            self.verdict.cycles += SEEK_CYCLES;
            if self.line == 0 {
                self.verdict.passes = self.verdict.passes.saturating_add(1);
            }
            if !self.dirty.contains(&true) {
                return if self.cells.iter().all(|c| c.count_ones() == 1) {
                    Stop::Complete
                } else {
                    Stop::Stalled
                };
            }
            let line = self.line;
            self.line = (line + 1) % total;
            if !self.dirty[line] {
                continue;
            }
            self.dirty[line] = false;
            let length = if line < self.rows { self.columns } else { self.rows };
            for (i, w) in words[..length].iter_mut().enumerate() {
                *w = self.cells[self.cell(line, i)];
            }
            self.verdict.visits += 1;
            self.verdict.cycles +=
                RESULT_CYCLES + self.clues[line].len() as u64 + 2 * length as u64 + LATENCY;
            if !solve_line(self.clues[line], &mut words[..length]) {
                return Stop::Contradiction(line);
            }
            self.verdict.cycles += VISIT_CYCLES - RESULT_CYCLES;
            for (i, &w) in words[..length].iter().enumerate() {
                let at = self.cell(line, i);
                if self.cells[at] != w {
                    self.verdict.cycles += CROSSING_CYCLES;
                    self.set(at, w, false);
                }
            }
            // (`set` dirtied the visited line too: it is clean.)
            self.dirty[line] = false;
        }
    }
}

/// Solves a board of `row_clues.len()` × `column_clues.len()` cells that
/// may have colours 0..`colours` (0 the background): line logic, then, with
/// a budget, search for at most `budget` × 2^20 cycles.
pub fn solve(
    row_clues: &[Vec<Block>],
    column_clues: &[Vec<Block>],
    colours: usize,
    mode: ColourMode,
) -> ColourVerdict {
    let (rows, columns) = (row_clues.len(), column_clues.len());
    assert!((1..=MAX_SIDE).contains(&rows) && (1..=MAX_SIDE).contains(&columns));
    assert!((1..=MAX_COLOURS).contains(&colours));
    let mut b = Board {
        rows,
        columns,
        clues: row_clues
            .iter()
            .chain(column_clues)
            .map(|c| c.as_slice())
            .collect(),
        cells: vec![((1u16 << colours) - 1) as ColourSet; rows * columns],
        dirty: vec![true; rows + columns],
        line: 0,
        trail: Vec::new(),
        searching: false,
        verdict: ColourVerdict {
            outcome: outcome::STALLED,
            detail: 0,
            line: None,
            cells: vec![],
            second: vec![],
            passes: 0,
            visits: 0,
            nodes: 0,
            backtracks: 0,
            cycles: CLEAR_CYCLES,
        },
    };
    let budget = mode.budget as u64;
    // As the clue engine, the budget is checked against the cycle count of
    // the cycle before.
    let over_budget = |before: u64| budget != 0 && (before - 1) >> BUDGET_UNIT_BITS >= budget;
    let mut first_solution: Option<Vec<ColourSet>> = None;
    let mut scan_row = 0;
    'solve: loop {
        let backtrack = match b.line_logic() {
            Stop::Complete if b.verdict.nodes == 0 => {
                // Line logic alone: the only solution.
                b.verdict.outcome = outcome::SOLVED;
                break 'solve;
            }
            Stop::Complete if mode.first => {
                b.verdict.outcome = outcome::SOLVED;
                b.verdict.detail = FIRST_FOUND;
                break 'solve;
            }
            Stop::Complete => {
                if let Some(first) = first_solution.take() {
                    b.verdict.outcome = outcome::SEVERAL;
                    b.verdict.second = std::mem::replace(&mut b.cells, first);
                    break 'solve;
                }
                b.verdict.cycles += SAVE_ROW_CYCLES * rows as u64;
                first_solution = Some(b.cells.clone());
                true
            }
            Stop::Stalled if budget == 0 => break 'solve,
            Stop::Stalled => false,
            Stop::Contradiction(line) if !b.searching => {
                b.verdict.outcome = outcome::CONTRADICTION;
                b.verdict.line = Some(line);
                b.verdict.detail = line as u8;
                break 'solve;
            }
            Stop::Contradiction(_) => true,
        };
        // Check: the budget, and before the first branch that the trail
        // holds whatever the search may narrow.
        let before = b.verdict.cycles;
        b.verdict.cycles += CHECK_CYCLES;
        let too_big = !backtrack && b.freedom() > TRAIL_ENTRIES;
        if over_budget(before) || too_big {
            while !b.trail.is_empty() {
                b.undo();
            }
            b.verdict.cycles += END_CYCLES;
            b.verdict.outcome = outcome::GAVE_UP;
            b.verdict.detail = if over_budget(before) {
                BUDGET_RAN_OUT
            } else {
                TRAIL_RAN_OUT
            };
            break 'solve;
        }
        b.searching = true;
        if !backtrack {
            // The first cell with more than one colour: rows before the
            // last branch's are decided, as they were when it was made.
            let at = loop {
                b.verdict.cycles += SCAN_ROW_CYCLES;
                let row = scan_row * columns..(scan_row + 1) * columns;
                match row.clone().find(|&at| b.cells[at].count_ones() > 1) {
                    Some(at) => break at,
                    None => scan_row += 1,
                }
            };
            b.branch(at, lowest_ink(b.cells[at]), true);
            continue;
        }
        b.verdict.backtracks += 1;
        // What the contradiction or the kept solution left dirty is stale.
        b.dirty.iter_mut().for_each(|d| *d = false);
        let (at, rest) = loop {
            if b.trail.is_empty() {
                b.verdict.cycles += END_CYCLES;
                // Every branch refuted: the first solution is the only one,
                // or there is none.
                match first_solution.take() {
                    Some(first) => {
                        b.verdict.outcome = outcome::SOLVED;
                        b.cells = first;
                    }
                    None => {
                        b.verdict.outcome = outcome::CONTRADICTION;
                        b.verdict.detail = SEARCHED;
                    }
                }
                break 'solve;
            }
            let e = b.undo();
            if e.first_branch {
                break (e.at, e.before & !lowest_ink(e.before));
            }
        };
        b.branch(at, rest, false);
        scan_row = at / columns;
    }
    b.verdict.cells = b.cells;
    b.verdict
}

#[cfg(test)]
mod tests;
