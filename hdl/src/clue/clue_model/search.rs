//! The clue engine's solve, cycle by cycle: line logic over the dirty lines,
//! then (with a budget) depth-first search with an undo trail, and, in
//! probing mode, probing before every branch (`probe.rs`).

use super::*;
use crate::clue::line_logic;

/// One cell on the undo trail: fixed since the search began. A guess
/// carries its value and whether it is the cell's second value; a probe's
/// mark is a guess that is never tried the other way.
#[derive(Clone, Copy, Debug)]
pub(super) struct TrailEntry {
    pub row: usize,
    pub column: usize,
    pub guess: Option<(bool, bool)>,
}

/// How a stretch of line logic ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Stop {
    /// No line is dirty and some cell is unknown.
    Stalled,
    /// No line is dirty and every cell is known: a solution.
    Complete,
    /// A line (rows 0..m, then columns) has no fill.
    Contradiction(usize),
}

/// What the search does after a stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Event {
    /// Line logic stalled: guess a cell.
    Choose,
    /// A contradiction, or the first solution kept: go back.
    Backtrack,
}

/// The board's memory and the engine's registers, as the model keeps them.
pub(super) struct Board<'a> {
    pub rows: usize,
    pub columns: usize,
    clues: &'a [Vec<usize>],
    pub known: Vec<bool>,
    pub value: Vec<bool>,
    pub known_count: usize,
    dirty: Vec<bool>,
    /// The line the schedule looks at next.
    pub line: usize,
    pub trail: Vec<TrailEntry>,
    /// Every fixed cell goes on the trail (from the first stall on).
    pub searching: bool,
    /// Lines (rows, then columns) changed for good since the current
    /// probing round began: the next round probes their cells.
    pub changed: Vec<bool>,
    pub verdict: ClueVerdict,
    pub speedups: Speedups,
    pub policy: Policy,
    /// Cycles spent seeking and visiting lines.
    pub line_cycles: u64,
    /// `Speedups::cache`: the (line, Known, Value) keys it holds (only
    /// hits are priced, so the results need not be kept).
    cache: Vec<Option<(usize, u64, u64)>>,
    pub cache_hits: u64,
}

impl<'a> Board<'a> {
    fn new(
        rows: usize,
        columns: usize,
        clues: &'a [Vec<usize>],
        speedups: Speedups,
        policy: Policy,
        verdict: ClueVerdict,
    ) -> Board<'a> {
        Board {
            rows,
            columns,
            clues,
            known: vec![false; rows * columns],
            value: vec![false; rows * columns],
            known_count: 0,
            dirty: vec![true; rows + columns],
            line: 0,
            trail: Vec::new(),
            searching: false,
            changed: vec![true; rows + columns],
            verdict,
            speedups,
            policy,
            line_cycles: 0,
            cache: vec![None; speedups.cache],
            cache_hits: 0,
        }
    }

    fn cell(&self, line: usize, i: usize) -> usize {
        if line < self.rows {
            line * self.columns + i
        } else {
            i * self.columns + (line - self.rows)
        }
    }

    pub fn is_known(&self, row: usize, column: usize) -> bool {
        self.known[row * self.columns + column]
    }

    pub fn unknown_cells(&self) -> usize {
        self.rows * self.columns - self.known_count
    }

    /// Fixes a cell: on the trail when searching, its row and column dirty
    /// and changed.
    pub fn fix(&mut self, row: usize, column: usize, value: bool, guess: Option<(bool, bool)>) {
        let at = row * self.columns + column;
        self.known[at] = true;
        self.value[at] = value;
        self.known_count += 1;
        self.dirty[row] = true;
        self.dirty[self.rows + column] = true;
        self.changed[row] = true;
        self.changed[self.rows + column] = true;
        if self.searching {
            self.trail.push(TrailEntry { row, column, guess });
        }
    }

    /// Undoes the latest trail entry (its cell unknown again).
    pub fn undo(&mut self) -> TrailEntry {
        let e = self.trail.pop().expect("an entry on the trail");
        self.known[e.row * self.columns + e.column] = false;
        self.known_count -= 1;
        self.verdict.cycles += self.write_cycles();
        e
    }

    /// A guess (or a probe's mark): fixed, on the trail, and the schedule
    /// goes on from its row.
    pub fn guess(&mut self, row: usize, column: usize, value: bool, second: bool) {
        self.verdict.cycles += GUESS_CYCLES;
        self.fix(row, column, value, Some((value, second)));
        self.line = row;
    }

    /// Forgets every dirty line: what a backtrack or an undone probe left
    /// is stale.
    pub fn forget_dirty(&mut self) {
        self.dirty.iter_mut().for_each(|d| *d = false);
    }

    /// Cycles to write or undo one cell: [`UNDO_CYCLES`], the crossing
    /// copy's and the trail's writes (3), or 2 with fast writes.
    fn write_cycles(&self) -> u64 {
        if self.speedups.fast_writes {
            2
        } else {
            UNDO_CYCLES
        }
    }

    /// Line logic: the dirty lines in the schedule's order until none is
    /// dirty or a line has no fill.
    pub fn line_logic(&mut self) -> Stop {
        let before = self.verdict.cycles;
        let stop = self.line_logic_unpriced();
        self.line_cycles += self.verdict.cycles - before;
        stop
    }

    fn line_logic_unpriced(&mut self) -> Stop {
        let total = self.rows + self.columns;
        loop {
            // A next-dirty finder pays once for a dirty line (or for
            // seeing none), and nothing for a clean one.
            let clean = !self.dirty[self.line] && self.dirty.contains(&true);
            self.verdict.cycles += match (self.speedups.finder, clean) {
                (false, _) => SEEK_CYCLES,
                (true, false) => 1,
                (true, true) => 0,
            };
            if self.line == 0 {
                self.verdict.passes = self.verdict.passes.saturating_add(1);
            }
            if !self.dirty.contains(&true) {
                return if self.known_count == self.rows * self.columns {
                    Stop::Complete
                } else {
                    Stop::Stalled
                };
            }
            let line = self.line;
            if !self.dirty[line] {
                self.line = (line + 1) % total;
                continue;
            }
            self.dirty[line] = false;
            let length = if line < self.rows { self.columns } else { self.rows };
            let (mut known_word, mut value_word) = (0u64, 0u64);
            for i in 0..length {
                known_word |= (self.known[self.cell(line, i)] as u64) << i;
                value_word |= (self.value[self.cell(line, i)] as u64) << i;
            }
            self.verdict.visits += 1;
            let result = line_logic::solve_line(length, &self.clues[line], known_word, value_word);
            let passes = if self.speedups.both_passes {
                length as u64 + 1
            } else {
                2 * length as u64
            };
            let mut solver_cycles =
                self.clues[line].len() as u64 + passes + crate::clue::line_solver::LATENCY;
            if !self.cache.is_empty() {
                // Unknown cells' Value bits are 0 in the board memory.
                let key = (line, known_word, value_word & known_word);
                let hash = (key.1.wrapping_mul(0x9e37_79b9_7f4a_7c15)
                    ^ key.2.wrapping_mul(0xc2b2_ae3d_27d4_eb4f)
                    ^ (line as u64).wrapping_mul(0x1656_67b1_9e37_79f9))
                    >> 20;
                let slot = hash as usize % self.cache.len();
                if self.cache[slot] == Some(key) {
                    self.cache_hits += 1;
                    solver_cycles = CACHE_HIT_CYCLES;
                } else {
                    self.cache[slot] = Some(key);
                }
            }
            if !result.feasible() {
                self.verdict.cycles += solver_cycles + 3; // fetch, load, start: no write-back
                return Stop::Contradiction(line);
            }
            let fresh = result.known() & !known_word;
            self.verdict.cycles +=
                solver_cycles + VISIT_CYCLES + self.write_cycles() * fresh.count_ones() as u64;
            for i in (0..length).filter(|&i| fresh >> i & 1 == 1) {
                let (row, column) = if line < self.rows {
                    (line, i)
                } else {
                    (i, line - self.rows)
                };
                self.fix(row, column, result.value() >> i & 1 == 1, None);
            }
            // The line itself is clean: its solver is complete.
            self.dirty[line] = false;
            self.line = (line + 1) % total;
        }
    }
}

/// The solve of a board that fits (see [`run`]).
pub(super) fn solve_board(
    clues: &[Vec<usize>],
    rows: usize,
    columns: usize,
    mode: Mode,
    speedups: Speedups,
    policy: Policy,
    verdict: ClueVerdict,
) -> (ClueVerdict, u64) {
    let mut b = Board::new(rows, columns, clues, speedups, policy, verdict);
    b.verdict.cycles = CLEAR_CYCLES;
    let mut first_solution: Option<Vec<bool>> = None;
    let mut scan_row = 0;
    // The budget is checked against the cycle count of the cycle before.
    let budget = mode.budget;
    let over_budget = |before: u64| budget != 0 && (before - 1) >> BUDGET_UNIT_BITS >= budget as u64;
    // A stop that probing reached, handled as one of line logic's.
    let mut probed: Option<Stop> = None;
    'solve: loop {
        let stop = probed.take().unwrap_or_else(|| b.line_logic());
        let event = match stop {
            Stop::Complete => {
                // Line logic alone, or with probing's forced cells: the
                // only solution.
                if b.verdict.nodes == 0 {
                    b.verdict.outcome = outcome::SOLVED;
                    break 'solve;
                }
                if mode.first {
                    b.verdict.outcome = outcome::SOLVED;
                    b.verdict.detail = FIRST_FOUND;
                    break 'solve;
                }
                if let Some(first) = &first_solution {
                    b.verdict.outcome = outcome::SEVERAL;
                    b.verdict.differs = first.iter().zip(&b.value).map(|(a, v)| a != v).collect();
                    b.value = first.clone();
                    break 'solve;
                }
                b.verdict.cycles += SAVE_ROW_CYCLES * rows as u64;
                first_solution = Some(b.value.clone());
                Event::Backtrack
            }
            Stop::Stalled => {
                if budget == 0 {
                    b.verdict.outcome = outcome::STALLED;
                    break 'solve;
                }
                Event::Choose
            }
            Stop::Contradiction(line) => {
                if !b.searching {
                    b.verdict.outcome = outcome::CONTRADICTION;
                    b.verdict.detail = line as u8;
                    break 'solve;
                }
                Event::Backtrack
            }
        };

        // Check: the budget, and for a guess that the trail will hold every
        // cell still unknown.
        let before = b.verdict.cycles;
        b.verdict.cycles += CHECK_CYCLES;
        let too_big = event == Event::Choose && b.unknown_cells() > TRAIL_ENTRIES;
        if over_budget(before) || too_big {
            give_up(
                &mut b,
                if over_budget(before) {
                    BUDGET_RAN_OUT
                } else {
                    TRAIL_RAN_OUT
                },
            );
            break 'solve;
        }
        // From the first stall on, every fixed cell goes on the trail.
        b.searching = true;
        // The next guess: a cell and its value.
        let (row, column, guess, second) = match event {
            Event::Choose if mode.probe => match probe::rounds(&mut b, mode.first, &over_budget) {
                probe::End::Branch(row, column, value) => (row, column, value, false),
                probe::End::Stop(stop) => {
                    probed = Some(stop);
                    continue 'solve;
                }
                probe::End::Found => {
                    b.verdict.outcome = outcome::SOLVED;
                    b.verdict.detail = FIRST_FOUND;
                    break 'solve;
                }
                probe::End::OverBudget => {
                    give_up(&mut b, BUDGET_RAN_OUT);
                    break 'solve;
                }
            },
            Event::Choose => {
                // The first unknown cell in row-major order: rows before
                // the last guess's are known, as they were when it was made.
                let column = loop {
                    b.verdict.cycles += SCAN_ROW_CYCLES;
                    match (0..columns).find(|&c| !b.is_known(scan_row, c)) {
                        Some(c) => break c,
                        None => scan_row += 1,
                    }
                };
                (scan_row, column, true, false)
            }
            Event::Backtrack => {
                b.verdict.backtracks += 1;
                b.forget_dirty();
                // Every probe's result is in doubt; or (`Policy::resume`)
                // the node gone back to had reached a probing fixpoint, and
                // only what its second value changes is new.
                let all = !b.policy.resume;
                b.changed.iter_mut().for_each(|c| *c = all);
                loop {
                    if b.trail.is_empty() {
                        // Every guess refuted: the first solution is the
                        // only one, or there is none.
                        match &first_solution {
                            Some(first) => {
                                b.verdict.outcome = outcome::SOLVED;
                                b.value = first.clone();
                                b.known.iter_mut().for_each(|k| *k = true);
                            }
                            None => {
                                b.verdict.outcome = outcome::CONTRADICTION;
                                b.verdict.detail = SEARCHED;
                            }
                        }
                        break 'solve;
                    }
                    let e = b.undo();
                    if let Some((v, false)) = e.guess {
                        break (e.row, e.column, !v, true);
                    }
                }
            }
        };
        // The guess: fixed in both copies, on the trail, its row and column
        // dirty; the schedule goes on from its row.
        b.verdict.nodes += 1;
        b.guess(row, column, guess, second);
        scan_row = if mode.probe { 0 } else { row };
    }
    if b.verdict.outcome == outcome::SEVERAL {
        b.known.iter_mut().for_each(|k| *k = true);
    }
    let mut verdict = b.verdict;
    verdict.cache_hits = b.cache_hits;
    verdict.cells = b
        .known
        .iter()
        .zip(&b.value)
        .map(|(&k, &v)| k.then_some(v))
        .collect();
    (verdict, b.line_cycles)
}

/// Gives up: every cell fixed since the search began is undone.
fn give_up(b: &mut Board, why: u8) {
    while !b.trail.is_empty() {
        b.undo();
    }
    b.verdict.outcome = outcome::GAVE_UP;
    b.verdict.detail = why;
}
