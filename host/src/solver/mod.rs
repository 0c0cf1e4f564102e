//! The software solver: line logic plus search.
//!
//! Line logic is the same as the board's (and `nonogram_hdl::dnf::model`'s): a
//! line fixes every cell on which all its fills that agree with the known
//! cells agree (see [`line`]). Search branches on an unknown cell of the line
//! with the fewest unknown cells, and counts solutions up to a limit, keeping
//! the first two; in puzzles over 64 cells it first probes every unknown cell
//! both ways (a value line logic refutes fixes the other; cells both tries
//! agree on are fixed), which takes random 30×30 grids from minutes to a
//! fraction of a second. Line solutions are cached: probing asks the same
//! line questions many times. A search that takes more than
//! [`sat::SAT_AFTER_NODES`] nodes while looking for one or two solutions is
//! handed to a SAT solver (CaDiCaL, see [`sat`]), from the cells line logic
//! and probing fixed at the root: it learns from dead ends, so the
//! tournaments' hardest puzzles take seconds, not minutes.
//!
//! Puzzles up to 64×64 run on `u64` lines, bigger ones (up to
//! [`MAX_CELLS`] a side) on `bitvec` lines; [`Solver`] picks. It keeps
//! compiled clues and buffers between calls, so that a census (every 5×5
//! grid) costs well under a microsecond per puzzle on most grids. A
//! [`Budget`] stops a search that runs too long.

mod line;
pub mod sat;

use line::LineKind;
pub use line::{dp_line, DpScratch, LineBits, WideLine};
use rustc_hash::FxHashMap;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
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

impl Budget {
    fn is_set(&self) -> bool {
        self.deadline.is_some() || self.stop.is_some() || self.progress.is_some()
    }
}

/// Lines waiting for a visit, lowest first.
#[derive(Clone, Debug, Default)]
struct LineSet {
    words: Vec<u64>,
}

impl LineSet {
    fn reset(&mut self, lines: usize) {
        self.words.clear();
        self.words.resize(lines.div_ceil(64), 0);
    }
    fn insert(&mut self, line: usize) {
        self.words[line / 64] |= 1 << (line % 64);
    }
    fn insert_all(&mut self, lines: usize) {
        (0..lines).for_each(|l| self.insert(l));
    }
    fn clear(&mut self) {
        self.words.iter_mut().for_each(|w| *w = 0);
    }
    fn pop(&mut self) -> Option<usize> {
        let (i, w) = self.words.iter_mut().enumerate().find(|(_, w)| **w != 0)?;
        let bit = w.trailing_zeros() as usize;
        *w &= *w - 1;
        Some(i * 64 + bit)
    }
}

/// Outcome of propagating line logic on one state.
enum Fix {
    Done,
    Contradiction(usize),
}

/// The solver for one line type.
struct Core<L> {
    /// Probe in puzzles with more cells than this.
    probe_above: usize,
    kinds: Vec<LineKind<L>>,
    index: HashMap<Vec<usize>, usize>,
    key: Vec<usize>,
    /// Kind of each line of the current puzzle (rows, then columns).
    lines: Vec<usize>,
    height: usize,
    width: usize,
    /// Search states, one per depth: known rows, value rows, known columns, value columns.
    stack: Vec<Vec<L>>,
    nodes: u64,
    dirty: LineSet,
    scratch: DpScratch,
    budget: Budget,
    ticks: u64,
    stopped: bool,
    /// Cells to probe again: their row or column changed since their last
    /// probe at this node.
    stale: Vec<bool>,
    /// The branch the last probing chose: the cell whose two tries fixed
    /// the most cells (the product of the two counts, each plus one), and the value that
    /// fixed more.
    branch: Option<(usize, usize, bool)>,
    /// Line solutions already computed: (line kind, known, value) to what
    /// the line solver said. Probing asks the same questions again and
    /// again (a cell's two probes reach many of the same line states, and
    /// so do its neighbours'); a look-up is several times faster than the
    /// dynamic programme.
    solved_lines: FxHashMap<(usize, L, L), Option<(L, L)>>,
    /// Nodes a search for one or two solutions may take before it hands
    /// the puzzle to the SAT solver.
    sat_after: u64,
    /// This search's cap: `sat_after`, or none when counting further.
    /// Passed, the search unwinds as if stopped and the SAT solver takes
    /// over.
    node_cap: u64,
}

/// Entries the line cache keeps before it starts afresh (a few tens of MB).
const LINE_CACHE_ENTRIES: usize = 1 << 20;

impl<L: LineBits> Default for Core<L> {
    fn default() -> Self {
        Core {
            probe_above: PROBE_ABOVE,
            kinds: Vec::new(),
            index: HashMap::new(),
            key: Vec::new(),
            lines: Vec::new(),
            height: 0,
            width: 0,
            stack: Vec::new(),
            nodes: 0,
            dirty: LineSet::default(),
            scratch: DpScratch::default(),
            budget: Budget::default(),
            ticks: 0,
            stopped: false,
            stale: Vec::new(),
            branch: None,
            solved_lines: FxHashMap::default(),
            sat_after: sat::SAT_AFTER_NODES,
            node_cap: u64::MAX,
        }
    }
}

/// A reusable solver: compiled clues are cached by (clue, length), and the
/// search's buffers are kept between calls.
#[derive(Default)]
pub struct Solver {
    narrow: Core<u64>,
    wide: Core<WideLine>,
}

/// Runs `$call` on the core whose line type holds the puzzle.
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
        on_core!(self, rows, columns, core => core.line_solve(rows, columns))
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
        on_core!(self, rows, columns, core => core.count_from(rows, columns, partial, limit))
    }
}

impl<L: LineBits> Core<L> {
    fn kind(&mut self, clue: &[usize], length: usize) -> usize {
        self.key.clear();
        self.key.push(length);
        self.key.extend(clue.iter().filter(|&&b| b > 0));
        if let Some(&i) = self.index.get(self.key.as_slice()) {
            return i;
        }
        self.kinds.push(LineKind::new(clue, length));
        self.index.insert(self.key.clone(), self.kinds.len() - 1);
        self.kinds.len() - 1
    }

    fn load(&mut self, rows: &[Vec<usize>], columns: &[Vec<usize>]) {
        assert!(
            rows.len() <= L::CELLS && columns.len() <= L::CELLS,
            "the solver takes at most {} rows and columns",
            L::CELLS
        );
        if self.kinds.len() > 100_000 {
            self.kinds.clear();
            self.index.clear();
            self.solved_lines.clear();
        }
        self.height = rows.len();
        self.width = columns.len();
        self.lines.clear();
        for clue in rows {
            let k = self.kind(clue, columns.len());
            self.lines.push(k);
        }
        for clue in columns {
            let k = self.kind(clue, rows.len());
            self.lines.push(k);
        }
        self.dirty.reset(rows.len() + columns.len());
        self.nodes = 0;
        self.ticks = 0;
        self.stopped = false;
    }

    /// Whether the budget has run out; looks at the clock every 32 calls.
    fn out_of_budget(&mut self) -> bool {
        if self.stopped || !self.budget.is_set() {
            return self.stopped;
        }
        self.ticks += 1;
        if self.ticks % 32 != 0 {
            return false;
        }
        if let Some(progress) = &self.budget.progress {
            progress(self.nodes);
        }
        self.stopped = self
            .budget
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
            || self.budget.deadline.is_some_and(|d| Instant::now() >= d);
        self.stopped
    }

    /// Makes sure state `depth` exists and returns it zeroed, or copied from `depth - 1`.
    fn prepare(&mut self, depth: usize, copy: bool) {
        if copy {
            self.prepare_from(depth - 1, depth);
        } else {
            while self.stack.len() <= depth {
                self.stack.push(Vec::new());
            }
            let len = 2 * (self.height + self.width);
            let s = &mut self.stack[depth];
            s.clear();
            s.resize(len, L::default());
        }
    }

    /// Copies state `from` into state `into` (> from).
    fn prepare_from(&mut self, from: usize, into: usize) {
        while self.stack.len() <= into {
            self.stack.push(Vec::new());
        }
        let (lo, hi) = self.stack.split_at_mut(into);
        hi[0].clear();
        hi[0].extend_from_slice(&lo[from]);
    }

    /// Sets cell (r, c) in state `depth`.
    fn set(&mut self, depth: usize, r: usize, c: usize, filled: bool) {
        let (h, w) = (self.height, self.width);
        let s = &mut self.stack[depth];
        s[r].set(c);
        s[2 * h + c].set(r);
        if filled {
            s[h + r].set(c);
            s[2 * h + w + c].set(r);
        }
    }

    /// Line logic to a fixpoint on state `depth`, from the lines in `dirty`
    /// (left empty).
    fn propagate(&mut self, depth: usize) -> Fix {
        let (h, w) = (self.height, self.width);
        let Core {
            stack,
            kinds,
            lines,
            dirty,
            scratch,
            solved_lines,
            ..
        } = self;
        let s = &mut stack[depth];
        while let Some(line) = dirty.pop() {
            // This line's known and value words, the crossing lines' words,
            // this line's index in them, and the crossing lines' numbers.
            let (ko, vo, cross_k, cross_v, idx, cross_base) = if line < h {
                (line, h + line, 2 * h, 2 * h + w, line, h)
            } else {
                let c = line - h;
                (2 * h + c, 2 * h + w + c, 0, h, c, 0)
            };
            let (known, value) = (s[ko], s[vo]);
            if solved_lines.len() >= LINE_CACHE_ENTRIES {
                solved_lines.clear();
            }
            let kind = lines[line];
            let solved = *solved_lines
                .entry((kind, known, value))
                .or_insert_with(|| kinds[kind].solve(known, value, scratch));
            let Some((must_fill, must_empty)) = solved else {
                dirty.clear();
                return Fix::Contradiction(line);
            };
            let mut new = (must_fill | must_empty) & !known;
            if new.is_empty() {
                continue;
            }
            s[ko] |= new;
            s[vo] |= must_fill & new;
            while let Some(i) = new.first_one() {
                new.clear(i);
                s[cross_k + i].set(idx);
                if must_fill.get(i) {
                    s[cross_v + i].set(idx);
                }
                dirty.insert(cross_base + i);
            }
        }
        Fix::Done
    }

    fn cells(&self, depth: usize) -> Vec<Option<bool>> {
        let (h, w) = (self.height, self.width);
        let s = &self.stack[depth];
        (0..h * w)
            .map(|i| {
                let (r, c) = (i / w, i % w);
                s[r].get(c).then_some(s[h + r].get(c))
            })
            .collect()
    }

    fn load_partial(&mut self, partial: Option<&[Option<bool>]>) {
        self.prepare(0, false);
        if let Some(cells) = partial {
            let w = self.width;
            for (i, c) in cells.iter().enumerate().take(self.height * w) {
                if let Some(v) = c {
                    self.set(0, i / w, i % w, *v);
                }
            }
        }
    }

    fn line_solve(&mut self, rows: &[Vec<usize>], columns: &[Vec<usize>]) -> LineResult {
        self.load(rows, columns);
        self.load_partial(None);
        self.dirty.insert_all(self.height + self.width);
        let fix = self.propagate(0);
        let cells = self.cells(0);
        match fix {
            Fix::Contradiction(line) => LineResult {
                outcome: LineOutcome::Contradiction,
                cells,
                contradiction_line: Some(line),
            },
            Fix::Done => LineResult {
                outcome: if cells.iter().all(Option::is_some) {
                    LineOutcome::Solved
                } else {
                    LineOutcome::Stalled
                },
                cells,
                contradiction_line: None,
            },
        }
    }

    fn count_from(
        &mut self,
        rows: &[Vec<usize>],
        columns: &[Vec<usize>],
        partial: Option<&[Option<bool>]>,
        limit: usize,
    ) -> Solutions {
        self.load(rows, columns);
        self.load_partial(partial);
        self.dirty.insert_all(self.height + self.width);
        let mut found = Solutions::default();
        // The SAT solver stops at two solutions; counting more stays here.
        self.node_cap = if limit <= 2 { self.sat_after } else { u64::MAX };
        self.search(0, limit.max(1), &mut found);
        found.nodes = self.nodes;
        found.fixed = self.cells(0);
        if self.nodes > self.node_cap {
            let (solutions, stopped) = sat::solve(rows, columns, &found.fixed, limit.max(1), &self.budget);
            let mut solutions = solutions.into_iter();
            found.first = solutions.next();
            found.second = solutions.next();
            found.count = found.first.iter().chain(&found.second).count();
            found.by_sat = true;
            self.stopped = stopped;
        }
        found.gave_up = self.stopped;
        found
    }

    /// Tries `value` at (r, c) on a copy of state `depth` put in `into`;
    /// whether line logic survives it.
    fn try_value(&mut self, depth: usize, into: usize, r: usize, c: usize, value: bool) -> bool {
        self.prepare_from(depth, into);
        self.set(into, r, c, value);
        self.dirty.insert(r);
        self.dirty.insert(self.height + c);
        matches!(self.propagate(into), Fix::Done)
    }

    /// Fixes (r, c) to `value` in state `depth` for good: its lines are
    /// dirty, and every cell of them is to be probed again.
    fn fix(&mut self, depth: usize, r: usize, c: usize, value: bool) {
        let (h, w) = (self.height, self.width);
        self.set(depth, r, c, value);
        self.dirty.insert(r);
        self.dirty.insert(h + c);
        self.stale[r * w..(r + 1) * w].iter_mut().for_each(|s| *s = true);
        (0..h).for_each(|row| self.stale[row * w + c] = true);
    }

    /// Before probing at `depth`: every cell is stale at the root; below
    /// it, the parent's probe results stand except in the lines the guess
    /// and its line logic changed.
    fn mark_stale(&mut self, depth: usize) {
        let (h, w) = (self.height, self.width);
        if depth == 0 || self.stale.len() != h * w {
            self.stale.clear();
            self.stale.resize(h * w, true);
            return;
        }
        for r in (0..h).filter(|&r| self.stack[depth][r] != self.stack[depth - 1][r]) {
            self.stale[r * w..(r + 1) * w].iter_mut().for_each(|s| *s = true);
        }
        for c in (0..w).filter(|&c| self.stack[depth][2 * h + c] != self.stack[depth - 1][2 * h + c]) {
            (0..h).for_each(|row| self.stale[row * w + c] = true);
        }
    }

    /// Known cells in state `depth`.
    fn known_count(&self, depth: usize) -> usize {
        self.stack[depth][..self.height]
            .iter()
            .map(|k| k.count_ones())
            .sum()
    }

    /// Probing: every unknown cell is tried both ways with line logic; a
    /// value that fails fixes the other, and cells on which both tries agree
    /// are fixed. Rounds repeat until one fixes nothing; a cell is tried
    /// again only when its row or column changed since its last try (the
    /// strongest tournament solvers skip the others too). Leaves in
    /// `branch` the cell whose tries fixed the most. `false` on a
    /// contradiction; `true` also when the budget runs out.
    fn probe(&mut self, depth: usize) -> bool {
        let (h, w) = (self.height, self.width);
        let mut best: Option<(usize, usize, usize, bool)> = None;
        loop {
            let mut changed = false;
            for r in 0..h {
                for c in 0..w {
                    if self.stack[depth][r].get(c) || !self.stale[r * w + c] {
                        continue;
                    }
                    if self.out_of_budget() {
                        return true;
                    }
                    self.stale[r * w + c] = false;
                    let filled = self.try_value(depth, depth + 1, r, c, true);
                    let empty = self.try_value(depth, depth + 2, r, c, false);
                    let mut fixed = false;
                    match (filled, empty) {
                        (false, false) => return false,
                        (true, true) => {
                            let before = self.known_count(depth);
                            let gains = (
                                self.known_count(depth + 1) - before,
                                self.known_count(depth + 2) - before,
                            );
                            // Both values should fix much: the product
                            // prefers (20, 20) to (21, 1). On icga2016's
                            // puzzles 401-500 it took half the time of
                            // Wu et al.'s smaller-of-the-two.
                            let score = (gains.0 + 1) * (gains.1 + 1);
                            if best.is_none_or(|b| score > b.0) {
                                best = Some((score, r, c, gains.0 >= gains.1));
                            }
                            // Cells both tries fixed alike.
                            for row in 0..h {
                                let (k1, v1) = (self.stack[depth + 1][row], self.stack[depth + 1][h + row]);
                                let (k2, v2) = (self.stack[depth + 2][row], self.stack[depth + 2][h + row]);
                                let mut new = k1 & k2 & !(v1 ^ v2) & !self.stack[depth][row];
                                while let Some(col) = new.first_one() {
                                    new.clear(col);
                                    self.fix(depth, row, col, v1.get(col));
                                    fixed = true;
                                }
                            }
                        }
                        (only_filled, _) => {
                            self.fix(depth, r, c, only_filled);
                            fixed = true;
                        }
                    }
                    if fixed {
                        changed = true;
                        if let Fix::Contradiction(_) = self.propagate(depth) {
                            return false;
                        }
                    }
                }
            }
            if !changed {
                self.branch = best.map(|(_, r, c, v)| (r, c, v));
                return true;
            }
        }
    }

    /// One search node: state `depth` with the lines in `dirty` to visit.
    fn search(&mut self, depth: usize, limit: usize, found: &mut Solutions) {
        self.nodes += 1;
        if self.nodes > self.node_cap {
            self.stopped = true;
        }
        if self.out_of_budget() {
            self.dirty.clear();
            return;
        }
        if let Fix::Contradiction(_) = self.propagate(depth) {
            return;
        }
        // Probing pays off on all but small puzzles (a 5x5 census runs faster without).
        self.branch = None;
        if self.height * self.width > self.probe_above {
            self.mark_stale(depth);
            if !self.probe(depth) {
                return;
            }
        }
        if self.stopped {
            return;
        }
        let (h, w) = (self.height, self.width);
        // The line with the fewest unknown cells (> 0).
        let mut best: Option<(usize, usize)> = None;
        {
            let s = &self.stack[depth];
            let lines = (0..h)
                .map(|r| (r, s[r], w))
                .chain((0..w).map(|c| (h + c, s[2 * h + c], h)));
            for (line, known, length) in lines {
                let unknown = (!known & L::ones(length)).count_ones();
                if unknown > 0 && best.is_none_or(|(u, _)| unknown < u) {
                    best = Some((unknown, line));
                }
            }
        }
        let Some((_, line)) = best else {
            found.count += 1;
            let solution = Some(self.cells(depth).into_iter().map(|c| c == Some(true)).collect());
            if found.first.is_none() {
                found.first = solution;
            } else if found.second.is_none() {
                found.second = solution;
            }
            return;
        };
        let (r, c, first) = match self.branch.filter(|&(r, c, _)| !self.stack[depth][r].get(c)) {
            // The probes' choice; else the first unknown cell of that line.
            Some(chosen) => chosen,
            None => {
                let s = &self.stack[depth];
                let first_unknown =
                    |known: L, length: usize| (!known & L::ones(length)).first_one().unwrap_or(0);
                if line < h {
                    (line, first_unknown(s[line], w), true)
                } else {
                    let c = line - h;
                    (first_unknown(s[2 * h + c], h), c, true)
                }
            }
        };
        // Both branches start from this node's probe results.
        let stale = self.stale.clone();
        for value in [first, !first] {
            if found.count >= limit || self.stopped {
                return;
            }
            self.stale.clone_from(&stale);
            self.prepare(depth + 1, true);
            self.set(depth + 1, r, c, value);
            self.dirty.insert(r);
            self.dirty.insert(h + c);
            self.search(depth + 1, limit, found);
        }
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
