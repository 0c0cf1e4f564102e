//! Probing and depth-first search, written once for every kind of cell.
//!
//! A kind of cell ([`Grid`]) brings its line logic, its search state (each
//! cell's possible values) and the SAT formula of its clues; this module
//! brings the rest, the same for black and white ([`super::bits`], lines as
//! bit words) and colour ([`crate::colour::search`], a bit set of colours
//! per cell):
//! * **line logic** to a fixpoint from the dirty lines, lowest first;
//! * **probing** (in puzzles over [`Search::probe_above`] cells): every
//!   unknown cell is tried with each of its values. A value line logic
//!   refutes is ruled out; when two or more survive, each cell keeps only
//!   what some surviving try left it (for black and white: cells both tries
//!   fix alike are fixed). Rounds repeat until one changes nothing; a cell
//!   is tried again only when its row or column changed since its last try;
//! * **branching** on the cell whose tries scored best (the product of each
//!   try's newly known cells plus one: (20, 20) beats (21, 1)), its best
//!   try's value first, then the cell without that value; without a score,
//!   the first unknown cell of the line with the fewest;
//! * counting solutions up to a limit, keeping the first two, within a
//!   [`Budget`]; a search for one or two that passes [`Search::sat_after`]
//!   nodes unwinds and goes to the SAT solver ([`super::sat`]) from the
//!   root's cells, with what one more try of each value of each
//!   undecided root cell showed ([`Implied`]).
//!
//! Search states live on a stack, one per depth; a node's tries use the
//! states above it, so the stack is the trail and undoing is free.

use super::Budget;
use std::sync::atomic::Ordering;
use std::time::Instant;

/// A kind of cell and a loaded puzzle: what [`Search`] needs of them.
/// Cells are (row, column); lines are the rows, then the columns.
pub trait Grid {
    /// Every cell's possible values.
    type State: Clone + Default;
    /// One value of a cell.
    type Value: Copy + PartialEq;
    /// A solution as the caller reports it.
    type Solution: Default;

    fn height(&self) -> usize;
    fn width(&self) -> usize;
    /// Makes `state` the loaded puzzle's with every value possible.
    fn open(&self, state: &mut Self::State);
    /// Line logic on `line`: narrows its cells and puts the crossing lines
    /// of those it changed in `dirty`; false when no fill of the line is left.
    fn revise(&mut self, state: &mut Self::State, line: usize, dirty: &mut LineSet) -> bool;
    fn decided(&self, state: &Self::State, r: usize, c: usize) -> bool;
    /// Cells with one value left.
    fn known(&self, state: &Self::State) -> usize;
    /// How many cells of `line` are undecided, and the first one's place.
    fn unknowns(&self, state: &Self::State, line: usize) -> (usize, usize);
    /// Whether `line`'s cells differ between two states.
    fn line_differs(&self, a: &Self::State, b: &Self::State, line: usize) -> bool;
    /// The values cell (r, c) may still take, in the order they are tried.
    fn values(&self, state: &Self::State, r: usize, c: usize, into: &mut Vec<Self::Value>);
    fn set(&self, state: &mut Self::State, r: usize, c: usize, value: Self::Value);
    fn rule_out(&self, state: &mut Self::State, r: usize, c: usize, value: Self::Value);
    /// Narrows `state` to what some of `tries` (copies of it, each with a
    /// value tried) allow, calling `changed` with each cell it narrows.
    fn join(&self, state: &mut Self::State, tries: &[Self::State], changed: impl FnMut(usize, usize));
    fn solution(&self, state: &Self::State) -> Self::Solution;
    /// Whether the SAT solver takes this puzzle's clues.
    fn sat_able(&self) -> bool;
    /// What a try at the root showed: `after` is `root` with `cell`'s
    /// value tried and line logic run; each cell it decided that `root`
    /// had not goes in `into`. None by default (the SAT solver then starts
    /// from the root's cells alone).
    fn implied(
        &self,
        _root: &Self::State,
        _after: &Self::State,
        _cell: (usize, usize, Self::Value),
        _into: &mut Vec<Implied<Self::Value>>,
    ) {
    }
    /// Up to `limit` solutions by the SAT solver from `root`'s cells and
    /// the root tries' `implied`, and whether the budget stopped it.
    fn by_sat(
        &self,
        root: &Self::State,
        implied: &[Implied<Self::Value>],
        limit: usize,
        budget: &Budget,
    ) -> (Vec<Self::Solution>, bool);
}

/// A try's consequence at the root: cell `cell` (row-major) with value
/// `value` leaves cell `then_cell` with value `then` only, by line logic.
/// The formula the SAT solver gets does not always see it by unit
/// propagation (line logic takes every fill of a line into account, the
/// formula's clauses a block at a time), so it gets it as a clause.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Implied<V> {
    pub cell: usize,
    pub value: V,
    pub then_cell: usize,
    pub then: V,
}

/// Lines waiting for a visit, lowest first.
#[derive(Clone, Debug, Default)]
pub struct LineSet {
    words: Vec<u64>,
}

impl LineSet {
    fn reset(&mut self, lines: usize) {
        self.words.clear();
        self.words.resize(lines.div_ceil(64), 0);
    }
    pub fn insert(&mut self, line: usize) {
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

/// What a search found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally<S> {
    /// min(solutions, limit), or as many as were found before giving up.
    pub count: usize,
    /// The first two solutions found.
    pub first: Option<S>,
    pub second: Option<S>,
    /// Search nodes (line-logic fixpoints) visited.
    pub nodes: u64,
    /// The budget ran out before the search decided.
    pub gave_up: bool,
    /// The search was handed to the SAT solver.
    pub by_sat: bool,
}

impl<S> Tally<S> {
    fn record(&mut self, solution: S) {
        self.count += 1;
        if self.first.is_none() {
            self.first = Some(solution);
        } else if self.second.is_none() {
            self.second = Some(solution);
        }
    }
}

/// Probing and search over a [`Grid`]; keeps its buffers between puzzles.
pub struct Search<G: Grid> {
    pub grid: G,
    /// Probe in puzzles with more cells than this.
    pub probe_above: usize,
    /// Nodes a search for one or two solutions may take before it hands
    /// the puzzle to the SAT solver.
    pub sat_after: u64,
    pub budget: Budget,
    /// Search states, one per depth.
    stack: Vec<G::State>,
    dirty: LineSet,
    nodes: u64,
    ticks: u64,
    stopped: bool,
    /// This search's cap: `sat_after`, or none. Passed, the search unwinds
    /// as if stopped and the SAT solver takes over.
    node_cap: u64,
    /// Cells to probe again: their row or column changed since their last
    /// probe at this node.
    stale: Vec<bool>,
    /// The branch the last probing chose: the cell whose tries scored
    /// best, and the value that fixed the most.
    branch: Option<(usize, usize, G::Value)>,
    values: Vec<G::Value>,
    /// What tries at the root showed, for a hand-over.
    implied: Vec<Implied<G::Value>>,
}

impl<G: Grid + Default> Default for Search<G> {
    fn default() -> Self {
        Search::new(G::default(), super::PROBE_ABOVE, super::sat::SAT_AFTER_NODES)
    }
}

impl<G: Grid> Search<G> {
    pub fn new(grid: G, probe_above: usize, sat_after: u64) -> Self {
        Search {
            grid,
            probe_above,
            sat_after,
            budget: Budget::default(),
            stack: Vec::new(),
            dirty: LineSet::default(),
            nodes: 0,
            ticks: 0,
            stopped: false,
            node_cap: u64::MAX,
            stale: Vec::new(),
            branch: None,
            values: Vec::new(),
            implied: Vec::new(),
        }
    }

    /// Starts on the loaded puzzle: the root state with every value
    /// possible, to narrow before [`Search::line_logic`] or [`Search::count`].
    pub fn root(&mut self) -> (&G, &mut G::State) {
        self.dirty.reset(self.lines());
        self.nodes = 0;
        self.ticks = 0;
        self.stopped = false;
        if self.stack.is_empty() {
            self.stack.push(G::State::default());
        }
        self.grid.open(&mut self.stack[0]);
        (&self.grid, &mut self.stack[0])
    }

    /// The root state: after [`Search::count`], what line logic and probing
    /// fixed there.
    pub fn root_state(&self) -> &G::State {
        &self.stack[0]
    }

    fn lines(&self) -> usize {
        self.grid.height() + self.grid.width()
    }

    /// Line logic on the root from every line; `Err` names a line left
    /// without a fill.
    pub fn line_logic(&mut self) -> Result<(), usize> {
        self.dirty.insert_all(self.lines());
        self.propagate(0)
    }

    /// Counts solutions up to `limit` (at least 1) from the root.
    pub fn count(&mut self, limit: usize) -> Tally<G::Solution> {
        let limit = limit.max(1);
        let mut found = Tally::default();
        self.dirty.insert_all(self.lines());
        // The SAT solver stops at two solutions; counting more stays here.
        self.node_cap = if limit <= 2 && self.grid.sat_able() {
            self.sat_after
        } else {
            u64::MAX
        };
        self.node(0, limit, &mut found);
        found.nodes = self.nodes;
        if self.nodes > self.node_cap {
            self.root_implications();
            let (solutions, stopped) = self
                .grid
                .by_sat(&self.stack[0], &self.implied, limit, &self.budget);
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

    /// Before a hand-over: every value of every undecided cell of the root
    /// tried once more, and what line logic then decides kept in
    /// `implied` for the SAT solver: a probing round's work, once per
    /// hand-over. (Recording them during the root's probing instead cost
    /// the puzzles solved without the SAT solver, whose tries fix many
    /// cells, about a tenth of their time: median 10.0 → 11.5 ms on
    /// icga2016.)
    fn root_implications(&mut self) {
        self.implied.clear();
        let (h, w) = (self.grid.height(), self.grid.width());
        let mut values = std::mem::take(&mut self.values);
        for (r, c) in (0..h).flat_map(|r| (0..w).map(move |c| (r, c))) {
            if self.grid.decided(&self.stack[0], r, c) {
                continue;
            }
            self.grid.values(&self.stack[0], r, c, &mut values);
            for &value in &values {
                // A value line logic refutes here would have been ruled
                // out by the root's probing, unless the budget cut it short.
                if self.try_value(0, 1, r, c, value) {
                    let (root, after) = (&self.stack[0], &self.stack[1]);
                    self.grid.implied(root, after, (r, c, value), &mut self.implied);
                }
            }
        }
        self.values = values;
    }

    /// Whether the budget has run out; looks at the clock every 32 calls.
    fn out_of_budget(&mut self) -> bool {
        let budget = &self.budget;
        if self.stopped || (budget.deadline.is_none() && budget.stop.is_none() && budget.progress.is_none()) {
            return self.stopped;
        }
        self.ticks += 1;
        if !self.ticks.is_multiple_of(32) {
            return false;
        }
        if let Some(progress) = &budget.progress {
            progress(self.nodes);
        }
        self.stopped = budget.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed))
            || budget.deadline.is_some_and(|d| Instant::now() >= d);
        self.stopped
    }

    /// Copies state `from` into state `into` (> from).
    fn copy(&mut self, from: usize, into: usize) {
        while self.stack.len() <= into {
            self.stack.push(G::State::default());
        }
        let (lo, hi) = self.stack.split_at_mut(into);
        hi[0].clone_from(&lo[from]);
    }

    /// Line logic to a fixpoint on state `depth`, from the lines in `dirty`
    /// (left empty); `Err` names a line left without a fill.
    fn propagate(&mut self, depth: usize) -> Result<(), usize> {
        let state = &mut self.stack[depth];
        while let Some(line) = self.dirty.pop() {
            if !self.grid.revise(state, line, &mut self.dirty) {
                self.dirty.clear();
                return Err(line);
            }
        }
        Ok(())
    }

    /// Tries `value` at (r, c) on a copy of state `depth` put in `into`;
    /// whether line logic survives it.
    fn try_value(&mut self, depth: usize, into: usize, r: usize, c: usize, value: G::Value) -> bool {
        self.copy(depth, into);
        self.grid.set(&mut self.stack[into], r, c, value);
        self.dirty.insert(r);
        self.dirty.insert(self.grid.height() + c);
        self.propagate(into).is_ok()
    }

    /// Cell (r, c) changed for good: its lines are dirty, and every cell of
    /// them is to be probed again.
    fn touched(dirty: &mut LineSet, stale: &mut [bool], (h, w): (usize, usize), r: usize, c: usize) {
        dirty.insert(r);
        dirty.insert(h + c);
        stale_row(stale, w, r);
        stale_column(stale, (h, w), c);
    }

    /// Before probing at `depth`: every cell is stale at the root; below
    /// it, the parent's probe results stand except in the lines the guess
    /// and its line logic changed.
    fn mark_stale(&mut self, depth: usize) {
        let (h, w) = (self.grid.height(), self.grid.width());
        if depth == 0 || self.stale.len() != h * w {
            self.stale.clear();
            self.stale.resize(h * w, true);
            return;
        }
        let (now, before) = (&self.stack[depth], &self.stack[depth - 1]);
        for r in (0..h).filter(|&r| self.grid.line_differs(now, before, r)) {
            stale_row(&mut self.stale, w, r);
        }
        for c in (0..w).filter(|&c| self.grid.line_differs(now, before, h + c)) {
            stale_column(&mut self.stale, (h, w), c);
        }
    }

    /// Probing at `depth` (see the module notes). Leaves in `branch` the
    /// cell whose tries scored best. `false` on a contradiction; `true`
    /// also when the budget runs out.
    fn probe(&mut self, depth: usize) -> bool {
        let (h, w) = (self.grid.height(), self.grid.width());
        let mut best: Option<(usize, usize, usize, G::Value)> = None;
        let mut values = std::mem::take(&mut self.values);
        let (mut survivors, mut failed): (Vec<G::Value>, Vec<G::Value>) = (Vec::new(), Vec::new());
        let result = 'rounds: loop {
            let mut changed = false;
            for r in 0..h {
                for c in 0..w {
                    if self.grid.decided(&self.stack[depth], r, c) || !self.stale[r * w + c] {
                        continue;
                    }
                    if self.out_of_budget() {
                        break 'rounds true;
                    }
                    self.stale[r * w + c] = false;
                    self.grid.values(&self.stack[depth], r, c, &mut values);
                    survivors.clear();
                    failed.clear();
                    for &value in &values {
                        // Surviving tries fill the states above `depth` in turn.
                        if self.try_value(depth, depth + 1 + survivors.len(), r, c, value) {
                            survivors.push(value);
                        } else {
                            failed.push(value);
                        }
                    }
                    if survivors.is_empty() {
                        break 'rounds false;
                    }
                    let mut fixed = !failed.is_empty();
                    for &value in &failed {
                        self.grid.rule_out(&mut self.stack[depth], r, c, value);
                        Self::touched(&mut self.dirty, &mut self.stale, (h, w), r, c);
                    }
                    if survivors.len() > 1 {
                        // Each try's newly known cells; the product of each
                        // plus one (on icga2016's puzzles 401-500 it took half
                        // the time of Wu et al.'s smaller-of-the-two), and the
                        // value that fixed the most, first on a tie.
                        let before = self.grid.known(&self.stack[depth]);
                        let (mut score, mut most) = (1usize, (0, survivors[0]));
                        for (i, &value) in survivors.iter().enumerate() {
                            let gain = self.grid.known(&self.stack[depth + 1 + i]) - before;
                            score = score.saturating_mul(gain + 1);
                            if gain > most.0 {
                                most = (gain, value);
                            }
                        }
                        if best.is_none_or(|b| score > b.0) {
                            best = Some((score, r, c, most.1));
                        }
                        let (lo, hi) = self.stack.split_at_mut(depth + 1);
                        let (dirty, stale) = (&mut self.dirty, &mut self.stale);
                        self.grid
                            .join(&mut lo[depth], &hi[..survivors.len()], |row, col| {
                                Self::touched(dirty, stale, (h, w), row, col);
                                fixed = true;
                            });
                    }
                    if fixed {
                        changed = true;
                        if self.propagate(depth).is_err() {
                            break 'rounds false;
                        }
                    }
                }
            }
            if !changed {
                self.branch = best.map(|(_, r, c, v)| (r, c, v));
                break true;
            }
        };
        self.values = values;
        result
    }

    /// One search node: state `depth` with the lines in `dirty` to visit.
    fn node(&mut self, depth: usize, limit: usize, found: &mut Tally<G::Solution>) {
        self.nodes += 1;
        if self.nodes > self.node_cap {
            self.stopped = true;
        }
        if self.out_of_budget() {
            self.dirty.clear();
            return;
        }
        if self.propagate(depth).is_err() {
            return;
        }
        // Probing pays off on all but small puzzles (a 5x5 census runs faster without).
        let (h, w) = (self.grid.height(), self.grid.width());
        self.branch = None;
        if h * w > self.probe_above {
            self.mark_stale(depth);
            if !self.probe(depth) {
                return;
            }
        }
        if self.stopped {
            return;
        }
        let state = &self.stack[depth];
        // The line with the fewest unknown cells (> 0).
        let mut fewest: Option<(usize, usize, usize)> = None;
        for line in 0..h + w {
            let (unknown, at) = self.grid.unknowns(state, line);
            if unknown > 0 && fewest.is_none_or(|(u, ..)| unknown < u) {
                fewest = Some((unknown, line, at));
            }
        }
        let Some((_, line, at)) = fewest else {
            found.record(self.grid.solution(state));
            return;
        };
        // The probes' choice, if its cell is undecided and can still take
        // its value (a later round may have ruled a colour out without
        // deciding the cell); else the first unknown cell of that line.
        let chosen = self.branch.filter(|&(r, c, v)| {
            !self.grid.decided(state, r, c) && {
                self.grid.values(state, r, c, &mut self.values);
                self.values.contains(&v)
            }
        });
        let (r, c, value) = match chosen {
            Some(chosen) => chosen,
            None => {
                let (r, c) = if line < h { (line, at) } else { (at, line - h) };
                self.grid.values(state, r, c, &mut self.values);
                (r, c, self.values[0])
            }
        };
        // Both branches start from this node's probe results (when it probed).
        let stale = (h * w > self.probe_above).then(|| self.stale.clone());
        for with in [true, false] {
            if found.count >= limit || self.stopped {
                return;
            }
            if let Some(stale) = &stale {
                self.stale.clone_from(stale);
            }
            self.copy(depth, depth + 1);
            let child = &mut self.stack[depth + 1];
            if with {
                self.grid.set(child, r, c, value);
            } else {
                self.grid.rule_out(child, r, c, value);
            }
            self.dirty.insert(r);
            self.dirty.insert(h + c);
            self.node(depth + 1, limit, found);
        }
    }
}

/// Every cell of row `r` is to be probed again.
fn stale_row(stale: &mut [bool], w: usize, r: usize) {
    stale[r * w..(r + 1) * w].iter_mut().for_each(|s| *s = true);
}

/// Every cell of column `c` is to be probed again.
fn stale_column(stale: &mut [bool], (h, w): (usize, usize), c: usize) {
    (0..h).for_each(|row| stale[row * w + c] = true);
}
