//! The software solver: line logic plus search.
//!
//! Line logic is the same as the board's (and `nonogram_hdl::dnf::model`'s): a
//! line fixes every cell on which all its fills that agree with the known
//! cells agree (see [`line`]). Search ([`search`], shared with the colour
//! solver) counts solutions up to a limit, keeping the first two; in puzzles
//! over 64 cells it probes every unknown cell both ways at every node (a
//! value line logic refutes fixes the other; cells both tries agree on are
//! fixed), which takes random 30×30 grids from minutes to a fraction of a
//! second, and branches on the cell whose probes scored best (see
//! [`search`]); in smaller ones it branches on an unknown cell of the line
//! with the fewest. Line solutions are cached ([`bits`]): probing asks the
//! same line questions many times. A search that takes more than
//! [`sat::SAT_AFTER_NODES`] nodes while looking for one or two solutions is
//! handed to a SAT solver (CaDiCaL, see [`sat`]), from the cells line logic
//! and probing fixed at the root and what line logic derives there from
//! each value of each other cell: it learns from dead ends, so the
//! tournaments' hardest puzzles take seconds, not minutes.
//!
//! Puzzles up to 64×64 run on `u64` lines, bigger ones (up to
//! [`MAX_CELLS`] a side) on `bitvec` lines; [`Solver`] picks. It keeps
//! compiled clues and buffers between calls, so that a census (every 5×5
//! grid) costs well under a microsecond per puzzle on most grids. A
//! [`Budget`] stops a search that runs too long.

mod bits;
mod line;
pub mod sat;
pub mod search;

use bits::Bits;
pub use line::{dp_line, DpScratch, LineBits, WideLine};
use search::{Grid, Search};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Instant;

/// Most rows or columns the solver takes.
pub const MAX_CELLS: usize = line::WIDE_CELLS;

/// By default, search probes every unknown cell at every node of puzzles
/// with more cells than this (see [`Solver::set_probe_above`]).
pub const PROBE_ABOVE: usize = 64;

/// Line logic's verdict on a whole puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineOutcome {
    /// Every cell fixed.
    Solved,
    /// A line has no option left: no solution.
    Contradiction,
    /// Line logic fixed all it can; some cells are unknown.
    Stalled,
}

/// Line logic's result: the outcome and the cells (row-major, `None` = unknown).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineResult {
    pub outcome: LineOutcome,
    pub cells: Vec<Option<bool>>,
    /// For a contradiction: the line (rows first, then columns) that emptied.
    pub contradiction_line: Option<usize>,
}

/// Solutions found, up to the limit asked for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Solutions {
    /// min(number of solutions, limit), or as many as were found before the
    /// budget ran out.
    pub count: usize,
    /// The first two solutions found (row-major).
    pub first: Option<Vec<bool>>,
    pub second: Option<Vec<bool>>,
    /// Search nodes (line-logic fixpoints) visited.
    pub nodes: u64,
    /// The budget ran out before the search decided.
    pub gave_up: bool,
    /// The cells known before the first guess (line logic, then probing).
    pub fixed: Vec<Option<bool>>,
    /// The search was handed to the SAT solver (see [`sat`]).
    pub by_sat: bool,
}

/// When a search gives up, and whom it tells how far it is.
#[derive(Clone, Default)]
pub struct Budget {
    /// Give up at this instant.
    pub deadline: Option<Instant>,
    /// Give up when this becomes true (Ctrl-C).
    pub stop: Option<Arc<AtomicBool>>,
    /// Called now and then with the nodes searched so far.
    pub progress: Option<Arc<dyn Fn(u64) + Send + Sync>>,
}

/// A reusable solver: compiled clues are cached by (clue, length), and the
/// search's buffers are kept between calls.
#[derive(Default)]
pub struct Solver {
    narrow: Search<Bits<u64>>,
    wide: Search<Bits<WideLine>>,
}

/// Runs `$call` on the search whose line type holds the puzzle.
macro_rules! on_core {
    ($self:ident, $rows:expr, $columns:expr, $core:ident => $call:expr) => {
        if $rows.len() <= 64 && $columns.len() <= 64 {
            let $core = &mut $self.narrow;
            $call
        } else {
            let $core = &mut $self.wide;
            $call
        }
    };
}

impl Solver {
    pub fn new() -> Solver {
        Solver::default()
    }

    /// Search probes (tries each unknown cell both ways with line logic) in
    /// puzzles with more than `cells` cells; `usize::MAX` never probes, 0 always.
    pub fn set_probe_above(&mut self, cells: usize) {
        self.narrow.probe_above = cells;
        self.wide.probe_above = cells;
    }

    /// Hands a search for one or two solutions to the SAT solver after
    /// `nodes` search nodes (default [`sat::SAT_AFTER_NODES`]; 0 at once,
    /// `u64::MAX` never).
    pub fn set_sat_after(&mut self, nodes: u64) {
        self.narrow.sat_after = nodes;
        self.wide.sat_after = nodes;
    }

    /// Bounds every later search.
    pub fn set_budget(&mut self, budget: Budget) {
        self.narrow.budget = budget.clone();
        self.wide.budget = budget;
    }

    /// Line logic alone (what the board does), from scratch.
    pub fn line_solve(&mut self, rows: &[Vec<usize>], columns: &[Vec<usize>]) -> LineResult {
        on_core!(self, rows, columns, core => line_solve_on(core, rows, columns))
    }

    /// Counts solutions up to `limit` (at least 1).
    pub fn count_solutions(
        &mut self,
        rows: &[Vec<usize>],
        columns: &[Vec<usize>],
        limit: usize,
    ) -> Solutions {
        self.count_from(rows, columns, None, limit)
    }

    /// Counts solutions up to `limit`, starting from known cells (row-major,
    /// `None` = unknown): for example a board's stalled result. The known
    /// cells are taken as given.
    pub fn count_from(
        &mut self,
        rows: &[Vec<usize>],
        columns: &[Vec<usize>],
        partial: Option<&[Option<bool>]>,
        limit: usize,
    ) -> Solutions {
        on_core!(self, rows, columns, core => count_on(core, rows, columns, partial, limit))
    }
}

fn line_solve_on<L: LineBits>(
    core: &mut Search<Bits<L>>,
    rows: &[Vec<usize>],
    columns: &[Vec<usize>],
) -> LineResult {
    core.grid.load(rows, columns);
    core.root();
    let logic = core.line_logic();
    let cells = core.grid.cells(core.root_state());
    let outcome = match logic {
        Err(_) => LineOutcome::Contradiction,
        Ok(()) if cells.iter().all(Option::is_some) => LineOutcome::Solved,
        Ok(()) => LineOutcome::Stalled,
    };
    LineResult {
        outcome,
        cells,
        contradiction_line: logic.err(),
    }
}

fn count_on<L: LineBits>(
    core: &mut Search<Bits<L>>,
    rows: &[Vec<usize>],
    columns: &[Vec<usize>],
    partial: Option<&[Option<bool>]>,
    limit: usize,
) -> Solutions {
    core.grid.load(rows, columns);
    let (grid, root) = core.root();
    let w = columns.len();
    for (i, cell) in partial
        .unwrap_or_default()
        .iter()
        .enumerate()
        .take(rows.len() * w)
    {
        if let Some(filled) = cell {
            grid.set(root, i / w, i % w, *filled);
        }
    }
    let found = core.count(limit);
    Solutions {
        count: found.count,
        first: found.first,
        second: found.second,
        nodes: found.nodes,
        gave_up: found.gave_up,
        fixed: core.grid.cells(core.root_state()),
        by_sat: found.by_sat,
    }
}

/// Line logic alone on a puzzle (see [`Solver::line_solve`]).
pub fn line_solve(rows: &[Vec<usize>], columns: &[Vec<usize>]) -> LineResult {
    Solver::new().line_solve(rows, columns)
}

/// Number of solutions, up to `limit` (0, 1, …, limit): `limit` 2 tells
/// none / unique / several. For many calls, keep a [`Solver`] instead.
pub fn count_solutions(rows: &[Vec<usize>], columns: &[Vec<usize>], limit: usize) -> usize {
    Solver::new().count_solutions(rows, columns, limit).count
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn rng(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    /// Every 3×3 and 4×4 grid: count_solutions matches brute force.
    #[test]
    fn counts_match_brute_force_on_small_grids() {
        for (h, w) in [(3usize, 3usize), (3, 4)] {
            let cells = h * w;
            type Clues = (Vec<Vec<usize>>, Vec<Vec<usize>>);
            let mut by_clues: HashMap<Clues, usize> = HashMap::new();
            for g in 0..1u64 << cells {
                let pic: Vec<bool> = (0..cells).map(|i| g >> i & 1 == 1).collect();
                *by_clues
                    .entry(nonogram_hdl::dnf::model::clues_of_picture(h, w, &pic))
                    .or_default() += 1;
            }
            let mut solver = Solver::new();
            let mut probing = Solver::new();
            probing.set_probe_above(0);
            for ((rows, cols), n) in &by_clues {
                let got = solver.count_solutions(rows, cols, 100);
                assert_eq!(got.count, *n, "{rows:?} {cols:?}");
                let probed = probing.count_solutions(rows, cols, 100);
                assert_eq!(probed.count, *n, "probing {rows:?} {cols:?}");
                let first = got.first.unwrap();
                let (r2, c2) = nonogram_hdl::dnf::model::clues_of_picture(h, w, &first);
                assert_eq!((&r2, &c2), (rows, cols));
                assert_eq!(solver.count_solutions(rows, cols, 2).count, (*n).min(2));
            }
        }
    }

    /// Probing changes the speed, not the answer, on puzzles too big for brute force.
    #[test]
    fn probing_agrees_with_plain_search() {
        let mut seed = 0x5eed_u64;
        let (mut plain, mut probing) = (Solver::new(), Solver::new());
        plain.set_probe_above(usize::MAX);
        probing.set_probe_above(0);
        for _ in 0..150 {
            let h = (rng(&mut seed) % 4 + 6) as usize;
            let w = (rng(&mut seed) % 4 + 6) as usize;
            let pic: Vec<bool> = (0..h * w).map(|_| rng(&mut seed).is_multiple_of(2)).collect();
            let (rows, cols) = nonogram_hdl::dnf::model::clues_of_picture(h, w, &pic);
            let a = plain.count_solutions(&rows, &cols, 3);
            let b = probing.count_solutions(&rows, &cols, 3);
            assert_eq!(a.count, b.count, "{rows:?} {cols:?}");
            assert!(a.count >= 1);
            for first in [a.first, b.first] {
                let (r2, c2) = nonogram_hdl::dnf::model::clues_of_picture(h, w, &first.unwrap());
                assert_eq!((r2, c2), (rows.clone(), cols.clone()));
            }
        }
    }

    /// Handing the search to the SAT solver at once or never: the same
    /// counts, and solutions that meet the clues.
    #[test]
    fn the_sat_hand_over_agrees_with_search() {
        let mut seed = 0x5a7_u64;
        let (mut search, mut sat) = (Solver::new(), Solver::new());
        search.set_sat_after(u64::MAX);
        let mut handed_over = 0;
        for i in 0..150 {
            // At once, or after the root's line logic and probing (whose
            // cells the formula then starts from).
            sat.set_sat_after(i % 2);
            let h = (rng(&mut seed) % 6 + 4) as usize;
            let w = (rng(&mut seed) % 6 + 4) as usize;
            let pic: Vec<bool> = (0..h * w).map(|_| rng(&mut seed) % 5 < 2).collect();
            let (rows, cols) = nonogram_hdl::dnf::model::clues_of_picture(h, w, &pic);
            for limit in [1, 2] {
                let a = search.count_solutions(&rows, &cols, limit);
                let b = sat.count_solutions(&rows, &cols, limit);
                assert_eq!(a.count, b.count, "{rows:?} {cols:?}");
                assert!(!a.by_sat && !b.gave_up);
                handed_over += b.by_sat as usize;
                for first in [b.first, b.second].into_iter().flatten() {
                    let (r2, c2) = nonogram_hdl::dnf::model::clues_of_picture(h, w, &first);
                    assert_eq!((r2, c2), (rows.clone(), cols.clone()));
                }
            }
        }
        assert!(handed_over > 100, "{handed_over} searches went to the SAT solver");
    }

    #[test]
    fn line_logic_matches_the_model() {
        let mut seed = 0xfeed_beef_u64;
        let mut solver = Solver::new();
        for _ in 0..300 {
            let h = (rng(&mut seed) % 9 + 1) as usize;
            let w = (rng(&mut seed) % 9 + 1) as usize;
            let pic: Vec<bool> = (0..h * w).map(|_| rng(&mut seed) % 5 < 3).collect();
            let (rows, cols) = nonogram_hdl::dnf::model::clues_of_picture(h, w, &pic);
            let model = nonogram_hdl::dnf::model::solve_clues(&rows, &cols);
            let mine = solver.line_solve(&rows, &cols);
            assert_eq!(mine.cells, model.cells, "{rows:?} {cols:?}");
            let model_outcome = match model.outcome {
                0 => LineOutcome::Solved,
                1 => LineOutcome::Contradiction,
                _ => LineOutcome::Stalled,
            };
            assert_eq!(mine.outcome, model_outcome);
        }
    }

    #[test]
    fn no_solution_and_several() {
        // Row 0 full, column 0 empty.
        assert_eq!(count_solutions(&[vec![2], vec![]], &[vec![], vec![1]], 2), 0);
        // The two diagonals.
        assert_eq!(count_solutions(&[vec![1], vec![1]], &[vec![1], vec![1]], 2), 2);
        assert_eq!(count_solutions(&[vec![1], vec![1]], &[vec![1], vec![1]], 5), 2);
        let r = line_solve(&[vec![2], vec![]], &[vec![], vec![1]]);
        assert_eq!(r.outcome, LineOutcome::Contradiction);
    }

    #[test]
    fn finishes_from_a_partial_board() {
        let clue = vec![vec![1], vec![1]];
        let partial = [Some(true), None, None, None];
        let s = Solver::new().count_from(&clue, &clue, Some(&partial), 2);
        assert_eq!(s.count, 1);
        assert_eq!(s.first, Some(vec![true, false, false, true]));
    }
}
